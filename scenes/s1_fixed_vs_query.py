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
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Axes,
    Circumscribe,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Mobject,
    ValueTracker,
    VGroup,
    VMobject,
)

from attnmath import (
    best_bandwidth,
    fit_similarity,
    held_out_errors,
    kernel_weights,
    loo_cv_error,
    noisy_sine,
)
from drawing import theme
from drawing.plots import axis_labels, curve, quiet_axes, scatter, to_scene
from drawing.pointing import in_turn
from drawing.stage import aim, regroup
from drawing.widgets import BarPanel, fit_width, label, math
from lecture.sections.s1_fixed_vs_query import FixedVsQueryParameters
from narration.narrator import Spoken
from scenes.base import SAID, LectureScene

__all__ = ["FixedVsQueryWeights"]

Y_RANGE = (-1.8, 1.8)
# A method's figure at full size: data plot over weight bars, sharing the x-axis.
FIG_W, PLOT_H, GAP, BARS_H = 8.6, 2.4, 0.6, 1.3
# Places as (centre, scale): the beat's method large with its words, the others as thumbnails at the
# side, and two methods side by side for the comparison.
BIG = (np.array([-1.7, 0.05, 0]), 1.0)
BIG_FIRST = (np.array([0.0, 0.05, 0]), 1.0)  # alone on screen: centred
THUMBS = ((np.array([5.0, 1.55, 0]), 0.35), (np.array([5.0, -1.75, 0]), 0.35))
PAIR = ((np.array([-3.25, 0.3, 0]), 0.62), (np.array([3.5, 0.3, 0]), 0.62))  # room below for the verdict
Place = tuple[str, tuple[np.ndarray, float]]  # ("big" | "pair" | "thumb", (centre, scale))
NAMES = ("mean", "kernel", "attention")
TITLES = ("Mean: fixed weights", "Kernel regression", "Attention")
RULES = (
    r"w_i = 1/N",
    r"w_i \propto K(q, x_i)",
    r"w_i \propto \exp\!\big(\psi(q)^\top W_Q^\top W_K\, \psi(x_i)\big)",
)
RULE_ROLES = {"w_i": theme.WEIGHT, "q": theme.QUERY}
"""The rules' weights and query in their roles' colours (no other q in them)."""


