"""Widgets keep their geometry when moved, and reject bad data."""

from __future__ import annotations

import numpy as np
import pytest
from manim import RIGHT, UP

from scenes.widgets import BarPanel, LogSlider, Readout


def test_readout_digits_follow_the_label_after_a_move():
    readout = Readout(r"H =", 0.0, decimals=3, widest=9.0)
    offset = readout.number.get_right()[0] - readout.label.get_right()[0]
    readout.shift(3 * RIGHT + 2 * UP)
    readout.set_value(1.234)
    assert readout.shown == "1.234" and len(readout.number) == 5
    assert readout.number.get_right()[0] - readout.label.get_right()[0] == pytest.approx(offset, abs=1e-6)
    assert abs(readout.number.get_center()[1] - readout.label.get_center()[1]) < 0.1


def test_readout_rebuilds_only_when_the_text_changes():
    readout = Readout(r"x =", 1.0, decimals=1)
    before = list(readout.number.submobjects)
    readout.set_value(1.04)  # prints "1.0" again
    assert readout.number.submobjects == before
    readout.set_value(-2.5)
    assert readout.shown == "-2.5" and readout.number.submobjects != before


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
