"""The narration script: every beat of the chosen scenes, with its id and text, in reading order.

The scenes are run in-process as a dry run (no frames, no audio: beats are
timed from their word count, or from the lecturer's recordings), so the script
is exactly the text the scenes speak, lecture-file overrides included. Given a
:class:`~production.render.plans.PlanStore`, each scene's beats are kept under its
inputs key (:func:`script_key`) and a scene whose key is unchanged is not run
again: with nothing changed the script is read back in about a second, and
after an edit only the edited scenes run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lecture.config import LectureConfig
from lecture.section import Section
from lecture.settings import SceneSettings, Voice
from narration.beats import Beat, spoken
from production.options import RenderOptions
from production.render.inputs import clip_inputs_hash
from production.render.plans import PlanStore
from production.render.prepare import dry_run

__all__ = ["scene_beats", "narration_script", "script_key"]

KIND = "script"
"""The kind of dry run the script's plans hold: estimated timing, no voice (a plan's key starts with it)."""


def script_key(clip: Section, config: LectureConfig) -> str:
    """What the script's dry run of ``clip`` depends on: its inputs hash, with the lecture's data for it.

    The voice is left out (the script's dry run speaks with none); the
    recordings are in (they time the beats they replace).
    """
    data = config.with_voice("none").fingerprint(clip)
    return f"{KIND}-{clip_inputs_hash(clip, RenderOptions(), f'{data}|{KIND}: voice none, estimated')}"


def _settings(config: LectureConfig) -> SceneSettings:
    return SceneSettings(config=config.path, voice=Voice.NONE, narration=config.narration, estimate=True)


def scene_beats(
    clip: Section,
    config: LectureConfig,
    plans: PlanStore | None = None,
    before_dry_run: Callable[[], None] | None = None,
) -> list[Beat]:
    """The beats of ``clip`` as its scene records them, from a dry run with estimated timing.

    With ``plans``, a kept plan under the scene's key is read instead, and a
    new dry run is kept; ``before_dry_run()`` runs before a dry run (the
    command line's check of the manim version).
    """
    key = script_key(clip, config) if plans is not None else ""
    if plans is not None:
        kept = _beats(plans.load(clip.scene, key))
        if kept is not None:
            return kept
    if before_dry_run is not None:
        before_dry_run()
    with _settings(config).applied():
        scene = dry_run(clip)
    beats = list(spoken(scene).beats)
    if plans is not None:
        duration = float(scene.renderer.time)
        plans.keep(clip.scene, key, {"duration": duration, "beats": [b.to_json() for b in beats]})
    return beats


def _beats(plan: dict | None) -> list[Beat] | None:
    """The beats a kept plan holds; None when it holds none that read back (the plan is made again)."""
    if plan is None:
        return None
    try:
        return [Beat.from_json(b) for b in plan["beats"]]
    except (KeyError, TypeError, ValueError):
        return None


def narration_script(
    config: LectureConfig,
    plans: PlanStore | None = None,
    before_dry_run: Callable[[], None] | None = None,
) -> str:
    """Markdown: per scene, its beats with ids, text and description, and where a recording of each goes."""
    lines = [f"# {config.title}: narration script", ""]
    lines += [
        "Record each beat as a WAV file at the path under it (relative to the narration folder,",
        f"`{_shown(config.narration)}`). A recording replaces the draft voice for that beat and the",
        "scene re-times to it. *Shows:* is the beat's audio description, spoken after it in the",
        "described lecture; record it as `<beat id>.description.wav` beside the beat's.",
        "",
    ]
    for clip in config.clips:
        lines += [f"## {clip.number}. {clip.title} ({clip.scene})", ""]
        for beat in scene_beats(clip, config, plans, before_dry_run):
            lines += [f"### {beat.id}", "", beat.text, "", _shows(beat), ""]
            lines += [f"`{clip.scene}/{beat.id}.wav`", ""]
    return "\n".join(lines)


def _shows(beat: Beat) -> str:
    """The beat's audio description as the script prints it (what a described build speaks after it)."""
    if beat.description.said:
        return "*Shows:* what the narration says."
    return f"*Shows:* {beat.description.text or '(no description yet)'}"


def _shown(folder: Path) -> str:
    try:
        return str(folder.relative_to(Path.cwd()))
    except ValueError:
        return str(folder)
