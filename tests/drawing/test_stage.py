"""Figures change places as one: parts keep their arrangement, hidden parts move at once."""

from __future__ import annotations

import numpy as np
from manim import RIGHT, Square

from drawing.stage import aim


def test_aim_scales_parts_about_their_common_centre_and_moves_it():
    left, right = Square(1.0).move_to(-RIGHT), Square(1.0).move_to(RIGHT)
    aim([left, right], np.array([3.0, 1.0, 0.0]), 0.5)
    assert np.allclose(left.target.get_center(), [2.5, 1.0, 0.0])
    assert np.allclose(right.target.get_center(), [3.5, 1.0, 0.0])
    assert np.isclose(left.target.width, 0.5)
    assert np.allclose(left.get_center(), -RIGHT)  # the part itself waits for MoveToTarget


def test_aim_moves_hidden_parts_at_once_without_a_target():
    shown, hidden = Square(1.0).move_to(-RIGHT), Square(1.0).move_to(RIGHT)
    aim([shown, hidden], np.zeros(3), 2.0, now=[hidden])
    assert np.allclose(hidden.get_center(), 2 * RIGHT)
    assert getattr(hidden, "target", None) is None
    assert np.allclose(shown.target.get_center(), -2 * RIGHT)
