"""Prepare clips before they render in parallel: typeset their TeX and text, speak their narration.

Run as ``python -m production.render.prepare CACHE SCENE...`` (the build does it in
one process before starting the renders). Each scene is constructed once as a
dry run with manim's TeX and text caches in ``CACHE``: every ``MathTex`` is
compiled and every beat's draft voice synthesised there, one scene after
another. The parallel renders that follow share the same caches and find
everything ready, so two workers never typeset the same formula at the same
moment in the same folder, and no render pays for LaTeX or festival.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from lecture.clips import find_clip
from lecture.section import Section
from scenes import load_scene

if TYPE_CHECKING:
    from manim import Scene

__all__ = ["cache_settings", "dry_run", "prepare", "main"]


def cache_settings(cache: Path) -> dict[str, str]:
    """Manim settings that put its TeX and text caches in ``cache`` (shared by every render)."""
    return {"tex_dir": str(cache / "Tex"), "text_dir": str(cache / "texts")}


def dry_run(clip: Section, **settings: str) -> Scene:
    """Construct ``clip``'s scene in-process, no frames drawn (manim ``settings`` added); returns it."""
    from manim import tempconfig

    with tempfile.TemporaryDirectory() as media:
        base = {"dry_run": True, "disable_caching": True, "media_dir": media, "verbosity": "ERROR"}
        with tempconfig({**base, **settings, "progress_bar": "none"}):
            scene = load_scene(clip)(skip_animations=True)
            scene.render()
    return scene


def prepare(cache: Path, scenes: list[str]) -> None:
    """Construct each scene once as a dry run, filling the shared caches."""
    for name in scenes:
        dry_run(find_clip(name), **cache_settings(cache))
        print(f"prepared {name}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``CACHE SCENE...``."""
    args = sys.argv[1:] if argv is None else argv
    prepare(Path(args[0]), args[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
