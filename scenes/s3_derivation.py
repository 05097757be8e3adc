"""Section 3's derivation: softmax as the unique maximiser of J, step by step, with pictures beside.

A mixin for section 3's scene (:mod:`scenes.s3_softmax_temperature`): the
objective, the Lagrangian, the stationary point, positivity (the entropy's
slope is infinite at zero: a tangent on the curve of -x log x stands up),
normalisation, strict concavity (the same tangent turns one way all along),
uniqueness (the simplex of three items, J's level rings closing on one peak)
and the best value, log-sum-exp.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
from manim import (
    DOWN,
    LEFT,
    Create,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    Indicate,
    Mobject,
    VGroup,
)

from attnmath import optimal_objective, simplex_levels
from drawing import theme
from drawing.plots import EntropyPlot
from drawing.simplex import SimplexPicture
from drawing.steps import EquationSteps, Mark
from drawing.widgets import math
from lecture.sections.s3_softmax_temperature import TemperatureParameters
from scenes.base import SAID, Mixin

__all__ = ["SoftmaxDerivation", "ROLE_TEX", "STEPS"]

if TYPE_CHECKING:
    from drawing.widgets import BarPanel


ROLE_TEX = {"s_i": theme.SCORE, "a_i": theme.WEIGHT, "r_i": theme.PRIOR}
# The derivation: the step being explained large and centred, the step before it small above.
STEP_SIZE, HEADER_SIZE = 58, 40
PLOT_CENTER = np.array([2.4, -2.05, 0.0])  # the -x log x curve, under the step, right
UNIQUE_SIZE, UNIQUE_WIDTH = 44, 7.4  # the uniqueness lines, left of the simplex
SIMPLEX_SIDE, SIMPLEX_CENTER = 3.6, np.array([3.75, -0.4, 0.0])
RING_DEPTHS = np.array([0.06, 0.2, 0.4, 0.65])  # J's rings, as fractions of the way down from the peak


# Each step of the derivation: its TeX, one argument per term, and the terms its beat speaks about.
STEPS: dict[str, tuple[list[str], tuple[Mark, ...]]] = {
    "lagrangian": (
        [r"\mathcal{L}", "=", r"\sum_i a_i s_i", "-", r"\tau \sum_i a_i \log a_i", "+",
         r"\lambda\Big(\sum_i a_i - 1\Big)"],
        ((((6,),), "keeps the weights summing to one", theme.TEXT),),
    ),
    "stationary": (
        [r"\frac{\partial \mathcal{L}}{\partial a_i}", "=", "s_i", "-", r"\tau\,(\log a_i + 1)", "+",
         r"\lambda", "=", "0"],
        ((((3, 4),), "slope of the entropy term", theme.TEMPERATURE),),
    ),
    "positive": (
        [r"-\tau\,(\log a_i + 1)", r"\;\to\;", r"+\infty", r"\quad\text{as}\quad", r"a_i \to 0^{+}"],
        ((((0, 1, 2),), "so no weight reaches 0: the maximum is inside", theme.TEMPERATURE),),
    ),
    "log": (
        [r"\log a_i", "=", r"\frac{s_i}{\tau}", "+", r"\Big(\frac{\lambda}{\tau} - 1\Big)"],
        ((((2,), (4,)), "\u00f7 by \u03c4 > 0; the bracket is one constant", theme.TEMPERATURE),),
    ),
    "softmax": (
        [r"a_i", "=", r"e^{s_i/\tau}\, e^{\lambda/\tau - 1}", "=",
         r"\frac{e^{s_i/\tau}}{\sum_j e^{s_j/\tau}}", "=", r"\mathrm{softmax}(s/\tau)_i"],
        ((((2,),), "the constant, fixed by the sum to one", theme.TEXT),),
    ),
    "curvature": (
        [r"\frac{d^2}{dx^2}\,\big(-x \log x\big)", "=", r"-\frac{1}{x}", r"\;<\;", "0",
         r"\quad\text{for } x > 0"],
        ((((2, 3, 4),), "each term of H bends down: H is strictly concave", theme.TEMPERATURE),),
    ),
    "concave": (
        [r"J_{\tau}(a)", "=", r"\sum_i a_i s_i", r"\quad+\quad", r"\tau\, H(a)"],
        ((((2,),), "linear", theme.SCORE), (((4,),), "strictly concave", theme.TEMPERATURE)),
    ),
    "optimum": (
        [r"J_{\tau}^{*}", "=", r"J_{\tau}\big(\mathrm{softmax}(s/\tau)\big)", "=",
         r"\tau \log \sum_i e^{s_i/\tau}"],
        ((((4,),), "", theme.TEMPERATURE),),  # boxed at the foot of the chain (no room for a gloss)
    ),
}  # fmt: skip


# The whole chain at the end: J, each step that rewrites it, softmax, then its best value; a note beside each.
OBJECTIVE = [r"J_{\tau}(a)", "=", r"\mathbb{E}_a[s]", "+", r"\tau\, H(a)"]
CHAIN = ("lagrangian", "stationary", "log", "softmax", "optimum")
CHAIN_NOTES = (
    "the objective",
    "add the sum to one",
    "each slope zero",
    "divide by \u03c4",
    "normalise: softmax",
    "best value",
)
CHAIN_SIZE = theme.LABEL_SIZE  # the chain's every line still reads at 640 pixels


class SoftmaxDerivation(Mixin[TemperatureParameters]):
    """Mixin: the derivation's beats, on ``self.steps``, with the scores ``self.s``."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        s: np.ndarray
        check_tau: ClassVar[float]
        score_panel: BarPanel
        score_note: Mobject
        score_source: Mobject
        constraint: Mobject

    def derive(self) -> None:
        """The derivation, one step per beat, before any numerical check."""
        self.objective_beats()
        self.stationary_beats()
        self.softmax_beats()
        self.maximum_beats()

    def objective_beats(self) -> None:
        """The objective J and its two terms: the average score, and the entropy bonus tau weighs."""
        with self.beat(
            "objective",
            "Softmax maximises this objective, J. Its first term, E a of s, is the average score under the "
            "weights a.",
            shows="J equals E a of s plus tau H of a, over distributions a.",
        ):
            self.show_objective()
        with self.beat(
            "entropy",
            "The second rewards spread: H, the entropy; tau sets its worth. As scores are already over root "
            "d k, transformers use tau one.",
            shows="Now boxed: tau H, written minus tau sum of a i log a i.",
        ):
            self.steps.mark(
                (((4,), (8, 9)), "τ × entropy: how spread out a is", theme.TEMPERATURE), at="the entropy"
            )
            tau = Indicate(self.steps.main[4], color=theme.TEMPERATURE, scale_factor=1.1)
            self.when_said("sets its worth", tau, run_time=1.2)
            usual = math(r"\text{transformers: } \tau = 1, \text{ scores already over } \sqrt{d_k}")
            usual.set_color(theme.MUTED).next_to(self.steps.marks, DOWN, buff=0.35)
            usual.set_x(self.steps.main.get_x())  # under the equation, clear of the frame's edge
            self.when_said("root d k", FadeIn(usual), run_time=0.8)
            self.steps.attach(usual)  # it leaves with this step's marks

    def stationary_beats(self) -> None:
        """The Lagrangian, its stationary point, and why the maximum is interior."""
        with self.beat(
            "lagrangian",
            "Take tau above zero. To hold the sum at one, add a Lagrange multiplier, lambda.",
            shows="Written: L equals J plus lambda times the quantity sum of a i minus one.",
        ):
            self.steps.step(STEPS["lagrangian"][0], *STEPS["lagrangian"][1], at="Lagrange multiplier")
        with self.beat(
            "stationary",
            "At an interior maximum, each derivative is zero. The boxed term is tau times the "
            "entropy's slope.",
            shows="s i, plus lambda; boxed, minus tau times the quantity log a i plus one.",
        ):
            self.steps.step(STEPS["stationary"][0], *STEPS["stationary"][1], at="boxed term")
        with self.beat(
            "positive",
            "And the maximum is interior: the entropy's slope grows without bound as a weight nears zero.",
            shows="Beneath, the curve minus x log x; its tangent stands upright at zero.",
        ):
            self.steps.step(STEPS["positive"][0])
            self.entropy_plot = EntropyPlot().move_to(PLOT_CENTER)
            self.when_said("the entropy's slope", FadeIn(self.entropy_plot), run_time=1.0)
            self.until_said("without bound")
            self.steps.mark(*STEPS["positive"][1])
            self.entropy_plot.slide_tangent(self, 0.004, run_time=2.0)  # the tangent stands up at zero
            self.steps.attach(self.entropy_plot)  # it leaves with its step

    def softmax_beats(self) -> None:
        """Solve the stationary point for a_i: a constant apart, normalised, it is softmax."""
        with self.beat(
            "log",
            "Divide by tau: log a i is s i over tau, plus a constant, the same for every item.",
            shows=SAID,  # the equation spoken; its boxed bracket is the constant the words name
        ):
            self.steps.step(STEPS["log"][0], *STEPS["log"][1], at="the same for every")
        with self.beat(
            "softmax",
            "Exponentiate. Summing to one fixes the constant factor: that is exactly softmax of s over tau.",
            shows="Boxed: e to the s i over tau, over its sum, the attention weights.",
        ):
            self.steps.step(STEPS["softmax"][0], *STEPS["softmax"][1], at="fixes the constant")
            self.until_said("exactly")
            self.steps.mark((((4,),), "the attention weights", theme.WEIGHT))

    def maximum_beats(self) -> None:
        """Why that point is the one maximum (strict concavity on the simplex), and J's best value."""
        with self.beat(
            "concave",
            "A maximum? Minus x log x has second derivative minus one over x: H is strictly concave, "
            "and so is J.",
            shows="A tangent slides along minus x log x, always turning down; then J, labelled.",
        ):
            self.entropy_plot = EntropyPlot(at=0.03).move_to(PLOT_CENTER)
            self.when_said("Minus x log x", FadeIn(self.entropy_plot), run_time=0.8)
            self.until_said("second derivative")
            self.steps.step(STEPS["curvature"][0])  # written as it is said
            self.entropy_plot.slide_tangent(self, 0.97, run_time=1.3)  # turning one way all along: bending
            self.until_said("strictly concave")
            self.steps.mark(*STEPS["curvature"][1])
            self.steps.attach(self.entropy_plot)
            self.steps.step(STEPS["concave"][0], *STEPS["concave"][1])  # J's line comes as "and so is J"
        with self.beat(
            "unique",
            "On the simplex, the set of valid weightings, a concave objective's stationary point is its "
            "maximum, and strict concavity allows only one: softmax.",
            shows="A triangle of three items' weights; rings of equal J close on one yellow dot.",
        ):
            picture = self.simplex_picture()
            self.steps.step(
                self.uniqueness(),
                (((2,),), "", theme.WEIGHT),
                before=("On the simplex", (Create(picture.triangle), FadeIn(picture.corners))),
                parts_at=("a concave", "strict concavity", "only one"),
                alongside=(
                    (Create(picture.rings, lag_ratio=0.2),),  # a concave J's rings close on its top
                    (GrowFromCenter(picture.peak),),  # strictly: one top
                    (),
                ),
                width=UNIQUE_WIDTH,
                size=UNIQUE_SIZE,
                x=theme.SAFE_LEFT + UNIQUE_WIDTH / 2,
            )
            self.steps.attach(picture)  # the picture leaves with its step
        with self.beat(
            "optimum",
            "Put softmax back into J: its best value is tau times the log of the sum of exponentials.",
            shows="Every step from J to softmax, stacked and named; last, J tau star.",
        ):
            chain = [OBJECTIVE, *(STEPS[key][0] for key in CHAIN)]
            self.steps.recap(chain, CHAIN_NOTES, *STEPS["optimum"][1], size=CHAIN_SIZE)

    def show_objective(self) -> None:
        """The objective over distributions, its expected-score term boxed."""
        self.steps = EquationSteps(
            self,
            colors=ROLE_TEX,
            size=STEP_SIZE,
            header_size=HEADER_SIZE,
            until_said=self.until_said,
        )
        objective = self.steps.tex(
            r"J_{\tau}(a)", "&=", r"\mathbb{E}_a[s]", "+", r"\tau\, H(a)", r"\\",
            "&=", r"\sum_i a_i s_i", "-", r"\tau \sum_i a_i \log a_i",
        )  # fmt: skip
        leaving = (self.score_panel, self.score_source, self.score_note)
        self.steps.start(self.constraint, objective, *(FadeOut(m) for m in leaving))  # it rises to the top
        self.when_said("objective, J", Indicate(objective[0], color=theme.TEXT), run_time=1.0)
        self.steps.mark((((2,), (7,)), "the average score under a", theme.SCORE), at="E a of s")
        self.hold(max(0.0, min(1.0, self.speech_left() - 1.2)))
        averaged = Indicate(VGroup(objective[2], objective[7]), color=theme.SCORE)  # its two ways of writing
        self.play(averaged, run_time=1.2)

    def uniqueness(self) -> VGroup:
        """The argument for uniqueness, one line per fact, beside the simplex that pictures it."""
        size = UNIQUE_SIZE
        lines = VGroup(
            math(r"\text{concave: stationary point} = \text{maximum}", size=size),
            math(r"\text{strictly concave: one maximum at most}", size=size),
            math(r"\mathrm{softmax}(s/\tau)\text{: the unique maximiser}", size=size),
        ).arrange(DOWN, buff=0.45, aligned_edge=LEFT)
        return lines

    def simplex_picture(self) -> SimplexPicture:
        """J over the top three items' weights at the check temperature: rings closing on the one peak."""
        top = np.sort(np.argsort(-self.s)[:3])  # the three best items, in their order on screen
        s3 = self.s[top]
        best = float(optimal_objective(s3, self.check_tau))
        levels = simplex_levels(s3, self.check_tau, best - (best - float(s3.min())) * RING_DEPTHS)
        names = tuple(self.params.shown(int(i)) for i in top)
        picture = SimplexPicture(levels, side=SIMPLEX_SIDE, names=(names[0], names[1], names[2]))
        return picture.move_to(SIMPLEX_CENTER)
