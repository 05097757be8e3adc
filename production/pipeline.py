"""The build's job graph: plan the stale clips, render their shards, join each clip, publish it.

::

    plan (one process here: typeset, voice, count each scene's animations)
      -> shard 1..n of each clip   (runner: local pool or dask cluster)
      -> join of each clip         (runner: shards joined, voice laid on)
      -> publish                   (here: written under a temporary name, renamed into place)

A clip is published only when its join has returned, from the bytes the join
returned, so a failed, killed or retried job never leaves a file behind.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from atomic_files import write_bytes, write_text
from lecture.clips import Clip
from lecture.config import LectureConfig
from lecture.settings import SceneSettings
from production import manim_run
from production.captions import to_srt
from production.inputs import clip_inputs_hash, is_up_to_date
from production.jobs import (
    ClipOutput,
    ShardJob,
    cache_view,
    join_clip,
    keep_new_cache_files,
    portable_toml,
    render_shard,
)
from production.options import (
    RenderError,
    RenderOptions,
    RenderResult,
    beats_path,
    check_shards_option,
    published_paths,
)
from production.progress import Event, ProgressBoard, Report, Stage
from production.runners import Runner, connect
from production.shards import Timeline, animation_costs, auto_shards, min_shard_seconds, split

__all__ = ["render_clips", "render_clip", "plan", "plan_needed", "shard_counts"]


def plan(
    clips: Sequence[Clip],
    options: RenderOptions,
    cache: Path,
    work: Path,
    settings: SceneSettings | None,
    processes: int = 1,
) -> dict[str, Timeline]:
    """Prepare ``clips`` (typeset, voice) and count their animations at ``options``' rate.

    The clips are shared out over up to ``processes`` processes, longest first;
    with more than one, each typesets into its own copy of the TeX and text
    caches (two manims must not write one text cache at once) and its new
    files are added to ``cache`` afterwards. The voice cache is written by
    renaming finished files into place, so they share it.
    """
    work.mkdir(parents=True, exist_ok=True)
    groups = _groups(clips, processes)
    with ThreadPoolExecutor(len(groups)) as pool:
        found = pool.map(lambda k: _plan_group(groups, k, options, cache, work, settings), range(len(groups)))
        timelines = [t for group in found for t in group]
    return {t.scene: t for t in timelines}


def _groups(clips: Sequence[Clip], processes: int) -> list[list[Clip]]:
    """``clips`` in at most ``processes`` groups of about equal length (longest to the shortest group)."""
    groups: list[list[Clip]] = [[] for _ in range(max(1, min(processes, len(clips))))]
    for clip in sorted(clips, key=lambda c: -c.seconds):
        min(groups, key=lambda g: sum(c.seconds for c in g)).append(clip)
    return groups


def _plan_group(
    groups: list[list[Clip]],
    k: int,
    options: RenderOptions,
    cache: Path,
    work: Path,
    settings: SceneSettings | None,
) -> list[Timeline]:
    """Plan ``groups[k]`` in one process (in a copy of the caches when there are other groups)."""
    clips, n = groups[k], len(groups)
    folder = work if n == 1 else work / f"prepare-{k + 1}of{n}"
    if n > 1:
        shutil.rmtree(folder, ignore_errors=True)
    view = cache if n == 1 else cache_view(cache, folder)
    log = folder / "prepare.log"
    cmd = [sys.executable, "-m", "production.manim_entry", "plan", str(view), options.quality]
    scenes = [c.scene for c in clips]
    manim_run.run_manim(clips[0], [*cmd, *scenes], log, None, settings, what=f"preparing {', '.join(scenes)}")
    if n > 1:
        keep_new_cache_files(view, cache)
        shutil.rmtree(view, ignore_errors=True)  # the log stays beside it
    lines = [line[5:] for line in log.read_text().splitlines() if line.startswith("PLAN ")]
    return [Timeline.from_json(json.loads(line)) for line in lines]


def shard_counts(
    timelines: Sequence[Timeline], options: RenderOptions, shards: int | None, workers: int
) -> dict[str, int]:
    """Shards per scene: ``--shards`` where given (at most one per animation), else the automatic rule."""
    if options.fmt == "gif":
        return {t.scene: 1 for t in timelines}
    if shards is None:
        return auto_shards(timelines, workers, min_shard_seconds(options.quality))
    return {t.scene: max(1, min(shards, len(t.animations))) for t in timelines}


@dataclass
class _Clip:
    """A stale clip in flight: its place, plan, shard futures and join future."""

    index: int
    clip: Clip
    timeline: Timeline | None  # None: rendered whole without a plan
    spans: list[tuple[int, int] | None]
    shards: list[Any] = field(default_factory=list)
    waiting: int = 0  # shards not yet finished
    join: Any = None


@dataclass
class _Build:
    clips: Sequence[Clip]
    options: RenderOptions
    out_dir: Path
    runner: Runner
    board: ProgressBoard
    extra: Callable[[Clip], str]
    settings: SceneSettings
    numbered: bool
    config: LectureConfig | None
    local: bool

    def number(self, index: int) -> int | None:
        return index if self.numbered else None

    def job(self, flight: _Clip, k: int) -> ShardJob:
        clip, n = flight.clip, len(flight.spans)
        extra = self.extra(clip)
        work = self.out_dir.parent / ".work" / self.options.variant / clip.scene / f"{k + 1}of{n}"
        payload: dict[str, Any] = {}
        if not self.local and self.config is not None:  # for workers that cannot see this machine's files
            scenes = [c.scene for c in self.config.clips]
            payload["config_text"] = portable_toml(
                self.config.title, scenes, self.config.voice, self.config.raw
            )
            payload["recordings"] = {p.name: p.read_bytes() for p in self.config.recordings(clip)}
        return ShardJob(
            clip,
            self.options,
            flight.spans[k],
            k,
            n,
            self.settings,
            str(self.out_dir.parent.parent),
            clip_inputs_hash(clip, self.options, extra),
            extra,
            str(work) if self.local else None,
            **payload,
        )

    def start(self, flights: list[_Clip], report: Report) -> None:
        """Submit every shard, the costliest first (a pool runs them in that order)."""
        order = []
        for flight in flights:
            self.board.expect(len(flight.spans))
            for k, span in enumerate(flight.spans):
                cost = flight.clip.seconds if flight.timeline is None else _span_cost(flight.timeline, span)
                order.append((cost, flight, k))
        futures = {}
        for cost, flight, k in sorted(order, key=lambda o: -o[0]):
            key = f"render-{flight.clip.scene}-{k + 1}of{len(flight.spans)}"
            job = self.job(flight, k)
            futures[flight.index, k] = self.runner.submit(key, render_shard, job, report, priority=cost)
        for flight in flights:
            flight.shards = [futures[flight.index, k] for k in range(len(flight.spans))]
            flight.waiting = len(flight.shards)

    def join(self, flight: _Clip, report: Report) -> None:
        """Submit the clip's join, once its shards are done."""
        work = self.out_dir.parent / ".work" / self.options.variant / flight.clip.scene / "join"
        timeline = flight.timeline if len(flight.spans) > 1 else None  # sharded clips are planned
        frames = sum(f for f, _ in timeline.animations) if timeline is not None else None
        args = (flight.clip, self.options, flight.shards, frames, str(work) if self.local else None, report)
        flight.join = self.runner.submit(f"join-{flight.clip.scene}", join_clip, *args, priority=1e9)

    def publish(self, flight: _Clip, out: ClipOutput) -> RenderResult:
        """Write the clip, its captions, beats and inputs stamp, each renamed into place."""
        clip, options = flight.clip, self.options
        video, captions, stamp = published_paths(clip, options, self.out_dir, self.number(flight.index))
        for warning in out.warnings:
            self.board.update(clip.scene, Event(Stage.WARNING, f"warning: {warning}"))
        stamp.unlink(missing_ok=True)  # the old stamp must not vouch for a half-published clip
        write_bytes(video, out.video)
        if out.record is not None:
            write_text(captions, to_srt(out.record.cues()))
            out.record.write(beats_path(video), indent=1)
        elif out.srt is not None:
            write_text(captions, out.srt)
        write_text(stamp, clip_inputs_hash(clip, options, self.extra(clip)) + "\n")
        if self.local:
            shutil.rmtree(self.out_dir.parent / ".work" / options.variant / clip.scene, ignore_errors=True)
        return RenderResult(
            clip,
            video,
            captions if captions.exists() else None,
            True,
            sum(out.shard_seconds) + out.join_seconds,
            beats_path(video) if out.record is not None else None,
            out.shard_seconds,
            out.join_seconds,
        )

    def run(self, flights: list[_Clip]) -> dict[int, RenderResult]:
        """Render, join and publish ``flights``; stop every job if one fails or the build is interrupted."""
        report = self.runner.reporter(self.board.update)
        results: dict[int, RenderResult] = {}
        pending: dict[Any, _Clip] = {}
        try:
            self.start(flights, report)
            pending = {f: flight for flight in flights for f in flight.shards}
            while pending:
                for future in self.runner.wait_any(pending):
                    flight = pending.pop(future)
                    self.runner.check(future)
                    if future is flight.join:
                        results[flight.index] = self.publish(flight, self.runner.result(future))
                        self.board.done(results[flight.index])
                    else:
                        flight.waiting -= 1
                        if not flight.waiting:  # (a cluster recomputes a finished shard whose worker died)
                            self.join(flight, report)
                            pending[flight.join] = flight
        except BaseException:  # a failed job, Ctrl-C or SIGTERM: stop the other jobs too
            self.runner.stop(list(pending))
            raise
        return results


