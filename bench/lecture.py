"""Whole-lecture build times: wall time and real-time factor per quality and --jobs, and a no-change rebuild.

Usage: python bench/lecture.py [--qualities l,h] [--jobs 1,2]

Each measured build starts from an empty media folder (--force would also work) and
renders every scene of the lecture through ``python -m scenes build``. Goals: the
whole lecture at 480p15 in under 2 minutes, at 1080p60 at least half real time,
a no-change rebuild in under 10 seconds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESOLUTION = {"l": "480p15", "m": "720p30", "h": "1080p60", "k": "2160p60"}


def build(media: Path, quality: str, jobs: int) -> float:
    cmd = [
        sys.executable,
        "-m",
        "scenes",
        "build",
        "--quality",
        quality,
        "--jobs",
        str(jobs),
        "--media-dir",
        str(media),
    ]
    start = time.perf_counter()
    subprocess.run(cmd, cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--qualities", default="l,h")
    parser.add_argument("--jobs", default="1,2")
    args = parser.parse_args()
    print(f"{'quality':<8} {'jobs':>4} {'video s':>8} {'wall s':>8} {'video s / wall s':>17}")
    for quality in args.qualities.split(","):
        for jobs in (int(j) for j in args.jobs.split(",")):
            with tempfile.TemporaryDirectory() as tmp:
                media = Path(tmp)
                wall = build(media, quality, jobs)
                manifest = json.loads((media / "lecture" / RESOLUTION[quality] / "manifest.json").read_text())
                video = manifest["lecture"]["duration"]
                print(f"{quality:<8} {jobs:>4} {video:8.1f} {wall:8.1f} {video / wall:17.2f}", flush=True)
                if jobs == int(args.jobs.split(",")[-1]):
                    again = build(media, quality, jobs)
                    print(f"{quality:<8} no-change rebuild: {again:.1f} s (goal < 10 s)", flush=True)


if __name__ == "__main__":
    main()
