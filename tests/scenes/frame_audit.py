"""Frame truth: compare frames handed to manim's file writer with a fresh drawing of the scene.

During ``play()`` manim's Cairo renderer draws a static background captured when
the animation began plus the families of the moving mobjects flattened at that
moment, so a frame can show things the scene no longer holds (ghost digits) or
miss things it now holds. A scene run (``tests/scenes/conftest.py``) renders
each scene for real, and at sampled frames redraws the scene's current mobjects
from a reset camera and compares the two pictures with these helpers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import Scene
from manim.utils.iterables import list_update

__all__ = ["FrameCheck", "fresh_drawing", "visible_difference"]

# A pixel differs visibly when a channel moves by more than this (anti-aliasing
# of the same shape drawn in another order moves edges by far less).
LEVEL = 48


@dataclass(frozen=True)
class FrameCheck:
    """One sampled frame: when, how many pixels differ visibly, and where the worst one is."""

    time: float
    bad_pixels: int
    box: tuple[int, int, int, int] | None  # rows and columns spanning the differing pixels


def fresh_drawing(scene: Scene) -> np.ndarray:
    """The scene's current mobjects drawn by its camera after a reset (camera pixels restored)."""
    camera = scene.renderer.camera
    saved = camera.pixel_array.copy()
    camera.reset()
    camera.capture_mobjects(list_update(scene.mobjects, scene.foreground_mobjects))
    fresh = camera.pixel_array[..., :3].copy()
    camera.pixel_array = saved
    return fresh


def visible_difference(a: np.ndarray, b: np.ndarray) -> tuple[int, tuple[int, int, int, int] | None]:
    """Number of pixels whose colour differs visibly, and the box around them."""
    diff = np.abs(a[..., :3].astype(np.int16) - b[..., :3].astype(np.int16)).max(axis=-1) > LEVEL
    rows, cols = np.nonzero(diff)
    if rows.size == 0:
        return 0, None
    return int(rows.size), (int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max()))
