"""Section 4: kernel variants — how retrieval weight falls off with similarity and with position.

Render with ``manim -qh scenes/s4_kernel_variants.py KernelVariants``.
"""

from __future__ import annotations

import json
from pathlib import Path
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
    Indicate,
    Mobject,
    Rectangle,
    Transform,
    ValueTracker,
    VGroup,
)

from attnmath import (
    VARIANTS,
    alibi_bias,
    content_profiles,
    softmax,
    stylized_t5_bucket_values,
    t5_bias,
    weight_profiles,
)
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.plots import curve, quiet_axes, redraw_curve, to_scene
from scenes.kit.widgets import BarPanel, LogSlider, Readout, fit_width, label, math

__all__ = ["KernelVariants"]

COST_DATA = Path(__file__).resolve().parent / "data" / "attention_cost.json"
COLUMN_XS = (-3.9, -1.55, 0.8, 3.15, 5.5)
PLOT_W, PLOT_H = 1.9, 1.2
CONTENT_Y, POSITION_Y = 1.15, -0.85
ROLE_TEX = {"r_i": theme.PRIOR, "s_i": theme.SCORE, "a_i": theme.WEIGHT, "b_i": theme.PRIOR}


def peak_scaled(w: np.ndarray) -> np.ndarray:
    """Weights divided by their largest entry (each profile drawn at the same height)."""
    return w / float(np.max(w))


