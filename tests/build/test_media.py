"""The poster is the clip's last frame, found without decoding the whole clip."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from PIL import Image

from scenes.build.media import save_last_frame


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
