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

import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from atomic_files import write_bytes, write_text
from lecture.config import LectureConfig
from lecture.section import Section
from lecture.settings import SceneSettings
from narration.beats import BeatsRecord
from production.media.captions import to_srt
from production.options import (
    BuildRequest,
    RenderError,
    RenderOptions,
    RenderResult,
    beats_path,
    check_shards_option,
    published_paths,
)
from production.progress import Event, ProgressBoard, Report, Stage
from production.render import manim_run
from production.render.cut import Cut, animation_costs, cut_clips
from production.render.inputs import clip_inputs_hash, is_up_to_date
from production.render.jobs import ShardJob, portable_toml, render_shard
from production.render.join import ClipOutput, JoinPlan, join_clip, master_clip_voice
from production.render.planning import plan, plan_key, plan_needed
from production.render.runners import Runner, connect
from production.render.segment_cache import SegmentCache
from production.render.timeline import Timeline

__all__ = ["render_clips", "render_clip"]


@dataclass
class _Clip:
    """A stale clip in flight: its place, plan, shard futures and join future."""

    index: int
    clip: Section
    timeline: Timeline | None  # None: rendered whole without a plan
    spans: list[tuple[int, int] | None]
    cut: Cut | None = None  # the clip's segments, which the cache has, and which each shard renders
    shards: list[Any] = field(default_factory=list)
    voice: Any = None  # a planned clip's voice, mastered while its shards render
    waiting: int = 0  # shards (and voice) not yet finished
    join: Any = None
    stamp: str = ""  # the inputs hash taken before planning: a source edited mid-build leaves the clip stale


@dataclass
class _Build:
    clips: Sequence[Section]
    options: RenderOptions
    out_dir: Path
    runner: Runner
    board: ProgressBoard
    extra: Callable[[Section], str]
    settings: SceneSettings
    numbered: bool
    config: LectureConfig | None
    local: bool

    def number(self, index: int) -> int | None:
        return index if self.numbered else None

    def stamp(self, clip: Section) -> str:
        """The hash of everything ``clip`` is made from, as its published stamp will vouch for it."""
        return clip_inputs_hash(clip, self.options, self.extra(clip))

    def code(self, clip: Section) -> str:
        """What every segment of ``clip`` is made of: its code and data, not its narration or recordings."""
        config = self.config
        data = config.fingerprint(clip, recordings=False) if config is not None else self.extra(clip)
        return clip_inputs_hash(clip, self.options, data, narration=False)

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
        if flight.cut is not None:
            payload["segments"] = flight.cut.segments_of(k)
        return ShardJob(
            clip,
            self.options,
            flight.spans[k],
            k,
            n,
            self.settings,
            str(self.out_dir.parent.parent),
            flight.stamp,
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
            record = self.record(flight)
            if record is not None and record.placements() and self.options.fmt == "mp4":
                args = self.voice_args(flight, record)
                flight.voice = self.runner.submit(f"voice-{flight.clip.scene}", master_clip_voice, *args)
                flight.waiting += 1

    def record(self, flight: _Clip) -> BeatsRecord | None:
        """A planned clip's beats, as the plan timed them (None: unplanned, or a scene without beats)."""
        if flight.cut is None or not flight.cut.timeline.record:
            return None
        timeline = flight.cut.timeline
        return BeatsRecord(flight.clip.scene, timeline.duration, timeline.record)

    def voice_args(self, flight: _Clip, record: BeatsRecord) -> tuple[Any, ...]:
        """The voice job's arguments: the clip's length in frames, and (for a cluster) its sound files."""
        assert flight.cut is not None
        timeline = flight.cut.timeline
        seconds = sum(f for f, _ in timeline.animations) / timeline.frame_rate
        audio = {}
        if not self.local:  # a worker may not see this machine's voice files
            audio = {path: Path(path).read_bytes() for path, _ in record.placements()}
        return flight.clip, self.options, record, seconds, audio

    def join(self, flight: _Clip, report: Report) -> None:
        """Submit the clip's join, once its shards are done."""
        work = self.out_dir.parent / ".work" / self.options.variant / flight.clip.scene / "join"
        timeline = flight.timeline if len(flight.spans) > 1 else None  # sharded clips are planned
        frames = sum(f for f, _ in timeline.animations) if timeline is not None else None
        args = (flight.clip, self.options, flight.shards, frames, str(work) if self.local else None, report)
        plan = self.join_plan(flight) if flight.cut is not None else None
        key = f"join-{flight.clip.scene}"
        flight.join = self.runner.submit(key, join_clip, *args, plan, flight.voice, priority=1e9)

    def join_plan(self, flight: _Clip) -> JoinPlan:
        """The segments' order, the cached ones' videos and the plan's beats."""
        cut = flight.cut
        assert cut is not None
        cache = self.segment_cache(flight.clip)
        cached = tuple(cache.read(cut.keys[i]) for i in sorted(cut.cached))
        frames = sum(f for f, _ in cut.timeline.animations)
        return JoinPlan(cut.order(), cached, self.record(flight), frames)

    def segment_cache(self, clip: Section) -> SegmentCache:
        """Where ``clip``'s segments at this variant are kept: ``media/segments/<variant>/<Scene>/``."""
        media = self.out_dir.parent.parent
        return SegmentCache(media / "segments" / self.options.variant / clip.scene, self.options.fmt)

    def keep_segments(self, flight: _Clip, k: int, future: Any) -> None:
        """Keep the segments shard ``k`` rendered in the cache, as soon as it is done."""
        if flight.cut is None:
            return
        cache, (a, _b) = self.segment_cache(flight.clip), flight.cut.shards[k]
        for j, video in enumerate(self.runner.result(future).segments):
            cache.keep(flight.cut.keys[a + j], video)

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
        write_text(stamp, flight.stamp + "\n")
        if flight.cut is not None:
            self.segment_cache(clip).prune(flight.cut.keys)
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
            jobs = ((f, flight) for flight in flights for f in [*flight.shards, flight.voice])
            pending = {f: flight for f, flight in jobs if f is not None}
            for flight in flights:
                if not flight.waiting:  # every segment is in the cache and the clip is silent: join now
                    self.join(flight, report)
                    pending[flight.join] = flight
            while pending:
                for future in self.runner.wait_any(pending):
                    flight = pending.pop(future)
                    self.runner.check(future)
                    if future is flight.join:
                        results[flight.index] = self.publish(flight, self.runner.result(future))
                        self.board.done(results[flight.index])
                    else:
                        if future is not flight.voice:
                            self.keep_segments(flight, flight.shards.index(future), future)
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


def render_clips(request: BuildRequest, stream: TextIO | None = None) -> list[RenderResult]:
    """Render ``request``'s clips on its local workers or dask cluster, reporting progress on ``stream``."""
    clips, options, out_dir, shards = request.clips, request.options, request.out_dir, request.shards
    jobs, scheduler, extra = request.jobs, request.scheduler, request.extra
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
            request.settings or SceneSettings(),
            request.numbered,
            request.config,
            scheduler is None,
        )
        results = _current(build, request.force)
        flights = _plan(build, [i for i in range(len(clips)) if i not in results], shards, request.force)
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


