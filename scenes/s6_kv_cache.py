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
    Indicate,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    Square,
    VGroup,
    linear,
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
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.narration import Spoken
from scenes.kit.plots import curve, quiet_axes, to_scene
from scenes.kit.tokens import TokenRow
from scenes.kit.widgets import BarPanel, fit_width, label, math

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
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.decode()
        with self.beat("title", "Section six. Causal masking and the k v cache."):
            self.title_card()
        self.build_prompt()
        with self.beat(
            "mask",
            f"A prompt of {self.n_prompt} token{'s' if self.n_prompt > 1 else ''}. "
            "The causal mask lets each position see only itself and earlier ones.",
        ) as spoken:
            self.fade_in(self.grid, self.grid_title, *self.word_row[: self.n_prompt])
            self.until_said(spoken, "The causal mask")
            self.light_prompt_rows()
        with self.beat("caches", "Two heads cache every position's key and value."):
            self.fade_in(self.head_labels, self.legend, *self.prompt)
        steps = list(range(self.n_prompt, len(self.words)))
        half = (len(steps) + 1) // 2
        with self.beat(
            "append",
            "Now generate. Each new token appends a key and a value, "
            "and its query weighs every cached position.",
        ):
            self.decode_steps(steps[:half])
        with self.beat(
            "two-heads",
            "The uniform head weighs them all equally; the other head puts its weight on the previous token.",
        ):
            self.decode_steps(steps[half:])
        self.collapse_uniform_head()
        self.show_memory()
        self.show_paging_and_sinks()
        with self.beat(
            "summary",
            "A summary that ignores the query can be accumulated. Attention's weights depend on the query, "
            "so the cache keeps every key and value.",
        ) as spoken:
            self.show_summary(spoken)

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

    def build_prompt(self) -> None:
        """Prompt tokens, the mask with the prompt's rows lit, the two heads' caches holding the prompt."""
        self.grid = self.mask_grid()
        self.grid_title = label("causal mask", size=theme.SMALL_SIZE).next_to(self.grid, UP, buff=0.2)
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
        self.prompt: list[VGroup] = []
        for h, y in enumerate(HEAD_YS):
            for i in range(self.n_prompt):
                self.columns[h].append(self.kv_column(i, y))
                self.prompt.append(self.columns[h][-1])
        legend = VGroup(
            math(r"k_i", color=theme.KEY, size=theme.READOUT_SIZE),
            math(r"v_i", color=theme.VALUE, size=theme.READOUT_SIZE),
        ).arrange(DOWN, buff=0.15)
        self.legend = legend.move_to([self.column_x(len(self.words)) + 0.2, HEAD_YS[0] - 0.2, 0])
        self.bars: dict[int, BarPanel] = {}

    def light_prompt_rows(self) -> None:
        """Light the prompt's rows of the mask one after another."""
        n = len(self.words)
        rows = [VGroup(*self.grid[t * n : t * n + t + 1]) for t in range(self.n_prompt)]
        fills = [row.animate.set_fill(opacity=0.85) for row in rows]
        self.play(LaggedStart(*fills, lag_ratio=0.6), run_time=min(0.6 * self.n_prompt, 3.0))

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
        self.play(
            FadeIn(self.word_row[t]),
            *(FadeIn(c, shift=0.2 * LEFT) for c in new_cols),
            *(FadeOut(b) for b in old),
            *(FadeIn(b) for b in bars),
            run_time=1.0,
        )
        self.bars = dict(enumerate(bars))

    def decode_steps(self, steps: list[int]) -> None:
        """Generate the tokens ``steps``, one every 2 to 3 seconds, spread over the narration."""
        pace = min(max(self.speech_left() / max(len(steps), 1), 2.0), 3.0)
        for k, t in enumerate(steps):
            if k:
                self.hold(pace - 1.0)
            self.step(t)

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
        same = "with the same output at every step" if ok else "but not always the same output"
        with self.beat(
            "uniform-sum",
            f"Uniform weights ignore the query, so that cache folds into one running sum, {same}.",
        ) as spoken:
            self.play(ReplacementTransform(top, summary), FadeOut(self.bars[0]), run_time=2.0)
            self.until_said(spoken, "same output")
            self.play(FadeIn(note), run_time=0.8)
        with self.beat(
            "raw-cache",
            "The previous token head cannot fold: each query reweights old entries, "
            "so it needs the raw keys and values.",
        ) as spoken:
            self.play(Indicate(VGroup(*self.columns[1]), color=theme.WARNING, scale_factor=1.1), run_time=1.5)
            self.until_said(spoken, "each query")
            self.play(FadeIn(warn), run_time=0.8)

    def show_memory(self) -> None:
        """Raw cache bytes grow linearly with tokens; the running sum stays flat."""
        frame, raw, flat = self.memory_plot()
        per_token = kv_cache_bytes(**MODEL, seq_len=1) // 1024
        gib = kv_cache_bytes(**MODEL, seq_len=4096) / 2**30
        with self.beat(
            "memory-raw",
            f"For a seven billion parameter class model, the raw cache takes {per_token} kilobytes "
            f"per token: {gib:.0f} gigabytes at 4096 tokens, growing linearly.",
        ):
            self.play(*(FadeOut(m) for m in self.mobjects), run_time=0.8)
            self.play(Create(frame[0]), FadeIn(frame[1:]), run_time=1.0)
            self.play(Create(raw[0]), run_time=max(2.5, self.speech_left() - 2.0), rate_func=linear)
            self.play(FadeIn(raw[1]), run_time=0.8)
        with self.beat(
            "memory-sum", "A running sum would stay flat, but it only serves the uniform pattern."
        ):
            self.play(Create(flat[0]), FadeIn(flat[1]), run_time=2.0)
        self.leaving = VGroup(frame, raw, flat)

    def memory_plot(self) -> tuple[VGroup, VGroup, VGroup]:
        """(axes with ticks and titles; raw cache line and tag; running-sum line and tag)."""
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
        return VGroup(axes, ticks, x_title, model), VGroup(raw_line, raw_tag), VGroup(sum_line, sum_tag)

    def show_paging_and_sinks(self) -> None:
        """Coda: paged blocks (waste only in the last block) and an attention-sink window."""
        with self.beat(
            "paging",
            "Paged allocation keeps the cache in fixed blocks, so only the last block has empty slots.",
        ):
            self.play(FadeOut(self.leaving), run_time=0.8)
            self.fade_in(self.paged_blocks())
        with self.beat(
            "sinks",
            "Attention sinks keep the first tokens and a recent window: bounded memory, "
            "but the middle is forgotten.",
        ):
            self.fade_in(self.sink_row())

    def paged_blocks(self) -> VGroup:
        """A 100-token sequence in blocks of 16 slots, with its caption."""
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
        text = label(
            f"paged: {seq} tokens in {paged.n_blocks} blocks of {block}; "
            f"{paged.wasted_slots} empty slots, all in the last block",
            size=theme.SMALL_SIZE,
        ).next_to(blocks, UP, buff=0.3)
        fit_width(text, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        return VGroup(blocks, text)

    def sink_row(self) -> VGroup:
        """24 tokens, the first 4 and the last 8 kept, with its caption."""
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
        text = label(
            f"attention sinks: keep the first 4 and the last 8 of 24 tokens ({len(keep)} kept)",
            size=theme.SMALL_SIZE,
        ).next_to(row, UP, buff=0.3)
        fit_width(text, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        return VGroup(row, text)

    def show_summary(self, spoken: Spoken) -> None:
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
        self.fade_in(heading, rows[0])
        self.until_said(spoken, "Attention's weights")
        self.fade_in(rows[1])
