"""Section 5, the opening's "bank" in a trained encoder: the head that weighs "loan" most, and a control.

all-MiniLM-L6-v2 (attnmath.context) reads the opening's loan sentence: the head
with the most of "bank"'s weight on "loan" is a maximum over 72 heads, so the
median head's share is said beside it. The same head then reads the river
sentence, where it gives "river" less than another token: where a head looks is
not what a word means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    Mobject,
    ReplacementTransform,
    VGroup,
)

from attnmath import LOAN_SENTENCE, RIVER_SENTENCE, ContextPull, context_pull
from drawing import theme
from drawing.arcs import mix_arcs, on_baseline
from drawing.widgets import label
from lecture.sections.s5_multihead import HeadRoutingParameters
from scenes.base import Mixin

__all__ = ["BankPayoff"]


class BankPayoff(Mixin[HeadRoutingParameters]):
    """Mixin for section 5's scene: the bank beats, between the measured sink and the unmatched patterns."""

    if TYPE_CHECKING:  # kept by the trained-encoder beats (scenes.s5_trained)
        shown: VGroup

        def model_tag(self) -> list[Mobject]:
            """The measured model's name, small at the top: [it] until it is shown."""

    def bank_settled(self) -> None:
        """The opening's "bank": the head that pulls "loan" in most, the typical head, the river control."""
        pull = context_pull(LOAN_SENTENCE, "bank", "loan")
        layer, head = pull.layer + 1, pull.head + 1
        row, arcs, shares = self.bank_row(pull)
        name = label(f"measured: layer {layer}, head {head}, the weights of bank", color=theme.TEXT)
        name.move_to(2.6 * UP)
        typical = label(f"typical head: {100 * pull.typical:.0f}% on loan", small=True, color=theme.MUTED)
        typical.next_to(name, DOWN, buff=0.2)
        with self.beat(
            "trained-bank",
            f"The opening's bank: the head that weighs loan most, layer {layer}, head {head}, gives it "
            f"{100 * pull.share:.0f} percent of bank's weight; a typical head, "
            f"{100 * pull.typical:.0f} percent.",
            shows="Arcs from bank to every token, thickest to loan; each token's share beneath.",
        ):
            self.play(FadeOut(self.shown), *(FadeIn(m) for m in (row, *self.model_tag())), run_time=1.2)
            self.when_said("layer", Create(arcs), FadeIn(name), run_time=1.5)
            cue = Circumscribe(row[pull.cue], color=theme.KEY)
            self.when_said(
                "percent", LaggedStart(*(FadeIn(s) for s in shares), lag_ratio=0.1), cue, run_time=1.2
            )
            self.when_said("typical", FadeIn(typical), run_time=0.8)
        self.shown = VGroup(row, arcs, shares, name, typical)
        self.bank_control(pull)

    def bank_control(self, loan: ContextPull) -> None:
        """The same head in the river sentence: where it looks is not what "bank" means."""
        pull = context_pull(RIVER_SENTENCE, "bank", "river", head=(loan.layer, loan.head))
        row, arcs, shares = self.bank_row(pull)
        top = int(np.argmax(pull.weights))
        spoken = {"[CLS]": "C L S", "[SEP]": "S E P"}.get(pull.tokens[top], pull.tokens[top])
        than = "its largest share" if top == pull.cue else f"less than {spoken}"
        with self.beat(
            "trained-river",
            f"In the river sentence, that head gives river {100 * pull.share:.0f} percent, {than}: "
            "where a head looks is not what a word means.",
            shows=f"The river sentence replaces it; the same head's arcs, thickest to {spoken}.",
        ):
            old_row, old_arcs, old_shares = self.shown[:3]
            self.play(FadeOut(old_arcs), FadeOut(old_shares), FadeOut(self.shown[4]), run_time=0.6)
            self.play(ReplacementTransform(old_row, row), run_time=1.0)
            self.play(Create(arcs), run_time=1.2)
            self.when_said("percent", LaggedStart(*(FadeIn(s) for s in shares), lag_ratio=0.1), run_time=1.0)
            self.when_said(
                "less than" if top != pull.cue else "largest", Circumscribe(row[top]), run_time=1.0
            )
        self.shown = VGroup(row, arcs, shares, self.shown[3])

    def bank_row(self, pull: ContextPull) -> tuple[VGroup, VGroup, VGroup]:
        """A sentence's tokens in a row, the head's arcs from "bank", and each token's share beneath."""
        row = VGroup(*(label(t, color=self.token_colour(pull, j)) for j, t in enumerate(pull.tokens)))
        on_baseline(row.arrange(RIGHT, buff=0.45)).move_to(1.2 * DOWN)  # room for each share beneath its word
        arcs = mix_arcs(row, pull.query, pull.weights)
        shares = VGroup(
            *(
                label(f"{100 * w:.0f}%", small=True, color=theme.WEIGHT).next_to(word, DOWN, buff=0.3)
                for w, word in zip(pull.weights, row, strict=True)
            )
        )
        shares.set_y(min(s.get_y() for s in shares))  # one line of shares, whatever the words' descenders
        return row, arcs, shares

    @staticmethod
    def token_colour(pull: ContextPull, j: int) -> str:
        """The query word in the query's colour, the cue in the key's, [CLS] and [SEP] muted."""
        if j == pull.query:
            return theme.QUERY
        if j == pull.cue:
            return theme.KEY
        return theme.MUTED if pull.tokens[j] in ("[CLS]", "[SEP]") else theme.TEXT
