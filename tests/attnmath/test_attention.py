"""Scaled dot-product attention and linear attention against naive loops and quadratic forms."""

import math

import numpy as np
import pytest

from attnmath import softmax
from attnmath.attention import attention, favor_features, linear_attention, linear_attention_weights
from attnmath.positions import alibi_bias, causal_mask

pytestmark = pytest.mark.filterwarnings("error")
RNG = np.random.default_rng(5)


def naive_attention(q, k, v, tau, bias=None):
    out = []
    for qi in range(len(q)):
        scores = [float(q[qi] @ k[j]) / tau + (0.0 if bias is None else bias[qi][j]) for j in range(len(k))]
        m = max(scores)
        e = [math.exp(s - m) if s > -math.inf else 0.0 for s in scores]
        w = [x / sum(e) for x in e]
        out.append(sum(wj * v[j] for j, wj in enumerate(w)))
    return np.array(out)


def test_matches_naive_loop_with_default_temperature():
    q, k, v = RNG.normal(size=(4, 8)), RNG.normal(size=(6, 8)), RNG.normal(size=(6, 3))
    res = attention(q, k, v)
    np.testing.assert_allclose(res.output, naive_attention(q, k, v, math.sqrt(8)), rtol=1e-12)
    np.testing.assert_allclose(res.weights.sum(-1), 1.0)


def test_leading_batch_and_head_axes():
    q, k, v = RNG.normal(size=(2, 3, 5, 4)), RNG.normal(size=(2, 3, 7, 4)), RNG.normal(size=(2, 3, 7, 2))
    res = attention(q, k, v, tau=1.5)
    for b in range(2):
        for h in range(3):
            np.testing.assert_allclose(res.output[b, h], naive_attention(q[b, h], k[b, h], v[b, h], 1.5))


def test_mask_gives_exact_zeros_and_matches_bias_of_minus_inf():
    q, k, v = RNG.normal(size=(5, 4)), RNG.normal(size=(5, 4)), RNG.normal(size=(5, 2))
    res = attention(q, k, v, mask=causal_mask(5))
    assert np.all(res.weights[~causal_mask(5)] == 0.0)
    bias = np.where(causal_mask(5), 0.0, -np.inf)
    np.testing.assert_allclose(res.output, naive_attention(q, k, v, 2.0, bias))


def test_bias_is_a_prior_exp_b():
    q, k, v = RNG.normal(size=(6, 4)), RNG.normal(size=(6, 4)), RNG.normal(size=(6, 2))
    b = alibi_bias(6, 0.3)
    res = attention(q, k, v, tau=1.0, bias=b)
    prior = np.exp(b)
    np.testing.assert_allclose(res.weights, softmax(q @ k.T, 1.0, prior=prior), atol=1e-14)


def test_all_false_mask_row_is_rejected():
    q = k = v = np.ones((3, 2))
    mask = causal_mask(3)
    mask[1] = False
    with pytest.raises(ValueError, match="no True entry"):
        attention(q, k, v, mask=mask)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"queries": np.ones((2, 3)), "keys": np.ones((2, 4)), "values": np.ones((2, 1))}, "same width d_k"),
        ({"queries": np.ones((2, 3)), "keys": np.ones((2, 3)), "values": np.ones((3, 1))}, "same length"),
        ({"queries": np.ones(3), "keys": np.ones((2, 3)), "values": np.ones((2, 1))}, "at least 2 dimension"),
        (
            {"queries": np.ones((2, 3)), "keys": np.ones((2, 3)), "values": np.ones((2, 1)), "tau": 0.0},
            "tau must",
        ),
        (
            {
                "queries": np.ones((2, 3)),
                "keys": np.ones((2, 3)),
                "values": np.ones((2, 1)),
                "mask": np.ones(2),
            },
            "mask must be a boolean",
        ),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        attention(**kwargs)


def elu1(x):
    return np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("fmap", ["elu+1", "relu"])
def test_linear_attention_equals_its_quadratic_form(causal, fmap):
    q, k, v = RNG.normal(size=(7, 4)), RNG.normal(size=(7, 4)), RNG.normal(size=(7, 3))
    phi = elu1 if fmap == "elu+1" else (lambda x: np.maximum(x, 0))
    expected = []
    for t in range(7):
        visible = range(t + 1) if causal else range(7)
        kern = [float(phi(q[t]) @ phi(k[j])) for j in visible]
        den = sum(kern)
        expected.append(
            sum(kj * v[j] for kj, j in zip(kern, visible, strict=True)) / den if den > 0 else 0 * v[0]
        )
    got = linear_attention(q, k, v, feature_map=fmap, causal=causal)
    np.testing.assert_allclose(got, np.array(expected), rtol=1e-10, atol=1e-12)
    w = linear_attention_weights(q, k, feature_map=fmap, causal=causal)
    np.testing.assert_allclose(w @ v, got, rtol=1e-10, atol=1e-12)


def test_linear_attention_with_leading_axes_and_callable_map():
    q, k, v = RNG.normal(size=(2, 5, 3)), RNG.normal(size=(2, 6, 3)), RNG.normal(size=(2, 6, 2))
    proj = RNG.normal(size=(16, 3))
    got = linear_attention(q, k, v, feature_map=lambda x: favor_features(x, proj))
    for b in range(2):
        w = linear_attention_weights(q[b], k[b], feature_map=lambda x: favor_features(x, proj))
        np.testing.assert_allclose(got[b], w @ v[b], rtol=1e-10)


def test_favor_features_converge_to_the_softmax_kernel():
    rng = np.random.default_rng(0)
    x, y = np.array([0.3, -0.2, 0.5]), np.array([-0.1, 0.4, 0.2])
    exact = math.exp(float(x @ y))
    errors = []
    for m in (16, 256, 4096, 65536):
        w = rng.normal(size=(m, 3))
        errors.append(abs(float(favor_features(x, w) @ favor_features(y, w)) - exact))
    assert errors[-1] < 0.02 * exact
    assert errors[-1] < errors[0]


def test_linear_attention_rejects_negative_features():
    x = np.ones((2, 2))
    with pytest.raises(ValueError, match="non-negative"):
        linear_attention(x, x, x, feature_map=lambda z: z - 5)
    with pytest.raises(ValueError, match="feature_map must be one of"):
        linear_attention(x, x, x, feature_map="tanh")


def test_dot_product_samples_are_q_dot_k_with_variance_d():
    """A naive loop over the same draws gives the same sums; their variance is d (closed form: each of the
    d products of independent standard normals has variance 1), within sampling error."""
    from attnmath import dot_product_samples

    for d in (4, 16, 64):
        got = dot_product_samples(d, 20_000, seed=3)
        rng = np.random.default_rng(3)
        q, k = rng.standard_normal((20_000, d)), rng.standard_normal((20_000, d))
        naive = [sum(q[j, i] * k[j, i] for i in range(d)) for j in range(50)]
        np.testing.assert_allclose(got[:50], naive, rtol=1e-12, atol=1e-12)
        assert abs(got.var() / d - 1) < 0.05
        assert abs((got / np.sqrt(d)).var() - 1) < 0.05  # divided by root d: variance one, whatever d


def test_dot_product_samples_refuse_a_bad_width():
    from attnmath import dot_product_samples

    with pytest.raises(ValueError, match="d must be >= 1"):
        dot_product_samples(0, 10)
