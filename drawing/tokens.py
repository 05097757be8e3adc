"""Weight heatmaps: a grid of squares, one per query and key, filled to the weight."""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    DashedLine,
    Mobject,
    Rectangle,
    Square,
    VGroup,
)
from numpy.typing import ArrayLike

from drawing import theme
from drawing.widgets import label

__all__ = ["Heatmap"]


class Heatmap(VGroup):
    """A T x T grid of squares whose fill opacity is the weight (rows = queries)."""

    def __init__(
        self, weights: ArrayLike, *, size: float = 2.4, color: str = theme.WEIGHT, diagonal: bool = False
    ) -> None:
        super().__init__()
        w = np.asarray(weights, dtype=float)
        n_rows, n_cols = w.shape
        cell = size / max(n_rows, n_cols)
        self.frame = Rectangle(width=cell * n_cols, height=cell * n_rows, color=theme.MUTED, stroke_width=1)
        self.cells = VGroup()
        for i in range(n_rows):
            for j in range(n_cols):
                sq = Square(side_length=cell, stroke_width=0, fill_color=color, fill_opacity=float(w[i, j]))
                self.cells.add(
                    sq.move_to(
                        self.frame.get_corner(UP + np.array([-1, 0, 0]))
                        + np.array([(j + 0.5) * cell, -(i + 0.5) * cell, 0])
                    )
                )
        self.add(self.frame, self.cells)
        if diagonal:  # where a query meets itself: an off-by-one pattern reads against it
            corner = self.frame.get_corner(UP + LEFT)
            self.add(
                DashedLine(
                    corner,
                    self.frame.get_corner(DOWN + RIGHT),
                    color=theme.MUTED,
                    stroke_width=1.5,
                    dash_length=0.08,
                )
            )

    def caption(self, text: str) -> Mobject:
        """A label under the heatmap."""
        return label(text, size=theme.SMALL_SIZE).next_to(self.frame, DOWN, buff=0.15)
