"""Many small weight maps as a few filled paths: every head of a model at a glance (BertViz's model view).

A :class:`~drawing.tokens.Heatmap` draws one square per cell, which is right for
one map; 72 maps of 12 x 12 cells would be ten thousand mobjects. Here the
weights are rounded to :data:`LEVELS` opacities and the cells of one level
form one path with a subpath per cell, so the whole grid is a few dozen
mobjects that Cairo fills in one call each. (manim 0.22's ``ImageMobject``
cannot be drawn with this machine's Pillow: its camera builds an RGBA image
from a 2-D float array, which Pillow 11 and later refuse.)
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, UP, Rectangle, VGroup, VMobject

from drawing import theme

__all__ = ["HeadTiles", "LEVELS"]

LEVELS = 10
"""Opacity steps: a weight is drawn at the nearest tenth (0.05 and under is left empty)."""


class HeadTiles(VGroup):
    """``attention`` (L, H, T, T) as an L x H grid of T x T tiles; ``tile(layer, head)`` frames one."""

    def __init__(
        self, attention: np.ndarray, *, width: float, gap: float = 0.12, color: str = theme.WEIGHT
    ) -> None:
        super().__init__()
        a = np.asarray(attention, dtype=float)
        self.n_layers, self.n_heads, t, _ = a.shape
        self.side = (width - gap * (self.n_heads - 1)) / self.n_heads
        self.gap, cell = gap, self.side / t
        self.frames = VGroup(
            *(
                Rectangle(width=self.side, height=self.side, color=theme.MUTED, stroke_width=1).move_to(
                    self.centre(layer, head)
                )
                for layer in range(self.n_layers)
                for head in range(self.n_heads)
            )
        )
        level = np.rint(a * LEVELS).astype(int)  # (L, H, T, T)
        self.levels = VGroup()
        for k in range(1, LEVELS + 1):
            where = np.argwhere(level == k)
            if where.size == 0:
                continue
            path = VMobject(stroke_width=0, fill_color=color, fill_opacity=k / LEVELS)
            for layer, head, i, j in where:
                corner = self.corner(layer, head) + np.array([j * cell, -i * cell, 0.0])
                square = [
                    corner,
                    corner + [cell, 0, 0],
                    corner + [cell, -cell, 0],
                    corner + [0, -cell, 0],
                    corner,
                ]
                path.start_new_path(square[0])
                path.add_points_as_corners(square[1:])
            self.levels.add(path)
        self.add(self.frames, self.levels)

    def centre(self, layer: int, head: int) -> np.ndarray:
        """Centre of one head's tile, the grid's centre at the origin."""
        pitch = self.side + self.gap
        x = (head - (self.n_heads - 1) / 2) * pitch
        y = ((self.n_layers - 1) / 2 - layer) * pitch
        return np.array([x, y, 0.0])

    def corner(self, layer: int, head: int) -> np.ndarray:
        """Top-left corner of one head's tile (before the grid is moved)."""
        return self.centre(layer, head) + self.side / 2 * (LEFT + UP)

    def tile(self, layer: int, head: int) -> VMobject:
        """The frame of one head's tile, where the grid is now."""
        return self.frames[layer * self.n_heads + head]
