"""Section 3, the prior coda: a prior r over the items turns the entropy bonus into a KL penalty.

A uniform r only lowers J, by tau log N; a prior tilted toward the latest
items shifts the weights, a_i proportional to r_i e^(s_i / tau). Mixed into
section 3's scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
from manim import (
    DOWN,
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
    linear,
)

from attnmath import temperature_sweep
from drawing import theme
from drawing.widgets import BarPanel, label, math
from scenes.onscreen import now_shows
from scenes.s3_dashboard import PANEL_HEIGHT, PANEL_WIDTH, Dashboard
from scenes.s3_derivation import ROLE_TEX

__all__ = ["PriorCoda"]


class PriorCoda(Dashboard):
    """Mixin for section 3's scene: the two prior beats and the live prior that leans the weights."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        coda_tau: ClassVar[float]
        prior_decay: ClassVar[float]
        mean_marks: VGroup

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
            "A prior r turns the bonus into a penalty, K L divergence: how far the weights stray from r. "
            "Uniform r changes J alone.",
            shows=f"Tau {self.coda_tau:.2f}; prior r: {self.s.size} equal bars replace the scores; "
            f"J drops {before - after:.2f}.",
        ):
            cool = self.log_tau.animate.set_value(np.log10(self.coda_tau))
            bright = self.bright_scores()  # dimmed while hot (scores_stop_mattering): they matter again
            self.play(cool, FadeOut(self.mean_marks), *bright, run_time=1.0)
            before = float(self.current().objective[0])
            self.introduce_prior()
            self.box_objective(3)
            after = float(self.current().objective[0])
            self.until_said("Uniform r")
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
