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
from scenes.kit.flow import flow_words
from scenes.kit.narration import Spoken
from scenes.kit.plots import axis_labels, curve, quiet_axes, to_scene
from scenes.kit.widgets import BarPanel, label, math, wrapped

__all__ = ["KVCacheGrowth"]

LEFT_X = theme.SAFE_LEFT + 0.75  # where cached position 1 starts; k and v are named left of it
TEXT_Y = theme.SAFE_TOP - 0.05  # top of the generated text
LABEL_H, BAR_H, SIDE, GAP = 0.45, 0.8, 0.48, 0.06  # a head's name, weight bars, key and value boxes
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
            self.fade_in(self.grid, self.grid_title, *self.text[: self.n_prompt])
            self.until_said(spoken, "The causal mask")
            self.light_prompt_rows()
        with self.beat("caches", "Two heads cache every position's key and value."):
            self.play(FadeOut(self.grid), FadeOut(self.grid_title), run_time=0.6)
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
    @property
    def col(self) -> float:
        """Width of one cached position's column."""
        return min(1.15, (theme.SAFE_RIGHT - LEFT_X) / len(self.words))

    def column_x(self, i: int) -> float:
        """Scene x of cached position i."""
        return LEFT_X + (i + 0.5) * self.col

    def kv_column(self, i: int, y: float) -> VGroup:
        """A key box over a value box for position i."""
        side = min(SIDE * self.fit, 0.8 * self.col)
        k = Square(side_length=side, color=theme.KEY, fill_opacity=0.6).move_to([self.column_x(i), y, 0])
        v = Square(side_length=side, color=theme.VALUE, fill_opacity=0.6).next_to(k, DOWN, buff=GAP)
        return VGroup(k, v)

    def plan_rows(self, top: float) -> None:
        """Stack the two heads (name, weight bars, key and value boxes) and the warning under ``top``.

        At full size when the generated text takes one line; shrunk together
        (never the text) when a lecturer's longer words take more.
        """
        fixed, scalable = 3 * LABEL_H + 8 * GAP, 2 * (BAR_H + 2 * SIDE + 0.15)
        self.fit = min(1.4, (top - theme.SAFE_BOTTOM - fixed) / scalable)
        bar, side = BAR_H * self.fit, min(SIDE * self.fit, 0.8 * self.col)
        self.label_ys, self.bar_ys, self.key_ys = [], [], []
        y = top
        for _head in (0, 1):
            self.label_ys.append(y - LABEL_H / 2)
            self.bar_ys.append(y - LABEL_H - GAP - bar / 2)
            self.key_ys.append(y - LABEL_H - 2 * GAP - bar - side / 2)
            y -= LABEL_H + bar + 2 * side + 4 * GAP + 0.15 * self.fit
        self.warn_y = y - LABEL_H / 2

    def mask_grid(self) -> VGroup:
        """The causal mask as a T x T grid (filled: may attend), large on the left."""
        n, allowed = len(self.words), causal_mask(len(self.words))
        cell = min(0.5, 5.0 / n)
        grid = VGroup()
        for i in range(n):
            for j in range(n):
                sq = Square(
                    side_length=cell,
                    stroke_width=1.2,
                    stroke_color=theme.MUTED,
                    fill_color=theme.WEIGHT if allowed[i, j] else theme.BACKGROUND,
                    fill_opacity=0.0,
                )
                grid.add(sq.move_to([(j - n / 2 + 0.5) * cell, -(i - n / 2 + 0.5) * cell, 0]))
        top = self.text.get_bottom()[1] - 0.3
        return grid.move_to([-2.6, (top + theme.SAFE_BOTTOM) / 2, 0]).scale_to_fit_height(
            min(grid.height, top - theme.SAFE_BOTTOM)
        )

    def build_prompt(self) -> None:
        """The text being generated, the mask, the two heads' caches holding the prompt."""
        self.text = flow_words(self.words, width=theme.SAFE_RIGHT - theme.SAFE_LEFT, max_lines=2)
        self.text.move_to([theme.SAFE_LEFT, TEXT_Y, 0], aligned_edge=UP + LEFT)
        self.plan_rows(self.text.get_bottom()[1] - 0.2)
        self.grid = self.mask_grid()
        self.grid_title = VGroup(
            label("causal mask"),
            label("row: query t", small=True, color=theme.MUTED),
            label("column: key i", small=True, color=theme.MUTED),
            label("lit: i ≤ t", small=True, color=theme.WEIGHT),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        self.grid_title.next_to(self.grid, RIGHT, buff=0.8).align_to(self.grid, UP)
        self.columns: dict[int, list[VGroup]] = {0: [], 1: []}
        self.head_labels = VGroup(
            *(
                label(name, color=theme.MUTED).move_to([theme.SAFE_LEFT, y, 0], aligned_edge=LEFT)
                for name, y in zip(("uniform head", "previous-token head"), self.label_ys, strict=True)
            )
        )
        self.prompt: list[VGroup] = []
        for h, y in enumerate(self.key_ys):
            for i in range(self.n_prompt):
                self.columns[h].append(self.kv_column(i, y))
                self.prompt.append(self.columns[h][-1])
        self.legend = VGroup()
        for y in self.key_ys:
            key, value = self.columns[0][0]
            self.legend.add(
                math(r"k", color=theme.KEY).move_to([theme.SAFE_LEFT + 0.3, y, 0]),
                math(r"v", color=theme.VALUE).move_to([theme.SAFE_LEFT + 0.3, y - key.height - 0.06, 0]),
            )
        self.bars: dict[int, BarPanel] = {}

    def light_prompt_rows(self) -> None:
        """Light the prompt's rows of the mask one after another."""
        n = len(self.words)
        rows = [VGroup(*self.grid[t * n : t * n + t + 1]) for t in range(self.n_prompt)]
        fills = [row.animate.set_fill(opacity=0.85) for row in rows]
        self.play(LaggedStart(*fills, lag_ratio=0.6), run_time=min(0.6 * self.n_prompt, 3.0))

    def weight_bars(self, h: int, t: int) -> BarPanel:
        """Bars over the cached columns: head h's weights for query t."""
        w = self.weights[t][h]
        width = self.col * len(w)
        panel = BarPanel(
            w,
            width=width,
            height=BAR_H * self.fit,
            color=theme.WEIGHT,
            show_index=False,
            fill_ratio=0.6,
            stepped=False,
        )
        return panel.move_to([LEFT_X + width / 2, self.bar_ys[h], 0])

    def step(self, t: int) -> None:
        """Generate token t: append (k, v) to both caches, show both heads' weights for the new query."""
        new_cols = [self.kv_column(t, y) for y in self.key_ys]
        for h in (0, 1):
            self.columns[h].append(new_cols[h])
        bars = [self.weight_bars(h, t) for h in (0, 1)]
        old = [self.bars[h] for h in (0, 1) if h in self.bars]
        self.play(
            FadeIn(self.text[t]),
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
        key_box = self.columns[0][0][0]
        box = Rectangle(width=1.8, height=1.1, color=theme.VALUE, fill_opacity=0.5)
        box.move_to(top, aligned_edge=LEFT).set_y(self.key_ys[0] - (key_box.height + GAP) / 2)
        tag = math(r"\tfrac{1}{t}\sum_i v_i", size=theme.READOUT_SIZE).move_to(box)
        summary = VGroup(box, tag)
        ok = all(self.summary_matches)
        note = label(f"same output at every step: {'yes' if ok else 'no'}", color=theme.MUTED)
        note.next_to(box, RIGHT, buff=0.5)
        warn = label("cannot collapse: every query reweights old entries", color=theme.WARNING)
        warn.move_to([theme.SAFE_LEFT, self.warn_y, 0], aligned_edge=LEFT)
        same = "with the same output at every step" if ok else "but not always the same output"
        with self.beat(
            "uniform-sum",
            f"Uniform weights ignore the query, so that cache folds into one running sum, {same}.",
        ) as spoken:
            self.play(
                ReplacementTransform(top, summary),
                FadeOut(self.bars[0]),
                FadeOut(self.legend[:2]),
                run_time=2.0,
            )
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
        axes = quiet_axes((0, 4096), (0, 2.2), width=10.0, height=4.3).move_to([0.4, -0.05, 0])
        titles = axis_labels(
            axes,
            "tokens in context",
            "cache size (GiB)",
            x_ticks=(0, 1024, 2048, 3072, 4096),
            y_ticks=(1, 2),
        )
        raw_line = curve(axes, tokens, gib, color=theme.KEY, width=5)
        sum_line = curve(axes, tokens, flat, color=theme.VALUE, width=5)
        per_token = kv_cache_bytes(**MODEL, seq_len=1) // 1024
        raw_tag = label(f"raw KV cache: {per_token} KiB per token", color=theme.KEY)
        raw_tag.move_to(to_scene(axes, 0, 1.9)[0] + 0.4 * RIGHT, aligned_edge=LEFT)
        sum_tag = label(
            f"running sum: {running_summary_bytes(**MODEL) // 1024} KiB, constant", color=theme.VALUE
        )
        sum_tag.next_to(to_scene(axes, 4096, 0.0)[0], UP, buff=0.25).align_to(axes, RIGHT)
        model = label("32 layers, 32 KV heads, head dim 128, fp16", small=True, color=theme.MUTED)
        model.move_to([0, theme.SAFE_TOP - 0.2, 0])
        return VGroup(axes, titles, model), VGroup(raw_line, raw_tag), VGroup(sum_line, sum_tag)

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
            cells = VGroup(*(self.slot(b * block + c < seq, 0.33) for c in range(block)))
            blocks.add(cells.arrange_in_grid(rows=4, cols=4, buff=0.05))
        blocks.arrange(RIGHT, buff=0.35).move_to(1.05 * UP)
        text = wrapped(
            f"{seq} tokens in {paged.n_blocks} blocks of {block}: "
            f"{paged.wasted_slots} empty slots, all in the last block",
            width=theme.SAFE_RIGHT - theme.SAFE_LEFT - 2.0,
        ).next_to(blocks, UP, buff=0.35)
        return VGroup(blocks, text)

    def sink_row(self) -> VGroup:
        """24 tokens, the first 4 and the last 8 kept, with its caption."""
        keep = set(streaming_keep(24, 4, 8).tolist())
        row = VGroup(*(self.slot(i in keep, 0.44) for i in range(24))).arrange(RIGHT, buff=0.08)
        row.move_to(2.2 * DOWN)
        text = label(f"attention sinks: first 4 and last 8 of 24 kept ({len(keep)} slots)")
        return VGroup(row, text.next_to(row, UP, buff=0.35))

    @staticmethod
    def slot(filled: bool, side: float) -> Square:
        """One cache slot: filled (holds a token's key and value) or empty."""
        return Square(
            side_length=side,
            stroke_width=1,
            stroke_color=theme.MUTED,
            fill_color=theme.KEY if filled else theme.BACKGROUND,
            fill_opacity=0.8,
        )

    @staticmethod
    def summary_text(text: str) -> VGroup:
        """One line of the closing still, left-aligned in the text column."""
        return wrapped(text, width=theme.SAFE_RIGHT - theme.SAFE_LEFT - 4.0, align_left=True)

    def show_summary(self, spoken: Spoken) -> None:
        """Closing still (the poster): which patterns fit a running sum and which need the raw cache."""
        self.play(*(FadeOut(m) for m in self.mobjects), run_time=0.6)
        box = Rectangle(width=1.8, height=1.1, color=theme.VALUE, fill_opacity=0.5)
        uniform = VGroup(box, math(r"\tfrac{1}{t}\sum_i v_i", size=theme.READOUT_SIZE).move_to(box))
        columns = VGroup(*(self.kv_column(i, 0.0) for i in range(5))).arrange(RIGHT, buff=0.12)
        per_token = kv_cache_bytes(**MODEL, seq_len=1) // 1024
        sum_kib = running_summary_bytes(**MODEL) // 1024
        rows = VGroup(
            VGroup(uniform, self.summary_text(f"uniform weights: one running sum, {sum_kib} KiB")),
            VGroup(columns, self.summary_text(f"query-dependent weights: all k, v, {per_token} KiB a token")),
        )
        for row in rows:
            row[0].set_x(theme.SAFE_LEFT + 0.2 + row[0].width / 2)
            row[1].move_to([theme.SAFE_LEFT + 3.9, row[0].get_y(), 0], aligned_edge=LEFT)
        rows.arrange(DOWN, buff=0.9, aligned_edge=LEFT).move_to(0.2 * DOWN)
        heading = label("why the cache stores raw vectors", size=theme.TITLE_SIZE).move_to(2.9 * UP)
        self.fade_in(heading, rows[0])
        self.until_said(spoken, "Attention's weights")
        self.fade_in(rows[1])
