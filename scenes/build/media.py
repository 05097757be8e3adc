"""Reading and joining rendered videos with PyAV (no system ffmpeg needed)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av

__all__ = ["VideoInfo", "probe", "save_last_frame", "concat_videos"]


@dataclass(frozen=True)
class VideoInfo:
    """What the file says about its video stream."""

    duration: float
    width: int
    height: int
    fps: float
    frames: int


def _time_base(stream: av.video.stream.VideoStream) -> Fraction:
    if stream.time_base is None:
        raise ValueError("video stream has no time base")
    return stream.time_base


def probe(path: Path) -> VideoInfo:
    """Duration, size, frame rate and frame count of a video file."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        if stream.duration:
            duration = float(stream.duration * _time_base(stream))
        else:
            duration = float(container.duration or 0) / 1e6
        rate = stream.average_rate or stream.guessed_rate or Fraction(0)
        return VideoInfo(
            duration, stream.codec_context.width, stream.codec_context.height, float(rate), int(stream.frames)
        )


def save_last_frame(video: Path, png: Path) -> None:
    """Write the video's final frame (the scene's summary still) as a PNG, atomically.

    Decoding starts at the keyframe before the last second (the whole file
    when its stream does not say how long it is), not at the first frame.
    """
    last = None
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        if stream.duration and stream.time_base:
            last_second = (stream.start_time or 0) + max(0, stream.duration - int(1 / stream.time_base))
            container.seek(last_second, stream=stream, backward=True)
        for frame in container.decode(stream):
            last = frame
    if last is None:
        raise ValueError(f"{video} has no video frames")
    tmp = png.with_name(f".{png.name}.partial.png")
    last.to_image().save(tmp)
    os.replace(tmp, png)


def concat_videos(paths: Sequence[Path], out: Path) -> list[float]:
    """Join clips that share codec settings by remuxing their packets; returns each clip's start time.

    Packets are copied, not re-encoded, with their time stamps shifted by the
    length of the clips before them, so the join is fast and lossless.
    """
    if not paths:
        raise ValueError("nothing to concatenate")
    tmp = out.with_name(f".{out.name}.partial{out.suffix}")
    starts: list[float] = []
    offset = Fraction(0)
    with av.open(str(paths[0])) as first, av.open(str(tmp), "w") as sink:
        template = first.streams.video[0]
        ostream = sink.add_stream_from_template(template)
        for path in paths:
            with av.open(str(path)) as src:
                stream = src.streams.video[0]
                if stream.codec_context.name != template.codec_context.name or (
                    stream.codec_context.width,
                    stream.codec_context.height,
                ) != (template.codec_context.width, template.codec_context.height):
                    raise ValueError(f"{path.name} does not match the first clip's codec and size")
                starts.append(float(offset))
                shift = int(offset / _time_base(stream))
                for packet in src.demux(stream):
                    if packet.dts is None:
                        continue
                    packet.pts = (packet.pts or 0) + shift
                    packet.dts += shift
                    packet.stream = ostream
                    sink.mux(packet)
                offset += Fraction(stream.duration or 0) * _time_base(stream)
    os.replace(tmp, out)
    return starts
