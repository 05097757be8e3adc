"""Which head of the trained encoder pulls a word's context in: the opening's "bank", settled by "loan".

The lecture opens on a word whose meaning its context decides. Section 5 pays that off on a
real model, honestly: among the 72 heads of all-MiniLM-L6-v2, the one that puts the most of
the word's weight on the word that decides it (a maximum over 72), the typical head's share
beside it (the median), and the same head in the other sentence, as a control.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attnmath.encoder import encode_words

__all__ = ["LOAN_SENTENCE", "RIVER_SENTENCE", "ContextPull", "context_pull"]

LOAN_SENTENCE = ("she", "took", "a", "loan", "from", "the", "bank")
"""The opening's second sentence: "loan", three words before it, makes "bank" a lender."""
RIVER_SENTENCE = ("she", "sat", "on", "the", "river", "bank")
"""The opening's first sentence: "river", just before it, makes "bank" a riverside."""


@dataclass(frozen=True, eq=False)
class ContextPull:
    """One head's weights from a word (the query) over its sentence, and their share on the cue.

    Attributes
    ----------
    layer, head : int
        The head, counted from 0.
    tokens : tuple of str
        The sentence's word pieces, ``[CLS]`` first and ``[SEP]`` last.
    query, cue : int
        Token indices of the query word and of the word that decides it (each word's first piece).
    weights : ndarray, shape (T,)
        The head's attention row for the query token: it sums to 1 over every token.
    typical : float
        The median, over every layer and head, of the weight the query puts on the cue.
    """

    layer: int
    head: int
    tokens: tuple[str, ...]
    query: int
    cue: int
    weights: np.ndarray
    typical: float

    @property
    def share(self) -> float:
        """The weight the query puts on the cue."""
        return float(self.weights[self.cue])


def context_pull(
    words: Sequence[str], query: str, cue: str, *, head: tuple[int, int] | None = None
) -> ContextPull:
    """The head that puts the most of ``query``'s weight on ``cue``, over every layer and head.

    Parameters
    ----------
    words : sequence of str
        The sentence, word by word.
    query, cue : str
        Two different words of the sentence: the one read, and the one that should settle it.
    head : (int, int), optional
        This (layer, head), counted from 0, instead of the one with the most weight on the cue.

    Raises
    ------
    ValueError
        If ``query`` or ``cue`` is not a word of the sentence, or they are the same word.

    Examples
    --------
    >>> pull = context_pull(LOAN_SENTENCE, "bank", "loan")
    >>> (pull.layer, pull.head), pull.tokens[pull.cue], round(pull.share, 2), round(pull.typical, 3)
    ((0, 0), 'loan', 0.57, 0.035)
    >>> round(context_pull(RIVER_SENTENCE, "bank", "river", head=(0, 0)).share, 3)
    0.155
    """
    words = list(words)
    for name, word in (("query", query), ("cue", cue)):
        if word not in words:
            raise ValueError(f"{name} {word!r} is not a word of the sentence {' '.join(words)!r}")
    if query == cue:
        raise ValueError(f"query and cue must be different words, got {query!r} twice")
    run = encode_words(words)
    first = {int(w): i for i, w in reversed(list(enumerate(run.word_ids))) if w >= 0}
    q, c = first[words.index(query)], first[words.index(cue)]
    pulls = run.attention[:, :, q, c]  # (layers, heads)
    layer, h = head if head is not None else np.unravel_index(int(np.argmax(pulls)), pulls.shape)
    weights = run.attention[layer, h, q].copy()
    return ContextPull(int(layer), int(h), run.tokens, q, c, weights, float(np.median(pulls)))
