"""all-MiniLM-L6-v2 in numpy: time to read the model, and one forward pass over HeadRouting's sentence.

The load is timed uncached (``load_encoder.__wrapped__``): the first read, then the
median of the reads after it (the files then sit in the page cache). The forward pass
is ``encode_words`` on HeadRouting's default sentence (tokenizer, 6 layers, all
attention weights kept), median of ``--repeats`` runs after one warm-up; then the head
scoring of :func:`attnmath.head_patterns.real_heads` on top. Goals: load < 1 s,
forward < 50 ms.

The BLAS thread count is left to the environment (printed): for a 12-token sentence
threads buy nothing, and on busy shared cores a contended OpenBLAS pool can slow the
pass many times over; ``OPENBLAS_NUM_THREADS=1`` takes it out of the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attnmath.encoder import encode_words, load_encoder  # noqa: E402
from attnmath.head_patterns import real_heads  # noqa: E402
from lecture.sections.s5_multihead import HeadRoutingParameters  # noqa: E402

LOAD_GOAL_S, FORWARD_GOAL_MS = 1.0, 50.0


def timed(fn, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def verdict(ok: bool) -> str:
    return "meets" if ok else "misses"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=20, help="forward passes timed (the median counts)")
    args = parser.parse_args()
    sentence = HeadRoutingParameters().sentence
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(f"all-MiniLM-L6-v2 in numpy, {os.cpu_count()} CPUs, OPENBLAS_NUM_THREADS={threads}")
    first = timed(load_encoder.__wrapped__, 1)[0]
    load = statistics.median(timed(load_encoder.__wrapped__, 5))
    ok, goal = verdict(max(first, load) < LOAD_GOAL_S), f"{LOAD_GOAL_S:g} s"
    print(f"  load: first {first:.3f} s, then median of 5 {load:.3f} s ({ok} the goal of < {goal})")
    load_encoder()
    words = sentence.texts
    run = encode_words(words)  # warm-up
    forward = statistics.median(timed(lambda: encode_words(words), args.repeats)) * 1e3
    print(
        f"  forward: {len(run)} tokens ({' '.join(words)!r}), median of {args.repeats} {forward:.1f} ms "
        f"({verdict(forward < FORWARD_GOAL_MS)} the goal of < {FORWARD_GOAL_MS:.0f} ms)"
    )
    scored = statistics.median(timed(lambda: real_heads(sentence), 5)) * 1e3
    print(f"  forward + head scores and matches (real_heads): median of 5 {scored:.1f} ms")


if __name__ == "__main__":
    main()
