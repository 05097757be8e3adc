"""The build's join jobs: join a clip's shards or segments, check them, and lay its voice on.

Like a render job (:mod:`production.render.jobs`), each is a plain function of
picklable values that returns bytes, run in a thread of the build or on a
``dask.distributed`` worker. :func:`join_clip` joins without re-encoding and
checks that the shards ran the scene alike (:func:`check_shards`) and, against
the plan, have the frames it counted; :func:`master_clip_voice` masters a
planned clip's voice while its shards render.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lecture.section import Section
from narration.beats import Beat, BeatsRecord
from production.media.aac import mux_track
from production.media.soundtrack import add_voice, master_voice
from production.media.video import count_frames, join_videos, probe
from production.options import RenderError, RenderOptions
from production.progress import Event, Report, Stage
from production.render.jobs import ShardOutput
from production.render.workspace import work_folder

__all__ = ["ClipOutput", "JoinPlan", "join_clip", "check_shards", "master_clip_voice"]


@dataclass(frozen=True)
class JoinPlan:
    """A planned clip's join: its segments in order, where each comes from, its beats and voice.

    ``order[i]`` is ``(k, j)``: segment ``j`` of shard ``k``, or ``cached[j]`` where
    ``k`` is -1. ``record`` is the plan's (a shard's record must agree with its start).
    """

    order: tuple[tuple[int, int], ...]
    cached: tuple[bytes, ...]
    record: BeatsRecord | None
    frames: int


@dataclass(frozen=True)
class ClipOutput:
    """A finished clip: video (shards joined, voice laid on), beats, captions, and how long each job took."""

    video: bytes
    record: BeatsRecord | None
    srt: str | None
    shard_seconds: tuple[float, ...]
    join_seconds: float
    warnings: tuple[str, ...]


def join_clip(
    clip: Section,
    options: RenderOptions,
    parts: list[ShardOutput],
    frames: int | None = None,
    work: str | None = None,
    report: Report | None = None,
    plan: JoinPlan | None = None,
    voice: bytes | None = None,
) -> ClipOutput:
    """Join ``parts`` without re-encoding, check them, lay the narration on; return the finished clip.

    Without a ``plan``, ``parts`` are a clip's shards in order, ``frames`` the frame
    count the plan expects of them (checked when sharded) and the last shard's
    record is the clip's. With one, the clip is ``plan.order``'s segments, from
    the shards and the cache, its beats are the plan's, and its voice is ``voice``
    (an AAC track mastered while it rendered, :func:`master_clip_voice`), copied in.
    """
    start = time.monotonic()
    record = parts[-1].record if plan is None else plan.record
    try:
        records = [p.record for p in parts]
        check_shards(clip.scene, records if plan is None else _timings([*records, plan.record]))
    except ValueError as exc:
        raise RenderError(str(exc)) from None
    with work_folder(work, f"{clip.scene}-join") as folder:
        if plan is None:
            pieces = [part.video for part in parts]
            say = f"joining {len(parts)} shards"
        else:
            pieces = [plan.cached[j] if k < 0 else parts[k].segments[j] for k, j in plan.order]
            kept = sum(1 for k, _ in plan.order if k < 0)
            say = f"joining {len(pieces)} segments ({kept} from the cache, {len(pieces) - kept} rendered)"
            frames = plan.frames
        videos = [folder / f"part-{k}.{options.fmt}" for k in range(len(pieces))]
        for path, piece in zip(videos, pieces, strict=True):
            path.write_bytes(piece)
        joined = videos[0]
        if len(pieces) > 1:
            if report is not None:
                report(clip.scene, Event(Stage.JOINING, say))
            joined = folder / f"joined.{options.fmt}"
            join_videos(videos, joined, transparent=options.transparent)
            _check_frames(clip, joined, frames)
        if plan is None and record is not None:
            joined = _narrate(clip, options, joined, record, parts[-1].audio, folder, report)
        elif voice is not None:
            if report is not None:
                report(clip.scene, Event(Stage.VOICE, "laying the voice track"))
            (folder / "voice.m4a").write_bytes(voice)
            mux_track(joined, folder / "voice.m4a", folder / f"voiced.{options.fmt}")
            joined = folder / f"voiced.{options.fmt}"
        video = joined.read_bytes()
    warnings = record.warnings() if record else ()
    srt = parts[-1].srt if plan is None and parts else None
    return ClipOutput(video, record, srt, tuple(p.seconds for p in parts), time.monotonic() - start, warnings)


def check_shards(scene: str, records: Sequence[BeatsRecord | None]) -> None:
    """Raise ValueError unless every shard's beats are the start of the last shard's (the whole clip's).

    A shard stops at the end of its range, so its record holds the beats that
    ended before; they must agree to the millisecond with the full record, or
    the scene does not run the same way twice.
    """
    full = records[-1]
    for k, record in enumerate(records[:-1]):
        if (record is None) != (full is None):
            raise ValueError(f"{scene}: shard {k + 1} wrote no beats, or only it did")
        done = len(record.beats) if record is not None else 0
        if record is not None and full is not None and record.beats != full.beats[:done]:
            raise ValueError(
                f"{scene}: shard {k + 1}'s beats differ from the whole clip's: the scene is not "
                "deterministic; render it with --shards 1"
            )


def _timings(records: list[BeatsRecord | None]) -> list[BeatsRecord | None]:
    """The records with only what shards and plan must agree on: each beat's id, text and times."""

    def times(r: BeatsRecord) -> BeatsRecord:
        beats = tuple(Beat(b.id, b.text, b.start, b.end, "", "") for b in r.beats)
        return BeatsRecord(r.scene, r.duration, beats)

    return [None if r is None else times(r) for r in records]


def _check_frames(clip: Section, joined: Path, frames: int | None) -> None:
    found = count_frames(joined)
    if frames is not None and found != frames:
        raise RenderError(
            f"{clip.scene}: the joined shards have {found} frames where the plan counted {frames}: "
            "render it with --shards 1"
        )


def _narrate(
    clip: Section,
    options: RenderOptions,
    src: Path,
    record: BeatsRecord,
    audio: dict[str, bytes],
    folder: Path,
    report: Report | None,
) -> Path:
    """Lay the clip's voice into it (mp4 only), from files here or brought along by the last shard."""
    if options.fmt != "mp4":
        return src  # AAC belongs in mp4; webm and gif clips stay silent
    if report is not None and record.placements():
        report(clip.scene, Event(Stage.VOICE, "laying the voice track"))
    local = _sound_files_here(audio, folder)
    voiced = folder / f"voiced-{src.name}"
    return voiced if add_voice(src, record.with_audio_moved(local), voiced, probe(src).duration) else src


def _sound_files_here(audio: dict[str, bytes], folder: Path) -> dict[str, str]:
    """Where each sound file this machine lacks was written in ``folder`` (from the bytes brought along)."""
    local = {}
    for k, (path, data) in enumerate(audio.items()):
        if not Path(path).is_file():
            local[path] = str(folder / f"voice-{k}.wav")
            Path(local[path]).write_bytes(data)
    return local


def master_clip_voice(
    clip: Section, options: RenderOptions, record: BeatsRecord, seconds: float, audio: dict[str, bytes]
) -> bytes | None:
    """The clip's voice as a mastered AAC track (``.m4a`` bytes), from the plan's beats; None if silent.

    A job of its own, so it runs while the clip's shards render. ``audio`` brings
    the sound files along for a worker that does not see them.
    """
    if options.fmt != "mp4":
        return None  # AAC belongs in mp4; webm and gif clips stay silent
    with tempfile.TemporaryDirectory(prefix=f"lecture-{clip.scene}-voice-") as tmp:
        local = _sound_files_here(audio, Path(tmp))
        track = Path(tmp) / "voice.m4a"
        return track.read_bytes() if master_voice(record.with_audio_moved(local), seconds, track) else None
