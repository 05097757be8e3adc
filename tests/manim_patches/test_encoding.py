"""Held frames converted once give the same video as manim's own per-repeat conversion."""

from __future__ import annotations

import av
import numpy as np
from manim import Circle, Scene, Square, tempconfig
from manim.scene.video_segment_encoder import VideoSegmentEncoder

import manim_patches


class Held(Scene):
    def construct(self) -> None:
        self.add(Circle(), Square().shift([2.0, 0.0, 0.0]))
        self.wait(1.0)


def render(folder, method) -> list[np.ndarray]:
    saved = VideoSegmentEncoder.write_frame
    VideoSegmentEncoder.write_frame = method
    try:
        with tempconfig({"quality": "low_quality", "disable_caching": True, "media_dir": str(folder)}):
            scene = Held()
            scene.render()
            path = scene.renderer.file_writer.movie_file_path
    finally:
        VideoSegmentEncoder.write_frame = saved
    with av.open(str(path)) as container:
        return [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]


def test_held_frames_encode_to_the_same_video(tmp_path):
    ours = render(tmp_path / "ours", manim_patches.write_frame_once)
    manims = render(tmp_path / "manim", manim_patches.MANIM_WRITE_FRAME)
    assert len(ours) == len(manims) == 15
    for a, b in zip(ours, manims, strict=True):
        assert np.array_equal(a, b)


def test_install_replaces_the_method_and_is_idempotent():
    saved = VideoSegmentEncoder.write_frame
    try:
        manim_patches.install()
        manim_patches.install()
        assert VideoSegmentEncoder.write_frame is manim_patches.write_frame_once
    finally:
        VideoSegmentEncoder.write_frame = saved


def _segment(tmp_path, codec: str, options: dict[str, str], suffix: str = "mp4") -> bytes:
    from fractions import Fraction

    from manim._config.video_encoder import VideoEncoderSpec

    spec = VideoEncoderSpec(suffix, codec, "yuv420p", 64, 64, Fraction(15), tuple(sorted(options.items())))
    target = tmp_path / f"{codec}-{len(options)}.{suffix}"
    segment = VideoSegmentEncoder(target=target, spec=spec)
    segment.write_frame(np.zeros((64, 64, 4), np.uint8), repeat=3)
    segment.finish()
    return target.read_bytes()


def test_x264_segments_get_the_preset_unless_one_is_named(tmp_path):
    # x264 writes its settings into the stream: superfast searches with subme=1, medium with subme=7.
    manim_patches.install()
    assert manim_patches.PRESET == "superfast"
    assert b"subme=1 " in _segment(tmp_path, "libx264", {"crf": "23"})
    assert b"subme=7 " in _segment(tmp_path, "libx264", {"crf": "23", "preset": "medium"})
    vp9 = _segment(tmp_path, "libvpx-vp9", {"crf": "23"}, "webm")  # other codecs are left alone
    assert len(vp9) > 0
