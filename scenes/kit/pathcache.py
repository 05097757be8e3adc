"""A shape that has not changed since the last frame is handed to cairo as the path it gave then.

Drawing a frame, manim's Cairo camera rebuilds every visible shape's path from
its points: it splits the points into subpaths and calls ``curve_to`` once per
Bézier curve, in Python. Most shapes on a lecture's frame are the same as in the
frame before (a label, an axis, an equation, while a readout next to them
changes), yet the camera spent about a quarter of a 1080p60 render's drawing time
rebuilding them (``set_cairo_context_path`` in a profile of TemperatureSweep).

:func:`install` wraps the camera's method: per shape, it remembers the points it
last saw, the context's transformation, and the path cairo built from them. When
both are the same at the next frame, the remembered path is appended in one call
(``cairo.Context.append_path``); otherwise the path is built as before. The path a
shape gives depends only on its points and the transformation, and cairo keeps
paths in device space, rounded to 1/256 pixel, so the frame is the same pixel for
pixel (``tests/kit/test_pathcache.py`` draws both ways and compares).

A shape's path is copied from cairo only when its points are the same twice in a
row, so a shape that moves every frame costs one byte comparison more, not a copy.
"""

from __future__ import annotations

from typing import Any

from manim.camera.camera import Camera

__all__ = ["install", "set_path_cached", "MAX_SHAPES"]

MAX_SHAPES = 20_000
"""Remembered shapes at most; past that the memory is cleared and refilled (a scene has a few thousand)."""

_ORIGINAL = Camera.set_cairo_context_path
_PLAIN_TRANSFORM = Camera.transform_points_pre_display
_PATHS: dict[int, tuple[bytes, tuple[float, ...], Any]] = {}


def set_path_cached(self: Camera, ctx: Any, vmobject: Any) -> Camera:
    """Give ``ctx`` ``vmobject``'s path: the remembered one when its points and the view are unchanged."""
    if type(self).transform_points_pre_display is not _PLAIN_TRANSFORM:
        return _ORIGINAL(self, ctx, vmobject)  # a 3D camera moves points by its orientation too
    points = vmobject.points  # the plain camera's transform (non-finite to zeros) depends on them only
    if len(points) == 0:
        return self
    key, matrix = points.tobytes(), tuple(ctx.get_matrix())
    seen = _PATHS.get(id(vmobject))
    if seen is not None and seen[2] is not None and seen[0] == key and seen[1] == matrix:
        ctx.new_path()
        ctx.append_path(seen[2])
        return self
    _ORIGINAL(self, ctx, vmobject)
    if len(_PATHS) >= MAX_SHAPES:
        _PATHS.clear()
    unchanged = seen is not None and seen[0] == key and seen[1] == matrix
    _PATHS[id(vmobject)] = (key, matrix, ctx.copy_path() if unchanged else None)
    return self


def install() -> None:
    """Make manim's Cairo camera reuse unchanged shapes' paths (idempotent)."""
    Camera.set_cairo_context_path = set_path_cached  # type: ignore[method-assign,assignment]
