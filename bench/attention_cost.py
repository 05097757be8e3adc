"""Softmax attention against linear attention: wall time for N from 16 to 16384 (d = 64).

Prints the table, the fitted scaling exponents and the crossover N. With
``--write`` it also stores the measurements in ``scenes/data/attention_cost.json``,
which the KernelVariants scene plots (so the scene's frames stay reproducible).

Softmax attention is run over blocks of 1024 queries so that the (N, N) score
matrix never sits in memory whole; the work is the same O(N^2 d).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from attnmath import attention, linear_attention  # noqa: E402

DATA = REPO / "scenes" / "data" / "attention_cost.json"


def softmax_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, block: int = 1024) -> np.ndarray:
    return np.concatenate([attention(q[i : i + block], k, v).output for i in range(0, len(q), block)])


def best_time(fn, *args, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def fit_exponent(ns: np.ndarray, ts: np.ndarray) -> float:
    """Slope of log t against log n over the upper half of the sizes."""
    half = len(ns) // 2
    return float(np.polyfit(np.log(ns[half:]), np.log(ts[half:]), 1)[0])


def crossover(ns: np.ndarray, soft: np.ndarray, lin: np.ndarray) -> float | None:
    """First N (log-interpolated) from which linear attention is faster, or None."""
    diff = np.log(soft) - np.log(lin)
    for i in range(1, len(ns)):
        if diff[i - 1] <= 0 < diff[i]:
            frac = -diff[i - 1] / (diff[i] - diff[i - 1])
            return float(np.exp(np.log(ns[i - 1]) + frac * (np.log(ns[i]) - np.log(ns[i - 1]))))
    return float(ns[0]) if diff[0] > 0 else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-n", type=int, default=16384)
    parser.add_argument("--write", action="store_true", help=f"store results in {DATA.relative_to(REPO)}")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    ns = [n for n in (16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384) if n <= args.max_n]
    d = 64
    soft, lin = [], []
    print(f"{'N':>6} {'softmax s':>10} {'linear s':>10}")
    for n in ns:
        q, k, v = (rng.normal(size=(n, d)) / d**0.25 for _ in range(3))
        soft.append(best_time(softmax_attention, q, k, v, repeats=1 if n >= 8192 else 3))
        lin.append(best_time(linear_attention, q, k, v))
        print(f"{n:>6} {soft[-1]:>10.4f} {lin[-1]:>10.4f}", flush=True)
    n_arr, s_arr, l_arr = np.array(ns, float), np.array(soft), np.array(lin)
    result = {
        "d": d,
        "n": ns,
        "softmax_seconds": soft,
        "linear_seconds": lin,
        "softmax_exponent": fit_exponent(n_arr, s_arr),
        "linear_exponent": fit_exponent(n_arr, l_arr),
        "crossover_n": crossover(n_arr, s_arr, l_arr),
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
    }
    print(
        f"fitted exponents: softmax {result['softmax_exponent']:.2f}, linear {result['linear_exponent']:.2f}"
    )
    cross = result["crossover_n"]
    if cross is None:
        print("crossover: softmax attention was faster at every N measured")
    elif cross == ns[0]:
        print(f"crossover: linear attention was faster at every N measured (from N = {ns[0]})")
    else:
        print(f"crossover: linear attention is faster from N ~ {cross:.0f}")
    if args.write:
        DATA.write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {DATA}")


if __name__ == "__main__":
    main()
