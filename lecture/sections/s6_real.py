"""Section 6 on a real decoder, SmolLM2-135M-Instruct: its cache per token, its sink heads, and eviction.

What section 6's scene draws after the hypothetical 7B figure, computed once per
process with :mod:`attnmath.decoder` and :mod:`attnmath.decoder_probes`, for the
scene, its questions and its Explore figure alike:

- :func:`real_memory`: the fp16 cache per token with grouped-query attention (3
  key-value heads serve the 9 query heads) and without it (9 key-value heads);
- :func:`real_sinks`: every head's share of weight on the first token of a random
  sequence repeated twice, and how many heads put over half there;
- :func:`real_decoding`: a sentence fed one token at a time through a real KV cache, one
  head's causal weights row by row, and how far the cached steps' scores stray from one
  full pass (they should not);
- :func:`real_eviction`: the mean loss per token on :data:`READING`, a passage the
  lecture ships, under full attention, a sliding window of :data:`WINDOW` tokens,
  and :data:`SINKS` sink tokens plus the window (StreamingLLM's cache). Positions
  stay absolute: the window is a mask, not a renumbered cache.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from attnmath.decoder import cache_bytes, forward, token_texts, tokenize
from attnmath.decoder_cache import IncrementalDecoder
from attnmath.decoder_probes import SINK_SHARE, WindowNll, trailing_mean, window_nll
from attnmath.decoder_spec import D_HEAD, MODEL_FILE, MODEL_NAME, N_HEADS, N_KV_HEADS, N_LAYERS
from lecture.section import floats
from lecture.sections.s5_induction import induction

__all__ = [
    "MODEL_NAME",
    "WEIGHT_BITS",
    "READING",
    "WINDOW",
    "SINKS",
    "SINK_LENGTH",
    "SINK_SEED",
    "RealMemory",
    "RealSinks",
    "reading",
    "real_memory",
    "real_sinks",
    "real_eviction",
    "kib",
    "decoder_figure",
    "MAX_DECODED",
    "RealDecoding",
    "real_decoding",
    "sentence_text",
]

WEIGHT_BITS = int(re.search(r"\.Q(\d+)_", MODEL_FILE).group(1))  # type: ignore[union-attr]
"""Bits a weight in the file's quantisation (Q4_1: 4-bit blocks with a scale and a minimum)."""

READING = Path(__file__).resolve().parent / "data" / "s6_reading.txt"
"""The passage the eviction is measured on: plain prose about attention, written for the lecture."""
WINDOW = 64
"""The sliding window's length in tokens (the query's own included)."""
SINKS = 4
"""The first tokens StreamingLLM's cache keeps beside the window."""
MAX_DECODED = 12
"""The most tokens section 6's decoding beat lays out: one grid row each, readable at 640 pixels."""
TRAILING = 16
"""The page draws each cache's loss as the mean of the last this-many predictions (one token is noisy)."""
SINK_LENGTH, SINK_SEED = 20, 0
"""The sink heads are counted on this many random tokens, repeated once (section 5's sequence)."""


@dataclass(frozen=True)
class RealMemory:
    """SmolLM2-135M's fp16 KV cache per token, with grouped-query attention and without it.

    Attributes
    ----------
    n_layers, n_heads, n_kv_heads, head_dim : int
        30 layers; 9 query heads share 3 key-value heads; each head 64 wide.
    grouped, ungrouped : int
        Bytes a token with the model's 3 key-value heads, and with one per query head (9).
    """

    n_layers: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    grouped: int
    ungrouped: int


@dataclass(frozen=True, eq=False)
class RealSinks:
    """Every head's mean weight on the first token (30, 9), and how many put more than half there."""

    share: np.ndarray
    count: int
    threshold: float

    @property
    def n_heads(self) -> int:
        """All the model's heads: 30 layers x 9."""
        return int(self.share.size)


@dataclass(frozen=True)
class RealDecoding:
    """A sentence decoded one token at a time through SmolLM2's KV cache.

    Attributes
    ----------
    tokens : tuple of str
        The sentence's tokens, as the tokenizer splits it.
    layer, head : int
        The head drawn, 0-based: section 5's best previous-token head.
    weights : ndarray, shape (T, T)
        That head's weights, row t from step t's attention over the t + 1 cached keys (0 above the diagonal).
    step_bytes, layers : int
        The cache's growth a step in fp16, every layer's keys and values; the layers it spans.
    max_gap : float
        The largest difference between a cached step's predictions (its next-token logits) and the
        same position's in one full causal pass over the sentence.
    """

    tokens: tuple[str, ...]
    layer: int
    head: int
    weights: NDArray[np.float64]
    step_bytes: int
    layers: int
    max_gap: float


