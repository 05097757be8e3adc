"""Plot helpers: quiet axes, scatter points and curves that are redrawn in place."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    UP,
    Axes,
    DashedVMobject,
    Dot,
    Line,
    Scene,
    ValueTracker,
    VGroup,
    VMobject,
    always_redraw,
    smooth,
)
from numpy.typing import ArrayLike

from attnmath import entropy_term
from drawing import theme
from drawing.widgets import label, math

__all__ = [
    "quiet_axes",
    "axis_labels",
    "to_scene",
    "scatter",
    "curve",
    "redraw_curve",
    "band",
    "dashed_curve",
    "EntropyPlot",
]


def quiet_axes(
    x_range: tuple[float, float], y_range: tuple[float, float], *, width: float, height: float
) -> Axes:
    """Axes without tips or numbers, in the muted colour."""
    return Axes(
        x_range=[x_range[0], x_range[1], (x_range[1] - x_range[0]) / 4],
        y_range=[y_range[0], y_range[1], (y_range[1] - y_range[0]) / 4],
        x_length=width,
        y_length=height,
        tips=False,
        axis_config={"color": theme.MUTED, "stroke_width": 2, "include_ticks": False},
    )


def to_scene(axes: Axes, xs: ArrayLike, ys: ArrayLike) -> np.ndarray:
    """Scene points, shape (n, 3), of data coordinates (vectorised ``c2p``)."""
    x = np.atleast_1d(np.asarray(xs, dtype=float))
    y = np.atleast_1d(np.asarray(ys, dtype=float))
    return np.asarray(axes.c2p(x, y)).reshape(3, -1).T


def scatter(
    axes: Axes, x: ArrayLike, y: ArrayLike, *, color: str = theme.VALUE, radius: float = 0.06
) -> VGroup:
    """One dot per (x, y) data point."""
    return VGroup(*(Dot(p, radius=radius, color=color) for p in to_scene(axes, x, y)))


def curve(axes: Axes, xs: ArrayLike, ys: ArrayLike, *, color: str = theme.TEXT, width: float = 3) -> VMobject:
    """A polyline through (xs, ys), to be updated with :func:`redraw_curve`."""
    line = VMobject(color=color, stroke_width=width)
    return redraw_curve(line, axes, xs, ys)


def dashed_curve(
    axes: Axes, xs: ArrayLike, ys: ArrayLike, *, width: float = 3, dashes: int = 36, ratio: float = 0.5
) -> VMobject:
    """A reference curve (the truth a fit is judged against): muted, dashed, behind what is drawn on it."""
    line = curve(axes, xs, ys, color=theme.MUTED, width=width)
    return DashedVMobject(line, num_dashes=dashes, dashed_ratio=ratio).set_z_index(-1)


def band(
    axes: Axes, xs: ArrayLike, lower: ArrayLike, upper: ArrayLike, *, color: str, opacity: float
) -> VMobject:
    """The region between two curves over ``xs``, filled (a gap between a fit and the truth, say)."""
    x = np.asarray(xs, dtype=float)
    outline = [axes.c2p(a, b) for a, b in zip(x, np.asarray(lower, dtype=float), strict=True)]
    outline += [axes.c2p(a, b) for a, b in zip(x[::-1], np.asarray(upper, dtype=float)[::-1], strict=True)]
    region = VMobject(stroke_width=0).set_points_as_corners([*outline, outline[0]])
    return region.set_fill(color, opacity=opacity)


def redraw_curve(line: VMobject, axes: Axes, xs: ArrayLike, ys: ArrayLike) -> VMobject:
    """Move ``line``'s points onto (xs, ys) in one vectorised call."""
    line.set_points_as_corners(to_scene(axes, xs, ys))
    return line


def _tick_text(v: float) -> str:
    return f"{v:g}"


