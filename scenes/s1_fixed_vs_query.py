"""Section 1: fixed weights, kernel weights and attention weights on the same data.

Render with ``manim -qh scenes/s1_fixed_vs_query.py FixedVsQueryWeights``.

Each method is one figure (data, prediction, weight bars) built once at full
size. The beat's method is shown large with its words (name, rule, axis
titles); the others wait as small unlabelled thumbnails at the side, and the
comparison beats show two methods side by side. Moving a figure scales it;
its words are rebuilt at full size for the new place, never scaled.

The kernel's bandwidth and attention's projections are both tuned on the
same points by leave-one-out error, so that score cannot judge them; the
scene compares them on fresh points drawn with another seed, and says
whichever way it comes out.

The storyboard and its descriptions are here; the beats' drawing lives beside
it, one module an idea: :mod:`scenes.s1_figures` (the figures and their places),
:mod:`scenes.s1_query` (the moving query) and :mod:`scenes.s1_fair_test` (the
errors on fitted and fresh points).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    AnimationGroup,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Write,
)

from attnmath import (
    best_bandwidth,
    fit_similarity,
    held_out_errors,
    kernel_weights,
    loo_cv_error,
    noisy_sine,
    sine,
)
from drawing import theme
from lecture.sections.s1_fixed_vs_query import FixedVsQueryParameters
from scenes.base import LectureScene
from scenes.s1_fair_test import FairComparison
from scenes.s1_query import MovingQuery, where

__all__ = ["FixedVsQueryWeights"]


class FixedVsQueryWeights(MovingQuery, FairComparison, LectureScene[FixedVsQueryParameters]):
    """The same data weighted three ways while a query moves: only two of them follow it."""

    n_fresh: ClassVar[int] = 200  # held-out points, drawn with their own seed, that nothing is fitted on
    fresh_seed: ClassVar[int] = 100
    query_path: ClassVar[tuple[float, ...]] = (0.08, 0.92, 0.35)

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.compute()
        self.title_beat()
        self.build_figures()
        self.the_mean()
        with self.beat(
            "kernel",
            "Kernel regression weighs each point by its similarity to the query, the input we predict at: "
            "here a Gaussian of their distance.",
            shows=f"The kernel's fit, {self.curve_phrase(1)}, follows the dots.",
        ):
            self.present(1)
            self.when_said("a Gaussian", Create(self.kernel_bump()), run_time=1.0)
            self.predict(1)
        with self.beat(
            "attention",
            "Attention does the same with a learned similarity: features psi, x, x squared and one, "
            "projected by learned matrices, then e to their dot product.",
            shows=f"Attention's fit, {self.curve_phrase(2)}, follows the dots.",
        ):
            self.present(2)
            self.predict(2, at="x squared")  # drawn as the voice builds it, not after a long hold
        with self.beat(
            "query-arrives",
            "A query, q, arrives in orange. The yellow bars are each method's weights on the points.",
            shows=self.arrival_description(self.query_path[0]),
        ):
            self.show_weights()
        self.pause_and_predict(self.question(), self.query_moves_right, shows=self.answer_description())
        self.compare_fits()

    def the_mean(self) -> None:
        """Beats: the mean, sufficient for a constant plus noise; its equal weights and flat prediction."""
        with self.beat(
            "mean",
            f"Suppose {self.x.size} points were a constant plus independent Gaussian noise of known spread: "
            "their mean, a sufficient statistic, would keep all they say about it.",
            shows="Dashed constant; gaps, the noise; a band, its spread; dot copies fly into the mean.",
        ):
            self.present(0)  # the points arrive as they are named
            constant, noise = self.constant_and_noise()
            self.when_said("a constant", Create(constant), run_time=1.0)
            grow = LaggedStart(*(Create(n) for n in noise), lag_ratio=0.1)
            self.when_said("Gaussian noise", grow, run_time=1.5)
            spread = self.noise_spread()
            self.when_said("known spread", FadeIn(spread), run_time=0.8)
            tick = self.mean_mark()
            self.when_said("their mean", FadeIn(tick, shift=0.3 * RIGHT), run_time=1.0)
            self.until_said("keep all")
            self.unpin(0, noise, spread)
            self.play(self.summarised(tick), FadeOut(noise, spread), run_time=2.5)
        with self.beat(
            "mean-flat",
            "The mean weighs each of the N points, here 10, the same, one over N, "
            "so it predicts a flat line.",
            shows=self.mean_line_description(),
        ):
            self.unpin(0, constant)
            self.play(FadeOut(constant), run_time=0.6)  # the flat prediction is drawn where it was
            bars, value = self.mean_weights()
            grow = LaggedStart(*(GrowFromEdge(b, DOWN) for b in bars), lag_ratio=0.15)
            self.when_said("each of the N", grow, run_time=1.5)
            rule = Circumscribe(self.words[0][0][1], color=theme.WEIGHT)
            self.when_said("one over N", AnimationGroup(Write(value), rule), run_time=1.2)
            self.predict(0)
            self.keep_with_words(0, bars, value)

    def compute(self) -> None:
        """The data, the fitted similarity, the best bandwidth and both methods' errors, from attnmath."""
        self.x, self.y = noisy_sine(self.params.n_points, noise=self.params.noise, seed=self.params.seed)
        within = {"low": float(self.x.min()), "high": float(self.x.max())}  # no extrapolation in the error
        self.fresh = noisy_sine(self.n_fresh, noise=self.params.noise, seed=self.fresh_seed, **within)
        self.fit = fit_similarity(self.x, self.y)
        self.bandwidth = best_bandwidth(self.x, self.y, np.geomspace(1e-3, 10, 200))
        self.loo = (float(loo_cv_error(self.x, self.y, [self.bandwidth])[0]), self.fit.loss)
        self.held_out = held_out_errors(self.fit, self.bandwidth, self.x, self.y, *self.fresh)
        truth = np.linspace(
            float(self.x.min()), float(self.x.max()), 401
        )  # each curve against the noise-free sine
        self.off_truth = held_out_errors(self.fit, self.bandwidth, self.x, self.y, truth, sine(truth))
        self.grid = np.linspace(0.0, 1.0, 161)

    # --- the three weighting rules, all from attnmath -------------------------
    def weights(self, queries: np.ndarray) -> list[np.ndarray]:
        """(Q, N) weights of the mean, kernel regression and attention at ``queries``."""
        q = np.atleast_1d(queries)
        uniform = np.full((q.size, self.x.size), 1.0 / self.x.size)
        kernel = kernel_weights(q, self.x, self.bandwidth)
        attention = self.fit.weights(q, self.x)
        return [uniform, kernel, attention]

    # --- what the pictures show, in words, for the audio description --------------
    def mean_line_description(self) -> str:
        """The mean's flat line and where the dots lie against it."""
        level = float(self.y.mean())
        left, right = self.y[self.x < 0.5], self.y[self.x >= 0.5]
        line = "The real dots are not constant"
        if left.size and right.size and (left > level).all() and (right < level).all():
            return f"{line}: left-half all above the flat line, right-half all below."
        if left.size and right.size and (left > level).mean() >= 0.75 and (right < level).mean() >= 0.75:
            return f"{line}: most left-half dots above the flat line, most right-half below."
        return "The flat line sits at the dots' average, with dots above and below it."

    def curve_phrase(self, k: int) -> str:
        """Method ``k``'s prediction in words: flat steps where one point takes nearly all the weight."""
        stepped = float((self.weights(self.grid)[k].max(axis=1) > 0.9).mean()) > 0.5
        return "a staircase" if stepped else "a smooth curve"

    def weight_phrase(self, k: int, q: float) -> str:
        """Where method ``k`` puts its weight at query ``q``, briefly: on one point, or spread."""
        w = self.weights(np.array([q]))[k][0]
        top = int(np.argmax(w))
        rank = np.argsort(np.abs(self.x - q)).tolist().index(top)  # 0: the point nearest the query
        if w[top] > 0.5:
            return f"on the {('nearest', 'second-nearest')[rank]}" if rank < 2 else "on one point"
        return "spread near q" if rank < 2 else "spread wide"

    def arrival_description(self, q: float) -> str:
        """The three methods' weights at the query's first place: the question asks how they move."""
        kernel, attention = self.weight_phrase(1, q), self.weight_phrase(2, q)
        return f"At {where(q)}: mean's bars equal; kernel's {kernel}; attention's {attention}."

    def answer_description(self) -> str:
        """The answer's sweep: the mean's bars hold as q crosses; the peaks only when they fail to follow."""
        here, there = self.query_path[1], self.query_path[2]
        nearest = [set(np.argsort(np.abs(self.x - q))[:2].tolist()) for q in (here, there)]
        peaks = [np.argmax(self.weights(np.array([here, there]))[k], axis=1) for k in (1, 2)]
        under = all(int(p[j]) in nearest[j] for p in peaks for j in range(2))
        n = self.x.size
        held = f"q to {where(here)}: mean's {n} bars stay 1 over {n}"
        return f"{held}; kernel's, attention's follow." if under else f"{held}; others' peaks stray."
