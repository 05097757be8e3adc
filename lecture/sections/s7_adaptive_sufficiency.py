"""Section 7: attention as an adaptive sufficient statistic, the lecture's recap."""

from __future__ import annotations

import numpy as np

from attnmath import softmax
from lecture.parameters import Parameters
from lecture.questions import Option, Question
from lecture.section import Section
from lecture.sections import s3_softmax_temperature

__all__ = ["SECTION"]


def questions(_p: Parameters) -> list[Question]:
    """Why the cache keeps raw keys; two queries' summaries of the same words."""
    a = softmax(np.array([2.0, 0.0, 0.0]), 1.0)
    b = softmax(np.array([0.0, 0.0, 2.0]), 1.0)
    return [
        Question(
            "Could a decoder replace its raw keys and values by one fixed-size summary that serves every "
            "future query?",
            "No: e^{q\u00b7k/\u03c4} has no exact finite split into a query part and a key part, so no "
            "fixed-size summary serves every future query; the cache keeps them all.",
            "Pause and predict: could a decoder swap its raw keys and values for one fixed-size summary "
            "that serves every future query?",
            "No: softmax's kernel has no exact finite split, so the cache keeps them all.",
            (
                Option("No: softmax's kernel has no finite split"),
                Option(
                    "Yes: a running sum of the values",
                    "A running sum serves a query only when its weights split into query and key parts.",
                ),
                Option(
                    "Yes, for short prompts",
                    "Length is not the obstacle: no finite summary gives softmax's weights for every query.",
                ),
            ),
        ),
        Question(
            "Two queries over the same three words score them (2, 0, 0) and (0, 0, 2). At \u03c4 = 1, "
            "what weight does each put on the first word?",
            f"{float(a[0]):.2f} and {float(b[0]):.2f}: the same words, two summaries, one per query.",
            "",
            "",
        ),
    ]


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
    reads=(s3_softmax_temperature.SECTION,),
)