def sentence_text(words: Sequence[str]) -> str:
    """Words as one text, punctuation against the word before it: ``("slept", ".")`` -> ``"slept."``."""
    return re.sub(r" (?=[.,;:!?])", "", " ".join(words))


@functools.cache
def real_decoding(text: str) -> RealDecoding:
    """``text`` through :class:`~attnmath.decoder_cache.IncrementalDecoder` a token at a time (cached).

    Raises
    ------
    ValueError
        If the text has more than :data:`MAX_DECODED` tokens.
    """
    ids = tokenize(text)
    if len(ids) > MAX_DECODED:
        raise ValueError(f"{text!r} is {len(ids)} tokens; section 6 lays out at most {MAX_DECODED}")
    cache = IncrementalDecoder()
    steps = [cache.append(int(i)) for i in ids]
    full = forward(ids).logits
    layer, head, _ = induction(SINK_LENGTH, SINK_SEED).heads.best_previous
    weights = np.zeros((len(ids), len(ids)))
    for t, step in enumerate(steps):
        weights[t, : t + 1] = step.attention[layer, head]
    gap = max(float(np.abs(step.logits - full[t]).max()) for t, step in enumerate(steps))
    return RealDecoding(token_texts(ids), layer, head, weights, cache_bytes(), N_LAYERS, gap)


def kib(n_bytes: int) -> str:
    """Bytes as the lecture shows and says them in KiB: ``23040`` -> ``"22.5"`` (at most one decimal)."""
    return f"{n_bytes / 1024:.1f}".removesuffix(".0")


def reading() -> str:
    """The passage :func:`real_eviction` reads (ends of lines kept, trailing newline dropped)."""
    return READING.read_text(encoding="utf-8").rstrip("\n")


def real_memory() -> RealMemory:
    """The cache's bytes a token in fp16: 30 layers x 2 (k, v) x key-value heads x 64 x 2 bytes."""
    return RealMemory(N_LAYERS, N_HEADS, N_KV_HEADS, D_HEAD, cache_bytes(), cache_bytes(n_kv_heads=N_HEADS))


@functools.cache
def real_sinks() -> RealSinks:
    """The sink heads on :func:`attnmath.decoder_probes.repeated_random_tokens` (one run, cached)."""
    heads = induction(SINK_LENGTH, SINK_SEED).heads  # section 5's default run: the same pass, not rerun
    return RealSinks(share=heads.sink, count=heads.sink_heads, threshold=SINK_SHARE)


@functools.cache
def real_eviction() -> WindowNll:
    """Mean loss per token on :func:`reading`: full, a window of 64, 4 sinks plus the window (cached)."""
    return window_nll(reading(), window=WINDOW, sinks=SINKS)


def decoder_figure() -> dict[str, Any]:
    """SmolLM2's bytes a token, its sink heads, and the three caches' losses, mean and per prediction."""
    memory, sinks, nll = real_memory(), real_sinks(), real_eviction()
    caches = ("full", "window", "sinks_window")
    return {
        "model": MODEL_NAME,
        "bytes_per_token": {"grouped": memory.grouped, "ungrouped": memory.ungrouped},
        "kv_heads": memory.n_kv_heads,
        "query_heads": memory.n_heads,
        "sink_share": floats(sinks.share),  # (layer, head)
        "sink_heads": sinks.count,
        "sink_threshold": sinks.threshold,
        "sink_tokens": SINK_LENGTH,
        "heads": memory.n_layers * memory.n_heads,
        "layers": memory.n_layers,
        "eviction": {
            "tokens": nll.tokens,
            "window": nll.window,
            "sinks": nll.sinks,
            "start": nll.start,
            "trailing_width": TRAILING,
            "nll": {"full": nll.full, "window": nll.windowed, "sinks_window": nll.with_sinks},
            "perplexity": dict(zip(caches, nll.perplexities, strict=True)),
            "losses": dict(zip(caches, floats(nll.losses), strict=True)),  # prediction i: token i + 1
            "trailing": {
                c: floats(trailing_mean(row, TRAILING)) for c, row in zip(caches, nll.losses, strict=True)
            },
            "texts": [shown_token(t) for t in token_texts(tokenize(reading()))],
        },
    }


def shown_token(text: str) -> str:
    """A token's text as the page prints it, in quotes with its spaces kept: ``' the'`` -> ``'" the"'``."""
    return '"' + text.replace("\n", "\\n") + '"'
