"""Cutting a clip: into segments at its beats, and the segments left to render into shards.

A scene's *timeline* is what a dry run of it counts (:mod:`production.render.timeline`):
each animation's frame count and whether it is a frozen frame, and which
animations each beat spans. Everything here is a pure function of timelines;
the processes that make them and the files they name live elsewhere
(:mod:`~production.render.planning`, :mod:`~production.render.segment_cache`,
:mod:`~production.render.jobs`, :mod:`~production.render.join`).

**Segments** (:func:`segments`): a clip is a row of segments, each beat's
animations and the animations between two beats (or before the first, after
the last). A segment renders as a shard of its own would, so the clip is its
segments' videos joined by copying their packets, whichever build rendered
each one. A segment's *key* is what its frames are made of (:func:`segment_keys`):

- the scene's code with its beats' spoken texts left out, the lecture file's
  data for the scene and the variant (``code``);
- its animations: their frame counts, frozen or drawn, and run times;
- the scene's state as its first animation starts, as a digest of every
  mobject's points, colours and values (:func:`manim_patches.state_digest`);
- for a beat, its own text, voice, engine and the contents of its sound files
  (not where they play: the segment is silent, and the clip's voice is laid
  on from the plan's record after the join).

A beat's start time is not in its key. After one beat's narration changes,
that beat renders again; the beats after it only moved in time, so their keys
and videos are unchanged and the cache serves them. Where a picture does
depend on absolute time (an updater driven by ``dt``), the state each later
segment starts from differs, so those segments render again too.

**Shards**: a shard is a range ``first..last`` of a clip's animations,
rendered with manim's ``-n FIRST,LAST``; the segments the cache lacks are cut
into shards at segment boundaries (:func:`cut_clips`). How many shards
(:func:`auto_shards`): the stale clips' video seconds are shared out over the
workers; a clip longer than its share is cut into ``ceil(length / share)``
shards, never so short that the start-up outweighs the render
(:func:`min_shard_seconds`), never with fewer than
:data:`MIN_SHARD_ANIMATIONS` animations, never more than there are workers.
Where the shards cut (:func:`split`, :func:`cut_runs`): at the animations that
share the estimated cost (:func:`animation_costs`) evenly.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

import numpy as np

from narration.beats import Beat
from production.options import QUALITIES, RenderOptions
from production.render.timeline import Timeline

__all__ = [
    "MIN_SHARD_SECONDS",
    "MIN_SHARD_ANIMATIONS",
    "SHARD_STARTUP",
    "animation_costs",
    "split",
    "auto_shards",
    "min_shard_seconds",
    "Segment",
    "segments",
    "segment_keys",
    "segment_costs",
    "runs",
    "cut_runs",
    "shard_counts",
    "Cut",
    "SegmentStore",
    "cut_clips",
]


class SegmentStore(Protocol):
    """What cutting asks of a segment cache (:class:`~production.render.segment_cache.SegmentCache`)."""

    def has(self, key: str) -> bool:
        """Whether the cache holds the segment ``key``."""
        ...


MIN_SHARD_SECONDS = 10.0
"""Shorter shards cost more in start-up (import, building the scene, skipping to the range) than they save."""
SHARD_STARTUP = 4.0
"""Seconds a shard spends before its first frame: importing manim, building the scene, skipping ahead."""
MIN_SHARD_ANIMATIONS = 3
FROZEN_COST = 0.5
"""Cost of a held frame relative to a drawn one: it is encoded but not drawn (measured 0.4-0.9 by quality)."""
ANIMATION_COST = 2.0
"""Fixed cost of one animation, in drawn frames: its static background, a segment file, its updaters."""


def animation_costs(timeline: Timeline) -> np.ndarray:
    """Estimated render cost of each animation, in drawn frames."""
    frames = np.array([f for f, _ in timeline.animations], dtype=float)  # (A,)
    frozen = np.array([z for _, z in timeline.animations], dtype=bool)  # (A,)
    return np.where(frozen, FROZEN_COST, 1.0) * frames + ANIMATION_COST


def split(costs: Sequence[float], n: int) -> list[tuple[int, int]]:
    """``n`` contiguous, non-empty ranges ``(first, last)`` of the animations, cut where costs balance.

    >>> split([1, 1, 1, 1], 2)
    [(0, 1), (2, 3)]
    >>> split([10, 1, 1, 1, 1], 2)
    [(0, 0), (1, 4)]
    >>> split([1, 1], 5)
    [(0, 0), (1, 1)]
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if not len(costs):
        raise ValueError("a scene with no animations cannot be split")
    n = min(n, len(costs))
    cum = np.cumsum(np.asarray(costs, dtype=float))  # (A,)
    bounds = [0]
    for k in range(1, n):
        target = cum[-1] * k / n
        i = int(np.searchsorted(cum, target))  # cum[i] >= target
        cut = i + 1 if i == 0 or cum[i] - target < target - cum[i - 1] else i
        bounds.append(min(max(cut, bounds[-1] + 1), len(costs) - (n - k)))
    bounds.append(len(costs))
    return [(a, b - 1) for a, b in zip(bounds, bounds[1:], strict=False)]


def min_shard_seconds(quality: str) -> float:
    """The shortest shard worth its start-up at ``quality``: its render four times the start-up, and 10 s.

    >>> [round(min_shard_seconds(q)) for q in "lmhk"]
    [64, 32, 11, 10]
    """
    return max(MIN_SHARD_SECONDS, 4 * SHARD_STARTUP / QUALITIES[quality].render_cost)


