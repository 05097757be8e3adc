"""Reusable drawing widgets: bar panels and a log slider.

Widgets take arrays computed by :mod:`attnmath` and only draw them. Each is
built once and updated in place (``set_values``, ``set_value``), so a sweep
never rebuilds axes, labels or TeX inside an updater. The widgets that are
text changing in place, readouts and label switches, are in
:mod:`drawing.readouts`; ``label``, ``math``, ``wrapped`` and ``fit_width`` are
:mod:`drawing.text`'s, importable from here too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    DashedLine,
    Dot,
    Line,
    Mobject,
    Polygon,
    Rectangle,
    Triangle,
    VGroup,
    VMobject,
)
from numpy.typing import ArrayLike

from drawing import theme
from drawing.slots import keep_within, place_below, slot_words
from drawing.text import fit_width, label, math, wrapped

__all__ = [
    "BarPanel",
    "LogSlider",
    "label",
    "wrapped",
    "math",
    "format_tick",
    "fit_width",
]


class BarPanel(VGroup):
    """A row of bars over a baseline, one per item, redrawn in place.

    Parameters
    ----------
    values : array_like
        Initial bar heights in data units.
    width, height : float
        Size of the plotting box in scene units.
    y_range : (float, float)
        Data values at the bottom and top of the box; bars grow from 0.
    color : str
        Fill colour (the role's colour).
    title : Mobject, optional
        Placed above the box.
    show_index : bool
        Number the items 1..N under the baseline.
    names : sequence of str, optional
        Name the items (keys' words) under the baseline, below their numbers,
        staggered in two rows where a word is wider than its bar's slot.
    fill_ratio : float
        Fraction of each slot the bar fills.
    positions : array_like, optional
        Bar centres as fractions of the width (e.g. data x-positions), instead
        of evenly spaced slots.
    stepped : bool, optional
        Draw the values as one stepped area instead of separate bars. The
        default is a stepped area for 24 or more items, which would otherwise
        read as one solid block of touching bars.
    """

    STEPPED_FROM = 24

    def __init__(
        self,
        values: ArrayLike,
        *,
        width: float,
        height: float,
        y_range: tuple[float, float] = (0.0, 1.0),
        color: str = theme.WEIGHT,
        title: Mobject | None = None,
        show_index: bool = True,
        fill_ratio: float = 0.7,
        positions: ArrayLike | None = None,
        stepped: bool | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        super().__init__()
        if y_range[1] <= y_range[0]:
            raise ValueError(f"y_range must be increasing, got {y_range}")
        self.n = len(np.asarray(values))
        self.y_range = y_range
        self.fill_ratio = fill_ratio
        self.centres, self.bar_width = self._slots(positions, fill_ratio)
        self.box = Rectangle(width=width, height=height, stroke_opacity=0.0)
        zero = self._y(0.0)
        self.baseline = Line([-width / 2, zero, 0], [width / 2, zero, 0], color=theme.MUTED)
        self.stepped = self.n >= self.STEPPED_FROM if stepped is None else stepped
        if self.stepped:
            self.bars = VGroup(VMobject(color=color, fill_opacity=0.75, stroke_width=2.5))
        else:
            self.bars = VGroup(
                *(
                    Polygon(*self._corners(i, 0.0), color=color, fill_opacity=0.9, stroke_width=1.5)
                    for i in range(self.n)
                )
            )
        self.add(self.box, self.baseline, self.bars)
        if show_index:
            self._number_items(width)
        if names is not None:
            self._name_items(names, width, below=self.index_labels if show_index else self.box)
        if title is not None:
            title.next_to(self.box, UP, buff=0.3)
            self.title = title
            self.add(title)
        self.set_values(values)

    def _slots(self, positions: ArrayLike | None, fill_ratio: float) -> tuple[np.ndarray, float]:
        """Bar centres as fractions of the width (evenly spaced unless given), and the bars' width."""
        if positions is None:
            return (np.arange(self.n) + 0.5) / self.n, fill_ratio / self.n
        centres = np.asarray(positions, dtype=float)
        gaps = np.diff(np.sort(centres))
        # As wide as the closest pair allows, but never thinner than a hairline.
        closest = float(gaps.min()) if gaps.size else 1.0
        return centres, fill_ratio * min(max(closest, 0.4 / self.n), 1.0 / self.n)

    def _number_items(self, width: float) -> None:
        """Every item numbered under its bar when there is room, else every other one."""
        step = int(np.ceil(0.75 / (width / self.n)))
        shown = range(0, self.n, step)
        self.index_labels = VGroup(*(label(str(i + 1), small=True, color=theme.MUTED) for i in shown))
        for i, mob in zip(shown, self.index_labels, strict=True):
            mob.move_to([self._x(i), self.box.get_bottom()[1] - 0.32, 0])
        self.add(self.index_labels)

    def _name_items(self, names: Sequence[str], width: float, below: Mobject) -> None:
        """Each item's name under ``below``, staggered where neighbours would touch."""
        if len(names) != self.n:
            raise ValueError(f"names must name all {self.n} items, got {len(names)}")
        self.name_labels, rise = slot_words(names, width / self.n, ends=2.0)
        place_below(self.name_labels, [self._x(i) for i in range(self.n)], below.get_bottom()[1], rise)
        keep_within(self.name_labels, self.box.get_left()[0] - 0.35, self.box.get_right()[0] + 0.35)
        self.add(self.name_labels)

    def live_parts(self) -> tuple[list[Mobject], list[Mobject]]:
        """(parts that stay still, parts that ``set_values`` changes): only the bars move."""
        return [m for m in self.submobjects if m is not self.bars], [self.bars]

    # geometry in the box's current frame (valid after moving or scaling the panel)
    def _frac_to_point(self, fx: float, fy: float) -> np.ndarray:
        lo, hi = self.box.get_corner(DOWN + LEFT), self.box.get_corner(UP + RIGHT)
        return lo + np.array([fx, fy, 0.0]) * (hi - lo)

    def _x(self, i: int) -> float:
        return float(self._frac_to_point(self.centres[i], 0.0)[0])

    def _y(self, v: float) -> float:
        lo, hi = self.y_range
        return float(self._frac_to_point(0.0, (np.clip(v, lo, hi) - lo) / (hi - lo))[1])

    def _corners(self, i: int, v: float) -> list[np.ndarray]:
        half = 0.5 * self.bar_width * self.box.width
        x, y0, y1 = self._x(i), self._y(0.0), self._y(v)
        return [
            np.array(p) for p in ([x - half, y0, 0], [x + half, y0, 0], [x + half, y1, 0], [x - half, y1, 0])
        ]

    def set_values(self, values: ArrayLike) -> BarPanel:
        """Redraw every bar at the given heights (data units), all bars in one numpy pass."""
        vals = np.asarray(values, dtype=float)
        if vals.shape != (self.n,):
            raise ValueError(f"values must have shape ({self.n},), got {vals.shape}")
        lo, hi = self.box.get_corner(DOWN + LEFT), self.box.get_corner(UP + RIGHT)
        ymin, ymax = self.y_range
        x = lo[0] + self.centres * (hi[0] - lo[0])
        y0 = lo[1] + (np.clip(0.0, ymin, ymax) - ymin) / (ymax - ymin) * (hi[1] - lo[1])
        y1 = lo[1] + (np.clip(vals, ymin, ymax) - ymin) / (ymax - ymin) * (hi[1] - lo[1])
        if self.stepped:
            self.bars[0].points = _polyline_beziers(self._staircase(x, y0, y1, lo[0], hi[0]))
            return self
        half = 0.5 * self.bar_width * (hi[0] - lo[0])
        xs = np.stack([x - half, x + half, x + half, x - half, x - half], axis=1)  # (n, 5)
        ys = np.stack([np.full_like(y1, y0), np.full_like(y1, y0), y1, y1, np.full_like(y1, y0)], axis=1)
        corners = np.stack([xs, ys, np.zeros_like(xs)], axis=-1)  # (n, 5, 3)
        for bar, points in zip(self.bars, _polyline_beziers(corners), strict=True):
            bar.points = points
        return self

    def _staircase(self, x: np.ndarray, y0: float, y1: np.ndarray, left: float, right: float) -> np.ndarray:
        """Corners of one stepped outline: each item flat across its slot (between midpoints)."""
        order = np.argsort(x)
        xs, ys = x[order], y1[order]
        edges = np.concatenate([[left], (xs[:-1] + xs[1:]) / 2, [right]])
        px = np.concatenate([[left], np.repeat(edges, 2)[1:-1], [right], [left]])
        py = np.concatenate([[y0], np.repeat(ys, 2), [y0], [y0]])
        return np.stack([px, py, np.zeros_like(px)], axis=1)

    def level_line(self, value: float, *, color: str = theme.TEXT) -> DashedLine:
        """A dashed line across the box at ``value`` (data units): a mean, a threshold."""
        y = self._y(value)
        left, right = self.box.get_left()[0], self.box.get_right()[0]
        return DashedLine([left, y, 0], [right, y, 0], color=color, stroke_width=3, dash_length=0.12)

    def outlines(self, values: ArrayLike, *, color: str = theme.TEXT) -> VGroup:
        """Hollow bars at the given heights, to compare another result with the filled bars."""
        group = VGroup()
        for i, v in enumerate(np.asarray(values, dtype=float)):
            corners = self._corners(i, float(v))
            group.add(Polygon(*corners, color=color, stroke_width=3, fill_opacity=0.0).scale(1.25))
        return group


def _polyline_beziers(corners: np.ndarray) -> np.ndarray:
    """Cubic Bezier points of straight segments through ``corners`` (..., k, 3) -> (..., 4(k-1), 3).

    The same points as manim's ``set_points_as_corners``, for many shapes at once.
    """
    a, b = corners[..., :-1, :], corners[..., 1:, :]
    parts = [a, a + (b - a) / 3, a + 2 * (b - a) / 3, b]  # each (..., k-1, 3)
    points = np.stack(parts, axis=-2)  # (..., k-1, 4, 3)
    return points.reshape(*corners.shape[:-2], -1, 3)


def format_tick(v: float) -> str:
    """Tick label for a decade: 0.01, 0.1, 1, 10, 100."""
    return f"{v:g}"


class LogSlider(VGroup):
    r"""A horizontal slider on a log scale with decade ticks and a knob.

    Parameters
    ----------
    lo, hi : float
        Range of the slider (positive).
    length : float
        Length in scene units.
    symbol : str
        TeX symbol written to the left (``\tau`` or ``\sigma``).
    """

    def __init__(self, lo: float, hi: float, *, length: float = 8.0, symbol: str = r"\tau") -> None:
        super().__init__()
        if not 0 < lo < hi:
            raise ValueError(f"need 0 < lo < hi, got lo={lo}, hi={hi}")
        self.log_lo, self.log_hi = np.log10(lo), np.log10(hi)
        self.line = Line(LEFT * length / 2, RIGHT * length / 2, color=theme.MUTED, stroke_width=4)
        self.ticks = VGroup()
        for k in range(int(np.ceil(self.log_lo)), int(np.floor(self.log_hi)) + 1):
            x = self.value_to_point(10.0**k)
            tick = Line(x + 0.1 * DOWN, x + 0.1 * UP, color=theme.MUTED)
            text = label(format_tick(10.0**k), small=True, color=theme.MUTED)
            self.ticks.add(VGroup(tick, text.next_to(tick, DOWN, buff=0.1)))
        self.symbol = math(symbol).next_to(self.line, LEFT, buff=0.35)
        self.knob = Dot(radius=0.11, color=theme.TEMPERATURE)
        self.pointer = Triangle(color=theme.TEMPERATURE, fill_opacity=1.0).scale(0.1).rotate(np.pi)
        self.add(self.line, self.ticks, self.symbol, self.knob, self.pointer)
        self.set_value(lo)

    def live_parts(self) -> tuple[list[Mobject], list[Mobject]]:
        """(parts that stay still, parts that ``set_value`` moves): the knob and its pointer."""
        return [self.line, self.ticks, self.symbol], [self.knob, self.pointer]

    def value_to_point(self, v: float) -> np.ndarray:
        """Point on the slider's line for value ``v`` (clamped to the range)."""
        frac = (np.clip(np.log10(v), self.log_lo, self.log_hi) - self.log_lo) / (self.log_hi - self.log_lo)
        return self.line.point_from_proportion(float(frac))

    def set_value(self, v: float) -> LogSlider:
        """Move the knob to ``v``."""
        p = self.value_to_point(v)
        self.knob.move_to(p)
        self.pointer.next_to(self.knob, UP, buff=0.05)
        return self
