r"""Softmax with temperature and an optional prior, its exact limits, and entropy.

The retrieval distribution of the lecture is

.. math:: a_i \propto r_i \exp(s_i / \tau),

with scores :math:`s`, temperature :math:`\tau \ge 0` and prior :math:`r`
(uniform when omitted). The last axis is the item axis unless ``axis`` says
otherwise.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import xlogy

from attnmath._validate import (
    FloatArray,
    as_float_array,
    check_nonnegative,
    check_tau,
    normalize_axis,
)

__all__ = ["softmax", "entropy", "entropy_term", "effective_k", "check_distribution"]


def softmax(scores: Any, tau: Any = 1.0, *, axis: int = -1, prior: Any = None) -> FloatArray:
    r"""Retrieval weights proportional to ``prior * exp(scores / tau)``.

    Parameters
    ----------
    scores : array_like
        Scores :math:`s_i`; ``-inf`` masks an entry (its weight is exactly 0).
        NaN and ``+inf`` are rejected.
    tau : float or array_like
        Temperature :math:`\tau \ge 0`, or an array that broadcasts against
        ``scores`` with size 1 along ``axis``, e.g. ``taus[:, None]`` for a
        whole sweep in one call. ``0`` gives the argmax limit (ties share
        equally, or in proportion to the prior); ``inf`` gives the uniform
        distribution over unmasked entries (or the normalised prior).
    axis : int
        The item axis of ``scores``.
    prior : array_like, optional
        Non-negative prior weights :math:`r_i`, broadcastable to ``scores``;
        need not be normalised. A zero prior masks an entry like ``-inf``.

    Returns
    -------
    ndarray
        Weights with the broadcast shape of ``scores`` and ``tau``, summing
        to 1 along ``axis``.

    Notes
    -----
    For :math:`0 < \tau < \infty`,

    .. math:: a_i = \frac{r_i \exp((s_i - m)/\tau)}{\sum_j r_j \exp((s_j - m)/\tau)},
              \quad m = \max_j s_j,

    the shift by :math:`m` keeping every exponent :math:`\le 0`. A shifted score
    divided by a tiny temperature may overflow to ``-inf``; that is the exact
    limit (its weight is 0), so the overflow warning is suppressed.

    Examples
    --------
    >>> import numpy as np
    >>> s = np.array([1.0, 2.0, 3.0])
    >>> naive = np.exp(s / 0.5) / np.exp(s / 0.5).sum()
    >>> bool(np.allclose(softmax(s, 0.5), naive))
    True
    >>> softmax([1.0, 3.0, 3.0], 0.0)
    array([0. , 0.5, 0.5])
    >>> softmax([1.0, 3.0, -np.inf], np.inf)
    array([0.5, 0.5, 0. ])
    """
    s = _check_scores(scores)
    ax = normalize_axis(axis, s.ndim)
    t = check_tau(tau)
    shape = _broadcast_shape(s, t, ax)
    s = np.broadcast_to(s, shape)
    t = np.broadcast_to(t.reshape((1,) * (len(shape) - t.ndim) + t.shape), shape)
    log_r, support = _prior_terms(prior, s, ax)
    return _softmax_kernel(s, t, log_r, support, ax)


def _check_scores(scores: Any) -> FloatArray:
    s = as_float_array(scores, "scores", min_ndim=1)
    if np.any(np.isnan(s)):
        raise ValueError("scores must not contain NaN")
    if np.any(s == np.inf):
        raise ValueError("scores must not contain +inf (use -inf to mask an entry)")
    if s.size == 0:
        raise ValueError(f"scores must not be empty, got shape {s.shape}")
    return s


def _broadcast_shape(s: FloatArray, t: FloatArray, ax: int) -> tuple[int, ...]:
    try:
        shape = np.broadcast_shapes(s.shape, t.shape)
    except ValueError:
        raise ValueError(
            f"tau with shape {t.shape} does not broadcast against scores with shape {s.shape}"
        ) from None
    t_shape = (1,) * (len(shape) - t.ndim) + t.shape
    if t_shape[ax] != 1:
        raise ValueError(
            f"tau must have size 1 along the item axis (axis={ax}), got tau shape {t.shape} "
            f"for scores shape {s.shape}; for a sweep pass taus[:, None]"
        )
    return shape


def _prior_terms(prior: Any, s: FloatArray, ax: int) -> tuple[FloatArray, np.ndarray]:
    """Return ``log(prior)`` broadcast to ``s`` and the support (finite score, prior > 0)."""
    support = s > -np.inf
    if prior is None:
        log_r = np.zeros_like(s)
    else:
        r = as_float_array(prior, "prior", min_ndim=1)
        check_nonnegative(r, "prior")
        if np.any(np.isinf(r)):
            raise ValueError("prior must be finite")
        try:
            r = np.broadcast_to(r, s.shape)
        except ValueError:
            raise ValueError(
                f"prior with shape {r.shape} does not broadcast to scores shape {s.shape}"
            ) from None
        support = support & (r > 0)
        with np.errstate(divide="ignore"):  # log 0 = -inf: a zero prior masks the entry
            log_r = np.log(r)
    if not np.all(np.any(support, axis=ax)):
        raise ValueError(
            "every slice of scores along axis needs at least one entry with a finite score"
            + ("" if prior is None else " and a positive prior")
            + " (all entries are masked)"
        )
    return log_r, support


def _softmax_kernel(
    s: FloatArray, t: FloatArray, log_r: FloatArray, support: np.ndarray, ax: int
) -> FloatArray:
    """Weights for validated, broadcast inputs; picks the exact limit per tau."""
    m = np.max(np.where(support, s, -np.inf), axis=ax, keepdims=True)
    out = np.empty(s.shape)
    regular = (t > 0) & np.isfinite(t)
    if np.any(regular):
        t_safe = np.where(regular, t, 1.0)
        # s - m <= 0; dividing by a tiny tau may overflow to -inf, the exact limit.
        with np.errstate(over="ignore"):
            z = np.where(support, (s - m) / t_safe + log_r, -np.inf)
        z = z - np.max(z, axis=ax, keepdims=True)
        out = np.where(regular, _normalize(np.exp(z), ax), out)
    if np.any(t == 0):
        top = support & (s == m)
        out = np.where(t == 0, _normalize(np.where(top, np.exp(log_r), 0.0), ax), out)
    if np.any(np.isinf(t)):
        out = np.where(np.isinf(t), _normalize(np.where(support, np.exp(log_r), 0.0), ax), out)
    return out


def _normalize(w: FloatArray, ax: int) -> FloatArray:
    return w / np.sum(w, axis=ax, keepdims=True)


def check_distribution(weights: Any, name: str = "weights", *, axis: int = -1) -> FloatArray:
    """Validate that ``weights`` are probability distributions along ``axis``.

    Parameters
    ----------
    weights : array_like
        Candidate distributions.
    name : str
        Argument name for error messages.
    axis : int
        The item axis.

    Returns
    -------
    ndarray
        ``weights`` as float64.
    """
    w = as_float_array(weights, name, min_ndim=1)
    normalize_axis(axis, w.ndim)
    if w.size == 0:
        raise ValueError(f"{name} must not be empty")
    check_nonnegative(w, name)
    sums = np.sum(w, axis=axis)
    if not np.allclose(sums, 1.0, rtol=0.0, atol=1e-6):
        worst = float(np.ravel(sums)[np.argmax(np.abs(np.ravel(sums) - 1.0))])
        raise ValueError(f"{name} must sum to 1 along axis {axis}, got a sum of {worst!r}")
    return w


def entropy(weights: Any, *, axis: int = -1) -> Any:
    r"""Shannon entropy in nats, with :math:`0 \log 0 = 0`.

    Parameters
    ----------
    weights : array_like
        Probability distributions along ``axis`` (non-negative, summing to 1).
    axis : int
        The item axis.

    Returns
    -------
    float or ndarray
        :math:`H(a) = -\sum_i a_i \log a_i`, between 0 and :math:`\log N`.

    Examples
    --------
    >>> float(entropy([0.5, 0.5])) == float(np.log(2))
    True
    >>> float(entropy([1.0, 0.0, 0.0]))
    0.0
    """
    w = check_distribution(weights, axis=axis)
    return np.maximum(-np.sum(xlogy(w, w), axis=axis), 0.0)


def entropy_term(x: Any) -> tuple[FloatArray, FloatArray]:
    r"""One item's share of the entropy, :math:`-x \log x`, and its slope, :math:`-\log x - 1`, on [0, 1].

    The slope is :math:`+\infty` at 0 (why ``a_i >= 0`` never binds); the second
    derivative, :math:`-1/x`, is negative throughout (why H is strictly concave).

    >>> term, slope = entropy_term([0.0, 1.0])
    >>> (term == 0).all(), slope.tolist()
    (np.True_, [inf, -1.0])
    """
    v = np.asarray(x, dtype=float)
    if np.any((v < 0) | (v > 1)) or not np.all(np.isfinite(v)):
        raise ValueError("entropy_term takes shares x in [0, 1]")
    with np.errstate(divide="ignore"):
        return np.abs(xlogy(v, v)), -np.log(v) - 1.0  # -x log x >= 0 on [0, 1]


def effective_k(weights: Any, *, axis: int = -1) -> Any:
    r"""Effective number of items attended to, :math:`\exp H(a)`.

    Parameters
    ----------
    weights : array_like
        Probability distributions along ``axis``.
    axis : int
        The item axis.

    Returns
    -------
    float or ndarray
        Between 1 (one-hot) and :math:`N` (uniform).

    Examples
    --------
    >>> float(effective_k(np.full(4, 0.25)))
    4.0
    """
    return np.exp(entropy(weights, axis=axis))
