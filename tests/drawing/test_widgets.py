"""Widgets keep their geometry when moved, and reject bad data."""

from __future__ import annotations

import numpy as np
import pytest
from manim import RIGHT, UP

from drawing.readouts import Readout
from drawing.widgets import BarPanel, LogSlider


def test_readout_digits_follow_the_label_after_a_move():
    readout = Readout(r"H =", 0.0, decimals=3, widest=9.0)
    offset = readout.number.get_right()[0] - readout.label.get_right()[0]
    readout.shift(3 * RIGHT + 2 * UP)
    readout.set_value(1.234)
    assert readout.shown == "1.234"
    assert readout.number.get_right()[0] - readout.label.get_right()[0] == pytest.approx(offset, abs=1e-6)
    assert abs(readout.number.get_center()[1] - readout.label.get_center()[1]) < 0.1


def test_readout_updates_one_path_in_place():
    """New values rewrite the points of the same mobject: nothing is added, removed or copied."""
    readout = Readout(r"x =", 1.0, decimals=1, widest=99.0)
    number, members = readout.number, list(readout.submobjects)
    points = number.points.copy()
    readout.set_value(1.04)  # prints "1.0" again: nothing is touched
    assert np.array_equal(number.points, points)
    readout.set_value(-2.5)
    assert readout.shown == "-2.5" and readout.number is number and readout.submobjects == members
    assert not np.array_equal(number.points, points)
    readout.set_value(-99.5)
    with pytest.raises(ValueError, match="has room for 5 characters"):
        readout.set_value(-100.0)


def test_readout_glyphs_are_shared_not_copied():
    a, b = Readout(r"a =", 1.0), Readout(r"b =", 2.0)
    assert a.glyphs is b.glyphs
    assert "glyphs" not in vars(a.copy())


def test_label_switch_shows_one_option_and_follows_moves():
    from drawing.readouts import LabelSwitch
    from drawing.widgets import label

    switch = LabelSwitch({"a": label("alpha").move_to(2 * RIGHT), "b": label("beta").move_to(2 * RIGHT)})
    assert switch.text == "" and switch.width < 1e-9
    switch.switch_to("a")
    assert switch.text == "alpha" and switch.get_center()[0] == pytest.approx(2.0, abs=0.05)
    switch.shift(UP).switch_to("b")
    assert switch.text == "beta" and switch.get_center()[1] == pytest.approx(1.0, abs=0.05)
    switch.switch_to("")
    assert switch.width < 1e-9 and switch.get_center()[1] == pytest.approx(1.0, abs=0.05)


def test_bar_panel_maps_values_to_heights_and_rejects_wrong_lengths():
    panel = BarPanel([0.0, 0.5, 1.0], width=3.0, height=2.0).shift(RIGHT)
    heights = [bar.height for bar in panel.bars]
    assert heights[1] == pytest.approx(1.0) and heights[2] == pytest.approx(2.0)
    with pytest.raises(ValueError, match=r"values must have shape \(3,\)"):
        panel.set_values(np.ones(4))


def test_log_slider_places_decades_evenly():
    slider = LogSlider(0.01, 100.0, length=8.0)
    xs = [slider.value_to_point(v)[0] for v in (0.01, 1.0, 100.0)]
    assert xs[1] - xs[0] == pytest.approx(xs[2] - xs[1]) == pytest.approx(4.0)
    with pytest.raises(ValueError, match="need 0 < lo < hi"):
        LogSlider(1.0, 1.0)
