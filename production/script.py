"""The narration script: every beat of the chosen scenes, with its id and text, in reading order.

The scenes are run in-process as a dry run (no frames, no audio: beats are
timed from their word count), so the script is exactly the text the scenes
speak, lecture-file overrides included.
"""

from __future__ import annotations

from pathlib import Path

from lecture.clips import Clip
from lecture.config import LectureConfig
from lecture.settings import SceneSettings
from narration.beats import Beat
from production.prepare import dry_run

__all__ = ["scene_beats", "narration_script"]


def scene_beats(clip: Clip, config: LectureConfig) -> list[Beat]:
    """The beats of ``clip`` as its scene records them, from a dry run with estimated timing."""
    with SceneSettings(config=config.path, voice="none", estimate=True).applied():
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
            lines += [f"### {beat.id}", "", beat.text, "", f"`{clip.scene}/{beat.id}.wav`", ""]
    return "\n".join(lines)


def _shown(folder: Path) -> str:
    try:
        return str(folder.relative_to(Path.cwd()))
    except ValueError:
        return str(folder)
