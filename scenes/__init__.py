"""The lecture's section scenes, one module a section; :func:`load_scene` imports one by its clip."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from manim import Scene

    from lecture.section import Section

__all__ = ["load_scene"]


def load_scene(clip: Section) -> type[Scene]:
    """Import the scene class of ``clip``."""
    from manim import Scene

    module = importlib.import_module(f"scenes.{clip.module}")
    scene = getattr(module, clip.scene)
    if not (isinstance(scene, type) and issubclass(scene, Scene)):
        raise TypeError(f"scenes.{clip.module}.{clip.scene} is not a manim Scene")
    return scene
