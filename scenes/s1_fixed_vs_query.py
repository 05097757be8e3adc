"""Section 1: fixed weights, kernel weights and attention weights on the same data.

Render with ``manim -qh scenes/s1_fixed_vs_query.py FixedVsQueryWeights``.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from manim import DOWN, UP, Create, DashedLine, Dot, FadeIn, FadeOut, Indicate, Mobject, ValueTracker, VGroup

from attnmath import (
    fit_similarity,
    kernel_weights,
    loo_cv_error,
    noisy_sine,
)
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.plots import curve, quiet_axes, scatter, to_scene
from scenes.kit.widgets import BarPanel, fit_width, label, math

__all__ = ["FixedVsQueryWeights"]

PANEL_XS = (-4.45, 0.0, 4.45)
PLOT_WIDTH, PLOT_HEIGHT = 3.7, 1.9
PLOT_Y = 0.95
BARS_Y = -1.35
Y_RANGE = (-1.8, 1.8)


class FixedVsQueryWeights(LectureScene):
    """The same data weighted three ways while a query moves: only two of them follow it."""

    section = "Section 1"
    title = "Fixed and query-dependent weights"

    n_points: ClassVar[int] = 10
    noise: ClassVar[float] = 0.25
    seed: ClassVar[int] = 3
    bandwidth: ClassVar[float] = 0.08
    query_path: ClassVar[tuple[float, ...]] = (0.08, 0.92, 0.35)

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.x, self.y = noisy_sine(self.n_points, noise=self.noise, seed=self.seed)
        self.fit = fit_similarity(self.x, self.y)
        self.grid = np.linspace(0.0, 1.0, 161)
        with self.beat("title", "Section one. Fixed and query-dependent weights."):
            self.title_card()
        self.build_panels()
        with self.beat(
            "mean",
            f"The same {self.x.size} noisy points, summarised three ways. First the mean, a sufficient "
            "statistic: every point weighs the same, so it predicts a flat line.",
        ):
            self.show_panel(0)
        with self.beat(
            "kernel",
            "Kernel regression weights each point by its similarity to the query, under a kernel we choose.",
        ):
            self.show_panel(1)
        with self.beat(
            "attention",
            "Attention does the same, but the similarity is a dot product of learned projections.",
        ):
            self.show_panel(2)
        with self.beat(
            "query-arrives",
            "A query, q, arrives, in orange. The yellow bars show each method's weight on every point.",
        ):
            self.show_weights()
        self.move_query()
        with self.beat("learned", self.learned_narration()):
            self.show_learned_fact()

    # --- the three weighting rules, all from attnmath -------------------------
    def weights(self, queries: np.ndarray) -> list[np.ndarray]:
        """(Q, N) weights of the mean, kernel regression and attention at ``queries``."""
        q = np.atleast_1d(queries)
        uniform = np.full((q.size, self.x.size), 1.0 / self.x.size)
        kernel = kernel_weights(q, self.x, self.bandwidth)
        attention = self.fit.weights(q, self.x)
        return [uniform, kernel, attention]

    def build_panel(self, k: int, title: str, rule: Mobject) -> VGroup:
        """Title, rule, data scatter, prediction curve and weight bars for method ``k``.

        The bars are also kept in ``self.bars``: the live group takes them over.
        """
        axes = quiet_axes((0, 1), Y_RANGE, width=PLOT_WIDTH, height=PLOT_HEIGHT)
        axes.move_to([PANEL_XS[k], PLOT_Y, 0])
        axes.x_axis.set_opacity(0.0)  # a line at y = 0 would read as the mean's prediction
        heading = fit_width(label(title, size=theme.LABEL_SIZE), 4.0).move_to([PANEL_XS[k], 3.15, 0])
        rule.next_to(heading, DOWN, buff=0.2)
        prediction = curve(axes, self.grid, self.weights(self.grid)[k] @ self.y, color=theme.TEXT, width=2.5)
        self.bars[k] = BarPanel(
            np.zeros(self.x.size),
            width=PLOT_WIDTH,
            height=1.3,
            color=theme.WEIGHT,
            show_index=False,
            positions=self.x,
            fill_ratio=0.6,
            y_range=(0.0, 1.0),
        ).move_to([PANEL_XS[k], BARS_Y, 0])
        self.axes[k] = axes
        return VGroup(heading, rule, axes, scatter(axes, self.x, self.y), prediction, self.bars[k])

    def build_panels(self) -> None:
        """Three panels with the same data and each method's prediction curve (not shown yet)."""
        rules = (
            math(r"w_i = 1/N", size=theme.READOUT_SIZE),
            math(r"w_i \propto K(q, x_i)", size=theme.READOUT_SIZE),
            math(r"w_i \propto e^{\phi(q)^\top W_Q W_K^\top \phi(x_i)}", size=theme.READOUT_SIZE),
        )
        titles = ("Sufficient statistic: mean", "Kernel regression", "Attention")
        self.axes: dict[int, Mobject] = {}
        self.bars: dict[int, BarPanel] = {}
        self.panels = [self.build_panel(k, t, r) for k, (t, r) in enumerate(zip(titles, rules, strict=True))]

    def show_panel(self, k: int) -> None:
        """Panel ``k`` in four steps paced on the narration: data, title, rule, then its prediction."""
        heading, rule, axes, dots, prediction, bars = self.panels[k]
        step = max(self.speech_left() - 1.0, 4.0) / 4
        for part in (VGroup(axes, dots, bars.box, bars.baseline), heading, rule):
            self.play(FadeIn(part), run_time=min(step, 1.2))
            self.hold(step - min(step, 1.2))
        self.play(Create(prediction), run_time=min(step, 2.5))

    def show_weights(self) -> None:
        """A query line in each panel and the weights each method puts on the points."""
        self.q = ValueTracker(self.query_path[0])
        self.markers = VGroup(*(self.query_marker(k) for k in range(3)))
        bar_label = label("weights on the points", size=theme.SMALL_SIZE, color=theme.WEIGHT)
        self.bar_label = bar_label.move_to([0, BARS_Y - 0.95, 0])
        self.refresh()
        self.play(Create(self.markers), run_time=1.5)
        self.play(*(FadeIn(b.bars) for b in self.bars.values()), FadeIn(self.bar_label), run_time=1.5)
        self.go_live(VGroup(self.markers, *self.bars.values()), self.refresh)

    def query_marker(self, _k: int) -> VGroup:
        """Dashed vertical line at the query and a dot at the prediction."""
        line = DashedLine(UP, DOWN, color=theme.QUERY, stroke_width=3)
        dot = Dot(radius=0.09, color=theme.QUERY)
        return VGroup(line, dot)

    def refresh(self) -> None:
        """Move the query markers and redraw the weight bars for the current query."""
        q = float(self.q.get_value())
        for k, (marker, w) in enumerate(zip(self.markers, self.weights(np.array([q])), strict=True)):
            axes, bars = self.axes[k], self.bars[k]
            bottom, top = to_scene(axes, [q, q], list(Y_RANGE))
            marker[0].put_start_and_end_on(bottom, top)
            marker[1].move_to(to_scene(axes, q, float(w[0] @ self.y))[0])
            bars.set_values(w[0])

    def move_query(self) -> None:
        """Sweep the query across and back, one beat each way."""
        beats = (
            ("mean-ignores-q", "As the query moves, the mean's weights never change."),
            (
                "weights-follow-q",
                "Kernel and attention weights follow the query, so every position gets its own summary.",
            ),
        )
        for target, (slug, text) in zip(self.query_path[1:], beats, strict=True):
            with self.beat(slug, text):
                self.sweep_to(self.q, target, 7.0)

    def best_gaussian_error(self) -> float:
        """Leave-one-out error of the best Gaussian bandwidth on this data."""
        return float(np.min(loo_cv_error(self.x, self.y, np.geomspace(1e-3, 10, 200))))

    def learned_narration(self) -> str:
        """What 'learned' means, and how the fitted similarity compares with the best bandwidth."""
        better = "lower" if self.fit.loss < self.best_gaussian_error() else "higher"
        return (
            "The kernel was chosen by hand. Attention's projections were fitted to predict each point "
            f"from the others, and their leave-one-out error is {better} than the best Gaussian bandwidth's."
        )

    def show_learned_fact(self) -> None:
        """What 'learned' means here, with the fitted numbers."""
        note = math(
            rf"\text{{learned }} W_Q, W_K:\ \text{{leave-one-out error }} {self.fit.loss:.3f}"
            rf"\ \text{{vs. }} {self.best_gaussian_error():.3f} \text{{ for the best Gaussian bandwidth}}",
            size=theme.READOUT_SIZE,
        )
        fit_width(note, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        note.move_to(self.bar_label)
        self.play(Indicate(self.panels[1][1]), run_time=1.2)
        self.play(Indicate(self.panels[2][1]), run_time=1.2)
        self.hold(self.speech_left() - 4.0)
        self.play(FadeOut(self.bar_label), run_time=0.5)
        self.play(FadeIn(note), run_time=1.0)
