r"""Softmax as the entropy-regularised retrieval rule (lecture section 3).

Among distributions :math:`a` on the simplex, softmax maximises

.. math:: J_\tau(a) = \sum_i a_i s_i + \tau H(a)
          \quad\text{or, with a prior } r,\quad
          \sum_i a_i s_i - \tau\, \mathrm{KL}(a \,\|\, r).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import linprog, minimize, root
from scipy.special import logsumexp, rel_entr

from attnmath._validate import FloatArray, as_float_array, check_int, check_tau
from attnmath.softmax import _check_scores, check_distribution, entropy, softmax

__all__ = [
    "retrieval_objective",
    "optimal_objective",
    "solve_retrieval",
    "temperature_sweep",
    "SweepResult",
    "classify_regime",
    "REGIMES",
]


def _normalized_prior(prior: Any, n: int) -> FloatArray | None:
    if prior is None:
        return None
    r = as_float_array(prior, "prior", min_ndim=1)
    if r.shape[-1] != n:
        raise ValueError(f"prior must have {n} entries along the item axis, got shape {r.shape}")
    if np.any(np.isnan(r)) or np.any(r < 0) or np.any(np.isinf(r)):
        raise ValueError("prior must be finite and >= 0")
    total = np.sum(r, axis=-1, keepdims=True)
    if np.any(total <= 0):
        raise ValueError("prior must have a positive entry")
    return r / total


def expected_score(weights: FloatArray, scores: FloatArray) -> Any:
    r""":math:`\sum_i a_i s_i` along the last axis, with :math:`0 \cdot (-\infty) = 0`.

    Parameters
    ----------
    weights, scores : ndarray
        Validated weights and scores, broadcastable.

    Returns
    -------
    float or ndarray
    """
    return np.sum(weights * np.where(weights > 0, scores, 0.0), axis=-1)


def _times_tau(tau: FloatArray, term: FloatArray) -> FloatArray:
    """``tau * term`` with ``inf * 0 = 0`` (a zero regulariser costs nothing at any tau)."""
    safe_tau = np.where(term == 0, 0.0, tau)
    return safe_tau * term


def retrieval_objective(weights: Any, scores: Any, tau: Any, *, prior: Any = None) -> Any:
    r"""Entropy-regularised retrieval objective of given weights.

    Parameters
    ----------
    weights : array_like
        Distributions :math:`a` over the items (last axis).
    scores : array_like
        Scores :math:`s`, broadcastable to ``weights``; ``-inf`` entries must
        carry zero weight to give a finite value.
    tau : float or array_like
        Temperature :math:`\tau \ge 0`, broadcastable to the leading axes.
    prior : array_like, optional
        Prior :math:`r` (normalised here); switches the entropy bonus to a
        KL penalty.

    Returns
    -------
    float or ndarray
        :math:`\langle a, s\rangle + \tau H(a)`, or
        :math:`\langle a, s\rangle - \tau\,\mathrm{KL}(a\|r)` with a prior.

    Examples
    --------
    >>> a = np.array([0.5, 0.5]); s = np.array([1.0, 3.0])
    >>> float(retrieval_objective(a, s, 2.0)) == 2.0 + 2.0 * float(np.log(2))
    True
    """
    a = check_distribution(weights)
    s = _check_scores(scores)
    t = check_tau(tau)
    expected = expected_score(a, s)
    r = _normalized_prior(prior, a.shape[-1])
    if r is None:
        return expected + _times_tau(t, entropy(a))
    return expected - _times_tau(t, np.sum(rel_entr(a, r), axis=-1))


def optimal_objective(scores: Any, tau: Any, *, prior: Any = None) -> Any:
    r"""Maximum of :func:`retrieval_objective` over the simplex, in closed form.

    Parameters
    ----------
    scores : array_like
        Scores along the last axis.
    tau : float or array_like
        Temperature; broadcast against the leading axes of ``scores``.
    prior : array_like, optional
        Prior weights (normalised here).

    Returns
    -------
    float or ndarray
        :math:`\tau \log \sum_i r_i e^{s_i/\tau}` (uniform :math:`r` replaced by
        1, i.e. :math:`\tau\,\mathrm{logsumexp}(s/\tau)`), :math:`\max_i s_i` at
        :math:`\tau = 0`, and the limit at :math:`\tau = \infty`
        (:math:`\langle r, s\rangle` with a prior, otherwise :math:`+\infty`
        for more than one item).

    Examples
    --------
    >>> s = np.array([0.0, 1.0, 2.0])
    >>> bool(np.isclose(optimal_objective(s, 1.0), np.log(np.exp(s).sum())))
    True
    >>> float(optimal_objective(s, 0.0))
    2.0
    """
    s = _check_scores(scores)
    t = np.asarray(check_tau(tau))[..., None]
    r = _normalized_prior(prior, s.shape[-1])
    b = np.ones_like(s) if r is None else r
    support = (s > -np.inf) & (b > 0)
    if not np.all(np.any(support, axis=-1)):
        raise ValueError("scores need at least one finite entry (with positive prior)")
    m = np.max(np.where(support, s, -np.inf), axis=-1, keepdims=True)
    regular = (t > 0) & np.isfinite(t)
    t_safe = np.where(regular, t, 1.0)
    with np.errstate(over="ignore"):  # (s - m) / tiny tau -> -inf is the exact limit
        z = np.where(support, (s - m) / t_safe, -np.inf)
    value = t_safe[..., 0] * logsumexp(z, b=b, axis=-1) + m[..., 0]
    value = np.where(t[..., 0] == 0, m[..., 0], value)
    return np.where(np.isinf(t[..., 0]), _objective_at_infinity(s, r, support), value)


def _objective_at_infinity(s: FloatArray, r: FloatArray | None, support: np.ndarray) -> Any:
    if r is not None:
        return np.sum(np.where(support, r * s, 0.0), axis=-1)
    one_item = np.sum(support, axis=-1) == 1
    return np.where(one_item, np.max(np.where(support, s, -np.inf), axis=-1), np.inf)


def solve_retrieval(scores: Any, tau: float, *, prior: Any = None, polish: bool = True) -> FloatArray:
    r"""Maximise the retrieval objective numerically over the simplex.

    This does not call :func:`softmax`: it hands the objective and its
    gradient to ``scipy.optimize`` (SLSQP with the constraint
    :math:`\sum_i a_i = 1`, :math:`a_i \ge 0`), so agreement with softmax is
    evidence, not a tautology. At :math:`\tau = 0` it solves the linear
    programme :math:`\max_a \langle a, s\rangle` with HiGHS; any distribution
    on the argmax set is then optimal and the solver returns a vertex.

    Parameters
    ----------
    scores : array_like
        One-dimensional finite scores.
    tau : float
        Finite temperature :math:`\ge 0`.
    prior : array_like, optional
        Prior weights (normalised here); the objective then uses the KL term.
    polish : bool, default True
        Refine SLSQP's answer by solving the first-order conditions. The
        lecture's on-screen check passes ``False``: polishing solves the very
        stationarity equation the derivation wrote down, so only the general
        optimiser alone is independent evidence.

    Returns
    -------
    ndarray
        The maximiser :math:`a^*`, shape ``(N,)``.

    Raises
    ------
    RuntimeError
        If the optimiser reports failure.

    Examples
    --------
    >>> s = np.array([0.0, 1.0, 2.0])
    >>> bool(np.allclose(solve_retrieval(s, 1.0), np.exp(s) / np.exp(s).sum(), atol=1e-6))
    True
    >>> bool(np.allclose(solve_retrieval(s, 1.0, polish=False), np.exp(s) / np.exp(s).sum(), atol=1e-6))
    True
    """
    s = _check_scores(scores)
    if s.ndim != 1 or not np.all(np.isfinite(s)):
        raise ValueError(f"scores must be a finite 1-D array, got shape {s.shape}")
    t = float(check_tau(tau))
    if not np.isfinite(t):
        raise ValueError("tau must be finite for solve_retrieval")
    r = _normalized_prior(prior, s.size)
    if t == 0:
        return _solve_linear(s, r)
    return _solve_regularised(s, t, r, polish=bool(polish))


def _solve_linear(s: FloatArray, r: FloatArray | None) -> FloatArray:
    upper = np.ones_like(s) if r is None else (r > 0).astype(float)
    bounds = [(0.0, float(u)) for u in upper]
    res = linprog(-s, A_eq=np.ones((1, s.size)), b_eq=[1.0], bounds=bounds, method="highs")
    if not res.success:
        raise RuntimeError(f"linprog failed: {res.message}")
    return np.clip(res.x, 0.0, None)


def _solve_regularised(s: FloatArray, t: float, r: FloatArray | None, *, polish: bool) -> FloatArray:
    """Maximise over log-weights ``u`` (``a = exp(u)``) subject to ``sum(a) = 1``.

    Stage 1 runs SLSQP from the uniform distribution. Its line search stalls
    where the objective is flat near the optimum, so stage 2 polishes the
    result by solving the first-order (KKT) conditions
    ``s_i - tau (u_i + 1 - log r_i) = lambda``, ``sum_i exp(u_i) = 1`` with
    ``scipy.optimize.root``. Working with ``u`` keeps every weight positive,
    so the entropy's infinite slope at the simplex boundary is never met.
    Entries with a zero prior are excluded and get weight 0.
    """
    keep = np.ones(s.size, dtype=bool) if r is None else r > 0
    sk = s[keep]
    log_r = np.zeros_like(sk) if r is None else np.log(r[keep])
    u = _slsqp_log_weights(sk, t, log_r)
    if polish:
        u = _polish_kkt(sk, t, log_r, u)
    a = np.zeros_like(s)
    a[keep] = np.exp(u)
    if not _is_stationary(sk, t, u - log_r, np.exp(u)):
        raise RuntimeError("the optimiser did not reach a maximum of the retrieval objective")
    return a / a.sum()


def _slsqp_log_weights(s: FloatArray, t: float, log_r: FloatArray) -> FloatArray:
    scale = 1.0 / (t + float(np.ptp(s)))  # keeps the objective O(1)

    def negative(u: FloatArray) -> float:
        a = np.exp(u)
        return -scale * float(a @ s - t * (a @ (u - log_r)))

    def gradient(u: FloatArray) -> FloatArray:
        return -scale * np.exp(u) * (s - t * (u + 1.0 - log_r))

    res = minimize(
        negative,
        np.full(s.size, -np.log(s.size)),
        jac=gradient,
        method="SLSQP",
        constraints=[{"type": "eq", "fun": lambda u: np.sum(np.exp(u)) - 1.0, "jac": np.exp}],
        options={"ftol": 1e-15, "maxiter": 2000},
    )
    return np.asarray(res.x, dtype=float)


def _polish_kkt(s: FloatArray, t: float, log_r: FloatArray, u0: FloatArray) -> FloatArray:
    n = s.size

    def kkt(x: FloatArray) -> tuple[FloatArray, FloatArray]:
        u, lam = x[:n], x[n]
        residual = np.append(s - t * (u + 1.0 - log_r) - lam, np.sum(np.exp(u)) - 1.0)
        jac = np.zeros((n + 1, n + 1))
        jac[:n, :n] = -t * np.eye(n)
        jac[:n, n] = -1.0
        jac[n, :n] = np.exp(u)
        return residual, jac

    lam0 = float(np.mean(s - t * (u0 + 1.0 - log_r)))
    res = root(kkt, np.append(u0, lam0), jac=True, method="lm")
    return np.asarray(res.x[:n], dtype=float) if res.success else u0


def _is_stationary(s: FloatArray, t: float, log_ratio: FloatArray, a: FloatArray) -> bool:
    """First-order optimality: ``s_i - tau log(a_i / r_i)`` equal wherever ``a_i`` matters.

    Weights below 1e-10 barely move the objective (their gradient carries a
    factor ``a_i``), so they are left out of the check.
    """
    feasible = abs(float(np.sum(a)) - 1.0) < 1e-9
    lagrange = (s - t * log_ratio)[a > 1e-10]
    return feasible and float(np.ptp(lagrange)) < 1e-6 * (t + float(np.ptp(s)))


@dataclass(frozen=True)
class SweepResult:
    r"""A temperature sweep, one row per temperature.

    Attributes
    ----------
    taus : ndarray, shape (T,)
        The temperatures.
    weights : ndarray, shape (T, N)
        Softmax weights at each temperature.
    entropy : ndarray, shape (T,)
        :math:`H(a)` in nats.
    effective_k : ndarray, shape (T,)
        :math:`\exp H(a)`.
    expected_score : ndarray, shape (T,)
        :math:`\mathbb{E}_a[s] = \sum_i a_i s_i`.
    objective : ndarray, shape (T,)
        :math:`\mathbb{E}_a[s] + \tau H(a)` (KL form with a prior).
    """

    taus: FloatArray
    weights: FloatArray
    entropy: FloatArray
    effective_k: FloatArray
    expected_score: FloatArray
    objective: FloatArray


def temperature_sweep(scores: Any, taus: Any, *, prior: Any = None) -> SweepResult:
    """Softmax weights and their statistics for many temperatures in one call.

    Parameters
    ----------
    scores : array_like
        One-dimensional scores, shape ``(N,)``.
    taus : array_like
        One-dimensional temperatures, shape ``(T,)``, each ``>= 0``.
    prior : array_like, optional
        Prior weights, shape ``(N,)``.

    Returns
    -------
    SweepResult

    Examples
    --------
    >>> sweep = temperature_sweep([0.0, 1.0, 2.0], [0.0, 1.0, np.inf])
    >>> sweep.effective_k.round(3)
    array([1.   , 2.299, 3.   ])
    """
    s = _check_scores(scores)
    if s.ndim != 1:
        raise ValueError(f"scores must be 1-D for a sweep, got shape {s.shape}")
    t = check_tau(taus, "taus")
    if t.ndim != 1 or t.size == 0:
        raise ValueError(f"taus must be a non-empty 1-D array, got shape {t.shape}")
    w = softmax(s, t[:, None], prior=prior)  # (T, N)
    h = entropy(w)  # (T,)
    expected = expected_score(w, s)  # (T,)
    objective = retrieval_objective(w, s, t, prior=prior)  # (T,)
    return SweepResult(t, w, h, np.exp(h), expected, objective)


REGIMES = ("argmax", "intermediate", "uniform")


def classify_regime(effective_k: float, n: int, *, low: float = 0.02, high: float = 0.95) -> str:
    r"""Name the regime of a retrieval distribution from its effective k.

    The fraction :math:`f = (k_\mathrm{eff} - 1) / (N - 1)` runs from 0
    (one-hot, the argmax regime) to 1 (uniform). Below ``low`` the regime is
    ``"argmax"``, above ``high`` it is ``"uniform"``, in between
    ``"intermediate"``. The thresholds are a presentation choice.

    Parameters
    ----------
    effective_k : float
        :math:`\exp H(a)`, between 1 and ``n``.
    n : int
        Number of items.
    low, high : float
        Thresholds on :math:`f`, with ``0 <= low < high <= 1``.

    Returns
    -------
    str
        One of ``REGIMES``.

    Examples
    --------
    >>> classify_regime(1.0, 12), classify_regime(6.0, 12), classify_regime(12.0, 12)
    ('argmax', 'intermediate', 'uniform')
    """
    n = check_int(n, "n", minimum=1)
    if not 0.0 <= low < high <= 1.0:
        raise ValueError(f"need 0 <= low < high <= 1, got low={low}, high={high}")
    k = float(effective_k)
    if not 1.0 - 1e-9 <= k <= n + 1e-9:
        raise ValueError(f"effective_k must lie in [1, n={n}], got {k}")
    if n == 1:
        return "argmax"
    fraction = (k - 1.0) / (n - 1.0)
    return "argmax" if fraction < low else "uniform" if fraction > high else "intermediate"
