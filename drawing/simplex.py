"""The simplex of three items as a triangle: J's level sets as rings, its one peak as a weight-yellow dot.

Each corner is a distribution with all weight on one item; a point inside is a
distribution a = (a_1, a_2, a_3), placed at sum_i a_i * corner_i. The rings
are :func:`attnmath.simplex_levels`' curves, drawn in the temperature's colour
(J's shape comes from the entropy term), fainter far from the peak.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, UP, Dot, Polygon, VGroup, VMobject

from attnmath import SimplexLevels
from drawing import theme
from drawing.widgets import label

__all__ = ["SimplexPicture"]


class SimplexPicture(VGroup):
    """A triangle of side ``side`` with corners named by item, J's level rings and the peak.

    Parts: ``triangle`` (with ``corners``, the items' names), ``rings`` (one
    group of polylines per level, highest level first) and ``peak``.
    """

    def __init__(self, levels: SimplexLevels, *, side: float = 3.6, names: tuple[str, str, str]) -> None:
        super().__init__()
        height = side * np.sqrt(3) / 2
        self.vertices = np.array(
            [[0.0, 2 * height / 3, 0.0], [-side / 2, -height / 3, 0.0], [side / 2, -height / 3, 0.0]]
        )
        self.triangle = Polygon(*self.vertices, color=theme.MUTED, stroke_width=2.5)
        self.corners = VGroup(
            label(names[0], color=theme.MUTED).next_to(self.vertices[0], UP, buff=0.15),
            label(names[1], color=theme.MUTED).next_to(self.vertices[1], DOWN, buff=0.15),
            label(names[2], color=theme.MUTED).next_to(self.vertices[2], DOWN, buff=0.15),
        )
        order = np.argsort(-levels.levels)  # highest level (the ring nearest the peak) first
        self.rings = VGroup()
        for rank, k in enumerate(order):
            opacity = 1.0 - 0.6 * rank / max(len(order) - 1, 1)
            ring = VGroup(*(self._polyline(points) for points in levels.curves[k]))
            self.rings.add(ring.set_stroke(theme.TEMPERATURE, width=3, opacity=opacity))
        self.peak = Dot(self.at(levels.peak), radius=0.09, color=theme.WEIGHT)
        self.add(self.triangle, self.corners, self.rings, self.peak)

    def at(self, weights: np.ndarray) -> np.ndarray:
        """The scene point of the distribution ``weights`` (three entries summing to one), wherever it is."""
        return np.asarray(weights, dtype=float) @ self.triangle.get_vertices()[:3]

    def _polyline(self, points: np.ndarray) -> VMobject:
        line = VMobject()
        line.set_points_as_corners(points @ self.vertices)
        return line
