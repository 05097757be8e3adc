"""Naive references for what section 6 says of the real decoder, computed apart from the section's code.

Each reads :func:`attnmath.decoder.forward` (tested against known continuations in
tests/attnmath/test_decoder.py) and recomputes the readout by hand: a loop over the
heads' attention for the sink count; log-softmax of the logits, under masks built by a
loop, for the mean losses. Each runs once per process (the model load is cached too).
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
from scipy.special import log_softmax

from attnmath.decoder import forward, tokenize
from attnmath.decoder_probes import repeated_random_tokens

READING = Path(__file__).resolve().parents[1] / "lecture" / "sections" / "data" / "s6_reading.txt"
WINDOW, SINKS = 64, 4  # the eviction StreamingLLM measures: the last 64 keys, and the first 4 kept
REPEATED, SEED = 20, 0  # section 5's random sequence, repeated once


@functools.cache
def head_shares() -> tuple[int, int, np.ndarray]:
    """(heads, queries counted, (2, L, H) each head's mean share on the first token and on the one before),
    by a loop over the attention of section 5's random sequence, repeated."""
    attention = forward(repeated_random_tokens(REPEATED, seed=SEED)).attention  # (L, H, T, T)
    layers, heads, t, _ = attention.shape
    share = np.zeros((2, layers, heads))
    for layer in range(layers):
        for head in range(heads):
            share[0, layer, head] = sum(attention[layer, head, q, 0] for q in range(1, t)) / (t - 1)
            share[1, layer, head] = sum(attention[layer, head, q, q - 1] for q in range(1, t)) / (t - 1)
    return layers * heads, t - 1, share


def sink_heads() -> tuple[int, int, np.ndarray]:
    """(heads with over half their weight on position 0, all heads, each head's mean share), by a loop."""
    heads, _, share = head_shares()
    return sum(1 for s in share[0].flat if s > 0.5), heads, share[0]


def loop_mask(n: int, window: int, sinks: int) -> np.ndarray:
    """Query t may read key j when j <= t and j is among the last ``window`` keys or the first ``sinks``."""
    allowed = np.zeros((n, n), dtype=bool)
    for t in range(n):
        for j in range(t + 1):
            allowed[t, j] = t - j < window or j < sinks
    return allowed


@functools.cache
def token_nlls() -> tuple[int, int, np.ndarray]:
    """(tokens, first counted prediction, (3, tokens - 1) NLLs: full, window, sinks + window)."""
    ids = tokenize(READING.read_text(encoding="utf-8").rstrip("\n"))
    n, start = len(ids), 2 * WINDOW  # predictions after the first token has left the window
    rows = []
    for allowed in (None, loop_mask(n, WINDOW, 0), loop_mask(n, WINDOW, SINKS)):
        logits = forward(ids, allowed=allowed).logits.astype(np.float64)
        rows.append(-log_softmax(logits[:-1], axis=-1)[np.arange(n - 1), ids[1:]])  # t predicts t + 1
    return n, start, np.array(rows)


def mean_nlls() -> tuple[int, int, tuple[float, float, float]]:
    """(tokens, first counted prediction, mean NLL in nats under full, window, sinks + window)."""
    n, start, rows = token_nlls()
    full, windowed, with_sinks = (float(row[start:].mean()) for row in rows)
    return n, start, (full, windowed, with_sinks)


def trailing(values: np.ndarray, width: int) -> list[float]:
    """The mean of each run of ``width`` consecutive values, by a loop over the runs."""
    return [sum(values[k : k + width]) / width for k in range(len(values) - width + 1)]


def perplexities() -> list[str]:
    """The three mean losses' perplexities, rounded as the voice says them."""
    return [str(round(math.exp(x))) for x in mean_nlls()[2]]