def _whole(build: _Build, stale: list[int]) -> list[_Clip]:
    """The stale clips, each one shard, unplanned (ordered by their estimated lengths)."""
    flights = [_Clip(i, build.clips[i], None, [None], stamp=build.stamp(build.clips[i])) for i in stale]
    why = "a gif renders whole" if build.options.fmt == "gif" else "--shards 1: each renders whole"
    build.board.note(f"{len(flights)} clip(s), unplanned ({why}), typesetting and speaking as it goes")
    return flights


def _plan(build: _Build, stale: list[int], shards: int | None, force: bool) -> list[_Clip]:
    """Plan the stale clips; cut each into its segments, those the cache has and shards for the rest."""
    if not stale:
        return []
    clips = [build.clips[i] for i in stale]
    cutting = plan_needed(build.options, shards)
    if build.local and not cutting:
        return _whole(build, stale)
    stamps = {c.scene: build.stamp(c) for c in clips}  # before the plan reads any source
    start = time.monotonic()
    build.board.note(f"preparing {len(clips)} scene(s): typesetting TeX, speaking the narration")
    cache = build.out_dir.parent.parent
    processes = min(build.runner.workers, os.cpu_count() or 1)  # the plan runs on this machine
    keys = {c.scene: plan_key(c, build.options, build.extra(c), build.settings) for c in clips}
    work = build.out_dir.parent / ".work"
    timelines = plan(clips, build.options, cache, work, build.settings, processes, keys)
    missing = [c.scene for c in clips if c.scene not in timelines]
    if missing:
        raise RenderError(f"preparing the scenes gave no plan for {', '.join(missing)}")
    if not cutting:  # a cluster's gif or --shards 1: planned here (typeset once), rendered whole
        build.board.note(f"planned in {time.monotonic() - start:.1f}s; each clip renders whole")
        pairs = zip(stale, clips, strict=True)
        return [_Clip(i, c, timelines[c.scene], [None], stamp=stamps[c.scene]) for i, c in pairs]
    codes = {c.scene: build.code(c) for c in clips}
    caches = {c.scene: build.segment_cache(c) for c in clips}
    workers = build.runner.workers
    cuts = cut_clips(list(timelines.values()), codes, caches, build.options, shards, workers, force)
    flights = []
    for i, clip in zip(stale, clips, strict=True):
        cut = cuts[clip.scene]
        spans = list[tuple[int, int] | None](cut.spans)
        flights.append(_Clip(i, clip, cut.timeline, spans, cut, stamp=stamps[clip.scene]))
    layout = "; ".join(
        f"{c.timeline.scene} {len(c.shards)} shard(s) for {len(c.parts) - len(c.cached)} of "
        f"{len(c.parts)} segments"
        for c in cuts.values()
    )
    build.board.note(f"planned in {time.monotonic() - start:.1f}s; {layout}")
    return flights


def render_clip(
    clip: Section,
    options: RenderOptions,
    out_dir: Path,
    *,
    extra: str = "",
    force: bool = False,
    settings: SceneSettings | None = None,
) -> RenderResult:
    """Render one clip, unsharded (unless up to date), and publish it under ``out_dir``."""
    request = BuildRequest([clip], options, out_dir, 1, lambda _c: extra, settings, force, shards=1)
    return render_clips(request)[0]
