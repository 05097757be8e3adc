"""Posters are the clips' last frames (found without decoding whole clips); joined clips keep their voices."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image

from production.media.audio import SAMPLE_RATE as SR
from production.media.soundtrack import decode_audio
from production.media.video import audio_format, join_videos, probe, save_last_frame
from production.publish.assemble import join_lecture
from tests.production.test_audio import make_video, mux_audio, speech_like


def _clip(path: Path, seconds: int, fps: int = 30) -> list[np.ndarray]:
    """A clip whose frames all differ (a bar grows one column a frame), a keyframe every 10 frames."""
    frames = []
    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=fps, options={"g": "10", "crf": "18"})
        stream.width, stream.height, stream.pix_fmt = 160, 96, "yuv420p"
        for i in range(seconds * fps):
            rgb = np.zeros((96, 160, 3), np.uint8)
            rgb[30:60, : i % 160] = (240, 200, 40)
            rgb[70:90, : (i // 3) % 160] = (40, 200, 240)
            frame = av.VideoFrame.from_ndarray(rgb, format="rgb24")
            frame.pts, frame.time_base = i, Fraction(1, fps)
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    with av.open(str(path)) as container:
        frames = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
    return frames


def test_poster_is_the_last_frame(tmp_path: Path) -> None:
    for seconds in (1, 5):  # shorter than the second it seeks back, and several keyframes long
        decoded = _clip(tmp_path / f"c{seconds}.mp4", seconds)
        save_last_frame(tmp_path / f"c{seconds}.mp4", tmp_path / "poster.png")
        poster = np.asarray(Image.open(tmp_path / "poster.png").convert("RGB"))
        assert np.array_equal(poster, decoded[-1])
        assert not np.array_equal(poster, decoded[-2])
    assert not list(tmp_path.glob(".*partial*"))


# --- joining clips with their voices ---------------------------------------------------------------


def _voiced_clips(folder: Path, seconds: list[float]) -> list[Path]:
    """Clips at 15 fps, each with its own speech-like voice that falls silent 0.3 s before its end.

    At 15 fps a frame is 3200 samples, not a whole number of 1024-sample AAC frames, so
    each clip starts at a different place in the AAC frame grid.
    """
    clips = []
    for k, length in enumerate(seconds):
        video = make_video(folder / f"v{k}.mp4", seconds=length)
        voice = speech_like(length, seed=k)
        voice[-round(0.3 * SR) :] = 0.0
        clips.append(folder / f"c{k}.mp4")
        mux_audio(video, voice, SR, clips[-1])
    return clips


def test_join_copies_each_clips_voice_to_its_start(tmp_path: Path) -> None:
    clips = _voiced_clips(tmp_path, [1.4, 2.0, 0.8, 1.6667])
    out = tmp_path / "lecture.mp4"
    starts = join_videos(clips, out, audio=True)
    lecture = decode_audio(out)
    assert lecture is not None
    assert probe(out).frames == sum(probe(c).frames for c in clips)
    ends = [*starts[1:], None]
    for clip, start, end in zip(clips, starts, ends, strict=True):
        own = decode_audio(clip)
        assert own is not None
        at = round(start * SR)
        lag = _lag(lecture, own, at)
        assert abs(lag) <= 512  # within half an AAC frame of the clip's picture
        # past its first AAC frame, until the next clip takes over, the samples are the clip's own
        stop = own.size if end is None else round(end * SR) - at - lag - 1536
        np.testing.assert_array_equal(lecture[at + lag + 1024 : at + lag + stop], own[1024:stop])
    assert audio_format(out) == audio_format(clips[0])
    assert abs(lecture.size / SR - sum(probe(c).duration for c in clips)) < 0.05


def _lag(lecture: np.ndarray, own: np.ndarray, at: int) -> int:
    """Where ``own`` sits in ``lecture`` relative to sample ``at``: the shift that matches it best."""
    loudest = 2048 + int(np.argmax(np.abs(own[2048 : -SR // 2])))  # a window with speech in it
    window = own[loudest - 1200 : loudest + 1200]
    errors = {
        lag: float(np.abs(lecture[at + lag + loudest - 1200 :][: window.size] - window).max())
        for lag in range(-1024, 1025)
        if at + lag >= 0
    }
    return min(errors, key=errors.__getitem__)


def test_join_refuses_audio_that_cannot_be_copied(tmp_path: Path) -> None:
    clips = _voiced_clips(tmp_path, [1.0, 1.0])
    silent = make_video(tmp_path / "silent.mp4", seconds=1.0)
    out = tmp_path / "lecture.mp4"
    with pytest.raises(ValueError, match="differ"):
        join_videos([clips[0], silent], out, audio=True)
    short = tmp_path / "short.mp4"  # its voice stops half a second before its picture does
    _cut_audio(clips[1], short, seconds=0.5)
    with pytest.raises(ValueError, match="ends before its picture"):
        join_videos([short, clips[0]], out, audio=True)
    assert not out.exists() and not list(tmp_path.glob(".*partial*"))


def _cut_audio(src: Path, out: Path, seconds: float) -> None:
    with av.open(str(src)) as container, av.open(str(out), "w") as sink:
        video, audio = container.streams.video[0], container.streams.audio[0]
        streams = {video: sink.add_stream_from_template(video), audio: sink.add_stream_from_template(audio)}
        for packet in container.demux(video, audio):
            if packet.dts is None or (packet.stream is audio and packet.pts * audio.time_base > seconds):
                continue
            packet.stream = streams[packet.stream]
            sink.mux(packet)


def test_a_lecture_keeps_the_voices_of_clips_that_speak_and_the_silence_of_others(tmp_path: Path) -> None:
    voiced = _voiced_clips(tmp_path, [1.0])[0]
    silent = make_video(tmp_path / "silent.mp4", seconds=1.0)
    join_lecture([silent, voiced], tmp_path / "mixed.mp4")
    mixed = decode_audio(tmp_path / "mixed.mp4")
    assert mixed is not None and np.abs(mixed[: SR - 2048]).max() == 0.0 and np.abs(mixed[SR:]).max() > 0.1
    join_lecture([silent, silent], tmp_path / "quiet.mp4")
    assert audio_format(tmp_path / "quiet.mp4") is None