def _span_cost(timeline: Timeline, span: tuple[int, int] | None) -> float:
    """Estimated cost of animations ``span`` (None: all) of a planned clip, in drawn frames."""
    costs = animation_costs(timeline)
    return float(costs.sum() if span is None else costs[span[0] : span[1] + 1].sum())


def render_clips(
    clips: Sequence[Clip],
    options: RenderOptions,
    out_dir: Path,
    *,
    jobs: int | None = None,
    extra: Callable[[Clip], str] | None = None,
    settings: SceneSettings | None = None,
    force: bool = False,
    stream: TextIO | None = None,
    numbered: bool = False,
    shards: int | None = None,
    scheduler: str | None = None,
    config: LectureConfig | None = None,
) -> list[RenderResult]:
    """Render ``clips`` on ``jobs`` local workers or a dask cluster, reporting progress on ``stream``.

    ``extra(clip)`` is folded into each clip's inputs hash (the lecturer's
    overrides); ``settings`` are what the scenes' manim processes are told.
    ``numbered`` names the clips ``NN-Scene`` by their position in ``clips``.
    ``shards`` splits each clip into that many shards (default: chosen from
    the clips' lengths and the workers); ``scheduler`` is a dask scheduler's
    address (default: a local pool); ``config`` lets jobs on other machines
    bring the lecture file and recordings along.
    """
    check_shards_option(shards, options)
    runner = connect(scheduler, max(1, jobs or os.cpu_count() or 1))
    try:
        manim_run.check_latex()
        manim_run.ensure_writable(out_dir)
        board = ProgressBoard(len(clips), stream or sys.stderr)
        if scheduler:
            board.note(f"cluster {scheduler}: {runner.workers} worker thread(s)")
        build = _Build(
            clips,
            options,
            out_dir,
            runner,
            board,
            extra or (lambda _c: ""),
            settings or SceneSettings(),
            numbered,
            config,
            scheduler is None,
        )
        results = _current(build, force)
        flights = _plan(build, [i for i in range(len(clips)) if i not in results], shards)
        results |= build.run(flights)
    finally:
        runner.close()
    board.finish()
    return [results[i] for i in range(len(clips))]


