"""Section 3, the dashboard: the scores beside their softmax weights, a tau slider and live readouts.

Every live element is redrawn from attnmath's numbers at the slider's
temperature (weights, tau, H(a), effective k, E_a[s] and the objective J),
and scipy's optimiser checks the derivation at one temperature. Mixed into
section 3's scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    Animation,
    Create,
    FadeIn,
    FadeOut,
    Mobject,
    MoveToTarget,
    Restore,
    ValueTracker,
    VGroup,
)

from attnmath import SweepResult, classify_regime, softmax, solve_retrieval, temperature_sweep
from drawing import theme
from drawing.readouts import LabelSwitch, Readout
from drawing.steps import EquationSteps
from drawing.widgets import BarPanel, LogSlider, fit_width, label, math
from lecture.sections.s3_softmax_temperature import TemperatureParameters
from scenes.base import Mixin
from scenes.s3_derivation import ROLE_TEX

__all__ = ["Dashboard", "OBJECTIVE_Y", "PANEL_WIDTH", "PANEL_HEIGHT", "REGIME_TEXT"]

OBJECTIVE_Y = 3.05
PANEL_X, PANEL_Y = 3.45, 0.65
PANEL_WIDTH, PANEL_HEIGHT = 5.6, 2.3
SCORES_DIMMED = 0.2  # the score bars' opacity while they stop mattering (hot)
READOUT_Y = -1.72
SLIDER_X, SLIDER_Y, SLIDER_LENGTH = -2.3, -2.68, 5.4
REGIME_TEXT = {
    "argmax": "argmax regime",
    "intermediate": "intermediate regime",
    "uniform": "uniform regime",
}


class Dashboard(Mixin[TemperatureParameters]):
    """Mixin for section 3's scene: the weights, slider and readouts, redrawn live at the slider's tau."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        s: np.ndarray
        prior: np.ndarray | None
        check_tau: ClassVar[float]
        score_panel: BarPanel
        steps: EquationSteps

    tied = False  # while a near tie lifts a score (scenes.s3_sweep): no regime is named

    # --- state -------------------------------------------------------------
    def current(self) -> SweepResult:
        """Attnmath's sweep at the slider's temperature (one row)."""
        return self.at_tau(10 ** self.log_tau.get_value())

    def at_tau(self, tau: float) -> SweepResult:
        """Attnmath's sweep at ``tau`` (one row), with the current prior."""
        return temperature_sweep(self.s, [tau], prior=self.prior)

    def refresh(self) -> None:
        """Redraw every live element from attnmath's numbers for the current tau."""
        sweep = self.current()
        tau = float(sweep.taus[0])
        self.weights.set_values(sweep.weights[0])
        self.slider.set_value(tau)
        values = (tau, sweep.entropy[0], sweep.effective_k[0], sweep.expected_score[0], sweep.objective[0])
        for readout, value in zip(self.readouts, values, strict=True):
            readout.set_value(float(value))
        self.show_regime(classify_regime(float(sweep.effective_k[0]), self.s.size))

    def show_regime(self, regime: str) -> None:
        """Name ``regime`` beside the slider (nothing while the regimes are off)."""
        self.regime_label.switch_to(regime if self.regimes_on and not self.tied else "")

    # --- the dashboard ------------------------------------------------------
    def show_weights(self) -> None:
        """The derivation leaves; the scores return beside their softmax weights, the slider beneath."""
        self.log_tau = ValueTracker(np.log10(self.check_tau))
        title = math(r"\text{weights } a_i = \mathrm{softmax}(s / \tau)_i", colors=ROLE_TEX)
        self.weights = BarPanel(
            np.zeros(self.s.size),
            width=PANEL_WIDTH,
            height=PANEL_HEIGHT,
            color=theme.WEIGHT,
            title=title,
        ).shift(PANEL_X * RIGHT + PANEL_Y * UP)
        self.slider = LogSlider(*self.params.tau_range, length=SLIDER_LENGTH).move_to([SLIDER_X, SLIDER_Y, 0])
        self.readouts = self.build_readouts()
        self.regime_label = LabelSwitch(
            {
                name: self.beside_slider(label(text, color=theme.TEMPERATURE, size=theme.LABEL_SIZE))
                for name, text in REGIME_TEXT.items()
            }
        )
        self.regimes_on = False
        self.refresh()
        self.objective = math(
            r"J_{\tau}(a) =", r"\mathbb{E}_a[s]", r"+", r"\tau\, H(a)",
            r"= \sum_i a_i s_i - \tau \sum_i a_i \log a_i",
            colors=ROLE_TEX,
        ).move_to(OBJECTIVE_Y * UP)  # fmt: skip
        self.score_panel = self.dashboard_scores()  # the weights' size, mirrored on the left
        box = self.weights.box.get_center()
        self.score_panel.shift([-box[0], box[1], 0.0] - self.score_panel.box.get_center())
        self.dashboard = VGroup(self.weights, self.slider, self.readouts[0], self.regime_label)
        self.steps.clear()
        self.fade_in(self.objective, self.score_panel, self.dashboard)
        self.go_live(self.dashboard, self.refresh)

    def dashboard_scores(self) -> BarPanel:
        """The scores again, at the weights' size and numbered as they are (words need more room)."""
        return BarPanel(
            self.s,
            width=PANEL_WIDTH,
            height=PANEL_HEIGHT,
            y_range=(min(0.0, float(self.s.min())), 1.1 * float(self.s.max())),
            color=theme.SCORE,
            title=math(r"\text{scores } s_i", colors=ROLE_TEX),
        )

    def dim_scores(self) -> Animation:
        """The score bars dimmed (they stop mattering while hot); :meth:`bright_scores` brings them back."""
        bars = self.score_panel.bars
        bars.save_state()
        bars.generate_target()
        bars.target.set_fill(opacity=SCORES_DIMMED).set_stroke(opacity=SCORES_DIMMED)
        return MoveToTarget(bars)

    def bright_scores(self) -> list[Animation]:
        """The score bars back as they were before :meth:`dim_scores`; nothing if they were not dimmed."""
        bars = self.score_panel.bars
        return [Restore(bars)] if getattr(bars, "saved_state", None) is not None else []

    def reveal(self, *readouts: int) -> None:
        """Bring in the readouts a beat is about to use (each is introduced when it first moves)."""
        self.stop_live(self.dashboard)
        shown = [self.readouts[i] for i in readouts]
        self.play(*(FadeIn(r) for r in shown), run_time=0.6)
        self.remove(*shown)
        self.dashboard.add(*shown)
        self.go_live(self.dashboard, self.refresh)

    def beside_slider(self, mob: Mobject) -> Mobject:
        """Place ``mob`` in the free space right of the slider, shrunk to fit if needed."""
        left = self.slider.get_right()[0] + 0.5
        fit_width(mob, theme.SAFE_RIGHT - left)
        return mob.move_to([left + mob.width / 2, SLIDER_Y, 0.0])

    def build_readouts(self) -> VGroup:
        """Readouts for tau, H(a), effective k, E_a[s] and the objective, in two rows."""
        n = self.s.size
        first = VGroup(
            Readout(
                r"\tau =",
                self.params.tau_range[0],
                decimals=2,
                widest=self.params.tau_range[1],
                color=theme.TEMPERATURE,
            ),
            Readout(r"H(a) =", 0.0, decimals=3, widest=np.log(n)),
            Readout(r"k_{\mathrm{eff}} =", 1.0, decimals=2, widest=n),
        ).arrange(RIGHT, buff=0.8)
        second = VGroup(
            Readout(r"\mathbb{E}_a[s] =", 0.0, decimals=3, widest=float(np.max(np.abs(self.s)))),
            Readout(r"J_{\tau}(a) =", 0.0, decimals=2, widest=self.max_objective()),
        ).arrange(RIGHT, buff=0.8)
        VGroup(first, second).arrange(DOWN, buff=0.22).move_to(READOUT_Y * UP)
        return VGroup(*first, *second)

    def max_objective(self) -> float:
        """Largest objective the sweep reaches (sets the readout's reserved width)."""
        return float(np.max(temperature_sweep(self.s, [self.params.tau_range[1]]).objective))

    def optimiser_check(self) -> tuple[np.ndarray, float]:
        """Scipy's numerical maximiser at the check temperature, and its largest gap from the softmax."""
        optimum = solve_retrieval(self.s, self.check_tau, polish=False)  # the optimiser alone, no KKT step
        return optimum, float(np.max(np.abs(optimum - softmax(self.s, self.check_tau))))

    def confirm_with_optimiser(self, optimum: np.ndarray, gap: float) -> None:
        """Overlay scipy's numerical maximiser on the softmax: a check of the derivation, not its reason."""
        outline = self.weights.outlines(optimum)
        note = self.beside_slider(label(f"off by {gap:.0e}"))
        self.when_said("finds", Create(outline), run_time=1.2)  # the optimiser's weights, hollow
        self.when_said("hollow bars", FadeIn(note), run_time=0.8)  # how far they are from softmax's
        self.hold(self.speech_left() - 0.5)
        self.play(FadeOut(outline), FadeOut(note), run_time=0.5)
