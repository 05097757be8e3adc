"""The opening's two sentences in which "bank" needs its context, and the word in each that settles it.

Section 0 draws both: they motivate the lecture; its running sentence is another (DEFAULT_SENTENCE).
"""

from __future__ import annotations

__all__ = ["LOAN_SENTENCE", "RIVER_SENTENCE"]

LOAN_SENTENCE = ("she", "took", "a", "loan", "from", "the", "bank")
"""The opening's second sentence: "loan", three words before it, makes "bank" a lender."""
RIVER_SENTENCE = ("she", "sat", "on", "the", "river", "bank")
"""The opening's first sentence: "river", just before it, makes "bank" a riverside."""
