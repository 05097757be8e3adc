"""Whole-lecture build times: wall time and real-time factor per quality and --jobs, and a no-change rebuild.

Usage: python bench/lecture.py [--qualities l,h] [--jobs 1,2] [--lectures 20] [--workers 1,8,64]

Each measured build starts from an empty media folder (--force would also work) and
renders every scene of the lecture through ``python -m scenes build``. Goals: the
whole lecture at 480p15 in under 2 minutes, at 1080p60 with 2 workers no longer than
the lecture lasts, a no-change rebuild in under 10 seconds.

From the largest --jobs build's progress lines (each shard's and join's seconds, the
prepare step's, the publishing after the last clip) it predicts the wall time of a
course of --lectures such lectures on each of --workers workers. The model: the course
runs in four phases, one after another: every lecture's prepare step, every clip's
shards, every clip's join and voice, every lecture's publishing; each phase is spread
over the workers longest job first. A clip is cut into the shards the build's own rule
gives (production.render.cut.auto_shards) for the course's clips and that many workers;
each shard costs the clip's measured render over n, plus a start-up (import, building
the scene, skipping to its range) taken as the prepare step's time per scene, for every
shard but the first. A build whose clips are not cut skips the prepare step (each render
typesets and speaks for itself); the model then takes the start-up as
``production.render.cut.SHARD_STARTUP`` and, for a course whose clips are cut, a prepare
step of one start-up per scene.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from atomic_files.shared import SWITCH  # noqa: E402
from production.options import QUALITIES  # noqa: E402
from production.render.cut import SHARD_STARTUP, auto_shards, min_shard_seconds  # noqa: E402
from production.render.timeline import Timeline  # noqa: E402

BOARD = r"\[[^\]]*?(\d+\.\d)s\] "  # the elapsed seconds at the start of each progress line


@dataclass(frozen=True)
class Costs:
    """One lecture build's costs: per scene (render s, join s, video s, animations); prepare; publishing."""

    scenes: dict[str, tuple[float, float, float, int]]
    prepare: float
    publish: float


def measured(log: str, wall: float, manifest: dict) -> Costs:
    """Read the build's progress lines: shard renders, clip totals, the prepare step, the last clip's time."""
    renders: dict[str, float] = {}
    counted: dict[str, int] = {}
    shard_line = BOARD + r"(\S+)(?: \[\d+/\d+\])?: rendered in ([\d.]+)s \((\d+) animations\)\n"
    for _, scene, seconds, count in re.findall(shard_line, log):
        renders[scene] = renders.get(scene, 0.0) + float(seconds)
        counted[scene] = counted.get(scene, 0) + int(count)
    totals = {s: float(t) for _, s, t in re.findall(BOARD + r"(\S+): rendered in ([\d.]+)s.* -> ", log)}
    plan = re.search(r"planned in ([\d.]+)s; shards: (.*)", log)
    ready = re.search(BOARD + "all clips ready", log)
    if ready is None or not renders:
        raise RuntimeError(f"unexpected build output:\n{log}")
    durations = {c["scene"]: c["duration"] for c in manifest["clips"]}
    scenes = {s: (renders[s], totals[s] - renders[s], durations[s], counted[s]) for s in renders}
    costs = Costs(scenes, float(plan[1]) if plan else 0.0, wall - float(ready[1]))
    renders_s, joins_s = sum(r for r, _, _, _ in scenes.values()), sum(j for _, j, _, _ in scenes.values())
    print(
        f"         where the time went: prepare {costs.prepare:.0f} s; renders {renders_s:.0f} s and joins "
        f"with voice {joins_s:.0f} s of job time; publishing after the last clip {costs.publish:.0f} s",
        flush=True,
    )
    return costs


def longest_first(jobs: list[float], workers: int) -> float:
    """Makespan of ``jobs`` on ``workers``, each job to the least loaded worker, longest job first."""
    loads = [0.0] * workers
    for job in sorted(jobs, reverse=True):
        heapq.heappush(loads, heapq.heappop(loads) + job)
    return max(loads)


def predict(costs: Costs, quality: str, lectures: int, workers: int) -> float:
    """Predicted wall seconds of a course of ``lectures`` such lectures on ``workers`` (model above)."""
    startup = costs.prepare / len(costs.scenes) if costs.prepare else SHARD_STARTUP
    timelines = [Timeline(s, 60.0, d, ((1, False),) * a) for s, (_, _, d, a) in costs.scenes.items()]
    share = auto_shards(timelines * lectures, workers, min_shard_seconds(quality))
    cut = any(n > 1 for n in share.values())  # then each lecture is planned first
    prepare = costs.prepare or (startup * len(costs.scenes) if cut else 0.0)
    shards = [
        render / share[s] + startup * (share[s] - 1) / share[s]
        for s, (render, _, _, _) in costs.scenes.items()
        for _ in range(share[s])
    ]
    joins = [join for _, join, _, _ in costs.scenes.values()]
    return (
        longest_first([prepare] * lectures, workers)
        + longest_first(shards * lectures, workers)
        + longest_first(joins * lectures, workers)
        + longest_first([costs.publish] * lectures, workers)
    )


def build(media: Path, quality: str, jobs: int) -> tuple[float, str]:
    """(wall seconds, progress output) of one ``python -m scenes build``."""
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
    cold = {**os.environ, SWITCH: "off"}  # an empty media folder on a new machine: nothing typeset or spoken
    proc = subprocess.run(
        cmd, cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=cold
    )
    return time.perf_counter() - start, proc.stderr


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--qualities", default="l,h")
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--lectures", type=int, default=20)
    parser.add_argument("--workers", default="1,8,64")
    args = parser.parse_args()
    print(f"{'quality':<8} {'jobs':>4} {'video s':>8} {'wall s':>8} {'video s / wall s':>17}")
    for quality in args.qualities.split(","):
        for jobs in (int(j) for j in args.jobs.split(",")):
            with tempfile.TemporaryDirectory() as tmp:
                media = Path(tmp)
                wall, log = build(media, quality, jobs)
                folder = media / "lecture" / QUALITIES[quality].folder
                manifest = json.loads((folder / "manifest.json").read_text())
                video = manifest["lecture"]["duration"]
                print(f"{quality:<8} {jobs:>4} {video:8.1f} {wall:8.1f} {video / wall:17.2f}", flush=True)
                if jobs == int(args.jobs.split(",")[-1]):
                    print(
                        f"{quality:<8} {jobs} workers: wall {wall / video:.2f}x the lecture's length "
                        "(goal at h with 2: <= 1)",
                        flush=True,
                    )
                    course(measured(log, wall, manifest), quality, args.lectures, args.workers)
                    again, _ = build(media, quality, jobs)
                    print(f"{quality:<8} no-change rebuild: {again:.1f} s (goal < 10 s)", flush=True)


def course(costs: Costs, quality: str, lectures: int, workers: str) -> None:
    """Print the predicted wall time of a course on each number of ``workers``."""
    for w in (int(n) for n in workers.split(",")):
        seconds = predict(costs, quality, lectures, w)
        print(
            f"{quality:<8} {lectures} lectures on {w:>3} worker(s): {seconds / 60:7.1f} min predicted",
            flush=True,
        )


if __name__ == "__main__":
    main()
