"""Section 1, a fair comparison: both similarities tuned on the same points, judged on fresh ones.

The kernel's bandwidth and attention's projections are both tuned on the
same points by leave-one-out error, so that score cannot judge them; fresh
points drawn with another seed do, and the beats say whichever way it comes
out. Mixed into section 1's scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
from manim import (
    Animation,
    Circle,
    Circumscribe,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    TransformFromCopy,
    VGroup,
    VMobject,
)

from attnmath import SimilarityFit, loo_predictions, nadaraya_watson, noise_floor, sine, weight_parameters
from drawing import theme
from drawing.plots import band, curve, dashed_curve
from scenes.base import SAID, Said
from scenes.s1_errors import LEARNED, ErrorsLine, sig2
from scenes.s1_figures import Y_RANGE

__all__ = ["FairComparison", "NOISE_RATIO"]


NOISE_RATIO = 3.0
"""How many times further from the sine than the kernel's the learned curve must lie for the noise beat."""


class FairComparison(ErrorsLine):
    """Mixin for section 1's scene: leave-one-out and held-out errors, and what they say."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        n_fresh: ClassVar[int]
        fit: SimilarityFit
        loo: tuple[float, float]
        held_out: tuple[float, float]
        off_truth: tuple[float, float]
        fresh: tuple[np.ndarray, np.ndarray]
        fresh_clouds: list[VGroup]

    loo_shown: VGroup = VGroup()  # the leave-one-out errors, drawn as the fit is explained
    member: VMobject = VMobject()  # the Gaussian's curve in the learned plot: one member of its family
    truth_shown: dict[int, list[VMobject]] = {}  # per plot (1 kernel, 2 learned), what the noise beats drew

    # --- a fair comparison: both fitted on the 10 points, judged on fresh ones ------
    def compare_fits(self) -> None:
        """Both similarities are fitted by leave-one-out; only fresh points judge them fairly."""
        self.tuned_errors()
        self.fresh_errors()
        self.why_learned_lost()
        with self.beat(
            "when-learned-wins",
            "More data curbs its overfitting; learning pays where no fixed kernel knows "
            "which inputs are alike.",
            shows=SAID,  # the note that replaces the errors repeats the narration's words
            ends_section=True,
        ):
            self.until_said("curbs")
            self.show_errors_note("more data curbs its overfitting")
            self.until_said("fixed kernel")
            self.show_errors_note("it pays where no fixed kernel knows what is alike")
            self.clear_truth()

    def tuned_errors(self) -> None:
        """Beat: both tuned by leave-one-out on the same points; the learned family errs less."""
        g_loo, a_loo = map(sig2, self.loo)
        with self.beat(
            "fitted",
            f"Both tuned on these {self.x.size} points, each predicted from the rest: attention's family, "
            f"containing every Gaussian, has lower squared error, {a_loo} against the kernel's {g_loo}.",
            shows=f"Lines join each point to its prediction from the rest; errors: attention {a_loo}, "
            f"kernel {g_loo}.",
        ):
            row = self.errors_row("leave-one-out mean squared error, both tuned on it", self.loo)
            self.play(self.replace_row(row, FadeIn(row.header)), run_time=1.0)
            self.loo_shown = self.loo_errors((1, 2))  # the fresh points replace them
            self.when_said("each predicted", Create(self.loo_shown), run_time=1.8)
            self.when_said("containing every", self.gaussian_in_learned(), run_time=1.5)
            named = Indicate(row.header, color=theme.TEXT, scale_factor=1.05)  # the measure, as it is said
            self.when_said("squared error", named, run_time=1.0)
            grow = row.grow()  # attention's name and bar as its error is said, then the kernel's
            self.when_said(a_loo, FadeIn(row.names[1]), grow[1], run_time=1.2)
            self.when_said("the kernel's", FadeIn(row.names[0]), grow[0], run_time=1.2)

    def fresh_errors(self) -> None:
        """Beat: fresh points judge both; each error is said as its gaps are drawn and its bar grows."""
        g_new, a_new = map(sig2, self.held_out)
        with self.beat(
            "held-out",
            f"On {self.n_fresh} fresh points, each predicted from the {self.x.size}, "
            f"the kernel's error is {g_new}; attention's, {a_new}.",
            shows="Fresh points; grey error lines, shorter for the "
            f"{'kernel' if self.held_out[0] < self.held_out[1] else 'attention'}; even a perfect curve errs "
            f"{noise_floor(*self.fresh):.3f}.",
        ):
            self.show_fresh_points()
            self.until_said("each predicted from")
            floor = noise_floor(*self.fresh)  # the noise's own error, what the sine scores: none does better
            row = self.errors_row(
                f"mean squared error, {self.n_fresh} fresh points; noise {floor:.3f}", self.held_out
            )
            self.play(self.replace_row(row, FadeIn(row.header, row.names)), run_time=1.5)
            gaps = self.fresh_gaps()
            for words, k in (
                ("error is", 0),
                ("attention's", 1),
            ):  # each error said: its gaps drawn, its bar grown
                self.when_said(words, Create(gaps[k]), row.grow()[k], run_time=1.5)

    def why_learned_lost(self) -> None:
        """Beats: what the fresh points say; if the learned curve bends to the noise, the sine shows it."""
        with self.beat("overfit", self.overfit_narration(), shows=self.overfit_description()):
            curve = self.figures[2][0][2]
            if self.held_out[1] < self.held_out[0]:  # it won: its curve is named, with the kernel's rule
                self.play(Indicate(curve, color=theme.TEXT, scale_factor=1.0), run_time=2.0)
                self.when_said(
                    "tuned kernel", Circumscribe(self.words[1][0][1], color=theme.TEXT), run_time=1.5
                )
            else:
                self.tuned_then_fresh(curve)
        if self.bends_to_noise():
            with self.beat(
                "noise",
                "Dashed, the sine the points were drawn from: the learned curve bends to their noise; the "
                "kernel's stays near it.",
                shows="Shaded gaps from the sine: wide for attention's curve, slim for the kernel's.",
            ):
                self.show_truth()
                self.show_noise()

    def tuned_then_fresh(self, curve: VMobject) -> None:
        """The learned similarity's few numbers, its points, its errors on them and on fresh ones.

        The errors row becomes the learned similarity's own: the leave-one-out error it was tuned on,
        and the fresh points' error, on one scale. The kernel's plot dims while the words are about
        attention alone, until the noise beat brings it back (:meth:`show_noise`).
        """
        learned = Circumscribe(self.words[2][0][1], color=theme.TEXT)  # its numbers: W_Q and W_K
        free, total = self.projection_numbers()
        counted = self.errors_note(f"its projections: {total} numbers, {free} move the weights")
        self.when_said("projections hold", learned, *counted, run_time=1.2)
        fitted = self.dots_in_turn(2)  # the points it was tuned on, alone again
        self.when_said("fewer than", *self.fresh_leave(), fitted, run_time=1.5)
        row = self.errors_row(
            "the learned similarity's mean squared error", (self.loo[1], self.held_out[1]), LEARNED
        )
        self.when_said("their errors", *self.own_errors(), self.replace_row(row), run_time=1.5)
        self.dimmed = self.dim_over(self.figures[1])
        warned = Indicate(curve, color=theme.WARNING, scale_factor=1.0)
        self.when_said("follows", warned, FadeIn(self.dimmed), run_time=2.0)

    def overfit_description(self) -> str | Said:
        """What the overfit beat shows beyond its words: the learned similarity's two errors, when it lost."""
        if self.held_out[1] < self.held_out[0]:
            return SAID  # attention's curve only flashes as the voice names the learned similarity
        tuned, fresh = sig2(self.loo[1]), sig2(self.held_out[1])
        return f"Attention's errors: {tuned} on its own points, {fresh} on fresh ones."

    def overfit_narration(self) -> str:
        """What the fresh points say, whichever way they came out.

        Only the numbers the weights depend on are counted as moving them
        (:func:`attnmath.weight_parameters`: the softmax cancels the rest); the
        reason it overfits is that it was tuned on the same points' own errors.
        """
        if self.held_out[1] < self.held_out[0]:
            return (
                f"Here the learned similarity, tuned on these {self.x.size} points' own errors, "
                "also predicts fresh points better than the tuned kernel."
            )
        free, total = self.projection_numbers()
        return (
            f"Attention's projections hold {total} numbers; only {free} move the weights, fewer than the "
            f"{self.x.size} points, yet tuned on their errors, attention follows their noise."
        )

    def projection_numbers(self) -> tuple[int, int]:
        """(numbers that move the weights, numbers in W_Q and W_K): softmax cancels the rest."""
        return weight_parameters(self.fit.w_q, self.fit.w_k), self.fit.w_q.size + self.fit.w_k.size

    def bends_to_noise(self) -> bool:
        """The learned curve lost, and lies far further from the sine than the kernel's (mean squared).

        ``off_truth`` is each curve's :func:`attnmath.held_out_errors` against the
        noise-free sine; the noise beat plays only when the learned one is off by
        more than :data:`NOISE_RATIO` times the kernel's, so that what it says holds.
        """
        return self.held_out[1] > self.held_out[0] and self.off_truth[1] > NOISE_RATIO * self.off_truth[0]

    def show_truth(self) -> None:
        """The sine the points came from, dashed in the kernel's and the learned plot."""
        xs = self.truth_xs()
        sines = []
        for k in (1, 2):
            sines.append(dashed_curve(self.axes[k], xs, sine(xs)))
            self.figures[k][0].add(sines[-1])  # it moves with its plot
        self.truth_shown = {1: [sines[0]], 2: [sines[1]]}
        clouds = getattr(self, "fresh_clouds", [])  # their errors are said: they would hide the sine
        self.when_said("Dashed", *(FadeOut(c) for c in clouds), *(Create(d) for d in sines), run_time=1.5)

    def show_noise(self) -> None:
        """Shade each curve's gap from the sine: a sliver for the kernel's, wide for the learned one's."""
        xs = self.truth_xs()
        gaps = [self.gap_from_sine(k, xs) for k in (1, 2)]
        for k, gap in zip((1, 2), gaps, strict=True):
            self.figures[k][0].add(gap)  # it moves with its plot
        self.truth_shown = {k: [*self.truth_shown[k], gap] for k, gap in zip((1, 2), gaps, strict=True)}
        bent = self.figures[2][0][2].animate.set_color(theme.WARNING)  # the curve that follows the noise
        self.when_said("bends", FadeIn(gaps[1]), bent, run_time=1.5)
        self.when_said("stays near", FadeIn(gaps[0]), *self.undim(), run_time=1.0)  # the kernel's plot again

    def loo_errors(self, plots: tuple[int, ...]) -> VGroup:
        """Each point's leave-one-out error in ``plots`` (1 kernel, 2 learned), the errors both were tuned on.

        From each point a line runs to its prediction from the others, ringed: the Gaussian's from
        :func:`attnmath.loo_predictions`, the learned one's from :meth:`attnmath.SimilarityFit.leave_one_out`.
        """
        found = VGroup()
        for k in plots:
            axes = self.axes[k]
            fitted = (
                loo_predictions(self.x, self.y, self.bandwidth)
                if k == 1
                else self.fit.leave_one_out(self.x, self.y)
            )
            for a, b, p in zip(self.x, self.y, np.clip(fitted, *Y_RANGE), strict=True):
                ring = Circle(radius=0.08, color=theme.TEXT, stroke_width=3).move_to(axes.c2p(a, p))
                found.add(VGroup(Line(axes.c2p(a, b), axes.c2p(a, p)).set_stroke(theme.TEXT, 4), ring))
        return found.set_z_index(-1)

    def gaussian_in_learned(self) -> Animation:
        """The Gaussian's curve, copied into the learned plot: one member of the family the learned one is.

        It leaves with the leave-one-out errors when the fresh points come (:meth:`show_fresh_points`).
        """
        member = curve(
            self.axes[2], self.grid, self.weights(self.grid)[1] @ self.y, color=theme.MUTED, width=3
        )
        self.member = member.set_z_index(-1)
        return TransformFromCopy(self.figures[1][0][2], member)

    def own_errors(self) -> list[Animation]:
        """What the learned similarity was tuned on, drawn again: its points' leave-one-out errors.

        The fresh points and their errors leave (they have said theirs); the errors drawn stay until
        the sine comes (:meth:`show_truth`), as the fresh points would have.
        """
        errors = self.loo_errors((2,))
        leaving = self.fresh_leave()
        self.fresh_clouds = [errors]
        return [*leaving, Create(errors)]

    def fresh_leave(self) -> list[Animation]:
        """The fresh points and their errors fade (they have said theirs), if they are still drawn."""
        leaving: list[Animation] = [FadeOut(c) for c in getattr(self, "fresh_clouds", [])]
        self.fresh_clouds = []
        return leaving

    def clear_truth(self) -> None:
        """Take the sines and gaps out of their plots and fade them: the plots as before, for the question."""
        left = [c for c in getattr(self, "fresh_clouds", []) if c in self.mobjects]  # no noise beat took them
        if left or self.dimmed in self.mobjects:
            self.play(*(FadeOut(c) for c in left), *self.undim(), run_time=0.8)
            self.fresh_clouds = []
        drawn = [m for k in (1, 2) for m in self.truth_shown.get(k, []) if m in self.figures[k][0]]
        if not drawn:
            return
        for k in (1, 2):
            self.unpin(k, *self.truth_shown[k])  # on their own now, still drawn behind the curves (z-index)
        self.play(FadeOut(*drawn), self.figures[2][0][2].animate.set_color(theme.TEXT), run_time=0.8)

    def truth_xs(self) -> np.ndarray:
        """Where the sine is drawn: the grid over the points' range (no claim outside the data)."""
        return self.grid[(self.grid >= self.x.min()) & (self.grid <= self.x.max())]

    def gap_from_sine(self, k: int, xs: np.ndarray) -> VMobject:
        """The region between method ``k``'s curve and the sine, filled in the warning colour."""
        fitted = self.weights(xs)[k] @ self.y
        return band(self.axes[k], xs, fitted, sine(xs), color=theme.WARNING, opacity=0.6).set_z_index(-2)

    def fresh_gaps(self) -> list[VGroup]:
        """Each plot's errors, drawn: from every fourth fresh point, a line to its method's prediction."""
        keep = (self.fresh[1] >= Y_RANGE[0]) & (self.fresh[1] <= Y_RANGE[1])
        xs, ys = self.fresh[0][keep][::4], self.fresh[1][keep][::4]
        gaussian = nadaraya_watson(xs, self.x, self.y, self.bandwidth)
        gaps = []
        for k, predicted in ((1, gaussian), (2, self.fit.weights(xs, self.x) @ self.y)):
            ends = np.clip(predicted, *Y_RANGE)
            gaps.append(
                VGroup(
                    *(
                        Line(self.axes[k].c2p(a, b), self.axes[k].c2p(a, p)).set_stroke(theme.MUTED, 3)
                        for a, b, p in zip(xs, ys, ends, strict=True)
                    )
                )
            )
        self.fresh_clouds = [*self.fresh_clouds, *gaps]  # they leave together when the sine comes
        return gaps

    def show_fresh_points(self) -> None:
        """The fresh points, small and grey, behind each of the two plots (in the first points' range)."""
        keep = (self.fresh[1] >= Y_RANGE[0]) & (self.fresh[1] <= Y_RANGE[1])
        xs, ys = self.fresh[0][keep], self.fresh[1][keep]
        clouds = [
            VGroup(
                *(
                    Dot(self.axes[k].c2p(a, b), radius=0.035, color=theme.MUTED)
                    for a, b in zip(xs, ys, strict=True)
                )
            )
            for k in (1, 2)
        ]
        for c in clouds:
            c.set_z_index(-1)  # behind the curves, the query and its name, from their first frame
        self.fresh_clouds = clouds
        lagged = (LaggedStart(*(FadeIn(d) for d in c), lag_ratio=0.02) for c in clouds)
        leaving = [FadeOut(m) for m in (self.loo_shown, self.member) if m in self.mobjects]
        self.when_said("fresh points", *lagged, *leaving, run_time=1.2)
