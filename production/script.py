"""The narration script: every beat of the chosen scenes, with its id and text, in reading order.

The scenes are run in-process as a dry run (no frames, no audio: beats are
timed from their word count), so the script is exactly the text the scenes
speak, lecture-file overrides included.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lecture.clips import Clip
from lecture.config import ENV_VAR, LectureConfig
from production.prepare import dry_run

__all__ = ["scene_beats", "narration_script"]


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def scene_beats(clip: Clip, config: LectureConfig) -> list[dict[str, Any]]:
    """The beats of ``clip`` as its scene records them, from a dry run with estimated timing."""
    env = {ENV_VAR: str(config.path or ""), "LECTURE_VOICE_ESTIMATE": "1", "LECTURE_VOICE": "none"}
    with _environment(env):
        scene = dry_run(clip)
    return list(getattr(scene, "beats", []))


def narration_script(config: LectureConfig) -> str:
    """Markdown: per scene, its beats with ids and text, and where a recording of each goes."""
    lines = [f"# {config.title}: narration script", ""]
    lines += [
        "Record each beat as a WAV file at the path under it (relative to the narration folder,",
        f"`{_shown(config.narration)}`). A recording replaces the draft voice for that beat and the",
        "scene re-times to it.",
        "",
    ]
    for clip in config.clips:
        lines += [f"## {clip.section}. {clip.title} ({clip.scene})", ""]
        for beat in scene_beats(clip, config):
            lines += [f"### {beat['id']}", "", beat["text"], "", f"`{clip.scene}/{beat['id']}.wav`", ""]
    return "\n".join(lines)


def _shown(folder: Path) -> str:
    try:
        return str(folder.relative_to(Path.cwd()))
    except ValueError:
        return str(folder)
