r"""Position-only structure: causal and local-window masks, ALiBi and T5 relative biases.

A bias :math:`b_{tj}` added to the scores before the softmax multiplies the
kernel by a position prior :math:`r_{tj} = e^{b_{tj}}` — the KL-regularised
form :math:`a_j \propto r_j \exp(s_j/\tau)` of section 3.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attnmath._validate import FloatArray, as_float_array, check_int

__all__ = [
    "causal_mask",
    "local_window_mask",
    "alibi_slopes",
    "alibi_bias",
    "t5_relative_position_bucket",
    "t5_bias",
    "stylized_t5_bucket_values",
]


def causal_mask(n: int) -> NDArray[np.bool_]:
    """Boolean (n, n), True on and below the diagonal: position t sees 0..t.

    Examples
    --------
    >>> causal_mask(3).astype(int)
    array([[1, 0, 0],
           [1, 1, 0],
           [1, 1, 1]])
    """
    n = check_int(n, "n", minimum=1)
    return np.tril(np.ones((n, n), dtype=bool))


def _offsets(n: int) -> NDArray[np.int64]:
    """Relative position key - query, shape (n, n)."""
    idx = np.arange(n)
    return idx[None, :] - idx[:, None]


def local_window_mask(n: int, window: int, *, causal: bool = False) -> NDArray[np.bool_]:
    """Boolean (n, n), True where ``|i - j| <= window`` (and ``j <= i`` when causal).

    Examples
    --------
    >>> local_window_mask(4, 1).astype(int)
    array([[1, 1, 0, 0],
           [1, 1, 1, 0],
           [0, 1, 1, 1],
           [0, 0, 1, 1]])
    """
    n = check_int(n, "n", minimum=1)
    window = check_int(window, "window", minimum=0)
    rel = _offsets(n)
    mask = np.abs(rel) <= window
    return mask & (rel <= 0) if causal else mask


def alibi_slopes(n_heads: int) -> FloatArray:
    """ALiBi head slopes (Press et al. 2022).

    For a power of two n the slopes are the geometric sequence starting at
    and with ratio :math:`2^{-8/n}`. Otherwise the slopes of the closest
    smaller power of two are followed by every other slope of twice that
    number of heads, as in the paper's reference code.

    Examples
    --------
    >>> alibi_slopes(4)
    array([0.25      , 0.0625    , 0.015625  , 0.00390625])
    """
    n_heads = check_int(n_heads, "n_heads", minimum=1)
    if n_heads & (n_heads - 1) == 0:
        start = 2.0 ** (-8.0 / n_heads)
        return start ** np.arange(1, n_heads + 1)
    closest = 2 ** int(math.floor(math.log2(n_heads)))
    extra = alibi_slopes(2 * closest)[0::2][: n_heads - closest]
    return np.concatenate([alibi_slopes(closest), extra])


def alibi_bias(n: int, slope: float, *, causal: bool = True) -> FloatArray:
    """ALiBi bias (n, n): ``-slope * |i - j|``, and ``-inf`` above the diagonal when causal.

    Examples
    --------
    >>> alibi_bias(3, 0.5)
    array([[ 0. , -inf, -inf],
           [-0.5,  0. , -inf],
           [-1. , -0.5,  0. ]])
    """
    n = check_int(n, "n", minimum=1)
    if not (isinstance(slope, (int, float, np.floating)) and math.isfinite(slope) and slope >= 0):
        raise ValueError(f"slope must be a finite number >= 0, got {slope!r}")
    rel = _offsets(n)
    bias = 0.0 - float(slope) * np.abs(rel).astype(float)  # 0.0 - x: no negative zeros on the diagonal
    return np.where(rel > 0, -np.inf, bias) if causal else bias


def _check_buckets(bidirectional: bool, num_buckets: int, max_distance: int) -> tuple[int, int]:
    num_buckets = check_int(num_buckets, "num_buckets", minimum=2)
    max_distance = check_int(max_distance, "max_distance", minimum=1)
    if bidirectional and num_buckets % 2:
        raise ValueError(f"num_buckets must be even when bidirectional, got {num_buckets}")
    half = num_buckets // 2 if bidirectional else num_buckets
    if max_distance <= half // 2:
        raise ValueError(f"max_distance must exceed the exact range {half // 2}, got {max_distance}")
    return num_buckets, max_distance


def t5_relative_position_bucket(
    relative_position: Any, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> NDArray[np.int64]:
    """T5's bucket for each relative position (key position - query position).

    Half the buckets (per direction when bidirectional) hold the small offsets
    exactly; the rest cover offsets up to ``max_distance`` logarithmically,
    and everything beyond shares the last bucket. Unidirectional buckets
    count only offsets into the past (positive offsets map to bucket 0).

    Examples
    --------
    >>> t5_relative_position_bucket(np.array([-3, -1, 0, 1, 3]), num_buckets=8, max_distance=16)
    array([2, 1, 0, 5, 6])
    """
    rel = as_float_array(relative_position, "relative_position")
    if not np.all(rel == np.round(rel)):
        raise ValueError("relative_position must hold integers")
    rel = rel.astype(np.int64)
    num_buckets, max_distance = _check_buckets(bidirectional, num_buckets, max_distance)
    buckets = np.zeros_like(rel)
    if bidirectional:
        num_buckets //= 2
        buckets += (rel > 0).astype(np.int64) * num_buckets
        distance = np.abs(rel)
    else:
        distance = -np.minimum(rel, 0)
    max_exact = num_buckets // 2
    large = _large_bucket(distance, max_exact, max_distance, num_buckets)
    return (buckets + np.where(distance < max_exact, distance, large)).astype(np.int64)


def _large_bucket(distance: NDArray[np.int64], max_exact: int, max_distance: int, num_buckets: int) -> Any:
    safe = np.maximum(distance, max_exact).astype(float)
    scaled = np.log(safe / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    return np.minimum(max_exact + scaled.astype(np.int64), num_buckets - 1)


def t5_bias(
    n: int, bucket_values: Any, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> FloatArray:
    """The (n, n) T5 bias: ``bucket_values[bucket(j - i)]`` for query i and key j.

    Parameters
    ----------
    n : int
        Sequence length.
    bucket_values : array_like, shape (num_buckets,)
        One learned scalar per bucket (per head).
    bidirectional, num_buckets, max_distance
        As in :func:`t5_relative_position_bucket`.

    Returns
    -------
    ndarray, shape (n, n)
    """
    n = check_int(n, "n", minimum=1)
    values = as_float_array(bucket_values, "bucket_values", min_ndim=1)
    if values.shape != (num_buckets,):
        raise ValueError(f"bucket_values must have shape ({num_buckets},), got {values.shape}")
    buckets = t5_relative_position_bucket(
        _offsets(n), bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    return values[buckets]


def stylized_t5_bucket_values(
    *, strength: float = 1.0, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> FloatArray:
    """Illustrative bucket values: ``-strength * log(1 + d)`` at each bucket's smallest distance d.

    Real T5 models learn these per head; this decreasing choice stands in for
    a head that prefers nearby tokens, and is labelled as stylised on screen.
    """
    num_buckets, max_distance = _check_buckets(bidirectional, num_buckets, max_distance)
    distances = np.arange(0, 4 * max_distance)

    def bucket(rel: NDArray[np.int64]) -> NDArray[np.int64]:
        return t5_relative_position_bucket(
            rel, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
        )

    buckets = bucket(-distances)
    if bidirectional:
        buckets = np.concatenate([buckets, bucket(distances)])
        distances = np.concatenate([distances, distances])
    smallest = np.full(num_buckets, float(4 * max_distance))
    np.minimum.at(smallest, buckets, distances.astype(float))
    return -strength * np.log1p(smallest)
