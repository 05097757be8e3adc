"""Held and empty frames while the voice speaks, measured on a rendered clip's pixels.

docs/visual.md: the picture changes with the words; more than about 6 s
without a visible change while speech plays is a bug, and so is a near-empty
frame held for more than 3 s of speech. A deliberate pause-and-predict hold
(the ``ask`` and ``predict`` beats) is the one exception. This module reads a clip's frames
with PyAV (downsampled, grey), marks which frames change visibly from the one
before, measures each frame's ink (the share of pixels that differ from the
background), and reports the stretches of speech that break either rule.

``python -m production.media.motion media/lecture/480p15`` prints a table for every
clip in a built lecture folder.
"""

from __future__ import annotations

import json
import sys
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

from drawing.theme import BACKGROUND
from lecture.questions import ASK_BEAT, PREDICT_BEAT
from production.media.video import block_means, lecture_clips

__all__ = [
    "HELD_SECONDS",
    "EMPTY_SECONDS",
    "EMPTY_INK",
    "Stretch",
    "frame_signals",
    "speech_spans",
    "held_stretches",
    "empty_stretches",
    "audit_clip",
    "plan_held",
]

HELD_SECONDS = 6.0
"""Longest stretch of speech without a visible change."""
EMPTY_SECONDS = 3.0
"""Longest stretch of speech over a near-empty frame."""
EMPTY_INK = 0.01
"""A frame with less than this share of inked pixels counts as empty."""
INK = 24
"""Grey distance (0-255) that counts: a pixel this far from the background is ink, this far from the
previous frame's pixel has changed (well above the encoder's noise on a still frame)."""
CHANGE = 0.0005
"""Share of pixels that must change for a frame to differ visibly from the one :data:`LOOKBACK` before."""
LOOKBACK = 0.5
"""Seconds back to the frame a frame is compared with."""
EXEMPT = (f"-{ASK_BEAT}", f"-{PREDICT_BEAT}")
"""Beat ids ending so are deliberate holds (pause and predict)."""
SCALE = 4
"""Frames are read at a quarter of their width and height, each pixel the mean of a 4 x 4 block (a thin
stroke, an equation's glyph, still counts; picking one pixel in 16 would miss most of it)."""


@dataclass(frozen=True)
class Stretch:
    """A stretch of the clip, in seconds from its start, and the beat it starts in."""

    start: float
    end: float
    beat: str

    @property
    def seconds(self) -> float:
        """Its length."""
        return self.end - self.start