def auto_shards(
    timelines: Sequence[Timeline], workers: int, min_seconds: float = MIN_SHARD_SECONDS
) -> dict[str, int]:
    """Shards per scene: a clip longer than its share of the workers is cut, no shard under ``min_seconds``.

    >>> t = Timeline("A", 15.0, 100.0, ((15, False),) * 40)
    >>> auto_shards([t], 2), auto_shards([t], 64), auto_shards([t], 64, min_seconds=64)
    ({'A': 2}, {'A': 10}, {'A': 2})
    """
    if not timelines:
        return {}
    share = max(sum(t.duration for t in timelines) / max(1, workers), min_seconds)
    return {
        t.scene: max(
            1, min(math.ceil(t.duration / share - 1e-9), workers, len(t.animations) // MIN_SHARD_ANIMATIONS)
        )
        for t in timelines
    }


@dataclass(frozen=True)
class Segment:
    """Animations ``first..last`` (inclusive) of a clip: a beat's, or those between beats (``beat`` None)."""

    name: str  # the beat id, or "<previous beat id or 'start'>+" for animations between beats
    first: int
    last: int
    beat: Beat | None = None


def segments(timeline: Timeline) -> list[Segment]:
    """The clip's beats and the animations between them, in order, covering every animation once.

    >>> t = Timeline("S", 15.0, 9.0, ((15, False),) * 6, (("S.01-a", 1, 2), ("S.02-b", 3, 3)))
    >>> [(s.name, s.first, s.last) for s in segments(t)]
    [('start+', 0, 0), ('S.01-a', 1, 2), ('S.02-b', 3, 3), ('S.02-b+', 4, 5)]
    """
    timed = {beat.id: beat for beat in timeline.record}
    found: list[Segment] = []
    after, at = "start", 0
    for beat_id, first, last in sorted(timeline.beats, key=lambda b: b[1]):
        if first > last:
            continue  # a beat with no animation of its own (cannot happen: a beat holds its voice)
        if first > at:
            found.append(Segment(f"{after}+", at, first - 1))
        found.append(Segment(beat_id, first, last, timed.get(beat_id)))
        after, at = beat_id, last + 1
    if at < len(timeline.animations):
        found.append(Segment(f"{after}+", at, len(timeline.animations) - 1))
    return found


def segment_keys(timeline: Timeline, parts: Sequence[Segment], code: str) -> list[str]:
    """Each segment's key: ``code``, its animations, the state it starts from and (a beat) its voice."""
    if len(timeline.clocks) != len(timeline.animations):
        raise ValueError(f"{timeline.scene}: the plan has no run times or states (an older plan step)")
    keys = []
    for part in parts:
        digest = hashlib.sha256(f"{code}|{part.name}|{timeline.clocks[part.first][1]}".encode())
        for (frames, frozen), (seconds, _) in zip(
            timeline.animations[part.first : part.last + 1],
            timeline.clocks[part.first : part.last + 1],
            strict=True,
        ):
            digest.update(f"|{frames},{frozen},{seconds:.6f}".encode())
        if part.beat is not None:
            beat = part.beat
            digest.update(f"|{beat.text}|{beat.voice}|{beat.engine}".encode())
            for path, _at in beat.audio:  # where the sound plays is the soundtrack's: not in the video
                digest.update(hashlib.sha256(Path(path).read_bytes()).digest())
        keys.append(digest.hexdigest()[:32])
    return keys


def runs(missing: Sequence[bool]) -> list[tuple[int, int]]:
    """The ranges ``(first, last)`` of consecutive missing segments.

    >>> runs([True, True, False, True, False, False, True])
    [(0, 1), (3, 3), (6, 6)]
    """
    found: list[tuple[int, int]] = []
    for i, gone in enumerate(missing):
        if gone and found and found[-1][1] == i - 1:
            found[-1] = (found[-1][0], i)
        elif gone:
            found.append((i, i))
    return found


def cut_runs(gaps: Sequence[tuple[int, int]], costs: Sequence[float], shards: int) -> list[tuple[int, int]]:
    """The missing runs as shards (ranges of segments), about ``shards`` of them, at least one per run.

    Spare shards go, one at a time, to the run with the most cost per shard;
    each run is then cut where its segments' costs balance.

    >>> cut_runs([(0, 3)], [1, 1, 1, 1], 2)
    [(0, 1), (2, 3)]
    >>> cut_runs([(0, 0), (2, 5)], [1, 9, 1, 1, 1, 1], 3)
    [(0, 0), (2, 3), (4, 5)]
    """
    weights = [float(sum(costs[a : b + 1])) for a, b in gaps]
    count = [1] * len(gaps)
    for _ in range(max(0, shards - len(gaps))):
        open_runs = [i for i, (a, b) in enumerate(gaps) if count[i] <= b - a]
        if not open_runs:
            break
        best = max(open_runs, key=lambda i: weights[i] / count[i])
        count[best] += 1
    cuts = []
    for (first, last), n in zip(gaps, count, strict=True):
        cuts += [(first + x, first + y) for x, y in split(list(costs[first : last + 1]), n)]
    return cuts


def segment_costs(timeline: Timeline, parts: Sequence[Segment]) -> list[float]:
    """Each segment's estimated render cost, in drawn frames (:func:`animation_costs`)."""
    costs = animation_costs(timeline)
    return [float(costs[p.first : p.last + 1].sum()) for p in parts]


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
    caches: Mapping[str, SegmentStore],
    options: RenderOptions,
    shards: int | None,
    workers: int,
    force: bool = False,
) -> dict[str, Cut]:
    """Each planned clip cut: segments keyed, those ``caches`` hold (none if ``force``), shards for the rest.

    ``codes[scene]`` is the scene's code and data hash without its narration
    (:func:`~production.render.inputs.clip_inputs_hash` with ``narration=False``). How
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
