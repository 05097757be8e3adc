"""Nadaraya–Watson regression against naive loops, its limits, and the softmax identity."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnmath import (
    KERNELS,
    attention,
    kernel_weights,
    loo_cv_error,
    loo_predictions,
    nadaraya_watson,
    softmax,
)

pytestmark = pytest.mark.filterwarnings("error")

RNG = np.random.default_rng(7)
X = np.sort(RNG.uniform(0, 1, 15))
Y = np.sin(2 * np.pi * X) + 0.2 * RNG.normal(size=15)


def naive_kernel(u2, kernel):
    if kernel == "gaussian":
        return math.exp(-u2 / 2)
    if kernel == "boxcar":
        return 1.0 if u2 <= 1 else 0.0
    return max(0.0, 1 - u2)


def naive_nw(q, xs, ys, sigma, kernel="gaussian"):
    k = [naive_kernel(((q - x) / sigma) ** 2, kernel) for x in xs]
    if sum(k) == 0:  # nothing in reach: the nearest point(s), as documented
        d = [abs(q - x) for x in xs]
        k = [1.0 if di == min(d) else 0.0 for di in d]
    return sum(ki * yi for ki, yi in zip(k, ys, strict=True)) / sum(k)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("sigma", [0.05, 0.2, 1.0])
def test_matches_naive_loop(kernel, sigma):
    queries = np.linspace(0.1, 0.9, 7)
    got = nadaraya_watson(queries, X, Y, sigma, kernel=kernel)
    expected = [naive_nw(q, X, Y, sigma, kernel) for q in queries]
    np.testing.assert_allclose(got, expected, rtol=1e-10)


def test_vector_inputs_match_naive_loop():
    keys = RNG.normal(size=(10, 3))
    values = RNG.normal(size=(10, 2))
    queries = RNG.normal(size=(4, 3))
    got = nadaraya_watson(queries, keys, values, 0.8)
    for q, row in zip(queries, got, strict=True):
        k = np.array([math.exp(-np.sum((q - x) ** 2) / (2 * 0.8**2)) for x in keys])
        np.testing.assert_allclose(row, k @ values / k.sum(), rtol=1e-10)


def test_bandwidth_sweep_in_one_call_equals_loop():
    sigmas = np.geomspace(0.01, 10, 9)
    queries = np.linspace(0, 1, 11)
    sweep = nadaraya_watson(queries, X, Y, sigmas)
    assert sweep.shape == (9, 11)
    for row, sigma in zip(sweep, sigmas, strict=True):
        np.testing.assert_allclose(row, nadaraya_watson(queries, X, Y, sigma))


def test_gaussian_is_softmax_of_negative_squared_distance():
    q = np.array([0.33])
    scores = -((q[:, None] - X[None, :]) ** 2) / (2 * 0.1**2)
    np.testing.assert_allclose(kernel_weights(q, X, 0.1), softmax(scores), rtol=1e-12)


def test_query_only_term_cancels_leaving_dot_product_plus_key_term():
    q, sigma = 0.41, 0.15
    dot_plus_key = (q * X) / sigma**2 - X**2 / (2 * sigma**2)
    np.testing.assert_allclose(kernel_weights([q], X, sigma)[0], softmax(dot_plus_key), rtol=1e-10)


def test_kernel_weights_are_attention_at_tau_sigma_squared_with_a_key_only_bias():
    """Section 2's last line: softmax(q k_i / tau + b_i), keys x_i, tau = sigma^2, b_i = -x_i^2 / 2 sigma^2,
    against the Gaussian kernel's weights computed one sample at a time."""
    q, sigma = 0.41, 0.15
    gauss = [math.exp(-((q - x) ** 2) / (2 * sigma**2)) for x in X]
    res = attention([[q]], X[:, None], Y[:, None], tau=sigma**2, bias=-(X**2) / (2 * sigma**2))
    np.testing.assert_allclose(res.weights[0], np.array(gauss) / sum(gauss), rtol=1e-10)


@pytest.mark.parametrize("kernel", KERNELS)
def test_tiny_bandwidth_is_nearest_neighbour_without_nan(kernel):
    queries = np.array([0.0, 0.37, 0.5, 2.0])
    pred = nadaraya_watson(queries, X, Y, 1e-200, kernel=kernel)
    nearest = Y[np.argmin(np.abs(queries[:, None] - X[None, :]), axis=1)]
    np.testing.assert_allclose(pred, nearest)


def test_ties_share_equally_at_tiny_bandwidth():
    np.testing.assert_allclose(kernel_weights([0.5], [0.0, 1.0, 3.0], 1e-12), [[0.5, 0.5, 0.0]])


@pytest.mark.parametrize("kernel", KERNELS)
def test_huge_bandwidth_is_global_mean(kernel):
    pred = nadaraya_watson(np.linspace(0, 1, 5), X, Y, 1e200, kernel=kernel)
    np.testing.assert_allclose(pred, np.full(5, Y.mean()), rtol=1e-10)


@pytest.mark.parametrize("kernel", ["boxcar", "epanechnikov"])
def test_compact_kernel_out_of_reach_falls_back_to_nearest_key(kernel):
    w = kernel_weights([5.0], X, 0.01, kernel=kernel)
    assert np.all(np.isfinite(w))
    assert w[0, np.argmax(X)] == 1.0


