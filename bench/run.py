"""Render-speed figures for ``make bench``: seconds of video per wall-clock second.

For each lecture scene at 480p15 and 1080p60, for the straightforward
temperature sweep (``bench/naive_sweep.py``) and for manim's floor, a 60 s
still frame (``bench/still.py``), all measured in the same run.
Prints a table; never asserts: goals are read off the numbers.

Usage: python bench/run.py [--qualities l,h] [--scenes A,B]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import av

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scenes.lecture import LECTURE  # noqa: E402


def video_seconds(path: Path) -> float:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return float(stream.duration * stream.time_base)


CACHE = REPO / "media"  # the build's shared TeX, text and voice caches


def prepare(scene: str) -> None:
    """Typeset and voice a lecture scene untimed, as the build does before its renders."""
    subprocess.run([sys.executable, "-m", "scenes.build.prepare", str(CACHE), scene], cwd=REPO, check=True)


def render(source: Path, scene: str, quality: str) -> tuple[float, float]:
    """(wall seconds, video seconds) of one fresh render, with the build's warm caches."""
    with tempfile.TemporaryDirectory() as media:
        cfg = Path(media) / "caches.cfg"
        cfg.write_text(f"[CLI]\ntex_dir = {CACHE / 'Tex'}\ntext_dir = {CACHE / 'texts'}\n")
        cmd = [
            sys.executable,
            "-m",
            "manim",
            "render",
            f"-q{quality}",
            "--disable_caching",
            "--progress_bar",
            "none",
            "-v",
            "WARNING",
            "--media_dir",
            media,
            "--config_file",
            str(cfg),
            str(source),
            scene,
        ]
        start = time.perf_counter()
        # as in the build: the scene writes its beats and the voice is laid after the render
        env = {**os.environ, "LECTURE_BEATS_OUT": str(Path(media) / "beats.json")}
        subprocess.run(cmd, cwd=REPO, check=True, env=env)
        wall = time.perf_counter() - start
        video = next(Path(media).glob(f"videos/**/{scene}.mp4"))
        return wall, video_seconds(video)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--qualities", default="l,h")
    parser.add_argument("--scenes", default=",".join(c.scene for c in LECTURE))
    args = parser.parse_args()
    wanted = set(args.scenes.split(","))
    jobs = [(c.path, c.scene) for c in LECTURE if c.scene in wanted]
    jobs.append((REPO / "bench" / "naive_sweep.py", "NaiveTemperatureSweep"))
    jobs.append((REPO / "bench" / "still.py", "HoldStill"))
    # Every render is timed with warm caches, as `make lecture` renders after its first run:
    # the lecture scenes prepared, the straightforward sweep's TeX strings typeset by one untimed run.
    for _, scene in jobs:
        if scene in {c.scene for c in LECTURE}:
            prepare(scene)
    render(REPO / "bench" / "naive_sweep.py", "NaiveTemperatureSweep", "l")
    print(f"{'scene':<26} {'quality':<8} {'video s':>8} {'wall s':>8} {'video s / wall s':>17}")
    factors: dict[tuple[str, str], float] = {}
    walls: dict[tuple[str, str], float] = {}
    for quality in args.qualities.split(","):
        for source, scene in jobs:
            wall, video = render(source, scene, quality)
            factors[(scene, quality)] = video / wall
            walls[(scene, quality)] = wall / video
            print(
                f"{scene:<26} {quality:<8} {video:8.1f} {wall:8.1f} {video / wall:17.2f}",
                flush=True,
            )
    print()
    for quality in args.qualities.split(","):
        naive = factors[("NaiveTemperatureSweep", quality)]
        fast = factors.get(("TemperatureSweep", quality))
        if fast is None:
            continue
        floor = walls[("HoldStill", quality)] / walls[("TemperatureSweep", quality)]
        print(
            f"TemperatureSweep at -q{quality}: real-time factor {fast:.2f} (goal >= 4 at -ql); "
            f"{fast / naive:.1f}x faster per second of video than the always_redraw version (goal >= 20x); "
            f"render time per video second {1 / floor:.2f}x that of a still frame (goal <= 1.25 at -qh)"
        )


if __name__ == "__main__":
    main()
