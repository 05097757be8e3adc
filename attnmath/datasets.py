"""Small seeded example data sets the scenes draw."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from attnmath._validate import FloatArray, check_int

__all__ = ["noisy_sine"]


RETRIEVAL_SCORES: tuple[float, ...] = (1.2, 0.4, 2.6, 1.9, 0.8, 3.0, 1.5, 0.3, 2.2, 1.0, 2.8, 0.6)
"""The twelve memory items' scores that section 3 sweeps the temperature over (its default)."""


def noisy_sine(
    n: int, *, noise: float = 0.25, seed: int = 0, low: float = 0.0, high: float = 1.0
) -> tuple[FloatArray, FloatArray]:
    r"""Sorted :math:`x_i \sim U(\text{low}, \text{high})` and :math:`y_i = \sin(2\pi x_i) + \varepsilon_i`.

    Parameters
    ----------
    n : int
        Number of samples (>= 1).
    noise : float
        Standard deviation of the Gaussian noise (>= 0).
    seed : int
        Seed of ``numpy.random.default_rng``.
    low, high : float
        The interval the positions are drawn from (``low < high``); fresh points for judging a fit are
        drawn from the fitted points' own range, so that their error is not partly extrapolation.

    Returns
    -------
    x, y : ndarray, shape (n,)

    Examples
    --------
    >>> x, y = noisy_sine(5, seed=1)
    >>> bool(np.all(np.diff(x) > 0)), x.shape
    (True, (5,))
    """
    n = check_int(n, "n", minimum=1)
    if not noise >= 0:
        raise ValueError(f"noise must be >= 0, got {noise}")
    if not low < high:
        raise ValueError(f"low must be below high, got {low} and {high}")
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(low, high, n))
    return x, sine(x) + noise * rng.normal(size=n)


def sine(x: ArrayLike) -> FloatArray:
    r"""The curve :func:`noisy_sine` samples, without its noise: :math:`\sin(2\pi x)`.

    >>> sine([0.0, 0.25, 0.75]).round(12).tolist()
    [0.0, 1.0, -1.0]
    """
    return np.sin(2 * np.pi * np.asarray(x, dtype=np.float64))
