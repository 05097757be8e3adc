"""Section 6 on a real decoder: SmolLM2's grouped cache, its sink heads, and a cache that evicts.

After the hypothetical 7B figure, the same questions asked of a trained model,
SmolLM2-135M-Instruct run in numpy (:mod:`lecture.sections.s6_real` measures it):
its bytes a token with 3 key-value heads serving 9 query heads, the heads that
park their weight on the first token, and what evicting old tokens does to its
loss on a passage, with and without those sink tokens kept (StreamingLLM).
Mixed into section 6's scene (:mod:`scenes.s6_kv_cache`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Indicate,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    Square,
    VGroup,
    Write,
)

from drawing import theme
from drawing.plots import axis_labels, quiet_axes, to_scene
from drawing.widgets import label, math
from lecture.sections.s5_induction import DECODER_SPOKEN
from lecture.sections.s6_real import (
    MODEL_NAME,
    SINK_LENGTH,
    WEIGHT_BITS,
    kib,
    real_eviction,
    real_memory,
    real_sinks,
)
from scenes.s6_decoding import CachedDecoding
from scenes.s6_why_raw import per_token_product

__all__ = ["RealDecoder", "perplexity", "nats"]

COLUMN_X = theme.SAFE_LEFT + 2.35  # the grouped-query picture's centre, on the left
ROWS_X = -1.3  # the byte counts' left edge, right of the picture
PRODUCT_SIZE = 44  # the bytes multiplied out: TeX reads smaller than text at one size
CELL = 0.34  # one head's cell in the sink grid


def perplexity(nll: float) -> str:
    """A mean loss's perplexity as shown and spoken: e to the loss, to the nearest whole number."""
    return f"{np.exp(nll):.0f}"


def nats(nll: float) -> str:
    """A mean loss as shown: two decimals."""
    return f"{nll:.2f}"


