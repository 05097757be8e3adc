"""A one-beat preview against the whole scene, measured in one run on warm caches.

Renders TemperatureSweep whole at the chosen quality (``render --force``, one
shard, caches warm), then previews one of its beats with its stamp removed, so
the beat renders for real (plan, skipped prefix, the beat's frames, voice,
captions, still). Prints both wall times and their ratio against the goal: a
warm one-beat preview in at most a third of the whole scene's time.

Then the warm watch loop's two latencies, each from a file's save to the
watch's line that the edited beat's clip is published (voice, captions, last
frame): ``preview TemperatureSweep --beat prior --watch`` at 480p15 in a copy
of the code with warm caches, its narration lengthened by a sentence never
spoken before (drawn from the process kept at the beat's start; goal under
5 s), then its picture changed in code (its first animation's run time: one
replay of the edited scene in a fork of the warm process; goal under 10 s).
"""

from __future__ import annotations

import argparse
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from goal import print_ratio  # bench/ is on the path of a script run from it

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.production.shard_helpers import copy_of_the_repository  # noqa: E402  (the tests' copy)

MEDIA = REPO / "media"
GOAL = 1 / 3


def timed(*args: str) -> float:
    """Wall seconds of ``python -m scenes ARGS`` (which must succeed)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "scenes", *args], cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - start


WATCHED, BEAT, MODULE = "TemperatureSweep", "prior", "s3_softmax_temperature.py"
NARRATION = "uniform r only lowers J, by tau log N."
CODE = ("self.play(cool, FadeOut(self.mean_marks), run_time=1.0)", "run_time=1.0", "run_time=1.2")
GOALS = {"narration edit": 5.0, "code edit": 10.0}


def _lines(proc: subprocess.Popen[str]) -> queue.Queue[str]:
    got: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            got.put(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    return got


def _until(lines: queue.Queue[str], word: str, timeout: float = 600) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        if line.startswith("error:"):
            raise SystemExit(f"the watch failed: {line}")
        if word in line:
            return line
    raise SystemExit(f"no line with {word!r} within {timeout:.0f} s")


def _edit(module: Path, old: str, new: str, lines: queue.Queue[str]) -> float:
    """Save ``module`` with ``old`` replaced; seconds until the beat's clip is published."""
    source = module.read_text()
    if old not in source:
        raise SystemExit(f"{module.name} no longer says {old!r}: update bench/watch.py")
    saved = time.perf_counter()
    module.write_text(source.replace(old, new, 1))
    _until(lines, f"-{BEAT}: rendered in")
    return time.perf_counter() - saved


def watch_latencies() -> None:
    with tempfile.TemporaryDirectory(prefix="watch-bench-") as tmp:
        repo = copy_of_the_repository(Path(tmp) / "repo")
        args = [
            "preview",
            WATCHED,
            "--beat",
            BEAT,
            "--watch",
            "--quality",
            "l",
            "--media-dir",
            str(repo / "media"),
        ]
        proc = subprocess.Popen(
            [sys.executable, "-m", "scenes", *args],
            cwd=repo,
            env={**os.environ, "PYTHONPATH": str(repo)},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        lines = _lines(proc)
        try:
            _until(lines, "watching")
            time.sleep(1.0)  # the watcher is listening again after the first render
            module = repo / "scenes" / MODULE
            sentence = f" Said once at {time.time():.0f}."
            figures = {"narration edit": _edit(module, NARRATION, NARRATION + sentence, lines)}
            time.sleep(1.0)
            figures["code edit"] = _edit(module, CODE[0], CODE[0].replace(CODE[1], CODE[2]), lines)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)
        captions = next((repo / "media" / "preview" / WATCHED).glob(f"*-{BEAT}.srt")).read_text()
        if sentence.split()[-1] not in captions:
            raise SystemExit("the edited narration is not in the published captions")
    print(f"watch loop, {WATCHED} beat {BEAT!r} at -ql, from the save to the clip published:")
    for name, seconds in figures.items():
        verdict = "meets" if seconds < GOALS[name] else "misses"
        print(f"  {name} = {seconds:.1f} s ({verdict} the goal of under {GOALS[name]:.0f} s)")


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
    watch_latencies()
    return 0


if __name__ == "__main__":
    sys.exit(main())
