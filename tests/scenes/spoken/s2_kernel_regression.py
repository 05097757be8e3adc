"""Numbers KernelRegressionCollapse speaks, recomputed by hand from its data (not the scene's code)."""

from __future__ import annotations

import math

import numpy as np

from lecture.parameters import KernelRegressionParameters

S = KernelRegressionParameters()  # the scene's data parameters


def effective_k(sigma: float) -> float:
    """e to the entropy of the Gaussian weights at the scene's query, one sample at a time."""
    rng = np.random.default_rng(S.seed)
    x = np.sort(rng.uniform(0.0, 1.0, S.n_points))
    k = [math.exp(-((S.query - xi) ** 2) / (2 * sigma**2)) for xi in x]
    w = [ki / sum(k) for ki in k]
    return math.exp(-sum(wi * math.log(wi) for wi in w if wi > 0))


def nears_n() -> list[str]:
    """At the widest bandwidth k effective must round to the number of samples, the number spoken."""
    assert round(effective_k(S.sigma_range[1])) == S.n_points
    return [str(S.n_points)]


def near_zero_entropy() -> list[str]:
    """At the narrowest bandwidth the entropy must read 0.00 on the two-decimal readout: 'near zero'."""
    assert math.log(effective_k(S.sigma_range[0])) < 0.005
    return []


EXPECTED = {
    "data": lambda: [str(S.n_points)],
    "tiny-bandwidth": near_zero_entropy,
    "huge-bandwidth": nears_n,
}
