"""A held frame is converted to the video's pixel format once, not once per repeat.

Manim 0.22's ``VideoSegmentEncoder.write_frame(pixels, repeat=n)`` builds a new
RGBA ``av.VideoFrame`` and converts it to YUV for every one of the ``n``
repeats of a frozen frame. A narrated lecture holds frames for most of its
length (the voice speaks over a still picture), so that conversion was about
40% of the time to encode a held frame at 1080p60. :func:`install` replaces the
method with one that converts the frame once and encodes the same YUV frame
``n`` times with consecutive time stamps: the encoder receives identical
input, so the video is the same (``tests/kit/test_encoding.py`` decodes both).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import av
from manim.scene.video_segment_encoder import VideoSegmentEncoder

__all__ = ["install", "write_frame_once"]

_ORIGINAL = VideoSegmentEncoder.write_frame


def write_frame_once(self: Any, pixels: Any, *, repeat: int = 1) -> None:
    """Encode ``pixels`` ``repeat`` times, converting it to the stream's pixel format once."""
    if repeat <= 1:
        _ORIGINAL(self, pixels, repeat=repeat)
        return
    self._validate_frame(pixels, repeat)
    time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
    try:
        frame = av.VideoFrame.from_ndarray(pixels, format="rgba").reformat(format=self.spec.pixel_format)
        frame.time_base = time_base
        for _ in range(repeat):
            frame.pts = self._next_pts
            self._next_pts += 1
            for packet in self._stream.encode(frame):
                self._container.mux(packet)
    except BaseException as error:
        raise self._operation_error("encode", error) from error


def install() -> None:
    """Make manim's segment encoder convert held frames once (idempotent)."""
    VideoSegmentEncoder.write_frame = write_frame_once  # type: ignore[method-assign]
