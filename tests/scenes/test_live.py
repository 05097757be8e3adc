"""A live group keeps redrawing: animating one of its members (which splits the group) is caught as a bug."""

from __future__ import annotations

import pytest
from manim import Circumscribe, Indicate, Square, ValueTracker, VGroup, tempconfig

from drawing.readouts import Readout
from scenes.base import LectureScene


class LiveScene(LectureScene):
    """A readout that follows a tracker live; one beat points at the readout."""

    point_at = staticmethod(Circumscribe)

    def construct(self) -> None:
        value = ValueTracker(0.0)
        readout = Readout(r"x =", 0.0, decimals=2, widest=9.0)
        self.shown: list[str] = []
        group = VGroup(Square(), readout)
        self.go_live(group, lambda: readout.set_value(value.get_value()))
        with self.beat("point", "Look at the readout."):
            self.play(self.point_at(readout), run_time=0.5)
            self.play(value.animate.set_value(3.0), run_time=0.5)
        self.shown.append(readout.shown)


def run(scene_class, tmp_path):
    config = {"dry_run": True, "disable_caching": True, "quality": "low_quality", "media_dir": str(tmp_path)}
    with tempconfig(config):
        scene = scene_class(skip_animations=True)
        scene.render()
    return scene


def test_pointing_around_a_live_part_keeps_it_live(tmp_path):
    scene = run(LiveScene, tmp_path)
    assert scene.shown == ["3.00"]


def test_animating_a_live_part_is_a_bug_said_at_its_beat(tmp_path):
    class Split(LiveScene):
        point_at = staticmethod(Indicate)

    with pytest.raises(RuntimeError, match=r"bug in .*point: an animation split a live group"):
        run(Split, tmp_path)
