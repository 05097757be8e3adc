"""Numbers HeadRouting speaks: the spotlit word's largest weights per head, found by a naive loop."""

from __future__ import annotations

from collections.abc import Callable

from attnmath import stylized_heads


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


EXPECTED = {f"head-{h + 1}": percents(h) for h in range(4)}
