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
    DR,
    LEFT,
    RIGHT,
    UL,
    UP,
    Arrow,
    Axes,
    Brace,
    Circumscribe,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromCenter,
    Indicate,
    LaggedStart,
    Line,
    Mobject,
    MoveAlongPath,
    Polygon,
    Transform,
    ValueTracker,
    VGroup,
    linear,
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
from drawing import theme
from drawing.blocks import matrix_block
from drawing.plots import axis_labels, curve, quiet_axes, redraw_curve, to_scene
from drawing.widgets import BarPanel, LogSlider, Readout, label, math
from lecture.sections.s4_kernel_variants import KernelVariantsParameters
from narration.narrator import Spoken
from scenes.base import SAID, LectureScene

__all__ = ["KernelVariants"]

COST_DATA = Path(__file__).resolve().parent / "data" / "attention_cost.json"
PANEL_W, PANEL_H = 5.2, 2.8
CONTENT_X, POSITION_X, PANELS_Y, LEGEND_Y = -3.45, 3.35, 0.6, 3.25
ROLE_TEX = {"r_i": theme.PRIOR, "s_i": theme.SCORE, "a_i": theme.WEIGHT, "b_i": theme.PRIOR}
LINEAR_ROLES = {"q": theme.QUERY, "k_i": theme.KEY, "v_i": theme.VALUE}
SOFTMAX, LINEAR = VARIANTS[0], VARIANTS[1]  # every softmax kernel has the dot-product's content profile
POSITION_STEPS = (  # (name shown, profile drawn), in the order the narration names them
    ("dot-product, linear", SOFTMAX),
    ("local window", "local window"),
    ("ALiBi", "ALiBi"),
    ("T5 bias (stylised)", "T5 bias"),
)
CELL_NAMES = {SOFTMAX: "no bias", "local window": "window", "ALiBi": "ALiBi", "T5 bias": "T5 (stylised)"}
"""Each profile's name in the side-by-side grid: short, to fit a cell."""
POSITION_TICKS = (30, 20, 10, 0)  # tokens back, labelled on the position panel's x-axis
DECADES = {-4: "0.1 ms", -2: "10 ms", 0: "1 s", 2: "100 s"}  # every other decade: ticks that read at 30


def peak_scaled(w: np.ndarray) -> np.ndarray:
    """Weights divided by their largest entry (each profile drawn at the same height)."""
    return w / float(np.max(w))


def swatch(text: str, color: str) -> VGroup:
    """A legend entry: a short line in the curve's colour and its name."""
    line = Line(0.25 * LEFT, 0.25 * RIGHT, color=color, stroke_width=6)
    return VGroup(line, label(text, color=color)).arrange(RIGHT, buff=0.15)


def corner_axes(x_span: float, y_top: float, x: float, y: float) -> Axes:
    """Quiet axes over [0, x_span] x [0, y_top], centred at (x, y): both axes meet at the lower-left corner.

    Manim draws the y-axis at x = 0, so data with negative x are shifted onto [0, x_span] by the caller.
    """
    return quiet_axes((0.0, x_span), (0.0, y_top), width=PANEL_W, height=PANEL_H).move_to([x, y, 0])


def window_band(box: Mobject, share: float) -> Polygon:
    """The entries a window of ``share`` of the keys keeps in an N x N block: a band left of the diagonal.

    Rows are queries (top first), columns keys (left first); query row v keeps keys from v - share to v.
    """
    (left, top), (right, bottom) = box.get_corner(UL)[:2], box.get_corner(DR)[:2]

    def at(u: float, v: float) -> np.ndarray:
        return np.array([left + u * (right - left), top + v * (bottom - top), 0.0])

    band = Polygon(at(0, 0), at(1, 1), at(1 - share, 1), at(0, share))
    band.set_stroke(theme.WEIGHT, width=2).set_fill(theme.WEIGHT, opacity=0.45)
    return band.set_z_index(-1)  # under the block's name


