"""Section 4, the first half: each kernel's weight against content similarity and against position.

Two large panels side by side: softmax's and linear attention's weight against
a key's cosine similarity to the query (redrawn at the temperature slider's
tau), and the position kernels' weight against how far back a key lies, one
profile after another (dot-product and linear, local window, ALiBi, T5), then
all four side by side. Mixed into section 4's scene.
"""

from __future__ import annotations

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Axes,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    Transform,
    UpdateFromAlphaFunc,
    ValueTracker,
    VGroup,
    linear,
)

from attnmath import (
    VARIANTS,
    content_profiles,
    weight_profiles,
)
from drawing import theme
from drawing.angle import AngleInset
from drawing.plots import axis_labels, curve, quiet_axes, redraw_curve, to_scene
from drawing.readouts import Readout
from drawing.widgets import BarPanel, LogSlider, label
from lecture.sections.s4_kernel_variants import KernelVariantsParameters
from scenes.base import Mixin

__all__ = ["ProfilePanels", "POSITION_STEPS", "peak_scaled"]

PANEL_W, PANEL_H = 5.2, 2.8
CONTENT_X, POSITION_X, PANELS_Y, LEGEND_Y = -3.45, 3.35, 0.6, 3.25
SOFTMAX, LINEAR = VARIANTS[0], VARIANTS[1]  # every softmax kernel has the dot-product's content profile
POSITION_STEPS = (  # (name shown, profile drawn), in the order the narration names them
    ("no position bias", SOFTMAX),  # dot-product (softmax) and linear attention alike
    ("local window", "local window"),
    ("ALiBi", "ALiBi"),
    ("T5 bias (stylised)", "T5 bias"),
)
CELL_NAMES = {SOFTMAX: "no bias", "local window": "window", "ALiBi": "ALiBi", "T5 bias": "T5 (stylised)"}
"""Each profile's name in the side-by-side grid: short, to fit a cell."""
POSITION_TICKS = (30, 20, 10, 0)  # tokens back, labelled on the position panel's x-axis


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


