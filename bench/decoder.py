"""SmolLM2-135M-Instruct in numpy: time to load the model, one full forward pass, one cached decode step.

The load is timed uncached by the process (``read_decoder``): cold, reading and
dequantising the GGUF file (the cache of dequantised weights bypassed), then warm,
from that cache (median of 3; the cache is written first if missing). The forward
pass is :func:`attnmath.decoder.forward` on 64 tokens of a fixed text (every
layer's attention, keys and values kept), median of ``--repeats`` after one
warm-up. The decode step is :meth:`IncrementalDecoder.append` with 32 tokens
already cached, median of ``--repeats``. Goals: warm load < 3 s, pass < 1 s, decode
step < 50 ms (on 2 cores).

The BLAS thread count is left to the environment (printed); on busy shared cores the
figures vary by tens of percent.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attnmath.decoder import forward, tokenize  # noqa: E402
from attnmath.decoder_cache import IncrementalDecoder  # noqa: E402
from attnmath.decoder_weights import load_decoder, read_decoder  # noqa: E402

WARM_LOAD_GOAL_S, PASS_GOAL_S, STEP_GOAL_MS = 3.0, 1.0, 50.0
TEXT = (
    "Attention lets each word take a weighted mix of all the words, with weights that depend on "
    "what they say. A decoder reads left to right: each token attends to the tokens before it, and "
    "a cache keeps their keys and values so that the next token costs one step, not a whole pass."
)


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
    parser.add_argument("--repeats", type=int, default=10, help="passes and steps timed (the median counts)")
    args = parser.parse_args()
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(f"SmolLM2-135M-Instruct in numpy, {os.cpu_count()} CPUs, OPENBLAS_NUM_THREADS={threads}")
    cold = timed(lambda: read_decoder(use_cache=False), 1)[0]
    read_decoder()  # writes the cache if it is missing
    warm = statistics.median(timed(read_decoder, 3))
    print(
        f"  load: cold (GGUF, dequantised) {cold:.2f} s; warm (cache) median of 3 {warm:.2f} s "
        f"({verdict(warm < WARM_LOAD_GOAL_S)} the goal of < {WARM_LOAD_GOAL_S:g} s)"
    )
    load_decoder()
    ids = np.resize(tokenize(TEXT), 64)
    forward(ids)  # warm-up
    full = statistics.median(timed(lambda: forward(ids), args.repeats))
    print(
        f"  forward: 64 tokens, median of {args.repeats} {full * 1e3:.0f} ms "
        f"({verdict(full < PASS_GOAL_S)} the goal of < {PASS_GOAL_S:g} s)"
    )
    decoder = IncrementalDecoder()
    for i in ids[:32]:
        decoder.append(int(i))
    steps = iter(ids[32:].tolist())
    step = statistics.median(timed(lambda: decoder.append(next(steps)), min(args.repeats, 32))) * 1e3
    print(
        f"  decode step: 33rd token onto a cache of 32, median of {min(args.repeats, 32)} {step:.1f} ms "
        f"({verdict(step < STEP_GOAL_MS)} the goal of < {STEP_GOAL_MS:.0f} ms)"
    )


if __name__ == "__main__":
    main()
