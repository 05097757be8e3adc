"""Section 3: softmax is the unique entropy-regularised retrieval rule.

Render with ``manim -qh scenes/s3_softmax_temperature.py TemperatureSweep``.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Mobject,
    ReplacementTransform,
    Transform,
    ValueTracker,
    VGroup,
    linear,
)

from attnmath import SweepResult, classify_regime, softmax, solve_retrieval, temperature_sweep
from attnmath.datasets import RETRIEVAL_SCORES
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.flow import baseline_of
from scenes.kit.widgets import BarPanel, LabelSwitch, LogSlider, Readout, fit_width, label, math

__all__ = ["TemperatureSweep"]

ROLE_TEX = {"s_i": theme.SCORE, "a_i": theme.WEIGHT, "r_i": theme.PRIOR}
OBJECTIVE_Y = 3.05
PANEL_X, PANEL_Y = 3.45, 0.65
PANEL_WIDTH, PANEL_HEIGHT = 5.6, 2.3
READOUT_Y = -1.72
SLIDER_X, SLIDER_Y, SLIDER_LENGTH = -2.3, -2.68, 5.4
REGIME_TEXT = {
    "argmax": "argmax regime",
    "intermediate": "intermediate regime",
    "uniform": "uniform regime",
}
SUMMARY_TEXT = {"argmax": "argmax", "intermediate": "intermediate", "uniform": "uniform"}


class TemperatureSweep(LectureScene):
    """The retrieval distribution a = softmax(s / tau) as tau sweeps from 0.01 to 100."""

    section = "Section 3"
    title = "Softmax is the entropy-regularised retrieval rule"

    scores: ClassVar[tuple[float, ...]] = RETRIEVAL_SCORES
    tau_range: ClassVar[tuple[float, float]] = (0.01, 100.0)
    # (temperature to stop at, seconds to get there): one stop inside each regime.
    stops: ClassVar[tuple[tuple[float, float], ...]] = ((0.04, 1.5), (0.6, 4.0), (100.0, 4.5))
    check_taus: ClassVar[tuple[float, ...]] = (0.1, 0.5, 3.0)
    coda_tau: ClassVar[float] = 0.6
    prior_decay: ClassVar[float] = 0.4
    summary_taus: ClassVar[tuple[float, ...]] = (0.01, 0.6, 100.0)

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.s = np.asarray(self.scores, dtype=float)
        self.prior: np.ndarray | None = None
        with self.beat("title", "Section three. Softmax is the entropy-regularised retrieval rule."):
            self.title_card()
        with self.beat(
            "objective",
            "Retrieval picks a distribution, a, over the memory items: a high score on average, "
            "plus a bonus for spreading out, its entropy. The temperature, tau, prices that bonus.",
        ):
            self.show_objective()
        with self.beat("scores", f"Here are {self.s.size} memory items, each with a score, s i."):
            self.show_scores()
        with self.beat(
            "dashboard",
            "On the right, the softmax weights. Below, the temperature slider and the readouts.",
        ):
            self.show_weights()
        self.sweep_temperature()
        self.compare_with_optimiser()
        self.show_prior_coda()
        with self.beat(
            "summary",
            "One rule, three regimes: the temperature trades relevance against spread.",
        ):
            self.show_summary()

    # --- state -------------------------------------------------------------
    def current(self) -> SweepResult:
        """Attnmath's sweep at the slider's temperature (one row)."""
        return self.at_tau(10 ** self.log_tau.get_value())

    def refresh(self) -> None:
        """Redraw every live element from attnmath's numbers for the current tau."""
        sweep = self.current()
        tau = float(sweep.taus[0])
        self.weights.set_values(sweep.weights[0])
        self.slider.set_value(tau)
        for readout, value in zip(
            self.readouts,
            (
                tau,
                sweep.entropy[0],
                sweep.effective_k[0],
                sweep.expected_score[0],
                sweep.objective[0],
            ),
            strict=True,
        ):
            readout.set_value(float(value))
        self.show_regime(classify_regime(float(sweep.effective_k[0]), self.s.size))

    def show_regime(self, regime: str) -> None:
        """Name ``regime`` beside the slider (nothing while the regimes are off)."""
        self.regime_label.switch_to(regime if self.regimes_on else "")

    # --- storyboard steps ---------------------------------------------------
    def show_objective(self) -> None:
        """The objective softmax maximises, typeset."""
        self.objective = math(
            r"J_{\tau}(a) = \mathbb{E}_a[s] + \tau\, H(a)",
            r"= \sum_i a_i s_i - \tau \sum_i a_i \log a_i",
            colors=ROLE_TEX,
        ).move_to(OBJECTIVE_Y * UP)
        self.fade_in(self.objective)

    def show_scores(self) -> None:
        """The memory items' scores as bars."""
        title = math(r"\text{scores } s_i", colors=ROLE_TEX)
        top = 1.1 * float(self.s.max())
        self.score_panel = BarPanel(
            self.s,
            width=PANEL_WIDTH,
            height=PANEL_HEIGHT,
            y_range=(min(0.0, float(self.s.min())), top),
            color=theme.SCORE,
            title=title,
        ).shift(PANEL_X * LEFT + PANEL_Y * UP)
        self.fade_in(self.score_panel)

    def show_weights(self) -> None:
        """The weights panel, slider and readouts, wired to attnmath."""
        tau0 = self.tau_range[0]
        self.log_tau = ValueTracker(np.log10(tau0))
        title = math(
            r"\text{weights } a_i = \mathrm{softmax}(s / \tau)_i",
            colors=ROLE_TEX,
        )
        self.weights = BarPanel(
            np.zeros(self.s.size),
            width=PANEL_WIDTH,
            height=PANEL_HEIGHT,
            color=theme.WEIGHT,
            title=title,
        ).shift(PANEL_X * RIGHT + PANEL_Y * UP)
        self.slider = LogSlider(*self.tau_range, length=SLIDER_LENGTH).move_to([SLIDER_X, SLIDER_Y, 0])
        self.readouts = self.build_readouts()
        self.regime_label = LabelSwitch(
            {
                name: self.beside_slider(label(text, color=theme.TEMPERATURE, size=theme.LABEL_SIZE))
                for name, text in REGIME_TEXT.items()
            }
        )
        self.regimes_on = False
        self.refresh()
        self.dashboard = VGroup(self.weights, self.slider, self.readouts, self.regime_label)
        self.fade_in(self.dashboard)
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
                self.tau_range[0],
                decimals=2,
                widest=self.tau_range[1],
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
        return float(np.max(temperature_sweep(self.s, [self.tau_range[1]]).objective))

    def sweep_temperature(self) -> None:
        """Sweep tau across the three regimes, one beat in each."""
        self.regimes_on = True
        narration = {
            "argmax": "Start cold. Spreading out is worth almost nothing, so all the weight "
            "lands on the best item: entropy zero, one effective item. The argmax regime.",
            "intermediate": "Warm it up and several items share the weight. The effective number "
            "of items, e to the entropy, says roughly how many you are really drawing from.",
            "uniform": "Hot, the entropy term wins outright. The weights go uniform, the scores "
            "stop mattering, and every item counts.",
        }
        for tau, seconds in self.stops:
            regime = classify_regime(float(self.at_tau(tau).effective_k[0]), self.s.size)
            with self.beat(regime, narration[regime]) as spoken:
                # the slider moves while the voice explains, and rests for its last words
                self.sweep_to(self.log_tau, np.log10(tau), max(seconds, 0.7 * spoken.duration))

    def at_tau(self, tau: float) -> SweepResult:
        """Attnmath's sweep at ``tau`` (one row), with the current prior."""
        return temperature_sweep(self.s, [tau], prior=self.prior)

    def compare_with_optimiser(self) -> None:
        """Overlay scipy's numerical maximiser on the softmax at a few temperatures."""
        self.regimes_on = False
        self.show_regime("")
        narration = (
            "Is softmax really the maximiser? A general-purpose optimiser, with no softmax inside, "
            "lands its hollow bars on the yellow ones.",
            "At another temperature, the same.",
            "And at a third: the gap is the optimiser's own tolerance.",
        )
        for i, tau in enumerate(self.check_taus):
            with self.beat(f"optimiser-{i + 1}", narration[i % len(narration)]):
                self.play(self.log_tau.animate.set_value(np.log10(tau)), run_time=1.5)
                optimum = solve_retrieval(self.s, tau)
                gap = float(np.max(np.abs(optimum - softmax(self.s, tau))))
                outline = self.weights.outlines(optimum)
                note = self.beside_slider(label(f"optimiser: gap {gap:.0e}"))
                self.play(Create(outline), FadeIn(note), run_time=1.2)
                self.hold(self.speech_left() - 0.5)
                self.play(FadeOut(outline), FadeOut(note), run_time=0.5)

    def prior_at(self, strength: float) -> np.ndarray:
        """Position prior r_i proportional to exp(-strength * decay * distance from the end)."""
        distance = np.arange(self.s.size)[::-1]
        r = np.exp(-strength * self.prior_decay * distance)
        return r / r.sum()

    def show_prior_coda(self) -> None:
        """A position prior r reshapes the distribution: a_i proportional to r_i exp(s_i / tau)."""
        with self.beat(
            "prior",
            "Add a prior, r, over positions. The entropy bonus becomes a penalty for straying "
            "from r, and the maximiser becomes r i times e to the s i over tau.",
        ):
            self.play(self.log_tau.animate.set_value(np.log10(self.coda_tau)), run_time=1.0)
            self.introduce_prior()
        with self.beat(
            "prior-leans",
            "As the prior leans towards recent positions, the weight slides to the later items, "
            "though no score has changed.",
        ):
            self.lean_prior()

    def introduce_prior(self) -> None:
        """The prior's bars replace the scores; the objective and the weights' title change with it."""
        self.prior = self.prior_at(0.0)
        r_max = float(self.prior_at(1.0).max()) * 1.1
        prior_panel = BarPanel(
            self.prior,
            width=PANEL_WIDTH,
            height=PANEL_HEIGHT,
            y_range=(0.0, r_max),
            color=theme.PRIOR,
            title=math(r"\text{prior } r_i", colors=ROLE_TEX),
        )
        prior_panel.move_to(self.score_panel, aligned_edge=DOWN)
        prior_objective = math(
            r"J_{\tau}(a) = \mathbb{E}_a[s] - \tau\,\mathrm{KL}(a \,\|\, r)",
            r"\quad\text{is maximised by}\quad a_i \propto r_i\, e^{s_i/\tau}",
            colors=ROLE_TEX,
        ).move_to(self.objective)  # the same J the readout shows, now with the prior
        weights_title = math(
            r"\text{weights } a_i \propto r_i\, e^{s_i/\tau}",
            colors=ROLE_TEX,
        ).move_to(self.weights.title)
        self.play(
            ReplacementTransform(self.score_panel, prior_panel),
            ReplacementTransform(self.objective, prior_objective),
            Transform(self.weights.title, weights_title),
            run_time=1.5,
        )
        self.objective, self.score_panel = prior_objective, prior_panel

    def lean_prior(self) -> None:
        """The prior's decay grows; the weights follow it live."""
        strength = ValueTracker(0.0)
        prior_panel = self.score_panel

        def reshape(_m: Mobject) -> None:
            self.prior = self.prior_at(strength.get_value())
            prior_panel.set_values(self.prior)

        prior_panel.add_updater(reshape)
        self.play(strength.animate.set_value(1.0), run_time=4.0, rate_func=linear)
        prior_panel.remove_updater(reshape)

    def show_summary(self) -> None:
        """A still frame summarising the three regimes (the clip's poster)."""
        self.stop_live(self.dashboard)
        self.prior = None
        objective = math(
            r"a = \mathrm{softmax}(s/\tau) = \arg\max_a\; \mathbb{E}_a[s] + \tau\, H(a)",
            colors=ROLE_TEX,
        ).move_to(OBJECTIVE_Y * UP)
        minis = VGroup(*(self.mini_panel(tau) for tau in self.summary_taus)).arrange(RIGHT, buff=0.5)
        minis.move_to(0.45 * DOWN)
        names = [mini[1][0] for mini in minis]
        line = min(baseline_of(name) for name in names)
        for name in names:  # the regimes' names on one baseline, whatever their descenders
            name.shift((line - baseline_of(name)) * UP)
        self.play(
            FadeOut(self.dashboard),
            FadeOut(self.score_panel),
            ReplacementTransform(self.objective, objective),
            run_time=1.0,
        )
        self.play(FadeIn(minis), run_time=1.0)

    def mini_panel(self, tau: float) -> VGroup:
        """Small weights chart at ``tau`` with its regime and effective k."""
        sweep = temperature_sweep(self.s, [tau])
        k = float(sweep.effective_k[0])
        regime = classify_regime(k, self.s.size)
        panel = BarPanel(sweep.weights[0], width=3.8, height=2.2, color=theme.WEIGHT, show_index=False)
        caption = VGroup(
            label(SUMMARY_TEXT[regime], color=theme.TEMPERATURE),
            math(rf"\tau = {tau:g}", size=theme.READOUT_SIZE, colors=ROLE_TEX),
            math(rf"k_{{\mathrm{{eff}}}} = {k:.2f}", size=theme.READOUT_SIZE),
        ).arrange(DOWN, buff=0.15)
        return VGroup(panel, caption.next_to(panel, DOWN, buff=0.3))
