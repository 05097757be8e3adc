"""The angle inset: k's tip at the angle whose cosine it shows, and k's shadow on q that long."""

from __future__ import annotations

import math

import numpy as np
import pytest

from drawing.angle import SHADOW_BELOW, AngleInset


@pytest.mark.parametrize("cosine", [1.0, 0.5, 0.0, -0.64, -1.0])
def test_the_shadow_of_k_on_q_is_the_cosine_long(cosine):
    centre = np.array([1.0, -0.5, 0.0])
    inset = AngleInset(centre, radius=1.1, cosine=0.3).set_cosine(cosine)
    theta = math.acos(cosine)
    tip = inset.key.get_end()
    np.testing.assert_allclose(
        tip[:2], centre[:2] + 1.1 * np.array([math.cos(theta), math.sin(theta)]), atol=1e-6
    )
    start, end = inset.shadow.get_start(), inset.shadow.get_end()
    assert start[1] == pytest.approx(centre[1] - SHADOW_BELOW) == end[1]
    assert (end[0] - start[0]) / 1.1 == pytest.approx(cosine, abs=1e-3)
    drop_top, drop_foot = inset.drop.get_start(), inset.drop.get_end()
    assert drop_top[0] == pytest.approx(drop_foot[0], abs=1e-6) == pytest.approx(end[0], abs=1e-3)
    assert inset.value.get_value() == pytest.approx(cosine)


def test_a_cosine_past_one_is_clipped():
    inset = AngleInset(np.zeros(3), cosine=0.0).set_cosine(1.7)
    assert inset.cosine == 1.0 and inset.angle() == 0.0
