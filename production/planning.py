"""The build's plan: dry-run the stale scenes; cut each clip into cached segments and shards to render.

The plan step (one or more processes here) typesets each scene's TeX, speaks
its draft voice and dry-runs it (:mod:`production.manim_entry`): each
animation's frames, run time and starting state, and each beat's animations
and times. Every planned clip is then a row of segments
(:mod:`production.segments`); those the segment cache holds are not rendered
again, and the missing runs are cut into shards at segment boundaries. A gif,
and ``--shards 1``, render whole without a plan.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lecture.clips import Clip
from lecture.settings import SceneSettings
from production import manim_run
from production.inputs import clip_inputs_hash
from production.jobs import cache_view, keep_new_cache_files
from production.options import RenderOptions
from production.plans import PlanStore
from production.segments import Segment, SegmentCache, cut_runs, runs, segment_costs, segment_keys, segments
from production.shards import auto_shards, min_shard_seconds
from production.timeline import Timeline, read_lines

__all__ = ["plan", "plan_key", "plan_needed", "shard_counts", "Cut", "cut_clips"]


def plan_needed(options: RenderOptions, shards: int | None) -> bool:
    """Whether the build plans its clips (and so cuts them into segments and shards).

    >>> plan_needed(RenderOptions("l"), None), plan_needed(RenderOptions("l"), 1)
    (True, False)
    >>> plan_needed(RenderOptions("l", "gif"), None)
    False

    A gif cannot be joined (its palette is the whole clip's), and ``--shards 1``
    asks for one whole render: those typeset and speak as they render.
    Everything else is planned, so that every clip's segments are cached and
    a later build renders only what changed.
    """
    return options.fmt != "gif" and shards != 1


def plan_key(clip: Clip, options: RenderOptions, extra: str, settings: SceneSettings | None) -> str:
    """The key a render's plan of ``clip`` is kept under: what the plan depends on.

    Its inputs hash (``extra``: the lecture's data for it, recordings
    included), the quality (the frame rate), and the voice it is spoken with.
    """
    voice = (settings or SceneSettings()).voice
    return f"render-{options.quality}-{clip_inputs_hash(clip, options, f'{extra}|render: voice {voice}')}"


def plan(
    clips: Sequence[Clip],
    options: RenderOptions,
    cache: Path,
    work: Path,
    settings: SceneSettings | None,
    processes: int = 1,
    keys: Mapping[str, str] | None = None,
) -> dict[str, Timeline]:
    """Prepare ``clips`` (typeset, voice) and count their animations at ``options``' rate.

    The clips are shared out over up to ``processes`` processes, longest first;
    with more than one, each typesets into its own copy of the TeX and text
    caches (two manims must not write one text cache at once) and its new
    files are added to ``cache`` afterwards. The voice cache is written by
    renaming finished files into place, so they share it.

    With ``keys`` (:func:`plan_key` of each scene), a plan kept under its key in
    ``cache/plans`` (:class:`~production.plans.PlanStore`) is read back instead,
    when every sound file it names is still there; each new plan is kept.
    """
    store = PlanStore(cache)
    kept = {c.scene: t for c in clips if keys and (t := _kept(store, c.scene, keys.get(c.scene))) is not None}
    todo = [c for c in clips if c.scene not in kept]
    if not todo:
        return kept
    planned = _plan_all(todo, options, cache, work, settings, processes)
    for scene, (_, line) in planned.items():
        if keys and scene in keys:
            store.keep(scene, keys[scene], {"plan": line})
    return {**kept, **{scene: timeline for scene, (timeline, _) in planned.items()}}


def _kept(store: PlanStore, scene: str, key: str | None) -> Timeline | None:
    """The plan kept for ``scene`` under ``key``, if there is one and its sound files are all there."""
    data = store.load(scene, key) if key else None
    if data is None or not isinstance(data.get("plan"), dict):
        return None
    try:
        timeline = Timeline.from_json(data["plan"])
    except (KeyError, TypeError, ValueError):  # a plan of another layout: made again
        return None
    sounds = [Path(path) for beat in timeline.record for path, _ in beat.audio]
    return timeline if all(p.is_file() for p in sounds) else None


def _plan_all(
    clips: Sequence[Clip],
    options: RenderOptions,
    cache: Path,
    work: Path,
    settings: SceneSettings | None,
    processes: int,
) -> dict[str, tuple[Timeline, dict[str, Any]]]:
    """Dry-run ``clips`` in up to ``processes`` processes: each scene's timeline and its plan line."""
    work.mkdir(parents=True, exist_ok=True)
    groups = _groups(clips, processes)
    with ThreadPoolExecutor(len(groups)) as pool:
        try:
            one = lambda k: _plan_group(groups, k, options, cache, work, settings)  # noqa: E731
            planned = pool.map(one, range(len(groups)))
            timelines = [t for group in planned for t in group]
        except KeyboardInterrupt:  # stop the plan's manims, or leaving ``with`` waits for them to finish
            manim_run.terminate_children()
            raise
    return {t[0].scene: t for t in timelines}


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
) -> list[tuple[Timeline, dict[str, Any]]]:
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
    return [(timeline, timeline.to_json()) for timeline in read_lines(log.read_text().splitlines())]


