"""A render into an empty media folder, with and without the machine's shared files, in one run.

``python -m scenes render SCENE --quality l --media-dir EMPTY`` twice, each into a
new empty media folder, with the shared files (``atomic_files.shared``) in a
temporary ``XDG_CACHE_HOME`` of their own: the first starts with none (the
baseline: it typesets, parses and speaks everything, and shares it), the second
finds them all. Both videos must be byte-identical. Goal: the second render in at
most 0.6 of the first's wall time.

Usage: python bench/shared_caches.py [--scene LectureTitle]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.goal import print_ratio  # noqa: E402
from production.options import RenderOptions  # noqa: E402

GOAL = 0.6


def render(scene: str, media: Path, env: dict[str, str]) -> tuple[float, bytes]:
    """(wall seconds, the video's bytes) of one render of ``scene`` into ``media``."""
    cmd = [sys.executable, "-m", "scenes", "render", scene, "--quality", "l", "--media-dir", str(media)]
    start = time.perf_counter()
    subprocess.run(cmd, cwd=REPO, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    return wall, (media / "clips" / RenderOptions("l").variant / f"{scene}.mp4").read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scene", default="LectureTitle")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp, "user-cache"))}
        env.pop("ATTENTION_LECTURE_SHARED", None)
        cold, first = render(args.scene, Path(tmp, "one"), env)
        warm, second = render(args.scene, Path(tmp, "two"), env)
    same = "identical" if first == second else "DIFFERENT"
    print(f"{args.scene} at 480p15 into an empty media folder: {cold:.1f} s with nothing shared yet,")
    print(f"  {warm:.1f} s with the shared files; the two videos are {same}")
    print_ratio("shared / cold", warm, cold, GOAL)
    if first != second:
        raise SystemExit("the shared files changed the video: a bug")


if __name__ == "__main__":
    main()