def axis_labels(
    axes: Axes,
    x_title: str | None = None,
    y_title: str | None = None,
    *,
    x_ticks: Sequence[float] = (),
    y_ticks: Sequence[float] = (),
    tick_text: Callable[[float], str] = _tick_text,
    y_tex: bool = False,
) -> VGroup:
    """What a plot plots: tick marks with numbers, the x quantity under the axis, the y quantity above it.

    Titles name the quantity in words and symbol (``"key position i"``,
    ``"weight a_i"``); the y title is written level, above the y-axis, so it
    reads without turning the head. ``y_tex`` typesets the y title as math.
    Returns the group; add it with the axes.
    """
    group = VGroup()
    ticks_low = axes.x_axis.get_bottom()[1]
    for v in x_ticks:
        p = axes.c2p(v, axes.y_range[0])
        mark = Line(p + 0.08 * UP, p + 0.08 * DOWN, color=theme.MUTED, stroke_width=2)
        num = label(tick_text(v), small=True, color=theme.MUTED).next_to(mark, DOWN, buff=0.08)
        ticks_low = min(ticks_low, num.get_bottom()[1])
        group.add(mark, num)
    for v in y_ticks:
        p = axes.c2p(axes.x_range[0], v)
        mark = Line(p + 0.08 * LEFT, p + 0.08 * -LEFT, color=theme.MUTED, stroke_width=2)
        group.add(mark, label(tick_text(v), small=True, color=theme.MUTED).next_to(mark, LEFT, buff=0.08))
    if x_title:
        title = label(x_title, color=theme.MUTED)
        title.next_to(axes.x_axis, DOWN, buff=0.1).set_y(ticks_low - 0.1 - title.height / 2)
        group.add(title)
    if y_title:
        y = math(y_title, color=theme.MUTED) if y_tex else label(y_title, color=theme.MUTED)
        top = axes.y_axis.get_top()
        group.add(y.next_to(top, UP, buff=0.15).align_to(axes.y_axis, LEFT))
    return group


class EntropyPlot(VGroup):
    """One item's share of the entropy, -x log x on [0, 1], with a tangent that slides along it.

    Slid towards 0 the tangent stands up (the slope -log x - 1 grows without
    bound, so a_i >= 0 never binds); slid across, it turns one way all along
    (the second derivative -1/x is negative: strictly concave).
    """

    TANGENT_LENGTH = 1.6

    def __init__(self, *, at: float = 0.5, width: float = 5.0, height: float = 1.4) -> None:
        super().__init__()
        self.axes = quiet_axes((0.0, 1.0), (0.0, 0.45), width=width, height=height)
        xs = np.linspace(0.0, 1.0, 241)
        term, _slope = entropy_term(xs)
        self.curve = curve(self.axes, xs, term, color=theme.TEMPERATURE, width=4)
        self.labels = axis_labels(self.axes, x_ticks=(0.0, 1.0))
        name = math(r"-x \log x", color=theme.TEMPERATURE)  # named left of its axis: nothing above it
        self.labels.add(name.next_to(self.axes.y_axis, LEFT, buff=0.25))
        self.x = ValueTracker(at)
        self.tangent = always_redraw(self._tangent)
        self.add(self.axes, self.labels, self.curve, self.tangent)

    def _tangent(self) -> VGroup:
        """The tangent segment and its point at the tracker's x, drawn in scene units."""
        x = float(self.x.get_value())
        (y,), (slope,) = entropy_term([x])
        origin, right, up = (np.asarray(self.axes.c2p(*p)) for p in ((0, 0), (1, 0), (0, 1)))
        direction = (right - origin) + slope * (up - origin)  # one unit of x, slope units of y
        direction *= self.TANGENT_LENGTH / 2 / np.linalg.norm(direction)
        point = np.asarray(self.axes.c2p(x, y))
        line = Line(point - direction, point + direction, color=theme.TEXT, stroke_width=3)
        return VGroup(line, Dot(point, radius=0.06, color=theme.TEXT))

    def slide_tangent(self, scene: Scene, to: float, *, run_time: float) -> None:
        """Slide the tangent's point to x = ``to`` on ``scene``."""
        scene.play(self.x.animate.set_value(to), run_time=run_time, rate_func=smooth)
