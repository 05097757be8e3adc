r"""Nadaraya–Watson kernel regression and its reading as attention (lecture sections 1–2).

.. math:: \hat f(q) = \sum_i w_i(q)\, y_i, \qquad
          w_i(q) = \frac{K(q, x_i)}{\sum_j K(q, x_j)}.

The Gaussian kernel is computed as a softmax of :math:`-\|q - k_i\|^2` at
temperature :math:`2\sigma^2`, so a tiny bandwidth gives the nearest key
instead of 0/0 and a huge one gives uniform weights.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnmath._validate import FloatArray, as_float_array
from attnmath.softmax import softmax

__all__ = [
    "KERNELS",
    "kernel_profile",
    "kernel_weights",
    "loo_predictions",
    "nadaraya_watson",
    "loo_cv_error",
    "squared_distances",
]

KERNELS = ("gaussian", "boxcar", "epanechnikov")


def _as_points(x: Any, name: str) -> FloatArray:
    """Items as rows: (n,) scalars become (n, 1); (n, d) stays; a scalar becomes (1, 1)."""
    arr = as_float_array(x, name)
    if arr.ndim == 0:
        arr = arr.reshape(1, 1)
    elif arr.ndim == 1:
        arr = arr[:, None]
    elif arr.ndim != 2:
        raise ValueError(f"{name} must have shape (n,) or (n, d), got {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must not be empty")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    return arr


def squared_distances(queries: Any, keys: Any) -> FloatArray:
    """Squared Euclidean distances, shape (Q, N).

    Parameters
    ----------
    queries, keys : array_like
        Shape (Q,) / (N,) for scalars or (Q, d) / (N, d) for vectors.

    Returns
    -------
    ndarray, shape (Q, N)

    Examples
    --------
    >>> squared_distances([0.0, 1.0], [0.0, 3.0])
    array([[0., 9.],
           [1., 4.]])
    """
    q = _as_points(queries, "queries")
    k = _as_points(keys, "keys")
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"queries have dimension {q.shape[1]} but keys have {k.shape[1]}")
    return np.sum((q[:, None, :] - k[None, :, :]) ** 2, axis=-1)  # (Q, N)


def _check_bandwidth(bandwidth: Any) -> FloatArray:
    bw = as_float_array(bandwidth, "bandwidth")
    if bw.ndim > 1:
        raise ValueError(f"bandwidth must be a number or a 1-D array, got shape {bw.shape}")
    if bw.size == 0:
        raise ValueError("bandwidth must not be empty")
    if not np.all(np.isfinite(bw)) or np.any(bw <= 0):
        raise ValueError(f"bandwidth must be finite and > 0, got {bw.tolist()}")
    return bw


def _check_kernel(kernel: str) -> str:
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {', '.join(KERNELS)}, got {kernel!r}")
    return kernel


def _weights_from_d2(d2: FloatArray, bw: FloatArray, kernel: str) -> FloatArray:
    """Weights (..., Q, N) from squared distances (Q, N), masked entries as +inf."""
    sigma = bw.reshape(bw.shape + (1, 1))  # (B, 1, 1) or (1, 1)
    # sigma^2 may underflow to 0 or overflow to inf: those are the exact nearest-key and
    # uniform limits, which softmax (tau = 0 / inf) and the comparisons below handle.
    with np.errstate(over="ignore", under="ignore"):
        if kernel == "gaussian":
            return softmax(-d2, 2.0 * sigma**2)  # = softmax(-d2 / (2 sigma^2))
        u2 = (np.sqrt(d2) / sigma) ** 2  # not d2 / sigma^2, which is 0/0 when sigma^2 underflows
    k = (u2 <= 1.0).astype(float) if kernel == "boxcar" else np.clip(1.0 - u2, 0.0, None)
    total = np.sum(k, axis=-1, keepdims=True)
    nearest = softmax(-d2 * np.ones_like(u2), 0.0)  # fallback when no key is in reach
    with np.errstate(invalid="ignore", divide="ignore"):  # rows with total 0 are replaced below
        return np.where(total > 0, k / total, nearest)


def kernel_weights(queries: Any, keys: Any, bandwidth: Any, *, kernel: str = "gaussian") -> FloatArray:
    r"""Normalised kernel weights of each query over the keys.

    Parameters
    ----------
    queries : array_like
        Shape (Q,) for scalar items or (Q, d); a single number is one query.
    keys : array_like
        Shape (N,) or (N, d).
    bandwidth : float or array_like
        :math:`\sigma > 0`; a 1-D array of B bandwidths gives a leading axis.
    kernel : {"gaussian", "boxcar", "epanechnikov"}
        :math:`e^{-u^2/2}`, :math:`1[|u| \le 1]` or :math:`(1 - u^2)_+` with
        :math:`u = \|q - k\| / \sigma`.

    Returns
    -------
    ndarray
        Shape (Q, N), or (B, Q, N) for B bandwidths; rows sum to 1.

    Notes
    -----
    For the compact kernels a query with no key within one bandwidth would
    give 0/0; its weights fall back to its nearest key(s), ties sharing
    equally, which is the :math:`\sigma \to 0` limit of every kernel here.
    No NaN is ever returned.

    Examples
    --------
    >>> kernel_weights([0.0], [-1.0, 0.0, 1.0], 1e-9)
    array([[0., 1., 0.]])
    >>> kernel_weights([0.0], [-1.0, 1.0, 5.0], 1e9).round(3)
    array([[0.333, 0.333, 0.333]])
    """
    d2 = squared_distances(queries, keys)
    bw = _check_bandwidth(bandwidth)
    return _weights_from_d2(d2, bw, _check_kernel(kernel))


def kernel_profile(points: Any, centre: float, bandwidth: Any, *, kernel: str = "gaussian") -> FloatArray:
    r"""Unnormalised kernel :math:`K(c, x)` at scalar ``points`` around ``centre``, peak 1.

    Parameters
    ----------
    points : array_like
        Scalar positions, shape (P,).
    centre : float
        The query position.
    bandwidth : float or array_like
        :math:`\sigma`; a 1-D array gives shape (B, P).
    kernel : str
        See :func:`kernel_weights`.

    Returns
    -------
    ndarray
        Shape (P,) or (B, P), values in [0, 1].

    Examples
    --------
    >>> kernel_profile([0.0, 1.0], 0.0, 1.0).round(4)
    array([1.    , 0.6065])
    """
    d2 = squared_distances(points, [centre])[:, 0]  # (P,)
    bw = _check_bandwidth(bandwidth)
    sigma = bw.reshape(bw.shape + (1,))
    with np.errstate(over="ignore", under="ignore"):  # limits: a spike at the centre, or flat
        u2 = (np.sqrt(d2) / sigma) ** 2
        if _check_kernel(kernel) == "gaussian":
            return np.exp(-0.5 * u2)
    return (u2 <= 1.0).astype(float) if kernel == "boxcar" else np.clip(1.0 - u2, 0.0, None)


def _as_values(values: Any, n: int) -> FloatArray:
    y = as_float_array(values, "values", min_ndim=1)
    if y.shape[0] != n:
        raise ValueError(f"values must have one row per key ({n}), got shape {y.shape}")
    if y.ndim > 2 or not np.all(np.isfinite(y)):
        raise ValueError(f"values must be finite with shape (N,) or (N, d_v), got {y.shape}")
    return y


def nadaraya_watson(
    queries: Any, keys: Any, values: Any, bandwidth: Any, *, kernel: str = "gaussian"
) -> FloatArray:
    r"""Nadaraya–Watson predictions :math:`\hat f(q) = \sum_i w_i(q) y_i`.

    Parameters
    ----------
    queries, keys : array_like
        As in :func:`kernel_weights`.
    values : array_like
        Shape (N,) or (N, d_v): the :math:`y_i`.
    bandwidth : float or array_like
        :math:`\sigma`, or a 1-D array for a whole bandwidth sweep in one call.
    kernel : str
        See :func:`kernel_weights`.

    Returns
    -------
    ndarray
        Shape (Q,) or (Q, d_v), with a leading (B,) axis for B bandwidths.

    Examples
    --------
    >>> nadaraya_watson([0.5], [0.0, 1.0], [2.0, 4.0], 10.0).round(6)
    array([3.])
    """
    w = kernel_weights(queries, keys, bandwidth, kernel=kernel)  # (..., Q, N)
    y = _as_values(values, w.shape[-1])
    return w @ y  # (..., Q) or (..., Q, d_v)


def loo_cv_error(keys: Any, values: Any, bandwidths: Any, *, kernel: str = "gaussian") -> FloatArray:
    r"""Leave-one-out mean squared error of Nadaraya–Watson for each bandwidth.

    Each :math:`y_j` is predicted from the other points only (its own weight
    set to zero), then :math:`\frac1N \sum_j (\hat f_{-j}(x_j) - y_j)^2`.

    Parameters
    ----------
    keys : array_like
        Shape (N,) or (N, d), N >= 2.
    values : array_like
        Shape (N,) or (N, d_v).
    bandwidths : array_like
        Shape (B,) (or a number).
    kernel : str
        See :func:`kernel_weights`.

    Returns
    -------
    ndarray, shape (B,)

    Examples
    --------
    >>> loo_cv_error([0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [1e-6]).round(6)
    array([0.666667])
    """
    bw = np.atleast_1d(_check_bandwidth(bandwidths))
    w, y = _loo_weights(keys, values, bw, kernel)  # (B, N, N)
    residual = (w @ y) - y  # (B, N) or (B, N, d_v)
    return np.mean(residual.reshape(bw.size, -1) ** 2, axis=-1)


def loo_predictions(keys: Any, values: Any, bandwidth: float, *, kernel: str = "gaussian") -> FloatArray:
    """Each value predicted by Nadaraya–Watson from the other points: what :func:`loo_cv_error` scores.

    Examples
    --------
    >>> loo_predictions([0.0, 1.0, 2.0], [0.0, 1.0, 2.0], 1e-6).tolist()
    [1.0, 1.0, 1.0]
    """
    w, y = _loo_weights(keys, values, np.atleast_1d(_check_bandwidth(bandwidth)), kernel)
    return w[0] @ y


def _loo_weights(keys: Any, values: Any, bw: FloatArray, kernel: str) -> tuple[FloatArray, FloatArray]:
    """(B, N, N) weights of each point on the others (its own weight zero), and the values."""
    d2 = squared_distances(keys, keys)  # (N, N)
    n = d2.shape[0]
    if n < 2:
        raise ValueError("keys must hold at least 2 points for leave-one-out")
    np.fill_diagonal(d2, np.inf)  # a point never predicts itself
    return _weights_from_d2(d2, bw, _check_kernel(kernel)), _as_values(values, n)
