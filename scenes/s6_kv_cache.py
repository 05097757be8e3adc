"""Section 6: causal masking and the KV cache — why the cache stores raw keys and values.

Render with ``manim -qh scenes/s6_kv_cache.py KVCacheGrowth``.
"""

from __future__ import annotations

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
    Rectangle,
    ReplacementTransform,
    Square,
    VGroup,
)

from attnmath import (
    KVCache,
    RunningSummary,
    causal_mask,
    kv_cache_bytes,
    paged_kv_blocks,
    previous_token_projections,
    running_summary_bytes,
    streaming_keep,
)
from scenes import theme
from scenes.base import LectureScene
from scenes.plots import curve, quiet_axes, to_scene
from scenes.tokens import TokenRow
from scenes.widgets import BarPanel, fit_width, label, math

__all__ = ["KVCacheGrowth"]

CELL = 0.26
COL = 0.8
CACHE_X0 = -3.0
HEAD_YS = (1.35, -1.45)
MODEL = {"n_layers": 32, "n_kv_heads": 32, "head_dim": 128}


class KVCacheGrowth(LectureScene):
    """Decode token by token: a uniform head collapses to a running sum, a previous-token head cannot."""

    section = "Section 6"
    title = "Causal masking and the KV cache"

    words: ClassVar[tuple[str, ...]] = ("The", "cat", "sat", "on", "the", "mat", "and", "then", "slept", ".")
    n_prompt: ClassVar[int] = 4
    strength: ClassVar[float] = 6.0
    seed: ClassVar[int] = 6

    def construct(self) -> None:
        """Storyboard of the section."""
        self.decode()
        self.show_title_card()
        self.show_mask_and_cache()
        for t in range(self.n_prompt, len(self.words)):
            self.step(t)
        self.collapse_uniform_head()
        self.show_memory()
        self.show_paging_and_sinks()
        self.show_summary()

    # --- the numbers: real decoding through two caches ----------------------------
    def decode(self) -> None:
        """Run both heads through KVCache step by step; record every step's weights."""
        n = len(self.words)
        values = np.random.default_rng(self.seed).normal(size=(n, 2))
        w_q, w_k = previous_token_projections(n, self.strength)
        uniform, pointer, summary = KVCache(n, 2), KVCache(n, 2), RunningSummary(2)
        self.weights: list[tuple[np.ndarray, np.ndarray]] = []
        self.summary_matches: list[bool] = []
        for t in range(n):
            e = np.eye(n)[t]
            uniform.append(e @ w_k, values[t])
            pointer.append(e @ w_k, values[t])
            summary.append(values[t])
            flat = uniform.attend(np.zeros(n))  # a query that ignores content
            self.weights.append((flat.weights, pointer.attend(e @ w_q).weights))
            self.summary_matches.append(bool(np.allclose(flat.output, summary.read())))
        self.cache_bytes = (uniform.nbytes, summary.nbytes)

    # --- drawing -----------------------------------------------------------------
    def column_x(self, i: int) -> float:
        """Scene x of cached position i."""
        return CACHE_X0 + (i + 0.5) * COL

    def kv_column(self, i: int, y: float) -> VGroup:
        """A key box over a value box for position i."""
        k = Square(side_length=0.36, color=theme.KEY, fill_opacity=0.6).move_to([self.column_x(i), y, 0])
        v = Square(side_length=0.36, color=theme.VALUE, fill_opacity=0.6).next_to(k, DOWN, buff=0.06)
        return VGroup(k, v)

    def mask_grid(self) -> VGroup:
        """The causal mask as a T x T grid (filled: may attend)."""
        n, allowed = len(self.words), causal_mask(len(self.words))
        grid = VGroup()
        for i in range(n):
            for j in range(n):
                sq = Square(
                    side_length=CELL,
                    stroke_width=0.8,
                    stroke_color=theme.MUTED,
                    fill_color=theme.WEIGHT if allowed[i, j] else theme.BACKGROUND,
                    fill_opacity=0.0,
                )
                grid.add(sq.move_to([-5.2 + (j - n / 2 + 0.5) * CELL, 0.0 - (i - n / 2 + 0.5) * CELL, 0]))
        return grid

    def show_mask_and_cache(self) -> None:
        """Prompt tokens, the empty mask, the two heads' caches holding the prompt."""
        self.grid = self.mask_grid()
        grid_title = label("causal mask", size=theme.SMALL_SIZE).next_to(self.grid, UP, buff=0.2)
        self.columns: dict[int, list[VGroup]] = {0: [], 1: []}
        head_names = ("uniform head", "previous-token head")
        self.head_labels = VGroup(
            *(
                label(name, size=theme.SMALL_SIZE, color=theme.MUTED).move_to(
                    [CACHE_X0, y + 1.38, 0], aligned_edge=LEFT
                )
                for name, y in zip(head_names, HEAD_YS, strict=True)
            )
        )
        n = len(self.words)
        tokens = TokenRow(self.words, width=COL * n, size=theme.SMALL_SIZE)
        self.word_row = tokens.move_to([CACHE_X0 + COL * n / 2, 3.2, 0]).boxes
        prompt = []
        for h, y in enumerate(HEAD_YS):
            for i in range(self.n_prompt):
                self.columns[h].append(self.kv_column(i, y))
                prompt.append(self.columns[h][-1])
        for i in range(self.n_prompt):
            self.fill_mask_row(i)
        legend = VGroup(
            math(r"k_i", color=theme.KEY, size=theme.READOUT_SIZE),
            math(r"v_i", color=theme.VALUE, size=theme.READOUT_SIZE),
        ).arrange(DOWN, buff=0.15)
        self.legend = legend.move_to([self.column_x(len(self.words)) + 0.2, HEAD_YS[0] - 0.2, 0])
        self.bars: dict[int, BarPanel] = {}
        self.reveal(
            self.grid,
            grid_title,
            self.head_labels,
            self.legend,
            *self.word_row[: self.n_prompt],
            *prompt,
            caption="A four-word prompt. Each position may attend only to itself and earlier positions; "
            "two heads cache its keys and values.",
            hold=3.0,
        )

    def fill_mask_row(self, t: int) -> None:
        """Light up row t of the mask (what query t may see)."""
        n = len(self.words)
        for j in range(t + 1):
            self.grid[t * n + j].set_fill(opacity=0.85)

    def weight_bars(self, h: int, t: int) -> BarPanel:
        """Bars over the cached columns: head h's weights for query t."""
        w = self.weights[t][h]
        width = COL * len(w)
        panel = BarPanel(w, width=width, height=0.75, color=theme.WEIGHT, show_index=False, fill_ratio=0.6)
        return panel.move_to([CACHE_X0 + width / 2, HEAD_YS[h] + 0.72, 0])

    def step(self, t: int) -> None:
        """Generate token t: append (k, v) to both caches, show both heads' weights for the new query."""
        new_cols = [self.kv_column(t, y) for y in HEAD_YS]
        for h in (0, 1):
            self.columns[h].append(new_cols[h])
        bars = [self.weight_bars(h, t) for h in (0, 1)]
        old = [self.bars[h] for h in (0, 1) if h in self.bars]
        self.fill_mask_row(t)
        first = t == self.n_prompt
        text = (
            "Each new token appends one key and one value to the cache, and its query weighs every cached "
            "position. The uniform head spreads weight evenly; the other points at the previous token."
            if first
            else f"Step {t + 1}: the previous-token head moves its weight to '{self.words[t - 1]}'."
        )
        self.play(
            FadeIn(self.word_row[t]),
            *(FadeIn(c, shift=0.2 * LEFT) for c in new_cols),
            *(FadeOut(b) for b in old),
            *(FadeIn(b) for b in bars),
            run_time=1.0,
            subcaption=text,
            subcaption_duration=4.0 if first else 2.0,
        )
        self.bars = dict(enumerate(bars))
        self.wait(3.0 if first else 1.0)
        self.slide_break()

    def collapse_uniform_head(self) -> None:
        """The uniform head needs only a running sum; the pointer head needs its whole cache."""
        top = VGroup(*self.columns[0])
        box = Rectangle(width=1.3, height=0.8, color=theme.VALUE, fill_opacity=0.5).move_to(
            [self.column_x(1), HEAD_YS[0], 0]
        )
        tag = math(r"\tfrac{1}{t}\sum_i v_i", size=theme.READOUT_SIZE).move_to(box)
        summary = VGroup(box, tag)
        ok = all(self.summary_matches)
        note = label(
            f"same output at every step: {'yes' if ok else 'no'}", size=theme.SMALL_SIZE, color=theme.MUTED
        ).next_to(box, RIGHT, buff=0.4)
        warn = label(
            "cannot collapse: every query reweights old entries",
            size=theme.SMALL_SIZE,
            color=theme.WARNING,
        )
        warn.move_to([CACHE_X0, HEAD_YS[1] - 0.95, 0], aligned_edge=LEFT)
        self.play(
            ReplacementTransform(top, summary),
            FadeOut(self.bars[0]),
            FadeIn(note),
            run_time=1.5,
            subcaption="Uniform weights ignore the query, so that head's cache collapses to a running sum "
            "of constant size.",
            subcaption_duration=4.0,
        )
        self.wait(2.5)
        self.play(
            FadeIn(warn),
            run_time=0.8,
            subcaption="The previous-token head reweights old entries differently for every query: "
            "it needs the raw keys and values.",
            subcaption_duration=4.0,
        )
        self.wait(3.2)
        self.play(*(FadeOut(m) for m in self.mobjects), run_time=0.8)

    def show_memory(self) -> None:
        """Raw cache bytes grow linearly with tokens; the running sum stays flat."""
        tokens = np.arange(0, 4097, 64)
        gib = np.array([kv_cache_bytes(**MODEL, seq_len=int(n)) for n in tokens]) / 2**30
        flat = np.full_like(gib, running_summary_bytes(**MODEL) / 2**30)
        axes = quiet_axes((0, 4096), (0, 2.2), width=8.0, height=3.8).move_to([-0.6, 0.1, 0])
        raw_line = curve(axes, tokens, gib, color=theme.KEY, width=4)
        sum_line = curve(axes, tokens, flat, color=theme.VALUE, width=4)
        per_token = kv_cache_bytes(**MODEL, seq_len=1) // 1024
        raw_tag = label(
            f"raw KV cache: {per_token} KiB per token, {gib[-1]:.2f} GiB at 4096",
            size=theme.SMALL_SIZE,
            color=theme.KEY,
        )
        raw_tag.next_to(to_scene(axes, 4096, gib[-1])[0], UP, buff=0.15).shift(1.2 * LEFT)
        sum_tag = label(
            f"running sum: {running_summary_bytes(**MODEL) // 1024} KiB, constant",
            size=theme.SMALL_SIZE,
            color=theme.VALUE,
        )
        sum_tag.next_to(to_scene(axes, 4096, 0.0)[0], UP, buff=0.25).shift(1.5 * LEFT)
        ticks = VGroup(
            *(
                label(f"{n}", size=theme.SMALL_SIZE, color=theme.MUTED).move_to(
                    to_scene(axes, n, 0)[0] + 0.3 * DOWN
                )
                for n in (0, 1024, 2048, 3072, 4096)
            ),
            *(
                label(f"{g} GiB", size=theme.SMALL_SIZE, color=theme.MUTED).next_to(
                    to_scene(axes, 0, g)[0], LEFT
                )
                for g in (1, 2)
            ),
        )
        x_title = label("tokens in context", size=theme.SMALL_SIZE).next_to(ticks, DOWN, buff=0.1)
        model = label(
            "32 layers, 32 KV heads, head_dim 128, fp16", size=theme.SMALL_SIZE, color=theme.MUTED
        ).move_to(3.15 * UP)
        self.play(Create(axes), FadeIn(ticks), FadeIn(x_title), FadeIn(model), run_time=1.0)
        self.play(
            Create(raw_line),
            Create(sum_line),
            FadeIn(raw_tag),
            FadeIn(sum_tag),
            run_time=2.0,
            subcaption="For a 7B-class model the raw cache costs half a megabyte per token and grows "
            "linearly; a running sum would not grow, but it only serves the uniform pattern.",
            subcaption_duration=6.0,
        )
        self.wait(4.0)
        self.slide_break()
        self.play(
            FadeOut(VGroup(axes, ticks, x_title, model, raw_line, sum_line, raw_tag, sum_tag)), run_time=0.8
        )

    def show_paging_and_sinks(self) -> None:
        """Coda: paged blocks (waste only in the last block) and an attention-sink window."""
        seq, block = 100, 16
        paged = paged_kv_blocks(seq, block)
        blocks = VGroup()
        for b in range(paged.n_blocks):
            cells = VGroup(
                *(
                    Square(
                        side_length=0.13,
                        stroke_width=0.5,
                        stroke_color=theme.MUTED,
                        fill_color=theme.KEY if b * block + c < seq else theme.BACKGROUND,
                        fill_opacity=0.8,
                    )
                    for c in range(block)
                )
            )
            blocks.add(cells.arrange_in_grid(rows=4, cols=4, buff=0.03))
        blocks.arrange(RIGHT, buff=0.2).move_to(1.5 * UP)
        paged_text = label(
            f"paged: {seq} tokens in {paged.n_blocks} blocks of {block}; "
            f"{paged.wasted_slots} empty slots, all in the last block",
            size=theme.SMALL_SIZE,
        ).next_to(blocks, UP, buff=0.3)
        keep = set(streaming_keep(24, 4, 8).tolist())
        row = (
            VGroup(
                *(
                    Square(
                        side_length=0.3,
                        stroke_width=1,
                        stroke_color=theme.MUTED,
                        fill_color=theme.KEY if i in keep else theme.BACKGROUND,
                        fill_opacity=0.8,
                    )
                    for i in range(24)
                )
            )
            .arrange(RIGHT, buff=0.06)
            .move_to(1.0 * DOWN)
        )
        sink_text = label(
            f"attention sinks: keep the first 4 and the last 8 of 24 tokens ({len(keep)} kept)",
            size=theme.SMALL_SIZE,
        ).next_to(row, UP, buff=0.3)
        for mob in (paged_text, sink_text):
            fit_width(mob, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        self.reveal(
            blocks,
            paged_text,
            caption="Paged allocation keeps the cache in fixed blocks, so memory is "
            "wasted only in each sequence's last block.",
            hold=3.0,
        )
        self.reveal(
            row,
            sink_text,
            caption="Attention-sink caches keep the first tokens and a recent window, "
            "trading exact recall of the middle for bounded memory.",
            hold=4.0,
        )

    def show_summary(self) -> None:
        """Closing still (the poster): which patterns fit a running sum and which need the raw cache."""
        self.play(*(FadeOut(m) for m in self.mobjects), run_time=0.6)
        box = Rectangle(width=1.3, height=0.8, color=theme.VALUE, fill_opacity=0.5)
        uniform = VGroup(box, math(r"\tfrac{1}{t}\sum_i v_i", size=theme.READOUT_SIZE).move_to(box))
        columns = VGroup(*(self.kv_column(i, 0.0) for i in range(6))).arrange(RIGHT, buff=0.12)
        per_token = kv_cache_bytes(**MODEL, seq_len=1) // 1024
        rows = (
            VGroup(
                VGroup(
                    uniform,
                    label(
                        f"uniform weights: one running sum, {running_summary_bytes(**MODEL) // 1024} KiB "
                        "whatever the length",
                        size=theme.SMALL_SIZE,
                    ),
                ).arrange(RIGHT, buff=0.5),
                VGroup(
                    columns,
                    label(
                        f"query-dependent weights: raw keys and values, {per_token} KiB per token",
                        size=theme.SMALL_SIZE,
                    ),
                ).arrange(RIGHT, buff=0.5),
            )
            .arrange(DOWN, aligned_edge=LEFT, buff=0.8)
            .move_to(0.3 * UP)
        )
        rows[0][1].align_to(rows[1][1], LEFT)  # the two explanations start in one column
        fit_width(rows, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        heading = label("why the cache stores raw vectors", size=theme.LABEL_SIZE).move_to(2.9 * UP)
        self.reveal(
            heading,
            rows,
            caption="A summary that ignores the query can be accumulated; attention's weights depend on the "
            "query, so the cache keeps every key and value.",
            hold=4.0,
        )
