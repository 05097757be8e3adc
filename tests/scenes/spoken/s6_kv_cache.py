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


def predict_answer() -> list[str]:
    return [str(2 * LAYERS * 8 * WIDTH * FP16 // 1024)]  # 8 key-value heads shared by the 32 query heads


def predict_answer_description() -> list[str]:
    return [f"{2 * LAYERS * 8 * WIDTH * FP16 * 4096 / 1024**3:g}", "4096"]  # the tilted line's end


def summary() -> list[str]:
    return [f"{STATE / 1024**2:.2f}", str(PER_TOKEN // 1024)]


def memory_real() -> list[str]:
    grouped, ungrouped = 30 * 2 * 3 * 64 * 2, 30 * 2 * 9 * 64 * 2  # layers, k and v, KV heads, width, fp16
    # SmolLM2; 30 layers, 3 KV heads serving 9 query heads
    return ["2", "30", "3", "9", f"{grouped / 1024:g}", f"{ungrouped / 1024:g}"]


def real_decoding_total() -> list[str]:
    """The cache after the section's sentence: its SmolLM2 tokens times 30 layers' keys and values."""
    from attnmath.decoder import tokenize
    from lecture.sections.s6_real import sentence_text

    n = len(tokenize(sentence_text(KVCacheParameters().words)))
    return [f"{n * 30 * 2 * 3 * 64 * 2 / 1024:g}"]


def sinks() -> list[str]:
    count, heads, _ = naive_decoder.sink_heads()
    return [str(count), str(heads)]


def nats(which: int) -> str:
    return f"{naive_decoder.mean_nlls()[2][which]:.2f}"


EXPECTED = {
    "memory-raw": memory_raw,
    "memory-state": memory_state,
    "ask": lambda: [str(HEADS), "8"],  # the model's query heads, and the key-value heads they share
    "predict-answer": predict_answer,
    "predict-answer.description": predict_answer_description,
    "autoregressive.description": lambda: [str(len(KVCacheParameters().words))] * 2,  # the grid: words, twice
    "memory-raw.description": lambda: [str(2), str(LAYERS), str(HEADS), str(WIDTH), str(FP16)],  # PER_TOKEN's
    "summary.description": summary,
    "every-power.description": lambda: ["2", "2"],  # the series' cells at d = 2: term n has d ** n = 2 ** n
    "memory-state.description": lambda: [str(WIDTH)] * 3 + [memory_state()[1]],  # STATE's factors; crossing
    "memory-real.description": lambda: ["2", "30", "3", "64", "2"],  # SmolLM2's product, as memory_real's
    "memory-real": memory_real,
    "real-decoding": lambda: [f"{30 * 2 * 3 * 64 * 2 / 1024:g}"],  # a token's keys and values, 30 layers
    "real-decoding.description": real_decoding_total,
    "sinks": sinks,
    "sinks.description": lambda: ["30", "9", sinks()[0]],  # the grid: layers by heads; the dotted count
    "window": lambda: [str(naive_decoder.WINDOW), *naive_decoder.perplexities()[:2]],
    "window.description": lambda: [nats(0), nats(1), str(naive_decoder.WINDOW)],  # loss bars; the window
    "sink-window": lambda: [str(naive_decoder.SINKS), naive_decoder.perplexities()[2]],
    "sink-window.description": lambda: [nats(2)],
}
