"""Section 2: attention as Nadaraya–Watson kernel regression, and its collapse at the extremes.

Render with ``manim -qh scenes/s2_kernel_regression.py KernelRegressionCollapse``.

The closing beats, the kernel's weights rewritten as a softmax, live beside it
in :mod:`scenes.s2_softmax_form`.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    Mobject,
    Rectangle,
    ReplacementTransform,
    ValueTracker,
    VGroup,
)

from attnmath import (
    classify_regime,
    entropy,
    kernel_profile,
    kernel_weights,
    loo_cv_error,
    nadaraya_watson,
    noisy_sine,
    sine,
)
from drawing import theme
from drawing.plots import axis_labels, band, curve, dashed_curve, quiet_axes, redraw_curve, scatter, to_scene
from drawing.pointing import in_turn
from drawing.readouts import LabelSwitch, Readout
from drawing.widgets import BarPanel, label, math
from lecture.sections.s2_kernel_regression import KernelRegressionParameters
from narration.narrator import Spoken
from scenes.base import LectureScene
from scenes.s2_softmax_form import RIGHT_X, ROLE_TEX, SHOWN_WEIGHT, SoftmaxForm

__all__ = ["KernelRegressionCollapse"]

# Left: the data and estimate over the weights at q (sharing the x-axis). Right: the numbers, then
# the leave-one-out error against the bandwidth.
MAIN_X, MAIN_Y, MAIN_W, MAIN_H = -2.7, 1.4, 6.8, 2.9
BARS_Y, BARS_H = -1.5, 1.3
LOO_Y, LOO_W, LOO_H = -1.15, 4.7, 2.0
Y_RANGE = (-1.9, 1.9)
WEIGHT_TITLE = "weight w\u1d62"
X_TICKS = (0, 0.5, 1)
REGIME_TEXT = {
    "argmax": "nearest point: steps",
    "intermediate": "neighbours averaged",
    "uniform": "all equal: the mean",
}


class KernelRegressionCollapse(SoftmaxForm, LectureScene[KernelRegressionParameters]):
    """The bandwidth sweeps from tiny to huge: steps, a smooth fit, then the global mean."""

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.compute()
        n = self.x.size
        self.title_beat()
        with self.beat(
            "data",
            f"Here are {n} noisy samples of a smooth curve.",
            shows=f"Dots span input x from {X_TICKS[0]} to {X_TICKS[-1]} in one wave: up, then down.",
        ):
            self.show_data()
        with self.beat(
            "estimate",
            "The white curve is the Nadaraya-Watson estimate: at each input, an average of the y values "
            "weighted by a kernel.",
            shows="Formula: f hat of q equals sum K times y i, over sum K.",
        ):
            self.show_estimate()
        with self.beat(
            "query-kernel",
            "Fix a query, q, in orange. The purple kernel, a bump centred on q, sets each sample's weight: "
            "the yellow bars.",
            shows=f"A weight bar under each sample; {self.visible_bars(self.best)}.",
        ):
            self.show_kernel()
        with self.beat(
            "bandwidth",
            "The bump's width is the bandwidth, sigma. Now push it to both extremes.",
            shows=f"A readout gives the bump's width: sigma {self.sigmas[self.best]:.3f}.",
        ):
            self.until_said("the bandwidth")  # the formula gives way to sigma's readout as the voice names it
            self.play(FadeOut(self.equation), run_time=0.6)
            self.introduce_readout(0)
        self.sweep_bandwidth()
        with self.beat(
            "leave-one-out",
            "Predicting each sample from the others, the error, plotted against sigma, is lowest in between: "
            "the bias-variance trade-off.",
            shows="Leave-one-out error, high at both ends, dips at sigma "
            f"{self.sigmas[self.best]:.3f}; the fit smooths.",
        ):
            self.show_loo_panel()
        self.show_softmax_identity()

    def compute(self) -> None:
        """Every number the scene shows, for a whole grid of bandwidths, in vectorised calls."""
        self.x, self.y = noisy_sine(self.params.n_points, noise=self.params.noise, seed=self.params.seed)
        self.xs = np.linspace(0.0, 1.0, 240)
        self.sigmas = np.geomspace(*self.params.sigma_range, self.params.grid_size)
        self.curves = nadaraya_watson(self.xs, self.x, self.y, self.sigmas)  # (B, 240)
        self.w = kernel_weights([self.params.query], self.x, self.sigmas)[:, 0, :]  # (B, N)
        self.h = entropy(self.w)  # (B,)
        self.profiles = kernel_profile(self.xs, self.params.query, self.sigmas)  # (B, 240)
        self.loo = loo_cv_error(self.x, self.y, self.sigmas)  # (B,)
        self.best = int(np.argmin(self.loo))

    def visible_bars(self, i: int) -> str:
        """Which weight bars of grid row ``i`` can be seen, in words (weights fall with distance from q)."""
        shown = int(np.sum(self.w[i] > SHOWN_WEIGHT))
        if shown == self.x.size:
            return "all show"
        verb = "stands" if shown == 1 else "stand"
        return f"only the {'one' if shown == 1 else shown} nearest q {verb} visibly tall"

    def index(self) -> int:
        """Grid index nearest the tracker's bandwidth (every frame shows a computed grid row)."""
        return int(np.argmin(np.abs(np.log10(self.sigmas) - self.log_sigma.get_value())))

    def show_data(self) -> None:
        """The samples on their axes, titled (the x-axis title moves under the weights later)."""
        self.log_sigma = ValueTracker(np.log10(self.sigmas[self.best]))
        self.axes = quiet_axes((0, 1), Y_RANGE, width=MAIN_W, height=MAIN_H).move_to([MAIN_X, MAIN_Y, 0])
        self.axes.x_axis.set_opacity(0.0)
        self.dots = scatter(self.axes, self.x, self.y, radius=0.09)
        self.x_titles = axis_labels(self.axes, "input x", None, x_ticks=X_TICKS)
        self.fade_in(self.axes, self.dots, axis_labels(self.axes, None, "output y"), self.x_titles)

    def show_estimate(self) -> None:
        """The estimate at the best bandwidth, drawn left to right, and its formula."""
        self.estimate = curve(self.axes, self.xs, self.curves[self.best], width=4)
        self.equation = math(
            r"\hat f(q) = \frac{\sum_i K(q, x_i)\, y_i}{\sum_j K(q, x_j)}", colors=ROLE_TEX, size=48
        ).move_to([RIGHT_X, 1.6, 0])
        self.play(Create(self.estimate), run_time=2.5)
        self.fade_in(self.equation, run_time=1.2)

    def show_kernel(self) -> None:
        """The query, its kernel, then the weights under the plot (the x-axis title moves under them)."""
        i = self.best
        self.bars = BarPanel(
            self.w[i], width=MAIN_W, height=BARS_H, color=theme.WEIGHT, show_index=False, positions=self.x
        ).move_to([MAIN_X, BARS_Y, 0])
        bar_axes = quiet_axes((0, 1), (0, 1), width=MAIN_W, height=BARS_H).move_to(self.bars)
        bar_axes.x_axis.set_opacity(0.0)  # the bars' baseline is the axis
        top = to_scene(self.axes, self.params.query, Y_RANGE[1])[0]
        query_line = DashedLine(
            top, to_scene(bar_axes, self.params.query, 0.0)[0], color=theme.QUERY, stroke_width=4
        )
        query_name = math("q", color=theme.QUERY).next_to(top, RIGHT, buff=0.12).shift(0.3 * DOWN)
        self.query_dot = Dot(radius=0.11, color=theme.QUERY)
        self.bump = curve(self.axes, self.xs, self.bump_ys(i), color=theme.TEMPERATURE, width=4)
        self.build_readouts()
        self.live = VGroup(self.estimate, self.query_dot, self.bump, self.bars)
        self.refresh()
        x_titles = axis_labels(bar_axes, "input x", None, x_ticks=X_TICKS)
        self.play(
            Create(query_line),
            FadeIn(self.query_dot),
            FadeIn(query_name),
            ReplacementTransform(self.x_titles, x_titles),
            run_time=1.2,
        )
        self.when_said("purple kernel", Create(self.bump), run_time=1.5)
        weights = VGroup(bar_axes, self.bars, axis_labels(bar_axes, None, WEIGHT_TITLE, y_ticks=(0, 1)))
        self.when_said("sets each", FadeIn(weights), run_time=1.2)

    def build_readouts(self) -> None:
        """The bandwidth, entropy and effective k at the top right, and the regime's name under them."""
        self.readouts = VGroup(
            Readout(r"\sigma =", 1.0, decimals=3, widest=self.sigmas[-1], color=theme.TEMPERATURE, size=48),
            Readout(r"H(w) =", 0.0, decimals=2, widest=np.log(self.x.size), size=48),
            Readout(r"k_{\mathrm{eff}} =", 1.0, decimals=2, widest=self.x.size, size=48),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        self.readouts.move_to([RIGHT_X, theme.SAFE_TOP - self.readouts.height / 2, 0])
        self.regime = LabelSwitch(
            {
                name: label(text, color=theme.TEMPERATURE).next_to(self.readouts, DOWN, buff=0.35)
                for name, text in REGIME_TEXT.items()
            }
        )

    def introduce_readout(self, k: int) -> None:
        """Readout ``k`` (sigma, entropy, effective k) fades in, then follows the bandwidth with the rest."""
        self.join_live(self.readouts[k])

    def join_live(self, *mobjects: Mobject, run_time: float = 1.0) -> None:
        """``mobjects`` fade in at the bandwidth's current state, then are redrawn with the live group."""
        self.stop_live(self.live)
        self.refresh()
        self.play(*(FadeIn(m) for m in mobjects), run_time=run_time)
        self.remove(*mobjects)
        self.live.add(*mobjects)
        self.go_live(self.live, self.refresh)

    def bump_ys(self, i: int) -> np.ndarray:
        """The kernel around q, drawn in the lowest fifth of the plot."""
        lo, hi = Y_RANGE
        return lo + 0.22 * (hi - lo) * self.profiles[i]

    def refresh(self) -> None:
        """Redraw everything that depends on the bandwidth from grid row ``index()``."""
        i = self.index()
        redraw_curve(self.estimate, self.axes, self.xs, self.curves[i])
        redraw_curve(self.bump, self.axes, self.xs, self.bump_ys(i))
        self.query_dot.move_to(to_scene(self.axes, self.params.query, float(self.w[i] @ self.y))[0])
        self.bars.set_values(self.w[i])
        k = float(np.exp(self.h[i]))
        for readout, value in zip(self.readouts, (self.sigmas[i], self.h[i], k), strict=True):
            readout.set_value(float(value))
        self.set_regime(classify_regime(k, self.x.size))
        if hasattr(self, "loo_dot"):
            self.loo_dot.move_to(self.loo_point(i))

    def set_regime(self, regime: str) -> None:
        """Name the bandwidth's regime under the readouts."""
        self.regime.switch_to(regime)

    def loo_point(self, i: int) -> np.ndarray:
        """Where grid row ``i`` lies on the leave-one-out plot (x: decades above the lowest bandwidth)."""
        return to_scene(self.loo_axes, np.log10(self.sigmas[i] / self.sigmas[0]), self.loo[i])[0]

    def show_loo_panel(self) -> None:
        """Leave-one-out error against bandwidth (log scale), with the minimum marked."""
        decades = np.log10(self.sigmas[-1] / self.sigmas[0])
        self.loo_axes = quiet_axes(
            (0.0, decades), (0.0, float(np.max(self.loo)) * 1.1), width=LOO_W, height=LOO_H
        )
        self.loo_axes.move_to([RIGHT_X + 0.3, LOO_Y, 0])
        xs = np.log10(self.sigmas / self.sigmas[0])
        loo_curve = curve(self.loo_axes, xs, self.loo, color=theme.TEXT, width=3)
        lo = np.log10(self.sigmas[0])
        ticks = [e - lo for e in range(int(np.ceil(lo)), int(np.floor(lo + decades)) + 1)]
        titles = axis_labels(
            self.loo_axes,
            "bandwidth \u03c3",
            "leave-one-out error",
            x_ticks=ticks,
            tick_text=lambda v: f"{10 ** (v + lo):g}",
        )
        best_label = VGroup(
            label("lowest at"), math(rf"\sigma = {self.sigmas[self.best]:.3f}", size=44)
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        best_label.align_to(self.loo_axes, UP).align_to(self.loo_axes, LEFT).shift(0.3 * RIGHT + 0.1 * DOWN)
        self.loo_dot = Dot(radius=0.11, color=theme.TEMPERATURE)
        drawn = [m for m in (getattr(self, "truth", None), getattr(self, "bias", None)) if m in self.mobjects]
        self.play(FadeIn(self.loo_axes), FadeIn(titles), *(FadeOut(m) for m in drawn), run_time=1.0)
        self.play(Create(loo_curve), run_time=1.5)
        self.join_live(self.loo_dot, run_time=0.6)
        self.sweep_to(self.log_sigma, np.log10(self.sigmas[self.best]), 3.0)
        self.play(FadeIn(best_label), run_time=1.0)

    def sweep_bandwidth(self) -> None:
        """Tiny bandwidth, then huge: a beat for each sweep, a beat for what the estimate became."""
        with self.beat(
            "tiny-bandwidth",
            "Shrink it. The entropy, how spread out the weights are, falls near zero: "
            "the nearest sample takes all the weight.",
            shows=f"Sigma falls to {self.sigmas[0]:.3f}; the bump becomes a spike; the nearest bar reaches "
            f"{self.w[0].max():.2f}.",
        ):
            self.join_live(self.readouts[1], self.regime)
            self.sweep_to(
                self.log_sigma, np.log10(self.sigmas[0]), min(max(self.speech_left() - 0.3, 4.0), 7.5)
            )
        with self.beat(
            "steps",
            "The fit becomes a step function: over many noisy draws, nearly right on average, low bias; but "
            "it copies each sample's noise: high variance.",
            shows="Flat steps copy each dot's height, zigzagging above and below the dashed true curve.",
        ):
            cells = self.nearest_cells()
            self.when_said("step function", FadeIn(cells), run_time=1.0)
            self.truth = dashed_curve(self.axes, self.xs, sine(self.xs), width=5, dashes=40, ratio=0.7)
            self.hold(1.0)
            draws = in_turn(self.dots, color=theme.VALUE, scale=1.6, lag=0.05)  # the noisy samples
            self.when_said("noisy draws", draws, run_time=1.5)
            self.when_said("right on average", Create(self.truth), run_time=1.5)
            jagged = self.curves[self.index()]  # its gap from the curve: the noise it copies
            self.spread = band(self.axes, self.xs, jagged, sine(self.xs), color=theme.WARNING, opacity=0.45)
            self.when_said("low bias", FadeOut(cells), run_time=1.0)  # the strips go; the noise stays
            self.when_said("copies", FadeIn(self.spread.set_z_index(-2)), run_time=1.5)
        self.pause_and_predict(self.question(), self.widest_bandwidth, shows=self.widest_shows())
        with self.beat(
            "huge-bandwidth",
            "Low variance, but high bias: it misses the curve. k effective, e to the entropy, counts the "
            f"samples averaged: it nears {self.x.size}.",
            shows="Shaded, the flat line's gap from the dashed curve: wide at every peak and trough.",
        ):
            flat = self.curves[self.index()]
            self.bias = band(self.axes, self.xs, flat, sine(self.xs), color=theme.WARNING, opacity=0.45)
            self.when_said("high bias", FadeIn(self.bias.set_z_index(-2)), run_time=0.8)
            self.until_said("k effective")
            self.introduce_readout(2)
            counted = in_turn(self.dots, color=theme.VALUE, scale=2.0, lag=0.08)  # every sample, averaged
            self.when_said("counts the samples", counted, run_time=2.5)

    def widest_shows(self) -> str:
        """The answer's picture: the bandwidth at its widest, every bar level."""
        return (
            f"Sigma {self.sigmas[-1]:g}: the fit flattens to the mean; all {self.x.size} bars equal, "
            f"{self.w[-1].mean():.2f} each."
        )

    def nearest_cells(self) -> VGroup:
        """Where each sample is the nearest, as alternate shaded strips: the tiny bandwidth's steps.

        A strip runs between the midpoints to a sample's neighbours, over the plot's height.
        """
        order = np.sort(self.x)
        edges = np.concatenate([[0.0], (order[1:] + order[:-1]) / 2, [1.0]])
        strips = VGroup()
        for a, b in zip(edges[:-1:2], edges[1::2], strict=True):
            lo, hi = self.axes.c2p(a, Y_RANGE[0]), self.axes.c2p(b, Y_RANGE[1])
            strip = Rectangle(width=hi[0] - lo[0], height=hi[1] - lo[1], stroke_width=0)
            strips.add(strip.set_fill(theme.MUTED, opacity=0.2).move_to((lo + hi) / 2))
        return strips.set_z_index(-3)

    def widest_bandwidth(self, spoken: Spoken) -> None:
        """The answer: the steps' gap goes and the bandwidth opens to its widest; the estimate flattens."""
        self.play(FadeOut(self.spread), run_time=0.5)
        self.sweep_to(self.log_sigma, np.log10(self.sigmas[-1]), min(max(self.speech_left() - 0.3, 3.0), 6.0))
