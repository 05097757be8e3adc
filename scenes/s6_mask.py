"""Section 6, the causal mask: generation is autoregressive, and each query sees only earlier keys.

The prompt with a brace over what came before and an arrow to the next
token's slot; then the T x T mask, rows the queries and columns the keys,
lighting row by row up to each query's own column. Mixed into section 6's
scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Brace,
    Create,
    CurvedArrow,
    FadeIn,
    FadeOut,
    LaggedStart,
    Rectangle,
    VGroup,
)

from attnmath import (
    causal_mask,
)
from drawing import theme
from drawing.flow import flow_words
from drawing.slots import keep_within, place_above, slot_words
from drawing.widgets import label
from lecture.sections.s6_kv_cache import KVCacheParameters
from scenes.base import Mixin

__all__ = ["CausalMask"]


class CausalMask(Mixin[KVCacheParameters]):
    """Mixin for section 6's scene: the autoregressive step and the causal mask's grid."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        grid: VGroup

    def mask_grid(self) -> VGroup:
        """The causal mask, T x T, its rows (queries) and columns (keys) named by the tokens."""
        words = self.params.words
        n, allowed = len(words), causal_mask(len(words))
        rows = VGroup(*(label(w, small=True, color=theme.QUERY) for w in words))
        cell_w = min(1.2, (theme.SAFE_RIGHT - theme.SAFE_LEFT - max(r.width for r in rows) - 0.2) / n)
        cols, rise = slot_words(words, cell_w)
        cell_h = min(0.5, (theme.SAFE_TOP - theme.SAFE_BOTTOM - 1.9 - max(0.0, rise - 0.52)) / n)
        grid = VGroup()
        for i in range(n):
            for j in range(n):
                sq = Rectangle(width=cell_w, height=cell_h, stroke_width=1.2, stroke_color=theme.MUTED)
                sq.set_fill(theme.WEIGHT if allowed[i, j] else theme.WARNING, opacity=0.0)
                grid.add(sq.move_to([j * cell_w, -i * cell_h, 0]))
        for i, r in enumerate(rows):
            r.next_to(grid[i * n], LEFT, buff=0.2)
        place_above(cols, [grid[j].get_x() for j in range(n)], grid.get_top()[1], rise)
        keep_within(cols, grid.get_left()[0], grid.get_right()[0])
        captions = VGroup(
            label("rows: queries", small=True, color=theme.QUERY),
            label("columns: keys", small=True, color=theme.KEY),
        ).arrange(RIGHT, buff=0.5)
        captions.next_to(grid, DOWN, buff=0.15).align_to(rows, LEFT)
        masked = label("masked: later keys", small=True, color=theme.WARNING)
        masked.next_to(grid, DOWN, buff=0.15).align_to(grid, RIGHT)
        whole = VGroup(grid, rows, cols, captions, masked)
        return whole.move_to(
            [(theme.SAFE_LEFT + theme.SAFE_RIGHT) / 2, (theme.SAFE_TOP + theme.SAFE_BOTTOM) / 2, 0]
        )

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
        hidden = [VGroup(*self.grid[0][t * n + t + 1 : (t + 1) * n]) for t in range(n - 1)]
        fills = []  # each row lights up to its own column; the rest of it, masked, turns vermillion
        for row, masked in zip(rows, [*hidden, None], strict=True):
            dim = [masked.animate.set_fill(opacity=0.6)] if masked is not None else []
            fills.append(AnimationGroup(row.animate.set_fill(opacity=0.85), *dim))
        self.play(LaggedStart(*fills, lag_ratio=0.5), run_time=max(self.speech_left() - 0.5, 2.0))
