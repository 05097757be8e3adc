"""Section 3: softmax is the unique entropy-regularised retrieval rule.

The section derives the rule on screen (objective, Lagrangian, stationarity,
normalisation, strict concavity: :mod:`scenes.s3_derivation`), confirms it with
a numerical optimiser, then sweeps the temperature through its three regimes.

Render with ``manim -qh scenes/s3_softmax_temperature.py TemperatureSweep``.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    Mobject,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    TransformMatchingTex,
    ValueTracker,
    VGroup,
    Write,
    linear,
)

from attnmath import SweepResult, classify_regime, softmax, solve_retrieval, temperature_sweep
from drawing import theme
from drawing.flow import baseline_of
from drawing.pointing import in_turn
from drawing.widgets import BarPanel, LabelSwitch, LogSlider, Readout, fit_width, label, math
from lecture.sections.s3_softmax_temperature import TemperatureParameters
from narration.narrator import Spoken
from scenes.base import SAID, LectureScene
from scenes.onscreen import now_shows
from scenes.s3_derivation import ROLE_TEX, SoftmaxDerivation

__all__ = ["TemperatureSweep"]

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


def spoken_items(indices: np.ndarray) -> str:
    """Items by their on-screen numbers, for the ear: "6, 11 and 3"."""
    names = [str(int(i) + 1) for i in indices]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def spoken_power(text: str) -> str:
    """A number as ``f"{x:.0e}"`` prints it ("2e-10"), for the ear: "2 times 10 to the minus 10"."""
    mantissa, exponent = text.split("e")
    power = int(exponent)
    return f"{mantissa} times 10 to the {'minus ' if power < 0 else ''}{abs(power)}"


class TemperatureSweep(SoftmaxDerivation, LectureScene[TemperatureParameters]):
    """Softmax derived as the maximiser of E_a[s] + tau H(a), then swept from tau = 0.01 to 100."""

    check_tau: ClassVar[float] = 0.5  # where the optimiser checks the derivation
    # (beat, temperature to stop at, seconds to get there): the sweep's stops, cold to hot.
    stops: ClassVar[tuple[tuple[str, float, float], ...]] = (
        ("argmax", 0.04, 2.5),
        ("intermediate", 0.6, 5.0),
        ("uniform", 100.0, 5.0),
    )
    coda_tau: ClassVar[float] = 0.6
    prior_decay: ClassVar[float] = 0.4
    summary_taus: ClassVar[tuple[float, ...]] = (0.01, 0.6, 100.0)

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.s = np.asarray(self.params.scores, dtype=float)
        self.prior: np.ndarray | None = None
        self.mean_marks = VGroup()  # the hot limit's answer, drawn over the dashboard (heat_up)
        n = self.s.size
        self.title_beat()
        with self.beat(
            "scores",
            "Each score, s i, is the opening formula's q dot k i: how well the query matches stored item i.",
            shows=f"{n} score bars, numbered 1 to {n}; "
            f"tallest are items {spoken_items(np.argsort(-self.s)[:3])}.",
        ):
            self.show_scores()
        with self.beat(
            "retrieval",
            f"Retrieval turns these {self.s.size} scores into weights, a i, the opening's alpha i: "
            "non-negative, summing to one.",
            shows=SAID,  # the constraint written above the bars is the sentence spoken
        ):
            self.show_constraint()
        self.derive()
        checked, (optimum, gap) = self.at_tau(self.check_tau), self.optimiser_check()
        with self.beat(
            "weights",
            "At the slider's temperature, an optimiser of J, told nothing of softmax, "
            "finds the hollow bars: softmax's weights.",
            shows=f"Tau reads {float(checked.taus[0]):.2f}; hollow bars off by {spoken_power(f'{gap:.0e}')}.",
        ):
            self.show_weights()
            self.until_said("an optimiser")
            self.confirm_with_optimiser(optimum, gap)
        self.sweep_temperature()
        self.show_prior_coda()
        with self.beat(
            "summary",
            "One rule, three regimes: the temperature trades relevance against spread.",
            shows=f"Three weight charts: {self.summary_captions()}.",
            ends_section=True,
        ):
            self.show_summary()

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
        self.regime_label.switch_to(regime if self.regimes_on else "")

    # --- the derivation -----------------------------------------------------
    def show_scores(self) -> None:
        """The memory items' scores as bars, large and centred (they return to the left later)."""
        title = math(r"\text{scores } s_i", colors=ROLE_TEX)
        top = 1.1 * float(self.s.max())
        self.score_panel = BarPanel(
            self.s,
            width=PANEL_WIDTH,
            height=PANEL_HEIGHT,
            y_range=(min(0.0, float(self.s.min())), top),
            color=theme.SCORE,
            title=title,
        ).scale(1.5)
        self.fade_in(self.score_panel.move_to(0.2 * DOWN))
        self.when_said(
            "q dot k i", in_turn(self.score_panel.bars, color=theme.TEXT, scale=1.0, lag=0.1), run_time=2.5
        )
        best = self.score_panel.bars[int(np.argmax(self.s))]
        self.when_said("matches", Circumscribe(best, color=theme.SCORE), run_time=1.5)

    def show_constraint(self) -> None:
        """What retrieval must return, written under the scores: a distribution over the items."""
        self.constraint = math(r"a_i", r"\ge 0,\quad", r"\sum_i a_i = 1", colors=ROLE_TEX)
        self.constraint.move_to([0, theme.SAFE_TOP - self.constraint.height / 2, 0])
        for part, words in zip(
            self.constraint, ("weights, a i", "non-negative", "summing to one"), strict=True
        ):
            self.when_said(words, Write(part), run_time=1.2)

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
        self.score_panel.scale(1 / 1.5)  # back to the weights' size, mirrored on the left
        box = self.weights.box.get_center()
        self.score_panel.shift([-box[0], box[1], 0.0] - self.score_panel.box.get_center())
        self.dashboard = VGroup(self.weights, self.slider, self.readouts[0], self.regime_label)
        self.steps.clear()
        self.fade_in(self.objective, self.score_panel, self.dashboard)
        self.go_live(self.dashboard, self.refresh)

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
        self.play(Create(outline), FadeIn(note), run_time=1.2)
        self.hold(self.speech_left() - 0.5)
        self.play(FadeOut(outline), FadeOut(note), run_time=0.5)

    def sweep_temperature(self) -> None:
        """Sweep tau from cold to hot, each readout brought in when the narration first uses it."""
        self.regimes_on = True
        top = float(self.s.max())
        hot, warm = self.at_tau(self.stops[-1][1]), self.at_tau(self.stops[1][1])
        narration = {
            "argmax": "Cold, nearly all weight lands on the top item: the average score and J collapse "
            f"to its score, {top:g}. Brittle: a near tie flips it.",
            "intermediate": "Warm it up and several items share the weight: H climbs, and k eff, "
            f"e to the H, reads {warm.effective_k[0]:.2f}.",
            "uniform": "Hot, scores stop mattering: "
            f"k eff reaches {hot.effective_k[0]:.0f}, all N items, "
            f"and J grows like tau log N, here about {hot.objective[0]:.0f}.",
        }
        shows = self.sweep_descriptions()
        readouts = {"argmax": (3, 4), "intermediate": (1, 2), "uniform": ()}
        for slug, tau, seconds in self.stops:
            if slug == "uniform":  # the viewer predicts the hot limit, and the answer sweeps there
                self.pause_and_predict(self.question(), self.heat_up, shows=shows["heat-up"])
            with self.beat(slug, narration[slug], shows=shows[slug]):
                if readouts[slug]:
                    self.reveal(*readouts[slug])
                if not np.isclose(self.log_tau.get_value(), np.log10(tau)):
                    self.sweep_to(self.log_tau, np.log10(tau), seconds)
                if slug == "argmax":  # the two readouts that collapse, then the one bar that stands
                    self.when_said(
                        "collapse", *(Circumscribe(self.readouts[k]) for k in (3, 4)), run_time=1.2
                    )
                    top_bar = self.weights.bars[int(np.argmax(self.s))]
                    self.when_said("Brittle", Circumscribe(top_bar, color=theme.WEIGHT), run_time=1.2)
                if slug == "uniform":  # the answer already swept here: point at what the words read out
                    for words, k in (("reaches", 2), ("grows like", 4)):
                        self.until_said(words)
                        self.play(Circumscribe(self.readouts[k], color=theme.TEMPERATURE), run_time=1.2)
        self.regimes_on = False
        self.show_regime("")

    def sweep_descriptions(self) -> dict[str, str]:
        """What each stop of the sweep shows, and the hot answer's sweep, from the readouts' numbers."""
        n = self.s.size
        cold, warm, hot = (self.at_tau(tau) for _slug, tau, _seconds in self.stops)

        def regime(sweep: SweepResult) -> str:
            return REGIME_TEXT[classify_regime(float(sweep.effective_k[0]), n)]

        return {
            "argmax": f"Tau slides to {float(cold.taus[0]):g}; only item "
            f"{int(np.argmax(cold.weights[0])) + 1}'s bar stands; label: {regime(cold)}.",
            "intermediate": f"At tau {float(warm.taus[0]):g}, items "
            f"{spoken_items(np.argsort(-warm.weights[0])[:3])} weigh most; H reads {warm.entropy[0]:.3f}.",
            "heat-up": f"Tau slides to {float(hot.taus[0]):g}; all {n} weight bars level off; "
            f"label: {regime(hot)}.",
            "uniform": f"Rings mark k eff, then J; H of a reads {hot.entropy[0]:.3f}.",
        }

    def heat_up(self, spoken: Spoken) -> None:
        """The answer: a dashed line marks the scores' mean; the slider runs hot, and E_a[s] settles on it."""
        mean = float(self.s.mean())
        line = self.score_panel.level_line(mean, color=theme.SCORE)
        note = math(rf"\text{{mean of }} s_i = {mean:.3f}", colors=ROLE_TEX, size=theme.READOUT_SIZE)
        self.mean_marks = VGroup(line, note.next_to(self.readouts[4], RIGHT, buff=0.6))
        self.when_said("plain mean", Create(line), FadeIn(note), run_time=0.8)
        top = self.stops[-1][1]
        self.sweep_to(self.log_tau, np.log10(top), min(max(self.speech_left() - 0.3, 3.5), 6.0))

    def prior_at(self, strength: float) -> np.ndarray:
        """Position prior r_i proportional to exp(-strength * decay * distance from the end)."""
        distance = np.arange(self.s.size)[::-1]
        r = np.exp(-strength * self.prior_decay * distance)
        return r / r.sum()

    def show_prior_coda(self) -> None:
        """A position prior r reshapes the distribution: a_i proportional to r_i exp(s_i / tau)."""
        plain = self.at_tau(self.coda_tau)  # no prior yet: the readouts as the coda starts
        flat = temperature_sweep(self.s, [self.coda_tau], prior=self.prior_at(0.0))
        leaned = temperature_sweep(self.s, [self.coda_tau], prior=self.prior_at(1.0))
        before, after = float(plain.objective[0]), float(flat.objective[0])
        top, leaned_top = (int(np.argmax(sweep.weights[0])) + 1 for sweep in (flat, leaned))
        moved = (
            f"Item {leaned_top}'s weight now far outgrows item {top}'s"
            if leaned_top != top
            else f"Item {top}'s weight grows taller"
        )
        k_flat, k_leaned = float(flat.effective_k[0]), float(leaned.effective_k[0])
        with self.beat(
            "prior",
            "A prior, r, over items makes the bonus a K L penalty for leaving r; "
            "uniform r only lowers J, by tau log N.",
            shows=f"Tau back to {self.coda_tau:.2f}; equal prior bars replace scores; "
            f"J drops by {before - after:.2f}.",
        ):
            cool = self.log_tau.animate.set_value(np.log10(self.coda_tau))
            self.play(cool, FadeOut(self.mean_marks), run_time=1.0)
            before = float(self.current().objective[0])
            self.introduce_prior()
            self.box_objective(3)
            after = float(self.current().objective[0])
            self.until_said("only lowers J")
            drop = label(f"\u2212\u03c4 log N = \u2212{before - after:.2f}", color=theme.TEMPERATURE)
            # Circumscribe draws around the readout: an animation of the readout itself would add it to the
            # scene on its own and split the live group that redraws it (manim restructures the family)
            ring = Circumscribe(self.readouts[4], color=theme.TEMPERATURE)
            self.play(ring, FadeIn(self.beside_slider(drop)), run_time=1.5)
            self.hold(self.speech_left() - 0.5)
            self.play(FadeOut(drop), run_time=0.5)
        with self.beat(
            "prior-leans",
            "Now a i is proportional to r i times e to the s i over tau: tilt r rightward "
            "and the weight shifts right.",
            shows=f"{moved}; k eff {'falls' if k_leaned < k_flat else 'rises'} to {k_leaned:.2f}.",
        ):
            self.box_objective(5)
            self.lean_prior()

    def box_objective(self, part: int) -> None:
        """Box one part of the prior's objective, the one being spoken."""
        box = SurroundingRectangle(
            self.objective[part], color=theme.TEMPERATURE, buff=0.08, corner_radius=0.06
        )
        old = getattr(self, "objective_box", VGroup())
        self.play(FadeOut(old), Create(box), run_time=0.6)
        self.objective_box = box

    def introduce_prior(self) -> None:
        """The prior's bars replace the scores; the objective and the weights' title change with it.

        The readouts take the prior only once the objective on screen names it.
        """
        prior = self.prior_at(0.0)
        r_max = float(self.prior_at(1.0).max()) * 1.1
        prior_panel = BarPanel(
            prior,
            width=PANEL_WIDTH,
            height=PANEL_HEIGHT,
            y_range=(0.0, r_max),
            color=theme.PRIOR,
            title=math(r"\text{prior } r_i", colors=ROLE_TEX),
        )
        prior_panel.move_to(self.score_panel, aligned_edge=DOWN)
        prior_objective = math(
            r"J_{\tau}(a) =",
            r"\mathbb{E}_a[s]",
            r"-",
            r"\tau\,\mathrm{KL}(a \,\|\, r)",
            r"\quad\text{is maximised by}\quad",
            r"a_i \propto r_i\, e^{s_i/\tau}",
            colors=ROLE_TEX,
        ).move_to(self.objective)  # fmt: skip  (the same J the readout shows, now with the prior)
        weights_title = math(
            r"\text{weights } a_i \propto r_i\, e^{s_i/\tau}",
            colors=ROLE_TEX,
        ).move_to(self.weights.title)
        self.play(
            ReplacementTransform(self.score_panel, prior_panel),
            TransformMatchingTex(self.objective, prior_objective),  # J and E_a[s] travel; the rest is new
            Transform(self.weights.title, weights_title),
            run_time=1.5,
        )
        now_shows(self.weights.title, weights_title)  # the transcript lists the equation now on screen
        self.objective, self.score_panel, self.prior = prior_objective, prior_panel, prior

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
            r"a = \mathrm{softmax}(s/\tau) = \arg\max_a\;", r"\mathbb{E}_a[s]", r"+", r"\tau\, H(a)",
            colors=ROLE_TEX,
        ).move_to(OBJECTIVE_Y * UP)  # fmt: skip
        minis = VGroup(*(self.mini_panel(tau) for tau in self.summary_taus)).arrange(RIGHT, buff=0.5)
        minis.move_to(0.45 * DOWN)
        names = [mini[1][0] for mini in minis]
        line = min(baseline_of(name) for name in names)
        for name in names:  # the regimes' names on one baseline, whatever their descenders
            name.shift((line - baseline_of(name)) * UP)
        self.play(
            FadeOut(self.dashboard),
            FadeOut(self.score_panel),
            FadeOut(self.objective_box),
            TransformMatchingTex(self.objective, objective),  # E_a[s] travels
            run_time=1.0,
        )
        self.play(FadeIn(minis), run_time=1.0)

    def summary_captions(self) -> str:
        """The summary charts' captions, for the ear: each regime and its tau ("argmax at tau 0.01, ...")."""
        captions = []
        for i, tau in enumerate(self.summary_taus):
            k = float(temperature_sweep(self.s, [tau]).effective_k[0])
            name = SUMMARY_TEXT[classify_regime(k, self.s.size)]
            captions.append(f"{name} at {'tau ' if i == 0 else ''}{tau:g}")
        return ", ".join(captions)

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
