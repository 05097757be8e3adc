"""Section 1: fixed weights (the mean), kernel weights and attention's learned, query-dependent weights."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from lecture.parameters import Integer, Parameters, lecturer
from lecture.questions import Option, Question
from lecture.section import Section

__all__ = ["FixedVsQueryParameters", "SECTION"]


@dataclass(frozen=True)
class FixedVsQueryParameters(Parameters):
    """The noisy points the three estimators read."""

    scene: ClassVar[str] = "FixedVsQueryWeights"
    n_points: int = lecturer(10, Integer(4, 30))
    seed: int = lecturer(2, Integer(0, 2**31, shown=False))
    noise: float = 0.25


def questions(p: FixedVsQueryParameters) -> list[Question]:
    """Where the weights go when the query moves; a kernel's symmetry; what ten times the points would do."""
    return [_query_moves(p), _equal_distances(p), _more_tuning_points(p)]


def _query_moves(_p: FixedVsQueryParameters) -> Question:
    """The asked question: whose weights move with the query."""
    return Question(
        "The query moves to the right. Which of the three methods' weights move with it?",
        "The kernel's and attention's: both weights are functions of the query, so they shift as it "
        "moves, attention's not always onto the nearest point. The mean's stay at 1/N.",
        "Pause and predict: the query moves to the right. Which methods' weights move with it?",
        "As the query moves right, the mean's weights never change. Kernel and attention weights follow it: "
        "each query gets its own weighted summary.",
        (
            Option(
                "All three",
                "The mean weighs every point 1/N whatever the query, so its weights never move.",
            ),
            Option("Kernel and attention, not the mean"),
            Option(
                "None of them",
                "Kernel and attention weights are functions of the query, so they move with it.",
            ),
        ),
    )


def _equal_distances(_p: FixedVsQueryParameters) -> Question:
    """A kernel sees only distance: two points equally far weigh the same."""
    return Question(
        "Two points sit at the same distance from the query, one on each side. How do the Gaussian "
        "kernel's weights on them compare?",
        "They are equal: the Gaussian kernel sees only the distance |q \u2212 x_i|, the same for both. A "
        "learned similarity need not depend on distance alone, so it may favour one side.",
        "",
        "",
        (
            Option("They are equal"),
            Option(
                "The point to the right gets more",
                "The kernel looks only at the distance from the query, which is the same on both sides.",
            ),
            Option(
                "The taller point gets more",
                "Kernel weights look at positions alone, never at the heights they average.",
            ),
        ),
    )


def _more_tuning_points(_p: FixedVsQueryParameters) -> Question:
    """Both tuned on ten times the points: the learned similarity's fresh error is about the Gaussian's.

    ``tests/attnmath/test_similarity.py`` checks the claim on the lecture's data, by naive loops.
    """
    return Question(
        "Tune both the learned similarity and the Gaussian on ten times as many points from the same "
        "noisy sine. How does the learned similarity's error on fresh points compare?",
        "About the Gaussian's, both near the noise's own error: the few numbers that move its weights "
        "cannot follow the noise of that many points, so tuning them follows the curve. Neither can do "
        "much better: the Gaussian already compares these inputs well, and no method beats the noise.",
        "",
        "",
        (
            Option(
                "Still far above: it learns the noise",
                "A few numbers cannot chase the noise of many points, so the fit follows the curve.",
            ),
            Option(
                "Well below: with data, learning wins",
                "No estimator beats the noise's own error, and the Gaussian is already near it.",
            ),
            Option("About the Gaussian's, both near the noise"),
        ),
    )


SECTION = Section(
    scene=FixedVsQueryParameters.scene,
    module="s1_fixed_vs_query",
    number="1",
    title="Fixed and query-dependent weights",
    seconds=86.0,
    parameters=FixedVsQueryParameters,
    questions=questions,
    equations=(
        r"\hat y(q) = \sum_i w_i(q)\, y_i, \qquad \sum_i w_i(q) = 1",
        r"\text{sufficient statistic:}\quad & w_i = 1/N \\"
        r"\text{kernel regression:}\quad & w_i(q) \propto K(q, x_i) \\"
        r"\text{attention:}\quad & w_i(q) \propto \exp\!\big(\psi(q)^\top W_Q W_K^\top \psi(x_i)\big)",
    ),
)
