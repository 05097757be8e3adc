"""Flashes per second in a rendered clip, against WCAG 2.3.1's general flash and red flash thresholds.

WCAG 2.2, Success Criterion 2.3.1 (Three Flashes or Below Threshold), and its Understanding page
(https://www.w3.org/WAI/WCAG22/Understanding/three-flashes-or-below-threshold.html) with the definition
of "general flash and red flash thresholds" (https://www.w3.org/TR/WCAG22/#dfn-general-flash-and-red-flash-thresholds):
content passes if there are no more than three general and no more than three red flashes in any one
second, or if the flashes together cover no more than 25% of any 10 degree visual field. Here:

- A **transition** is the change between adjacent peaks and valleys of a signal over time; a **flash** is a
  pair of opposing transitions, so the flashes in a second are its transitions / 2.
- **General**: the signal is relative luminance; a transition is a change of 0.10 (10% of the maximum) or
  more where the darker state is below 0.80.
- **Red** (WCAG 2.2's working definition, after ISO 9241-391): a transition to or from a saturated red, a
  state with R / (R + G + B) >= 0.8, where the states differ by more than 0.2 in CIE 1976 u'v'
  chromaticity. The signal tracked is each cell's u'v' distance from the sRGB red primary, so a transition
  is measured as the change in that distance (never more than the states' own u'v' difference). A
  saturated red must also have (R - G - B) x 320 > 20, WCAG 2.0's red measure, so that the encoder's noise
  on near-black pixels (whose chromaticity is arbitrary) never counts; black and near-black take the white
  point's chromaticity. R, G and B are linear, as in the relative luminance definition.
- **Area**: the 10 degree field is the Understanding page's proxy, a 341 x 256 pixel rectangle on a
  1024 x 768 screen, scaled to the frame (a third of its width and of its height). A second fails when,
  somewhere in the frame, more than 25% of such a rectangle flashes more than 3 times in it.
- Frames are averaged in linear light over cells no larger than 0.1 degree (a 300th of the width), so a fine
  balanced pattern such as a checkerboard of squares under 0.1 degree averages out, as the definition's
  exception allows.

Each cell's transitions are counted as they happen; per frame the module reports the flashes in the second
ending at that frame over the worst-placed field (the most flashes more than 25% of one field's cells
reach). Flashing that moves across the frame is counted cell by cell, so it reads lower than a tool that
follows an object would measure.

``python -m production.media.flashes media/lecture/480p15`` prints every clip's worst second and each stretch
that breaks the threshold, like ``production.media.motion``.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np

from production.media.video import block_means, lecture_clips

__all__ = [
    "MAX_FLASHES",
    "GENERAL_CHANGE",
    "DARKER_BELOW",
    "RED_CHANGE",
    "RED_SHARE",
    "FIELD",
    "FIELD_SHARE",
    "Breach",
    "Flashes",
    "flash_rates",
    "linear_frames",
    "audit_clip",
]

MAX_FLASHES = 3
"""Most flashes allowed in any one second."""
GENERAL_CHANGE = 0.10
"""Least change in relative luminance that is a general transition."""
DARKER_BELOW = 0.80
"""A general transition's darker state is below this relative luminance."""
RED_CHANGE = 0.20
"""A red transition's states differ by more than this in CIE 1976 u'v'."""
RED_SHARE = 0.8
"""A saturated red has R / (R + G + B) of at least this (linear RGB)."""
RED_FLOOR = 20 / 320
"""And (R - G - B) above this: WCAG 2.0's (R - G - B) x 320 > 20."""
FIELD = (341 / 1024, 256 / 768)
"""The 10 degree visual field as shares of the frame's width and height."""
FIELD_SHARE = 0.25
"""Flashing over more than this share of a field counts."""
CELLS_ACROSS = 300
"""Cells across the frame's width: a cell is at most a 300th of it, 0.1 degree when the width is 30."""

