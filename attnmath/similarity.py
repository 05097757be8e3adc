r"""Learned dot-product similarity: attention as kernel regression with a learned kernel.

Section 1 of the lecture contrasts three ways of weighting data: fixed weights
(a sufficient statistic), weights from a chosen distance to the query (kernel
regression) and weights from a learned dot-product similarity (attention).
Here scalar positions are lifted to features :math:`\phi(x) = (x, x^2, 1)`,
projected by :math:`W_Q, W_K`, and compared by a dot product:

.. math:: \alpha_i(q) = \mathrm{softmax}_i\big(\phi(q)^\top W_Q W_K^\top \phi(x_i) / \tau\big).

The Gaussian kernel is one point of this family (see
:func:`gaussian_as_dot_product`), so fitting :math:`W_Q, W_K` can recover
kernel regression or find something else that predicts better.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import minimize

from attnmath._validate import FloatArray, as_float_array, check_int
from attnmath.softmax import softmax

__all__ = [
    "position_features",
    "attention_weights",
    "gaussian_as_dot_product",
    "SimilarityFit",
    "fit_similarity",
    "best_bandwidth",
    "held_out_errors",
    "weight_parameters",
]


def position_features(x: Any) -> FloatArray:
    r"""Features :math:`\phi(x) = (x, x^2, 1)` of scalar positions, shape (n, 3).

    Examples
    --------
    >>> position_features([2.0])
    array([[2., 4., 1.]])
    """
    arr = as_float_array(x, "x")
    if arr.ndim > 1 or not np.all(np.isfinite(arr)):
        raise ValueError(f"x must be finite scalars, shape (n,), got {arr.shape}")
    arr = np.atleast_1d(arr)
    return np.stack([arr, arr**2, np.ones_like(arr)], axis=-1)


def weight_parameters(w_q: Any, w_k: Any) -> int:
    r"""How many numbers of the projections the attention weights over :func:`position_features` depend on.

    The score is :math:`\psi(q)^\top M \psi(k)` with :math:`M = W_Q W_K^\top`
    (:math:`d \times d`). The key's last feature is the constant 1, so the
    column of :math:`M` it meets adds a term that depends on the query alone,
    the same for every key, which the softmax cancels. The weights depend on
    the other :math:`d - 1` columns only: a :math:`d \times (d - 1)` block
    of rank at most :math:`r = \min(d_k, d - 1)`, which has
    :math:`r (2d - 1 - r)` free numbers.

    Examples
    --------
    >>> weight_parameters(np.ones((3, 2)), np.ones((3, 2)))  # 12 numbers, 6 of them move the weights
    6
    >>> weight_parameters(np.ones((3, 1)), np.ones((3, 1)))
    4
    """
    wq = as_float_array(w_q, "w_q", min_ndim=2)
    wk = as_float_array(w_k, "w_k", min_ndim=2)
    if wq.shape != wk.shape or wq.shape[0] != 3:
        raise ValueError(f"w_q and w_k must both have shape (3, d_k), got {wq.shape} and {wk.shape}")
    d, d_k = wq.shape
    r = min(d_k, d - 1)
    return r * (2 * d - 1 - r)


def _as_rows(x: Any, name: str) -> FloatArray:
    arr = as_float_array(x, name)
    arr = arr.reshape(-1, 1) if arr.ndim <= 1 else arr
    if arr.ndim != 2 or arr.shape[0] == 0 or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite with shape (n,) or (n, d), got {np.shape(x)}")
    return arr


def attention_weights(queries: Any, keys: Any, w_q: Any, w_k: Any, *, tau: float | None = None) -> FloatArray:
    r"""Dot-product attention weights with projections, shape (Q, N).

    .. math:: \alpha_{ji} = \mathrm{softmax}_i\big((x^q_j W_Q)\cdot(x^k_i W_K) / \tau\big)

    Parameters
    ----------
    queries : array_like
        Shape (Q, d_in) (or (Q,) for d_in = 1).
    keys : array_like
        Shape (N, d_in) (or (N,)).
    w_q, w_k : array_like
        Projections, shape (d_in, d_k).
    tau : float, optional
        Temperature; default :math:`\sqrt{d_k}`.

    Returns
    -------
    ndarray, shape (Q, N)

    Examples
    --------
    >>> w = attention_weights([[1.0]], [[1.0], [-1.0]], [[1.0]], [[1.0]], tau=1.0)
    >>> bool(np.allclose(w, [[np.e / (np.e + 1 / np.e), 1 / np.e / (np.e + 1 / np.e)]]))
    True
    """
    q = _as_rows(queries, "queries")
    k = _as_rows(keys, "keys")
    wq = as_float_array(w_q, "w_q", min_ndim=2)
    wk = as_float_array(w_k, "w_k", min_ndim=2)
    if wq.shape[0] != q.shape[1] or wk.shape[0] != k.shape[1] or wq.shape[1] != wk.shape[1]:
        raise ValueError(
            f"shapes do not chain: queries {q.shape} @ w_q {wq.shape} vs keys {k.shape} @ w_k {wk.shape}"
        )
    scale = np.sqrt(wq.shape[1]) if tau is None else tau
    scores = (q @ wq) @ (k @ wk).T  # (Q, N)
    return softmax(scores, scale)


def gaussian_as_dot_product(sigma: float) -> tuple[FloatArray, FloatArray]:
    r"""Projections that make dot-product attention on :func:`position_features` Gaussian.

    With :math:`W_Q = \mathrm{diag}(1, 0, 1)`-like rows and
    :math:`W_K` chosen so that :math:`\phi(q)^\top W_Q W_K^\top \phi(k) =
    qk/\sigma^2 - k^2/(2\sigma^2)`, the softmax at :math:`\tau = 1` equals the
    Gaussian kernel weights: the query-only term :math:`-q^2/(2\sigma^2)`
    cancels in the normalisation.

    Returns
    -------
    (w_q, w_k) : two ndarrays, shape (3, 2)
    """
    w_q = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])  # phi(q) -> (q, 1)
    w_k = np.array([[1.0 / sigma**2, 0.0], [0.0, -0.5 / sigma**2], [0.0, 0.0]])  # -> (k/s^2, -k^2/2s^2)
    return w_q, w_k


@dataclass(frozen=True)
class SimilarityFit:
    """Learned projections for dot-product attention on 1-D data.

    Attributes
    ----------
    w_q, w_k : ndarray, shape (3, rank)
        Projections of :func:`position_features`.
    loss : float
        Leave-one-out mean squared error at the optimum.
    initial_loss : float
        The same loss at the seeded starting point.
    n_iter : int
        Optimiser iterations.
    """

    w_q: FloatArray
    w_k: FloatArray
    loss: float
    initial_loss: float
    n_iter: int

    def weights(self, queries: Any, keys: Any) -> FloatArray:
        """Attention weights (Q, N) of scalar queries over scalar keys."""
        return attention_weights(
            position_features(queries), position_features(keys), self.w_q, self.w_k, tau=1.0
        )

    def leave_one_out(self, keys: Any, values: Any) -> FloatArray:
        """Each value predicted from the others: the predictions whose mean squared error the fit minimised.

        The softmax over the other keys is the full row's weights renormalised without the key itself.

        Examples
        --------
        >>> fit = SimilarityFit(np.eye(3)[:, :2], np.zeros((3, 2)), 0.0, 0.0, 0)  # equal weights
        >>> fit.leave_one_out([0.0, 0.5, 1.0], [3.0, 6.0, 9.0]).tolist()
        [7.5, 6.0, 4.5]
        """
        x = as_float_array(keys, "keys", min_ndim=1)
        y = as_float_array(values, "values", min_ndim=1)
        w = self.weights(x, x)
        np.fill_diagonal(w, 0.0)
        return (w @ y) / w.sum(axis=1)


def _loo_attention_loss(theta: FloatArray, feats: FloatArray, y: FloatArray, rank: int) -> float:
    w_q = theta[: 3 * rank].reshape(3, rank)
    w_k = theta[3 * rank :].reshape(3, rank)
    scores = (feats @ w_q) @ (feats @ w_k).T  # (N, N)
    np.fill_diagonal(scores, -np.inf)  # predict each point from the others
    w = softmax(scores, 1.0)
    return float(np.mean((w @ y - y) ** 2))


def fit_similarity(
    keys: Any, values: Any, *, rank: int = 2, seed: int = 0, restarts: int = 4
) -> SimilarityFit:
    r"""Learn :math:`W_Q, W_K` by minimising the leave-one-out error of attention regression.

    Scalar keys are lifted to :func:`position_features`, the keys also serve as
    queries, and each value is predicted from the others by
    :math:`\sum_i \alpha_i(x_j) y_i` with :math:`\alpha` from
    :func:`attention_weights` at :math:`\tau = 1`. L-BFGS-B minimises the
    mean squared error from ``restarts`` seeded random starting points and, for
    ``rank >= 2``, from the best Gaussian kernel regression (which the
    dot-product form contains); the best result is kept, so the learned
    similarity is never worse than the best Gaussian bandwidth on this data.

    Parameters
    ----------
    keys, values : array_like
        Scalar positions and targets, shape (N,), N >= 3.
    rank : int
        Width of the projections.
    seed : int
        Seed of the random starting points.
    restarts : int
        Number of starting points.

    Returns
    -------
    SimilarityFit
    """
    x = as_float_array(keys, "keys", min_ndim=1)
    y = as_float_array(values, "values", min_ndim=1)
    if x.ndim != 1 or y.shape != x.shape or x.size < 3:
        raise ValueError(f"keys and values must be 1-D of equal length >= 3, got {x.shape} and {y.shape}")
    rank = check_int(rank, "rank", minimum=1)
    restarts = check_int(restarts, "restarts", minimum=1)
    scale = float(np.std(x)) or 1.0
    feats = position_features((x - np.mean(x)) / scale)
    rng = np.random.default_rng(seed)
    starts = [rng.normal(scale=1.0, size=6 * rank) for _ in range(restarts)]
    if rank >= 2:
        starts.append(_gaussian_start(feats[:, 0], y, rank))
    best = None
    for theta0 in starts:
        res = minimize(_loo_attention_loss, theta0, args=(feats, y, rank), method="L-BFGS-B")
        if best is None or res.fun < best[0].fun:
            best = (res, _loo_attention_loss(theta0, feats, y, rank))
    assert best is not None
    res, initial = best
    w_q, w_k = _unstandardize(res.x, rank, float(np.mean(x)), scale)
    return SimilarityFit(w_q, w_k, float(res.fun), initial, int(res.nit))


def best_bandwidth(keys: Any, values: Any, bandwidths: Any) -> float:
    """The bandwidth of ``bandwidths`` with the lowest leave-one-out error of Gaussian kernel regression.

    Examples
    --------
    >>> best_bandwidth([0.0, 0.1, 0.9, 1.0], [0.0, 0.2, 0.8, 1.0], [0.01, 0.3, 10.0])
    0.3
    """
    from attnmath.kernels import loo_cv_error  # local: kernels does not depend on this module

    bw = np.atleast_1d(as_float_array(bandwidths, "bandwidths"))
    return float(bw[np.argmin(loo_cv_error(keys, values, bw))])


def held_out_errors(
    fit: SimilarityFit, bandwidth: float, keys: Any, values: Any, test_keys: Any, test_values: Any
) -> tuple[float, float]:
    r"""Mean squared errors on held-out points: (Gaussian kernel regression, learned attention).

    Both predict each test value from the training points only:
    :math:`\hat f(q) = \sum_i w_i(q)\, y_i` with Gaussian weights at
    ``bandwidth``, and with ``fit``'s attention weights. Neither was fitted
    on the test points, so the two errors compare them fairly.

    Returns
    -------
    (gaussian, learned) : two floats

    Examples
    --------
    >>> x = np.array([0.0, 0.5, 1.0])
    >>> fit = SimilarityFit(*gaussian_as_dot_product(0.2), loss=0.0, initial_loss=0.0, n_iter=0)
    >>> g, a = held_out_errors(fit, 0.2, x, x, [0.25], [0.25])
    >>> bool(np.isclose(g, a))
    True
    """
    from attnmath.kernels import nadaraya_watson  # local: kernels does not depend on this module

    x = as_float_array(keys, "keys", min_ndim=1)
    y = as_float_array(values, "values", min_ndim=1)
    tx = as_float_array(test_keys, "test_keys", min_ndim=1)
    ty = as_float_array(test_values, "test_values", min_ndim=1)
    if x.ndim != 1 or y.shape != x.shape or tx.ndim != 1 or ty.shape != tx.shape or tx.size == 0:
        raise ValueError(
            f"keys/values and test keys/values must be 1-D pairs, got {x.shape}, {y.shape}, "
            f"{tx.shape}, {ty.shape}"
        )
    gaussian = float(np.mean((nadaraya_watson(tx, x, y, bandwidth) - ty) ** 2))
    learned = float(np.mean((fit.weights(tx, x) @ y - ty) ** 2))
    return gaussian, learned


def _gaussian_start(z: FloatArray, y: FloatArray, rank: int) -> FloatArray:
    """Parameters of the best Gaussian kernel regression (by leave-one-out error) on standardised z.

    Starting here, the learned similarity can only improve on kernel regression.
    """
    from attnmath.kernels import loo_cv_error  # local: kernels does not depend on this module

    sigmas = np.geomspace(1e-3, 1e2, 121) * (float(np.ptp(z)) or 1.0)
    sigma = float(sigmas[np.argmin(loo_cv_error(z, y, sigmas))])
    w_q, w_k = (np.pad(w, ((0, 0), (0, rank - 2))) for w in gaussian_as_dot_product(sigma))
    return np.concatenate([w_q.ravel(), w_k.ravel()])


def _unstandardize(theta: FloatArray, rank: int, mean: float, scale: float) -> tuple[FloatArray, FloatArray]:
    """Fold the standardisation z = (x - mean) / scale into the projections (phi is quadratic in x)."""
    # phi(z) = A phi(x) with z = (x - m)/s, z^2 = (x^2 - 2 m x + m^2)/s^2.
    a = np.array(
        [
            [1 / scale, 0.0, -mean / scale],
            [-2 * mean / scale**2, 1 / scale**2, mean**2 / scale**2],
            [0.0, 0.0, 1.0],
        ]
    )
    w_q = a.T @ theta[: 3 * rank].reshape(3, rank)
    w_k = a.T @ theta[3 * rank :].reshape(3, rank)
    return w_q, w_k