class FixedVsQueryWeights(LectureScene[FixedVsQueryParameters]):
    """The same data weighted three ways while a query moves: only two of them follow it."""

    n_fresh: ClassVar[int] = 200  # held-out points, drawn with their own seed, that nothing is fitted on
    fresh_seed: ClassVar[int] = 100
    query_path: ClassVar[tuple[float, ...]] = (0.08, 0.92, 0.35)

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.compute()
        self.title_beat()
        self.build_figures()
        with self.beat(
            "mean",
            f"Were {self.x.size} noisy points a constant plus independent Gaussian noise "
            "of known spread, "
            "their mean, a sufficient statistic, would keep all they say about it.",
            shows="The dots appear; heading: Mean, fixed weights; copies fly into the mean.",
        ):
            self.present(0)
            self.when_said("noisy points", self.dots_in_turn(0), run_time=2.0)
            tick = self.mean_mark()
            self.when_said("their mean", FadeIn(tick, shift=0.3 * RIGHT), run_time=1.0)
            self.when_said("keep all", self.summarised(tick), run_time=2.5)
        with self.beat(
            "mean-flat",
            "The mean weighs each of the N points the same, one over N, so it predicts a flat line.",
            shows=self.mean_line_description(),
        ):
            self.when_said("the same", self.dots_in_turn(0, scale=1.0), run_time=1.5)
            self.when_said("one over N", Circumscribe(self.words[0][0][1], color=theme.WEIGHT), run_time=1.2)
            self.predict(0)
        with self.beat(
            "kernel",
            "Kernel regression weighs each point by its similarity to the query, the input we predict at: "
            "here a Gaussian of their distance.",
            shows=f"{self.curve_phrase(1).capitalize()}.",
        ):
            self.present(1)
            self.when_said("a Gaussian", Create(self.kernel_bump()), run_time=1.0)
            self.predict(1)
        with self.beat(
            "attention",
            "Attention does the same with a learned similarity: e to a dot product of learned projections "
            "of the features x, x squared and one.",
            shows=f"{self.curve_phrase(2).capitalize()}.",
        ):
            self.present(2)
            self.predict(2)
        with self.beat(
            "query-arrives",
            "A query, q, arrives in orange. The yellow bars are each method's weights on the points.",
            shows=f"Query at {where(self.query_path[0])}; attention's weight lies "
            f"{self.weight_phrase(2, self.query_path[0])}.",
        ):
            self.show_weights()
        self.move_query()
        self.compare_fits()
        self.pause_and_predict(
            self.question(),
            self.query_moves_right,
            shows=self.answer_description(),
            ends_section=True,
        )

    def compute(self) -> None:
        """The data, the fitted similarity, the best bandwidth and both methods' errors, from attnmath."""
        self.x, self.y = noisy_sine(self.params.n_points, noise=self.params.noise, seed=self.params.seed)
        within = {"low": float(self.x.min()), "high": float(self.x.max())}  # no extrapolation in the error
        self.fresh = noisy_sine(self.n_fresh, noise=self.params.noise, seed=self.fresh_seed, **within)
        self.fit = fit_similarity(self.x, self.y)
        self.bandwidth = best_bandwidth(self.x, self.y, np.geomspace(1e-3, 10, 200))
        self.loo = (float(loo_cv_error(self.x, self.y, [self.bandwidth])[0]), self.fit.loss)
        self.held_out = held_out_errors(self.fit, self.bandwidth, self.x, self.y, *self.fresh)
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
        line = "The line sits at the dots' average"
        if left.size and right.size and (left > level).all() and (right < level).all():
            return f"{line}: left-half dots all above it, right-half all below."
        if left.size and right.size and (left > level).mean() >= 0.75 and (right < level).mean() >= 0.75:
            return f"{line}: most left-half dots above it, most right-half below."
        return f"{line}, with dots above and below it."

    def curve_phrase(self, k: int) -> str:
        """Method ``k``'s prediction in words: flat steps where one point takes nearly all the weight."""
        stepped = float((self.weights(self.grid)[k].max(axis=1) > 0.9).mean()) > 0.5
        return "a staircase follows the dots" if stepped else "a smooth curve follows the dots"

    def weight_phrase(self, k: int, q: float) -> str:
        """Where method ``k`` puts its weight at query ``q``: on the nearest point, or spread."""
        w = self.weights(np.array([q]))[k][0]
        top = int(np.argmax(w))
        nearest = np.argsort(np.abs(self.x - q))
        rank = nearest.tolist().index(top)  # 0: the point nearest the query
        target = ("the nearest point", "the second-nearest point")[rank] if rank < 2 else "one point"
        if w[top] > 0.8:
            return f"almost all on {target}"
        if w[top] > 0.5:
            return f"mostly on {target}"
        return "spread over nearby points" if rank < 2 else "spread over several points"

    def follow_description(self) -> str:
        """How kernel and attention, side by side, spread their weight where the query stops."""
        q = self.query_path[2]
        return f"Kernel's weight: {self.weight_phrase(1, q)}; attention's: {self.weight_phrase(2, q)}."

    def answer_description(self) -> str:
        """The answer's sweep, right and back; the peaks only when they fail to follow, as the voice says."""
        here, there = float(self.q.get_value()), self.query_path[1]
        nearest = [set(np.argsort(np.abs(self.x - q))[:2].tolist()) for q in (here, there)]
        peaks = [np.argmax(self.weights(np.array([here, there]))[k], axis=1) for k in (1, 2)]
        under = all(int(p[j]) in nearest[j] for p in peaks for j in range(2))
        sweep = f"The query sweeps to {where(there)} and back"
        return f"{sweep}." if under else f"{sweep}; the weight peaks do not always follow."

    # --- figures, and the words that go with them where they stand ---------------
    def build_figures(self) -> None:
        """Each method's figure at full size, all hidden for now (see :meth:`build_figure`)."""
        self.axes, self.bar_axes, self.bars, self.figures = [], [], [], []
        for k in range(3):
            axes, bar_axes, bars, figure = self.build_figure(k)
            self.axes.append(axes)
            self.bar_axes.append(bar_axes)
            self.bars.append(bars)
            self.figures.append(figure)
        self.words: list[VGroup] = [VGroup() for _ in range(3)]
        self.place: dict[int, str] = {}
        self.weights_on = False

    def build_figure(self, k: int) -> tuple[Axes, Axes, BarPanel, VGroup]:
        """Method ``k``'s axes, weight axes, bars and figure: a data plot over its weight bars.

        The figure is (plot, weights): plot = (axes, dots, prediction[, query marker]),
        weights = (bar axes, bars), drawn under the plot once a query has arrived.
        """
        axes = quiet_axes((0, 1), Y_RANGE, width=FIG_W, height=PLOT_H)
        axes.x_axis.set_opacity(0.0)  # a line at y = 0 would read as the mean's prediction
        bar_axes = quiet_axes((0, 1), (0, 1), width=FIG_W, height=BARS_H)
        bar_axes.next_to(axes, DOWN, buff=GAP).x_axis.set_opacity(0.0)  # the bars' baseline is the axis
        bars = BarPanel(
            np.zeros(self.x.size),
            width=FIG_W,
            height=BARS_H,
            color=theme.WEIGHT,
            show_index=False,
            positions=self.x,
            fill_ratio=0.6,
        ).move_to(bar_axes)
        prediction = curve(axes, self.grid, self.weights(self.grid)[k] @ self.y, width=4)
        plot = VGroup(axes, scatter(axes, self.x, self.y, radius=0.1), prediction)
        return axes, bar_axes, bars, VGroup(plot, VGroup(bar_axes, bars))

    def words_for(self, k: int, place: str, axes: Axes, bar_axes: Axes) -> VGroup:
        """Figure ``k``'s words around ``axes``: a thumbnail's name, or name, rule and axis titles."""
        if place == "thumb":
            return VGroup(label(NAMES[k], color=theme.MUTED).next_to(axes, UP, buff=0.15))
        heading = label(TITLES[k], size=theme.BODY_SIZE)
        size = 48 if place == "big" else 44  # TeX reads smaller than text at one size
        rule = math(RULES[k], size=size, colors=RULE_ROLES)
        top = VGroup(heading, rule).arrange(
            RIGHT if place == "big" else DOWN, buff=0.5 if place == "big" else 0.2
        )
        top.next_to(axes, UP, buff=0.65)
        if not self.weights_on:
            return VGroup(top, axis_labels(axes, "input x", "output y", x_ticks=(0, 0.5, 1)))
        return VGroup(
            top,
            axis_labels(axes, None, "output y"),
            axis_labels(bar_axes, "input x", "weight w\u1d62", x_ticks=(0, 0.5, 1), y_ticks=(0, 1)),
        )

    def arrange_figures(self, places: dict[int, Place], reveal: bool = False) -> None:
        """Figures to their places: ``places`` maps a figure to ("big" | "pair" | "thumb", (centre, scale)).

        A figure not yet shown fades in there (without its prediction, drawn
        next); a shown figure left out fades out; ``reveal`` brings in the
        weight axes. Words are rebuilt for each place.
        """
        self.weights_on = self.weights_on or reveal
        moving: list[Mobject] = []
        arriving: list[Mobject] = []
        words: dict[int, VGroup] = {}
        for k, (place, (centre, scale)) in places.items():
            moves, arrives = self.aim_figure(k, centre, scale, reveal)
            moving += moves
            arriving += arrives
            plot, weights = self.figures[k]
            axes, bar_axes = (getattr(m, "target", m)[0] if m in moves else m[0] for m in (plot, weights))
            words[k] = self.words_for(k, place, axes, bar_axes)
        leaving = [self.figures[k] for k in self.place if k not in places]
        regroup(
            self,
            moving,
            words_out=self.words,
            leaving=leaving,
            arriving=arriving,
            words_in=list(words.values()),
        )
        for figure in leaving:
            self.remove(*figure.get_family())  # also from the live group it belonged to
        self.words = [words.get(k, VGroup()) for k in range(3)]
        self.place = {k: place for k, (place, _) in places.items()}
        self.places = dict(places)

    def aim_figure(self, k: int, centre: np.ndarray, scale: float, reveal: bool) -> tuple[list, list]:
        """Aim figure ``k`` at its new place: (parts that move there, parts that fade in there).

        Until the weights are shown a plot stands where its whole figure will;
        hidden parts are moved at once.
        """
        plot, weights = self.figures[k]
        if not self.weights_on:
            centre = centre + DOWN * (GAP + BARS_H) * scale / 2
        frame = VGroup(self.bar_axes[k], self.bars[k].box, self.bars[k].baseline)
        if k not in self.place:  # new: placed at once, faded in
            aim([plot, weights], centre, scale / self.scale_of(k), now=[plot, weights])
            return [], [VGroup(*plot[:2])] + ([frame] if self.weights_on else [])
        if reveal:  # the plot moves up, the weight axes fade in under it
            aim([plot, weights], centre, scale / self.scale_of(k), now=[weights])
            return [plot], [frame]
        shown = [plot, weights] if self.weights_on else [plot]
        aim(
            [plot, weights],
            centre,
            scale / self.scale_of(k),
            now=[m for m in (plot, weights) if m not in shown],
        )
        return shown, []

    def scale_of(self, k: int) -> float:
        """How much figure ``k`` is scaled from its full size now."""
        return float(self.axes[k].x_axis.get_length() / FIG_W)

    def present(self, k: int) -> None:
        """Method ``k`` large with its words; the ones before it go to the side."""
        places = {j: ("thumb", THUMBS[j]) for j in range(k)}
        places[k] = ("big", BIG_FIRST if k == 0 else BIG)
        self.arrange_figures(places)

    def dots_in_turn(self, k: int, scale: float = 1.6) -> LaggedStart:
        """Figure ``k``'s dots flash one after another, left to right (``scale`` 1: all alike, none grows)."""
        return in_turn(self.figures[k][0][1], color=theme.TEXT, scale=scale)

    def mean_mark(self) -> Line:
        """A tick at the dots' average on the mean's y-axis; its flat line grows from it."""
        level = self.axes[0].c2p(0.0, float(self.y.mean()))
        tick = Line(level + 0.25 * LEFT, level + 0.25 * RIGHT, color=theme.TEXT, stroke_width=6)
        self.figures[0][0].add(tick)  # it moves with its plot
        return tick

    def kernel_bump(self) -> VMobject:
        """The kernel itself: a Gaussian of the distance to mid-plot, at the fitted bandwidth, on the floor.

        It travels with the kernel's plot and leaves when a real query arrives (:meth:`show_weights`).
        """
        xs = np.linspace(0.0, 1.0, 121)
        lo, hi = Y_RANGE
        ys = lo + 0.3 * (hi - lo) * np.exp(-((xs - 0.5) ** 2) / (2 * self.bandwidth**2))
        self.bump = curve(self.axes[1], xs, ys, color=theme.TEMPERATURE, width=4)
        self.figures[1][0].add(self.bump)  # it moves with its plot
        return self.bump

    def summarised(self, tick: Line) -> LaggedStart:
        """Copies of the dots fly into the mean's ``tick``: the whole sample kept as one number."""
        copies = [d.copy() for d in self.figures[0][0][1]]
        return LaggedStart(*(FadeOut(c, target_position=tick.get_center()) for c in copies), lag_ratio=0.08)

    def predict(self, k: int) -> None:
        """Method ``k``'s prediction drawn left to right, finishing as the words do."""
        self.hold(max(self.speech_left() - 3.0, 0.0))
        self.play(Create(self.figures[k][0][2]), run_time=min(2.5, max(self.speech_left(), 1.5)))
        self.add(self.figures[k][0])

    # --- the query moves ---------------------------------------------------------
    def show_weights(self) -> None:
        """Weight axes under each plot, a query line through both, then the weights on the points."""
        self.q = ValueTracker(self.query_path[0])
        self.arrange_figures(self.places, reveal=True)
        self.markers = [VGroup(DashedLine(UP, DOWN, color=theme.QUERY, stroke_width=4)) for _ in range(3)]
        for k, marker in enumerate(self.markers):
            marker.add(Dot(radius=0.12 * self.scale_of(k), color=theme.QUERY))
        self.q_names = VGroup(*(math("q", color=theme.QUERY) for _ in range(3)))
        self.refresh()
        self.show_names()
        self.figures[1][0].remove(self.bump)  # the mid-plot kernel gives way to the query's own weights
        self.play(Create(VGroup(*self.markers)), FadeIn(self.q_names), FadeOut(self.bump), run_time=1.5)
        for fig, marker in zip(self.figures, self.markers, strict=True):
            fig[0].add(marker)  # from now on it moves and scales with its plot
        self.when_said("yellow bars", *(FadeIn(b.bars) for b in self.bars), run_time=1.5)
        self.live = VGroup()
        self.start_live()

    def refresh(self) -> None:
        """Move the query markers of the figures on screen and redraw their weight bars."""
        q = float(self.q.get_value())
        weights = self.weights(np.array([q]))
        for k in self.place:
            axes, marker = self.axes[k], self.markers[k]
            top = to_scene(axes, q, Y_RANGE[1])[0]
            bottom = to_scene(self.bar_axes[k], q, 0.0)[0]
            marker[0].put_start_and_end_on(bottom, top)
            marker[1].move_to(to_scene(axes, q, float(weights[k][0] @ self.y))[0])
            self.q_names[k].next_to(top, RIGHT, buff=0.12).shift(0.3 * DOWN)
            self.bars[k].set_values(weights[k][0])

    def show_names(self) -> None:
        """Only a large or paired figure names its query: a thumbnail is too small for the letter."""
        for k, name in enumerate(self.q_names):
            name.set_opacity(1.0 if self.place.get(k, "thumb") != "thumb" else 0.0)

    def start_live(self) -> None:
        """Redraw the markers, names and bars of the figures on screen on every frame."""
        self.live = VGroup(*(VGroup(self.markers[k], self.bars[k], self.q_names[k]) for k in self.place))
        self.go_live(self.live, self.refresh)

    def rearrange(self, places: dict[int, Place]) -> None:
        """Move the figures (markers and bars move with them), then follow the query again."""
        self.stop_live(self.live)
        self.q_names.set_opacity(0.0)
        self.arrange_figures(places)
        self.show_names()
        self.start_live()

    def move_query(self) -> None:
        """The mean alone while the query crosses, then kernel and attention side by side on the way back."""
        n = self.x.size
        with self.beat(
            "mean-ignores-q",
            "As the query moves, the mean's weights never change.",
            shows=f"The query sweeps to {where(self.query_path[1])}; all {n} bars stay at 1 over {n}.",
        ):
            self.rearrange({0: ("big", BIG), 1: ("thumb", THUMBS[0]), 2: ("thumb", THUMBS[1])})
            self.sweep_to(self.q, self.query_path[1], min(max(self.speech_left(), 2.0), 7.0))
        with self.beat(
            "weights-follow-q",
            "Kernel and attention weights follow the query: each query point gets its own weighted summary.",
            shows=self.follow_description(),
        ):
            self.rearrange({1: ("pair", PAIR[0]), 2: ("pair", PAIR[1])})
            self.sweep_to(self.q, self.query_path[2], min(max(self.speech_left(), 4.0), 7.0))

    def query_moves_right(self, spoken: Spoken) -> None:
        """The answer: the query crosses to the right and back; both weightings travel with it."""
        here = self.q.get_value()
        self.sweep_to(self.q, self.query_path[1], min(max(spoken.duration - 2.0, 2.5), 4.0))
        self.sweep_to(self.q, here, 2.0)

    # --- a fair comparison: both fitted on the 10 points, judged on fresh ones ------
    def compare_fits(self) -> None:
        """Both similarities are fitted by leave-one-out; only fresh points judge them fairly."""
        (g_loo, a_loo), (g_new, a_new) = (tuple(map(sig2, pair)) for pair in (self.loo, self.held_out))
        with self.beat(
            "fitted",
            f"Both tuned on these {self.x.size} points, each predicted from the rest; the learned "
            f"family, containing every Gaussian, errs less: {a_loo} against {g_loo}.",
            shows=f"Leave-one-out errors on screen: learned {a_loo}, best Gaussian {g_loo}.",
        ):
            self.when_said("each predicted", self.dots_in_turn(1), self.dots_in_turn(2), run_time=1.8)
            rules = [self.words[k][0][1] for k in (1, 2)]  # colour only: grown, they leave the frame
            self.when_said(
                "containing every", *(Indicate(r, color=theme.TEXT, scale_factor=1.0) for r in rules)
            )
            self.until_said("errs less")
            self.show_errors("leave-one-out error: the score both were tuned on", self.loo)
        with self.beat(
            "held-out",
            f"On {self.n_fresh} fresh points from the same range, each predicted from the {self.x.size}, "
            f"the Gaussian's error is {g_new}; the learned similarity's, {a_new}.",
            shows=f"Faint dots, the fresh points, fill both plots around the original {self.x.size}.",
        ):
            self.show_fresh_points()
            self.until_said("each predicted from")
            self.show_errors(f"error on {self.n_fresh} fresh points", self.held_out)
            self.when_said("error is", Circumscribe(self.note[1][0], color=theme.TEXT), run_time=1.2)
            self.when_said("learned", Circumscribe(self.note[1][1], color=theme.TEXT), run_time=1.2)
        with self.beat(
            "overfit",
            self.overfit_narration(),
            shows=SAID,  # attention's curve only flashes as the voice names the learned similarity
        ):
            curve = self.figures[2][0][2]
            if self.held_out[1] < self.held_out[0]:  # it won: its curve is named, with the kernel's rule
                self.play(Indicate(curve, color=theme.TEXT, scale_factor=1.0), run_time=2.0)
                self.when_said(
                    "tuned kernel", Circumscribe(self.words[1][0][1], color=theme.TEXT), run_time=1.5
                )
            else:
                learned = Circumscribe(self.words[2][0][1], color=theme.TEXT)  # its 12 numbers: W_Q and W_K
                self.when_said("numbers tuned", learned, run_time=1.2)
                warned = Indicate(curve, color=theme.WARNING, scale_factor=1.0)
                self.when_said("follows", warned, run_time=2.0)
                rule = Circumscribe(self.words[1][0][1], color=theme.TEXT)
                self.when_said("choosing one", rule, run_time=1.0)
        with self.beat(
            "when-learned-wins",
            "Learned similarity tends to pay off with more data, and where no fixed kernel knows "
            "which inputs are alike.",
            shows=SAID,  # the note that replaces the errors repeats the narration's words
        ):
            self.until_said("more data")
            self.show_errors_note("learned: tends to win with more data")
            self.until_said("fixed kernel")
            self.show_errors_note("or where no fixed kernel knows which inputs are alike")

    def overfit_narration(self) -> str:
        """What the fresh points say, whichever way they came out."""
        n_params = self.fit.w_q.size + self.fit.w_k.size
        if self.held_out[1] < self.held_out[0]:
            return (
                f"Here the learned similarity, with {n_params} numbers tuned on {self.x.size} points, "
                "also predicts fresh points better than the tuned kernel."
            )
        return (
            f"With {n_params} numbers tuned on {self.x.size} points, not the Gaussian's one, attention "
            "follows their noise: learning a similarity takes more data than choosing one."
        )

    def show_errors_note(self, text: str) -> None:
        """A one-line note in the errors' place; it replaces the line before."""
        line = label(text, color=theme.TEXT).set_y(theme.SAFE_BOTTOM + 0.22)
        note = VGroup(fit_width(line, theme.SAFE_RIGHT - theme.SAFE_LEFT))
        self.play(FadeOut(getattr(self, "note")), FadeIn(note), run_time=1.0)  # noqa: B009 - set by show_errors
        self.note = note

    def show_errors(self, heading: str, errors: tuple[float, float]) -> None:
        """One line of errors under the two figures, with its heading; it replaces the line before."""
        header = label(heading, color=theme.MUTED)
        values = VGroup(
            label(f"best Gaussian {sig2(errors[0])}").set_x(self.axes[1].get_center()[0]),
            label(f"learned {sig2(errors[1])}").set_x(self.axes[2].get_center()[0]),
        ).set_y(theme.SAFE_BOTTOM + 0.22)
        note = VGroup(header.next_to(values, UP, buff=0.1).set_x(0), values)
        old: VGroup | None = getattr(self, "note", None)
        if old is not None:
            self.play(FadeOut(old), run_time=0.5)
        self.play(FadeIn(note), run_time=1.0)
        self.note = note

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
        lagged = (LaggedStart(*(FadeIn(d) for d in c), lag_ratio=0.02) for c in clouds)
        self.when_said("fresh points", *lagged, run_time=2.5)


def where(q: float) -> str:
    """Where on the input axis, 0 to 1, the query stands, in words."""
    if q < 0.2:
        return "the far left"
    if q < 0.45:
        return "left of centre"
    if q <= 0.55:
        return "the centre"
    if q <= 0.8:
        return "right of centre"
    return "the far right"


def sig2(value: float) -> str:
    """``value`` to two significant figures, as the narration says it and the screen shows it."""
    return f"{value:.2g}"
