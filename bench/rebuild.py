"""A one-beat rebuild against the full render, measured in one run on a copy of the repository.

Copies the code and the warm TeX, text and voice caches to a temporary folder,
renders TemperatureSweep there (``render --force`` at the chosen quality, planned:
every segment rendered and kept), then lengthens one beat's narration by a
sentence and renders again: the build plans the scene, renders the edited beat
alone, takes every other segment (the later ones moved in time) from the
segment cache, joins them by copying packets and lays the voice on. Prints both
wall times and their ratio against the goal: a one-beat rebuild at 1080p60 in
at most a quarter of the full render.

Usage: python bench/rebuild.py [--quality h] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from goal import print_ratio  # noqa: E402  (bench/ is on the path of a script run from it)

from tests.production.shard_helpers import copy_of_the_repository  # noqa: E402  (the tests' copy)

GOAL = 1 / 4
SCENE, MODULE = "TemperatureSweep", "s3_softmax_temperature.py"
SENTENCE = "Back to our items, weighted at the slider's temperature."
LONGER = SENTENCE + " Taller bars take more of the mix."


def timed(repo: Path, *args: str) -> tuple[float, str]:
    """Wall seconds and progress lines of ``python -m scenes ARGS`` in ``repo`` (which must succeed)."""
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(repo)}
    env.pop("DASK_SCHEDULER_ADDRESS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "scenes", *args], cwd=repo, env=env, capture_output=True, text=True
    )
    if proc.returncode:
        raise SystemExit(f"{' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    return time.perf_counter() - start, proc.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quality", default="h")
    parser.add_argument("--jobs", default=str(os.cpu_count() or 1))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rebuild-bench-") as tmp:
        repo = copy_of_the_repository(Path(tmp))
        media = str(repo / "media")
        common = ("render", SCENE, "--quality", args.quality, "--jobs", args.jobs, "--media-dir", media)
        full, _ = timed(repo, *common, "--force")
        module = repo / "scenes" / MODULE
        source = module.read_text()
        if SENTENCE not in source:
            raise SystemExit(f"{MODULE} no longer says {SENTENCE!r}: update bench/rebuild.py")
        module.write_text(source.replace(SENTENCE, LONGER))
        rebuild, log = timed(repo, *common)
    joined = re.search(r"joining (\d+) segments \((\d+) from the cache, (\d+) rendered\)", log)
    what = f"{joined[3]} of {joined[1]} segments rendered" if joined else "segments: not reported"
    print(f"{SCENE} at -q{args.quality} on {args.jobs} workers: full render {full:.1f} s, ", end="")
    print(f"rebuild after one beat's narration changed {rebuild:.1f} s ({what})")
    print_ratio("rebuild / full", rebuild, full, GOAL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
