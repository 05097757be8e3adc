"""Section 6: causal masking and the KV cache — why the cache stores raw keys and values.

Render with ``manim -qh scenes/s6_kv_cache.py KVCacheGrowth``.

Beside it: :mod:`scenes.s6_mask` (the causal mask), :mod:`scenes.s6_caches` (the
two heads' caches as decoding grows them), :mod:`scenes.s6_why_raw` (why
softmax's cache keeps raw keys and values), and :mod:`scenes.s6_real` with
:mod:`scenes.s6_decoding` (the same questions asked of a real decoder).
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
    Circumscribe,
    FadeIn,
    FadeOut,
    Indicate,
    MathTex,
    Rectangle,
    Square,
    TransformMatchingTex,
    VGroup,
)

from attnmath import (
    KVCache,
    RunningSummary,
    kv_cache_bytes,
    linear_state_bytes,
    previous_token_projections,
)
from drawing import theme
from drawing.widgets import label, math, wrapped
from lecture.sections.s6_kv_cache import CONTEXT, SHARED_MODEL, KVCacheParameters
from scenes.base import SAID, LectureScene
from scenes.s6_caches import GAP, LEFT_X, DecodingCaches
from scenes.s6_pointer import SyntaxPointer
from scenes.s6_real import RealDecoder
from scenes.s6_why_raw import MODEL, WhyRawCache

__all__ = ["KVCacheGrowth"]

SUM_SIZE = 44  # the running sum and its count: read at 640 pixels
VALUES = {"v_i": theme.VALUE}  # the sum's values in their role's colour


def as_text(words: Sequence[str]) -> str:
    """``words`` as the voice reads them: punctuation against the word before it."""
    return re.sub(r" (?=[.,;:!?])", "", " ".join(words))


class KVCacheGrowth(RealDecoder, SyntaxPointer, WhyRawCache, DecodingCaches, LectureScene[KVCacheParameters]):
    """Decode token by token: a uniform head folds into a running sum; pointer heads need the raw cache."""

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.decode()
        self.title_beat()
        self.build_prompt()
        self.decode_the_prompt()
        self.collapse_uniform_head()
        with self.beat(
            "subject-pointer",
            "The syntax head resists folding. Take: the cat that the dogs chased slept. There, chased looks "
            "back at dogs; slept looks past them, to cat.",
            shows=self.pointer_shows(),
        ):
            self.show_pointer()
        with self.beat(
            "no-one-slot",
            "A slot for the latest noun, dogs, misses cat; with clauses nested, any number of earlier nouns "
            "may still be wanted, so every entry stays.",
            shows="A latest-noun slot around dogs is crossed out; every cached column flashes.",
        ):
            self.no_one_slot()
        self.show_kernels()
        self.show_memory()
        self.pause_and_predict(
            self.question(),
            self.shared_heads,
            shows=self.shared_shows(),
        )
        self.show_real_decoder()
        with self.beat(
            "summary",
            "So softmax attention keeps its raw cache, computing each query's statistic on demand.",
            shows=self.summary_shows(),
            ends_section=True,
        ):
            self.show_summary()

    def decode_the_prompt(self) -> None:
        """Beats: generation token by token under the causal mask; the cache that serves it; two heads."""
        words, n_prompt = self.params.words, self.params.n_prompt
        with self.beat(
            "autoregressive",
            "Generation is autoregressive: each token is predicted from those before. "
            "The causal mask lets each query see only itself and earlier keys.",
            shows=f'After "{as_text(words[:n_prompt])}" comes "{words[n_prompt]}"; '
            f"mask grid {len(words)} by {len(words)}{', full stop included' if '.' in words else ''}.",
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
            self.pour_values(box, counter, before="divided by the count")
            mean = math(r"\frac{1}{t}", r"\sum_i v_i", size=SUM_SIZE, colors=VALUES).move_to(box)
            self.when_said(
                "divided by the count", TransformMatchingTex(tag, mean), FadeOut(self.legend[1]), run_time=1.0
            )
            self.until_said("exact output" if ok else "does not")
            self.play(FadeIn(note), run_time=0.8)
        with self.beat(
            "window-of-one",
            "An ideal previous-token head needs only the previous value, a one-slot window, "
            "so it folds too; our stylised one puts a little weight elsewhere.",
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

    def pour_values(self, box: Rectangle, counter: MathTex, before: str) -> None:
        """Each cached value of the uniform row flies into the sum box in turn; the count goes up.

        All are in before the narration says ``before``.
        """
        values = [column[1].set_z_index(3) for column in self.columns[0]]  # seen over the box as they go in
        each = min(0.5, max(0.15, (self.seconds_until(before) - 0.2) / len(values)))
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

    def shared_shows(self) -> str:
        """The audio description of the answer's chart: the raw line at a quarter, the old one dashed."""
        gib = kv_cache_bytes(**SHARED_MODEL, seq_len=CONTEXT) / 2**30
        return f"Raw line tilts down to a quarter: {gib:g} gibibytes at {CONTEXT} tokens; old line dashed."

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
        name = Indicate(rows[2][1], color=theme.TEXT, scale_factor=1.0)
        self.when_said("raw cache", name, Circumscribe(rows[2][0], color=theme.KEY), run_time=1.5)
