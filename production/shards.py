"""Shards: a scene split into contiguous ranges of its animations, and their videos joined again.

A scene's *timeline* is what a dry run of it counts (:mod:`production.timeline`):
each animation's frame count and whether it is a frozen frame. A shard is a
range ``first..last`` of those animations, rendered with manim's
``-n FIRST,LAST``. Manim itself writes each animation as its own encoded
segment and joins the segments by copying their packets, so the shards'
videos joined the same way (:func:`join_videos`) give the unsharded video's
frames.

How many shards (:func:`auto_shards`): the stale clips' video seconds are
shared out over the workers; a clip longer than its share is cut into
``ceil(length / share)`` shards, never so short that the start-up outweighs the
render (:func:`min_shard_seconds`), never with fewer than
:data:`MIN_SHARD_ANIMATIONS` animations, never more than there are workers.
Where the shards cut (:func:`split`): at the animations that share the clip's
estimated cost evenly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path

import av
import numpy as np

from atomic_files import replacing
from narration.beats import BeatsRecord
from production.options import QUALITIES
from production.timeline import Timeline

__all__ = [
    "MIN_SHARD_SECONDS",
    "MIN_SHARD_ANIMATIONS",
    "animation_costs",
    "split",
    "auto_shards",
    "min_shard_seconds",
    "check_shards",
    "count_frames",
    "join_videos",
]

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


def count_frames(video: Path) -> int:
    """Frames in a video's first video stream, counted from its packets (webm does not store the count)."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        return sum(1 for packet in container.demux(stream) if packet.size)


def _concat_manifest(paths: Sequence[Path]) -> bytes:
    """The concat demuxer's list: each file with its exact length, its frames over its frame rate.

    Without ``duration`` the demuxer starts each file where the one before ends
    by that file's container duration, which a joined file states a few ticks
    short: a clip joined from joined segments would drift by those ticks.
    """
    lines = []
    for path in paths:
        with av.open(str(path)) as container:
            stream = container.streams.video[0]
            rate = stream.average_rate or stream.guessed_rate
            if not rate:
                raise ValueError(f"{path}: no frame rate; cannot join it exactly")
            frames = sum(1 for packet in container.demux(stream) if packet.size)
        quoted = str(Path(path).resolve()).replace("'", "'\\''")
        lines.append(f"file 'file:{quoted}'\nduration {float(frames / rate):.6f}\n")
    return "".join(lines).encode()


def join_videos(paths: Sequence[Path], out: Path, transparent: bool = False) -> None:
    """Join videos with the concat demuxer, copying packets (no re-encoding), as manim joins its segments."""
    if not paths:
        raise ValueError("nothing to join")
    with (
        replacing(out) as tmp,
        av.open(
            BytesIO(_concat_manifest(paths)), "r", format="concat", options={"safe": "0", "an": "1"}
        ) as src,
        av.open(str(tmp), mode="w") as sink,
    ):
        stream = src.streams.video[0]
        ostream = sink.add_stream_from_template(template=stream)
        if transparent and out.suffix == ".webm":
            ostream.pix_fmt = "yuva420p"  # as manim does: the template does not carry the alpha plane
        for packet in src.demux(stream):
            if packet.dts is None:  # the demuxer's flushing packets
                continue
            packet.dts = None  # consecutive files' dts need not increase; let libav compute them
            packet.stream = ostream
            sink.mux(packet)
