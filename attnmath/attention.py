r"""Scaled dot-product attention with masks and biases, and linear attention (lecture section 4).

.. math:: \mathrm{Attn}(Q, K, V) = \mathrm{softmax}\!\big(QK^\top / \tau + B\big)\, V,
          \qquad \tau = \sqrt{d_k} \text{ by default}.

Linear attention replaces :math:`\exp(q \cdot k)` by :math:`\phi(q)^\top \phi(k)`
and regroups :math:`\sum_i \phi(q)^\top\phi(k_i)\, v_i^\top =
\phi(q)^\top \big(\sum_i \phi(k_i) v_i^\top\big)`, which costs :math:`O(N)`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from attnmath._validate import FloatArray, as_bool_array, as_float_array, check_int
from attnmath.softmax import softmax

__all__ = [
    "AttentionResult",
    "attention",
    "FEATURE_MAPS",
    "feature_map",
    "favor_features",
    "linear_attention",
    "linear_attention_weights",
    "dot_product_samples",
]


@dataclass(frozen=True)
class AttentionResult:
    r"""The steps of one attention call.

    Attributes
    ----------
    scores : ndarray, shape (..., T_q, T_k)
        :math:`QK^\top/\tau + B`, ``-inf`` where masked.
    weights : ndarray, shape (..., T_q, T_k)
        Row-wise softmax of the scores; masked entries exactly 0.
    output : ndarray, shape (..., T_q, d_v)
        ``weights @ values``.
    """

    scores: FloatArray
    weights: FloatArray
    output: FloatArray


def _qkv(queries: Any, keys: Any, values: Any) -> tuple[FloatArray, FloatArray, FloatArray]:
    q = as_float_array(queries, "queries", min_ndim=2)
    k = as_float_array(keys, "keys", min_ndim=2)
    v = as_float_array(values, "values", min_ndim=2)
    for name, arr in (("queries", q), ("keys", k), ("values", v)):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"queries and keys need the same width d_k, got {q.shape[-1]} and {k.shape[-1]}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"keys and values need the same length, got {k.shape[-2]} and {v.shape[-2]}")
    if k.shape[-2] == 0:
        raise ValueError("keys must not be empty")
    return q, k, v


def attention(
    queries: Any, keys: Any, values: Any, *, tau: float | None = None, mask: Any = None, bias: Any = None
) -> AttentionResult:
    r"""Scaled dot-product attention, vectorised over leading (batch, head) axes.

    Parameters
    ----------
    queries : array_like, shape (..., T_q, d_k)
    keys : array_like, shape (..., T_k, d_k)
    values : array_like, shape (..., T_k, d_v)
    tau : float, optional
        Temperature; ``None`` means :math:`\sqrt{d_k}`.
    mask : array_like of bool, optional
        Broadcastable to (..., T_q, T_k); True where a query may attend.
    bias : array_like, optional
        Added to the scaled scores before the softmax (ALiBi, T5), broadcastable.

    Returns
    -------
    AttentionResult

    Raises
    ------
    ValueError
        If a row of ``mask`` allows no key.

    Examples
    --------
    >>> q = np.array([[1.0, 0.0]]); k = np.array([[1.0, 0.0], [0.0, 1.0]]); v = np.eye(2)
    >>> res = attention(q, k, v, tau=1.0)
    >>> bool(np.allclose(res.weights, [[np.e / (np.e + 1), 1 / (np.e + 1)]]))
    True
    """
    q, k, v = _qkv(queries, keys, values)
    scale = np.sqrt(q.shape[-1]) if tau is None else float(tau)
    if not np.isfinite(scale) or scale <= 0:
        raise ValueError(f"tau must be finite and > 0, got {tau}")
    scores = q @ np.swapaxes(k, -1, -2) / scale  # (..., T_q, T_k)
    if bias is not None:
        b = as_float_array(bias, "bias")
        if np.any(np.isnan(b)) or np.any(b == np.inf):
            raise ValueError("bias must not contain NaN or +inf")
        scores = scores + b
    if mask is not None:
        m = as_bool_array(mask, "mask")
        try:
            m = np.broadcast_to(m, scores.shape)
        except ValueError:
            raise ValueError(
                f"mask with shape {m.shape} does not broadcast to scores {scores.shape}"
            ) from None
        if not np.all(np.any(m, axis=-1)):
            raise ValueError("mask has a row with no True entry: that query could attend to nothing")
        scores = np.where(m, scores, -np.inf)
    if not np.all(np.any(scores > -np.inf, axis=-1)):
        raise ValueError("every score in a row is -inf (from mask or bias): that query attends to nothing")
    weights = softmax(scores)
    return AttentionResult(scores, weights, weights @ v)


def _elu_plus_one(x: FloatArray) -> FloatArray:
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


FEATURE_MAPS: dict[str, Callable[[FloatArray], FloatArray]] = {
    "elu+1": _elu_plus_one,  # Katharopoulos et al. 2020
    "relu": lambda x: np.maximum(x, 0.0),
}


def feature_map(name: str) -> Callable[[FloatArray], FloatArray]:
    """The feature map called ``name`` (``"elu+1"`` or ``"relu"``)."""
    if name not in FEATURE_MAPS:
        raise ValueError(f"feature_map must be one of {', '.join(FEATURE_MAPS)} or a callable, got {name!r}")
    return FEATURE_MAPS[name]


def favor_features(x: Any, projection: Any) -> FloatArray:
    r"""Positive random features for the softmax kernel (Performer's FAVOR+).

    .. math:: \phi(x) = \frac{1}{\sqrt m} \exp\!\big(W x - \|x\|^2 / 2\big),
              \qquad \mathbb{E}[\phi(x)^\top \phi(y)] = e^{x^\top y}

    for rows of :math:`W \in \mathbb{R}^{m \times d}` drawn from
    :math:`\mathcal N(0, I)`.

    Parameters
    ----------
    x : array_like, shape (..., d)
    projection : array_like, shape (m, d)

    Returns
    -------
    ndarray, shape (..., m)
    """
    xa = as_float_array(x, "x", min_ndim=1)
    w = as_float_array(projection, "projection", min_ndim=2)
    if w.ndim != 2 or w.shape[1] != xa.shape[-1]:
        raise ValueError(f"projection must have shape (m, {xa.shape[-1]}), got {w.shape}")
    sq = 0.5 * np.sum(xa**2, axis=-1, keepdims=True)
    return np.exp(xa @ w.T - sq) / np.sqrt(w.shape[0])


def _features(fmap: str | Callable[[FloatArray], FloatArray], x: FloatArray) -> FloatArray:
    phi = feature_map(fmap)(x) if isinstance(fmap, str) else np.asarray(fmap(x), dtype=float)
    if np.any(phi < 0) or not np.all(np.isfinite(phi)):
        raise ValueError("feature_map must return finite, non-negative features")
    return phi


def linear_attention(
    queries: Any,
    keys: Any,
    values: Any,
    *,
    feature_map: str | Callable[[FloatArray], FloatArray] = "elu+1",
    causal: bool = False,
) -> FloatArray:
    r"""Linear attention in :math:`O(N)`: pre-aggregate :math:`\sum_i \phi(k_i) v_i^\top` once.

    .. math:: \mathrm{out}(q) = \frac{\phi(q)^\top S}{\phi(q)^\top z},\qquad
              S = \sum_i \phi(k_i) v_i^\top,\quad z = \sum_i \phi(k_i)

    With ``causal=True`` the sums run over :math:`i \le t` as prefix sums.
    A query whose denominator is 0 (possible with ``"relu"``) gets output 0.

    Parameters
    ----------
    queries : array_like, shape (..., T, d_k)
    keys : array_like, shape (..., N, d_k)
    values : array_like, shape (..., N, d_v)
    feature_map : {"elu+1", "relu"} or callable
        :math:`\phi`, applied to the last axis; must return non-negative features.
    causal : bool
        Query t sees keys 0..t (needs T == N).

    Returns
    -------
    ndarray, shape (..., T, d_v)
    """
    q, k, v = _qkv(queries, keys, values)
    phi_q, phi_k = _features(feature_map, q), _features(feature_map, k)  # (..., T, m), (..., N, m)
    if causal:
        if q.shape[-2] != k.shape[-2]:
            raise ValueError("causal linear attention needs as many queries as keys")
        s = np.cumsum(phi_k[..., :, :, None] * v[..., :, None, :], axis=-3)  # (..., N, m, d_v)
        z = np.cumsum(phi_k, axis=-2)  # (..., N, m)
        num = np.einsum("...tm,...tmd->...td", phi_q, s)  # (..., T, d_v)
        den = np.sum(phi_q * z, axis=-1, keepdims=True)  # (..., T, 1)
    else:
        s = np.swapaxes(phi_k, -1, -2) @ v  # (..., m, d_v): the pre-aggregated summary
        z = np.sum(phi_k, axis=-2)  # (..., m)
        num = phi_q @ s  # (..., T, d_v)
        den = phi_q @ z[..., None]  # (..., T, 1)
    safe = np.where(den > 0, den, 1.0)
    return np.where(den > 0, num / safe, 0.0)


def linear_attention_weights(
    queries: Any,
    keys: Any,
    *,
    feature_map: str | Callable[[FloatArray], FloatArray] = "elu+1",
    causal: bool = False,
) -> FloatArray:
    r"""The explicit (T, N) weights :math:`\phi(q)^\top\phi(k_i) / \sum_j \phi(q)^\top\phi(k_j)`.

    Quadratic in N: for inspection and tests, not for speed.
    """
    q = as_float_array(queries, "queries", min_ndim=2)
    k = as_float_array(keys, "keys", min_ndim=2)
    kernel = _features(feature_map, q) @ np.swapaxes(_features(feature_map, k), -1, -2)  # (..., T, N)
    if causal:
        kernel = np.where(np.tril(np.ones(kernel.shape[-2:], dtype=bool)), kernel, 0.0)
    den = np.sum(kernel, axis=-1, keepdims=True)
    return np.where(den > 0, kernel / np.where(den > 0, den, 1.0), 0.0)


def dot_product_samples(d: int, n: int, *, seed: int = 0) -> FloatArray:
    r"""``n`` draws of :math:`q \cdot k` for random q and k with ``d`` independent standard normal entries.

    Each product :math:`q_i k_i` has mean 0 and variance 1, so the sum has variance ``d``: its spread
    grows like :math:`\sqrt{d}`, and dividing by :math:`\sqrt{d}` brings it back to 1 (the title's
    reason for :math:`\tau = \sqrt{d_k}`).

    Examples
    --------
    >>> round(float(dot_product_samples(64, 20_000).var() / 64), 1)  # the variance, over d
    1.0
    """
    d, n = check_int(d, "d", minimum=1), check_int(n, "n", minimum=1)
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    return np.einsum("nd,nd->n", q, k)
