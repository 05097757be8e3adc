"""Small seeded example data sets the scenes draw."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from attnmath._validate import FloatArray, check_int

__all__ = ["noise_floor", "noisy_sine", "sine"]


RETRIEVAL_WORDS: tuple[str, ...] = tuple("The small cat chased the old dog across the garden".split())
"""Section 3's memory items: the running sentence's words (section 5's sentence, which section 6 decodes)."""

SCORE_HEAD: tuple[int, int] = (28, 8)
"""Where section 3's scores come from: SmolLM2-135M's layer 28, query head 8 (both counted from 1)."""

RETRIEVAL_SCORES: tuple[float, ...] = (3.2, 0.3, 3.1, 2.8, 1.0, 0.7, 3.8, 2.5, 1.1, 3.4)
"""Section 3's scores (its default), to one decimal: :data:`SCORE_HEAD`'s :math:`q \\cdot k_i / \\sqrt{64}`
from the sentence's last word, "garden", to each of its words, the sentence run through the model alone.
``tests/attnmath/test_decoder.py`` recomputes them from the model."""


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


def noise_floor(x: ArrayLike, y: ArrayLike) -> float:
    r"""The mean squared error of the noise-free curve itself on points ``(x, y)`` of :func:`noisy_sine`.

    No predictor does better on average: it is the points' own noise, :math:`\frac{1}{n}\sum_i
    (y_i - \sin 2\pi x_i)^2`, whose expectation is the noise's variance.

    >>> noise_floor([0.25, 0.75], [1.5, -1.0])
    0.125
    """
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if xs.shape != ys.shape or xs.ndim != 1 or xs.size == 0:
        raise ValueError(f"x and y must be non-empty and of one length, got shapes {xs.shape} and {ys.shape}")
    return float(np.mean((ys - sine(xs)) ** 2))
