"""distinctive_queries: the spotlight word per head, against a naive loop over total variation distances."""

from __future__ import annotations

import numpy as np
import pytest

from attnmath import distinctive_queries, stylized_heads


def naive(w: np.ndarray) -> list[int]:
    n_heads, n = w.shape[0], w.shape[1]
    picks = []
    for h in range(n_heads):
        best, best_score = 0, -1.0
        for i in range(n):
            score = min(
                sum(abs(float(w[h, i, j]) - float(w[g, i, j])) for j in range(n)) / 2
                for g in range(n_heads)
                if g != h
            )
            if score > best_score:
                best, best_score = i, score
        picks.append(best)
    return picks


@pytest.mark.parametrize("seed", range(5))
def test_matches_a_naive_loop_on_random_rows(seed):
    rng = np.random.default_rng(seed)
    w = rng.dirichlet(np.ones(7), size=(4, 7))
    assert distinctive_queries(w).tolist() == naive(w)


@pytest.mark.parametrize("causal", [True, False])
def test_stylized_heads_differ_visibly_at_their_spotlight_words(causal):
    w = stylized_heads(causal=causal).weights
    picks = distinctive_queries(w)
    assert picks.tolist() == naive(w)
    for h, i in enumerate(picks):
        nearest = min(0.5 * np.abs(w[h, i] - w[g, i]).sum() for g in range(4) if g != h)
        assert nearest > 0.4, f"head {h + 1} at word {i} is within {nearest:.2f} of another head"


def test_identical_heads_tie_to_the_first_query():
    w = np.tile(np.eye(3), (2, 1, 1))
    assert distinctive_queries(w).tolist() == [0, 0]


def test_bad_shapes():
    with pytest.raises(ValueError, match="shape"):
        distinctive_queries(np.ones((1, 3, 3)))
    with pytest.raises(ValueError, match="shape"):
        distinctive_queries(np.ones((2, 3, 4)))
