"""The plan's child process: a dry run of each scene, its animations counted as a render numbers them.

Manim renders a range of animations (``-n FROM,UPTO``) by running the whole
``construct()`` and skipping the animations outside the range. With
:class:`manim_patches.ExactRenderer` (which ``LectureScene`` hands manim), a
skipped animation advances the scene's clock exactly as a rendered one, so a
shard starts from the same clock and scene state as the unsharded render, and
a dry run counts the same animations (``docs/manim.md``).

Run as ``python -m production.render.manim_entry plan CACHE QUALITY SCENE...``
(prepare each scene as :mod:`production.render.prepare` does, then print its
:class:`~production.render.timeline.Timeline` in one line: each animation's frame
count, whether it is a frozen frame, its run time and a digest of the scene
state it starts from, and the beats). Renders, shards included, are the plain
manim CLI.
"""

from __future__ import annotations

import sys
from pathlib import Path

import manim_patches
from production.options import QUALITIES
from production.render.timeline import Timeline

__all__ = ["timeline", "main"]


def timeline(scene: str, cache: Path, quality: str) -> Timeline:
    """Prepare ``scene`` (typeset, voice) in a dry run at ``quality``; its animations and beats.

    The frame rate matters: holds shorter than a frame are dropped, so even
    the number of animations can depend on it.
    """
    from lecture.clips import find_clip
    from narration.beats import spoken
    from production.render.prepare import cache_settings, dry_run

    with manim_patches.recording_animations() as animations:
        done = dry_run(find_clip(scene), quality=QUALITIES[quality].name, **cache_settings(cache))
    said = spoken(done)
    return Timeline(
        scene,
        float(done.camera.frame_rate),
        done.renderer.time,
        tuple((frames, frozen) for frames, frozen, _, _ in animations),
        tuple(said.beat_spans),
        tuple(said.beats),
        tuple((seconds, state) for _, _, seconds, state in animations),
    )


def main(argv: list[str] | None = None) -> int:
    """Command line: ``plan CACHE QUALITY SCENE...``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["plan"]:
        for scene in args[3:]:
            print(timeline(scene, Path(args[1]), args[2]).line(), flush=True)
        return 0
    usage = "usage: python -m production.render.manim_entry plan CACHE QUALITY SCENE..."
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
