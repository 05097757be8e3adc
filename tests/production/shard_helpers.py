"""Helpers for the shard and cluster tests: the command line in a subprocess, media folders with warm
caches, and frame-by-frame comparison of two videos."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import av
import numpy as np

from tests.test_house import PACKAGES as PARTS  # the code a copy of the repository needs

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str) -> list[str]:
    """The command line ``python -m scenes ARGS``."""
    return [sys.executable, "-m", "scenes", *args]


def clean_env() -> dict[str, str]:
    """This environment without a scheduler address, so a local build stays local."""
    return {k: v for k, v in os.environ.items() if k != "DASK_SCHEDULER_ADDRESS"}


def run_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run the command line to the end; its output captured."""
    return subprocess.run(
        cli(*args), cwd=REPO, capture_output=True, text=True, timeout=timeout, env=clean_env()
    )


def media_with_caches(folder: Path) -> Path:
    """A media folder holding copies of the repository's TeX, text and voice caches, where it has them."""
    media = folder / "media"
    media.mkdir(parents=True)
    for kind in ("Tex", "texts", "voice"):
        if (REPO / "media" / kind).is_dir():
            shutil.copytree(
                REPO / "media" / kind, media / kind, ignore=shutil.ignore_patterns("*_.svg", ".*")
            )
    return media


def frames(path: Path) -> list[np.ndarray]:
    """Every decoded frame of a video in its own pixel format (yuv420p planes: no colour conversion)."""
    with av.open(str(path)) as container:
        return [f.to_ndarray() for f in container.decode(video=0)]


def rgb_frames(path: Path) -> list[np.ndarray]:
    """Every decoded frame of a video as RGB (int16, for differences)."""
    with av.open(str(path)) as container:
        return [f.to_ndarray(format="rgb24").astype(np.int16) for f in container.decode(video=0)]


def assert_same_frames(a: Path, b: Path) -> None:
    """Equal frame by frame, up to encoder noise (far below what a moved or changed object gives)."""
    assert_frames_equal(frames(a), frames(b), a.name)


def assert_frames_equal(first: list[np.ndarray], second: list[np.ndarray], what: str = "video") -> None:
    """Two decoded frame lists equal frame by frame, up to encoder noise."""
    assert len(first) == len(second), f"{what}: {len(first)} frames vs {len(second)}"
    for i, (x, y) in enumerate(zip(first, second, strict=True)):
        diff = np.abs(x.astype(np.int16) - y)
        assert diff.max() <= 24 and diff.mean() < 0.25, f"frame {i}: max {diff.max()}, mean {diff.mean():.3f}"


def copy_of_the_repository(folder: Path) -> Path:
    """The code, manim.cfg and warm caches in ``folder``: edits there never touch the real tree."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in PARTS:
        shutil.copytree(REPO / part, folder / part, ignore=ignore)
    shutil.copy(REPO / "manim.cfg", folder / "manim.cfg")
    for kind in ("Tex", "texts", "voice", "mobjects"):
        if (REPO / "media" / kind).is_dir():
            hidden = shutil.ignore_patterns(".*")
            shutil.copytree(REPO / "media" / kind, folder / "media" / kind, ignore=hidden)
    return folder
