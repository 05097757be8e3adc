"""Section 4, position bias as a prior: content weights times ALiBi's position prior (T5's works alike).

Adding a bias b to the scores multiplies the kernel by a prior
r proportional to e^b: section 3's rule with a prior, the maximiser of expected
score minus tau times KL(a || r). Also the answer to the section's question
(a flat prior). Mixed into section 4's scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    Circumscribe,
    FadeIn,
    FadeOut,
    Indicate,
    Mobject,
    Transform,
    VGroup,
)

from attnmath import (
    alibi_bias,
    softmax,
)
from drawing import theme
from drawing.arcs import on_baseline
from drawing.widgets import BarPanel, fit_width, label, math
from lecture.sections import s3_softmax_temperature
from lecture.sections.s3_softmax_temperature import TemperatureParameters
from lecture.sections.s4_kernel_variants import ALIBI_SLOPE, KernelVariantsParameters
from narration.narrator import Spoken
from scenes.base import Mixin

__all__ = ["PositionPrior"]

ROLE_TEX = {"r_i": theme.PRIOR, "s_i": theme.SCORE, "a_i": theme.WEIGHT, "b_i": theme.PRIOR}


class PositionPrior(Mixin[KernelVariantsParameters]):
    """Mixin for section 4's scene: the prior beats (ALiBi, the KL form) and the question's answer."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        prior_tau: ClassVar[float]
        leaving: VGroup

    # --- position bias as a prior -------------------------------------------------
    def prior_rows(self, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Normalised prior exp(b) and the resulting weights softmax(s / tau, prior)."""
        return softmax(bias), softmax(self.scores, self.prior_tau, prior=np.exp(bias))

    def content_keys(self) -> TemperatureParameters:
        """Section 3's items and scores, the lecturer's where the lecture file sets them: the content row."""
        section3 = self.lecture.parameters_as(s3_softmax_temperature.SECTION, TemperatureParameters)
        return section3

    def keys_line(self, keys: TemperatureParameters) -> Mobject:
        """The keys in order under the row: the sentence's words, the last one the query; or their count."""
        names = keys.names()
        n = len(names)
        if keys.numbered:
            return label(f"key position i (the query is i = {n})", color=theme.MUTED)
        words = VGroup(
            label(f"keys 1\u2013{n}:", color=theme.MUTED, small=True),
            *(label(w, color=theme.KEY, small=True) for w in names[:-1]),
            label(names[-1], color=theme.QUERY, small=True),  # the query, in the query's colour
        )
        return fit_width(on_baseline(words.arrange(RIGHT, buff=0.16)), theme.SAFE_RIGHT - theme.SAFE_LEFT)

    def show_position_prior(self) -> None:
        """Content weights x position prior = attention weights, for ALiBi, over section 3's keys."""
        keys = self.content_keys()
        self.scores, self.keys = np.asarray(keys.scores, dtype=float), keys
        alibi = alibi_bias(self.scores.size, ALIBI_SLOPE)[-1]
        panels = self.prior_panels(alibi)
        self.prior_row, self.alibi = panels, alibi
        x_title = self.keys_line(keys).move_to(2.55 * DOWN)
        name = label(f"ALiBi prior (\u2212{ALIBI_SLOPE:g} per token back)").move_to(3.2 * UP)
        self.prior_name = name  # the answer renames it while every bias is zero
        equation = math(
            r"a_i \propto r_i\, e^{s_i/\tau} \;\text{ maximises }\; ",
            r"\mathbb{E}_a[s] - \tau\,\mathrm{KL}(a \,\|\, r)",
            colors=ROLE_TEX,
            size=48,
        ).move_to(2.4 * UP)
        with self.beat(
            "alibi-prior",
            "ALiBi's bias, b, added to the scores, multiplies the kernel by a prior, "
            "r proportional to e to the b over tau; T5's likewise.",
            shows=self.alibi_description(alibi),
        ):
            self.play(FadeOut(self.leaving), *(FadeIn(m) for m in (name, panels[2], x_title)), run_time=1.5)
            self.when_said("to the scores", FadeIn(panels[0]), FadeIn(panels[1]), run_time=1.0)
            weights = self.prior_rows(alibi)[1]  # the product grows from nothing as the words form it
            panels[4].set_values(np.zeros_like(weights))
            self.when_said("proportional", FadeIn(panels[3]), FadeIn(panels[4]), run_time=0.8)
            self.play(panels[4].animate.set_values(weights), run_time=1.5)
        with self.beat(
            "kl-form",
            "That is section three's rule with a prior, r: it maximises expected score minus tau times the "
            "K L divergence from r.",
            shows="Written: a i proportional to r i e to the s i over tau.",
        ):
            self.fade_in(equation[0])
            self.when_said("maximises", FadeIn(equation[1]), run_time=0.6)
            self.until_said("K L")
            self.play(Circumscribe(equation[1], color=theme.PRIOR), run_time=1.5)

    def alibi_description(self, alibi: np.ndarray) -> str:
        """The prior panel, then the content's tallest key and the product's."""
        names = self.keys.names()
        top, content_top = (int(np.argmax(row)) for row in (self.prior_rows(alibi)[1], self.scores))
        if self.keys.numbered:
            return (
                f"Prior bars climb toward key {len(names)}, the query; "
                f"times the content bars, key {top + 1} towers."
            )
        outcome = f"{names[top]} still towers"
        if top != content_top:
            outcome = f"{names[top]} towers over {names[content_top]}"
        return f"Our sentence: prior bars climb toward the query, {names[-1]}; times content, {outcome}."

    def flatten_prior(self, spoken: Spoken) -> None:
        """The answer: every bias zero, a flat prior, the content's weights; then ALiBi's prior again."""
        panels = self.prior_row
        flat_prior, flat_weights = self.prior_rows(np.zeros_like(self.alibi))
        prior, weights = self.prior_rows(self.alibi)
        name, alibi = self.prior_name, self.prior_name.copy()  # renamed in place: it belongs to a group
        zero = label("every bias 0: a flat prior").move_to(name)
        self.play(
            panels[2].animate.set_values(flat_prior),
            panels[4].animate.set_values(flat_weights),
            Transform(name, zero),
            run_time=1.5,
        )
        self.play(Indicate(panels[0], color=theme.TEXT), Indicate(panels[4], color=theme.TEXT), run_time=1.2)
        self.hold(self.speech_left() - 1.0)
        back = (panels[2].animate.set_values(prior), panels[4].animate.set_values(weights))
        self.play(*back, Transform(name, alibi), run_time=1.0)

    def prior_panels(self, bias: np.ndarray) -> VGroup:
        """Content weights x prior exp(bias) = weights, on one scale."""
        content = softmax(self.scores, self.prior_tau)
        prior, result = self.prior_rows(bias)
        top = 1.1 * float(max(content.max(), result.max(), prior.max()))

        def panel(values: np.ndarray, color: str, tex: str) -> BarPanel:
            title = math(tex, colors=ROLE_TEX)
            return BarPanel(values, width=3.4, height=2.7, color=color, title=title, y_range=(0.0, top))

        # the bars are the content weights themselves, softmax(s / tau): proportional to e^{s_i / tau}, and
        # weights, so in the weights' colour (their title names what they hold, not only their shape)
        first = panel(content, theme.WEIGHT, r"\mathrm{softmax}(s/\tau)_i")
        row = VGroup(
            first,
            math(r"\times"),
            panel(prior, theme.PRIOR, r"r_i \propto e^{b_i/\tau}"),
            math(r"\propto"),
            panel(result, theme.WEIGHT, r"a_i \propto r_i\, e^{s_i/\tau}"),
        )
        row.arrange(RIGHT, buff=0.35, aligned_edge=DOWN).move_to(0.2 * DOWN)
        for sign in row[1::2]:
            sign.set_y(first.box.get_y())  # between the boxes, not the titles
        return row
