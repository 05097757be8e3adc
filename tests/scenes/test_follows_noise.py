"""Section 1's "noise" beat: the learned curve bends to the points, the kernel's stays near the sine.

What the beat says is recomputed here by hand (tests/scenes/spoken/s1_fixed_vs_query.py's loops, not
attnmath's vectorised code): each curve's mean squared distance from sin(2 pi x) over the points' range,
and each curve's distance from the points themselves. The beat plays only when the first holds by
``NOISE_RATIO``; on the default data it must play, and its pictures must be in the frames.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from lecture.clips import find_clip
from scenes.s1_fair_test import NOISE_RATIO
from tests.scenes.conftest import cached_run
from tests.scenes.script_text import script, slug
from tests.scenes.spoken.s1_fixed_vs_query import S, data, gaussian, leave_one_out, predict

pytestmark = [pytest.mark.render, pytest.mark.xdist_group("scene-runs")]


def curves() -> tuple[np.ndarray, np.ndarray, dict[str, Callable[[float], float]]]:
    """The points, and each method's prediction at a query, from the data and the fit alone."""
    from attnmath import fit_similarity

    x, y = data(S.n_points, S.seed)
    sigma, _ = leave_one_out()
    fit = fit_similarity(x, y)
    m = fit.w_q @ fit.w_k.T

    def learned(q: float, k: float) -> float:
        return float(np.array([q, q * q, 1.0]) @ m @ np.array([k, k * k, 1.0]))

    return (
        x,
        y,
        {
            "kernel": lambda q: predict(gaussian(sigma), x, y, q),
            "learned": lambda q: predict(learned, x, y, q),
        },
    )


def test_the_learned_curve_leaves_the_sine_for_the_points_and_the_kernel_does_not():
    x, y, c = curves()
    grid = np.linspace(min(x), max(x), 401)
    off = {
        k: sum((c[k](q) - math.sin(2 * math.pi * q)) ** 2 for q in grid) / grid.size
        for k in ("kernel", "learned")
    }
    near = {
        k: sum(abs(c[k](a) - b) for a, b in zip(x, y, strict=True)) / x.size for k in ("kernel", "learned")
    }
    assert off["learned"] > NOISE_RATIO * off["kernel"], off  # stays near it / bends away from it
    assert near["learned"] < near["kernel"], near  # bends to the points


def test_the_default_lecture_plays_the_noise_beat_after_the_verdict():
    beats = [slug(b.id) for b in script()["FixedVsQueryWeights"]]
    assert beats.index("overfit") + 1 == beats.index("noise")


def test_the_dashed_sine_and_each_curves_gap_from_it_are_drawn_where_the_data_put_them():
    from manim import DashedVMobject

    from drawing import theme

    scene = cached_run(find_clip("FixedVsQueryWeights")).scene
    _x, _y, by_hand = curves()
    widest = {}
    for k, name in ((1, "kernel"), (2, "learned")):
        axes = scene.axes[k]
        (dashed,) = [m for m in scene.truth_shown[k] if isinstance(m, DashedVMobject)]
        for point in dashed[0].get_start(), dashed[-1].get_end():
            a, b = axes.p2c(point)[:2]
            assert b == pytest.approx(math.sin(2 * math.pi * a), abs=0.02)
        (gap,) = [m for m in scene.truth_shown[k] if not isinstance(m, DashedVMobject)]
        assert gap.get_fill_color().to_hex().lower() == theme.WARNING.lower()  # what "cannot" is drawn in
        on_sine = on_curve = 0
        spans = []
        for corner in gap.get_start_anchors():
            a, b = axes.p2c(corner)[:2]
            sine_b, curve_b = math.sin(2 * math.pi * a), by_hand[name](a)
            assert min(abs(b - sine_b), abs(b - curve_b)) < 1e-6, (name, a, b)
            on_sine += abs(b - sine_b) < 1e-6
            on_curve += abs(b - curve_b) < 1e-6
            spans.append(abs(curve_b - sine_b))
        assert on_sine >= 20 and on_curve >= 20
        widest[name] = max(spans)
    assert widest["learned"] > 2 * widest["kernel"], widest


def test_the_fresh_points_error_names_what_the_sine_itself_scores():
    """The held-out beat's heading gives the floor: the noise-free sine's own mean squared error there.

    Recomputed by hand from the fresh points' draw; it lies near the noise's variance, S.noise squared.
    """
    x, _ = data(S.n_points, S.seed)
    fx, fy = data(S.n_fresh, S.fresh_seed, min(x), max(x))
    floor = sum((b - math.sin(2 * math.pi * a)) ** 2 for a, b in zip(fx, fy, strict=True)) / len(fx)
    beats = {slug(b.id): b for b in script()["FixedVsQueryWeights"]}
    heading = f"mean squared error, {S.n_fresh} fresh points; noise {floor:.3f}"
    assert heading in beats["held-out"].words
    assert abs(floor - S.noise**2) < 0.25 * S.noise**2
