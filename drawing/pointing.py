"""Pointing at things as the narration names them: a set of marks flashing one after another."""

from __future__ import annotations

from collections.abc import Iterable

from manim import Indicate, LaggedStart, Mobject

__all__ = ["in_turn"]


def in_turn(mobjects: Iterable[Mobject], *, color: str, scale: float = 1.2, lag: float = 0.15) -> LaggedStart:
    """``mobjects`` flash in ``color`` one after another, left to right (top to bottom in a column).

    ``scale`` 1 flashes them without growing them (bars whose height is a value).
    """
    order = sorted(mobjects, key=lambda m: (round(float(m.get_x()), 3), -float(m.get_y())))
    return LaggedStart(*(Indicate(m, color=color, scale_factor=scale) for m in order), lag_ratio=lag)
