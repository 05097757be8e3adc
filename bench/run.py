"""Render-speed figures for ``make bench``: seconds of video per wall-clock second.

For each lecture scene at 480p15 and 1080p60, for the straightforward
temperature sweep (``bench/naive_sweep.py``) and for manim's floor, a 60 s
still frame (``bench/still.py``), all measured in the same run.
Prints a table; never asserts: goals are read off the numbers.

At 1080p60 (``--shard-qualities``, default h) it also renders TemperatureSweep through
the build (``production.render.pipeline``) whole and in two shards (``--shards 1,2``) on as
many local workers, with warm TeX, text and voice caches, and prints the wall time of
each (from the start of the build to the finished, voiced clip: the two shards' plan
included, which one whole clip does not need) and the speed-up (goal: at least 1.7x with
2 shards on 2 cores). ``--only-shards`` prints only these figures, at ``--qualities``.

At 480p15 the three renders the goals compare (TemperatureSweep, the straightforward
sweep, the still frame) are each rendered ``--repeat`` times (default 3) and the fastest
counts; every other render runs once.

Usage: python bench/run.py [--qualities l,h] [--scenes A,B] [--shards 1,2] [--only-shards] [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from lecture.clips import LECTURE  # noqa: E402
from lecture.settings import SceneSettings  # noqa: E402
from production.media.video import probe  # noqa: E402
from production.render.manim_run import config_with_caches  # noqa: E402


def video_seconds(path: Path) -> float:
    return probe(path).duration


GOAL_SCENES = {"TemperatureSweep", "NaiveTemperatureSweep", "HoldStill"}
"""At 480p15 these render in seconds and a single run can be 20% off on a busy 2-core machine, so
each is rendered ``--repeat`` times and the fastest run counts (the run least disturbed)."""

CACHE = REPO / "media"  # the build's shared TeX, text and voice caches


def prepare(scene: str) -> None:
    """Typeset and voice a lecture scene untimed, as the build does before its renders."""
    prepare = [sys.executable, "-m", "production.render.prepare", str(CACHE), scene]
    subprocess.run(prepare, cwd=REPO, check=True)


def render(source: Path, scene: str, quality: str) -> tuple[float, float]:
    """(wall seconds, video seconds) of one fresh render, with the build's warm caches."""
    with tempfile.TemporaryDirectory() as media:
        cfg = Path(media) / "caches.cfg"
        cfg.write_text(config_with_caches(CACHE))  # manim.cfg's settings, as in the build
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
        env = {**os.environ, **SceneSettings(beats_out=Path(media) / "beats.json").env()}
        subprocess.run(cmd, cwd=REPO, check=True, env=env)
        wall = time.perf_counter() - start
        video = next(Path(media).glob(f"videos/**/{scene}.mp4"))
        return wall, video_seconds(video)


def seeded_media(folder: Path) -> Path:
    """A media folder with copies of the build's TeX, text and voice caches (warm, as after a first build)."""
    media = folder / "media"
    for kind in ("Tex", "texts", "voice"):
        if (CACHE / kind).is_dir():
            shutil.copytree(CACHE / kind, media / kind, ignore=shutil.ignore_patterns("*_.svg", ".*"))
    return media


def _stamp(log: str, what: str) -> float:
    """Elapsed seconds on the build's progress line that says ``what``."""
    found = re.search(rf"(\d+\.\d)s\] {what}", log)
    if found is None:
        raise RuntimeError(f"no progress line {what!r} in:\n{log}")
    return float(found[1])


def sharded_render(scene: str, quality: str, shards: int) -> tuple[float, float, tuple[float, ...], float]:
    """(wall seconds, of which the plan, each shard's seconds, join and voice seconds) of one render.

    Caches are warm (TeX, text, voice); one shard needs no plan (``planning.plan_needed``).
    """
    from lecture.clips import find_clip
    from lecture.config import LectureConfig
    from production.options import BuildRequest, RenderOptions
    from production.render.pipeline import render_clips

    options = RenderOptions(quality)
    with tempfile.TemporaryDirectory() as tmp:
        media = seeded_media(Path(tmp))
        log = io.StringIO()
        settings = LectureConfig().settings().replace(voice_cache=media / "voice")
        clip = find_clip(scene)
        out = media / "clips" / options.variant
        request = BuildRequest(
            [clip], options, out, jobs=shards, shards=shards, settings=settings, force=True
        )
        [result] = render_clips(request, stream=log)
        text = log.getvalue()
    planned = _stamp(text, "planned in") if "planned in" in text else 0.0
    return _stamp(text, "all clips ready"), planned, result.shard_seconds, result.join_seconds


def shard_figures(scene: str, qualities: list[str], counts: list[int]) -> None:
    """Print the wall time of ``scene`` rendered in each of ``counts`` shards, and the speed-ups."""
    for quality in qualities:
        walls = {}
        for n in counts:
            walls[n], planned, parts, join = sharded_render(scene, quality, n)
            shown = ", ".join(f"{p:.1f}" for p in parts)
            print(
                f"{scene} -q{quality}, {n} shard(s) on {n} worker(s): {walls[n]:.1f} s wall "
                f"(plan {planned:.1f} s; shards {shown} s; join and voice {join:.1f} s)",
                flush=True,
            )
        for n in counts[1:]:
            print(
                f"{scene} -q{quality}: {n} shards {walls[counts[0]] / walls[n]:.2f}x faster than "
                f"{counts[0]} (goal >= 1.7x for 2 on 2 cores)",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--qualities", default="l,h")
    parser.add_argument("--scenes", default=",".join(c.scene for c in LECTURE))
    parser.add_argument("--shards", default="1,2", help="shard counts for TemperatureSweep ('' to skip)")
    parser.add_argument("--shard-scene", default="TemperatureSweep")
    parser.add_argument("--shard-qualities", default="h", help="qualities of the shard figures")
    parser.add_argument("--only-shards", action="store_true", help="skip the per-scene table")
    parser.add_argument(
        "--repeat", type=int, default=3, help="renders of the three goal scenes at -ql; the fastest counts"
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.shards.split(",") if n]
    if args.only_shards:
        shard_figures(args.shard_scene, args.qualities.split(","), counts)
        return
    shard_qualities = [q for q in args.qualities.split(",") if q in args.shard_qualities.split(",")]
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
            times = args.repeat if quality == "l" and scene in GOAL_SCENES else 1
            wall, video = min(render(source, scene, quality) for _ in range(max(1, times)))
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
    if counts and args.shard_scene in wanted and shard_qualities:
        print()
        shard_figures(args.shard_scene, shard_qualities, counts)


if __name__ == "__main__":
    main()
