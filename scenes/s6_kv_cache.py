"""Section 6: causal masking and the KV cache — why the cache stores raw keys and values.

Render with ``manim -qh scenes/s6_kv_cache.py KVCacheGrowth``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Brace,
    Circumscribe,
    Create,
    CurvedArrow,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    MathTex,
    Rectangle,
    Square,
    Text,
    TransformMatchingTex,
    VGroup,
)

from attnmath import (
    KVCache,
    RunningSummary,
    causal_mask,
    kv_cache_bytes,
    linear_state_bytes,
    previous_token_projections,
)
from drawing import theme
from drawing.flow import baseline_of, flow_words
from drawing.widgets import BarPanel, label, math, wrapped
from lecture.sections.s6_kv_cache import KVCacheParameters
from scenes.base import SAID, LectureScene
from scenes.s6_why_raw import MODEL, WhyRawCache

__all__ = ["KVCacheGrowth"]

LEFT_X = theme.SAFE_LEFT + 0.75  # where cached position 1 starts; k and v are named left of it
TEXT_Y = theme.SAFE_TOP - 0.05  # top of the generated text
LABEL_H, BAR_H, SIDE, GAP = 0.45, 0.8, 0.48, 0.06  # a head's name, weight bars, key and value boxes
SUM_SIZE = 44  # the running sum and its count: read at 640 pixels
VALUES = {"v_i": theme.VALUE}  # the sum's values in their role's colour


def as_text(words: Sequence[str]) -> str:
    """``words`` as the voice reads them: punctuation against the word before it."""
    return re.sub(r" (?=[.,;:!?])", "", " ".join(words))


def fit_word(word: str, width: float, color: str) -> Text:
    """``word`` as a small label, cut short with an ellipsis where it is wider than ``width``."""
    for n in range(len(word), 0, -1):
        mob = label(word[:n] + ("" if n == len(word) else "\u2026"), small=True, color=color)
        if mob.width <= width:
            return mob
    return mob


class KVCacheGrowth(WhyRawCache, LectureScene[KVCacheParameters]):
    """Decode token by token: a uniform head folds into a running sum; pointer heads need the raw cache."""

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.decode()
        self.title_beat()
        self.build_prompt()
        words, n_prompt = self.params.words, self.params.n_prompt
        with self.beat(
            "autoregressive",
            "Generation is autoregressive: each token is predicted from those before. "
            "The causal mask lets each query see only itself and earlier keys.",
            shows=f'After "{as_text(words[:n_prompt])}" comes "{words[n_prompt]}"; '
            f"then a {len(words)} by {len(words)} mask grid lights.",
        ):
            self.show_autoregressive()
            self.until_said("causal mask")
            self.show_mask()
        steps = list(range(n_prompt, len(words)))
        half = (len(steps) + 1) // 2
        with self.beat(
            "caches",
            "A decoder caches each token's key and value: under the causal mask, past ones never change, "
            "so new queries reuse them.",
            shows="Each new word, orange, adds key and value boxes and weight bars to two heads.",
        ):
            self.play(FadeOut(self.grid), run_time=0.6)
            self.fade_in(*self.text[: self.params.n_prompt], self.head_labels, self.legend, *self.prompt)
            self.decode_steps(steps[:half])
        with self.beat(
            "two-heads",
            "Take two heads: a uniform one weighs them equally; "
            "a previous-token one picks the token just before.",
            shows=f'Decoding reaches "{as_text(self.params.words).rstrip(".!?")}"; uniform bars shrink.',
        ):
            self.decode_steps(steps[half:])
        self.collapse_uniform_head()
        with self.beat(
            "subject-pointer",
            "The syntax head is harder: chased looks back at cat, then across at chased. "
            "Which entry it needs is known only when its query arrives.",
            shows=self.pointer_shows(),
        ):
            self.show_pointer()
        self.show_kernels()
        self.show_memory()
        self.pause_and_predict(
            self.question(),
            self.twice_the_tokens,
            shows="The raw-cache line flashes; a label shows the new figure.",
        )
        with self.beat(
            "summary",
            "So softmax attention keeps its raw cache, computing each query's statistic on demand.",
            shows=self.summary_shows(),
            ends_section=True,
        ):
            self.show_summary()

    # --- the numbers: real decoding through two caches ----------------------------
    def decode(self) -> None:
        """Run both heads through KVCache step by step; record every step's weights."""
        n = len(self.params.words)
        values = np.random.default_rng(self.params.seed).normal(size=(n, 2))
        w_q, w_k = previous_token_projections(n, self.params.strength)
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
        return min(1.15, (theme.SAFE_RIGHT - LEFT_X) / len(self.params.words))

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
        """The causal mask, T x T, its rows (queries) and columns (keys) named by the tokens."""
        n, allowed = len(self.params.words), causal_mask(len(self.params.words))
        rows = VGroup(*(label(w, small=True, color=theme.QUERY) for w in self.params.words))
        row_w = max(r.width for r in rows)
        cell_w = min(1.2, (theme.SAFE_RIGHT - theme.SAFE_LEFT - row_w - 0.2) / n)
        cell_h = min(0.5, (theme.SAFE_TOP - theme.SAFE_BOTTOM - 1.9) / n)
        cols = VGroup(*(fit_word(w, cell_w - 0.08, theme.KEY) for w in self.params.words))
        grid = VGroup()
        for i in range(n):
            for j in range(n):
                sq = Rectangle(width=cell_w, height=cell_h, stroke_width=1.2, stroke_color=theme.MUTED)
                sq.set_fill(theme.WEIGHT if allowed[i, j] else theme.BACKGROUND, opacity=0.0)
                grid.add(sq.move_to([j * cell_w, -i * cell_h, 0]))
        for i, r in enumerate(rows):
            r.next_to(grid[i * n], LEFT, buff=0.2)
        line = grid.get_top()[1] + 0.15  # the column words share one baseline
        for j, c in enumerate(cols):
            c.move_to([grid[j].get_x(), line + c.height / 2, 0])
            c.shift((line - baseline_of(c)) * UP)
        keys = label("columns: key tokens it may look at", small=True, color=theme.KEY).next_to(
            cols, UP, buff=0.12
        )
        queries = label("rows: the query, the current token", small=True, color=theme.QUERY)
        whole = VGroup(grid, rows, cols, keys.align_to(grid, LEFT))
        queries.next_to(grid, DOWN, buff=0.15).align_to(rows, LEFT)
        whole.add(queries)
        return whole.move_to(
            [(theme.SAFE_LEFT + theme.SAFE_RIGHT) / 2, (theme.SAFE_TOP + theme.SAFE_BOTTOM) / 2, 0]
        )

    def build_prompt(self) -> None:
        """The text being generated, the mask, the two heads' caches holding the prompt."""
        self.text = flow_words(self.params.words, width=theme.SAFE_RIGHT - theme.SAFE_LEFT, max_lines=2)
        self.text.move_to([theme.SAFE_LEFT, TEXT_Y, 0], aligned_edge=UP + LEFT)
        self.plan_rows(self.text.get_bottom()[1] - 0.2)
        self.grid = self.mask_grid()
        self.columns: dict[int, list[VGroup]] = {0: [], 1: []}
        self.head_labels = VGroup(
            *(
                label(name, color=theme.MUTED).move_to([theme.SAFE_LEFT, y, 0], aligned_edge=LEFT)
                for name, y in zip(("uniform head", "previous-token head"), self.label_ys, strict=True)
            )
        )
        self.prompt: list[VGroup] = []
        for h, y in enumerate(self.key_ys):
            for i in range(self.params.n_prompt):
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

    def show_autoregressive(self) -> None:
        """The prompt, a brace over what came before, and an arrow to the next token's slot."""
        width = theme.SAFE_RIGHT - theme.SAFE_LEFT - 1.0
        big = flow_words(
            self.params.words[: self.params.n_prompt + 1], width=width, size=theme.TITLE_SIZE, max_lines=2
        )
        big.move_to(0.8 * UP)
        prompt, nxt = VGroup(*big[:-1]), big[-1]
        brace = Brace(prompt, DOWN, color=theme.MUTED)
        ask = label("?", color=theme.QUERY, size=theme.TITLE_SIZE).move_to(nxt)
        arrow = CurvedArrow(brace.get_bottom() + 0.1 * DOWN, nxt.get_bottom() + 0.1 * DOWN, color=theme.QUERY)
        self.fade_in(prompt)
        self.play(Create(brace), run_time=0.6)
        self.play(Create(arrow), FadeIn(ask), run_time=1.0)
        self.hold(0.6)
        self.play(FadeOut(ask), FadeIn(nxt), run_time=0.8)
        self.play(FadeOut(VGroup(brace, arrow, big)), run_time=0.6)

    def show_mask(self) -> None:
        """The mask's grid; its rows light one after another, each up to its own column."""
        n = len(self.params.words)
        self.fade_in(self.grid, run_time=1.0)
        rows = [VGroup(*self.grid[0][t * n : t * n + t + 1]) for t in range(n)]
        fills = [row.animate.set_fill(opacity=0.85) for row in rows]
        self.play(LaggedStart(*fills, lag_ratio=0.5), run_time=max(self.speech_left() - 0.5, 2.0))

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
        last = [self.text[t - 1].animate.set_color(theme.TEXT)] if t > self.params.n_prompt else []
        self.text[t].set_color(theme.QUERY)  # the current query: the newest word, whose weights the bars show
        self.play(
            FadeIn(self.text[t]),
            *last,
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
        ok = all(self.summary_matches)
        note = label(f"matches the head at every step: {'yes' if ok else 'no'}", color=theme.MUTED)
        warn = label("ideally just the previous value: a one-slot window", color=theme.VALUE)
        warn.move_to([theme.SAFE_LEFT, self.warn_y, 0], aligned_edge=LEFT)
        same = "it is the head's exact output" if ok else "it does not always match the head"
        with self.beat(
            "uniform-sum",
            "Uniform weights ignore the query, so that cache folds into a running sum; "
            f"divided by the count, t, {same}.",
            shows="Keys go; values pour one by one into a sum box, then divided by t.",
        ):
            box, tag, counter = self.sum_box()
            note.next_to(box, RIGHT, buff=0.5)
            keys = VGroup(*(column[0] for column in self.columns[0]))
            self.play(FadeOut(keys), FadeOut(self.bars[0]), FadeOut(self.legend[0]), run_time=0.8)
            self.play(FadeIn(box), FadeIn(tag), FadeIn(counter), run_time=0.6)
            self.pour_values(box, counter)
            mean = math(r"\frac{1}{t}", r"\sum_i v_i", size=SUM_SIZE, colors=VALUES).move_to(box)
            self.when_said(
                "divided by the count", TransformMatchingTex(tag, mean), FadeOut(self.legend[1]), run_time=1.0
            )
            self.until_said("exact output" if ok else "does not")
            self.play(FadeIn(note), run_time=0.8)
        with self.beat(
            "window-of-one",
            "An ideal previous-token head needs only the previous value, a one-slot window, "
            "so it folds too; ours puts a little weight elsewhere.",
            shows=SAID,
        ):
            self.play(Indicate(VGroup(*self.columns[1]), color=theme.VALUE, scale_factor=1.1), run_time=1.5)
            self.until_said("one-slot window")
            self.play(FadeIn(warn), run_time=0.8)

    def sum_box(self) -> tuple[Rectangle, MathTex, MathTex]:
        """The uniform head's running sum: an empty box left on its row, its sum, and a count of values, 0."""
        key_box = self.columns[0][0][0]
        box = Rectangle(width=2.3, height=1.2, color=theme.VALUE, fill_opacity=0.12)  # green v_i reads on it
        box.move_to([LEFT_X - 0.2, self.key_ys[0] - (key_box.height + GAP) / 2, 0], aligned_edge=LEFT)
        tag = math(r"\sum_i v_i", size=SUM_SIZE, colors=VALUES).move_to(box).set_z_index(2)
        return box, tag, self.value_count(0, box)

    def value_count(self, t: int, box: Rectangle) -> MathTex:
        """How many values the sum holds, over the box (where the head's bars were)."""
        count = math(rf"t = {t}", size=SUM_SIZE, color=theme.TEXT)
        return count.move_to(box.get_top() + 0.1 * UP, aligned_edge=DOWN + LEFT).align_to(box, LEFT)

    def pour_values(self, box: Rectangle, counter: MathTex) -> None:
        """Each cached value of the uniform row flies into the sum box in turn, and the count goes up."""
        values = [column[1].set_z_index(3) for column in self.columns[0]]  # seen over the box as they go in
        each = min(0.5, max(0.25, (self.speech_left() - 3.0) / len(values)))
        for t, value in enumerate(values, start=1):
            self.play(value.animate.move_to(box).scale(0.4).set_opacity(0.0), run_time=each)
            count = self.value_count(t, box)  # the count steps up as the value lands, never mid-morph
            self.remove(value, counter)
            self.add(count)
            counter = count

    @staticmethod
    def summary_text(text: str) -> VGroup:
        """One line of the closing still, left-aligned in the text column."""
        return wrapped(text, width=theme.SAFE_RIGHT - theme.SAFE_LEFT - 3.9, align_left=True)

    @staticmethod
    def summary_sizes() -> tuple[int, str]:
        """The closing still's sizes: the raw cache's KiB a token, the linear states' MiB in all (shown)."""
        return kv_cache_bytes(**MODEL, seq_len=1) // 1024, f"{linear_state_bytes(**MODEL) / 2**20:.2f}"

    def summary_shows(self) -> str:
        """The audio description of the closing still: its three rows."""
        per_token, state_mib = self.summary_sizes()
        return (
            f"Uniform: running sum; linear: d by d states, {state_mib} mebibytes; "
            f"softmax: {per_token} kibibytes a token."
        )

    def show_summary(self) -> None:
        """Closing still (the poster): what folds into a fixed summary and what needs the raw cache."""
        self.play(*(FadeOut(m) for m in self.mobjects), run_time=0.6)
        box = Rectangle(width=1.8, height=1.0, color=theme.VALUE, fill_opacity=0.12)
        sum_tex = math(r"\tfrac{1}{t}\sum_i v_i", size=theme.READOUT_SIZE, colors=VALUES)
        uniform = VGroup(box, sum_tex.move_to(box))
        cells = VGroup(
            *(
                Square(side_length=0.25, stroke_width=1, color=theme.VALUE, fill_opacity=0.5)
                for _ in range(16)
            )
        )
        state = cells.arrange_in_grid(rows=4, cols=4, buff=0.0)
        columns = VGroup(*(self.kv_column(i, 0.0) for i in range(5))).arrange(RIGHT, buff=0.12)
        per_token, state_mib = self.summary_sizes()
        rows = VGroup(
            VGroup(uniform, self.summary_text("uniform weights: one running sum")),
            VGroup(state, self.summary_text(f"linear: {state_mib} MiB of d \u00d7 d states")),
            VGroup(columns, self.summary_text(f"softmax: every k, v, {per_token} KiB a token")),
        )
        for row in rows:
            row[0].set_x(theme.SAFE_LEFT + 0.2 + row[0].width / 2)
            row[1].move_to([theme.SAFE_LEFT + 3.9, row[0].get_y(), 0], aligned_edge=LEFT)
        rows.arrange(DOWN, buff=0.6, aligned_edge=LEFT).move_to(0.4 * DOWN)
        heading = label("why the cache stores raw vectors", size=theme.TITLE_SIZE).move_to(2.9 * UP)
        self.fade_in(heading, *rows, run_time=1.5)
        self.when_said("raw cache", Indicate(rows[2][1], color=theme.TEXT, scale_factor=1.0), run_time=1.2)
        self.when_said("raw cache", Circumscribe(rows[2][0], color=theme.KEY), run_time=1.5)
