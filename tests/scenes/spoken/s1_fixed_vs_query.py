"""Numbers FixedVsQueryWeights speaks, recomputed with naive loops over its data (not the scene's code).

The learned projections come from ``attnmath.fit_similarity`` (an optimiser: there is no closed form to
check them against); every error spoken is recomputed here from the data and those projections alone.
"""

from __future__ import annotations

import math
from functools import cache
from types import SimpleNamespace

import numpy as np

from attnmath import fit_similarity
from lecture.sections.s1_fixed_vs_query import FixedVsQueryParameters
from scenes.s1_fixed_vs_query import FixedVsQueryWeights

# the scene's data parameters (its model) and its own held-out sample settings
S = SimpleNamespace(
    **FixedVsQueryParameters().values(),
    n_fresh=FixedVsQueryWeights.n_fresh,
    fresh_seed=FixedVsQueryWeights.fresh_seed,
)

BANDWIDTHS = np.geomspace(1e-3, 10, 200)  # the grid the scene's best Gaussian bandwidth is chosen from


def data(n: int, seed: int, low: float = 0.0, high: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The noisy sine of section 1, drawn by hand: sorted uniform x, sin(2 pi x) plus Gaussian noise."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(low, high, n))
    return x, np.array([math.sin(2 * math.pi * v) for v in x]) + S.noise * rng.normal(size=n)


def predict(log_weight, x, y, q: float, skip: int | None = None) -> float:
    """Average of y weighted by exp(log_weight(q, x_i)), point ``skip`` left out (largest log-weight first
    subtracted, so that a tiny bandwidth does not underflow)."""
    keep = [i for i in range(len(x)) if i != skip]
    logs = {i: log_weight(q, x[i]) for i in keep}
    top = max(logs.values())
    w = {i: math.exp(v - top) for i, v in logs.items()}
    return sum(w[i] * y[i] for i in keep) / sum(w.values())


def gaussian(sigma: float):
    """Log of the Gaussian kernel at ``sigma``."""
    return lambda q, k: -((q - k) ** 2) / (2 * sigma**2)


@cache
def leave_one_out() -> tuple[float, float]:
    """(the best bandwidth on the grid, its leave-one-out error), each point predicted from the rest."""
    x, y = data(S.n_points, S.seed)
    loo = {}
    for s in BANDWIDTHS:
        loo[s] = sum((predict(gaussian(s), x, y, x[j], j) - y[j]) ** 2 for j in range(x.size)) / x.size
    sigma = min(loo, key=loo.__getitem__)
    return sigma, loo[sigma]


@cache
def errors() -> tuple[float, float, float, float, int]:
    """(Gaussian leave-one-out, learned leave-one-out, Gaussian fresh, learned fresh, parameter count)."""
    x, y = data(S.n_points, S.seed)
    sigma, g_loo = leave_one_out()
    fit = fit_similarity(x, y)
    m = fit.w_q @ fit.w_k.T  # score phi(q)^T W_Q W_K^T phi(k), at temperature 1
    learned = lambda q, k: float(np.array([q, q * q, 1.0]) @ m @ np.array([k, k * k, 1.0]))  # noqa: E731
    a_loo = sum((predict(learned, x, y, x[j], j) - y[j]) ** 2 for j in range(x.size)) / x.size
    fx, fy = data(S.n_fresh, S.fresh_seed, min(x), max(x))  # fresh points where the fitted ones lie
    fresh = list(zip(fx, fy, strict=True))
    g_new = sum((predict(gaussian(sigma), x, y, q) - t) ** 2 for q, t in fresh) / fx.size
    a_new = sum((predict(learned, x, y, q) - t) ** 2 for q, t in fresh) / fx.size
    return g_loo, a_loo, g_new, a_new, fit.w_q.size + fit.w_k.size


def noise_floor() -> float:
    """The noise-free sine's mean squared error on the fresh points, one at a time: none does better."""
    x, _ = data(S.n_points, S.seed)
    fx, fy = data(S.n_fresh, S.fresh_seed, min(x), max(x))
    return sum((t - math.sin(2 * math.pi * q)) ** 2 for q, t in zip(fx, fy, strict=True)) / fx.size


@cache
def numbers_that_move_the_weights() -> int:
    """The rank of the attention weights' Jacobian in the 12 projection numbers, by central differences.

    The weights are written out here: softmax over keys of phi(x_j)^T W_Q W_K^T phi(x_i), phi = (x, x^2, 1).
    The count is the structure's, so it is taken at a generic point of the projections' shape (at the fitted
    point some weights are near 0 or 1, where their slopes vanish to rounding).
    """
    x, y = data(S.n_points, S.seed)
    fit = fit_similarity(x, y)
    z = (x - x.mean()) / x.std()
    phi = np.stack([z, z * z, np.ones_like(z)], axis=1)

    def weights(p: np.ndarray) -> np.ndarray:
        w_q, w_k = p[: fit.w_q.size].reshape(fit.w_q.shape), p[fit.w_q.size :].reshape(fit.w_k.shape)
        rows = []
        for j in range(z.size):
            scores = [float(phi[j] @ w_q @ w_k.T @ phi[i]) for i in range(z.size)]
            top = max(scores)
            e = [math.exp(s - top) for s in scores]
            rows.append([v / sum(e) for v in e])
        return np.array(rows).ravel()

    p0, h = np.random.default_rng(1).normal(scale=0.5, size=fit.w_q.size + fit.w_k.size), 1e-5
    jac = np.stack([(weights(p0 + h * e) - weights(p0 - h * e)) / (2 * h) for e in np.eye(p0.size)], axis=1)
    sv = np.linalg.svd(jac, compute_uv=False)
    return int(np.sum(sv > 1e-6 * sv[0]))


def said(v: float) -> str:
    """Two significant figures, as a person reads a small error."""
    return f"{v:.2g}"


EXPECTED = {
    "mean": lambda: [str(S.n_points)],
    "mean-flat": lambda: [str(S.n_points)],  # "each of the N points, here 10"
    "fitted": lambda: [str(S.n_points), said(errors()[1]), said(errors()[0])],
    "fitted.description": lambda: [said(errors()[1]), said(errors()[0])],  # learned, then best Gaussian
    "held-out": lambda: [str(S.n_fresh), str(S.n_points), said(errors()[2]), said(errors()[3])],
    "held-out.description": lambda: [f"{noise_floor():.3f}"],  # the sine's own error on the fresh points
    "overfit": lambda: [str(errors()[4]), str(numbers_that_move_the_weights()), str(S.n_points)],
    "overfit.description": lambda: [said(errors()[1]), said(errors()[3])],  # learned: tuned on, then fresh
    # all N bars at 1 over N: the count of points and the mean's constant weight 1/N
    "predict-answer.description": lambda: [str(S.n_points), "1", str(S.n_points)],
    # the count of the original points, among the fresh ones
}
