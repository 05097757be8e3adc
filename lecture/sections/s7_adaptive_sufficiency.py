"""Section 7: attention as an adaptive sufficient statistic, the lecture's recap."""

from __future__ import annotations

import numpy as np

from attnmath import softmax
from lecture.parameters import Parameters
from lecture.questions import Option, Question
from lecture.section import Section
from lecture.sections import s1_fixed_vs_query, s3_softmax_temperature

__all__ = ["SECTION"]


def questions(p: Parameters) -> list[Question]:
    """What known future queries would let a decoder keep; two queries' summaries of the same words."""
    return [_known_queries(p), _shared_shift(p)]


def _shared_shift(_p: Parameters) -> Question:
    """Two queries whose scores differ by a constant share one average."""
    a = softmax(np.array([2.0, 0.0, 0.0]), 1.0)
    b = softmax(np.array([3.0, 1.0, 1.0]), 1.0)
    assert np.allclose(a, b), "bug: a shared shift must leave softmax's weights alone"
    return Question(
        "Two queries score the same three words (2, 0, 0) and (3, 1, 1). At \u03c4 = 1, can one weighted "
        "average of the words serve both?",
        f"Yes: their scores differ by a constant, and softmax ignores a shift shared by all scores, so "
        f"both put {float(a[0]):.2f}, {float(a[1]):.2f} and {float(a[2]):.2f} on the three words. Scores "
        "that differ in their gaps would need two averages.",
        "",
        "",
        (
            Option("Yes: their scores differ by a constant"),
            Option(
                "No: each query has its own scores",
                "Softmax ignores a shift shared by all scores, so the two give the same weights.",
            ),
            Option(
                "No: the second query is sharper",
                "Sharpness depends on the gaps between scores, and both have the same gaps.",
            ),
        ),
    )


def _known_queries(_p: Parameters) -> Question:
    """The asked question: what known future queries would let a decoder keep."""
    return Question(
        "Suppose every future query were known in advance. What could a decoder keep instead of its raw "
        "keys and values?",
        "For each known query, a running weighted sum of the values and its normaliser: with the query "
        "fixed, each token's weight e^{q\u00b7k/\u03c4} is one number, added as the token arrives. But "
        "that is one sum per future query, so memory grows with their number, and real future queries "
        "depend on outputs not yet computed: the cache keeps the raw keys and values.",
        "Pause and predict: suppose every future query were known in advance. What could a decoder keep "
        "instead of its raw keys and values?",
        "Known queries fix each token's score on arrival: a running sum and normaliser per query. Real "
        "queries aren't known yet, so the cache stays.",
        (
            Option(
                "Nothing: softmax never factors",
                "With the query known, each token's weight is one number, so no factoring is needed.",
            ),
            Option("A running sum and normaliser per query"),
            Option(
                "Only the last key and value",
                "A known query may still weigh any earlier token; the last one alone loses the rest.",
            ),
        ),
    )


SECTION = Section(
    scene="AdaptiveSufficiency",
    module="s7_adaptive_sufficiency",
    number="7",
    title="Adaptive sufficiency",
    seconds=45.0,
    parameters=Parameters,
    questions=questions,
    equations=(
        r"\text{adaptive sufficient statistic:}\quad & o(q) = \sum_i \alpha_i(q)\, v_i \\"
        r"\text{kernel regression:}\quad & \alpha_i(q) = \frac{K(q, k_i)}{\sum_j K(q, k_j)},"
        r"\quad K(q, k) = \exp(q \cdot k / \tau) \\"
        r"\text{maximum entropy:}\quad & \alpha(q) = \arg\max_a\ \mathbb{E}_a[s] + \tau\, H(a)",
    ),
    reads=(s1_fixed_vs_query.SECTION, s3_softmax_temperature.SECTION),  # the recap's points and scores
)
