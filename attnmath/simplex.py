"""The retrieval objective over three items: its level sets on the simplex, and its one peak.

Section 3 draws the simplex of distributions over three items with the level
sets of J(a) = sum_i a_i s_i + tau H(a) and its single maximum, softmax(s/tau).
For tau > 0, J is strictly concave, so every superlevel set {J >= c} is convex
and holds the peak: each ray from the peak leaves it exactly once. A level set
is therefore found ray by ray, by a bracketed root of J along the ray
(:func:`scipy.optimize.brentq`); where a ray reaches the simplex's edge still
above the level, the set is cut by the edge and the curve breaks there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import brentq
from scipy.special import entr

from attnmath._validate import FloatArray, check_tau
from attnmath.softmax import softmax

__all__ = ["SimplexLevels", "simplex_levels", "simplex_objective"]

# Two directions spanning the plane sum(a) = const, orthonormal.
_PLANE = np.array([[1.0, -1.0, 0.0], [1.0, 1.0, -2.0]]) / np.sqrt([[2.0], [6.0]])


def simplex_objective(weights: Any, scores: Any, tau: float) -> Any:
    """J(a) = sum_i a_i s_i + tau H(a) for points ``weights`` (..., 3) of the simplex (0 log 0 = 0)."""
    a = np.clip(np.asarray(weights, dtype=float), 0.0, None)
    return a @ np.asarray(scores, dtype=float) + tau * entr(a).sum(axis=-1)


@dataclass(frozen=True)
class SimplexLevels:
    """J's level sets over three items: ``curves[k]`` are the polylines of ``levels[k]``.

    Each polyline is an array (m, 3) of distributions; a closed level set is one
    polyline whose last point repeats its first. ``peak`` is the maximiser and
    ``best`` the maximum, J at the peak.
    """

    scores: FloatArray
    tau: float
    peak: FloatArray
    best: float
    levels: FloatArray
    curves: tuple[tuple[FloatArray, ...], ...]


def simplex_levels(scores: Any, tau: float, levels: Any, *, rays: int = 720) -> SimplexLevels:
    """Level sets of J over the three-item simplex, at each of ``levels`` (each below the maximum).

    Raises ``ValueError`` for anything but three finite scores, a temperature
    that is not positive, or a level at or above the maximum.
    """
    s = np.asarray(scores, dtype=float)
    if s.shape != (3,) or not np.all(np.isfinite(s)):
        raise ValueError(f"the simplex is drawn for three finite scores, got {s.tolist()}")
    t = float(check_tau(tau))
    if not t > 0:
        raise ValueError(f"J is strictly concave only for tau > 0, got tau = {t}")
    peak = softmax(s, t)
    best = float(simplex_objective(peak, s, t))
    wanted = np.atleast_1d(np.asarray(levels, dtype=float))
    if np.any(wanted >= best):
        raise ValueError(f"every level must lie below the maximum {best:.6g}, got {wanted.tolist()}")
    angles = np.linspace(0.0, 2.0 * np.pi, rays, endpoint=False)
    directions = np.cos(angles)[:, None] * _PLANE[0] + np.sin(angles)[:, None] * _PLANE[1]
    curves = tuple(_level_curves(s, t, peak, float(c), directions) for c in wanted)
    return SimplexLevels(s, t, peak, best, wanted, curves)


def _level_curves(
    s: FloatArray, t: float, peak: FloatArray, level: float, directions: FloatArray
) -> tuple[FloatArray, ...]:
    """The level set ``J = level`` as polylines, one point per ray that crosses it inside the simplex."""
    points: list[FloatArray | None] = []
    for d in directions:
        reach = float(np.min(-peak[d < 0] / d[d < 0]))  # where the ray meets the simplex's edge
        along = lambda r, d=d: float(simplex_objective(peak + r * d, s, t)) - level  # noqa: E731
        if along(reach) >= 0:
            points.append(None)  # the superlevel set reaches the edge here: the curve is cut
            continue
        r = brentq(along, 0.0, reach, xtol=1e-13, rtol=1e-13)
        points.append(peak + r * d)
    return _runs(points)


def _runs(points: list[FloatArray | None]) -> tuple[FloatArray, ...]:
    """Contiguous runs of found points, around the circle of rays; one closed run when none is missing."""
    if all(p is not None for p in points):
        ring = [p for p in points if p is not None]
        return (np.array([*ring, ring[0]]),)
    start = next(i for i, p in enumerate(points) if p is None)
    turned = points[start:] + points[:start]  # begins at a gap, so no run wraps around
    runs: list[FloatArray] = []
    current: list[FloatArray] = []
    for p in [*turned, None]:
        if p is None:
            if len(current) >= 2:
                runs.append(np.array(current))
            current = []
        else:
            current.append(p)
    return tuple(runs)