# sRGB (D65) linear RGB to XYZ, and the u'v' of its red primary and of its white point.
_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])


def _uv(xyz: np.ndarray) -> np.ndarray:
    """CIE 1976 u', v' of XYZ (..., 3); where X + 15Y + 3Z is ~0, the white point's."""
    x, y, z = xyz[..., 0], xyz[..., 1], xyz[..., 2]
    d = x + 15 * y + 3 * z
    white = _TO_XYZ @ np.ones(3)
    dw = white[0] + 15 * white[1] + 3 * white[2]
    dark = d < 1e-4
    safe = np.where(dark, 1.0, d)
    u = np.where(dark, 4 * white[0] / dw, 4 * x / safe)
    v = np.where(dark, 9 * white[1] / dw, 9 * y / safe)
    return np.stack([u, v], axis=-1)


_RED_UV = _uv(_TO_XYZ @ np.array([1.0, 0.0, 0.0]))


@dataclass(frozen=True)
class Breach:
    """A stretch of the clip, in seconds, whose seconds hold more than :data:`MAX_FLASHES` flashes."""

    start: float
    end: float
    kind: str
    """"general" or "red"."""
    peak: float
    """Most flashes in one second within it."""


@dataclass(frozen=True)
class Flashes:
    """Per frame: the flashes in the one second ending at it, over the worst-placed 10 degree field."""

    fps: float
    general: np.ndarray
    red: np.ndarray

    def breaches(self) -> list[Breach]:
        """Stretches where a second holds more than :data:`MAX_FLASHES` flashes of either kind.

        A stretch runs from the start of the first failing second to the end of the last.
        """
        found = []
        for kind, rate in (("general", self.general), ("red", self.red)):
            bad = np.concatenate([[False], rate > MAX_FLASHES, [False]])
            edges = np.flatnonzero(np.diff(bad.astype(int)))
            for first, last in zip(edges[::2], edges[1::2], strict=True):
                start = max(0.0, (first + 1) / self.fps - 1.0)
                found.append(Breach(start, last / self.fps, kind, float(rate[first:last].max())))
        return found


class _Transitions:
    """Peaks and valleys of one signal per cell, and its transitions counted as they happen.

    A cell's segment runs from its last peak or valley (the anchor) through the extreme reached since; a
    change of ``step`` back from that extreme starts the next segment. A segment counts once, the frame its
    extreme is ``step`` from the anchor and either end is marked (below 0.80 for a general transition, a
    saturated red for a red one).

    >>> t = _Transitions(np.array([0.0]), np.array([True]), 0.1, strict=False)
    >>> [int(t.update(np.array([v]), np.array([v < 0.8]))[0]) for v in (0.05, 0.5, 0.6, 0.0, 0.0, 0.5)]
    [0, 1, 0, 1, 0, 1]
    """

    def __init__(self, first: np.ndarray, mark: np.ndarray, step: float, *, strict: bool) -> None:
        self.step, self.strict = step, strict
        self.anchor, self.anchor_mark = first.copy(), mark.copy()
        self.extreme, self.extreme_mark = first.copy(), mark.copy()
        self.lo, self.lo_mark, self.hi, self.hi_mark = first.copy(), mark.copy(), first.copy(), mark.copy()
        self.direction = np.zeros(first.shape, dtype=np.int8)
        self.counted = np.zeros(first.shape, dtype=bool)

    def _far(self, change: np.ndarray) -> np.ndarray:
        return change > self.step if self.strict else change >= self.step

    def _start(self, where, anchor, anchor_mark, value, mark, direction: int) -> None:
        self.anchor[where], self.anchor_mark[where] = anchor[where], anchor_mark[where]
        self.extreme[where], self.extreme_mark[where] = value[where], mark[where]
        self.direction[where] = direction
        self.counted[where] = False

    def update(self, value: np.ndarray, mark: np.ndarray) -> np.ndarray:
        """Take the next frame's values; return where a transition is counted at this frame."""
        d = self.direction.copy()
        waiting, rising, falling = d == 0, d == 1, d == -1
        # before the first transition: the lowest and highest values so far are the candidate anchors
        lower, higher = waiting & (value < self.lo), waiting & (value > self.hi)
        self.lo[lower], self.lo_mark[lower] = value[lower], mark[lower]
        self.hi[higher], self.hi_mark[higher] = value[higher], mark[higher]
        up = waiting & self._far(value - self.lo)
        down = waiting & ~up & self._far(self.hi - value)
        self._start(up, self.lo, self.lo_mark, value, mark, 1)
        self._start(down, self.hi, self.hi_mark, value, mark, -1)
        # within a segment: follow the extreme, or turn back from it
        on = (rising & (value > self.extreme)) | (falling & (value < self.extreme))
        self.extreme[on], self.extreme_mark[on] = value[on], mark[on]
        turn_down = rising & ~on & self._far(self.extreme - value)
        turn_up = falling & ~on & self._far(value - self.extreme)
        anchor, anchor_mark = self.extreme.copy(), self.extreme_mark.copy()
        self._start(turn_down, anchor, anchor_mark, value, mark, -1)
        self._start(turn_up, anchor, anchor_mark, value, mark, 1)
        events = (
            ~self.counted
            & (self.direction != 0)
            & self._far(np.abs(self.extreme - self.anchor))
            & (self.anchor_mark | self.extreme_mark)
        )
        self.counted |= events
        return events


