"""Every frame shows the scene's true state, and the temperature sweep prints attnmath's numbers.

A real low-quality render of each scene (its scene run, ``tests/scenes/conftest.py``)
is audited every half second: the frame handed to the video writer must equal a
fresh drawing of the scene's current mobjects, up to a few anti-aliased pixels.
Readouts whose glyphs were swapped mid-animation (ghost digits), stale static
backgrounds and missing redraws all fail this, in any scene.
"""

from __future__ import annotations

import numpy as np
import pytest
from manim import Circle, Scene, ValueTracker, VGroup, tempconfig
from scipy.special import softmax as scipy_softmax
from scipy.stats import entropy as scipy_entropy

from drawing.readouts import Readout
from lecture.clips import LECTURE, find_clip
from tests.scenes.conftest import cached_run
from tests.scenes.frame_audit import fresh_drawing, visible_difference
from tests.scenes.sweep_readings import read_readout

# the scene runs are shared with the other scene tests: one render per scene, on one xdist worker
pytestmark = pytest.mark.xdist_group("scene-runs")

# Pixels allowed to differ visibly in one frame (anti-aliasing where shapes overlap).
FEW_PIXELS = 8


@pytest.mark.render
@pytest.mark.parametrize("name", [c.scene for c in LECTURE])
def test_every_sampled_frame_is_a_fresh_drawing_of_the_scene(name, media_dir):
    run = cached_run(find_clip(name), media_dir)
    assert run.video is not None and run.video.stat().st_size > 0
    assert len(run.checks) >= 10
    bad = [c for c in run.checks if c.bad_pixels > FEW_PIXELS]
    assert bad == [], f"{name}: frames differ from the scene they show: {bad[:5]}"


@pytest.mark.render
def test_sweep_readouts_print_attnmath_values_for_the_slider_position(media_dir):
    readings = cached_run(find_clip("TemperatureSweep"), media_dir).readings
    scores = np.asarray(find_clip_scores())
    assert len(readings) >= 15
    assert len({round(np.log10(t), 2) for t, _, _ in readings}) >= 10, "the sweep barely moved"
    lifted = 0
    for tau, printed, drawn in readings:
        assert drawn == pytest.approx(scores, abs=1e-6) or near_tie(drawn, scores), (tau, drawn)
        lifted += drawn != pytest.approx(scores, abs=1e-6)
        weights = scipy_softmax(drawn / tau)
        h = float(scipy_entropy(weights))
        assert float(printed["tau"]) == pytest.approx(tau, abs=0.005 + 1e-9), (tau, printed)
        assert float(printed["H"]) == pytest.approx(h, abs=0.0005 + 1e-9), (tau, printed)
        assert float(printed["k_eff"]) == pytest.approx(np.exp(h), abs=0.005 + 1e-9), (tau, printed)
    assert lifted, "no audited frame caught the near tie's lifted score"


def near_tie(drawn: np.ndarray, scores: np.ndarray) -> bool:
    """Only the runner-up's bar differs, lifted at most just past the top score: section 3's near tie."""
    from scenes.s3_sweep import NEAR

    changed = np.flatnonzero(np.abs(drawn - scores) > 1e-6)
    second, top = np.argsort(scores)[-2:]
    return list(changed) == [second] and scores[second] < drawn[second] <= scores[top] + NEAR + 1e-6


def find_clip_scores() -> tuple[float, ...]:
    from lecture.sections.s3_softmax_temperature import TemperatureParameters

    return TemperatureParameters().scores


class GhostScene(Scene):
    """Replaces a group's member on every frame of a sweep, the way the old readouts did."""

    def construct(self) -> None:
        radius = ValueTracker(1.0)
        group = VGroup(Circle(radius=1.0))
        group.add_updater(lambda mob: setattr(mob, "submobjects", [Circle(radius=radius.get_value())]))
        self.add(group)
        self.play(radius.animate.set_value(2.0), run_time=1.0)


def test_audit_catches_a_ghost(tmp_path):
    checks: list[int] = []

    class Spy(GhostScene):
        def setup(self) -> None:
            write = self.renderer.add_frame

            def add_frame(frame, num_frames=1):
                checks.append(visible_difference(frame, fresh_drawing(self))[0])
                write(frame, num_frames)

            self.renderer.add_frame = add_frame

    with tempconfig({"quality": "low_quality", "disable_caching": True, "media_dir": str(tmp_path)}):
        Spy().render()
    assert max(checks) > 100, checks


def test_readout_reader_spells_the_shown_value():
    readout = Readout(r"x =", -12.345, decimals=3, widest=99.0)
    assert read_readout(readout) == "-12.345"
    readout.set_value(7.0)
    assert read_readout(readout) == "7.000"
