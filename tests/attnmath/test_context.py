"""The head that pulls "loan" into "bank": found against a naive search over every head's weights."""

from __future__ import annotations

import pytest

from attnmath import LOAN_SENTENCE, context_pull, encode_words


def test_the_pull_is_the_largest_weight_from_bank_to_loan_over_every_head():
    run = encode_words(list(LOAN_SENTENCE))
    tokens = list(run.tokens)
    bank, loan = tokens.index("bank"), tokens.index("loan")
    best = (-1.0, -1, -1)
    for layer, heads in enumerate(run.attention.tolist()):  # a naive loop over plain lists
        for head, rows in enumerate(heads):
            best = max(best, (rows[bank][loan], layer, head))
    pull = context_pull(LOAN_SENTENCE, "bank", "loan")
    assert (pull.layer, pull.head) == (best[1], best[2])
    assert pull.share == pytest.approx(best[0], abs=1e-12)
    assert (pull.tokens[pull.query], pull.tokens[pull.cue]) == ("bank", "loan")


def test_the_row_is_a_distribution_and_loan_takes_the_most_of_it():
    pull = context_pull(LOAN_SENTENCE, "bank", "loan")
    assert pull.weights.min() >= 0.0 and pull.weights.sum() == pytest.approx(1.0, abs=1e-9)
    assert max(range(len(pull.weights)), key=lambda j: pull.weights[j]) == pull.cue
    assert pull.share > 0.5  # the lecture says "57 percent": more than half, on a word three back


@pytest.mark.parametrize(
    ("query", "cue", "match"),
    [
        ("bank", "river", "cue 'river' is not a word"),
        ("vault", "loan", "query 'vault'"),
        ("bank", "bank", "different"),
    ],
)
def test_bad_words_are_named(query, cue, match):
    with pytest.raises(ValueError, match=match):
        context_pull(LOAN_SENTENCE, query, cue)
