"""Every lecture scene as a manim-slides deck: ``<Scene>Slides`` pauses at the scene's natural breakpoints.

Needs the ``slides`` extra (``pip install -e ".[slides]"``). ``make slides`` renders the
decks and converts them to one offline HTML file, PPTX and PDF.

manim-slides 5.7.0 was written for manim before 0.22, which removed the config
keys ``write_to_movie`` and ``flush_cache`` and rejects ``max_files_cached = inf``.
:func:`manim_patches.install_slides_config` restores those three keys with their
0.21 meaning before manim-slides is imported; ``tests/production/test_slides.py`` covers it.
It is installed when this module is imported, and not later, because manim's CLI
imports this file to find the ``<Scene>Slides`` classes, which must exist by then,
and ``ManimConfig`` offers no seam for keys it no longer has.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from manim import Scene, config

import manim_patches
from lecture.clips import LECTURE
from scenes import load_scene

__all__ = ["deck_class", "DECKS"]


def deck_class(scene: type[Scene]) -> type[Scene]:
    """``<Scene>Slides``: the scene with manim-slides' ``Slide`` in front of it in the MRO."""
    manim_patches.install_slides_config()
    import manim_slides  # the optional dependency

    slide: Any = manim_slides.Slide  # type: ignore[attr-defined]
    # No reversed copies: the decks play forward only, and manim-slides makes them in a forked
    # multiprocessing pool whose workers could hang in PyAV's decoder (a fork of a process whose
    # FFmpeg threads held a lock): "rendering LectureTitleSlides" then never ended.
    own = {"__module__": __name__, "skip_reversing": True}
    deck: type[Scene] = type(f"{scene.__name__}Slides", (slide, scene), own)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        with _all_partial_files_kept():
            super(deck, self).__init__(*args, **kwargs)

    deck.__init__ = __init__  # type: ignore[method-assign]
    return deck


@contextmanager
def _all_partial_files_kept() -> Iterator[None]:
    """Lift manim's partial-file limit while a deck is made, so every slide's files are there to join.

    manim 0.22 reads ``max_files_cached`` (default 100) when a scene is made,
    into its file writer's settings; manim-slides lifts the limit only in
    ``render()``, too late: a scene of more than 100 animations lost its first
    partial files before manim-slides joined them into slides.
    """
    kept = config.max_files_cached
    config.max_files_cached = -1  # manim 0.22's "no limit"
    try:
        yield
    finally:
        config.max_files_cached = kept


DECKS: dict[str, type[Scene]] = {}
try:
    for _clip in LECTURE:
        DECKS[_clip.scene] = deck_class(load_scene(_clip))
        globals()[f"{_clip.scene}Slides"] = DECKS[_clip.scene]
except ImportError:  # manim-slides not installed: the decks are simply not defined
    DECKS.clear()
