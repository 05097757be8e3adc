"""The build's segment cache: a planned clip cut at its beats, each piece's video kept by its inputs.

A plan (:mod:`production.manim_entry`) numbers a scene's animations as
``manim -n`` does and says which of them each beat spans. The clip is then a
row of *segments*: each beat's animations, and the animations between two
beats (or before the first, after the last). A segment renders as a shard of
its own would, so the clip is its segments' videos joined by copying their
packets, whichever build rendered each one.

A segment's *key* is what its frames are made of (:func:`segment_keys`):

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

The cache lives in ``media/segments/<variant>/<Scene>/<key>.<fmt>``; each
file is renamed into place whole, and a build keeps what it used plus older
segments up to as many bytes again (:meth:`SegmentCache.prune`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from atomic_files import write_bytes
from narration.beats import Beat
from production.shards import animation_costs, split
from production.timeline import Timeline

__all__ = ["Segment", "segments", "segment_keys", "runs", "cut_runs", "SegmentCache"]


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
    """Each segment's estimated render cost, in drawn frames (:func:`~production.shards.animation_costs`)."""
    costs = animation_costs(timeline)
    return [float(costs[p.first : p.last + 1].sum()) for p in parts]


@dataclass(frozen=True)
class SegmentCache:
    """The segments of one scene at one variant, one file each: ``<folder>/<key>.<fmt>``."""

    folder: Path
    fmt: str

    def path(self, key: str) -> Path:
        """The segment's file."""
        return self.folder / f"{key}.{self.fmt}"

    def has(self, key: str) -> bool:
        """Whether the segment is kept (its access time renewed: the prune keeps what builds use)."""
        path = self.path(key)
        if not path.is_file():
            return False
        os.utime(path)
        return True

    def read(self, key: str) -> bytes:
        """The segment's video."""
        return self.path(key).read_bytes()

    def keep(self, key: str, video: bytes) -> None:
        """Keep a rendered segment (renamed into place whole; a read-only cache is skipped)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_bytes(self.path(key), video)
        except OSError:
            pass  # a cache we cannot write only costs the next build a render

    def prune(self, used: Sequence[str]) -> None:
        """Keep ``used`` and the most recently used others up to as many bytes; remove the rest."""
        if not self.folder.is_dir():
            return
        kept = {self.path(k) for k in used}
        budget = sum(p.stat().st_size for p in kept if p.is_file())
        others = [p for p in self.folder.iterdir() if p not in kept and not p.name.startswith(".")]
        for path in sorted(others, key=lambda p: -p.stat().st_mtime):  # (hidden: a write under way)
            budget -= path.stat().st_size
            if budget < 0:
                path.unlink(missing_ok=True)
