"""Held-out errors of section 1: the best Gaussian bandwidth and the learned similarity on fresh points."""

import math

import numpy as np
import pytest

from attnmath import best_bandwidth, fit_similarity, held_out_errors

pytestmark = pytest.mark.filterwarnings("error")

RNG = np.random.default_rng(5)
X = np.sort(RNG.uniform(0, 1, 9))
Y = np.sin(2 * np.pi * X) + 0.2 * RNG.normal(size=9)
TX = RNG.uniform(0, 1, 13)
TY = np.sin(2 * np.pi * TX) + 0.2 * RNG.normal(size=13)


def naive_loo(sigma: float) -> float:
    """Leave-one-out error of Gaussian kernel regression, one point at a time."""
    total = 0.0
    for j in range(X.size):
        w = [math.exp(-((X[j] - X[i]) ** 2) / (2 * sigma**2)) if i != j else 0.0 for i in range(X.size)]
        total += (sum(wi * yi for wi, yi in zip(w, Y, strict=True)) / sum(w) - Y[j]) ** 2
    return total / X.size


def test_best_bandwidth_has_the_lowest_naive_leave_one_out_error():
    sigmas = np.geomspace(0.01, 2.0, 40)
    assert best_bandwidth(X, Y, sigmas) == min(sigmas, key=naive_loo)


def test_held_out_errors_match_a_naive_loop():
    fit = fit_similarity(X, Y, seed=0)
    m = fit.w_q @ fit.w_k.T  # score of (q, k) = phi(q)^T W_Q W_K^T phi(k), at temperature 1
    gauss, learned = 0.0, 0.0
    for q, t in zip(TX, TY, strict=True):
        kw = [math.exp(-((q - x) ** 2) / (2 * 0.1**2)) for x in X]
        scores = [np.array([q, q * q, 1.0]) @ m @ np.array([x, x * x, 1.0]) for x in X]
        top = max(scores)
        aw = [math.exp(s - top) for s in scores]
        gauss += (sum(w * y for w, y in zip(kw, Y, strict=True)) / sum(kw) - t) ** 2
        learned += (sum(w * y for w, y in zip(aw, Y, strict=True)) / sum(aw) - t) ** 2
    got = held_out_errors(fit, 0.1, X, Y, TX, TY)
    assert got == pytest.approx((gauss / TX.size, learned / TX.size), rel=1e-9)


def test_held_out_errors_reject_mismatched_test_points():
    fit = fit_similarity(X, Y, seed=0)
    with pytest.raises(ValueError):
        held_out_errors(fit, 0.1, X, Y, TX, TY[:-1])


def test_the_noise_floor_is_the_sines_own_squared_error_and_refuses_mismatched_points():
    from attnmath import noise_floor, noisy_sine

    x, y = noisy_sine(500, noise=0.25, seed=7)
    by_hand = sum((b - math.sin(2 * math.pi * a)) ** 2 for a, b in zip(x, y, strict=True)) / len(x)
    assert noise_floor(x, y) == pytest.approx(by_hand, rel=1e-12)
    assert noise_floor(x, y) == pytest.approx(0.25**2, rel=0.15)  # its expectation: the noise's variance
    with pytest.raises(ValueError, match="x and y must be non-empty and of one length"):
        noise_floor([0.1, 0.2], [0.3])


def test_ten_times_the_tuning_points_bring_the_learned_fresh_error_to_the_gaussians():
    """Section 1's third question, on the lecture's data: tuned on 10 points the learned similarity loses
    on fresh ones; both tuned on 100 from the same noisy sine, its fresh error is about the Gaussian's,
    near the noise's own. (Fresh points as the scene draws them: 200, seed 100, within the tuning range.)"""
    from attnmath import noise_floor, noisy_sine
    from lecture.sections.s1_fixed_vs_query import FixedVsQueryParameters

    p = FixedVsQueryParameters()
    errors = []
    for n in (p.n_points, 10 * p.n_points):
        x, y = noisy_sine(n, noise=p.noise, seed=p.seed)
        fresh = noisy_sine(200, noise=p.noise, seed=100, low=float(x.min()), high=float(x.max()))
        bandwidth = best_bandwidth(x, y, np.geomspace(1e-3, 10, 200))
        errors.append(held_out_errors(fit_similarity(x, y), bandwidth, x, y, *fresh))
    (gauss_few, learned_few), (gauss_many, learned_many) = errors
    assert learned_few > 2 * gauss_few  # what the section shows: it lost on fresh points
    assert 0.9 * gauss_many < learned_many < 1.1 * gauss_many  # "about the Gaussian's", not well below
    assert learned_many < 1.1 * noise_floor(*fresh)  # "near the noise's own error"
