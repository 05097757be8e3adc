"""Section 6, the caches: two heads' keys, values and weights drawn as decoding appends each token.

Each head's row holds its name, its weight bars for the current query, and a
key box over a value box per cached position; the rows share the screen
under the generated text (shrunk together, never the text, when a lecturer's
words take two lines). Mixed into section 6's scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    LEFT,
    UP,
    FadeIn,
    FadeOut,
    Square,
    VGroup,
)

from drawing import theme
from drawing.flow import flow_words
from drawing.widgets import BarPanel, label, math
from scenes.s6_mask import CausalMask

__all__ = ["DecodingCaches", "LEFT_X", "GAP"]

LEFT_X = theme.SAFE_LEFT + 0.75  # where cached position 1 starts; k and v are named left of it
TEXT_Y = theme.SAFE_TOP - 0.05  # top of the generated text
LABEL_H, BAR_H, SIDE, GAP = 0.45, 0.8, 0.48, 0.06  # a head's name, weight bars, key and value boxes


class DecodingCaches(CausalMask):
    """Mixin for section 6's scene: the prompt, the two heads' growing caches, and each decoding step."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        weights: list[tuple[np.ndarray, np.ndarray]]

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
