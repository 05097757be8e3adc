"""Section 3, the sweep in words: what each stop of the tau sweep shows, and the hot limit's answer.

The stops' audio descriptions are read off attnmath's numbers at each stop's
temperature (top items, H(a)); cold, a near tie is drawn (the runner-up's score
lifted past the top one, and the weight jumping to it); the answer to the
section's question marks the scores' mean and runs the slider hot. Mixed into
section 3's scene, whose storyboard holds the sweep's beats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
from manim import (
    RIGHT,
    Circumscribe,
    Create,
    FadeIn,
    Mobject,
    ReplacementTransform,
    ValueTracker,
    VGroup,
)

from drawing import theme
from drawing.widgets import math
from narration.narrator import Spoken
from scenes.s3_dashboard import Dashboard
from scenes.s3_derivation import ROLE_TEX

"""The score bars' opacity while the temperature is hot enough that they stop mattering."""

__all__ = ["NEAR", "RegimeSweep", "spoken_items"]

NEAR = 0.05
"""How far under, then over, the top score the runner-up is lifted: a near tie, then a flip."""


def spoken_items(indices: np.ndarray) -> str:
    """Items by their on-screen numbers, for the ear: "6, 11 and 3"."""
    names = [str(int(i) + 1) for i in indices]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


class RegimeSweep(Dashboard):
    """Mixin for section 3's scene: the sweep's descriptions, and the hot limit's answer."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        stops: ClassVar[tuple[tuple[str, float, float], ...]]
        mean_marks: VGroup

    def sweep_descriptions(self) -> dict[str, str]:
        """What each stop of the sweep shows, and the hot answer's sweep, from the readouts' numbers."""
        n = self.s.size
        cold, warm, hot = (self.at_tau(tau) for _slug, tau, _seconds in self.stops)
        top, second = int(np.argmax(cold.weights[0])) + 1, int(np.argsort(self.s)[-2]) + 1  # as numbered

        return {
            "argmax": f"Tau {float(cold.taus[0]):g}: all weight on item {top}; nudge item {second}'s score "
            "above, weight jumps there.",
            "intermediate": f"At tau {float(warm.taus[0]):g}, items "
            f"{spoken_items(np.argsort(-warm.weights[0])[:3])} weigh most; H reads {warm.entropy[0]:.3f}.",
            "heat-up": f"Tau slides to {float(hot.taus[0]):g}: all {n} bars level; the average reads "
            f"{float(hot.expected_score[0]):.3f}, nearing the mean.",
            "uniform": f"H of a reads {hot.entropy[0]:.3f}, the log of {n}: the widest spread possible.",
        }

    def near_tie(self) -> None:
        """Brittle, drawn: the runner-up's score lifted to just under the top one, then just over it.

        The scores the dashboard reads are the lifted ones, so the weights and readouts follow live:
        cold, the weight splits near the tie and jumps to the runner-up past it; then the scores are
        put back, so the beat ends on the readouts its words give.
        """
        base, lift = self.s.copy(), ValueTracker(0.0)
        second, top = np.argsort(base)[-2:]

        def lifted(panel: Mobject) -> None:
            self.s = base.copy()
            self.s[second] += lift.get_value()
            panel.set_values(self.s)

        self.score_panel.add_updater(lifted)
        self.tied = True  # no regime named while the scores are not the lecture's: the label would flip
        under, over = base[top] - NEAR - base[second], base[top] + NEAR - base[second]
        for words, to in (("near tie", under), ("flips", over)):
            self.when_said(words, lift.animate.set_value(to), run_time=0.8)
        self.hold(0.6)  # the flipped weights, seen
        self.play(lift.animate.set_value(0.0), run_time=0.6)  # the scores as they were, before the beat ends
        self.score_panel.remove_updater(lifted)
        self.s, self.tied = base, False

    def heat_up(self, spoken: Spoken) -> None:
        """The answer: a dashed line marks the scores' mean; the slider runs hot, and E_a[s] settles on it."""
        mean = float(self.s.mean())
        line = self.score_panel.level_line(mean, color=theme.SCORE)
        note = math(rf"\text{{mean of }} s_i = {mean:.3f}", colors=ROLE_TEX, size=theme.READOUT_SIZE)
        self.mean_marks = VGroup(line, note.next_to(self.readouts[4], RIGHT, buff=0.6))
        self.when_said("plain mean", Create(line), FadeIn(note), run_time=0.8)
        top = self.stops[-1][1]
        self.sweep_to(self.log_tau, np.log10(top), min(max(self.speech_left() - 0.3, 3.5), 6.0))

    def scores_stop_mattering(self) -> None:
        """Hot: the score bars dim as the words say they stop mattering; the mean's note becomes tau log N.

        J = E_a[s] + tau H, and H is log N at the uniform limit, so J's note gives the part that grows;
        the bars come back when the coda cools (:meth:`scenes.s3_prior.PriorCoda.show_prior_coda`).
        """
        self.when_said("stop mattering", self.dim_scores(), run_time=1.0)
        self.until_said("reaches")
        self.play(Circumscribe(self.readouts[2], color=theme.TEMPERATURE), run_time=1.2)
        tau, n = float(self.stops[-1][1]), self.s.size
        line, note = self.mean_marks
        grows = math(rf"\tau \log N = {tau * np.log(n):.2f}", colors=ROLE_TEX, size=theme.READOUT_SIZE)
        grows.next_to(self.readouts[4], RIGHT, buff=0.6)
        self.until_said("J nears")
        ring = Circumscribe(self.readouts[4], color=theme.TEMPERATURE)
        self.play(ring, ReplacementTransform(note, grows), run_time=1.2)
        self.mean_marks = VGroup(line, grows)