def _background_grey() -> float:
    r, g, b = (int(BACKGROUND[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def frame_signals(video: Path) -> tuple[float, np.ndarray, np.ndarray]:
    """(fps, changed, ink): per frame, whether it differs visibly from an earlier one, and its ink share.

    The earlier frame is the one :data:`LOOKBACK` seconds before.
    Compared with the frame just before, a slow change (an equation written over five seconds, a bar
    sliding) moves too few pixels in one frame to count, though a viewer plainly sees it move; over
    half a second it does count.
    """
    changed, ink = [], []
    recent: deque[np.ndarray] = deque()
    background = _background_grey()
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        fps = float(stream.average_rate or 15)
        back = max(1, round(LOOKBACK * fps))
        for frame in container.decode(stream):
            grey = blocks(frame.to_ndarray(format="gray").astype(float))  # (H/4, W/4)
            moved = bool(recent) and float(np.mean(np.abs(grey - recent[0]) > INK)) > CHANGE
            changed.append(moved)
            ink.append(float(np.mean(np.abs(grey - background) > INK)))
            recent.append(grey)
            if len(recent) > back:
                recent.popleft()
    return fps, np.array(changed, dtype=bool), np.array(ink)


def blocks(grey: np.ndarray) -> np.ndarray:
    """``grey`` at 1/:data:`SCALE` of its size, each pixel the mean of its block (ragged edges dropped).

    >>> blocks(np.arange(16.0).reshape(4, 4)).tolist()
    [[7.5]]
    """
    return block_means(grey, SCALE)


def speech_spans(beats: Sequence[dict]) -> list[tuple[float, float, str]]:
    """(start, end, beat id) of every caption cue, in clip time; the exempt beats left out."""
    spans = []
    for beat in beats:
        if beat["id"].endswith(EXEMPT):
            continue
        for text_start in beat["cues"]:
            _text, start, duration = text_start
            spans.append((float(start), float(start) + float(duration), beat["id"]))
    return spans


def _runs(flags: np.ndarray) -> Iterator[tuple[int, int]]:
    """(first, last + 1) of each run of True in ``flags``."""
    padded = np.concatenate([[False], flags, [False]])
    edges = np.flatnonzero(np.diff(padded.astype(int)))
    yield from zip(edges[::2], edges[1::2], strict=True)


def _speaking(n: int, fps: float, spans: Sequence[tuple[float, float, str]]) -> tuple[np.ndarray, list[str]]:
    """Per frame: whether a cue is being spoken, and which beat speaks it."""
    speaking, beat = np.zeros(n, dtype=bool), [""] * n
    for start, end, beat_id in spans:
        first, last = int(np.floor(start * fps)), min(n, int(np.ceil(end * fps)))
        speaking[first:last] = True
        for k in range(first, last):
            beat[k] = beat_id
    return speaking, beat


def held_stretches(
    changed: np.ndarray, fps: float, spans: Sequence[tuple[float, float, str]], limit: float = HELD_SECONDS
) -> list[Stretch]:
    """Stretches of speech longer than ``limit`` in which no frame changes visibly.

    >>> still = np.zeros(150, dtype=bool)  # 10 s at 15 fps, nothing moves
    >>> [round(s.seconds, 1) for s in held_stretches(still, 15.0, [(0.0, 10.0, "A.01-x")])]
    [10.0]
    >>> held_stretches(np.ones(150, dtype=bool), 15.0, [(0.0, 10.0, "A.01-x")])
    []
    """
    speaking, beat = _speaking(len(changed), fps, spans)
    return [
        Stretch(float(a / fps), float(b / fps), beat[a])
        for a, b in _runs(speaking & ~changed)
        if (b - a) / fps > limit
    ]


def empty_stretches(
    ink: np.ndarray, fps: float, spans: Sequence[tuple[float, float, str]], limit: float = EMPTY_SECONDS
) -> list[Stretch]:
    """Stretches of speech longer than ``limit`` over frames with under :data:`EMPTY_INK` of ink.

    >>> blank = np.zeros(90)  # 6 s of an empty frame
    >>> [round(s.seconds, 1) for s in empty_stretches(blank, 15.0, [(0.0, 6.0, "A.01-x")])]
    [6.0]
    """
    speaking, beat = _speaking(len(ink), fps, spans)
    return [
        Stretch(float(a / fps), float(b / fps), beat[a])
        for a, b in _runs(speaking & (ink < EMPTY_INK))
        if (b - a) / fps > limit
    ]


def plan_held(
    duration: float, moving: Sequence[tuple[float, float]], beats: Sequence[dict], fps: float = 15.0
) -> list[Stretch]:
    """Held stretches of a scene's plan, before a frame is drawn: speech with no animation playing.

    ``moving`` holds the (start, end) of every animation a dry run played
    (``LectureScene.moving``); a frame inside one counts as changed. This is the
    quick check a scene's author runs; :func:`audit_clip` measures the pixels.

    >>> beats = [{"id": "A.01-x", "cues": [["a", 0.0, 10.0]]}]
    >>> [round(s.seconds, 1) for s in plan_held(10.0, [(0.0, 1.0)], beats)]
    [9.0]
    >>> plan_held(10.0, [(0.0, 1.0), (5.0, 6.0)], beats)
    []
    """
    changed = np.zeros(int(np.ceil(duration * fps)), dtype=bool)
    for start, end in moving:
        changed[int(np.floor(start * fps)) : int(np.ceil(end * fps))] = True
    return held_stretches(changed, fps, speech_spans(beats))


def audit_clip(video: Path, beats_json: Path) -> tuple[list[Stretch], list[Stretch]]:
    """(held, empty) stretches of one rendered clip with its beats record."""
    fps, changed, ink = frame_signals(video)
    spans = speech_spans(json.loads(beats_json.read_text())["beats"])
    return held_stretches(changed, fps, spans), empty_stretches(ink, fps, spans)


def main(argv: Sequence[str]) -> int:
    """Print every clip's held and empty stretches; exit 1 when any clip has one."""
    clips, bad = lecture_clips(argv, "production.media.motion"), 0
    if clips is None:
        return 2
    for video in clips:
        held, empty = audit_clip(video, video.with_suffix(".beats.json"))
        bad += len(held) + len(empty)
        print(f"{video.stem}: {len(held)} held, {len(empty)} empty")
        for kind, found in (("held", held), ("empty", empty)):
            for s in found:
                print(f"  {kind} {s.start:6.1f}-{s.end:6.1f} s ({s.seconds:4.1f} s) in {s.beat}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
