"""Numbers KernelRegressionCollapse speaks, recomputed by hand from its data (not the scene's code)."""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from lecture.sections.s2_kernel_regression import KernelRegressionParameters

S = KernelRegressionParameters()  # the scene's data parameters
SIGMAS = np.geomspace(*S.sigma_range, S.grid_size)  # the grid the scene's bandwidth slider steps through
SHOWN = 0.01  # the scene's threshold for a weight bar too thin to see (a drawing choice, not a result)


@cache
def data() -> tuple[np.ndarray, np.ndarray]:
    """The noisy sine, drawn by hand: sorted uniform x, sin(2 pi x) plus Gaussian noise."""
    rng = np.random.default_rng(S.seed)
    x = np.sort(rng.uniform(0.0, 1.0, S.n_points))
    return x, np.array([math.sin(2 * math.pi * v) for v in x]) + S.noise * rng.normal(size=S.n_points)


def weights(q: float, sigma: float, skip: int | None = None) -> dict[int, float]:
    """Gaussian weights of the samples at ``q``, one at a time, sample ``skip`` left out (the largest
    log-weight first subtracted, so that a tiny bandwidth does not underflow)."""
    x, _ = data()
    logs = {i: -((q - x[i]) ** 2) / (2 * sigma**2) for i in range(x.size) if i != skip}
    top = max(logs.values())
    k = {i: math.exp(v - top) for i, v in logs.items()}
    return {i: v / sum(k.values()) for i, v in k.items()}


def effective_k(sigma: float) -> float:
    """e to the entropy of the Gaussian weights at the scene's query, one sample at a time."""
    w = weights(S.query, sigma).values()
    return math.exp(-sum(wi * math.log(wi) for wi in w if wi > 0))


@cache
def best_sigma() -> float:
    """The grid bandwidth with the lowest leave-one-out error, each sample predicted from the rest."""
    x, y = data()

    def loo(sigma: float) -> float:
        errors = []
        for j in range(x.size):
            w = weights(x[j], sigma, skip=j)
            errors.append((sum(wi * y[i] for i, wi in w.items()) - y[j]) ** 2)
        return sum(errors) / x.size

    return float(min(SIGMAS, key=loo))


def visible_bars() -> list[str]:
    """How many weight bars show at the best bandwidth (spoken as a digit unless one or all), after
    checking that they are the ones nearest q, as the description says."""
    x, _ = data()
    w = weights(S.query, best_sigma())
    shown = {i for i, wi in w.items() if wi > SHOWN}
    assert shown == set(sorted(range(x.size), key=lambda i: abs(x[i] - S.query))[: len(shown)])
    return [] if len(shown) in (1, x.size) else [str(len(shown))]


def nears_n() -> list[str]:
    """At the widest bandwidth k effective must round to the number of samples, the number spoken."""
    assert round(effective_k(S.sigma_range[1])) == S.n_points
    return [str(S.n_points)]


def near_zero_entropy() -> list[str]:
    """At the narrowest bandwidth the entropy must read 0.00 on the two-decimal readout: 'near zero'."""
    assert math.log(effective_k(S.sigma_range[0])) < 0.005
    return []


def tiny() -> list[str]:
    """The narrowest bandwidth (a constant of the parameters) and the largest weight there."""
    return [f"{S.sigma_range[0]:.3f}", f"{max(weights(S.query, S.sigma_range[0]).values()):.2f}"]


def huge() -> list[str]:
    """The widest bandwidth (a constant), the count of bars and the level every bar reads at (each weight,
    not only their mean, must round to it)."""
    w = weights(S.query, S.sigma_range[1]).values()
    level = {f"{wi:.2f}" for wi in w}
    assert len(level) == 1, level
    return [f"{S.sigma_range[1]:g}", str(S.n_points), *level]


def expand_factor() -> list[str]:
    """The 2 in x_i squared over 2 sigma squared: the Gaussian's own 2, the expansion checked at a point."""
    q, xi, sigma = 0.3, 0.8, 0.7
    assert math.isclose(
        -((q - xi) ** 2) / (2 * sigma**2), q * xi / sigma**2 - xi**2 / (2 * sigma**2) - q**2 / (2 * sigma**2)
    )
    return ["2"]


def worked() -> list[str]:
    """The heaviest sample's exponent and exponential at the best bandwidth, their sum, and the ratio."""
    x, _ = data()
    sigma = best_sigma()
    e = {i: math.exp(-((S.query - x[i]) ** 2) / (2 * sigma**2)) for i in range(x.size)}
    k, total = max(e, key=lambda i: e[i]), sum(e.values())
    assert math.isclose(e[k] / total, weights(S.query, sigma)[k])  # the ratio is the bar's weight
    exponent = (S.query - x[k]) ** 2 / (2 * sigma**2)  # the worked line's e^{-...}, by hand
    return [f"{exponent:.2f}", f"{e[k]:.3g}", f"{total:.3g}", f"{e[k] / total:.2f}"]


EXPECTED = {
    "data": lambda: [str(S.n_points)],
    "tiny-bandwidth": near_zero_entropy,
    "huge-bandwidth": nears_n,
    "data.description": lambda: ["0", "1"],  # the input axis, 0 to 1, typed in the scene (x is U(0, 1))
    "query-kernel.description": visible_bars,
    "bandwidth.description": lambda: [f"{best_sigma():.3f}"],
    "tiny-bandwidth.description": tiny,
    "predict-answer.description": huge,
    "leave-one-out.description": lambda: [f"{best_sigma():.3f}"],
    "expand.description": expand_factor,
    "softmax-form.description": worked,
}