@settings(max_examples=100, deadline=None)
@given(
    arrays(np.float64, st.integers(2, 12), elements=st.floats(-10, 10), unique=True),
    st.floats(-12, 12),
    st.floats(1e-3, 1e3),
    st.sampled_from(KERNELS),
)
def test_weights_sum_to_one_and_prediction_stays_in_range(keys, q, sigma, kernel):
    values = np.cos(keys)
    w = kernel_weights([q], keys, sigma, kernel=kernel)
    assert np.all(w >= 0)
    assert math.isclose(w.sum(), 1.0, rel_tol=1e-12)
    pred = nadaraya_watson([q], keys, values, sigma, kernel=kernel)[0]
    assert values.min() - 1e-12 <= pred <= values.max() + 1e-12


def naive_loo(xs, ys, sigma, kernel="gaussian"):
    errors = []
    for j in range(len(xs)):
        others = [i for i in range(len(xs)) if i != j]
        pred = naive_nw(xs[j], [xs[i] for i in others], [ys[i] for i in others], sigma, kernel)
        errors.append((pred - ys[j]) ** 2)
    return sum(errors) / len(errors)


@pytest.mark.parametrize("kernel", KERNELS)
def test_loo_error_matches_naive_loop(kernel):
    sigmas = np.array([0.02, 0.08, 0.3, 2.0])
    expected = [naive_loo(X, Y, s, kernel) for s in sigmas]
    np.testing.assert_allclose(loo_cv_error(X, Y, sigmas, kernel=kernel), expected, rtol=1e-10)


@pytest.mark.parametrize("kernel", KERNELS)
def test_loo_predictions_are_each_point_from_the_others_by_a_naive_loop(kernel):
    for sigma in (0.08, 0.3):
        expected = [
            naive_nw(X[j], [X[i] for i in range(len(X)) if i != j], [Y[i] for i in range(len(X)) if i != j],
                     sigma, kernel)
            for j in range(len(X))
        ]  # fmt: skip
        np.testing.assert_allclose(loo_predictions(X, Y, sigma, kernel=kernel), expected, rtol=1e-10)


def test_loo_error_has_an_interior_minimum():
    sigmas = np.geomspace(1e-3, 10, 60)
    err = loo_cv_error(X, Y, sigmas)
    best = int(np.argmin(err))
    assert 0 < best < len(sigmas) - 1
    assert err[-1] == pytest.approx(naive_loo(X, Y, 10.0), rel=1e-9)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: kernel_weights([0.0], X, 0.0), ValueError, "bandwidth must be finite and > 0"),
        (lambda: kernel_weights([0.0], X, -1.0), ValueError, "bandwidth must be finite and > 0"),
        (lambda: kernel_weights([0.0], X, float("nan")), ValueError, "bandwidth must be finite"),
        (lambda: kernel_weights([0.0], X, 0.1, kernel="cosine"), ValueError, "kernel must be one of"),
        (lambda: kernel_weights([0.0], [], 0.1), ValueError, "keys must not be empty"),
        (lambda: kernel_weights([[0.0, 1.0]], X, 0.1), ValueError, "dimension 2 but keys have 1"),
        (lambda: nadaraya_watson([0.0], X, Y[:-1], 0.1), ValueError, "values must have one row per key"),
        (lambda: nadaraya_watson([0.0], X, ["a"] * 15, 0.1), TypeError, "values must be a real numeric"),
        (lambda: loo_cv_error([1.0], [1.0], [0.1]), ValueError, "at least 2 points"),
        (lambda: loo_cv_error(X, Y, []), ValueError, "bandwidth must not be empty"),
    ],
)
def test_bad_input_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_profile_matches_naive_kernel(kernel):
    from attnmath import kernel_profile

    pts = np.linspace(-1, 1, 9)
    got = kernel_profile(pts, 0.2, 0.5, kernel=kernel)
    np.testing.assert_allclose(got, [naive_kernel(((p - 0.2) / 0.5) ** 2, kernel) for p in pts])
    assert kernel_profile(pts, 0.2, [0.5, 1.0], kernel=kernel).shape == (2, 9)


def test_noisy_sine_is_seeded_and_sorted():
    from attnmath import noisy_sine

    x1, y1 = noisy_sine(12, seed=5)
    x2, y2 = noisy_sine(12, seed=5)
    np.testing.assert_array_equal(y1, y2)
    assert np.all(np.diff(x1) > 0)
    x0, y0 = noisy_sine(12, noise=0.0, seed=5)
    np.testing.assert_allclose(y0, np.sin(2 * np.pi * x0))
    with pytest.raises(ValueError, match="noise must be >= 0"):
        noisy_sine(3, noise=-1.0)
    xs, _ = noisy_sine(200, seed=5, low=0.2, high=0.4)  # fresh points drawn from a fitted range
    assert 0.2 <= xs.min() and xs.max() <= 0.4
    np.testing.assert_array_equal(noisy_sine(12, seed=5, low=0.0, high=1.0)[0], x1)  # the default range
    with pytest.raises(ValueError, match="low must be below high"):
        noisy_sine(3, low=1.0, high=1.0)
