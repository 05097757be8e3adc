"""Rows of dots on one number line: draws of a quantity at several sizes, to see its spread change.

Each row is a label, a baseline with a tick at zero, and one dot per draw. :meth:`SpreadRows.rescale`
moves every row's dots to its draws times a factor (e.g. one over root d), so a spread that grows
from row to row can be seen to shrink back to one width.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import LEFT, RIGHT, UP, Animation, Dot, Line, Mobject, VGroup
from numpy.typing import ArrayLike

from drawing import theme

__all__ = ["SpreadRows"]


class SpreadRows(VGroup):
    """One row of dots per (label, draws), on a shared scale from ``-limit`` to ``limit``.

    Parameters
    ----------
    rows : sequence of (Mobject, array_like)
        Each row's label (set at the left) and its draws.
    width : float
        Length of the number line in scene units.
    limit : float
        The value at either end of the line; draws beyond it sit at the end.
    pitch : float
        Vertical distance between rows.
    """

    def __init__(
        self,
        rows: Sequence[tuple[Mobject, ArrayLike]],
        *,
        width: float,
        limit: float,
        pitch: float = 0.8,
        color: str = theme.SCORE,
    ) -> None:
        super().__init__()
        self.width, self.limit = width, limit
        self.draws = [np.asarray(values, dtype=float) for _label, values in rows]
        self.dots = VGroup()
        for r, (name, values) in enumerate(zip((name for name, _ in rows), self.draws, strict=True)):
            y = -r * pitch
            line = Line([-width / 2, y, 0], [width / 2, y, 0], color=theme.MUTED, stroke_width=2)
            tick = Line([0, y - 0.12, 0], [0, y + 0.12, 0], color=theme.MUTED, stroke_width=2)
            dots = VGroup(
                *(Dot([self.x(v), y, 0], radius=0.055, color=color, fill_opacity=0.7) for v in values)
            )
            name.next_to(line, LEFT, buff=0.35)
            self.dots.add(dots)
            self.add(VGroup(name, line, tick, dots))

    def x(self, value: float) -> float:
        """Where ``value`` sits on the line (clipped to its ends), relative to the line's centre."""
        return float(np.clip(value, -self.limit, self.limit) / self.limit * self.width / 2)

    def rescale(self, factors: Sequence[float]) -> list[Animation]:
        """Animations moving each row's dots to its draws times its factor."""
        moves: list[Animation] = []
        for dots, values, factor in zip(self.dots, self.draws, factors, strict=True):
            centre = dots.get_center() * UP + self[0][1].get_center() * RIGHT  # the line's centre, this row
            for dot, v in zip(dots, values, strict=True):
                target = centre + self.x(factor * v) * RIGHT
                moves.append(dot.animate.move_to(target))
        return moves