class ProfilePanels(Mixin[KernelVariantsParameters]):
    """Mixin for section 4's scene: the content and position panels, their beats and descriptions."""

    # --- profiles -------------------------------------------------------------
    def show_content(self) -> None:
        """The content panel: softmax's weight against cosine similarity, then linear attention's."""
        with self.beat(
            "content-row",
            "First, content: the kernel, a key's unnormalised weight, for unit-length q and k, against "
            "cosine similarity, the cosine of the angle between them.",
            shows=self.content_description(),
        ):
            self.fade_in(self.content_frame, self.slider, self.readout)  # the curve's temperature
            self.play(Create(self.content_curves[0]), FadeIn(self.legend[0]), run_time=1.5)
            self.angle_inset = AngleInset(np.array([POSITION_X, PANELS_Y + 0.35, 0.0]), cosine=0.5)
            self.when_said("unit-length", FadeIn(self.angle_inset), run_time=0.8)
            self.trace(self.content_curves[0], "against cosine")
        with self.beat(
            "content-linear",
            "Every softmax variant ahead shares this curve. Linear attention "
            "swaps the exponential for phi of q dot phi of k, phi a feature map: broader.",
            shows=self.linear_description(),
        ):
            self.trace(self.content_curves[0], "shares this curve", run_time=1.0)  # the dot runs once more
            self.until_said("Linear attention")
            self.play(Create(self.content_curves[1]), FadeIn(self.legend[1]), run_time=1.5)

    def show_positions(self) -> None:
        """The position panel: dot-product and linear alike, then the window, ALiBi and T5, side by side."""
        with self.beat(
            "position-row",
            f"Then position: equal content, up to {self.n_positions - 1} tokens back. Without position in q "
            "or k, both weigh all alike.",
            shows=self.level_description(),
        ):
            self.play(FadeOut(self.angle_inset), FadeOut(self.weight_bar), run_time=0.5)  # position's place
            self.position_bars.set_values(np.zeros(self.position_bars.n))  # they rise as the arrow runs
            self.fade_in(self.position_frame, self.position_name)
            arrow, share = self.look_back(), self.equal_share()
            self.when_said("tokens back", GrowArrow(arrow), self.rise_from_query(), run_time=1.5)
            self.when_said("Without position", FadeIn(share), run_time=0.8)  # read as the voice reasons
            self.when_said(
                "weigh all alike", Circumscribe(self.position_bars, color=theme.WEIGHT), run_time=1.5
            )
            self.hold(self.speech_left() - 0.4)
            self.play(FadeOut(arrow), FadeOut(share), run_time=0.4)  # they would lie across the profiles
        with self.beat(
            "position-priors",
            "A local window keeps only the last few keys; ALiBi, attention with linear biases, subtracts a "
            "penalty that grows with distance.",
            shows=self.priors_description(),
        ):
            self.step_positions(POSITION_STEPS[1:3], ("window", "ALiBi"))
        with self.beat(
            "position-t5",
            "The T5 model learns one bias per nearby distance, one per range farther out; "
            "the profile drawn is stylised.",
            shows=self.t5_description(),
        ):
            self.step_positions(POSITION_STEPS[3:], ("T5",))
            self.until_said("profile drawn")
            self.side_by_side()

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

    def trace(self, line: Mobject, words: str, run_time: float | None = None) -> None:
        """A weight bar runs along ``line`` as the narration says ``words``: each key's weight in turn.

        The inset's key turns with it, so the bar stands over the cosine the key makes with q. The
        sweep from cosine -1 to 1 takes ``run_time`` s (by default the speech left, 2.4 s at least).
        """
        anchors = np.asarray(line.get_anchors())
        order = np.argsort(anchors[:, 0])
        floor = float(self.content_axes.c2p(0.0, 0.0)[1])

        def bar_at(c: float) -> Rectangle:
            """The bar from the x-axis up to the curve above cosine ``c`` (the axes hold cosine + 1)."""
            x = float(self.content_axes.c2p(c + 1.0, 0.0)[0])
            top = float(np.interp(x, anchors[order, 0], anchors[order, 1]))
            bar = Rectangle(width=0.2, height=max(top - floor, 0.01), stroke_width=0)
            bar.set_fill(line.get_stroke_color(), opacity=0.85)
            return bar.move_to([x, (top + floor) / 2, 0.0])

        inset = self.angle_inset  # its key turns as the bar runs: the x-axis is this angle's cosine
        shown = getattr(self, "weight_bar", None)  # the last trace's bar, still standing at the resting key
        bar = bar_at(inset.cosine)
        if shown is not None:
            self.remove(shown)
            self.add(bar)

        def sweep(start: float, end: float) -> UpdateFromAlphaFunc:
            def step(_m: Mobject, alpha: float) -> None:
                inset.set_cosine(start + (end - start) * alpha)
                bar.become(bar_at(inset.cosine))

            return UpdateFromAlphaFunc(inset, step)

        self.until_said(words)
        seconds = max(2.4, self.speech_left() - 1.1) if run_time is None else run_time
        first = () if shown is not None else (FadeIn(bar),)
        self.play(*first, sweep(inset.cosine, -1.0), run_time=0.5)
        self.play(sweep(-1.0, 1.0), run_time=seconds, rate_func=linear)
        self.play(sweep(1.0, 0.5), run_time=0.6)  # the bar stays with the key at rest: the two stay linked
        self.weight_bar = bar

    def rise_from_query(self) -> UpdateFromAlphaFunc:
        """The position panel's bars rise one slot after another, from the query's own back to the oldest."""
        bars = self.position_bars
        full = peak_scaled(self.profiles.position[SOFTMAX])
        back = np.arange(bars.n)[::-1]  # each slot's distance from the query (the query's slot is last)

        def step(_m: Mobject, alpha: float) -> None:
            bars.set_values(full * np.clip(alpha * bars.n - back, 0.0, 1.0))

        return UpdateFromAlphaFunc(bars, step)

    def equal_share(self) -> Mobject:
        """'each key: 1/N' on the level bars, N from the dot-product's weights (all equal)."""
        w = self.profiles.position[SOFTMAX]
        if not np.allclose(w, w[0]):
            raise AssertionError("bug: the dot-product's position weights are not all equal")
        note = label(f"each key: 1/{round(1.0 / float(w[0]))}")
        return note.move_to(self.position_bars.box.get_center())

    def step_positions(self, steps: tuple[tuple[str, str], ...], cues: tuple[str, ...]) -> None:
        """Each position kernel's profile in ``steps`` as the narration names it (``cues``)."""
        for (name, key), cue in zip(steps, cues, strict=True):
            self.until_said(cue)
            target = self.position_bars.copy().set_values(peak_scaled(self.profiles.position[key]))
            title = label(name).move_to(self.position_name)
            self.play(FadeOut(self.position_name), run_time=0.3)  # one name at a time: none mixed mid-fade
            self.play(Transform(self.position_bars, target), FadeIn(title), run_time=0.8)
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
        return f"k's shadow on q: the cosine. Softmax weight curves upward, peaking at cosine {peak:g}."

    def level_description(self) -> str:
        """The dot-product's position profile: level, every slot back to the oldest."""
        n = len(self.profiles.position[SOFTMAX])
        return f"Level bars fill from the query back {n - 1} tokens: {n} keys, equal weight each."

    def linear_description(self) -> str:
        """The linear curve: where it peaks (not at cosine 1: φ(q)·φ(k) is no function of the angle alone)."""
        similarity, content = self.profiles.similarity, self.profiles.content
        linear = peak_scaled(content[LINEAR])
        top = float(similarity[np.argmax(linear)])
        softmax_top = float(similarity[np.argmax(content[SOFTMAX])])
        where = f"topping near cosine {top:.1f}" if top < softmax_top else f"peaking at cosine {top:g} too"
        return f"Linear's curve, broader, {where}: its features see more than the angle."

    def priors_description(self) -> str:
        """The window's slots, then ALiBi's decay, as the position panel draws them."""
        kept = int(np.count_nonzero(self.profiles.position[POSITION_STEPS[1][1]]))
        return f"Window: only the {kept} slots nearest the query; ALiBi: smooth decay to near zero."

    def t5_description(self) -> str:
        """T5's stylised profile: its drop one token back, then its long tail."""
        t5 = peak_scaled(self.profiles.position[POSITION_STEPS[3][1]])
        return f"T5: {t5[-2]:.1f} of its peak one token back, falling smoothly, flat far out."

    def refresh(self) -> None:
        """Redraw the content curves, the slider and the readout at the current tau."""
        tau = float(10 ** self.tau.get_value())
        similarity, content = content_profiles(tau)  # position profiles do not move with tau
        for line, name in zip(self.content_curves, (SOFTMAX, LINEAR), strict=True):
            redraw_curve(line, self.content_axes, similarity + 1.0, peak_scaled(content[name]))
        self.slider.set_value(tau)
        self.readout.set_value(tau)
