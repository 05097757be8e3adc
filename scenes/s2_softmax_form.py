"""Section 2, the softmax form: Nadaraya-Watson's Gaussian weights are attention weights.

The Gaussian weights written as a softmax of minus the squared distance over
2 sigma^2; the square expanded, its q-only term struck (the softmax drops it),
leaving a dot-product score at temperature sigma^2 plus a key-only offset;
then attention's form, softmax(q k_i / tau + b_i), takes the first line, each
term boxed with the kernel's term it renames (tau = sigma^2), and keys and
values are named on the picture. Mixed into section 2's scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DL,
    DOWN,
    LEFT,
    RIGHT,
    UR,
    AnimationGroup,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    FadeTransform,
    Indicate,
    LaggedStart,
    Line,
    MathTex,
    Mobject,
    ReplacementTransform,
    SurroundingRectangle,
    UpdateFromAlphaFunc,
    VGroup,
    VMobject,
    Write,
)

from attnmath import kernel_profile
from drawing import theme
from drawing.pointing import in_turn
from drawing.readouts import LabelSwitch
from drawing.widgets import BarPanel, label, math
from lecture.sections.s2_kernel_regression import KernelRegressionParameters
from scenes.base import Mixin
from scenes.onscreen import continuing

__all__ = ["SoftmaxForm", "RIGHT_X", "ROLE_TEX", "SHOWN_WEIGHT"]

RIGHT_X = 3.8  # the right column's centre: the numbers, the formulas, the error plot
SHOWN_WEIGHT = 0.01  # a weight bar lower than this is too thin to see
# "q" is safe here: no TeX command in this scene's formulas contains the letter.
ROLE_TEX = {"y_i": theme.VALUE, "x_i": theme.KEY, "x_j": theme.KEY, "q": theme.QUERY, "w_i": theme.WEIGHT}


class SoftmaxForm(Mixin[KernelRegressionParameters]):
    """Mixin for section 2's scene: the three beats that rewrite the kernel's weights as a softmax."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        w: np.ndarray
        x: np.ndarray
        sigmas: np.ndarray
        bars: BarPanel
        bump: VMobject
        dots: VGroup
        live: VGroup
        readouts: VGroup
        regime: LabelSwitch

        def index(self) -> int:
            """Grid index nearest the tracker's bandwidth."""
            ...

    def show_softmax_identity(self) -> None:
        """The Gaussian weights written as a softmax, then expanded into a dot-product score."""
        identity = self.identity()
        with self.beat(
            "softmax-form",
            "Now write the Gaussian weights as a softmax of minus the squared distance "
            "over two sigma squared: "
            "exponentials divided by their sum.",
            shows=self.normalising_shows(),  # the formula written is the one spoken
        ):
            self.stop_live(self.live)
            self.play(FadeOut(self.readouts), FadeOut(self.regime), run_time=0.8)
            self.when_said("as a softmax", Write(identity[0]), run_time=2.5)
            bump = Indicate(self.bump, color=theme.TEXT, scale_factor=1.0)  # the Gaussian the formula writes
            self.when_said("squared distance", bump, run_time=1.5)
            weights, exponentials = self.w[self.index()], self.exponentials()
            worked = self.worked_weight(identity[0])  # in the row the expansion takes next
            emptying = self.bars_between(weights, exponentials, emptying=True)
            self.when_said("exponentials", emptying, FadeIn(worked[0]), run_time=1.2)
            filling = self.bars_between(exponentials, weights, emptying=False)
            self.when_said("divided by their sum", filling, ReplacementTransform(*worked), run_time=1.5)
            self.worked = worked[1]  # it gives its row to the expansion
        with self.beat(
            "expand",
            "Expand the square: a dot-product score, q times x i over sigma squared, plus a key-only term. "
            "The q-only term cancels.",
            shows="Minus x i squared over 2 sigma squared stays; q's term, same for all, struck.",
        ):
            expanded, strike = self.expanded_line(identity)
            named = VGroup()  # "= softmax(" and each term as it is named; the score, the key-only bias boxed
            opening = AnimationGroup(FadeIn(expanded[0], shift=0.2 * DOWN), Write(expanded[1]))
            handover = LaggedStart(FadeOut(self.worked), opening, lag_ratio=1.0)  # the worked line first
            self.when_said("dot-product score", handover, run_time=1.4)
            self.when_said("over sigma squared", Create(self.outline(expanded[1], theme.SCORE, named)))
            key = Create(self.outline(expanded[2], theme.PRIOR, named))  # the bias section 4 reads as a prior
            self.when_said("key-only term", Write(expanded[2]), key)
            self.when_said("q-only term", Write(expanded[3]), Write(expanded[4]))
            self.play(Create(strike), run_time=0.8)
        with self.beat(
            "attention",
            "So these yellow weights are attention weights, keys x i, values y i: dot-product scores "
            "at temperature sigma squared, plus a key-only offset.",
            shows="Formula: softmax of q k i over tau, plus offset b i; tau, sigma squared.",
            ends_section=True,
        ):
            weights = self.w[self.index()]
            shown = VGroup(*(bar for bar, w in zip(self.bars.bars, weights, strict=True) if w > SHOWN_WEIGHT))
            settled = (FadeOut(strike), FadeOut(named), ReplacementTransform(expanded, identity[1]))
            self.play(Circumscribe(shown, color=theme.WEIGHT), *settled, run_time=1.5)  # the bars, not a row
            self.attention_form(identity)

    def attention_form(self, identity: VGroup) -> None:
        """The first line becomes attention's softmax(q k_i / tau + b_i); its terms are matched as named.

        Keys and values are marked on the plot; then each term of the attention form is boxed with the
        kernel's term it renames: the score, tau written under sigma squared, and the key-only bias.
        """
        attention = self.attention_line(identity[0])
        self.when_said("attention weights", FadeTransform(identity[0], attention), run_time=1.0)
        self.when_said("keys x i", Create(self.key_ticks(), lag_ratio=0.1), run_time=1.0)
        values = in_turn(self.dots, color=theme.VALUE, scale=1.6, lag=0.05)
        self.when_said("values y i", values, run_time=1.2)
        pairs = VGroup()
        kernel = identity[1]
        scores = (self.outline(attention[1], theme.SCORE, pairs), self.outline(kernel[1], theme.SCORE, pairs))
        self.when_said("dot-product scores", *(Create(box) for box in scores), run_time=0.8)
        tau = math(r"\tau = \sigma^2", colors={r"\tau": theme.TEMPERATURE, r"\sigma": theme.TEMPERATURE})
        tau.next_to(kernel[1], DOWN, buff=0.15)  # under the kernel's sigma squared, above the error plot
        self.when_said("temperature", FadeIn(tau, shift=0.2 * LEFT), run_time=0.8)
        biases = (self.outline(attention[2], theme.PRIOR, pairs), self.outline(kernel[2], theme.PRIOR, pairs))
        self.when_said("key-only offset", *(Create(box) for box in biases), run_time=0.8)

    @staticmethod
    def attention_line(kernel_line: Mobject) -> MathTex:
        """w_i = softmax_i(q k_i / tau + b_i), where ``kernel_line`` was, its left edge kept."""
        line = math(
            r"w_i = \mathrm{softmax}_i\!\Big(",
            r"\frac{q\, k_i}{\tau}",
            r"+ b_i",
            r"\Big)",
            colors={**ROLE_TEX, "k_i": theme.KEY, r"\tau": theme.TEMPERATURE, "b_i": theme.PRIOR},
            size=42,
        )
        return line.align_to(kernel_line, LEFT).match_y(kernel_line)

    def exponentials(self) -> np.ndarray:
        """The softmax's numerators at the query: each point's Gaussian, before dividing by their sum."""
        return kernel_profile(self.x, self.params.query, self.sigmas[self.index()])

    def normalising_shows(self) -> str:
        """The bars' change to the exponentials, and the nearest sample's worked numbers, in words.

        The bars shrink when the exponentials' sum is under 1 (:meth:`worked_weight` shows the numbers).
        """
        e, total, w = self.nearest_numbers()
        way = "shrink" if total < 1 else "grow"
        exponent = f"minus {-np.log(e):.2f}" if e < 1 else f"{np.log(e):.2f}"
        return f"Bars {way}; nearest, e to the {exponent}, {e:.3g}; over sum {total:.3g}, {w:.2f}."

    def nearest_numbers(self) -> tuple[float, float, float]:
        """The heaviest sample's exponential, the sum of all the exponentials, and its weight, their ratio."""
        exponentials = self.exponentials()
        k = int(np.argmax(exponentials))
        return float(exponentials[k]), float(exponentials.sum()), float(self.w[self.index()][k])

    def worked_weight(self, above: Mobject) -> VGroup:
        """The heaviest sample's weight worked out under ``above``: its exponential, then divided by the sum.

        Two versions of one line, the second to replace the first; ``w = e / sum`` is checked against the
        weight the bars show (a bug if they differ).
        """
        e, total, w = self.nearest_numbers()
        assert abs(e / total - w) < 1e-9, "bug: the worked weight is not the bar's"
        exponential = VGroup(
            label("nearest sample:", small=True, color=theme.MUTED),
            math(rf"e^{{{np.log(e):.2f}}} = {e:.3g}", colors=ROLE_TEX, size=40),
        ).arrange(RIGHT, buff=0.25)
        ratio = math(rf"w_i = {e:.3g} / {total:.3g} = {w:.2f}", colors=ROLE_TEX, size=40)
        for line in (exponential, ratio):
            line.next_to(above, DOWN, buff=0.3).align_to(above, LEFT)
            line.shift(min(theme.SAFE_RIGHT - line.get_right()[0], 0.0) * RIGHT)  # inside the frame
        return VGroup(exponential, ratio)

    def bars_between(self, start: np.ndarray, end: np.ndarray, *, emptying: bool) -> UpdateFromAlphaFunc:
        """The weight bars from heights ``start`` to ``end``, their fill emptying (or filling) as they go."""
        filled = 0.9

        def step(panel: BarPanel, alpha: float) -> None:
            panel.set_values((1 - alpha) * start + alpha * end)
            hollow = alpha if emptying else 1 - alpha
            panel.bars.set_fill(opacity=filled * (1 - hollow)).set_stroke(width=1.5 + 2.5 * hollow)

        return UpdateFromAlphaFunc(self.bars, step)

    @staticmethod
    def outline(term: Mobject, color: str, into: VGroup) -> Mobject:
        """An outline of ``color`` around ``term`` (its own colours keep their contrast), kept in ``into``."""
        box = SurroundingRectangle(term, buff=0.08, stroke_width=4, color=color, corner_radius=0.06)
        into.add(box)
        return box

    def key_ticks(self) -> VGroup:
        """A key-coloured tick under each sample's weight bar: the keys are the inputs x i."""
        ticks = VGroup()
        for bar in self.bars.bars:
            bottom = bar.get_bottom()
            ticks.add(Line(bottom, bottom + 0.2 * DOWN, color=theme.KEY, stroke_width=4))
        return ticks

    def expanded_line(self, identity: VGroup) -> tuple[MathTex, Line]:
        """The square expanded in full, with the q-only term -q^2 / 2 sigma^2, and a stroke through it.

        That term is the same for every i, so the softmax drops it: struck, it leaves as the line
        becomes the identity's second line.
        """
        expanded = math(
            r"= \mathrm{softmax}_i\!\Big(",
            r"\frac{q\, x_i}{\sigma^2}",
            r"- \frac{x_i^2}{2\sigma^2}",
            r"- \frac{q^2}{2\sigma^2}",
            r"\Big)",
            colors=ROLE_TEX,
            size=38,
        )
        continuing(expanded, "w_i")  # the line goes on from the identity's first line, w_i = ...
        expanded.align_to(identity[1], LEFT).match_y(identity[1])
        term = expanded[3]  # "- q^2 / 2 sigma^2", written as the voice names it, then struck
        strike = Line(term.get_corner(DL), term.get_corner(UR), color=theme.WARNING, stroke_width=5)
        return expanded, strike

    def identity(self) -> VGroup:
        """The two lines of the identity, placed where the estimator's formula was."""
        identity = VGroup(
            math(
                r"w_i = \mathrm{softmax}_i\!\left(-\frac{\|q - x_i\|^2}{2\sigma^2}\right)",
                colors=ROLE_TEX,
                size=42,
            ),
            continuing(
                math(
                    r"= \mathrm{softmax}_i\!\Big(",
                    r"\frac{q\, x_i}{\sigma^2}",
                    r"- \frac{x_i^2}{2\sigma^2}",
                    r"\Big)",
                    colors=ROLE_TEX,
                    size=42,
                ),
                "w_i",
            ),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        return identity.move_to([RIGHT_X, theme.SAFE_TOP - identity.height / 2 - 0.1, 0])
