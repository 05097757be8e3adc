"""Still stretches: how long the voice speaks over a picture that does not change, however it flickers.

:mod:`production.media.motion` compares each frame with the one half a second
before, so a small dot gliding or a label ticking keeps a picture "moving" while
it says nothing new. This measure compares frames with a stretch's first frame
instead. A still stretch is a run of frames that each have under
:data:`STILL_SHARE` of their pixels, at half size, moved more than
:data:`STILL_GREY` grey levels from the run's first frame. Every frame may
start one, so the measure finds the longest window a viewer sees as one
picture, wherever it begins (partitioning the clip at each change would split
a picture that shifts by a little, then a little more, into short stretches).
What counts is the speech over a stretch (its caption cues), leaving out the
pause-and-predict beats, whose hold is deliberate. Issue 51's bar: no stretch
over :data:`STILL_SECONDS` of speech.

``python -m production.media.stillness media/lecture/480p15`` prints each clip's
longest still stretches.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np
from numpy.typing import NDArray

from production.media.motion import speech_spans
from production.media.video import lecture_clips

__all__ = [
    "STILL_SECONDS",
    "STILL_SHARE",
    "STILL_GREY",
    "Still",
    "stretch_ends",
    "longest_windows",
    "still_stretches",
]

STILL_SECONDS = 6.0
"""Most seconds of speech a still stretch may carry."""
STILL_SHARE = 0.004
"""A frame with under this share of its pixels moved from its stretch's first frame is still."""
STILL_GREY = 20
"""Grey levels (0-255) a pixel must move by to count as moved."""
HALF = 2
"""Frames are compared at half their width and height (each pixel the mean of a 2 x 2 block)."""
BLOCK = 64
"""Most frames compared with a stretch's first frame at once."""


@dataclass(frozen=True)
class Still:
    """A still stretch: its span in clip seconds, the seconds of speech over it, the beat it starts in."""

    start: float
    end: float
    speech: float
    beat: str


def stretch_ends(frames: np.ndarray) -> NDArray[np.intp]:
    """For each frame ``i``, the end (exclusive) of the longest still stretch that starts at ``i``.

    ``frames`` is (n, h, w) grey. A frame identical to the one before starts the same stretch, one
    frame shorter, so it is not compared again.

    >>> a, b = np.zeros((10, 10)), np.full((10, 10), 255.0)
    >>> stretch_ends(np.stack([a, a, a, b, b])).tolist()
    [3, 3, 3, 5, 5]
    """
    ends = np.empty(len(frames), dtype=np.intp)
    for i in range(len(frames)):
        if i and ends[i - 1] > i and np.array_equal(frames[i], frames[i - 1]):
            ends[i] = ends[i - 1]
        else:
            ends[i] = _still_until(frames, i)
    return ends


def _still_until(frames: np.ndarray, i: int) -> int:
    """The first frame after ``i`` moved from frame ``i`` (or the frame count), read in growing blocks."""
    anchor, j, size = frames[i].astype(np.int16), i + 1, 2
    while j < len(frames):
        size = min(2 * size, BLOCK)  # most starts during motion end at once; long holds read 64 at a time
        block = frames[j : j + size].astype(np.int16)
        moved = np.mean(np.abs(block - anchor) > STILL_GREY, axis=(1, 2))
        over = np.flatnonzero(moved >= STILL_SHARE)
        if over.size:
            return j + int(over[0])
        j += len(block)
    return len(frames)


def half_size_grey(video: Path) -> tuple[float, np.ndarray]:
    """(fps, frames) of ``video``: every frame grey at half its width and height (area mean), uint8."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        fps, size = float(stream.average_rate or 15), (stream.width // HALF, stream.height // HALF)
        frames = [
            f.reformat(width=size[0], height=size[1], format="gray", interpolation="AREA").to_ndarray()
            for f in container.decode(stream)
        ]
    return fps, np.stack(frames) if frames else np.zeros((0, size[1], size[0]), dtype=np.uint8)


def longest_windows(ends: NDArray[np.intp], speech: NDArray[np.float64]) -> list[tuple[int, int]]:
    """Non-overlapping windows ``(i, ends[i])``, the most speech first, each the most of those it overlaps.

    ``speech[i]`` is the speech over the window starting at ``i``; windows with none are left out.

    >>> longest_windows(np.array([3, 3, 3, 5, 5]), np.array([2.0, 1.5, 1.0, 0.0, 0.5]))
    [(0, 3), (4, 5)]
    """
    taken, found = np.zeros(len(ends), dtype=bool), []
    for i in np.argsort(-speech, kind="stable"):
        if speech[i] <= 0:
            break
        if not taken[i : ends[i]].any():
            taken[i : ends[i]] = True
            found.append((int(i), int(ends[i])))
    return found


def still_stretches(video: Path, beats: Sequence[dict]) -> list[Still]:
    """The still stretches of ``video`` with speech over them, non-overlapping, the most speech first."""
    fps, frames = half_size_grey(video)
    n = len(frames)
    speaking = np.zeros(n, dtype=bool)
    for start, end, _beat in speech_spans(beats):
        speaking[int(np.floor(start * fps)) : min(n, int(np.ceil(end * fps)))] = True
    ends, spoken = stretch_ends(frames), np.concatenate([[0], np.cumsum(speaking)])
    speech = (spoken[ends] - spoken[:n]) / fps
    return [
        Still(a / fps, b / fps, float(speech[a]), _beat_at(beats, a / fps))
        for a, b in longest_windows(ends, speech)
    ]


def _beat_at(beats: Sequence[dict], t: float) -> str:
    """The id of the beat playing at ``t`` seconds."""
    return next((b["id"] for b in beats if b["start"] <= t < b["end"]), "")


def main(argv: Sequence[str]) -> int:
    """Print each clip's three longest still stretches; exit 1 when any carries too much speech."""
    clips, bad = lecture_clips(argv, "production.media.stillness"), 0
    if clips is None:
        return 2
    for video in clips:
        stills = still_stretches(video, json.loads(video.with_suffix(".beats.json").read_text())["beats"])
        over = [s for s in stills if s.speech > STILL_SECONDS]
        bad += len(over)
        longest = stills[0].speech if stills else 0.0
        print(f"{video.stem}: longest {longest:.1f} s of speech still; {len(over)} over {STILL_SECONDS:g} s")
        for s in stills[:3]:
            print(f"  {s.start:6.1f}-{s.end:6.1f} s: {s.speech:4.1f} s of speech, from {s.beat}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