class KernelVariants(LectureScene[KernelVariantsParameters]):
    """Five kernels seen by content and by position, one temperature slider; then cost and priors."""

    prior_tau: ClassVar[float] = 1.0
    n_prior_keys: ClassVar[int] = 16

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.title_beat()
        self.build_profiles()
        with self.beat(
            "content-row",
            "First, content: a query's weight on a key, both of unit length, "
            "against their cosine similarity.",
            shows=self.content_description(),
        ):
            self.fade_in(self.content_frame, self.slider, self.readout)  # the curve's temperature
            self.play(Create(self.content_curves[0]), FadeIn(self.legend[0]), run_time=1.5)
            self.trace(self.content_curves[0], "against their cosine")
        with self.beat(
            "content-linear",
            "Every softmax variant ahead shares this curve. Linear attention "
            "swaps the exponential for phi of q dot phi of k, phi a feature map: broader.",
            shows=self.linear_description(),
        ):
            self.trace(self.content_curves[0], "shares this curve")  # the dot runs along it once more
            self.until_said("Linear attention")
            self.play(Create(self.content_curves[1]), FadeIn(self.legend[1]), run_time=1.5)
        with self.beat(
            "position-row",
            f"Then position: equal content, up to {self.n_positions - 1} tokens back. Dot-product and "
            "linear attention, with no position in q or k, weigh all alike.",
            shows=SAID,
        ):
            self.fade_in(self.position_frame, self.position_name)
            arrow = self.look_back()
            self.when_said("tokens back", GrowArrow(arrow), run_time=2.0)
            self.when_said(
                "weigh all alike", Circumscribe(self.position_bars, color=theme.WEIGHT), run_time=1.5
            )
            self.hold(self.speech_left() - 0.4)
            self.play(FadeOut(arrow), run_time=0.4)  # it would lie across the profiles to come
        with self.beat(
            "position-priors",
            "A local window keeps only the last few keys; ALiBi subtracts a penalty linear in distance.",
            shows=self.priors_description(),
        ):
            self.step_positions(POSITION_STEPS[1:3], ("window", "ALiBi"))
        with self.beat(
            "position-t5",
            "T5 learns one bias per nearby distance, one per range farther out; "
            "the profile drawn is stylised.",
            shows=self.t5_description(),
        ):
            self.step_positions(POSITION_STEPS[3:], ("T5",))
            self.until_said("profile drawn")
            self.side_by_side()
        self.sweep_temperature()
        self.show_linear_rearrangement()
        self.show_cost()
        self.show_position_prior()
        self.pause_and_predict(
            self.question(),
            self.flatten_prior,
            shows="The prior flattens; the weights take the content bars' exact shape; "
            "then T5's prior returns.",
            ends_section=True,
        )

    # --- profiles -------------------------------------------------------------
    def build_profiles(self) -> None:
        """Two large panels side by side: weight against content similarity, and against position."""
        self.tau = ValueTracker(np.log10(self.params.tau_path[0]))
        self.profiles = weight_profiles(10 ** self.tau.get_value())
        self.n_positions = len(self.profiles.offsets)
        # x is the cosine plus one: the axes meet at cos = -1.
        self.content_axes = corner_axes(2.0, 1.05, CONTENT_X, PANELS_Y)
        content_titles = VGroup(
            axis_labels(
                self.content_axes,
                "similarity to query, cos θ",
                x_ticks=(0.0, 1.0, 2.0),
                tick_text=lambda v: f"{v - 1:g}",
            ),
            axis_labels(self.content_axes, None, "weight ÷ peak", y_ticks=(0, 1)),
        )
        self.content_curves = [
            curve(
                self.content_axes, self.profiles.similarity + 1.0, peak_scaled(self.profiles.content[name])
            ).set_stroke(color, width=5)
            for name, color in ((SOFTMAX, theme.WEIGHT), (LINEAR, theme.TEXT))
        ]
        self.legend = VGroup(swatch("softmax", theme.WEIGHT), swatch("linear", theme.TEXT))
        self.legend.arrange(RIGHT, buff=0.6).move_to([CONTENT_X, LEGEND_Y, 0])
        self.content_frame = VGroup(self.content_axes, content_titles)
        self.position_frame = self.position_panel()
        self.slider = LogSlider(*self.params.tau_range, length=5.0).move_to([-1.2, -2.55, 0])
        self.readout = Readout(
            r"\tau =", 1.0, decimals=2, widest=self.params.tau_range[1], color=theme.TEMPERATURE
        )
        self.readout.next_to(self.slider, RIGHT, buff=0.8)
        self.live = VGroup(*self.content_curves, self.slider, self.readout)
        self.refresh()

    @property
    def grid(self) -> VGroup:
        """The first half's picture, whichever position panel it now holds: both panels, legend, slider."""
        return VGroup(self.content_frame, self.legend, self.position_frame, self.live)

    def position_panel(self) -> VGroup:
        """Axes in tokens back from the query, a stepped area of weights, and the kernel's name above."""
        n = self.n_positions
        # x is the slot from the oldest key: offset + n - 1/2, so the query's own slot is the last.
        axes = corner_axes(float(n), 1.05, POSITION_X, PANELS_Y)
        titles = VGroup(
            axis_labels(
                axes,
                "tokens back from query",
                x_ticks=[n - 0.5 - back for back in POSITION_TICKS],
                tick_text=lambda v: f"{n - 0.5 - v:g}",
            ),
            axis_labels(axes, None, "weight ÷ peak", y_ticks=(0, 1)),
        )
        first_name, first = POSITION_STEPS[0]
        self.position_bars = self.profile_bars(first, PANEL_W, PANEL_H).move_to(
            to_scene(axes, n / 2, 0.525)[0]
        )
        self.position_name = label(first_name).move_to([POSITION_X, LEGEND_Y, 0])
        return VGroup(axes, titles, self.position_bars)

    def look_back(self) -> Arrow:
        """An arrow under the position panel's bars, from the query's own slot back to the oldest key."""
        box = self.position_bars.box
        y = box.get_bottom()[1] + 0.25
        arrow = Arrow([box.get_right()[0] - 0.1, y, 0], [box.get_left()[0] + 0.1, y, 0], buff=0.0)
        return arrow.set_color(theme.QUERY)

    def trace(self, line: Mobject, words: str) -> None:
        """A dot runs along ``line`` as the narration says ``words``: each similarity's weight in turn."""
        dot = Dot(line.get_start(), radius=0.1, color=line.get_stroke_color())
        self.when_said(words, FadeIn(dot), run_time=0.2)
        self.play(MoveAlongPath(dot, line), run_time=1.8, rate_func=linear)
        self.play(FadeOut(dot), run_time=0.3)

    def step_positions(self, steps: tuple[tuple[str, str], ...], cues: tuple[str, ...]) -> None:
        """Each position kernel's profile in ``steps`` as the narration names it (``cues``)."""
        for (name, key), cue in zip(steps, cues, strict=True):
            self.until_said(cue)
            target = self.position_bars.copy().set_values(peak_scaled(self.profiles.position[key]))
            title = label(name).move_to(self.position_name)
            swap = (FadeOut(self.position_name), FadeIn(title))
            self.play(Transform(self.position_bars, target), *swap, run_time=1.0)
            self.position_name = title

    def side_by_side(self) -> None:
        """The position panel becomes the last of four small panels, one per profile, side by side.

        The big panel's bars shrink into the T5 cell (its text leaves: shrunk, it would not read), and
        the three profiles shown before come back beside it, so all four can be compared at a glance.
        """
        cells = self.profile_cells()
        axes, titles, bars = self.position_frame
        t5_bars = cells[-1][1]
        self.play(
            FadeOut(titles),
            FadeOut(self.position_name),
            FadeOut(axes),
            Transform(bars, t5_bars),
            run_time=1.0,
        )
        self.remove(bars)
        self.add(t5_bars)
        others = [VGroup(title, panel) for title, panel in cells[:-1]]
        self.play(
            FadeIn(cells[-1][0]),
            LaggedStart(*(FadeIn(cell) for cell in others), lag_ratio=0.3),
            FadeIn(self.cells_caption),
            run_time=1.2,
        )
        self.position_frame = VGroup(*(VGroup(*cell) for cell in cells), self.cells_caption)

    def profile_bars(self, key: str, width: float, height: float) -> BarPanel:
        """One position kernel's weights, each divided by the largest, as a stepped area under its outline."""
        panel = BarPanel(
            peak_scaled(self.profiles.position[key]),
            width=width,
            height=height,
            y_range=(0.0, 1.05),
            show_index=False,
            stepped=True,
        )
        panel.bars.set_fill(opacity=0.35)  # a level under its outline, not a solid block
        return panel

    def profile_cells(self) -> list[tuple[Mobject, BarPanel]]:
        """(name, profile) for each position kernel, in a 2 x 2 grid where the big panel stood."""
        cell_w, cell_h, gap = 2.6, 1.45, 0.3
        cells: list[tuple[Mobject, BarPanel]] = []
        for k, (_name, key) in enumerate(POSITION_STEPS):
            row, col = divmod(k, 2)
            panel = self.profile_bars(key, cell_w, cell_h)
            panel.box.set_stroke(theme.MUTED, width=1.5, opacity=0.7)  # each profile in its own frame
            x = POSITION_X + (col - 0.5) * (cell_w + gap)
            y = LEGEND_Y - 0.3 - cell_h / 2 - row * (cell_h + 0.95)  # the lower row's names sit apart
            panel.move_to([x, y, 0])
            title = label(CELL_NAMES[key]).next_to(panel.box, UP, buff=0.1)
            cells.append((title, panel))
        bottom = cells[-1][1].box.get_bottom()[1]
        self.cells_caption = label(
            f"each: {self.n_positions - 1} tokens back \u2192 query", small=True, color=theme.MUTED
        )
        self.cells_caption.move_to([POSITION_X, bottom - 0.3, 0])
        return cells

    def content_description(self) -> str:
        """What the content panel shows as it appears: its axes and the softmax curve."""
        similarity, content = self.profiles.similarity, self.profiles.content
        peak = float(similarity[np.argmax(content[SOFTMAX])])
        return f"The softmax curve rises, ever steeper, to its peak at cosine {peak:g}."

    def linear_description(self) -> str:
        """The linear curve: where it starts and where it peaks (not at cosine 1 when its map bends it)."""
        similarity, content = self.profiles.similarity, self.profiles.content
        linear = peak_scaled(content[LINEAR])
        top = float(similarity[np.argmax(linear)])
        softmax_top = float(similarity[np.argmax(content[SOFTMAX])])
        where = f"topping near cosine {top:.1f}" if top < softmax_top else f"peaking at cosine {top:g} too"
        return f"The linear curve starts at {linear[0]:.1f} of its peak, {where}."

    def priors_description(self) -> str:
        """The window's slots, then ALiBi's decay, as the position panel draws them."""
        kept = int(np.count_nonzero(self.profiles.position[POSITION_STEPS[1][1]]))
        return f"Window: only the {kept} slots nearest the query; ALiBi: smooth decay to near zero."

    def t5_description(self) -> str:
        """T5's stylised profile: its drop one token back, then its long tail."""
        t5 = peak_scaled(self.profiles.position[POSITION_STEPS[3][1]])
        return f"T5: {t5[-2]:.1f} one token back, falling smoothly, flat far out; all four side by side."

    def refresh(self) -> None:
        """Redraw the content curves, the slider and the readout at the current tau."""
        tau = float(10 ** self.tau.get_value())
        similarity, content = content_profiles(tau)  # position profiles do not move with tau
        for line, name in zip(self.content_curves, (SOFTMAX, LINEAR), strict=True):
            redraw_curve(line, self.content_axes, similarity + 1.0, peak_scaled(content[name]))
        self.slider.set_value(tau)
        self.readout.set_value(tau)

    def paced_sweep(self, target: float) -> None:
        """Move the slider to ``target`` over most of the narration still to come (5 to 9 seconds)."""
        seconds = min(max(self.speech_left() - 0.5, 5.0), 9.0)
        self.sweep_to(self.tau, np.log10(target), seconds)

    def sweep_temperature(self) -> None:
        """Move the slider: the content curves sharpen and flatten; the position profile stays put."""
        cold, warm = self.params.tau_path[1:]
        start, low, high = (
            self.readout.text_for(tau) for tau in self.params.tau_path
        )  # as the readout prints them
        with self.beat(
            "sharpen",
            "Lower the temperature: softmax sharpens onto the most similar keys; linear attention stays "
            "broad; the fixed position priors stay put.",
            shows=f"A tau slider falls from {start} to {low}, softmax a spike, then rises to {high}.",
        ):
            self.go_live(self.live, self.refresh)
            self.sweep_to(self.tau, np.log10(cold), 4.0)
            self.until_said("position priors")
            self.sweep_to(self.tau, np.log10(warm), max(2.0, self.speech_left() - 0.3))
        self.stop_live(self.live)

    # --- linear attention -------------------------------------------------------
    def cost_rows(self) -> tuple[VGroup, VGroup]:
        """Softmax: Q K^T is N x N, then times V; linear: phi(K)^T V is d x d, then phi(Q) times it."""
        big, small = 1.7, 0.6
        softmax_row = VGroup(
            label("softmax"),
            matrix_block(small, big, r"Q", theme.QUERY),
            math(r"\cdot"),
            matrix_block(big, small, r"K^\top", theme.KEY),
            math(r"\to"),
            matrix_block(big, big, r"N \times N", theme.WEIGHT),
            math(r"\cdot"),
            matrix_block(small, big, r"V", theme.VALUE),
            math(r"O(N^2)", color=theme.WARNING),
        ).arrange(RIGHT, buff=0.3)
        linear_row = VGroup(
            label("linear"),
            matrix_block(big, 0.8, r"\phi(K)^\top", theme.KEY),
            math(r"\cdot"),
            matrix_block(small, big, r"V", theme.VALUE),
            math(r"\to"),
            matrix_block(small, small, r"S", theme.VALUE),
            math(r";\;"),
            matrix_block(1.1, big, r"\phi(Q)", theme.QUERY),
            math(r"\cdot"),
            matrix_block(small, small, r"S", theme.VALUE),
            math(r"O(N)", color=theme.VALUE),
        ).arrange(RIGHT, buff=0.3)
        for row, y in ((softmax_row, 2.35), (linear_row, -2.1)):
            row.move_to([0, y, 0])
            row[-1].shift(0.3 * RIGHT)
        return softmax_row, linear_row

    def show_linear_rearrangement(self) -> None:
        """(N x N) weights against a (d x d) pre-aggregated summary; the regrouping identity between them."""
        softmax_row, linear_row = self.cost_rows()
        identity = math(
            r"\sum_i",
            r"\phi(q)^\top \phi(k_i)",
            r"\, v_i^\top \;=\; \phi(q)^\top",
            r"\Big(\sum_i \phi(k_i)\, v_i^\top\Big)",
            size=48,
            colors=LINEAR_ROLES,
        ).move_to(0.65 * UP)
        brace = Brace(identity[3], DOWN, buff=0.1, color=theme.VALUE)
        brace_tag = math(
            r"S:\; d \times d,\;\; z = \textstyle\sum_i \phi(k_i)", color=theme.VALUE, colors=LINEAR_ROLES
        )
        brace_tag.next_to(brace, DOWN, buff=0.1)
        with self.beat(
            "linear-quadratic",
            "Softmax attention builds all N by N weights: its cost grows with N squared; "
            "a window of w keys costs N times w.",
            shows="Q K transpose: an N by N square, times V; a diagonal band, the window.",
        ):
            self.play(FadeOut(self.grid), run_time=0.8)
            square = softmax_row[5]
            self.when_said("Softmax attention", FadeIn(VGroup(*softmax_row[:5])), run_time=1.0)
            self.when_said("N by N", GrowFromCenter(square), run_time=1.0)
            self.when_said("N squared", FadeIn(VGroup(*softmax_row[6:])), run_time=1.0)
            band = window_band(square[0], 0.25)
            softmax_row.add(band)
            self.when_said("a window", Create(band), run_time=1.2)
        with self.beat(
            "linear-factor",
            "Linear attention's feature map, phi, factors the kernel into a query part and a key part.",
            shows="An identity pulls phi q out of the sum of phi k i v i.",
        ):
            self.fade_in(identity)
            self.until_said("factors")
            self.play(Circumscribe(identity[1], color=theme.WEIGHT), run_time=1.5)
        with self.beat(
            "linear-summary",
            "Keys and values pre-aggregate into one d by d sum, d the key width, and a normaliser, "
            "the sum of phi of k: linear cost.",
            shows="The sum is S: phi K transpose times V makes it; phi Q multiplies it.",
        ):
            self.play(GrowFromCenter(brace), FadeIn(brace_tag), run_time=1.0)
            self.when_said("d the key width", Indicate(brace_tag, color=theme.TEXT), run_time=1.2)
            self.fade_in(linear_row[:-1])
            self.until_said("linear cost")
            self.fade_in(linear_row[-1])
        self.leaving = VGroup(identity, brace, brace_tag, softmax_row, linear_row)

    # --- measured cost ------------------------------------------------------------
    def show_cost(self) -> None:
        """Measured wall time against N, log-log, with the fitted exponents: softmax first, then linear."""
        data = json.loads(COST_DATA.read_text())
        frame, soft, lin = self.cost_plot(data)
        n_last, speedup = data["n"][-1], data["softmax_seconds"][-1] / data["linear_seconds"][-1]
        faster = VGroup(
            label(f"{speedup:.0f}\u00d7 faster"),
            label(f"at N = {n_last:,},"),
            label("for blunter weights", color=theme.WARNING),
        )
        axes = frame[0]  # the note sits in the plot's empty upper left, clear of both lines
        faster.arrange(DOWN, buff=0.1, aligned_edge=LEFT).next_to(axes.get_corner(UL), DR, buff=0.2)
        with self.beat(
            "cost-softmax",
            "Measured in plain numpy, all N by N weights built, softmax's time grows like N to the "
            f"{data['softmax_exponent']:.1f};",
            shows=f"Log-log time against N, key width {data['d']}: "
            "softmax starts shallow, then climbs steeply.",
        ):
            self.play(FadeOut(self.leaving), run_time=0.8)
            self.play(Create(frame[0]), FadeIn(frame[1:]), run_time=1.0)
            self.play(Create(soft[0]), FadeIn(soft[1]), run_time=2.0)
        with self.beat(
            "cost-linear",
            f"linear attention's like N to the {data['linear_exponent']:.1f}: at about "
            f"{n_last / 1000:.0f} thousand tokens, {speedup:.0f} times faster here, "
            "computing blunter weights.",
            shows="The linear line starts just below, climbs gently; a note warns: blunter weights.",
        ):
            self.play(Create(lin[0]), FadeIn(lin[1]), run_time=2.5)
            self.until_said("at about")
            self.fade_in(faster[:2], run_time=1.0)
            self.when_said("blunter", FadeIn(faster[2], shift=0.2 * UP), run_time=1.0)
        self.leaving = VGroup(frame, soft, lin, faster)

    def cost_plot(self, data: dict) -> tuple[VGroup, VGroup, VGroup]:
        """(axes with ticks, titles and source; softmax line and tag; linear line and tag), log-log."""
        n = np.log10(np.array(data["n"], dtype=float))
        soft = np.log10(np.array(data["softmax_seconds"]))
        lin = np.log10(np.array(data["linear_seconds"]))
        lo, hi = float(np.floor(min(soft.min(), lin.min()))), float(np.ceil(max(soft.max(), lin.max())))
        # Data are plotted relative to (1, lo) so that both axes sit at the plot's lower-left corner.
        n, soft, lin = n - 1.0, soft - lo, lin - lo
        axes = quiet_axes((0.0, 3.5), (0.0, hi - lo), width=7.8, height=4.4).move_to([-1.2, 0.3, 0])
        decades = [e for e in DECADES if lo < e <= hi]
        titles = VGroup(
            axis_labels(
                axes,
                "sequence length N (log scale)",
                x_ticks=(0.0, 1.0, 2.0, 3.0),
                tick_text=lambda v: f"{10 ** (v + 1):,.0f}",
            ),
            axis_labels(
                axes,
                None,
                "time per call (log scale)",
                y_ticks=[e - lo for e in decades],
                tick_text=lambda v: DECADES[round(v + lo)],
            ),
        )
        source = label(f"numpy timings, d = {data['d']}", small=True, color=theme.MUTED)
        source.move_to([theme.SAFE_RIGHT - source.width / 2, titles[1][-1].get_y(), 0])
        lines = []
        for ys, name, color in ((soft, "softmax", theme.WEIGHT), (lin, "linear", theme.TEXT)):
            line = curve(axes, n, ys, color=color, width=5)
            tag = math(rf"\text{{{name}: }} N^{{{data[name + '_exponent']:.1f}}}", color=color).next_to(
                to_scene(axes, n[-1], ys[-1])[0], RIGHT, buff=0.2
            )
            lines.append(VGroup(line, tag))
        return VGroup(axes, titles, source), lines[0], lines[1]

    # --- position bias as a prior -------------------------------------------------
    def prior_rows(self, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Normalised prior exp(b) and the resulting weights softmax(s / tau, prior)."""
        return softmax(bias), softmax(self.scores, self.prior_tau, prior=np.exp(bias))

    def show_position_prior(self) -> None:
        """Content weights x position prior = attention weights, for ALiBi then T5."""
        n = self.n_prior_keys
        self.scores = np.random.default_rng(self.params.seed).normal(size=n)
        alibi = alibi_bias(n, 0.25)[-1]
        t5 = t5_bias(n, stylized_t5_bucket_values(bidirectional=False), bidirectional=False)[-1]
        panels = self.prior_panels(alibi, t5)
        self.prior_row, self.t5 = panels, t5
        x_title = label(f"key position i (the query is i = {n})", color=theme.MUTED).move_to(2.55 * DOWN)
        name = label("ALiBi prior (slope 0.25)").move_to(3.2 * UP)
        equation = math(
            r"a_i \propto r_i\, e^{s_i/\tau} \;\text{ maximises }\; ",
            r"\mathbb{E}_a[s] - \tau\,\mathrm{KL}(a \,\|\, r)",
            colors=ROLE_TEX,
            size=48,
        ).move_to(2.4 * UP)
        with self.beat(
            "alibi-prior",
            "ALiBi adds its bias, b, to the scaled scores, multiplying the kernel "
            "by a position prior, r proportional to e to the b.",
            shows=self.alibi_description(alibi),
        ):
            self.play(FadeOut(self.leaving), *(FadeIn(m) for m in (name, panels[2], x_title)), run_time=1.5)
            self.until_said("multiplying")
            self.fade_in(*panels[:2], *panels[3:])
        with self.beat(
            "kl-form",
            "That is section three's rule with a prior: weights proportional to r times e to the s over tau,",
            shows=SAID,
        ):
            self.fade_in(equation[0])
        with self.beat(
            "kl-penalty",
            "maximising expected score minus tau times the K L divergence, a penalty for straying from r.",
            shows=SAID,
        ):
            self.fade_in(equation[1])
            self.until_said("K L")
            self.play(Circumscribe(equation[1], color=theme.PRIOR), run_time=1.5)
        with self.beat(
            "t5-prior",
            "T5's learned biases give a different prior through the same mechanism.",
            shows=self.t5_prior_description(alibi, t5),
        ):
            self.swap_prior(name, panels, t5)
            self.when_said("same mechanism", Circumscribe(equation, color=theme.PRIOR), run_time=1.5)

    def alibi_description(self, alibi: np.ndarray) -> str:
        """The prior panel, then the product's tallest key."""
        top = int(np.argmax(self.prior_rows(alibi)[1])) + 1
        return (
            f"Prior bars climb toward key {self.n_prior_keys}, the query; "
            f"times the content bars, key {top} towers."
        )

    def t5_prior_description(self, alibi: np.ndarray, t5: np.ndarray) -> str:
        """T5's prior bars, and where the weights peak now (as under ALiBi, or not)."""
        before = int(np.argmax(self.prior_rows(alibi)[1])) + 1
        top = int(np.argmax(self.prior_rows(t5)[1])) + 1
        spike = int(np.argmax(self.prior_rows(t5)[0])) + 1
        still = " still" if top == before else ""
        return f"The prior spikes at key {spike}, then falls slowly; weights{still} peak at key {top}."

    def flatten_prior(self, spoken: Spoken) -> None:
        """The answer: every bias zero, a flat prior, the content's weights; then T5's prior again."""
        panels = self.prior_row
        flat_prior, flat_weights = self.prior_rows(np.zeros_like(self.t5))
        prior, weights = self.prior_rows(self.t5)
        self.play(
            panels[2].animate.set_values(flat_prior),
            panels[4].animate.set_values(flat_weights),
            run_time=1.5,
        )
        self.play(Indicate(panels[0], color=theme.TEXT), Indicate(panels[4], color=theme.TEXT), run_time=1.2)
        self.hold(self.speech_left() - 1.0)
        self.play(panels[2].animate.set_values(prior), panels[4].animate.set_values(weights), run_time=1.0)

    def prior_panels(self, bias: np.ndarray, later: np.ndarray) -> VGroup:
        """Content weights x prior exp(bias) = weights, on a scale that also fits ``later``'s prior."""
        content = softmax(self.scores, self.prior_tau)
        prior, result = self.prior_rows(bias)
        top = 1.1 * float(max(content.max(), result.max(), prior.max(), self.prior_rows(later)[0].max()))

        def panel(values: np.ndarray, color: str, tex: str) -> BarPanel:
            title = math(tex, colors=ROLE_TEX)
            return BarPanel(values, width=3.4, height=2.7, color=color, title=title, y_range=(0.0, top))

        # the bars are the content weights themselves, softmax(s / tau): proportional to e^{s_i / tau}, and
        # weights, so in the weights' colour (their title names what they hold, not only their shape)
        first = panel(content, theme.WEIGHT, r"\mathrm{softmax}(s/\tau)_i")
        row = VGroup(
            first,
            math(r"\times"),
            panel(prior, theme.PRIOR, r"r_i \propto e^{b_i}"),
            math(r"\propto"),
            panel(result, theme.WEIGHT, r"a_i \propto r_i\, e^{s_i/\tau}"),
        )
        row.arrange(RIGHT, buff=0.35, aligned_edge=DOWN).move_to(0.2 * DOWN)
        for sign in row[1::2]:
            sign.set_y(first.box.get_y())  # between the boxes, not the titles
        return row

    def swap_prior(self, name: Mobject, panels: VGroup, bias: np.ndarray) -> None:
        """Replace the ALiBi prior and its weights by T5's (stylised bucket values)."""
        prior_t5, result_t5 = self.prior_rows(bias)
        name_t5 = label("T5 bias prior (stylised bucket values)").move_to(name)
        new_prior = panels[2].copy().set_values(prior_t5)
        new_result = panels[4].copy().set_values(result_t5)
        self.play(FadeOut(name), run_time=0.5)  # one title at a time: a crossfade reads as two
        self.play(
            FadeIn(name_t5),
            Transform(panels[2], new_prior),
            Transform(panels[4], new_result),
            run_time=1.5,
        )
