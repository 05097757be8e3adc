"""Real renders through the manim CLI: a video file of the right length, not blank, reproducible."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import av
import numpy as np
import pytest

from lecture.clips import find_clip

# tests that share this module's fixtures run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("render-one")

REPO = Path(__file__).resolve().parents[2]
CLIP = find_clip("LectureTitle")  # the shortest scene: the plain manim CLI, twice


def decode(path: Path) -> tuple[float, list[np.ndarray]]:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        frames = [f.to_ndarray(format="rgb24") for f in container.decode(stream)]
        duration = float(stream.duration * stream.time_base)
    return duration, frames


@pytest.fixture(scope="module")
def two_renders(tmp_path_factory) -> list[Path]:
    """Render the scene twice, in parallel, into separate media folders."""
    procs, outputs = [], []
    for k in range(2):
        media = tmp_path_factory.mktemp(f"render{k}")
        cmd = [
            sys.executable,
            "-m",
            "manim",
            "render",
            "-ql",
            "--disable_caching",
            "--media_dir",
            str(media),
            str(CLIP.path),
            CLIP.scene,
        ]
        procs.append(subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
        outputs.append(media / "videos" / CLIP.module / "480p15" / f"{CLIP.scene}.mp4")
    for proc in procs:
        out, _ = proc.communicate(timeout=600)
        assert proc.returncode == 0, out.decode(errors="replace")[-3000:]
    return outputs


@pytest.mark.render
def test_render_writes_a_video_of_the_expected_length(two_renders, scene_run_for_render):
    path = two_renders[0]
    assert path.exists()
    duration, frames = decode(path)
    # a plain dry run keeps each beat's closing hold unquantised, a real render rounds it to whole frames
    # (measured: 13 to 68 ms a beat), so the two may part by up to a frame per beat
    slack = max(0.6, len(scene_run_for_render.scene.beats) / 15)
    assert abs(duration - scene_run_for_render.duration) < slack
    assert frames[0].shape == (480, 854, 3)
    assert max(f.std() for f in frames) > 10.0, "every frame is blank"
    assert path.with_suffix(".srt").read_text().count("-->") >= 5


@pytest.mark.render
def test_two_renders_give_the_same_frames(two_renders):
    """Same frames up to encoder noise: h264 under load can differ by a few levels in a few frames.

    Anything that moved, appeared or changed colour differs by far more than
    the bounds below (a shifted edge alone gives differences near 255).
    """
    _, first = decode(two_renders[0])
    _, second = decode(two_renders[1])
    assert len(first) == len(second)
    for i, (a, b) in enumerate(zip(first, second, strict=True)):
        diff = np.abs(a.astype(int) - b.astype(int))
        assert diff.max() <= 24 and diff.mean() < 0.25, f"frame {i}: max {diff.max()}, mean {diff.mean():.3f}"
