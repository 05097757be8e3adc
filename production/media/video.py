"""Reading and joining rendered videos with PyAV (no system ffmpeg needed): the one packet-copy join."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from atomic_files import replacing

__all__ = ["VideoInfo", "probe", "save_last_frame", "audio_format", "count_frames", "join_videos", "block_means", "lecture_clips"]


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
    """Duration, size, frame rate and frame count of a video file.

    The duration is the frames over the frame rate where the file counts its
    frames, as :func:`join_videos` lays them: a stream whose time stamps drift
    (manim's own whole renders) states its duration a tick or two short, and two
    builds of the same clip, one whole and one joined, must agree.
    """
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        rate = stream.guessed_rate or stream.average_rate or Fraction(0)
        frames = int(stream.frames)
        if frames and rate:
            duration = float(Fraction(frames) / Fraction(rate))
        elif stream.duration:
            duration = float(stream.duration * _time_base(stream))
        else:
            duration = float(container.duration or 0) / 1e6
        return VideoInfo(duration, stream.codec_context.width, stream.codec_context.height, float(rate), frames)


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
    with replacing(png) as tmp:
        last.to_image().save(tmp)


def audio_format(path: Path) -> tuple[str, int, int, bytes] | None:
    """Codec, rate, channels and codec set-up bytes of a file's first audio track; None when silent."""
    with av.open(str(path)) as container:
        if not container.streams.audio:
            return None
        ctx = container.streams.audio[0].codec_context
        return ctx.name, ctx.sample_rate, ctx.channels, bytes(ctx.extradata or b"")


def count_frames(video: Path) -> int:
    """Frames in a video's first video stream, counted from its packets (webm does not store the count)."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        return sum(1 for packet in container.demux(stream) if packet.size)


@dataclass(frozen=True)
class _Piece:
    """What the join needs of one input: its frames, frame rate and reorder delay (in its time base)."""

    frames: int
    rate: Fraction
    delay: int  # how far its first packet's presentation is after its decoding: B-frames' reorder delay

    @property
    def length(self) -> Fraction:
        """Its exact length: frames over frame rate, not the container's duration (joined files state it short)."""
        return Fraction(self.frames) / self.rate


def _piece(path: Path) -> _Piece:
    """Read ``path``'s video packets for :class:`_Piece`."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        rate = stream.guessed_rate or stream.average_rate
        if not rate:
            raise ValueError(f"{path}: no frame rate; cannot join it exactly")
        packets = [(p.pts or 0, p.dts or 0) for p in container.demux(stream) if p.size]
    delay = packets[0][0] - packets[0][1] if packets else 0
    return _Piece(len(packets), Fraction(rate), delay)


def join_videos(paths: Sequence[Path], out: Path, audio: bool = False, transparent: bool = False) -> list[float]:
    """Join videos that share codec settings by copying their packets; returns each one's start time.

    The one join of the project: a shard's segments, a clip's shards and
    segments, and the lecture's clips. Packets are copied, not re-encoded, as
    manim joins its own segments, with their time stamps shifted by the exact
    length of the videos before them (frames over rate), so the join is fast,
    lossless and gives the frames one render would. Decode times are laid
    afresh, one frame apart, behind the largest reorder delay of the pieces: a
    one-frame file of manim's has none and a longer one two frames, so their
    own decode times, shifted, could run backwards; laid afresh they cannot, and
    the join does not depend on where a build cut its shards. A frame shown a
    few ticks early (manim's whole renders drift so) decodes at its own time. With ``audio``, the clips'
    audio packets are copied too (every clip must carry the same audio format:
    see :func:`audio_format`), laid as described in :class:`_AudioSplice`. With
    ``transparent``, a webm keeps its alpha plane (as manim does: the stream
    template does not carry it).
    """
    if not paths:
        raise ValueError("nothing to join")
    formats = {audio_format(p) for p in paths} if audio else set()
    if audio and (len(formats) != 1 or None in formats):
        raise ValueError("the clips' audio tracks differ (or some are silent): they cannot be copied")
    starts: list[float] = []
    offset = Fraction(0)
    with replacing(out) as tmp:
        with av.open(str(paths[0])) as first, av.open(str(tmp), "w") as sink:
            template = first.streams.video[0]
            ostream = sink.add_stream_from_template(template)
            if transparent and out.suffix == ".webm":
                ostream.pix_fmt = "yuva420p"
            splice = _AudioSplice(sink, first.streams.audio[0]) if audio else None
            pieces = [_piece(p) for p in paths]
            tick = 1 / (pieces[0].rate * _time_base(template))  # one frame, in the time base
            if tick.denominator != 1:
                raise ValueError(f"{paths[0]}: a frame is not a whole number of time-base ticks")
            dts = -max(p.delay for p in pieces)  # the first decode time: the largest reorder delay back
            for k, (path, piece) in enumerate(zip(paths, pieces, strict=True)):
                length = piece.length
                with av.open(str(path)) as src:
                    stream = _matching_video(src, template, path)
                    starts.append(float(offset))
                    if splice is not None:
                        splice.begin(offset, offset + length if k + 1 < len(paths) else None)
                    shift = int(offset / _time_base(stream))
                    for packet in src.demux(stream, *src.streams.audio[: 1 if audio else 0]):
                        if packet.dts is None or not packet.size:
                            continue
                        if packet.stream.type == "audio":
                            splice.mux(packet)  # type: ignore[union-attr]
                            continue
                        packet.pts = (packet.pts or 0) + shift
                        packet.dts, dts = min(dts, packet.pts), dts + int(tick)  # a drifting pts: its own
                        packet.stream = ostream
                        sink.mux(packet)
                    offset += length
    return starts


def _matching_video(
    src: av.container.InputContainer, template: av.video.stream.VideoStream, path: Path
) -> av.video.stream.VideoStream:
    """``src``'s video stream; ValueError unless it has the first clip's codec and size."""
    stream = src.streams.video[0]
    if stream.codec_context.name != template.codec_context.name or (
        stream.codec_context.width,
        stream.codec_context.height,
    ) != (template.codec_context.width, template.codec_context.height):
        raise ValueError(f"{path.name} does not match the first clip's codec and size")
    return stream


class _AudioSplice:
    """Lays the clips' AAC packets end to end, each clip within half a frame of its video's start.

    An AAC frame (1024 samples) decodes to its own samples overlapped with the
    frame before; each clip's track opens with one priming frame that the clip
    file's edit list hides. Here the priming frame of the next clip stands in
    for the previous clip's last frame (its tail is the silence after the last
    beat), so the next clip's own samples start cleanly. Frames are laid back to
    back and a clip's start can only move by whole frames, so the previous clip
    gives up the frames that would run past the next clip's priming frame: each
    clip's audio starts within 512 samples (10.7 ms at 48 kHz) of its picture,
    and the error does not add up over the clips.
    """

    def __init__(self, sink: av.container.OutputContainer, template: av.audio.stream.AudioStream) -> None:
        self.sink = sink
        self.stream = sink.add_stream_from_template(template)
        self.rate = template.codec_context.sample_rate
        self.cursor: int | None = None  # where the next frame goes, in samples of the joined track
        self.until: int | None = None  # this clip's frames must start before this sample
        self.size = template.codec_context.frame_size or 1024

    def begin(self, start: Fraction, next_start: Fraction | None) -> None:
        """A clip starts at ``start`` seconds; the one after it at ``next_start`` (None: it is the last)."""
        if self.cursor is not None and not self._near(self.cursor, start):
            raise ValueError("a clip's audio track ends before its picture: its packets cannot be copied")
        self.until = None if next_start is None else self._at(next_start) - self.size - self.size // 2

    def _at(self, seconds: Fraction) -> int:
        return round(seconds * self.rate)

    def _near(self, cursor: int, start: Fraction) -> bool:
        """Whether a priming frame laid at ``cursor`` has its clip start within half a frame of ``start``."""
        return abs(cursor + self.size - self._at(start)) <= self.size // 2

    def mux(self, packet: av.Packet) -> None:
        if self.cursor is None:
            self.cursor = packet.pts or 0  # the first clip keeps its priming frame where it was
        if self.until is not None and self.cursor >= self.until:
            return  # past this clip's share: the next clip's priming frame takes over
        packet.pts = packet.dts = self.cursor
        packet.duration = self.size
        packet.stream = self.stream
        self.cursor += self.size
        self.sink.mux(packet)


def block_means(image: np.ndarray, block: int) -> np.ndarray:
    """``image`` (H, W, ...) at 1/``block`` of its size, each pixel its block's mean, in float64.

    A ragged edge is dropped. The pixel audits (:mod:`production.media.flashes`,
    :mod:`production.media.motion`) shrink every frame with it. The block is summed
    one row and one column at a time: a mean over two strided axes at once is
    five times slower on a 480p RGB frame.

    >>> block_means(np.arange(16.0).reshape(4, 4), 2).tolist()
    [[2.5, 4.5], [10.5, 12.5]]
    >>> block_means(np.ones((5, 5, 3)), 2).shape
    (2, 2, 3)
    """
    h, w = (image.shape[0] // block) * block, (image.shape[1] // block) * block
    blocks = image[:h, :w].reshape(h // block, block, w // block, block, *image.shape[2:])
    rows = blocks[:, 0].astype(np.float64)
    for i in range(1, block):
        rows += blocks[:, i]
    cells = rows[:, :, 0].copy()
    for j in range(1, block):
        cells += rows[:, :, j]
    return cells / (block * block)


def lecture_clips(argv: Sequence[str], command: str) -> list[Path] | None:
    """The numbered clips of the lecture folder a frame audit was given (described versions left out).

    ``argv`` is the audit's command line after ``python -m command``; None (after a usage line on
    stderr) unless it is one folder. The described clips repeat their clip's frames, holding some
    longer on purpose while a description is spoken, so the audits read the clips themselves.
    """
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(f"usage: python -m {command} LECTURE_FOLDER (e.g. media/lecture/480p15)", file=sys.stderr)
        return None
    clips = sorted(Path(argv[0]).glob("[0-9][0-9]-*.mp4"))
    return [video for video in clips if not video.stem.endswith(".described")]
