"""Masks, ALiBi slopes and biases, T5 buckets, and the kernel-variant profiles."""

import math

import numpy as np
import pytest

from attnmath.positions import (
    alibi_bias,
    alibi_slopes,
    causal_mask,
    local_window_mask,
    t5_bias,
    t5_relative_position_bucket,
)
from attnmath.variants import VARIANTS, weight_profiles

pytestmark = pytest.mark.filterwarnings("error")


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, [2**-8]),
        (4, [2**-2, 2**-4, 2**-6, 2**-8]),
        (8, [2 ** -(i + 1) for i in range(8)]),
        (16, [2 ** -(0.5 * (i + 1)) for i in range(16)]),
        # 12: the 8-head slopes, then every other slope of 16 heads.
        (12, [2 ** -(i + 1) for i in range(8)] + [2**-0.5, 2**-1.5, 2**-2.5, 2**-3.5]),
    ],
)
def test_alibi_slopes_match_the_paper(n, expected):
    np.testing.assert_allclose(alibi_slopes(n), expected, rtol=1e-12)


def test_alibi_bias_and_masks_against_loops():
    n = 6
    b = alibi_bias(n, 0.5, causal=False)
    c = alibi_bias(n, 0.5)
    w = local_window_mask(n, 2, causal=True)
    for i in range(n):
        for j in range(n):
            assert b[i, j] == -0.5 * abs(i - j)
            assert c[i, j] == (-0.5 * (i - j) if j <= i else -np.inf)
            assert causal_mask(n)[i, j] == (j <= i)
            assert w[i, j] == (abs(i - j) <= 2 and j <= i)


def hf_bucket(rel, bidirectional=True, num_buckets=32, max_distance=128):
    """Hugging Face's T5 bucketing, transliterated element by element."""
    bucket = 0
    if bidirectional:
        num_buckets //= 2
        bucket += num_buckets if rel > 0 else 0
        rel = abs(rel)
    else:
        rel = -min(rel, 0)
    max_exact = num_buckets // 2
    if rel < max_exact:
        return bucket + rel
    large = max_exact + int(
        math.log(rel / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    )
    return bucket + min(large, num_buckets - 1)


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_buckets_match_reference(bidirectional):
    rel = np.array([-1000, -200, -128, -127, -64, -20, -9, -8, -7, -1, 0, 1, 7, 8, 9, 20, 64, 127, 128, 1000])
    got = t5_relative_position_bucket(rel, bidirectional=bidirectional)
    np.testing.assert_array_equal(got, [hf_bucket(int(r), bidirectional) for r in rel])


def test_t5_bucket_edges():
    # bidirectional, 32 buckets: 16 per direction, offsets 0..7 exact, the top bucket from 128 on.
    assert list(t5_relative_position_bucket(np.arange(0, -9, -1))) == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    assert t5_relative_position_bucket(np.array([-128]))[0] == 15
    assert t5_relative_position_bucket(np.array([5000]))[0] == 31


def test_t5_bias_indexes_bucket_values():
    values = np.arange(32.0)
    b = t5_bias(5, values)
    for i in range(5):
        for j in range(5):
            assert b[i, j] == hf_bucket(j - i)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: local_window_mask(4, -1), "window must be >= 0"),
        (lambda: alibi_slopes(0), "n_heads must be >= 1"),
        (lambda: t5_relative_position_bucket(np.array([1]), num_buckets=31), "num_buckets must be even"),
        (lambda: t5_bias(4, np.zeros(8)), "bucket_values must have shape"),
        (lambda: alibi_bias(3, -1.0), "slope must be"),
        (lambda: causal_mask(0), "n must be >= 1"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_profiles_are_distributions_with_the_expected_shapes():
    p = weight_profiles(0.5)
    assert set(p.content) == set(VARIANTS) == set(p.position)
    for w in (*p.content.values(), *p.position.values()):
        assert math.isclose(w.sum(), 1.0) and np.all(w >= 0)
    pos = p.position
    np.testing.assert_allclose(pos["dot-product"], 1 / 32)
    assert np.all(pos["local window"][:-5] == 0) and np.allclose(pos["local window"][-5:], 0.2)
    assert np.all(np.diff(pos["ALiBi"]) > 0)  # decays with distance
    assert np.all(np.diff(pos["T5 bias"]) >= 0)
    ratio = pos["ALiBi"][-1] / pos["ALiBi"][-2]
    assert ratio == pytest.approx(math.exp(0.25))


def test_content_profile_sharpens_as_tau_falls():
    sharp, flat = weight_profiles(0.05), weight_profiles(5.0)
    assert sharp.content["dot-product"][-1] > flat.content["dot-product"][-1]
    assert np.argmax(sharp.content["dot-product"]) == len(sharp.similarity) - 1


def test_content_profiles_are_the_tau_dependent_part_of_weight_profiles():
    from attnmath.variants import content_profiles

    full = weight_profiles(0.3)
    similarity, content = content_profiles(0.3)
    np.testing.assert_array_equal(similarity, full.similarity)
    for name in VARIANTS:
        np.testing.assert_array_equal(content[name], full.content[name])
    with pytest.raises(ValueError, match="tau must be finite and > 0"):
        content_profiles(0.0)


def _reference_profiles(tau: float, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Softmax's and linear attention's weights over unit keys at cosines ``s`` to the query (1, 0), by hand.

    Softmax: exp(s / tau); linear attention: phi(q / sqrt tau) . phi(k / sqrt tau), phi = elu + 1.
    """
    keys = np.stack([s, np.sqrt(1.0 - s**2)], axis=1)
    phi = lambda x: np.where(x > 0, x + 1.0, np.exp(x))  # noqa: E731
    soft = np.exp(s / tau) / np.exp(s / tau).sum()
    linear = np.array([phi(np.array([1.0, 0.0]) / np.sqrt(tau)) @ phi(k / np.sqrt(tau)) for k in keys])
    return soft, linear / linear.sum()


def _half_width(weights: np.ndarray) -> float:
    """Share of the similarity range where a profile is at least half its peak."""
    return float(np.mean(weights >= 0.5 * weights.max()))


def test_lowering_tau_narrows_linear_attention_far_less_than_softmax():
    """Section 4's sharpen beat: 'softmax sharpens onto the most similar keys, linear attention far less'.

    The drawn curves are checked against the written-out reference; the widths are read off it finely.
    """
    from attnmath.variants import content_profiles
    from lecture.sections.s4_kernel_variants import KernelVariantsParameters

    warm, cold = KernelVariantsParameters().tau_path[:2]
    widths = {}
    for tau in (warm, cold):
        similarity, drawn = content_profiles(tau)
        soft, linear = _reference_profiles(tau, similarity)
        np.testing.assert_allclose(drawn["dot-product"], soft, rtol=1e-9, atol=1e-300)
        np.testing.assert_allclose(drawn["linear (elu+1)"], linear, rtol=1e-9)
        widths[tau] = [_half_width(w) for w in _reference_profiles(tau, np.linspace(-1.0, 1.0, 4001))]
    soft_shrink = widths[warm][0] / widths[cold][0]
    linear_shrink = widths[warm][1] / widths[cold][1]
    assert soft_shrink > 5 * linear_shrink  # softmax narrows many times more
    assert widths[cold][1] > 0.3  # linear attention still spans a third of the range: broad
