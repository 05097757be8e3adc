"""The scene state digest: equal where the next frames are drawn alike, different where they are not."""

from __future__ import annotations

import numpy as np
from manim import RIGHT, Circle, Scene, Square, ValueTracker, tempconfig

import manim_patches


def _states(hold: float, *, drift: bool) -> list[str]:
    """The digest before each animation of a small scene whose first hold lasts ``hold`` seconds."""

    class Small(Scene):
        def construct(self) -> None:
            dot, tracker = Circle(radius=0.2), ValueTracker(0.0)
            if drift:  # a picture that depends on absolute time
                dot.add_updater(lambda m, dt: m.shift(0.1 * dt * RIGHT))
            self.add(dot, tracker, Square())
            self.wait(hold)
            self.play(tracker.animate.set_value(2.0), run_time=0.5)
            self.wait(0.5)

    with tempconfig({"dry_run": True, "frame_rate": 15, "disable_caching": True}):
        with manim_patches.recording_animations() as played:
            Small(renderer=manim_patches.ExactRenderer()).render()
    return [state for *_, state in played]


def test_a_hold_of_another_length_leaves_the_later_states_alone() -> None:
    short, long = _states(1.0, drift=False), _states(2.0, drift=False)
    assert len(short) == 3 and short == long


def test_a_picture_that_moves_with_time_changes_every_later_state() -> None:
    short, long = _states(1.0, drift=True), _states(2.0, drift=True)
    assert short[0] == long[0] and short[1] != long[1] and short[2] != long[2]


def test_a_trackers_value_is_part_of_the_state() -> None:
    states = _states(1.0, drift=False)
    assert states[1] != states[2]  # the tracker moved from 0 to 2 in between
    assert len({*states}) == 3 and all(isinstance(s, str) and len(s) == 24 for s in states)
    assert np.unique(states).size == 3
