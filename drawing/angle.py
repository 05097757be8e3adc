"""Two unit vectors and the angle between them, for a plot whose x-axis is their cosine.

A query q (fixed, pointing right) and a key k on a unit circle; :meth:`AngleInset.set_cosine`
turns k, the arc marks the angle, k's shadow on q's line (a thick bar, dropped from k's tip)
is the cosine's length, and a readout gives ``cos θ`` in the shadow's colour. Section 4's
content panel turns it with the dot that runs along the weight curve, so the
curve's x-axis is seen to be this angle's cosine.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, RIGHT, Arc, Arrow, Circle, DashedLine, DecimalNumber, Line, VGroup

from drawing import theme
from drawing.widgets import label

__all__ = ["AngleInset", "SHADOW_BELOW"]

SHADOW_BELOW = 0.14
"""How far under q's line k's shadow is drawn, so that q's arrow stays seen."""


class AngleInset(VGroup):
    """A unit circle with q and k on it, k at the angle whose cosine is ``cosine``."""

    def __init__(self, center: np.ndarray, radius: float = 1.1, cosine: float = 1.0) -> None:
        super().__init__()
        self.centre, self.radius, self.cosine = np.asarray(center, dtype=float), radius, cosine
        circle = Circle(radius=radius, color=theme.MUTED, stroke_width=2).move_to(self.centre)
        q = Arrow(self.centre, self.centre + radius * RIGHT, buff=0, color=theme.QUERY, stroke_width=6)
        q_name = label("q", color=theme.QUERY).next_to(q.get_end(), RIGHT, buff=0.12)
        self.key, self.arc, self.shadow, self.drop = self._key(), self._arc(), self._shadow(), self._drop()
        self.key_name = label("k", color=theme.KEY).move_to(self._name_spot())
        self.value = DecimalNumber(cosine, num_decimal_places=2, font_size=theme.LABEL_SIZE, color=theme.KEY)
        readout = VGroup(label("cos θ =", color=theme.MUTED), self.value).arrange(RIGHT, buff=0.15)
        self.readout = readout.next_to(circle, DOWN, buff=0.3)
        self.add(circle, self.arc, self.drop, self.shadow, q, self.key, q_name, self.key_name, readout)

    def set_cosine(self, cosine: float) -> AngleInset:
        """Turn k to the angle whose cosine is ``cosine`` (clipped to [-1, 1]); the arc and readout follow."""
        self.cosine = float(np.clip(cosine, -1.0, 1.0))
        self.key.become(self._key())
        self.key_name.move_to(self._name_spot())  # text is typeset once, not every frame
        self.arc.become(self._arc())
        self.shadow.become(self._shadow())
        self.drop.become(self._drop())
        self.value.set_value(self.cosine)
        self.value.next_to(self.readout[0], RIGHT, buff=0.15)
        return self

    def angle(self) -> float:
        """The angle between q and k, in radians."""
        return float(np.arccos(self.cosine))

    def _tip(self, scale: float = 1.0) -> np.ndarray:
        a = self.angle()
        return self.centre + scale * self.radius * np.array([np.cos(a), np.sin(a), 0.0])

    def _key(self) -> Arrow:
        return Arrow(self.centre, self._tip(), buff=0, color=theme.KEY, stroke_width=6)

    def _name_spot(self) -> np.ndarray:
        """Where the key's name goes: past its tip; near q, above q's name rather than onto it."""
        spot = self._tip(1.28)
        spot[1] = max(spot[1], self.centre[1] + 0.45) if self.cosine > 0.8 else spot[1]
        return spot

    def _arc(self) -> Arc:
        return Arc(
            radius=0.35 * self.radius,
            start_angle=0.0,
            angle=max(self.angle(), 1e-3),
            arc_center=self.centre,
            color=theme.TEXT,
            stroke_width=4,
        )

    def _shadow_end(self) -> np.ndarray:
        return self.centre + self.cosine * self.radius * RIGHT + SHADOW_BELOW * DOWN

    def _shadow(self) -> Line:
        """The shadow of k on q's line, under q: from the centre to the cosine (left of it if negative)."""
        start = self.centre + SHADOW_BELOW * DOWN
        end = self._shadow_end()
        if abs(self.cosine) < 1e-3:
            end = end + 1e-3 * RIGHT  # a line needs two points
        return Line(start, end, color=theme.KEY, stroke_width=12)

    def _drop(self) -> DashedLine:
        """The dashed line from k's tip straight down (or up) to its shadow's end."""
        tip, end = self._tip(), self._shadow_end()
        if abs(tip[1] - end[1]) < 1e-3:
            tip = tip + 1e-3 * DOWN
        return DashedLine(tip, end, color=theme.KEY, stroke_width=2, dash_length=0.08)
