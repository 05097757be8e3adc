"""Plot helpers: quiet axes, scatter points and curves that are redrawn in place."""

from __future__ import annotations

import numpy as np
from manim import Axes, Dot, VGroup, VMobject
from numpy.typing import ArrayLike

from scenes.kit import theme

__all__ = ["quiet_axes", "to_scene", "scatter", "curve", "redraw_curve"]


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


def redraw_curve(line: VMobject, axes: Axes, xs: ArrayLike, ys: ArrayLike) -> VMobject:
    """Move ``line``'s points onto (xs, ys) in one vectorised call."""
    line.set_points_as_corners(to_scene(axes, xs, ys))
    return line
