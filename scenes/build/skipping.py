"""Skipped animations keep the clock of a render, so a scene can be rendered in ranges (shards).

Manim renders a range of animations (``-n FROM,UPTO``) by running the whole
``construct()`` and skipping the animations outside the range. A skipped
animation advances the scene's clock by its exact run time, but a rendered
one advances it by whole frames: ``ceil(run_time * fps)`` frames for a
``play()``, ``floor`` for a frozen ``wait()``. Our beats measure their holds
from that clock (``LectureScene.hold``), so after a skipped prefix a shard
would hold for a frame more or less here and there, and its beats and
frames would drift from the unsharded render.

:func:`install` makes a skipped animation advance the clock exactly as a
rendered one does (same float operations, so the same value to the bit) and
then runs the updaters once more, as a rendered ``play()`` does after its
last frame. With it, a shard starts from the same clock and the same scene
state as the unsharded render, and a dry run counts the same animations.
(A ``wait_until``/``stop_condition`` wait ends on a condition checked frame by
frame, which a skipped animation cannot know; no lecture scene uses one.)

Run as ``python -m scenes.build.skipping render <manim render args>`` (the
manim CLI with the patch) or ``python -m scenes.build.skipping plan CACHE
QUALITY SCENE...`` (prepare each scene as :mod:`scenes.build.prepare` does, then
print one JSON line per scene: its animations' frame counts and whether each
is a frozen frame).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["install", "rendered_frames", "timeline", "main"]

_TIMELINES: list[list[tuple[int, bool]]] = []


def rendered_frames(duration: float, frozen: bool, frame_rate: float) -> int:
    """How many frames a rendered animation of ``duration`` seconds writes (manim 0.22, Cairo)."""
    if frozen:
        return int(duration / (1 / frame_rate))
    return len(np.arange(0, duration, 1 / frame_rate))


def _advance(time: float, frames: int, frozen: bool, frame_rate: float) -> float:
    """The clock after ``frames`` rendered frames, added the way the renderer adds them."""
    dt = 1 / frame_rate
    if frozen:
        return time + frames * dt
    for _ in range(frames):
        time += 1 * dt
    return time


def install() -> None:
    """Patch the Cairo renderer: a skipped animation advances the clock as a rendered one (idempotent)."""
    from manim import config
    from manim.renderer.cairo_renderer import CairoRenderer

    original = CairoRenderer.play
    if getattr(original, "_exact_skipping", False):
        return

    def play(self: Any, scene: Any, *args: Any, **kwargs: Any) -> None:
        before = self.time
        original(self, scene, *args, **kwargs)
        frozen = bool(scene.is_current_animation_frozen_frame())
        frames = rendered_frames(scene.duration, frozen, config["frame_rate"])
        if _TIMELINES:
            _TIMELINES[-1].append((frames, frozen))
        if self.skip_animations:
            self.time = _advance(before, frames, frozen, self.camera.frame_rate)
            if not frozen:
                scene.update_mobjects(0)  # as a rendered play() does after its last frame

    play._exact_skipping = True  # type: ignore[attr-defined]
    CairoRenderer.play = play  # type: ignore[method-assign]


MANIM_QUALITIES = {
    "l": "low_quality",
    "m": "medium_quality",
    "h": "high_quality",
    "p": "production_quality",
    "k": "fourk_quality",
}


def timeline(scene: str, cache: Path, quality: str) -> dict[str, Any]:
    """Prepare ``scene`` (typeset, voice) in a dry run at ``quality``; its animations' frames.

    Returns ``{"scene", "frame_rate", "duration", "animations": [[frames, frozen], ...]}``.
    The frame rate matters: holds shorter than a frame are dropped, so even
    the number of animations can depend on it.
    """
    from scenes.build.prepare import cache_settings, dry_run
    from scenes.lecture import find_clip

    install()
    _TIMELINES.append([])
    done = dry_run(find_clip(scene), quality=MANIM_QUALITIES[quality], **cache_settings(cache))
    return {
        "scene": scene,
        "frame_rate": float(done.camera.frame_rate),
        "duration": done.renderer.time,
        "animations": _TIMELINES.pop(),
    }


def main(argv: list[str] | None = None) -> int:
    """Command line: ``render <manim args>`` or ``plan CACHE QUALITY SCENE...``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["plan"]:
        for scene in args[3:]:
            print("PLAN " + json.dumps(timeline(scene, Path(args[1]), args[2])), flush=True)
        return 0
    if args[:1] == ["render"]:
        install()
        from manim.__main__ import main as manim_main

        manim_main(args, prog_name="manim")
        return 0
    print("usage: python -m scenes.build.skipping render ARGS | plan CACHE QUALITY SCENE...", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
