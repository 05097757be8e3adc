"""KVCacheGrowth: memory of a 7B-class fp16 model (32 layers, 32 KV heads, head width 128), by hand;
SmolLM2's bytes written out, its sink heads and mean losses recomputed naively (tests/naive_decoder.py)."""

from __future__ import annotations

from lecture.sections.s6_kv_cache import KVCacheParameters
from tests import naive_decoder

LAYERS, HEADS, WIDTH, FP16 = 32, 32, 128, 2
PER_TOKEN = 2 * LAYERS * HEADS * WIDTH * FP16  # a key and a value per layer and head
STATE = LAYERS * HEADS * (WIDTH * WIDTH + WIDTH) * FP16  # a d x d matrix and its normaliser per layer, head


def memory_raw() -> list[str]:
    context = 4096
    return [str(PER_TOKEN // 1024), str(round(PER_TOKEN * context / 1024**3)), str(context)]


def memory_state() -> list[str]:
    tokens = next(t for t in range(1, 10**6) if t * PER_TOKEN > STATE)  # the first count where raw is larger
    return [f"{STATE / 1024**2:.2f}", str(tokens)]


def inset_span() -> list[str]:
    """The inset's tokens: the crossing (found by the loop above) in its middle, a layout choice."""
    return [str(2 * int(memory_state()[1]) - 2)]


def predict_answer() -> list[str]:
    return [str(round(PER_TOKEN * 2 * 4096 / 1024**3))]


def summary() -> list[str]:
    return [f"{STATE / 1024**2:.2f}", str(PER_TOKEN // 1024)]


def memory_real() -> list[str]:
    grouped, ungrouped = 30 * 2 * 3 * 64 * 2, 30 * 2 * 9 * 64 * 2  # layers, k and v, KV heads, width, fp16
    # SmolLM2; 30 layers, 3 KV heads serving 9 query heads
    return ["2", "30", "3", "9", f"{grouped / 1024:g}", f"{ungrouped / 1024:g}"]


def sinks() -> list[str]:
    count, heads, _ = naive_decoder.sink_heads()
    return [str(count), str(heads)]


def nats(which: int) -> str:
    return f"{naive_decoder.mean_nlls()[2][which]:.2f}"


EXPECTED = {
    "memory-raw": memory_raw,
    "memory-state": memory_state,
    "predict-answer": predict_answer,
    "autoregressive.description": lambda: [str(len(KVCacheParameters().words))] * 2,  # the grid: words, twice
    "memory-raw.description": lambda: [str(LAYERS), str(HEADS), str(WIDTH)],  # the model's shape, as stated
    "summary.description": summary,
    "memory-state.description": lambda: [*inset_span(), memory_state()[1]],  # the inset, then the crossing
    "memory-real.description": lambda: [str(PER_TOKEN // 1024), "4"],  # beside the 7B figure; Q4_1 weights
    "memory-real": memory_real,
    "real-decoding": lambda: [f"{30 * 2 * 3 * 64 * 2 / 1024:g}"],  # a token's keys and values, 30 layers
    "sinks": sinks,
    "sinks.description": lambda: ["30", "9", sinks()[0]],  # the grid: layers across, heads down
    "window": lambda: [str(naive_decoder.WINDOW), *naive_decoder.perplexities()[:2]],
    "window.description": lambda: [nats(0), nats(1)],  # the loss bars, full then windowed
    "sink-window": lambda: [str(naive_decoder.SINKS), naive_decoder.perplexities()[2]],
    "sink-window.description": lambda: [nats(2)],
}
