"""A previewed beat's files: where they are published, their stamp, and how a rendered beat is published.

Shared by the one-off previews (:mod:`production.watch.preview`) and the warm
watch (:mod:`production.watch.warm`). Each beat is published under
``media/preview/<Scene>/`` as ``<beat id>.mp4`` (its voice laid on),
``<beat id>.srt`` and ``<beat id>.png`` (its last frame), with a stamp of its
inputs in two lines: the whole scene's inputs hash, and the beat's own key
(:func:`beat_key`).
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

from atomic_files import copy_file, write_text
from lecture.config import LectureConfig
from lecture.section import Section
from narration.beats import Beat, BeatsRecord
from production.media.captions import to_srt
from production.media.soundtrack import add_voice
from production.media.video import probe, save_last_frame
from production.options import RenderError, RenderOptions
from production.render.inputs import clip_inputs_hash

__all__ = [
    "BeatPreview",
    "beat_key",
    "scene_hash",
    "write_stamp",
    "stamps",
    "published",
    "publish_beat",
    "beat_paths",
]


@dataclass(frozen=True)
class BeatPreview:
    """A previewed beat: its clip, last frame and captions, and whether it was rendered now."""

    beat: str
    video: Path
    still: Path
    captions: Path
    rendered: bool
    seconds: float


def beat_paths(folder: Path, beat: str) -> tuple[Path, Path, Path, Path]:
    """A beat's published video, still, captions and stamp in ``folder``."""
    return (folder / f"{beat}.mp4", folder / f"{beat}.png", folder / f"{beat}.srt", folder / f"{beat}.inputs")


def scene_hash(clip: Section, options: RenderOptions, config: LectureConfig) -> str:
    """The scene's whole inputs hash: the first line of each of its beats' stamps."""
    return clip_inputs_hash(clip, options, config.fingerprint(clip))


def beat_key(
    clip: Section, options: RenderOptions, config: LectureConfig, beat: Beat, span: tuple[int, int]
) -> str:
    """What decides one beat's preview: the scene's code and data but not its narration, and the beat."""
    code = clip_inputs_hash(clip, options, config.fingerprint(clip, recordings=False), narration=False)
    digest = hashlib.sha256(f"{code}|{span}|{beat.id}|{beat.text}|{beat.start}|{beat.end}".encode())
    digest.update(f"{beat.voice}|{beat.engine}".encode())
    for path, at in beat.audio:
        digest.update(f"|{at - beat.start:.6f}|".encode() + hashlib.sha256(Path(path).read_bytes()).digest())
    return digest.hexdigest()


def write_stamp(folder: Path, beat: str, scene: str, key: str) -> None:
    """Stamp ``beat``'s preview with the scene's inputs hash and the beat's own key (renamed into place)."""
    write_text(beat_paths(folder, beat)[3], f"{scene}\n{key}\n")


def stamps(folder: Path, beat: str) -> list[str]:
    """The beat's stamp lines (scene hash, beat key), if it has been previewed and all its files are there."""
    video, still, captions, inputs = beat_paths(folder, beat)
    if not all(p.exists() for p in (video, still, captions, inputs)):
        return []
    return inputs.read_text().split()


def published(folder: Path, beat: str, *, rendered: bool, seconds: float) -> BeatPreview:
    """The preview of ``beat`` published in ``folder``."""
    video, still, captions, _ = beat_paths(folder, beat)
    return BeatPreview(beat, video, still, captions, rendered, seconds)


def publish_beat(
    clip: Section, beat_id: str, silent: Path, record: BeatsRecord | None, folder: Path, beat_work: Path
) -> Beat:
    """Publish a rendered beat in ``folder``; returns its record.

    Its ``silent`` video with its voice laid on from its start, its captions
    and its last frame, each renamed into place; ``beat_work`` is removed after.
    """
    beat = next((b for b in (record.beats if record else ()) if b.id == beat_id), None)
    if beat is None:
        raise RenderError(f"{clip.scene}: the render of beat {beat_id} did not record it")
    video, still, captions, _ = beat_paths(folder, beat_id)
    shifted = beat.from_its_start()
    voiced = beat_work / "voiced.mp4"
    record = BeatsRecord(clip.scene, beat.end - beat.start, (shifted,))
    copy_file(voiced if add_voice(silent, record, voiced, probe(silent).duration) else silent, video)
    write_text(captions, to_srt(list(shifted.cues)))
    save_last_frame(video, still)
    shutil.rmtree(beat_work, ignore_errors=True)
    return beat
