"""Matrices drawn as shaded blocks with their name or shape, for the linear-algebra steps of a scene."""

from __future__ import annotations

from manim import DOWN, Rectangle, VGroup

from drawing import theme
from drawing.widgets import math

__all__ = ["matrix_block"]


def matrix_block(
    width: float,
    height: float,
    tex: str | None,
    color: str,
    *,
    size: int = theme.MATH_SIZE,
    small: bool = False,
) -> VGroup:
    """A ``width`` x ``height`` block in the role's colour, ``tex`` inside it (beneath when it does not fit).

    ``tex=None`` draws the block alone. ``small`` marks the text as secondary
    (a shape such as ``10 x 40``), allowed down to :data:`theme.SMALL_SIZE`.
    """
    box = Rectangle(width=width, height=height, color=color, fill_opacity=0.25, stroke_width=2)
    if tex is None:
        return VGroup(box)
    tag = math(tex, size=size, small=small)
    if tag.width > width - 0.15 or tag.height > height - 0.15:
        tag.next_to(box, DOWN, buff=0.12)
    else:
        tag.move_to(box)
    return VGroup(box, tag)