def shard_counts(
    timelines: Sequence[Timeline], options: RenderOptions, shards: int | None, workers: int
) -> dict[str, int]:
    """Shards per scene: ``--shards`` where given (at most one per animation), else the automatic rule."""
    if options.fmt == "gif":
        return {t.scene: 1 for t in timelines}
    if shards is None:
        return auto_shards(timelines, workers, min_shard_seconds(options.quality))
    return {t.scene: max(1, min(shards, len(t.animations))) for t in timelines}


@dataclass(frozen=True)
class Cut:
    """A planned clip: its segments, their keys, which of them the cache has, and the shards to render.

    ``shards[k]`` is a range ``(a, b)`` of ``parts``, rendered as one shard.
    """

    timeline: Timeline
    parts: tuple[Segment, ...]
    keys: tuple[str, ...]
    cached: frozenset[int]
    shards: tuple[tuple[int, int], ...]

    @property
    def spans(self) -> list[tuple[int, int]]:
        """Each shard's animations, as ``manim -n`` numbers them."""
        return [(self.parts[a].first, self.parts[b].last) for a, b in self.shards]

    def segments_of(self, k: int) -> tuple[tuple[int, int], ...]:
        """The animations of each segment shard ``k`` renders."""
        a, b = self.shards[k]
        return tuple((p.first, p.last) for p in self.parts[a : b + 1])

    def order(self) -> tuple[tuple[int, int], ...]:
        """Where each segment comes from: ``(k, j)``, the ``j``-th of shard ``k``; ``(-1, j)``, cached."""
        found: dict[int, tuple[int, int]] = {}
        for k, (a, b) in enumerate(self.shards):
            found |= {i: (k, i - a) for i in range(a, b + 1)}
        cached = sorted(self.cached)
        found |= {i: (-1, j) for j, i in enumerate(cached)}
        return tuple(found[i] for i in range(len(self.parts)))


def cut_clips(
    timelines: Sequence[Timeline],
    codes: dict[str, str],
    caches: dict[str, SegmentCache],
    options: RenderOptions,
    shards: int | None,
    workers: int,
    force: bool = False,
) -> dict[str, Cut]:
    """Each planned clip cut: segments keyed, those ``caches`` hold (none if ``force``), shards for the rest.

    ``codes[scene]`` is the scene's code and data hash without its narration
    (:func:`~production.inputs.clip_inputs_hash` with ``narration=False``). How
    many shards: ``--shards`` or the automatic rule, applied to what is left to render.
    """
    found: dict[str, tuple[list[Segment], list[str], set[int]]] = {}
    left = []
    for t in timelines:
        parts = segments(t)
        keys = segment_keys(t, parts, codes[t.scene])
        cached = set() if force else {i for i, key in enumerate(keys) if caches[t.scene].has(key)}
        found[t.scene] = (parts, keys, cached)
        missing = [i for i in range(len(parts)) if i not in cached]
        animations = tuple(a for i in missing for a in t.animations[parts[i].first : parts[i].last + 1])
        seconds = sum(f for f, _ in animations) / t.frame_rate
        left.append(replace(t, duration=seconds, animations=animations))
    counts = shard_counts([t for t in left if t.animations], options, shards, workers)
    cuts = {}
    for t in timelines:
        parts, keys, cached = found[t.scene]
        gaps = runs([i not in cached for i in range(len(parts))])
        pieces = cut_runs(gaps, segment_costs(t, parts), counts.get(t.scene, 0)) if gaps else []
        cuts[t.scene] = Cut(t, tuple(parts), tuple(keys), frozenset(cached), tuple(pieces))
    return cuts
