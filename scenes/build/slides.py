"""Every lecture scene as a manim-slides deck: ``<Scene>Slides`` pauses at the scene's natural breakpoints.

Needs the ``slides`` extra (``pip install -e ".[slides]"``). ``make slides`` renders the
decks and converts them to one offline HTML file, PPTX and PDF.

manim-slides 5.7.0 was written for manim before 0.22, which removed the config
keys ``write_to_movie`` and ``flush_cache`` and rejects ``max_files_cached = inf``.
:func:`patch_manim_config` restores those three keys with their 0.21 meaning
before manim-slides is imported; ``tests/scenes/test_slides.py`` covers it.
"""

from __future__ import annotations

import math
from typing import Any

from manim import Scene
from manim._config.utils import ManimConfig

from scenes.lecture import LECTURE, load_scene

__all__ = ["patch_manim_config", "deck_class", "DECKS"]


def patch_manim_config() -> None:
    """Give ``ManimConfig`` the three keys manim-slides 5.7 still sets (idempotent)."""
    if getattr(ManimConfig, "_attention_slides_patch", False):
        return

    def get_write(self: ManimConfig) -> bool:
        return self.format != "none" and not self.dry_run

    def set_ignored(self: ManimConfig, value: Any) -> None:  # removed keys: nothing left to set
        del value

    original: Any = ManimConfig.__dict__["max_files_cached"]  # the property object

    def set_max_files(self: ManimConfig, value: Any) -> None:
        # manim-slides asks for "no limit" with inf; manim 0.22 spells that -1.
        original.fset(self, -1 if isinstance(value, float) and math.isinf(value) else value)

    ManimConfig.write_to_movie = property(get_write, set_ignored)  # type: ignore[attr-defined]
    ManimConfig.flush_cache = property(lambda self: False, set_ignored)  # type: ignore[attr-defined]
    ManimConfig.max_files_cached = property(original.fget, set_max_files)  # type: ignore[method-assign, assignment]
    ManimConfig._attention_slides_patch = True  # type: ignore[attr-defined]


def deck_class(scene: type[Scene]) -> type[Scene]:
    """``<Scene>Slides``: the scene with manim-slides' ``Slide`` in front of it in the MRO."""
    patch_manim_config()
    import manim_slides  # the optional dependency

    slide: Any = manim_slides.Slide  # type: ignore[attr-defined]
    return type(f"{scene.__name__}Slides", (slide, scene), {"__module__": __name__})


DECKS: dict[str, type[Scene]] = {}
try:
    for _clip in LECTURE:
        DECKS[_clip.scene] = deck_class(load_scene(_clip))
        globals()[f"{_clip.scene}Slides"] = DECKS[_clip.scene]
except ImportError:  # manim-slides not installed: the decks are simply not defined
    DECKS.clear()
