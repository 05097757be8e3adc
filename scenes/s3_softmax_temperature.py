"""Section 3: softmax is the unique entropy-regularised retrieval rule.

The section derives the rule on screen (objective, Lagrangian, stationarity,
normalisation, strict concavity: :mod:`scenes.s3_derivation`), confirms it with
a numerical optimiser on a live dashboard (:mod:`scenes.s3_dashboard`), then
sweeps the temperature through its three regimes (their descriptions and the
hot limit's answer: :mod:`scenes.s3_sweep`) and adds a prior
(:mod:`scenes.s3_prior`).

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
    FadeIn,
    FadeOut,
    Indicate,
    Mobject,
    TransformMatchingTex,
    VGroup,
    Write,
)

from attnmath import classify_regime, temperature_sweep
from attnmath.datasets import RETRIEVAL_WORDS, SCORE_HEAD
from drawing import theme
from drawing.flow import baseline_of
from drawing.pointing import in_turn
from drawing.widgets import BarPanel, label, math
from lecture.sections.s3_softmax_temperature import TemperatureParameters
from scenes.base import SAID, LectureScene, Said
from scenes.onscreen import continuing
from scenes.s3_dashboard import OBJECTIVE_Y, PANEL_HEIGHT, PANEL_WIDTH
from scenes.s3_derivation import ROLE_TEX, SoftmaxDerivation
from scenes.s3_prior import PriorCoda
from scenes.s3_sweep import RegimeSweep, spoken_items

__all__ = ["TemperatureSweep"]

SUMMARY_TEXT = {"argmax": "argmax", "intermediate": "intermediate", "uniform": "uniform"}


def spoken_power(text: str) -> str:
    """A number as ``f"{x:.0e}"`` prints it ("2e-10"), for the ear: "2 times 10 to the minus 10"."""
    mantissa, exponent = text.split("e")
    power = int(exponent)
    return f"{mantissa} times 10 to the {'minus ' if power < 0 else ''}{abs(power)}"


class TemperatureSweep(SoftmaxDerivation, RegimeSweep, PriorCoda, LectureScene[TemperatureParameters]):
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
    summary_taus: ClassVar[tuple[float, ...]] = tuple(tau for _, tau, _ in stops)  # as the sweep met them

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.s = np.asarray(self.params.scores, dtype=float)
        self.prior: np.ndarray | None = None
        self.mean_marks = VGroup()  # the hot limit's answer, drawn over the dashboard (heat_up)
        self.title_beat()
        with self.beat(
            "scores",
            self.scores_narration(),
            shows=self.scores_description(),
        ):
            self.show_scores()
        with self.beat("retrieval", self.retrieval_narration(), shows=self.retrieval_shows()):
            self.show_constraint()
        self.derive()
        checked, (optimum, gap) = self.at_tau(self.check_tau), self.optimiser_check()
        with self.beat(
            "weights",
            f"At tau {float(checked.taus[0]):g}, an optimiser of J, told nothing of softmax, "
            "finds softmax's weights: hollow bars over solid.",
            shows=f"Tau {float(checked.taus[0]):.2f}: hollow, optimiser's; solid, softmax's; differ by "
            f"{spoken_power(f'{gap:.0e}')}.",
        ):
            self.show_weights()
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

    # --- the derivation -----------------------------------------------------
    def running(self) -> bool:
        """Whether the items are the running sentence's words, scored by the trained decoder's head."""
        return not self.params.numbered and self.params.words == RETRIEVAL_WORDS

    def scores_narration(self) -> str:
        """Where the scores come from: the running sentence's words, queried from its last word, or items."""
        if self.running():
            words = self.params.words
            return (
                f"Back to {' '.join(words).lower()}. The query, {words[-1].lower()}; "
                "each score, q dot k i over root d k."
            )
        return (
            "Each score, s i, is the opening formula's q dot k i: how well the query matches stored item i."
        )

    def retrieval_narration(self) -> str:
        """Where the running sentence's scores come from, then what retrieval must make of them."""
        if not self.running():
            return (
                f"Retrieval turns these {self.s.size} scores into weights, a i, the opening's alpha i: "
                "non-negative, summing to one."
            )
        return (
            f"These {self.s.size} scores come from a trained model, Smol L M 2. "
            "Retrieval turns them into weights, a i: non-negative, summing to one."
        )

    def retrieval_shows(self) -> str | Said:
        """The scores' source, which only the screen names (the constraint is said); a lecturer's: said."""
        if not self.running():
            return SAID
        layer, head, query = *SCORE_HEAD, self.params.words[-1]
        return f"Scores' source: SmolLM2, layer {layer}, head {head}; {query}'s query, each word's key."

    def scores_description(self) -> str:
        """The bars, and the three tallest: by number and word for the running sentence, else by number."""
        n, top = self.s.size, np.argsort(-self.s)[:3]
        if not self.running():
            return f"{n} score bars, numbered 1 to {n}; tallest are items {spoken_items(top)}."
        words = "; ".join(f"{int(i) + 1}, {self.params.words[int(i)]}" for i in top)
        return f"{n} numbered bars, one per word; tallest: {words}."

    def show_scores(self) -> None:
        """The memory items' scores as bars, large and centred (they return to the left later)."""
        title = math(r"\text{scores } s_i", colors=ROLE_TEX).scale(1.5)
        top = 1.1 * float(self.s.max())
        self.score_panel = BarPanel(
            self.s,
            width=1.5 * PANEL_WIDTH,
            height=1.2 * PANEL_HEIGHT,
            y_range=(min(0.0, float(self.s.min())), top),
            color=theme.SCORE,
            title=title,
            names=self.params.words if self.running() else None,
        )
        self.fade_in(self.score_panel.move_to(0.15 * UP))
        over = (r"/\sqrt{d_k}",) if self.running() else ()
        self.score_source = continuing(math("=", "q", r"\cdot", "k_i", *over), "s_i").scale(1.5)
        self.score_source[1].set_color(theme.QUERY)
        self.score_source[3].set_color(theme.KEY)
        self.score_source.next_to(title, RIGHT, buff=0.25).align_to(title, DOWN)
        flash = in_turn(self.score_panel.bars, color=theme.TEXT, scale=1.0, lag=0.1)
        self.score_note: Mobject = VGroup()
        if not self.running():
            self.when_said("q dot k i", Write(self.score_source), flash, run_time=2.5)
            best = self.score_panel.bars[int(np.argmax(self.s))]
            self.when_said("matches", Circumscribe(best, color=theme.SCORE), run_time=1.5)
            return
        words = self.score_panel.name_labels
        read = " ".join(self.params.words[:3]).lower()  # the sentence's first words, as the voice reads them
        self.when_said(read, in_turn(words, color=theme.TEXT, scale=1.25, lag=0.3), run_time=3.2)
        query = words[-1]
        self.when_said("The query", Indicate(query, color=theme.QUERY, scale_factor=1.3), run_time=0.8)
        query.set_color(theme.QUERY)  # the query word keeps the query's colour
        self.when_said("q dot k i", Write(self.score_source), flash, run_time=2.5)
        layer, head = SCORE_HEAD
        source = label(
            f"q from {self.params.words[-1]}, k from each word: SmolLM2, layer {layer}, head {head}",
            color=theme.MUTED,
            small=True,
        )
        source.next_to(self.score_panel, DOWN, buff=0.2)
        self.score_note = source

    def show_constraint(self) -> None:
        """The scores' source, then what retrieval must return: a distribution over the items."""
        if self.running():
            self.when_said("trained model", FadeIn(self.score_note), run_time=0.8)
        self.write_constraint()

    def write_constraint(self) -> None:
        """What retrieval must return, written under the scores (their source note, read already, leaves).

        The derivation lifts it to its header line as the scores leave (:meth:`show_objective`), so
        it is never written over the scores' title.
        """
        self.constraint = math(
            r"\text{over distributions: }", r"a_i", r"\ge 0,\ \ ", r"\sum_i a_i = 1", colors=ROLE_TEX
        ).next_to(self.score_panel, DOWN, buff=0.25)
        if self.running():
            self.when_said("turns", FadeOut(self.score_note), run_time=0.8)
        parts = (self.constraint[:2], self.constraint[2], self.constraint[3])
        for part, words in zip(parts, ("weights, a i", "non-negative", "summing to one"), strict=True):
            self.when_said(words, Write(part), run_time=1.2)
        self.remove(*parts)
        self.add(self.constraint)  # one mobject now: the derivation's header

    def sweep_temperature(self) -> None:
        """Sweep tau from cold to hot, each readout brought in when the narration first uses it."""
        self.regimes_on = True
        top = float(self.s.max())
        hot, warm = self.at_tau(self.stops[-1][1]), self.at_tau(self.stops[1][1])
        narration = {
            "argmax": "Cold, nearly all weight lands on the top item; the average score and J collapse "
            f"to its score, {top:g}. A near tie flips it.",
            "intermediate": "Warmer, several items share the weight: H climbs, and k eff, "
            f"e to the H, reads {warm.effective_k[0]:.2f}.",
            "uniform": "Hot, scores stop mattering: "
            f"k eff reaches {hot.effective_k[0]:.0f}, the item count N, "
            f"and J nears the mean plus tau log N, about {hot.objective[0]:.0f}.",
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
                if slug == "argmax":  # the two readouts that collapse, then a near tie drawn
                    self.when_said(
                        "collapse", *(Circumscribe(self.readouts[k]) for k in (3, 4)), run_time=1.2
                    )
                    self.near_tie()
                if slug == "uniform":  # the answer already swept here: what the words read out, drawn
                    self.scores_stop_mattering()
        self.regimes_on = False
        self.show_regime("")

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
