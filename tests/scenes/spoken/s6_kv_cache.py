"""KVCacheGrowth: memory of a 7B-class fp16 model (32 layers, 32 KV heads, head width 128), by hand."""

LAYERS, HEADS, WIDTH, FP16 = 32, 32, 128, 2
PER_TOKEN = 2 * LAYERS * HEADS * WIDTH * FP16  # a key and a value per layer and head
STATE = LAYERS * HEADS * WIDTH * WIDTH * FP16  # one d x d matrix per layer and head


def memory_raw() -> list[str]:
    context = 4096
    return [str(PER_TOKEN // 1024), str(round(PER_TOKEN * context / 1024**3)), str(context)]


def memory_state() -> list[str]:
    tokens = next(t for t in range(1, 10**6) if t * PER_TOKEN >= STATE)  # where the raw cache catches up
    return [str(STATE // 1024**2), str(tokens)]


def predict() -> list[str]:
    return [str(2 * 4096)]


def predict_answer() -> list[str]:
    return [str(round(PER_TOKEN * 2 * 4096 / 1024**3)), "4096"]


EXPECTED = {
    "memory-raw": memory_raw,
    "memory-state": memory_state,
    "predict": predict,
    "predict-answer": predict_answer,
}
