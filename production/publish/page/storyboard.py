"""A clip's storyboard: one small JPEG per beat, taken from the rendered clip near the beat's end.

Near its end a beat shows what it built; a beat that ends blank (a title card
that has faded out) is shown at its middle instead.

The thumbnails land in ``storyboard/<clip stem>/NN.jpg`` beside the clip, so the
page (opened from ``file://``) shows them with no server, and they are written
again only when the clip is newer than they are.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import av
import numpy as np
from PIL import Image

from atomic_files import replacing

__all__ = ["THUMB_SIZE", "beat_moments", "ink", "write_storyboard"]

THUMB_SIZE = (192, 108)
"""Pixels of each thumbnail (shown at 120 x 68 CSS pixels, sharp on a 1.5x screen)."""
LEAD = 0.25
"""Seconds before a beat's end at which its thumbnail is taken: its animation has finished by then."""
BLANK = 0.002
"""A frame with less than this fraction of pixels off the background counts as blank."""


def beat_moments(
    beats: Sequence[Mapping[str, Any]], duration: float, fps: float
) -> list[tuple[float, float]]:
    """Two moments inside each beat: ``LEAD`` before its end, and its middle (used if the first is blank).

    Neither is before the beat's start or past the clip's last frame.
    """
    last = max(0.0, duration - 1.0 / max(fps, 1.0))

    def inside(b: Mapping[str, Any], t: float) -> float:
        return max(float(b["start"]), min(t, last))

    return [(inside(b, b["end"] - LEAD), inside(b, (b["start"] + b["end"]) / 2)) for b in beats]


def ink(image: Image.Image) -> float:
    """Fraction of pixels that differ visibly from the frame's most common (background) colour."""
    small = np.asarray(image.convert("RGB").resize((160, 90)), dtype=np.int32).reshape(-1, 3)
    packed = (small[:, 0] << 16) | (small[:, 1] << 8) | small[:, 2]  # one int per colour: a fast 1-D unique
    colours, counts = np.unique(packed, return_counts=True)
    top = colours[np.argmax(counts)]
    background = np.array([top >> 16, (top >> 8) & 255, top & 255])
    return float(np.mean(np.max(np.abs(small - background), axis=1) > 40))


def _frames_at(container: Any, stream: Any, times: Sequence[float]) -> Iterator[av.VideoFrame]:
    """For each time (ascending), the first frame at or after it (the last frame past the end)."""
    frames = container.decode(stream)
    frame = next(frames, None)
    for t in times:
        if frame is not None and frame.time is not None and t - frame.time > 2.0:
            container.seek(int(t / stream.time_base), stream=stream, backward=True)  # a keyframe before t
            frames = container.decode(stream)
            frame = next(frames, frame)
        while frame is not None and frame.time is not None and frame.time < t - 1e-3:
            following = next(frames, None)
            if following is None:
                break
            frame = following
        if frame is None:
            raise ValueError("the clip has no video frames")
        yield frame


def grab_frames(video: Path, times: Sequence[float]) -> list[Image.Image]:
    """Frames of ``video`` at ``times`` (seconds, ascending) as PIL images."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        return [frame.to_image() for frame in _frames_at(container, stream, times)]


def _save_jpeg(image: Image.Image, path: Path) -> None:
    with replacing(path) as tmp:
        image.convert("RGB").resize(THUMB_SIZE, Image.Resampling.LANCZOS).save(tmp, quality=80, optimize=True)


def _thumbnails(video: Path, moments: Sequence[tuple[float, float]]) -> list[Image.Image]:
    """Each beat's frame near its end, or at its middle when the first is blank."""
    shots = grab_frames(video, [end for end, _ in moments])
    blank = [i for i, shot in enumerate(shots) if ink(shot) < BLANK]
    for i, shot in zip(blank, grab_frames(video, [moments[i][1] for i in blank]), strict=True):
        shots[i] = shot
    return shots


def write_storyboard(
    video: Path, beats: Sequence[Mapping[str, Any]], duration: float, fps: float, *, force: bool = False
) -> list[dict[str, str]]:
    """Write one thumbnail per beat of ``video``; returns ``{"beat", "image"}`` per beat.

    ``image`` is relative to the clip's folder. Thumbnails newer than the clip
    are kept unless ``force``; files of beats the clip no longer has are removed.
    """
    folder = video.parent / "storyboard" / video.stem
    names = [f"{i + 1:02d}.jpg" for i in range(len(beats))]
    moments = beat_moments(beats, duration, fps)
    stale = force or any(
        not (folder / n).exists() or (folder / n).stat().st_mtime < video.stat().st_mtime for n in names
    )
    if stale and beats:
        folder.mkdir(parents=True, exist_ok=True)
        for name, image in zip(names, _thumbnails(video, moments), strict=True):
            _save_jpeg(image, folder / name)
    if folder.exists():
        for old in folder.glob("*.jpg"):
            if old.name not in names:
                old.unlink()
    images = (f"storyboard/{video.stem}/{n}" for n in names)
    return [{"beat": b["id"], "image": image} for b, image in zip(beats, images, strict=True)]