def _current(build: _Build, force: bool) -> dict[int, RenderResult]:
    """The clips already up to date (none with ``force``), reported as such."""
    results = {}
    for i, clip in enumerate(build.clips):
        index = build.number(i)
        if not force and is_up_to_date(clip, build.options, build.out_dir, build.extra(clip), index):
            video, captions, _ = published_paths(clip, build.options, build.out_dir, index)
            beats = beats_path(video)
            shown = captions if captions.exists() else None
            results[i] = RenderResult(clip, video, shown, False, 0.0, beats if beats.exists() else None)
            build.board.done(results[i])
    return results


ESTIMATE_MARGIN = 1.5
"""How much longer than its estimate a clip may turn out (the lecture's are within 10%)."""


def plan_needed(clips: Sequence[Clip], options: RenderOptions, shards: int | None, workers: int) -> bool:
    """Whether a clip may be cut into shards, so the scenes must be planned (dry-run) first.

    ``--shards 1`` and gif never cut. Otherwise the clips' estimated lengths
    (``Clip.seconds``, grown by :data:`ESTIMATE_MARGIN`) are shared out as
    :func:`~production.shards.auto_shards` would share them: when no clip
    could outgrow its share, every clip renders whole, and each render
    typesets its TeX and speaks its narration itself.
    """
    if options.fmt == "gif" or shards == 1:
        return False
    if shards is not None:
        return True
    if workers <= 1:
        return False  # one worker never cuts a clip
    share = max(sum(c.seconds for c in clips) / workers, min_shard_seconds(options.quality))
    return any(c.seconds * ESTIMATE_MARGIN > share for c in clips)


