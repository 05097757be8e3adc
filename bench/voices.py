"""Synthesis speed of the draft voices on the whole lecture's narration, cold, across the build's workers.

The lecture's beats (a dry run of every scene, as ``python -m scenes script``
reads them) are split into the caption chunks the narrator speaks, and every
chunk is synthesised into an empty cache by each engine, on ``--jobs``
processes as the build's workers would. Prints, per engine: chunks, seconds of
speech, wall seconds, speed (speech seconds per wall second) and the pace in
words a minute (speech only, silence trimmed).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atomic_files.shared import SWITCH  # noqa: E402
from lecture.clips import LECTURE  # noqa: E402
from lecture.config import LectureConfig  # noqa: E402
from narration.engines import FESTIVAL_ENGINE, PIPER_ENGINE  # noqa: E402
from narration.narrator import split_cues  # noqa: E402
from narration.recordings import wav_info  # noqa: E402
from narration.voice import synthesise  # noqa: E402

ENGINES = {engine.name: engine for engine in (PIPER_ENGINE, FESTIVAL_ENGINE)}
os.environ[SWITCH] = "off"  # cold: every chunk spoken, none copied from the machine's shared voice files
from production.publish.script import scene_beats  # noqa: E402


def lecture_chunks() -> list[str]:
    """Every caption chunk of the default lecture, in order."""
    config = LectureConfig()
    return [chunk for clip in LECTURE for b in scene_beats(clip, config) for chunk in split_cues(b.text)]


def _speak(args: tuple[str, str, str]) -> float:
    text, cache, engine = args
    sr, samples = wav_info(synthesise(text, Path(cache), ENGINES[engine]))
    return samples.size / sr


def measure(chunks: list[str], engine: str, jobs: int) -> tuple[float, float]:
    """(speech seconds, wall seconds) to synthesise ``chunks`` cold with ``engine`` on ``jobs`` processes."""
    with tempfile.TemporaryDirectory() as cache, ProcessPoolExecutor(jobs) as pool:
        start = time.perf_counter()
        speech = sum(pool.map(_speak, [(c, cache, engine) for c in chunks]))
        return speech, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--engines", default="piper,festival")
    args = parser.parse_args()
    chunks = lecture_chunks()
    words = sum(len(c.split()) for c in chunks)
    print(f"the lecture's narration: {len(chunks)} chunks, {words} words; {args.jobs} workers, cold cache")
    print(f"{'engine':>9} {'speech s':>9} {'wall s':>7} {'x real time':>12} {'words/min':>10}")
    for engine in args.engines.split(","):
        speech, wall = measure(chunks, engine, args.jobs)
        print(f"{engine:>9} {speech:9.1f} {wall:7.1f} {speech / wall:11.1f}x {60 * words / speech:10.0f}")


if __name__ == "__main__":
    main()
