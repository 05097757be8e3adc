"""A sentence set large: words in boxes packed into centred rows.

:class:`WordRows` chooses the fewest rows and then the largest font size at which
the words fit a region, keeping room above each row (for a word's gauge or a mark).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, UP, Rectangle, RoundedRectangle, VGroup, VMobject
from numpy.typing import ArrayLike

from drawing import theme
from drawing.widgets import label

__all__ = ["WordRows"]


class WordRows(VGroup):
    """Words in boxes sized to their text, packed into centred rows between ``top`` and ``bottom``.

    Every row keeps room above it (at least ``min_arc_room``). The
    layout takes the fewest rows at which the words fit at ``least`` or more,
    then the largest size up to ``size``; when no layout fits at ``least``, the
    same search runs down to :data:`theme.SMALL_SIZE`, and past that the rows
    are scaled to fit (``self.scaled`` is then True).

    Each word is ``VGroup(box, gauge, text)``: the gauge is a level inside the
    box, empty until :meth:`gauge_targets` fills it with weights.
    """

    PAD, GAP, MAX_ARC_ROOM = 0.12, 0.14, 2.3

    def __init__(
        self,
        words: Sequence[str],
        *,
        width: float = theme.SAFE_RIGHT - theme.SAFE_LEFT,
        top: float = 2.8,
        bottom: float = -2.3,
        size: int = 44,
        least: int = theme.LABEL_SIZE,
        min_arc_room: float = 0.55,
    ) -> None:
        super().__init__()
        self.words = tuple(words)
        self.region = (width, top, bottom)
        self.min_arc_room = min_arc_room
        self.size, rows = self._choose(size, least)
        texts = [label(w, size=self.size) for w in self.words]
        for text in texts:
            text.least_size = min(self.size, theme.LABEL_SIZE)  # type: ignore[attr-defined]
        self.box_height = self._box_height(self.size)
        self.arc_room = float(
            np.clip((top - bottom) / len(rows) - self.box_height, min_arc_room, self.MAX_ARC_ROOM)
        )
        self.row_of = np.concatenate([[r] * len(row) for r, row in enumerate(rows)]).astype(int)
        self.boxes = VGroup(*(self._word(t) for t in texts))
        self.gauges = [word[1] for word in self.boxes]
        self._place(rows)
        self.add(self.boxes)
        block = len(rows) * (self.box_height + self.arc_room)  # the rows and the arcs above each
        self.scaled = self.width > width + 1e-6 or block > top - bottom + 1e-6
        if self.scaled:  # only words too long for the lecture file's limits get here
            factor = min(width / self.width, (top - bottom) / block)
            self.scale(factor, about_point=np.array([0.0, (top + bottom) / 2, 0.0]))
            self.box_height, self.arc_room = factor * self.box_height, factor * self.arc_room

    # --- layout -----------------------------------------------------------------
    @staticmethod
    def _box_height(size: float) -> float:
        return 0.0135 * size + 0.18  # ascenders and descenders with a margin: 0.77 at size 44

    def _pack(self, widths: np.ndarray, width: float | None = None) -> list[list[int]]:
        """Greedy rows: each takes words while it stays within ``width`` (the region's by default)."""
        width = self.region[0] if width is None else width
        rows: list[list[int]] = [[]]
        used = 0.0
        for i, w in enumerate(widths):
            if rows[-1] and used + self.GAP + w > width:
                rows.append([])
                used = 0.0
            used += (self.GAP if rows[-1] else 0.0) + w
            rows[-1].append(i)
        return rows

    def _choose(self, size: int, least: int) -> tuple[int, list[list[int]]]:
        """(font size, rows): fewest rows at ``least`` or more, then the largest size; else down to 30."""
        width, top, bottom = self.region
        at_48 = np.array([label(w, size=48).width for w in self.words])
        for floor in (least, theme.SMALL_SIZE):
            options = []
            for s in range(size, floor - 1, -2):
                widths = np.maximum(at_48 * s / 48 + 2 * self.PAD, self._box_height(s))
                rows = self._pack(widths)
                fits = (
                    widths.max() <= width
                    and len(rows) * (self._box_height(s) + self.min_arc_room) <= top - bottom
                )
                if fits:
                    options.append((len(rows), -s, rows))
            if options:
                n_rows, neg_size, rows = min(options, key=lambda o: (o[0], o[1]))
                return -neg_size, self._balance(at_48 * -neg_size / 48 + 2 * self.PAD, n_rows)
        s = theme.SMALL_SIZE
        return s, self._pack(np.maximum(at_48 * s / 48 + 2 * self.PAD, self._box_height(s)))

    def _balance(self, widths: np.ndarray, n_rows: int) -> list[list[int]]:
        """The narrowest packing into ``n_rows`` rows, so that the rows come out of similar length."""
        lo, hi = float(widths.max()), self.region[0]
        for _ in range(30):  # bisection on the row width
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if len(self._pack(widths, mid)) <= n_rows else (mid, hi)
        return self._pack(widths, hi)

    def _word(self, text: VMobject) -> VGroup:
        w = max(text.width + 2 * self.PAD, self.box_height)
        box = RoundedRectangle(
            corner_radius=0.1, width=w, height=self.box_height, color=theme.MUTED, stroke_width=2
        )
        box.set_fill(theme.BACKGROUND, opacity=1.0)  # arcs passing behind a word are hidden
        gauge = Rectangle(width=w - 0.14, height=self.box_height - 0.14, stroke_width=0)
        gauge.set_fill(theme.WEIGHT, opacity=0.0)
        return VGroup(box, gauge, text.move_to(box))

    def _place(self, rows: list[list[int]]) -> None:
        width, top, bottom = self.region
        pitch = self.box_height + self.arc_room
        block = len(rows) * pitch
        first = (top + bottom) / 2 + block / 2 - self.arc_room - self.box_height / 2
        for r, row in enumerate(rows):
            widths = [self.boxes[i].width for i in row]
            x = -(sum(widths) + self.GAP * (len(row) - 1)) / 2
            for i, w in zip(row, widths, strict=True):
                self.boxes[i].move_to([x + w / 2, first - r * pitch, 0])
                x += w + self.GAP

    # --- reading the layout --------------------------------------------------------
    @property
    def n_rows(self) -> int:
        """How many rows the words take."""
        return int(self.row_of.max()) + 1

    def font_size(self) -> float:
        """The words' font size as shown (after any scaling)."""
        return float(self.boxes[0][2].font_size)

    def top(self, i: int) -> np.ndarray:
        """Top centre of word ``i``'s box."""
        return self.boxes[i][0].get_top()

    def bottom(self, i: int) -> np.ndarray:
        """Bottom centre of word ``i``'s box."""
        return self.boxes[i][0].get_bottom()

    def gauge_targets(self, weights: ArrayLike, *, opacity: float = 0.55) -> list[Rectangle]:
        """Each gauge filled to its word's weight (0 to 1 of the box), as targets to ``Transform`` into."""
        targets = []
        for gauge, box, w in zip(self.gauges, self.boxes, np.asarray(weights, dtype=float), strict=True):
            full = box[0].height - 0.14
            target = gauge.copy().stretch_to_fit_height(max(float(w), 1e-3) * full)
            target.align_to(box[0], DOWN).shift(0.07 * UP)
            targets.append(target.set_fill(opacity=opacity if w > 0.005 else 0.0))
        return targets
