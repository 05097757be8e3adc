"""The build's jobs: render one shard of a clip; join a clip's shards and lay its voice on.

A job is a plain function of picklable values that returns bytes, so the same
job runs in a thread of the build (the local pool) or on a ``dask.distributed``
worker on another machine. A job renders in a folder of its own and returns
the file's bytes; only the build writes published files, each under a
temporary name renamed into place, so a job that dies leaves nothing half
written where anyone looks.

What a job reads from the build's machine it uses where the worker sees the
same path (the TeX, text and voice caches, the lecture file, the recordings)
and otherwise brings along: the lecture file as portable TOML, the scene's
recordings as bytes, caches of the worker's own.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from atomic_files import copy_file
from lecture.section import Section
from lecture.settings import SceneSettings
from narration.beats import Beat, BeatsRecord
from production.media.aac import mux_track
from production.media.soundtrack import add_voice, master_voice
from production.media.video import count_frames, join_videos, probe
from production.options import RenderError, RenderOptions
from production.progress import Event, Report, Stage
from production.render import inputs, manim_run

__all__ = [
    "ShardJob",
    "ShardOutput",
    "ClipOutput",
    "JoinPlan",
    "Report",
    "render_shard",
    "join_clip",
    "master_clip_voice",
    "portable_toml",
]


CACHE_KINDS = ("Tex", "texts", "mobjects")  # cache_settings' folders and manim_patches' SVG cache beside them
WORKER_CACHE = Path(tempfile.gettempdir()) / "attention-lecture-cache"
"""A worker's own TeX, text and voice caches, where it does not see the build's."""


@dataclass(frozen=True)
class ShardJob:
    """Render animations ``span`` (inclusive; None: all) of ``clip`` as shard ``shard`` of ``shards``."""

    clip: Section
    options: RenderOptions
    span: tuple[int, int] | None
    shard: int
    shards: int
    settings: SceneSettings  # what the scene's manim process is told: lecture file, voice, recordings
    cache: str  # the build's cache root (Tex/, texts/), used where the worker sees it
    inputs_hash: str  # the clip's inputs as the build sees them; a cluster worker with other code refuses
    extra: str = ""  # the lecturer's part of that hash
    work: str | None = None  # a folder to render in (local pool); None: a temporary folder
    config_text: str = ""  # the lecture file as portable TOML, for a worker that cannot see it
    recordings: dict[str, bytes] = field(default_factory=dict)  # the scene's recordings, likewise
    segments: tuple[tuple[int, int], ...] = ()  # return these ranges of ``span`` as videos of their own

    @property
    def label(self) -> str:
        """``Scene`` or ``Scene [k/n]``, as progress shows it."""
        return self.clip.scene if self.shards == 1 else f"{self.clip.scene} [{self.shard + 1}/{self.shards}]"

    @property
    def last(self) -> bool:
        """Whether this shard ends the clip (it alone runs the scene to its end)."""
        return self.shard == self.shards - 1


@dataclass(frozen=True)
class ShardOutput:
    """A rendered shard: its video, and from the last shard the beats, captions and voice files."""

    video: bytes  # empty where the job asked for segments
    record: BeatsRecord | None
    srt: str | None
    audio: dict[str, bytes]
    seconds: float
    segments: tuple[bytes, ...] = ()  # the videos of ``ShardJob.segments``, in order


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


@contextlib.contextmanager
def _folder(work: str | None, name: str) -> Iterator[Path]:
    """``work`` emptied first and removed after success, or a temporary folder."""
    if work is None:
        with tempfile.TemporaryDirectory(prefix=f"lecture-{name}-") as tmp:
            yield Path(tmp)
        return
    path = Path(work)
    shutil.rmtree(path, ignore_errors=True)  # whatever a killed run left
    path.mkdir(parents=True)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _cache_root(job: ShardJob) -> Path:
    shared = Path(job.cache)
    return shared if shared.is_dir() else WORKER_CACHE


def cache_view(shared: Path, work: Path) -> Path:
    """Private copies of the TeX and text caches for one render (``Tex/``, ``texts/`` under the result).

    Manim rewrites a cached text SVG in place each time a ``Text`` is built
    (``remove_last_M``) and parses every SVG through a ``<name>_.svg`` file
    beside it, so two renders building the same text in one folder truncate
    each other's files. Copies (not links: a link shares the file) are safe.
    """
    view = work / "cache"
    for kind in CACHE_KINDS:
        (view / kind).mkdir(parents=True)
        if (shared / kind).is_dir():
            for f in (shared / kind).iterdir():
                if f.is_file() and not f.name.endswith("_.svg") and not f.name.startswith("."):
                    shutil.copyfile(f, view / kind / f.name)
    return view


def keep_new_cache_files(view: Path, shared: Path) -> None:
    """Add what this render typeset to the shared caches (renamed into place, never half written)."""
    try:
        for kind in CACHE_KINDS:
            (shared / kind).mkdir(parents=True, exist_ok=True)
            for f in (view / kind).iterdir():
                target = shared / kind / f.name
                if f.is_file() and not f.name.endswith("_.svg") and not target.exists():
                    copy_file(f, target)
    except OSError:
        pass  # a read-only cache only costs the next render a LaTeX run


def _job_settings(job: ShardJob, work: Path, cache: Path) -> SceneSettings:
    """The scene's settings, with the lecture file and recordings brought along where missing."""
    settings = job.settings
    if settings.config is not None and not settings.config.is_file():
        settings = settings.replace(config=work / "lecture.toml")
        (work / "lecture.toml").write_text(job.config_text)
    if job.recordings and not (settings.narration is not None and settings.narration.is_dir()):
        folder = work / "narration"
        (folder / job.clip.scene).mkdir(parents=True)
        for name, data in job.recordings.items():
            (folder / job.clip.scene / name).write_bytes(data)
        settings = settings.replace(narration=folder)
    if cache != Path(job.cache):  # the build's caches are not here: keep the voice with ours
        settings = settings.replace(voice_cache=cache / "voice")
    return settings


