"""Numbers HeadRouting speaks: the spotlit word's largest weights per head, found by a naive loop."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from attnmath import DEFAULT_SENTENCE, encode_words, stylized_heads


def spotlight(weights, h: int) -> int:
    """The query whose row is furthest, in total variation, from the nearest other head's row."""
    n = len(weights[h])
    scores = [
        min(sum(abs(weights[h][i][j] - weights[g][i][j]) for j in range(n)) / 2 for g in range(4) if g != h)
        for i in range(n)
    ]
    return scores.index(max(scores))


def percents(h: int) -> Callable[[], list[str]]:
    def numbers() -> list[str]:
        w = stylized_heads(causal=True).weights.tolist()
        row = w[h][spotlight(w, h)]
        ranked = sorted(range(len(row)), key=lambda j: (-row[j], j))[:2]
        return [f"{100 * row[j]:.0f}" for j in ranked if row[j] >= 0.2]

    return numbers


@cache
def measured() -> tuple[list[list[list[list[float]]]], list[bool], int]:
    """The trained model's attention for the lecture's sentence, as lists; which tokens are words; [CLS]."""
    run = encode_words(DEFAULT_SENTENCE.texts)
    return run.attention.tolist(), [w >= 0 for w in run.word_ids.tolist()], run.tokens.index("[CLS]")


def best_head(score) -> tuple[int, int, float]:
    """(layer, head, score) of the head with the highest ``score(weights)``, by a naive loop."""
    attention, _, _ = measured()
    found = [(score(heads[h]), layer, h) for layer, heads in enumerate(attention) for h in range(len(heads))]
    best, layer, head = max(found)
    return layer, head, best


def previous_mass(a) -> float:
    """Mean weight a word puts on the word token just before it."""
    _, words, _ = measured()
    rows = [i for i in range(1, len(a)) if words[i] and words[i - 1]]
    return sum(a[i][i - 1] for i in rows) / len(rows)


def cls_mass(a) -> float:
    """Mean weight the words put on [CLS]."""
    _, words, cls = measured()
    rows = [i for i in range(len(a)) if words[i]]
    return sum(a[i][cls] for i in rows) / len(rows)


def trained_previous() -> list[str]:
    layer, head, score = best_head(previous_mass)
    return [str(layer + 1), str(head + 1), str(int(100 * score))]


def trained_sink() -> list[str]:
    layer, head, score = best_head(cls_mass)
    return [f"{100 * score:.0f}", str(layer + 1), str(head + 1)]


EXPECTED = {
    **{f"head-{h + 1}": percents(h) for h in range(4)},
    "trained": lambda: [str(6 * 12)],
    "trained-previous": trained_previous,
    "trained-sink": trained_sink,
    "trained-none": lambda: ["0.5"],
}
