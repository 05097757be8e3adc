"""J's level sets over three items, against a naive objective, a naive point-in-polygon and scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from attnmath.simplex import simplex_levels

SCORES = (3.0, 2.8, 2.6)
TAU = 0.5


def naive_objective(a: np.ndarray, s: tuple[float, ...], tau: float) -> float:
    """sum a_i s_i - tau sum a_i log a_i, item by item, with 0 log 0 = 0."""
    total = 0.0
    for ai, si in zip(a, s, strict=True):
        total += ai * si
        if ai > 0:
            total -= tau * ai * math.log(ai)
    return total


def inside(point: np.ndarray, polygon: np.ndarray) -> bool:
    """Ray casting in the (a_1, a_2) plane: is ``point`` inside the closed ``polygon``?"""
    x, y = point[0], point[1]
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon[:-1, :2], polygon[1:, :2], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_the_peak_is_scipys_maximiser_and_the_best_value_its_objective():
    levels = simplex_levels(SCORES, TAU, [3.3])

    def minus_j(u: np.ndarray) -> float:
        a = np.array([u[0], u[1], 1.0 - u[0] - u[1]])
        return -naive_objective(np.clip(a, 1e-300, None), SCORES, TAU)

    tight = {"xatol": 1e-10, "fatol": 1e-14}
    found = minimize(minus_j, x0=[1 / 3, 1 / 3], method="Nelder-Mead", options=tight)
    assert np.allclose(levels.peak[:2], found.x, atol=1e-6)
    assert levels.best == pytest.approx(-found.fun, abs=1e-12)


def test_every_point_of_a_level_set_lies_on_the_simplex_at_that_level():
    wanted = [3.35, 3.3, 3.1, 2.9]
    levels = simplex_levels(SCORES, TAU, wanted)
    for level, curves in zip(wanted, levels.curves, strict=True):
        assert curves, level
        for points in curves:
            assert np.all(points >= -1e-12) and np.allclose(points.sum(axis=1), 1.0)
            values = [naive_objective(p, SCORES, TAU) for p in points]
            assert np.allclose(values, level, atol=1e-9), level


def test_a_level_above_every_edge_is_one_closed_ring_around_exactly_the_points_above_it():
    # the edges' best is tau log(e^{s_1/tau} + e^{s_2/tau}) = 3.256...; 3.3 lies above it
    edge_best = TAU * math.log(math.exp(SCORES[0] / TAU) + math.exp(SCORES[1] / TAU))
    assert edge_best < 3.3
    (ring,) = simplex_levels(SCORES, TAU, [3.3]).curves[0]
    assert np.allclose(ring[0], ring[-1])
    rng = np.random.default_rng(0)
    for a in rng.dirichlet(np.ones(3), size=400):
        j = naive_objective(a, SCORES, TAU)
        if abs(j - 3.3) > 1e-3:  # the polyline's chords stand in for the curve within this margin
            assert inside(a, ring) == (j > 3.3), (a, j)


def test_a_level_below_an_edges_best_is_cut_by_that_edge():
    curves = simplex_levels(SCORES, TAU, [3.1]).curves[0]
    assert curves
    for points in curves:
        assert not np.allclose(points[0], points[-1])
        for end in (points[0], points[-1]):
            assert end.min() < 5e-3  # the run ends where its ray meets an edge


@pytest.mark.parametrize(
    ("scores", "tau", "levels", "says"),
    [
        ((1.0, 2.0), 0.5, [1.0], "three finite scores"),
        ((1.0, 2.0, np.inf), 0.5, [1.0], "three finite scores"),
        (SCORES, 0.0, [2.0], "tau > 0"),
        (SCORES, TAU, [4.0], "below the maximum"),
    ],
)
def test_bad_input_is_named(scores, tau, levels, says):
    with pytest.raises(ValueError, match=says):
        simplex_levels(scores, tau, levels)
