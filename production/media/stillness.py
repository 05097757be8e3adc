"""Still stretches: how long the voice speaks over a picture that does not change, however it flickers.

:mod:`production.media.motion` compares each frame with the one half a second
before, so a small dot gliding or a label ticking keeps a picture "moving" while
it says nothing new. This measure compares every frame with the first frame of
its stretch instead: a stretch goes on while under :data:`STILL_SHARE` of the
pixels, at half size, have moved more than :data:`STILL_GREY` grey levels from
that first frame; the first frame that moves more starts the next stretch. What
counts is the speech over a stretch (its caption cues), leaving out the
pause-and-predict beats, whose hold is deliberate. Issue 51's bar: no stretch
over :data:`STILL_SECONDS` of speech.

``python -m production.media.stillness media/lecture/480p15`` prints each clip's
longest still stretches.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

from production.media.motion import speech_spans
from production.media.video import block_means, lecture_clips

__all__ = ["STILL_SECONDS", "STILL_SHARE", "STILL_GREY", "Still", "anchor_stretches", "still_stretches"]

STILL_SECONDS = 6.0
"""Most seconds of speech a still stretch may carry."""
STILL_SHARE = 0.004
"""A frame with under this share of its pixels moved from its stretch's first frame is still."""
STILL_GREY = 20
"""Grey levels (0-255) a pixel must move by to count as moved."""
HALF = 2
"""Frames are compared at half their width and height (each pixel the mean of a 2 x 2 block)."""


@dataclass(frozen=True)
class Still:
    """A still stretch: its span in clip seconds, the seconds of speech over it, the beat it starts in."""

    start: float
    end: float
    speech: float
    beat: str


def anchor_stretches(frames: Iterable[np.ndarray]) -> list[tuple[int, int]]:
    """(first, last + 1) frame of each still stretch, from the frames (grey, any size), read once in order.

    Only the current stretch's first frame is kept, so a clip is never held in memory whole.

    >>> a, b = np.zeros((10, 10)), np.full((10, 10), 255.0)
    >>> anchor_stretches([a, a, a, b, b])
    [(0, 3), (3, 5)]
    """
    spans, first, anchor, k = [], 0, None, -1
    for k, frame in enumerate(frames):
        if anchor is None:
            anchor = frame
        elif float(np.mean(np.abs(frame - anchor) > STILL_GREY)) >= STILL_SHARE:
            spans.append((first, k))
            first, anchor = k, frame
    if anchor is not None:
        spans.append((first, k + 1))
    return spans


def _stretches(video: Path) -> tuple[float, int, list[tuple[int, int]]]:
    """(fps, frame count, still stretches) of ``video``, its frames read as grey at half size."""
    with av.open(str(video)) as container:
        fps = float(container.streams.video[0].average_rate or 15)
        frames = container.decode(video=0)
        grey = (block_means(f.to_ndarray(format="gray").astype(np.float32), HALF) for f in frames)
        spans = anchor_stretches(grey)
    return fps, (spans[-1][1] if spans else 0), spans


def still_stretches(video: Path, beats: Sequence[dict]) -> list[Still]:
    """Every still stretch of ``video`` with speech over it, the most speech first."""
    fps, n, spans = _stretches(video)
    speaking = np.zeros(n, dtype=bool)
    for start, end, _beat in speech_spans(beats):
        speaking[int(np.floor(start * fps)) : min(n, int(np.ceil(end * fps)))] = True
    found = [
        Still(a / fps, b / fps, float(speaking[a:b].sum()) / fps, _beat_at(beats, a / fps))
        for a, b in spans
        if speaking[a:b].any()
    ]
    return sorted(found, key=lambda s: -s.speech)


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