def _field_cells(shape: tuple[int, int]) -> tuple[int, int]:
    """The 10 degree field's height and width in cells of a grid of ``shape``."""
    return max(1, round(shape[0] * FIELD[1])), max(1, round(shape[1] * FIELD[0]))


def _worst_share(flags: np.ndarray, field: tuple[int, int]) -> float:
    """The largest share of flagged cells in any field-sized rectangle of the grid."""
    fh, fw = field
    s = np.zeros((flags.shape[0] + 1, flags.shape[1] + 1))
    s[1:, 1:] = np.cumsum(np.cumsum(flags, axis=0), axis=1)
    boxes = s[fh:, fw:] - s[:-fh, fw:] - s[fh:, :-fw] + s[:-fh, :-fw]
    return float(boxes.max()) / (fh * fw)


def _worst_field(counts: np.ndarray, field: tuple[int, int]) -> int:
    """The most transitions that more than :data:`FIELD_SHARE` of one field's cells reach."""
    for k in range(int(counts.max()), 0, -1):
        if _worst_share(counts >= k, field) > FIELD_SHARE:
            return k
    return 0


def _signals(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(luminance, below 0.80, u'v' distance from red, saturated red) of a linear RGB frame (H, W, 3)."""
    luminance = frame @ _TO_XYZ[1]
    redness = np.linalg.norm(_uv(frame @ _TO_XYZ.T) - _RED_UV, axis=-1)
    r, g, b = frame[..., 0], frame[..., 1], frame[..., 2]
    total = r + g + b
    saturated = (r >= RED_SHARE * total) & (r - g - b > RED_FLOOR)
    return luminance, luminance < DARKER_BELOW, redness, saturated


def flash_rates(frames: Iterable[np.ndarray], fps: float) -> Flashes:
    """Flashes per second over the worst field, per frame, of linear RGB frames (H, W, 3) in [0, 1].

    >>> black, white = np.zeros((30, 40, 3)), np.ones((30, 40, 3))
    >>> fast = flash_rates([white if (i // 3) % 2 else black for i in range(60)], 30.0)  # 5 Hz
    >>> float(fast.general.max()), float(fast.red.max())
    (5.0, 0.0)
    >>> float(flash_rates([white if (i // 8) % 2 else black for i in range(60)], 30.0).general.max())
    2.0
    """
    window = max(1, round(fps))
    stream = iter(frames)
    first = next(stream, None)
    if first is None:
        return Flashes(fps, np.zeros(0), np.zeros(0))
    luminance, dark, redness, saturated = _signals(first)
    general = _Transitions(luminance, dark, GENERAL_CHANGE, strict=False)
    red = _Transitions(redness, saturated, RED_CHANGE, strict=True)
    field = _field_cells(luminance.shape)
    ring = np.zeros((2, window, *luminance.shape), dtype=np.int32)  # each frame's events, the last second
    counts = np.zeros((2, *luminance.shape), dtype=np.int32)  # each cell's transitions in the last second
    busy = np.zeros(window, dtype=bool)  # whether each slot of the ring holds any event
    general_rate, red_rate, previous = [0.0], [0.0], None
    for k, frame in enumerate(itertools.chain([first], stream)):
        if frame is previous:  # the same frame again (a hold): every cell keeps its value, so no event
            events = None
        else:
            luminance, dark, redness, saturated = _signals(frame)
            found = np.stack([general.update(luminance, dark), red.update(redness, saturated)])
            events = found.astype(np.int32) if found.any() else None
        previous, slot = frame, k % window
        if events is None and not busy[slot]:  # nothing enters or leaves the last second
            general_rate.append(general_rate[-1])
            red_rate.append(red_rate[-1])
            continue
        counts -= ring[:, slot]
        ring[:, slot] = 0 if events is None else events
        counts += ring[:, slot]
        busy[slot] = events is not None
        general_rate.append(_worst_field(counts[0], field) / 2)
        red_rate.append(_worst_field(counts[1], field) / 2)
    return Flashes(fps, np.array(general_rate[1:]), np.array(red_rate[1:]))


_LINEAR = np.where(
    np.arange(256) / 255 <= 0.04045,
    np.arange(256) / 255 / 12.92,
    ((np.arange(256) / 255 + 0.055) / 1.055) ** 2.4,
).astype(np.float32)
"""sRGB's 8-bit codes in linear light."""


def linear_frames(video: Path) -> tuple[float, Iterable[np.ndarray]]:
    """(fps, frames): the clip's frames in linear RGB, averaged over cells of at most a 300th of the width."""
    container = av.open(str(video))
    stream = container.streams.video[0]
    fps = float(stream.average_rate or 15)
    block = max(1, stream.codec_context.width // CELLS_ACROSS)

    def frames() -> Iterable[np.ndarray]:
        """Each frame, shrunk; a frame identical to the one before is yielded as that same array."""
        raw, shrunk = np.zeros(0, dtype=np.uint8), np.zeros(0)
        with container:
            for frame in container.decode(stream):
                pixels: np.ndarray = frame.to_ndarray(format="rgb24")
                if not np.array_equal(pixels, raw):
                    raw, shrunk = pixels, block_means(_LINEAR.take(pixels), block)
                yield shrunk

    return fps, frames()


def audit_clip(video: Path) -> Flashes:
    """The flashes of one rendered clip."""
    fps, frames = linear_frames(video)
    return flash_rates(frames, fps)


def main(argv: Sequence[str]) -> int:
    """Print every clip's worst second and its breaches; exit 1 when any clip breaks the threshold."""
    clips, bad = lecture_clips(argv, "production.media.flashes"), 0
    if clips is None:
        return 2
    for video in clips:  # a described clip's held frames add no transition, only time
        found = audit_clip(video)
        breaches = found.breaches()
        bad += len(breaches)
        worst_general = float(found.general.max(initial=0.0))
        worst_red = float(found.red.max(initial=0.0))
        print(
            f"{video.stem}: at most {worst_general:.1f} general and {worst_red:.1f} red flashes in a second, "
            f"{len(breaches)} over {MAX_FLASHES}"
        )
        for b in breaches:
            print(f"  {b.kind} {b.start:6.1f}-{b.end:6.1f} s: {b.peak:.1f} flashes in a second")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