class RealDecoder(CachedDecoding):
    """The beats that ask section 6's questions of a real trained decoder."""

    def show_real_decoder(self) -> None:
        """The model, its grouped cache, the sentence decoded, its sink heads, then eviction."""
        self.show_real_memory()
        self.show_real_decoding()
        self.show_sinks()
        self.show_eviction()

    # --- memory a token, grouped -----------------------------------------------------
    def show_real_memory(self) -> None:
        """The 7B figure stays, beside SmolLM2's heads: they fan out, and their bytes multiply out."""
        mem = real_memory()
        queries, kv, fans, names = self.grouped_heads(mem.n_heads, mem.n_kv_heads)
        rows = self.memory_rows()
        with self.beat(
            "memory-real",
            f"Now {DECODER_SPOKEN}: in each of {mem.n_layers} layers, {mem.n_kv_heads} key-value heads serve "
            f"{mem.n_heads} query heads, {kib(mem.grouped)} kibibytes a token; "
            f"ungrouped, {kib(mem.ungrouped)}.",
            shows=f"Product: 2, key and value, times {mem.n_layers} layers, {mem.n_kv_heads} heads, "
            f"{mem.head_dim} wide, 2 bytes.",
        ):
            self.clear_then(rows[0])  # the 7B figure, beside the real model
            self.until_said(DECODER_SPOKEN.split()[0])
            self.play(FadeIn(rows[1]), FadeIn(queries), FadeIn(names[0]), run_time=0.8)
            self.when_said("key-value", FadeIn(kv), FadeIn(names[1]), run_time=0.6)
            self.when_said("serve", LaggedStart(*(Create(f) for f in fans), lag_ratio=0.1), run_time=1.2)
            self.until_said("kibibytes")
            self.play(Write(rows[2]), run_time=1.0)
            self.when_said("ungrouped", FadeIn(rows[3], shift=0.2 * UP), run_time=0.8)

    @staticmethod
    def grouped_heads(n_heads: int, n_kv_heads: int) -> tuple[VGroup, VGroup, VGroup, VGroup]:
        """One layer's query heads in a row over its key-value heads, each fanning to its group.

        (query squares; key-over-value columns; fan lines; the two rows' names.)
        """
        pitch, side = 0.52, 0.4
        queries = VGroup(
            *(Square(side_length=side, color=theme.QUERY, fill_opacity=0.6) for _ in range(n_heads))
        )
        queries.arrange(RIGHT, buff=pitch - side).move_to([COLUMN_X, 0.9, 0])
        group = n_heads // n_kv_heads
        kv = VGroup()
        for g in range(n_kv_heads):
            x = queries[g * group : (g + 1) * group].get_x()
            k = Square(side_length=0.55, color=theme.KEY, fill_opacity=0.6).move_to([x, -1.4, 0])
            v = Square(side_length=0.55, color=theme.VALUE, fill_opacity=0.6).next_to(k, DOWN, buff=0.06)
            kv.add(VGroup(k, v))
        fans = VGroup(
            *(
                Line(kv[h // group][0].get_top(), queries[h].get_bottom(), color=theme.KEY, stroke_width=3)
                for h in range(n_heads)
            )
        )
        names = VGroup(
            label(f"{n_heads} query heads", color=theme.QUERY).next_to(queries, UP, buff=0.3),
            label(f"{n_kv_heads} key-value heads", color=theme.KEY).next_to(kv, DOWN, buff=0.3),
        )
        return queries, kv, fans, names

    @staticmethod
    def memory_rows() -> list[VGroup]:
        """The right half's rows: the 7B figure, SmolLM2's name, its product, and the product ungrouped."""
        mem = real_memory()

        def row(y: float, name: str, colour: str, second: Mobject) -> VGroup:
            parts = VGroup(label(name, color=colour), second).arrange(DOWN, buff=0.15, aligned_edge=LEFT)
            return parts.move_to([ROWS_X, y, 0], aligned_edge=UP + LEFT)

        def product(n_kv_heads: int, colour: str) -> Mobject:
            return per_token_product(mem.n_layers, n_kv_heads, mem.head_dim, color=colour, size=PRODUCT_SIZE)

        return [
            row(
                3.3,
                "7B-class, hypothetical",
                theme.MUTED,
                per_token_product(color=theme.MUTED, size=PRODUCT_SIZE),
            ),
            row(
                1.7,
                MODEL_NAME,
                theme.TEXT,
                label(f"trained; weights in {WEIGHT_BITS} bits", color=theme.MUTED),
            ),
            row(0.0, f"{mem.n_kv_heads} KV heads, grouped:", theme.KEY, product(mem.n_kv_heads, theme.KEY)),
            row(-1.7, f"{mem.n_heads} KV heads, ungrouped:", theme.MUTED, product(mem.n_heads, theme.MUTED)),
        ]

    # --- sink heads ---------------------------------------------------------------------
    def show_sinks(self) -> None:
        """Every head as a cell lit by its weight on the first token; the sink heads get a dot."""
        sinks = real_sinks()
        grid, dots, axes = self.sink_grid(sinks.share, sinks.threshold)
        count = label(
            f"{sinks.count} of {sinks.n_heads} heads: over half on the first token", color=theme.WEIGHT
        ).next_to(grid, DOWN, buff=0.9)
        with self.beat(
            "sinks",
            f"Recall attention sinks: on random tokens, {sinks.count} of its {sinks.n_heads} heads average "
            "over half their weight on the first, an ordinary token.",
            shows=f"{sinks.share.shape[0]} layers by {sinks.share.shape[1]} heads, brighter for more "
            f"first-token weight; dots: {sinks.count} over half.",
        ):
            self.clear_then(axes)
            self.play(LaggedStart(*(FadeIn(c) for c in grid), lag_ratio=0.004), run_time=1.5)
            self.when_said(f"{sinks.count}", FadeIn(count), run_time=0.6)
            self.when_said("over half", LaggedStart(*(FadeIn(d, scale=2) for d in dots), lag_ratio=0.01))
            self.when_said("the first", Indicate(axes[0], color=theme.WEIGHT), run_time=1.0)

    @staticmethod
    def sink_grid(share: np.ndarray, threshold: float) -> tuple[VGroup, VGroup, VGroup]:
        """(cells lit by each head's share on the first token; a dot on each sink head; titles and ticks).

        Layers run left to right, heads top to bottom: a wide grid that reads at 640 pixels.
        """
        n_layers, n_heads = share.shape
        cells, dots = VGroup(), VGroup()
        origin = np.array([0.3 - (n_layers - 1) / 2 * CELL, (n_heads - 1) / 2 * CELL + 0.4, 0.0])
        for layer in range(n_layers):
            for head in range(n_heads):
                at = origin + np.array([layer * CELL, -head * CELL, 0.0])
                cell = Square(side_length=CELL, stroke_width=1, stroke_color=theme.MUTED)
                cells.add(cell.set_fill(theme.WEIGHT, opacity=float(share[layer, head])).move_to(at))
                if share[layer, head] > threshold:
                    dots.add(Dot(at, radius=0.07, color=theme.BACKGROUND))
        title = label("each head's weight on the first token", color=theme.WEIGHT)
        title.next_to(cells, UP, buff=0.35)
        ticks = VGroup(
            *(
                label(f"{layer}", small=True, color=theme.MUTED).next_to(
                    cells[(layer - 1) * n_heads], UP, buff=0.1
                )
                for layer in (1, 10, 20, 30)
            )
        )
        title.next_to(ticks, UP, buff=0.15)
        names = VGroup(
            label("layer", small=True, color=theme.MUTED).next_to(ticks[0], LEFT, buff=0.3),
            label("head 1", small=True, color=theme.MUTED).next_to(cells[0], LEFT, buff=0.15),
            label(f"head {n_heads}", small=True, color=theme.MUTED).next_to(
                cells[n_heads - 1], LEFT, buff=0.15
            ),
        )
        note = label(f"measured on {SINK_LENGTH} random tokens, repeated", small=True, color=theme.MUTED)
        note.next_to(cells, DOWN, buff=0.25)
        return cells, dots, VGroup(title, ticks, names, note)

    # --- eviction -----------------------------------------------------------------------
    def show_eviction(self) -> None:
        """Bars of mean loss: the full cache, a window that evicts the first token, sinks kept beside it.

        A line over the bars says what the cache keeps as the voice says it: the first token evicted,
        then the first tokens kept as sinks, then that positions stay absolute.
        """
        nll = real_eviction()
        frame, names, bars, ends = self.loss_bars(
            (nll.full, nll.windowed, nll.with_sinks), nll.window, nll.sinks
        )
        full, windowed, with_sinks = (perplexity(x) for x in (nll.full, nll.windowed, nll.with_sinks))
        evicted = self.cache_line("the first token is evicted", theme.WARNING)
        with self.beat(
            "window",
            f"On prose, keep the last {nll.window} tokens, evicting the first: perplexity, the "
            f"effective count of equally likely next tokens, jumps from {full} to {windowed}.",
            shows=f"Loss in nats, minus natural-log probability: {nats(nll.full)} full, {nats(nll.windowed)} "
            f"last {nll.window}; perplexity, e to loss.",
        ):
            self.clear_then(frame)
            self.play(GrowFromEdge(bars[0], LEFT), FadeIn(ends[0]), run_time=1.0)  # the baseline
            self.when_said("last", Indicate(names[1], color=theme.WARNING, scale_factor=1.0), run_time=1.0)
            self.when_said("evicting the first", FadeIn(evicted, shift=0.2 * DOWN), run_time=0.6)
            gloss = math(
                rf"\text{{perplexity}} = e^{{\,\text{{loss}}}} = e^{{{nats(nll.full)}}} \approx {full}",
                color=theme.KEY,
            )
            gloss.move_to([theme.SAFE_RIGHT, evicted.get_y(), 0], aligned_edge=RIGHT)
            self.when_said(
                "perplexity", FadeIn(gloss), Indicate(ends[0][0], color=theme.KEY, scale_factor=1.0)
            )
            self.until_said("jumps")
            self.play(GrowFromEdge(bars[1], LEFT), FadeIn(ends[1]), run_time=1.2)
        kept = self.cache_line(f"the first {nll.sinks} tokens are kept: the sinks", theme.VALUE)
        note = self.cache_line("ours: absolute positions; StreamingLLM renumbers", theme.TEXT)
        source = label("StreamingLLM: Xiao et al., 2023", small=True, color=theme.MUTED)
        source.next_to(note, DOWN, buff=0.2, aligned_edge=LEFT)
        with self.beat(
            "sink-window",
            f"Keep the first {nll.sinks} too, as sinks: it falls back to {with_sinks}, as the Streaming "
            "L L M paper found.",
            shows=f"A third bar, {nats(nll.with_sinks)} nats. Caveat: ours keeps positions; Streaming L L M "
            "renumbers them.",
        ):
            self.until_said("Keep the first")
            self.play(FadeOut(evicted), FadeOut(gloss), run_time=0.3)  # one line at a time
            self.play(FadeIn(kept), Indicate(names[2], color=theme.VALUE, scale_factor=1.0), run_time=1.0)
            self.until_said("falls back")
            self.play(GrowFromEdge(bars[2], LEFT), FadeIn(ends[2]), run_time=1.2)
            self.when_said("Streaming", FadeIn(source), run_time=0.6)
            self.hold(max(0.0, self.speech_left() - 1.2))  # near the end: the note says how ours differs
            self.play(FadeOut(kept), run_time=0.3)
            self.play(FadeIn(note), run_time=0.6)
            self.hold(self.speech_left() + 1.2)  # read after the voice stops

    @staticmethod
    def cache_line(text: str, colour: str) -> Mobject:
        """What the cache keeps, in one line over the bars (one at a time)."""
        return label(text, color=colour).move_to([theme.SAFE_LEFT, 2.65, 0], aligned_edge=LEFT)

    @staticmethod
    def loss_bars(losses: Sequence[float], window: int, sinks: int) -> tuple[VGroup, VGroup, VGroup, VGroup]:
        """Three bars of mean loss, one a row: (axes and titles; the row names; the bars; their readouts)."""
        nll = real_eviction()
        top = int(np.ceil(max(losses) + 0.5))
        axes = quiet_axes((0, top), (0, 3), width=5.2, height=3.9)
        axes.move_to([-1.9, -2.0, 0], aligned_edge=DOWN + LEFT)
        titles = axis_labels(axes, "mean loss per token (nats)", x_ticks=tuple(range(top + 1)))
        text = label(f"a {nll.tokens}-token passage on attention; loss from token {nll.start} on", small=True)
        titles.add(text.set_color(theme.MUTED).move_to([0, theme.SAFE_TOP, 0], aligned_edge=UP))
        colours = (theme.KEY, theme.WARNING, theme.VALUE)
        names = ("full cache", f"last {window}", f"{sinks} sinks + last {window}")
        bars, ends, rows = VGroup(), VGroup(), VGroup()
        for i, (loss, colour, name) in enumerate(zip(losses, colours, names, strict=True)):
            (start,), (stop,) = to_scene(axes, 0.0, 2.5 - i), to_scene(axes, loss, 2.5 - i)
            bar = Rectangle(width=stop[0] - start[0], height=0.6, color=colour, fill_opacity=0.7)
            bars.add(bar.move_to(start, aligned_edge=LEFT))
            readout = VGroup(
                label(f"perplexity {perplexity(loss)}", color=colour),
                label(f"{nats(loss)} nats", small=True, color=theme.TEXT),
            ).arrange(DOWN, buff=0.08, aligned_edge=LEFT)
            ends.add(readout.next_to(bar, RIGHT, buff=0.2))
            rows.add(label(name, color=theme.TEXT).next_to(start, LEFT, buff=0.3))
        return VGroup(axes, titles, rows), rows, bars, ends
