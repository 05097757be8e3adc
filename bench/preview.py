"""A one-beat preview against the whole scene, measured in one run on warm caches.

Renders TemperatureSweep whole at the chosen quality (``render --force``, one
shard, caches warm), then previews one of its beats with its stamp removed, so
the beat renders for real (plan, skipped prefix, the beat's frames, voice,
captions, still). Prints both wall times and their ratio against the goal: a
warm one-beat preview in at most a third of the whole scene's time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from goal import print_ratio  # bench/ is on the path of a script run from it

REPO = Path(__file__).resolve().parents[1]
MEDIA = REPO / "media"
GOAL = 1 / 3


def timed(*args: str) -> float:
    """Wall seconds of ``python -m scenes ARGS`` (which must succeed)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "scenes", *args], cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scene", default="TemperatureSweep")
    parser.add_argument("--beat", default="intermediate", help="the beat to preview (id or slug)")
    parser.add_argument("--quality", default="l")
    args = parser.parse_args()
    common = ("--quality", args.quality, "--media-dir", str(MEDIA))
    timed("preview", args.scene, "--beat", args.beat, *common)  # warm: plan caches, voice, TeX
    for stamp in (MEDIA / "preview" / args.scene).glob(f"*{args.beat}.inputs"):
        stamp.unlink()  # so the preview renders again, for real
    whole = timed("render", args.scene, "--force", "--shards", "1", *common)
    beat = timed("preview", args.scene, "--beat", args.beat, *common)
    print(f"{args.scene} at -q{args.quality}: whole scene {whole:.1f} s, ", end="")
    print(f"one-beat preview ({args.beat}) {beat:.1f} s")
    print_ratio("preview / whole", beat, whole, GOAL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
