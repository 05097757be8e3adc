"""Section 1, the figures: each method's data plot over its weight bars, and where each stands.

Each method is one figure (data, prediction, weight bars) built once at full
size. The beat's method is shown large with its words (name, rule, axis
titles); the others wait as small unlabelled thumbnails at the side, and the
comparison beats show two methods side by side. Moving a figure scales it;
its words are rebuilt at full size for the new place, never scaled. Mixed
into section 1's scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Axes,
    Create,
    DashedVMobject,
    FadeOut,
    LaggedStart,
    Line,
    Mobject,
    VGroup,
    VMobject,
)

from drawing import theme
from drawing.plots import axis_labels, band, curve, quiet_axes, scatter
from drawing.pointing import in_turn
from drawing.stage import aim, regroup
from drawing.widgets import BarPanel, label, math
from lecture.sections.s1_fixed_vs_query import FixedVsQueryParameters
from scenes.base import Mixin

__all__ = ["MethodFigures", "BIG", "PAIR", "THUMBS", "Y_RANGE", "Place"]

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


class MethodFigures(Mixin[FixedVsQueryParameters]):
    """Mixin for section 1's scene: the three methods' figures, their places and their words."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        x: np.ndarray
        y: np.ndarray
        grid: np.ndarray
        bandwidth: float

        def weights(self, queries: np.ndarray) -> list[np.ndarray]:
            """(Q, N) weights of the mean, kernel regression and attention at ``queries``."""
            ...

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

    def arrange_figures(self, places: dict[int, Place], reveal: bool = False, run_time: float = 1.2) -> None:
        """Figures to their places: ``places`` maps a figure to ("big" | "pair" | "thumb", (centre, scale)).

        A figure not yet shown fades in there (without its prediction, drawn
        next); a shown figure left out fades out; ``reveal`` brings in the
        weight axes. Words are rebuilt for each place; the move takes ``run_time`` seconds.
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
            run_time=run_time,
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

    def mean_weights(self) -> tuple[VGroup, Mobject]:
        """The mean's weights before any query: one equal bar on the floor under each dot, and their value.

        Drawn on the big plot; :meth:`keep_with_words` makes them leave with its words when it moves aside.
        """
        axes, floor = self.axes[0], Y_RANGE[0] + 0.2  # clear of the x-axis's tick marks
        height = 0.3 * float(axes.y_axis.get_unit_size())
        bars = VGroup(
            *(
                Line(
                    axes.c2p(x, floor), axes.c2p(x, floor) + height * UP, color=theme.WEIGHT, stroke_width=10
                )
                for x in self.x
            )
        )
        value = label(f"each 1/{self.x.size}", color=theme.WEIGHT).next_to(bars, RIGHT, buff=0.35)
        value.align_to(bars, DOWN).shift(0.25 * UP)  # its foot clear of the x-axis's tick marks
        return bars, value

    def keep_with_words(self, k: int, *mobs: Mobject) -> None:
        """``mobs``, drawn on figure ``k`` where it stands, leave with its words when it moves."""
        self.rejoin(*mobs)  # drawn from now on with the words
        self.words[k].add(*mobs)

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

    def constant_and_noise(self) -> tuple[VMobject, VGroup]:
        """The model the mean is sufficient for, drawn: a constant and each dot's noise.

        The constant is dashed at the dots' average; each dot's noise is a segment from it to the dot.
        Both travel with the mean's plot, behind its dots, until :meth:`unpin` lets them fade alone.
        """
        axes, level = self.axes[0], float(self.y.mean())
        lo, hi = float(self.x.min()), float(self.x.max())
        constant = DashedVMobject(
            Line(axes.c2p(lo, level), axes.c2p(hi, level), color=theme.MUTED, stroke_width=4), num_dashes=30
        )
        noise = VGroup(
            *(
                Line(axes.c2p(x, level), axes.c2p(x, y), color=theme.MUTED, stroke_width=5)
                for x, y in zip(self.x, self.y, strict=True)
            )
        )
        constant.set_z_index(-1)
        noise.set_z_index(-1)
        self.figures[0][0].add(constant, noise)
        return constant, noise

    def noise_spread(self) -> VMobject:
        """The noise's spread, drawn: a band one standard deviation of the dots either side of the constant.

        Pinned to the mean's plot behind its dots, as the noise is.
        """
        axes, level, spread = self.axes[0], float(self.y.mean()), float(self.y.std())
        xs = np.array([self.x.min(), self.x.max()])
        region = band(
            axes, xs, np.full(2, level - spread), np.full(2, level + spread), color=theme.MUTED, opacity=0.3
        )
        self.figures[0][0].add(region.set_z_index(-2))
        return region

    def unpin(self, k: int, *mobs: Mobject) -> None:
        """Take ``mobs`` out of figure ``k``'s plot, still drawn, so that they can fade on their own."""
        self.figures[k][0].remove(*mobs)
        self.add(*mobs)

    def summarised(self, tick: Line) -> LaggedStart:
        """Copies of the dots fly into the mean's ``tick``: the whole sample kept as one number."""
        copies = [d.copy() for d in self.figures[0][0][1]]
        return LaggedStart(*(FadeOut(c, target_position=tick.get_center()) for c in copies), lag_ratio=0.08)

    def predict(self, k: int, at: str | None = None) -> None:
        """Method ``k``'s prediction drawn left to right, finishing as the words do (or from ``at``)."""
        if at is None:
            self.hold(max(self.speech_left() - 3.0, 0.0))
        else:
            self.until_said(at)
        self.play(Create(self.figures[k][0][2]), run_time=min(2.5, max(self.speech_left(), 1.5)))
        self.add(self.figures[k][0])
