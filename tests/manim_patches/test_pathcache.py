"""Shapes drawn from remembered cairo paths give the same pixels as shapes drawn afresh."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from manim import DOWN, RIGHT, UP, Circle, MathTex, Square, Text, VMobject, tempconfig
from manim.camera.camera import Camera
from manim.camera.moving_camera import MovingCamera

import manim_patches

Step = Callable[[list[VMobject], MovingCamera], object]

STEPS: list[Step] = [
    lambda mobs, cam: None,  # first sight: drawn afresh
    lambda mobs, cam: None,  # the same again: drawn afresh and remembered
    lambda mobs, cam: None,  # and again: drawn from memory
    lambda mobs, cam: mobs[1].shift(0.5 * RIGHT),  # the circle moves in place (same object)
    lambda mobs, cam: mobs[1].set_fill(opacity=0.5),  # only its colour changes: its path stays
    lambda mobs, cam: cam.frame.shift(0.3 * UP),  # the view moves: every path is in new device space
    lambda mobs, cam: None,
    lambda mobs, cam: mobs.__setitem__(2, Square().shift(DOWN)),  # a new shape in the old one's place
    lambda mobs, cam: None,
]


class CachedMovingCamera(manim_patches.PathCachedCamera, MovingCamera):
    """The path cache on a camera whose frame moves (the view changes)."""


@contextmanager
def _drawing(width: int = 320, height: int = 180) -> Iterator[None]:
    """Drawing at ``width`` x ``height``, starting with nothing remembered."""
    manim_patches.forget_paths()
    with tempconfig({"pixel_width": width, "pixel_height": height}):
        yield


def _frames(cached: bool) -> list[np.ndarray]:
    with _drawing():
        mobs: list[VMobject] = [Text("Attention", font_size=60), Circle().set_fill(opacity=1.0), Square()]
        camera = CachedMovingCamera() if cached else MovingCamera()
        frames = []
        for step in STEPS:
            step(mobs, camera)
            camera.reset()
            camera.capture_mobjects(mobs)
            frames.append(camera.pixel_array.copy())
        return frames


def test_remembered_paths_draw_the_same_pixels() -> None:
    cached, fresh = _frames(cached=True), _frames(cached=False)
    for k, (a, b) in enumerate(zip(cached, fresh, strict=True)):
        assert np.array_equal(a, b), f"frame {k}"
    assert not np.array_equal(fresh[2], fresh[3]) and not np.array_equal(fresh[4], fresh[5])  # the steps show


def test_paths_are_remembered_only_when_a_shape_holds_still() -> None:
    _frames(cached=True)
    remembered = manim_patches.remembered_paths()
    assert remembered and all(path is not None for path in remembered)  # the last frames held still
    with _drawing(64, 36):
        camera, dot = manim_patches.PathCachedCamera(), Circle(radius=0.2)
        for _ in range(3):  # a shape that moves every frame is never copied out of cairo
            dot.shift(0.1 * RIGHT)
            camera.capture_mobjects([dot])
    assert manim_patches.remembered_paths() == [None]


@pytest.mark.parametrize("tex", [r"\sum_i \alpha_i v_i"])
def test_typeset_formula_draws_the_same(tex: str) -> None:
    def draw(camera_class: type[Camera]) -> list[np.ndarray]:
        with _drawing():
            formula, camera, out = MathTex(tex), camera_class(), []
            for _ in range(3):
                camera.reset()
                camera.capture_mobjects([formula])
                out.append(camera.pixel_array.copy())
            return out

    for a, b in zip(draw(manim_patches.PathCachedCamera), draw(Camera), strict=True):
        assert np.array_equal(a, b)
