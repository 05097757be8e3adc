"""Decoding cost per step: reading the KV cache against recomputing causal attention over the prefix.

For T generated tokens (d = 64), the cached decoder appends one (k, v) and attends once per
step; the uncached one recomputes keys' attention for the whole prefix every step.
Prints mean milliseconds per step and the ratio.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attnmath import KVCache, attention, causal_mask  # noqa: E402


def cached(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> float:
    cache = KVCache(q.shape[1], v.shape[1])
    start = time.perf_counter()
    for t in range(len(q)):
        cache.append(k[t], v[t])
        cache.attend(q[t])
    return (time.perf_counter() - start) / len(q)


def recomputed(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> float:
    start = time.perf_counter()
    for t in range(len(q)):
        attention(q[: t + 1], k[: t + 1], v[: t + 1], mask=causal_mask(t + 1))
    return (time.perf_counter() - start) / len(q)


def main() -> None:
    rng = np.random.default_rng(0)
    print(f"{'T':>6} {'cache ms/step':>14} {'recompute ms/step':>18} {'ratio':>7}")
    for t in (128, 512, 1024):
        q, k, v = (rng.normal(size=(t, 64)) for _ in range(3))
        a, b = cached(q, k, v), recomputed(q, k, v)
        print(f"{t:>6} {a * 1e3:>14.3f} {b * 1e3:>18.3f} {b / a:>7.1f}", flush=True)


if __name__ == "__main__":
    main()