def _whole(build: _Build, stale: list[int]) -> list[_Clip]:
    """The stale clips, each one shard, unplanned (ordered by their estimated lengths)."""
    flights = [_Clip(i, build.clips[i], None, [None]) for i in stale]
    build.board.note(
        f"{len(flights)} clip(s), none to cut into shards on {build.runner.workers} worker(s): each renders "
        "whole, typesetting and speaking as it goes"
    )
    return flights


def _plan(build: _Build, stale: list[int], shards: int | None) -> list[_Clip]:
    """Plan the stale clips and cut each into its shards (no plan when none can be cut)."""
    if not stale:
        return []
    clips = [build.clips[i] for i in stale]
    if build.local and not plan_needed(clips, build.options, shards, build.runner.workers):
        return _whole(build, stale)
    start = time.monotonic()
    build.board.note(f"preparing {len(clips)} scene(s): typesetting TeX, speaking the narration")
    cache = build.out_dir.parent.parent
    processes = min(build.runner.workers, os.cpu_count() or 1)  # the plan runs on this machine
    timelines = plan(clips, build.options, cache, build.out_dir.parent / ".work", build.settings, processes)
    missing = [c.scene for c in clips if c.scene not in timelines]
    if missing:
        raise RenderError(f"preparing the scenes gave no plan for {', '.join(missing)}")
    counts = shard_counts(list(timelines.values()), build.options, shards, build.runner.workers)
    flights = []
    for i, clip in zip(stale, clips, strict=True):
        timeline, n = timelines[clip.scene], counts[clip.scene]
        costs = list(animation_costs(timeline))
        spans: list[tuple[int, int] | None] = [None] if n == 1 else list(split(costs, n))
        flights.append(_Clip(i, clip, timeline, spans))
    layout = ", ".join(
        f"{t.scene} {counts[t.scene]} ({len(t.animations)} animations)" for t in timelines.values()
    )
    build.board.note(f"planned in {time.monotonic() - start:.1f}s; shards: {layout}")
    return flights


def render_clip(
    clip: Clip,
    options: RenderOptions,
    out_dir: Path,
    *,
    extra: str = "",
    force: bool = False,
    settings: SceneSettings | None = None,
) -> RenderResult:
    """Render one clip, unsharded (unless up to date), and publish it under ``out_dir``."""
    return render_clips(
        [clip], options, out_dir, jobs=1, extra=lambda _c: extra, settings=settings, force=force, shards=1
    )[0]