class KernelVariants(LectureScene):
    """Five kernels, two coordinate systems, one temperature slider; then cost and priors."""

    section = "Section 4"
    title = "Kernel variants"

    tau_range: ClassVar[tuple[float, float]] = (0.05, 5.0)
    tau_path: ClassVar[tuple[float, ...]] = (5.0, 0.05, 0.5)
    prior_tau: ClassVar[float] = 1.0
    n_prior_keys: ClassVar[int] = 16
    seed: ClassVar[int] = 4

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        with self.beat("title", "Section four. Kernel variants."):
            self.title_card()
        self.build_profiles()
        with self.beat(
            "content-row",
            "Five kernels, one per column. The top row plots a query's weight on a key "
            "against how similar their contents are.",
        ) as spoken:
            self.fade_in(self.content_part)
            self.until_said(spoken, "The top row")
            self.play(*(Create(c) for c in self.content_curves), run_time=1.5)
        with self.beat(
            "position-row",
            f"The bottom row plots it against position, from {self.n_positions - 1} tokens back "
            "to the query.",
        ):
            self.fade_in(self.position_part)
        self.sweep_temperature()
        self.show_linear_rearrangement()
        self.show_cost()
        self.show_position_prior()

    # --- profiles -------------------------------------------------------------
    def build_profiles(self) -> None:
        """A grid: one column per kernel, content profile above, position profile below."""
        self.tau = ValueTracker(np.log10(self.tau_path[0]))
        profiles = weight_profiles(10 ** self.tau.get_value())
        self.n_positions = len(profiles.position[VARIANTS[0]])
        self.content_axes, self.content_curves = [], []
        content, position = VGroup(), VGroup()
        for x, name in zip(COLUMN_XS, VARIANTS, strict=True):
            content.add(fit_width(label(name, size=theme.SMALL_SIZE), 2.2).move_to([x, 2.3, 0]))
            axes = quiet_axes((-1, 1), (0, 1.05), width=PLOT_W, height=PLOT_H).move_to([x, CONTENT_Y, 0])
            axes.y_axis.set_opacity(0.0)
            self.content_axes.append(axes)
            self.content_curves.append(
                curve(axes, profiles.similarity, peak_scaled(profiles.content[name]), color=theme.WEIGHT)
            )
            bars = BarPanel(
                peak_scaled(profiles.position[name]),
                width=PLOT_W,
                height=PLOT_H,
                color=theme.WEIGHT,
                show_index=False,
                fill_ratio=0.8,
                y_range=(0.0, 1.05),
            ).move_to([x, POSITION_Y, 0])
            content.add(axes)
            position.add(bars)
        content.add(*self.row_labels(CONTENT_Y, "content", ("-1", "+1")))
        position.add(*self.row_labels(POSITION_Y, "position", (f"-{self.n_positions - 1}", "0")))
        heading = label(
            "weight one query puts on each key (each curve scaled to its peak)",
            size=theme.SMALL_SIZE,
            color=theme.MUTED,
        ).move_to(3.2 * UP)
        self.content_part, self.position_part = VGroup(heading, content), position
        self.slider = LogSlider(*self.tau_range, length=5.0).move_to([-0.9, -2.45, 0])
        self.readout = Readout(r"\tau =", 1.0, decimals=2, widest=self.tau_range[1], color=theme.TEMPERATURE)
        self.readout.next_to(self.slider, RIGHT, buff=0.8)
        self.live = VGroup(*self.content_curves, self.slider, self.readout)
        self.refresh()
        self.grid = VGroup(self.content_part, self.position_part, self.live)

    def row_labels(self, y: float, name: str, ends: tuple[str, str]) -> list[Mobject]:
        """A row's caption left of the grid, and its axis ends under the first column."""
        x0 = COLUMN_XS[0]
        rows: list[Mobject] = [label(name, size=theme.SMALL_SIZE).move_to([-5.85, y, 0])]
        for end, dx in zip(ends, (-PLOT_W / 2, PLOT_W / 2), strict=True):
            tick = label(end, size=theme.SMALL_SIZE, color=theme.MUTED)
            rows.append(tick.move_to([x0 + dx, y - PLOT_H / 2 - 0.22, 0]))
        return rows

    def refresh(self) -> None:
        """Redraw the content curves, the slider and the readout at the current tau."""
        tau = float(10 ** self.tau.get_value())
        similarity, content = content_profiles(tau)  # position profiles do not move with tau
        for axes, line, name in zip(self.content_axes, self.content_curves, VARIANTS, strict=True):
            redraw_curve(line, axes, similarity, peak_scaled(content[name]))
        self.slider.set_value(tau)
        self.readout.set_value(tau)

    def paced_sweep(self, target: float) -> None:
        """Move the slider to ``target`` over most of the narration still to come (5 to 9 seconds)."""
        seconds = min(max(self.speech_left() - 0.5, 5.0), 9.0)
        self.sweep_to(self.tau, np.log10(target), seconds)

    def sweep_temperature(self) -> None:
        """Move the slider: content profiles sharpen and flatten; position priors stay put."""
        cold, warm = self.tau_path[1:]
        with self.beat(
            "sharpen",
            "Lower the temperature and every softmax kernel sharpens onto the closest keys. "
            "Linear attention's stays broad.",
        ):
            self.fade_in(self.slider, self.readout, run_time=1.0)
            self.go_live(self.live, self.refresh)
            self.paced_sweep(cold)
        with self.beat(
            "positions-fixed",
            "The position rows never move: a window, ALiBi's decay and T5's buckets are "
            "fixed priors, added after the temperature scaling.",
        ):
            self.paced_sweep(warm)
        self.stop_live(self.live)

    # --- linear attention -------------------------------------------------------
    def matrix(self, rows: float, cols: float, text: str, color: str) -> VGroup:
        """A rectangle of the given size with its shape written inside or beneath."""
        box = Rectangle(width=cols, height=rows, color=color, fill_opacity=0.25, stroke_width=2)
        tag = math(text, size=theme.SMALL_SIZE + 4)
        if tag.width > cols - 0.1 or tag.height > rows - 0.1:
            tag.next_to(box, DOWN, buff=0.1)
        else:
            tag.move_to(box)
        return VGroup(box, tag)

    def show_linear_rearrangement(self) -> None:
        """(N x N) weights against a (d x d) pre-aggregated summary."""
        big, small = 1.7, 0.5

        def sym(tex: str) -> Mobject:
            return math(tex, size=theme.MATH_SIZE)

        softmax_row = (
            VGroup(
                label("softmax", size=theme.LABEL_SIZE),
                self.matrix(big, small, r"Q", theme.QUERY),
                sym(r"\cdot"),
                self.matrix(small, big, r"K^\top", theme.KEY),
                sym(r"\to"),
                self.matrix(big, big, r"N \times N", theme.WEIGHT),
                sym(r"\cdot"),
                self.matrix(big, small, r"V", theme.VALUE),
            )
            .arrange(RIGHT, buff=0.25)
            .move_to([0, 1.4, 0])
        )
        linear_row = (
            VGroup(
                label("linear", size=theme.LABEL_SIZE),
                self.matrix(small, big, r"\phi(K)^\top", theme.KEY),
                sym(r"\cdot"),
                self.matrix(big, small, r"V", theme.VALUE),
                sym(r"\to"),
                self.matrix(small, small, r"S", theme.VALUE),
                sym(r";\;"),
                self.matrix(big, small, r"\phi(Q)", theme.QUERY),
                sym(r"\cdot"),
                self.matrix(small, small, r"S", theme.VALUE),
            )
            .arrange(RIGHT, buff=0.25)
            .move_to([0, -0.95, 0])
        )
        for row in (softmax_row, linear_row):
            fit_width(row, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        identity = math(
            r"\sum_i \phi(q)^\top \phi(k_i)\, v_i^\top = \phi(q)^\top \Big(\sum_i \phi(k_i)\, v_i^\top\Big)",
            size=theme.READOUT_SIZE,
        ).move_to(3.0 * UP)
        note = label("S is d x d: computed once, whatever N is", size=theme.SMALL_SIZE, color=theme.MUTED)
        note.move_to(2.55 * DOWN)
        with self.beat(
            "linear-regrouping",
            "Softmax attention builds all N by N weights. Linear attention swaps the exponential "
            "for a feature map, phi, so the sum can be regrouped.",
        ) as spoken:
            self.play(FadeOut(self.grid), run_time=0.8)
            self.fade_in(softmax_row)
            self.until_said(spoken, "Linear attention")
            self.fade_in(identity)
        with self.beat(
            "linear-summary",
            "Keys and values are summed once into a small d by d summary, S. "
            "Then each query costs O of d squared; the sequence, O of N.",
        ) as spoken:
            self.fade_in(linear_row)
            self.until_said(spoken, "Then each query")
            self.fade_in(note)
        self.leaving = VGroup(identity, softmax_row, linear_row, note)

    def show_cost(self) -> None:
        """Measured wall time against N, log-log, with the fitted exponents: softmax first, then linear."""
        data = json.loads(COST_DATA.read_text())
        frame, soft, lin = self.cost_plot(data)
        speedup = data["softmax_seconds"][-1] / data["linear_seconds"][-1]
        with self.beat(
            "cost-softmax",
            f"Measured: softmax attention's time grows like N to the {data['softmax_exponent']:.1f}.",
        ):
            self.play(FadeOut(self.leaving), run_time=0.8)
            self.play(Create(frame[0]), FadeIn(frame[1:]), run_time=1.0)
            self.play(Create(soft[0]), FadeIn(soft[1]), run_time=2.0)
        with self.beat(
            "cost-linear",
            f"Linear attention's grows like N to the {data['linear_exponent']:.1f}; "
            f"at {data['n'][-1]:,} tokens it was {speedup:.0f} times faster.",
        ) as spoken:
            self.play(Create(lin[0]), FadeIn(lin[1]), run_time=2.5)
            self.until_said(spoken, "tokens it was")
            self.play(Indicate(soft[1], color=theme.WEIGHT), Indicate(lin[1], color=theme.KEY), run_time=1.5)
        self.leaving = VGroup(frame, soft, lin)

    def cost_plot(self, data: dict) -> tuple[VGroup, VGroup, VGroup]:
        """(axes with ticks, titles and source; softmax line and tag; linear line and tag), log-log."""
        n = np.log10(np.array(data["n"], dtype=float))
        soft = np.log10(np.array(data["softmax_seconds"]))
        lin = np.log10(np.array(data["linear_seconds"]))
        lo, hi = float(np.floor(min(soft.min(), lin.min()))), float(np.ceil(max(soft.max(), lin.max())))
        # Data are plotted relative to (1, lo) so that both axes sit at the plot's lower-left corner.
        n, soft, lin = n - 1.0, soft - lo, lin - lo
        axes = quiet_axes((0.0, 3.5), (0.0, hi - lo), width=7.5, height=4.0).move_to([-0.8, 0.3, 0])
        ticks = VGroup(
            *(
                label(f"{10**e:,}", size=theme.SMALL_SIZE, color=theme.MUTED).move_to(
                    to_scene(axes, e - 1.0, 0.0)[0] + 0.3 * DOWN
                )
                for e in (1, 2, 3, 4)
            ),
            *(
                label(text, size=theme.SMALL_SIZE, color=theme.MUTED).next_to(
                    to_scene(axes, 0.0, e - lo)[0], LEFT
                )
                for e, text in ((-3.0, "1 ms"), (0.0, "1 s"))
                if lo <= e <= hi
            ),
        )
        x_title = label("sequence length N", size=theme.SMALL_SIZE).next_to(ticks, DOWN, buff=0.1)
        source = label(
            f"measured with attnmath by make bench, d = {data['d']}", size=theme.SMALL_SIZE, color=theme.MUTED
        ).move_to(3.2 * UP)
        lines = []
        for ys, name, color in ((soft, "softmax", theme.WEIGHT), (lin, "linear", theme.KEY)):
            line = curve(axes, n, ys, color=color, width=4)
            tag = math(
                rf"\text{{{name}: }} N^{{{data[name + '_exponent']:.2f}}}",
                size=theme.READOUT_SIZE,
                color=color,
            ).next_to(to_scene(axes, n[-1], ys[-1])[0], RIGHT, buff=0.2)
            lines.append(VGroup(line, tag))
        return VGroup(axes, ticks, x_title, source), lines[0], lines[1]

    # --- position bias as a prior -------------------------------------------------
    def prior_rows(self, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Normalised prior exp(b) and the resulting weights softmax(s / tau, prior)."""
        return softmax(bias), softmax(self.scores, self.prior_tau, prior=np.exp(bias))

    def show_position_prior(self) -> None:
        """Content weights x position prior = attention weights, for ALiBi then T5."""
        n = self.n_prior_keys
        self.scores = np.random.default_rng(self.seed).normal(size=n)
        alibi = alibi_bias(n, 0.25)[-1]
        t5 = t5_bias(n, stylized_t5_bucket_values(bidirectional=False), bidirectional=False)[-1]
        panels = self.prior_panels(alibi, t5)
        name = label("ALiBi prior (slope 0.25)", size=theme.LABEL_SIZE, color=theme.TEXT).move_to(3.0 * UP)
        equation = math(
            r"a_i \propto r_i\, e^{s_i/\tau} \;\text{ maximises }\; ",
            r"\mathbb{E}_a[s] - \tau\,\mathrm{KL}(a \,\|\, r)",
            colors=ROLE_TEX,
            size=theme.READOUT_SIZE,
        ).move_to(2.25 * UP)
        with self.beat(
            "alibi-prior",
            "Position biases are priors too. ALiBi's bias falls with distance; added to the scores, "
            "it multiplies the kernel by a prior, r equals e to the b.",
        ) as spoken:
            self.play(FadeOut(self.leaving), run_time=0.8)
            self.fade_in(name, panels[2])
            self.until_said(spoken, "it multiplies")
            self.fade_in(*panels[:2], *panels[3:])
        with self.beat(
            "kl-form",
            "That is section three's K L regularised rule: "
            "weights proportional to r times e to the s over tau.",
        ):
            self.fade_in(equation)
        with self.beat(
            "t5-prior", "T5 learns one bias per distance bucket: a different prior, the same mechanism."
        ):
            self.swap_prior(name, panels, t5)

    def prior_panels(self, bias: np.ndarray, later: np.ndarray) -> VGroup:
        """Content weights x prior exp(bias) = weights, on a scale that also fits ``later``'s prior."""
        content = softmax(self.scores, self.prior_tau)
        prior, result = self.prior_rows(bias)
        top = 1.1 * float(max(content.max(), result.max(), prior.max(), self.prior_rows(later)[0].max()))

        def panel(values: np.ndarray, color: str, tex: str) -> BarPanel:
            title = math(tex, colors=ROLE_TEX, size=theme.READOUT_SIZE)
            return BarPanel(
                values, width=3.4, height=2.2, color=color, title=title, show_index=False, y_range=(0.0, top)
            )

        return (
            VGroup(
                panel(content, theme.WEIGHT, r"e^{s_i/\tau}"),
                math(r"\times", size=theme.MATH_SIZE),
                panel(prior, theme.PRIOR, r"r_i = e^{b_i}"),
                math(r"\propto", size=theme.MATH_SIZE),
                panel(result, theme.WEIGHT, r"a_i \propto r_i\, e^{s_i/\tau}"),
            )
            .arrange(RIGHT, buff=0.35)
            .move_to(0.2 * DOWN)
        )

    def swap_prior(self, name: Mobject, panels: VGroup, bias: np.ndarray) -> None:
        """Replace the ALiBi prior and its weights by T5's (stylised bucket values)."""
        prior_t5, result_t5 = self.prior_rows(bias)
        name_t5 = label("T5 bias prior (stylised bucket values)", size=theme.LABEL_SIZE).move_to(name)
        new_prior = panels[2].copy().set_values(prior_t5)
        new_result = panels[4].copy().set_values(result_t5)
        self.play(
            Transform(name, name_t5),
            Transform(panels[2], new_prior),
            Transform(panels[4], new_result),
            run_time=1.5,
        )
