"""The build's render job: render one shard of a clip (joining and voicing: :mod:`production.render.join`).

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

import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from lecture.section import Section
from lecture.settings import SceneSettings
from narration.beats import BeatsRecord
from production.media.video import join_videos
from production.options import RenderError, RenderOptions
from production.progress import Event, Report, Stage
from production.render import inputs, manim_run
from production.render.workspace import WORKER_CACHE, cache_view, keep_new_cache_files, work_folder

__all__ = [
    "ShardJob",
    "ShardOutput",
    "Report",
    "render_shard",
    "portable_toml",
]


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


def _cache_root(job: ShardJob) -> Path:
    shared = Path(job.cache)
    return shared if shared.is_dir() else WORKER_CACHE


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
    with work_folder(job.work, name) as work:
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
