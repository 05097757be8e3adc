"""Token widgets: a row of words, attention arcs between them, and weight heatmaps."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    ArcBetweenPoints,
    Circle,
    DashedLine,
    Mobject,
    Rectangle,
    RoundedRectangle,
    Square,
    VGroup,
    VMobject,
)
from numpy.typing import ArrayLike

from drawing import theme
from drawing.widgets import label

__all__ = ["TokenRow", "attention_arcs", "Heatmap"]


class TokenRow(VGroup):
    """Words in rounded boxes, evenly spaced across ``width``."""

    def __init__(self, words: Sequence[str], *, width: float = 12.4, size: int = theme.LABEL_SIZE) -> None:
        super().__init__()
        step = width / len(words)
        self.boxes = VGroup()
        for i, word in enumerate(words):
            text = label(word, size=size)
            if text.width > step - 0.2:
                text.scale_to_fit_width(step - 0.2)
            box = RoundedRectangle(
                corner_radius=0.08, width=step - 0.1, height=0.55, color=theme.MUTED, stroke_width=1.5
            )
            self.boxes.add(VGroup(box, text).move_to([(i + 0.5) * step - width / 2, 0, 0]))
        self.add(self.boxes)

    def top(self, i: int) -> np.ndarray:
        """Point at the top centre of word ``i``."""
        return self.boxes[i].get_top()

    def centre_fractions(self) -> np.ndarray:
        """Word centres as fractions of the row's width (to align bar charts under the words)."""
        left, width = self.get_left()[0], self.width
        return np.array([(b.get_center()[0] - left) / width for b in self.boxes])


def attention_arcs(
    row: TokenRow,
    weights: ArrayLike,
    *,
    queries: Sequence[int] | None = None,
    threshold: float = 0.05,
    color: str = theme.WEIGHT,
) -> VGroup:
    """Arcs from each query word to the words it attends to; opacity and width follow the weight.

    Arcs bulge upwards; attention to oneself is a small loop above the word.
    """
    w = np.asarray(weights, dtype=float)
    arcs = VGroup()
    for i in queries if queries is not None else range(w.shape[0]):
        for j in np.flatnonzero(w[i] > threshold):
            strength = float(w[i, j])
            arc: VMobject
            if i == j:
                arc = Circle(radius=0.18).move_to(row.top(i) + 0.22 * UP)
            else:
                arc = ArcBetweenPoints(
                    row.top(i) + 0.05 * UP,
                    row.top(int(j)) + 0.05 * UP,
                    angle=0.6 * np.pi if j < i else -0.6 * np.pi,
                )
            arcs.add(arc.set_stroke(color, width=1.0 + 5.0 * strength, opacity=0.25 + 0.75 * strength))
    return arcs


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
