"""Held frames converted once give the same video as manim's own per-repeat conversion."""

from __future__ import annotations

import av
import numpy as np
from manim import Circle, Scene, Square, tempconfig
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from scenes.kit import encoding


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
    ours = render(tmp_path / "ours", encoding.write_frame_once)
    manims = render(tmp_path / "manim", encoding._ORIGINAL)
    assert len(ours) == len(manims) == 15
    for a, b in zip(ours, manims, strict=True):
        assert np.array_equal(a, b)


def test_install_replaces_the_method_and_is_idempotent():
    saved = VideoSegmentEncoder.write_frame
    try:
        encoding.install()
        encoding.install()
        assert VideoSegmentEncoder.write_frame is encoding.write_frame_once
    finally:
        VideoSegmentEncoder.write_frame = saved