def render_shard(job: ShardJob, report: Report | None = None) -> ShardOutput:
    """Render one shard with the manim CLI in its own folder; return its video and (last shard) beats."""
    start = time.monotonic()
    say = report or (lambda _label, _event: None)
    on_cluster = job.work is None
    if on_cluster and inputs.clip_inputs_hash(job.clip, job.options, job.extra) != job.inputs_hash:
        raise RenderError(
            f"{job.label}: this worker ({socket.gethostname()}) has other scene code or another manim "
            "than the build: install the same checkout on every worker"
        )
    span = "" if job.span is None else f" (animations {job.span[0]}-{job.span[1]})"
    say(job.label, Event(Stage.RENDERING, f"rendering{span}"))
    name = f"{job.clip.scene}-{job.shard}"
    with _folder(job.work, name) as work:
        cache = _cache_root(job)
        view = cache_view(cache, work)
        beats_out = work / "beats.json"
        settings = _job_settings(job, work, cache).replace(beats_out=beats_out, progress=True)
        cmd = manim_run.manim_command(job.clip, job.options, work, cache=view, span=job.span)
        manim_run.run_manim(
            job.clip,
            cmd,
            work / "manim.log",
            lambda _c, s: say(job.label, s),
            settings,
            f"{job.label}: render",
        )
        src = manim_run.find_output(work, job.clip, job.options)
        partials = src.parent / "partial_movie_files" / job.clip.scene
        animations = sum(1 for p in partials.glob("*") if p.suffix != ".txt")  # one file per animation
        cut = tuple(_segment(partials, first, last, job, work) for first, last in job.segments)
        record = BeatsRecord.read(beats_out) if beats_out.exists() else None
        srt = src.with_suffix(".srt")
        audio = {str(p): p.read_bytes() for p, _ in record.placements()} if record and job.last else {}
        keep_new_cache_files(view, cache)
        output = ShardOutput(
            b"" if cut else src.read_bytes(),
            record,
            srt.read_text() if srt.exists() else None,
            audio,
            time.monotonic() - start,
            cut,
        )
    say(job.label, Event(Stage.RENDERED, f"rendered in {output.seconds:.1f}s ({animations} animations)"))
    return output


def _segment(partials: Path, first: int, last: int, job: ShardJob, work: Path) -> bytes:
    """Animations ``first..last`` as one video: manim's own files for them, joined by copying packets."""
    files = [partials / f"uncached_{i:05}.{job.options.fmt}" for i in range(first, last + 1)]
    gone = [f.name for f in files if not f.is_file()]
    if gone:
        raise RenderError(f"{job.label}: manim wrote no {', '.join(gone)}; render it with --shards 1")
    if len(files) == 1:
        return files[0].read_bytes()
    out = work / f"segment-{first}-{last}.{job.options.fmt}"
    join_videos(files, out, transparent=job.options.transparent)
    return out.read_bytes()


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
    with _folder(work, f"{clip.scene}-join") as folder:
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


def portable_toml(title: str, scenes: list[str], voice: str, raw: dict[str, Any]) -> str:
    """A lecture file without paths (its recordings travel as bytes), for workers on other machines.

    >>> import tomllib
    >>> text = portable_toml("T", ["A"], "none", {"A": {"xs": [1, 2.5], "s": {"t": 'a"b'}}})
    >>> tomllib.loads(text)["A"]
    {'xs': [1, 2.5], 's': {'t': 'a"b'}}
    >>> tomllib.loads(portable_toml("Attention \U0001f600 \U0001d53c", ["A"], "none", {}))["title"]
    'Attention \U0001f600 \U0001d53c'

    Written by ``tomli-w``: a hand-made writer escaped characters outside the BMP as JSON
    surrogate pairs, which TOML rejects.
    """
    return tomli_w.dumps({"title": title, "scenes": scenes, "voice": voice, **raw})
