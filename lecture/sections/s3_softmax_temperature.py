"""Section 3: softmax is the entropy-regularised retrieval rule, swept over its temperature."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from attnmath import temperature_sweep
from attnmath.datasets import RETRIEVAL_SCORES, RETRIEVAL_WORDS
from lecture.parameters import ConfigError, Numbers, Parameters, Words, lecturer
from lecture.questions import Option, Question
from lecture.section import Figure, Section, floats

__all__ = ["TemperatureParameters", "SECTION"]


@dataclass(frozen=True)
class TemperatureParameters(Parameters):
    """The memory items' scores, their words, and the temperatures the sweep covers.

    The default items are the running sentence's words, scored from its last word by one head of the
    trained decoder (:data:`attnmath.datasets.SCORE_HEAD`). A lecturer's scores with no words of their
    own are numbered 1 to N: the default words name only the default scores.
    """

    scene: ClassVar[str] = "TemperatureSweep"
    scores: tuple[float, ...] = lecturer(RETRIEVAL_SCORES, Numbers(2, 16))
    words: tuple[str, ...] = lecturer(
        RETRIEVAL_WORDS,
        Words(),
        "one word per score, naming the items; without it, a lecturer's scores are numbered",
    )
    tau_range: tuple[float, float] = (0.01, 100.0)

    def check(self, where: str) -> None:
        """A lecturer's words name the scores one to one."""
        if self.words != RETRIEVAL_WORDS and len(self.words) != len(self.scores):
            raise ConfigError(
                f"{where}: [{self.scene}] words has {len(self.words)} entries and scores {len(self.scores)}: "
                "give one word per score"
            )

    def names(self) -> tuple[str, ...]:
        """The items' names on screen and in the descriptions: the words, or 1 to N for other scores."""
        if not self.numbered:
            return self.words
        return tuple(str(i + 1) for i in range(len(self.scores)))

    @property
    def numbered(self) -> bool:
        """Whether the items are named by number (a lecturer's scores with no words of their own)."""
        return self.words == RETRIEVAL_WORDS and self.scores != RETRIEVAL_SCORES

    def shown(self, i: int) -> str:
        """Item ``i`` as a label names it: its word, or "item 7"."""
        name = self.names()[i]
        return f"item {name}" if self.numbered else name


def questions(p: TemperatureParameters) -> list[Question]:
    """The hot limit of E_a[s]; then what a shift and a scale of every score do to the weights and J*."""
    return [_hot_average(p), _shifted_scores(p), _doubled_scores(p)]


def _hot_average(p: TemperatureParameters) -> Question:
    """The asked question: E_a[s] in the hot limit."""
    s = np.asarray(p.scores, dtype=float)
    e_hot = float(temperature_sweep(s, [p.tau_range[1]]).expected_score[0])
    return Question(
        "As \u03c4 grows without bound, what does the average score E_a[s] approach?",
        f"The plain mean of the scores, {float(s.mean()):.3f}: the weights become uniform, so they "
        f"average the scores (at \u03c4 = {p.tau_range[1]:g} E_a[s] reads {e_hot:.3f}).",
        "Pause and predict: as tau grows without bound, what does the average score approach?",
        f"The plain mean of the scores, {float(s.mean()):.3f}: equal weights average them.",
        (
            Option(
                "The top score",
                "That is the cold limit: as tau falls to zero, all the weight goes to the best item.",
            ),
            Option(
                "It grows without bound",
                "That is J, through its \u03c4H term; E_a[s] averages the scores, so it stays "
                "between the "
                "lowest and highest.",
            ),
            Option("The plain mean of the scores"),
        ),
    )


def _shifted_scores(p: TemperatureParameters) -> Question:
    """Every score plus 5: the weights stay (a shared factor cancels); J* rises by exactly 5."""
    s = np.asarray(p.scores, dtype=float)
    before, after = (float(temperature_sweep(x, [0.6]).objective[0]) for x in (s, s + 5.0))
    return Question(
        "Add 5 to every score. What happens to the weights, and to the best value "
        "J* = \u03c4 log \u03a3 e^{s_i/\u03c4}?",
        "The weights stay: every e^{s_i/\u03c4} gains the same factor e^{5/\u03c4}, which cancels in each "
        "ratio. J* rises by exactly 5 at every \u03c4, since \u03c4 log e^{5/\u03c4} is 5 "
        f"(at \u03c4 = 0.6, from {before:.2f} to {after:.2f}).",
        "",
        "",
        (
            Option(
                "Both stay the same",
                "J* is a log-sum-exp: the shared factor comes out of the log as the shift itself.",
            ),
            Option(
                "The weights sharpen; J* rises by 5",
                "Sharpening needs bigger gaps; a shift keeps every gap, and every term gains one factor.",
            ),
            Option("The weights stay; J* rises by 5"),
        ),
    )


def _doubled_scores(_p: TemperatureParameters) -> Question:
    """Every score doubled at tau 0.6: the weights depend on s / tau alone, so tau 1.2 gives them back."""
    return Question(
        "Every score doubles. To get back the weights you had at \u03c4 = 0.6, which \u03c4 do you need?",
        "\u03c4 = 1.2: the weights depend on the scores only through s_i/\u03c4, so doubling both leaves "
        "every weight as it was. Dividing the scores by \u221ad_k, as transformers do, is a "
        "temperature of the same kind.",
        "",
        "",
        (
            Option("\u03c4 = 1.2"),
            Option(
                "\u03c4 = 0.3",
                "Halving \u03c4 sharpens the weights further, on top of what doubling the scores did.",
            ),
            Option(
                "\u03c4 = 0.6, as before",
                "Softmax ignores a shared shift, not a shared scale: doubled scores have doubled gaps.",
            ),
        ),
    )


def figure(p: TemperatureParameters) -> dict[str, Any]:
    """The memory items' scores and names, and the temperature range."""
    lo, hi = p.tau_range
    return {
        "scores": floats(p.scores),
        "names": list(p.names()),
        "tau_range": [float(lo), float(hi)],
        "tau": min(max(1.0, lo), hi),
    }


SECTION = Section(
    scene=TemperatureParameters.scene,
    module="s3_softmax_temperature",
    number="3",
    title="Softmax is the entropy-regularised rule",
    seconds=168.0,
    parameters=TemperatureParameters,
    questions=questions,
    figure=Figure(figure),
    equations=(
        r"J_\tau(a) = \mathbb{E}_a[s] + \tau\, H(a) = \sum_i a_i s_i - \tau \sum_i a_i \log a_i,"
        r"\qquad \sum_i a_i = 1",
        r"\mathcal{L}(a, \lambda) = \sum_i a_i s_i - \tau \sum_i a_i \log a_i"
        r" + \lambda \Big(\sum_i a_i - 1\Big), \qquad"
        r"\frac{\partial \mathcal{L}}{\partial a_i} = s_i - \tau (\log a_i + 1) + \lambda = 0",
        r"a_i = \frac{\exp(s_i / \tau)}{\sum_j \exp(s_j / \tau)}",
        r"k_{\mathrm{eff}} = \exp H(a), \qquad \tau \to 0:\ k_{\mathrm{eff}} \to 1, \qquad"
        r"\tau \to \infty:\ k_{\mathrm{eff}} \to N",
    ),
)
