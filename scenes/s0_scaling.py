"""Section 0, why tau = sqrt(d_k): a score's variance grows with the key's width, and dividing undoes it.

The derivation of Var(q . k) = d_k, then scores drawn at three key widths that spread ever wider and
shrink alike when divided. Mixed into the title's scene (:mod:`scenes.s0_title`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Circumscribe, FadeIn, FadeOut, ReplacementTransform, VGroup

from attnmath import dot_product_samples
from drawing import theme
from drawing.spread import SpreadRows
from drawing.widgets import label, math
from lecture.sections.s0_title import TitleParameters
from scenes.base import Mixin

__all__ = ["Scaling", "SPREAD_WIDTHS"]

SPREAD_WIDTHS = (4, 16, 64)
"""Key widths d_k whose scores the scaling beat draws, one row each."""
SPREAD_DRAWS = 40
"""Draws of q . k per row."""


class Scaling(Mixin[TitleParameters]):
    """The two beats that derive the score's variance and show what dividing by sqrt(d_k) does."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        origins: VGroup

    def show_score_variance(self) -> None:
        """The projections leave; the score as a sum of d_k products, its entries' terms, its variance."""
        size = theme.TITLE_SIZE
        total = math("q", r"\cdot", "k", r"= \sum_{i=1}^{d_k}", "q_i", "k_i", size=size)
        terms = (r":\ \text{independent},", r"\ \text{mean } 0,", r"\ \mathrm{Var} = 1")
        assume = math("q_i", ",", "k_i", *terms)
        moments = (r") = \mathrm{E}[", "q_i", r"^2]\,\mathrm{E}[", "k_i", "^2] = 1")
        product = math(r"\mathrm{Var}(", "q_i", "k_i", *moments)
        spread = math(r"\mathrm{Var}(", "q", r"\cdot", "k", r") = d_k", size=size)
        pairs = ((total, (0, 2)), (total, (4, 5)), (assume, (0, 2)), (product, (1, 2)), (product, (4, 6)))
        for eq, (query, key) in (*pairs, (spread, (1, 3))):
            eq[query].set_color(theme.QUERY)
            eq[key].set_color(theme.KEY)
        rule = self.origins[2:]
        gloss = label("Var: spread, squared", small=True, color=theme.MUTED)
        row = VGroup(assume, gloss).arrange(RIGHT, buff=0.4)
        VGroup(total, row, product, spread).arrange(DOWN, buff=0.35).move_to(0.95 * DOWN)
        self.play(FadeOut(self.origins[:2]), rule.animate.move_to(1.5 * UP), run_time=1.0)
        self.play(FadeIn(total, shift=0.2 * UP), run_time=1.0)
        self.when_said("are independent", FadeIn(assume[:4], shift=0.2 * UP), run_time=0.8)
        self.when_said("mean zero", FadeIn(assume[4], shift=0.2 * UP), run_time=0.6)
        said = (FadeIn(assume[5], shift=0.2 * UP), FadeIn(gloss, shift=0.2 * LEFT))  # the gloss beside it
        self.when_said("variance one", *said, run_time=0.8)
        self.when_said("each product", FadeIn(product, shift=0.2 * UP), run_time=0.8)
        self.when_said("summed", FadeIn(spread, shift=0.2 * UP), run_time=0.8)
        self.origins.add(total, row, product, spread)
        self.hold(self.speech_left() + 0.4)  # "d k." runs into "Dividing" otherwise: a clear pause between

    def show_scaled_variance(self) -> None:
        """Scores drawn at three key widths spread wider; divided by sqrt(d_k) they share one width."""
        spread, steps = self.origins[-1], self.origins[-4:-1]
        rows = self.spread_rows().move_to(1.75 * DOWN)
        self.play(FadeOut(steps), spread.animate.move_to(0.3 * UP), FadeIn(rows), run_time=1.0)
        self.origins.remove(*steps)
        self.origins.add(rows)
        scaled = math(
            r"\mathrm{Var}\big(",
            "q",
            r"\cdot",
            "k",
            r"/\sqrt{d_k}\big) = \frac{d_k}{d_k}",
            "= 1",
            size=theme.TITLE_SIZE,
        )
        scaled[1].set_color(theme.QUERY)
        scaled[3].set_color(theme.KEY)
        scaled.move_to(spread)
        divide = rows.rescale([1 / np.sqrt(d) for d in SPREAD_WIDTHS])
        self.when_said("divides that", ReplacementTransform(spread, scaled[:-1]), *divide, run_time=1.5)
        self.origins.remove(spread)
        self.origins.add(scaled)
        self.until_said("variance one")
        self.play(FadeIn(scaled[-1], shift=0.2 * LEFT), run_time=0.8)
        self.play(Circumscribe(scaled, color=theme.TEMPERATURE), run_time=1.2)

    def spread_rows(self) -> SpreadRows:
        """Draws of q . k for keys of 4, 16 and 64 entries, one row each, on one scale."""
        rows = [
            (math(rf"d_k = {d}", size=theme.READOUT_SIZE), dot_product_samples(d, SPREAD_DRAWS, seed=d))
            for d in SPREAD_WIDTHS
        ]
        return SpreadRows(rows, width=10.0, limit=2.5 * np.sqrt(max(SPREAD_WIDTHS)))
