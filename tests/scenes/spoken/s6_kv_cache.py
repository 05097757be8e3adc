"""KVCacheGrowth: memory of a 7B-class fp16 model (32 layers, 32 KV heads, head width 128), by hand."""

from __future__ import annotations

from lecture.clips import LECTURE
from lecture.sections.s6_kv_cache import KVCacheParameters

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
    return [str(round(PER_TOKEN * 2 * 4096 / 1024**3)), "4096"]


def summary() -> list[str]:
    return [f"{STATE / 1024**2:.2f}", str(PER_TOKEN // 1024)]


EXPECTED = {
    "memory-raw": memory_raw,
    "memory-state": memory_state,
    "predict-answer": predict_answer,
    "autoregressive.description": lambda: [str(len(KVCacheParameters().words))] * 2,  # the grid: words, twice
    # "section 5's stylised head": HeadRouting's section, its place in the lecture (the title is section 0)
    "subject-pointer.description": lambda: [str([c.scene for c in LECTURE].index("HeadRouting"))],
    "memory-raw.description": lambda: [str(LAYERS), str(HEADS), str(WIDTH)],  # the model's shape, as stated
    "summary.description": summary,
    "memory-state.description": inset_span,
}
