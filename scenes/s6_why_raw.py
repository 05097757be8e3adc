"""Section 6, the why: softmax's kernel does not split, so its cache keeps raw keys and values.

Softmax's kernel against
linear attention's (section 4's d x d running sum), the two side by side, and what
each costs in memory. Mixed into section 6's scene (:mod:`scenes.s6_kv_cache`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circumscribe,
    Create,
    DashedVMobject,
    Dot,
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    MathTex,
    Mobject,
    Rectangle,
    ReplacementTransform,
    Square,
    Transform,
    VGroup,
    Write,
    linear,
)

from attnmath import kv_cache_bytes, linear_state_bytes, raw_cache_overtakes
from drawing import theme
from drawing.plots import axis_labels, curve, quiet_axes, to_scene
from drawing.widgets import label, math
from lecture.sections.s6_kv_cache import (  # the section's model, shared with its questions
    CONTEXT,
    MODEL,
    SHARED_KV_HEADS,
    SHARED_MODEL,
    KVCacheParameters,
)
from lecture.sections.s6_real import kib
from narration.narrator import Spoken
from scenes.base import Mixin

__all__ = ["WhyRawCache", "MODEL", "CONTEXT", "per_token_product"]

MEMORY_TOP = 2.2
"""The memory chart's height in GiB at the section's context: its 2 GiB and a little room."""

QK = {"q": theme.QUERY, "k": theme.KEY}  # the kernel's q and k in their roles (no other q or k in it)
FP16_BYTES = 2  # half precision: the model line's "fp16"
COLUMN_X = (theme.SAFE_RIGHT + 0.2) / 2  # the two kernel columns' centres, at -x and x: each inside its half


class WhyRawCache(Mixin[KVCacheParameters]):
    """The beats that explain why softmax's cache keeps raw keys and values."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        seed: int
        pointer: VGroup

        def kv_column(self, i: int, y: float) -> VGroup:  # noqa: D102
            ...

    def show_kernels(self) -> None:
        """Why, in one picture: softmax's kernel keeps every k, v; then, beside it, linear attention folds."""
        with self.beat(
            "softmax-kernel",
            "In general, no fixed-size running sum is exact: softmax's kernel never splits into fixed-size "
            "query and key parts.",
            shows="Beneath the cache: the kernel, not equal to f of q dot g of k.",
        ):
            softmax, eq = self.softmax_column()
            self.until_said("softmax's kernel")
            first = eq[0].copy().set_x(eq.get_x())
            self.play(Write(first), run_time=1.0)
            self.until_said("never splits")
            self.play(ReplacementTransform(first, eq[0]), FadeIn(eq[1:]), FadeIn(softmax[-1]), run_time=1.0)
        with self.beat(
            "every-power",
            "Every power of q dot k appears, power n with d to the n features; distinct keys' exponentials "
            "are linearly independent: no finite list suffices.",
            shows="Series beneath: at d 2, term n drawn with 2 to the n feature cells.",
        ):
            self.expand_kernel(softmax[-1])
        with self.beat(
            "linear-kernel",
            "Linear attention's kernel does split: its sum folds into a d by d state and a normaliser.",
            shows="Written: phi of q times phi of k. Keys and values pour into one grid.",
        ):
            head, lin, state, grid, norm = self.linear_column()
            divider = Line(2.7 * UP, 2.9 * DOWN, color=theme.MUTED, stroke_width=2)
            self.play(*self.to_left_column(softmax), Create(divider), run_time=0.8)
            self.play(FadeIn(head), run_time=0.4)  # once the left column has left its place
            self.when_said("does split", Write(lin), run_time=1.2)
            self.until_said("folds")
            self.play(FadeIn(state), FadeIn(grid), FadeIn(norm), run_time=0.8)
            self.fold_into(softmax[1], grid[0])
            self.when_said("normaliser", Circumscribe(norm, color=theme.KEY), run_time=1.0)

    def softmax_column(self) -> tuple[VGroup, MathTex]:
        """The pointer's words leave; its weights and cache rise, and the kernel that will not split below.

        Returns the whole picture (head, bars and cache, equation, note: the note not yet shown), and the
        equation.
        """
        tag, panel, cols, words, pointer_note = self.pointer
        head = label("softmax: every k, v kept", color=theme.TEXT).move_to(3.1 * UP)
        eq = math(r"e^{\,q \cdot k / \tau}", r"\;\ne\;", r"f(q)^\top g(k)", size=72, colors=QK)
        eq[1].set_color(theme.WARNING)
        note = VGroup(
            label("for any fixed-size query part f", small=True, color=theme.MUTED),
            label("and key part g", small=True, color=theme.MUTED),
        ).arrange(DOWN, buff=0.1)
        VGroup(eq, note).arrange(DOWN, buff=0.4).move_to(1.9 * DOWN)
        self.play(
            FadeOut(VGroup(tag, words, pointer_note)),
            FadeIn(head),
            VGroup(panel, cols).animate.scale(0.8).move_to(1.2 * UP),
            run_time=1.0,
        )
        return VGroup(head, VGroup(panel, cols), eq, note), eq

    def expand_kernel(self, note: Mobject) -> None:
        """The note gives way to the kernel's series, each power with its features; then the note returns.

        Power n splits into d^n features: the entries of q's n-fold outer product, met by k's.
        """
        terms = [r"1", r"+\,\frac{q\cdot k}{\tau}", r"+\,\frac{(q\cdot k)^{2}}{2\tau^{2}}"]
        terms += [r"+\,\frac{(q\cdot k)^{3}}{6\tau^{3}}", r"+\,\cdots"]
        series = math(*terms, size=40, colors=QK).move_to(note).shift(0.3 * UP)
        counts = VGroup(
            *(
                label(text, color=theme.MUTED).next_to(series[k], DOWN, buff=0.08)
                for k, text in enumerate(("d", "d\u00b2", "d\u00b3"), start=1)
            )
        )
        self.play(FadeOut(note), FadeIn(series[0]), run_time=0.6)
        self.until_said("Every power")
        for k in range(1, 4):
            self.play(FadeIn(series[k]), run_time=0.5)
        cells = self.feature_cells(counts)
        self.until_said("power n")
        grown = (FadeIn(VGroup(c, f), shift=0.1 * UP) for c, f in zip(counts, cells[0], strict=True))
        self.play(LaggedStart(*grown, lag_ratio=0.4), FadeIn(cells[1]), run_time=1.5)
        self.when_said("distinct keys", Circumscribe(series, color=theme.KEY), run_time=1.2)  # the terms
        endless = Rectangle(width=series.width + 0.3, height=series.height + 0.06, color=theme.WARNING)
        endless.set_stroke(width=4).move_to(series)  # in "cannot"; clear of the counts just under the series
        self.when_said("linearly", Create(endless), run_time=1.0)  # the series no finite list can hold
        self.until_said("no finite")
        self.play(FadeIn(series[4]), Circumscribe(series[4], color=theme.WARNING), run_time=1.2)
        self.hold(self.speech_left())
        self.play(FadeOut(VGroup(series, counts, cells, endless)), FadeIn(note), run_time=0.6)

    @staticmethod
    def feature_cells(counts: VGroup) -> VGroup:
        """Beside each power's count, its features as cells at d = 2 (2, 4, 8), and a note saying d = 2.

        Returns (the three groups of cells, the note): the list each power adds grows without end.
        """
        groups = VGroup()
        for n, count in enumerate(counts, start=1):
            cell = Square(side_length=0.2, stroke_width=1.5, color=theme.KEY, fill_opacity=0.5)
            cells = VGroup(*(cell.copy() for _ in range(2**n)))
            cells.arrange_in_grid(rows=max(1, 2 ** (n - 1) // 2), buff=0.04)
            groups.add(cells.next_to(count, RIGHT, buff=0.1))
        note = label("cells at d = 2", color=theme.MUTED)
        note.next_to(groups[-1], RIGHT, buff=0.4)
        return VGroup(groups, note)

    def linear_column(self) -> tuple[Mobject, Mobject, Mobject, VGroup, Mobject]:
        """The column's head, section 4's split kernel, its state update, a d x d grid, the normaliser."""
        head = label("linear attention", color=theme.MUTED).move_to([COLUMN_X, 3.1, 0])
        lin = math(r"\phi(q)^\top \phi(k)", size=60, colors=QK)
        roles = {"k_t": theme.KEY, "v_t": theme.VALUE}
        state = math(r"S_t = S_{t-1} + \phi(k_t)\, v_t^\top", size=48, colors=roles)
        cell = Square(side_length=0.32, stroke_width=1, color=theme.VALUE, fill_opacity=0.3)
        cells = VGroup(*(cell.copy() for _ in range(16)))
        grid = VGroup(cells.arrange_in_grid(rows=4, cols=4, buff=0.0))
        grid.add(label("S: d \u00d7 d", small=True).next_to(cells, RIGHT, buff=0.3))
        norm = math(r"z_t = z_{t-1} + \phi(k_t)", size=48, colors={"k_t": theme.KEY})
        VGroup(lin, state, grid, norm).arrange(DOWN, buff=0.45).move_to([COLUMN_X, -0.1, 0])
        return head, lin, state, grid, norm

    @staticmethod
    def to_left_column(softmax: VGroup) -> list:
        """The softmax picture moves into the left half: pictures shrink, text keeps its size."""
        head, shapes, eq, note = softmax
        x = -COLUMN_X
        eq_target = eq.copy().scale(0.7).move_to([x, -1.0, 0])
        return [
            head.animate.move_to([x, 3.1, 0]),
            shapes.animate.scale_to_fit_width(5.8).move_to([x, 1.3, 0]),
            eq.animate.scale(0.7).move_to(eq_target),
            note.animate.next_to(eq_target, DOWN, buff=0.35),
        ]

    def fold_into(self, cache: VGroup, target: Mobject) -> None:
        """A copy of each cached key and value flies into the state grid in turn: the sum that folds."""
        copies = [column.copy().set_z_index(3) for column in cache]
        flights = [copy.animate.move_to(target).scale(0.3).set_opacity(0.0) for copy in copies]
        seconds = min(2.0, max(1.0, self.seconds_until("normaliser") - 0.2))
        self.play(LaggedStart(*flights, lag_ratio=0.25), run_time=seconds)
        self.remove(*copies)

    def show_memory(self) -> None:
        """Raw cache bytes grow linearly with tokens; linear attention's states stay flat."""
        frame, raw, flat = self.memory_plot()
        self.memory = (frame, raw, flat)
        per_token = kv_cache_bytes(**MODEL, seq_len=1) // 1024
        gib = kv_cache_bytes(**MODEL, seq_len=CONTEXT) / 2**30
        state = linear_state_bytes(**MODEL)
        with self.beat(
            "memory-raw",
            f"A seven-billion-parameter model, one sequence, half precision, every head its own keys and "
            f"values: {per_token} kibibytes a token, {gib:.0f} gibibytes at {CONTEXT}.",
            shows=f"Straight line: 2, key and value, times {MODEL['n_layers']} layers, "
            f"{MODEL['n_kv_heads']} heads, {MODEL['head_dim']} wide, 2 bytes.",
        ):
            product = per_token_product().move_to(raw[1], aligned_edge=LEFT)
            axes_time = min(max(self.seconds_until("one sequence") - 0.6, 0.8), 3.0)
            self.play(*(FadeOut(m) for m in self.mobjects), FadeIn(frame[1:]), run_time=0.6)  # a cross-fade
            self.play(Create(frame[0]), run_time=axes_time)  # drawn while the model is named
            self.until_said("one sequence")  # the bytes multiply out as their factors are named
            self.play(Write(product), run_time=max(1.0, self.seconds_until(f"{per_token} kibibytes") - 0.2))
            self.until_said(f"{per_token} kibibytes")  # the product becomes the line's rate as it climbs
            self.play(ReplacementTransform(product, raw[1]), run_time=0.8)
            self.play(Create(raw[0]), run_time=max(2.0, self.speech_left() - 0.3), rate_func=linear)
        with self.beat(
            "memory-state",
            f"A linear-attention model of that shape keeps {state / 2**20:.2f} mebibytes at any length; "
            f"from {raw_cache_overtakes(**MODEL)} tokens on, the raw cache takes more.",
            shows=f"Flat line: per layer and head, {MODEL['head_dim']} by {MODEL['head_dim']} plus "
            f"{MODEL['head_dim']}; lines cross at {raw_cache_overtakes(**MODEL)}.",
        ):
            self.play(Create(flat[0]), FadeIn(flat[1]), run_time=2.0)
            inset, lines, crossing = self.crossover_inset()
            self.memory[0].add(inset, lines, crossing)  # they leave with the plot
            self.when_said("tokens on", FadeIn(inset), run_time=0.8)
            self.play(Create(lines), run_time=1.5)
            self.play(FadeIn(crossing, scale=1.5), run_time=0.6)

    def shared_heads(self, spoken: Spoken) -> None:
        """The answer: the model line's key-value heads become 8, and the raw line tilts to a quarter.

        The 32-head line stays behind it, dashed; the linear state and the inset leave first, so the
        tilted line crosses no label. The line's end is marked, and its figure at the context stands
        under the new rate's tag (the only room the dashed line leaves clear); the tag becomes its
        product as the voice names one key and one value per shared set, and the tilted line is named
        "8 KV heads" as the voice names a key-value head.
        """
        frame, raw, flat = self.memory
        inset = frame.submobjects[3:]  # added by the crossover beat, after the axes, titles and model line
        shared_frame, shared_raw, _ = self.memory_plot(n_kv_heads=SHARED_KV_HEADS)
        ghost = DashedVMobject(raw[0].copy(), num_dashes=48).set_stroke(theme.MUTED, width=3)
        was = label(f"{MODEL['n_kv_heads']} KV heads", small=True, color=theme.MUTED)
        was.move_to(to_scene(frame[0], CONTEXT, 0.6 * MEMORY_TOP)[0], aligned_edge=RIGHT)  # under its end
        self.play(*(FadeOut(m) for m in (*inset, *flat, frame[2])), FadeIn(ghost), run_time=0.6)
        frame.remove(*inset)
        model = shared_frame[2].set_color(theme.KEY)  # the model line again, its KV heads now 8
        self.play(FadeIn(model), run_time=0.6)
        frame.submobjects[2] = model
        self.play(Transform(raw[0], shared_raw[0]), FadeOut(raw[1]), run_time=1.5)
        raw.submobjects[1] = shared_raw[1]  # the tag comes back with the new rate, not mid-morph
        gib = kv_cache_bytes(**SHARED_MODEL, seq_len=CONTEXT) / 2**30
        end = Dot(to_scene(frame[0], CONTEXT, gib)[0], radius=0.09, color=theme.KEY)
        note = label(f"{CONTEXT} tokens: {gib:g} GiB", color=theme.KEY)
        note.next_to(shared_raw[1], DOWN, buff=0.25, aligned_edge=LEFT)
        self.play(FadeIn(shared_raw[1]), FadeIn(was), FadeIn(end, scale=1.5), FadeIn(note), run_time=0.8)
        product = per_token_product(n_kv_heads=SHARED_KV_HEADS, size=48)
        product.move_to(shared_raw[1], aligned_edge=LEFT)
        self.when_said("per shared set", ReplacementTransform(shared_raw[1], product), run_time=1.0)
        raw.submobjects[1] = product
        now = label(f"{SHARED_KV_HEADS} KV heads", small=True, color=theme.KEY)  # the term, as it is named
        now.move_to(to_scene(frame[0], CONTEXT, 0.1 * MEMORY_TOP)[0], aligned_edge=RIGHT)  # under its line
        self.when_said("a key-value head", FadeIn(now, shift=0.1 * UP), run_time=0.8)

    def crossover_inset(self) -> tuple[VGroup, VGroup, VGroup]:
        """The first tokens, in MiB, under the raw line: where the growing cache overtakes the fixed state.

        (frame: axes, its ticks; the two lines; the crossing's dot and token count.)
        """
        cross = raw_cache_overtakes(**MODEL)
        span = 2 * cross - 2  # the crossing in the middle
        tokens = np.arange(0, span + 1)
        raw = np.array([kv_cache_bytes(**MODEL, seq_len=int(n)) for n in tokens]) / 2**20
        state = linear_state_bytes(**MODEL) / 2**20
        axes = quiet_axes((0, span), (0, float(raw[-1])), width=2.6, height=1.1).move_to([3.9, -0.05, 0])
        ticks = axis_labels(axes, x_ticks=(span,), tick_text=lambda v: f"{v:g} tokens")
        # the state's size above its own line's left end, where the raw line is still below it (the title
        # gives the unit: with it, the label reached past the crossing, where the raw line cut through it)
        size = label(f"{state:g}", small=True, color=theme.VALUE)
        size.move_to(to_scene(axes, 0, state)[0], aligned_edge=DOWN + LEFT).shift(0.1 * UP + 0.1 * RIGHT)
        title = label(f"first {span} tokens, MiB", small=True, color=theme.MUTED)
        title.next_to(axes, UP, buff=0.15).align_to(axes, RIGHT)
        ticks.add(size, title)
        # a framed, opaque card: the big chart's lines pass behind it, not through it
        shown = VGroup(axes, ticks)
        card = Rectangle(
            width=shown.width + 0.3,
            height=shown.height + 0.3,
            stroke_color=theme.MUTED,
            stroke_width=2,
            fill_color=theme.BACKGROUND,
            fill_opacity=1.0,
        ).move_to(shown)
        lines = VGroup(
            curve(axes, tokens, raw, color=theme.KEY, width=4),
            curve(axes, tokens, np.full(tokens.shape, state), color=theme.VALUE, width=4),
        )
        where = to_scene(axes, cross, kv_cache_bytes(**MODEL, seq_len=cross) / 2**20)[0]
        dot = Dot(where, radius=0.08, color=theme.TEXT)
        count = label(f"{cross}", small=True).next_to(dot, DOWN + RIGHT, buff=0.08)  # the raw line is above
        return VGroup(card, axes, ticks), lines, VGroup(dot, count)

    def memory_plot(self, n_kv_heads: int = MODEL["n_kv_heads"]) -> tuple[VGroup, VGroup, VGroup]:
        """The memory chart to the section's context: axes and titles; raw line and tag; state line and tag.

        ``n_kv_heads`` changes the model's key-value heads (the raw line and tag, and the model line).
        """
        context, top = CONTEXT, MEMORY_TOP
        shape = {**MODEL, "n_kv_heads": n_kv_heads}
        tokens = np.arange(0, context + 1, 64)
        gib = np.array([kv_cache_bytes(**shape, seq_len=int(n)) for n in tokens]) / 2**30
        flat = np.full_like(gib, linear_state_bytes(**MODEL) / 2**30)
        axes = quiet_axes((0, context), (0, top), width=10.0, height=4.3).move_to([0.4, -0.05, 0])
        titles = axis_labels(
            axes,
            "tokens in context",
            "memory (GiB)",
            x_ticks=tuple(range(0, context + 1, context // 4)),
            y_ticks=tuple(range(1, int(top) + 1)),
        )
        raw_line = curve(axes, tokens, gib, color=theme.KEY, width=5)
        sum_line = curve(axes, tokens, flat, color=theme.VALUE, width=5)
        per_token = kv_cache_bytes(**shape, seq_len=1) // 1024
        raw_tag = label(f"raw KV cache: {per_token} KiB per token", color=theme.KEY)
        raw_tag.move_to(to_scene(axes, 0, 0.86 * top)[0] + 0.4 * RIGHT, aligned_edge=LEFT)
        sum_tag = label(f"linear attention: {linear_state_bytes(**MODEL) / 2**20:.2f} MiB", color=theme.VALUE)
        sum_tag.next_to(to_scene(axes, context, 0.0)[0], UP, buff=0.3).align_to(axes, RIGHT)
        named = (
            f"{MODEL['n_layers']} layers, {n_kv_heads} KV heads, head dim {MODEL['head_dim']}, "
            "fp16, one sequence"
        )
        model = label(named, small=True, color=theme.MUTED)
        model.move_to([0, theme.SAFE_TOP - 0.2, 0])
        return VGroup(axes, titles, model), VGroup(raw_line, raw_tag), VGroup(sum_line, sum_tag)


def per_token_product(
    n_layers: int = MODEL["n_layers"],
    n_kv_heads: int = MODEL["n_kv_heads"],
    head_dim: int = MODEL["head_dim"],
    *,
    color: str = theme.KEY,
    size: int = theme.MATH_SIZE,
) -> MathTex:
    """One token's raw cache multiplied out, its factors in the order of the model line above the plot.

    layers x KV heads x head dim x (k and v) x bytes per fp16 number = KiB a token (the section's
    7B-class model unless another shape is given).
    """
    n_bytes = kv_cache_bytes(n_layers, n_kv_heads, head_dim, seq_len=1, bytes_per_element=FP16_BYTES)
    factors = (n_layers, n_kv_heads, head_dim, 2)
    tex = r" \times ".join(str(f) for f in factors) + rf" \times {FP16_BYTES}\,\text{{B}}"
    return math(tex, rf"= {kib(n_bytes)}\,\text{{KiB}}", color=color, size=size)
