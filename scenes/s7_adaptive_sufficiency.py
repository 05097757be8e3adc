"""Section 7: adaptive sufficiency — the three readings of attention, side by side.

Render with ``manim -qh scenes/s7_adaptive_sufficiency.py AdaptiveSufficiency``.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from manim import DOWN, FadeIn, LaggedStart, Mobject, Square, VGroup, Write

from attnmath import (
    entropy,
    fit_similarity,
    kernel_weights,
    noisy_sine,
    softmax,
    stylized_heads,
)
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.plots import curve, quiet_axes, scatter
from scenes.kit.widgets import BarPanel, fit_width, label, math
from scenes.s3_softmax_temperature import TemperatureSweep

__all__ = ["AdaptiveSufficiency"]

CARD_XS = (-4.45, 0.0, 4.45)
CARD_W = 3.9


class AdaptiveSufficiency(LectureScene):
    """Recap: the weighted sum, the softmax (two readings), and the cache of raw vectors."""

    section = "Section 7"
    title = "Adaptive sufficiency"

    recap_tau: ClassVar[float] = 0.6

    def construct(self) -> None:
        """Storyboard: one card per design choice, then the one-line summary."""
        with self.beat("title", "Section seven. Adaptive sufficiency."):
            self.title_card()
        with self.beat(
            "weighted-sum",
            "First, the weighted sum. Two queries weigh the same words in different ways, so each sum is "
            "a summary chosen for its own prediction: an adaptive sufficient statistic.",
        ):
            title, bars, formula = self.sum_card()
            self.show_card(VGroup(title, formula, *bars))
        softmax = self.softmax_card()
        with self.beat(
            "softmax-regression",
            "Second, the softmax, which reads two ways. It is kernel regression, with a learned similarity.",
        ):
            self.show_card(softmax[:6])
        with self.beat(
            "softmax-entropy",
            "And it is the maximum entropy rule: be relevant, but don't be overconfident.",
        ):
            self.show_card(softmax[6:])
        with self.beat(
            "cache",
            "Third, the cache. Every new query reweights every entry, so it keeps the raw keys and values.",
        ):
            self.show_card(self.cache_card())
        with self.beat(
            "summary",
            "Together: attention is a family of sufficient statistics, one per query, computed on demand.",
        ):
            summary = label("one family of sufficient statistics, one per query", size=theme.LABEL_SIZE)
            self.play(Write(summary.move_to(2.75 * DOWN)), run_time=2.0)

    def show_card(self, parts: VGroup) -> None:
        """Fade a card's parts in one after another, over most of the narration."""
        self.play(
            LaggedStart(*(FadeIn(p) for p in parts), lag_ratio=0.4),
            run_time=min(max(self.speech_left() - 1.5, 1.5), 6.0),
        )

    def card_title(self, k: int, text: str) -> Mobject:
        """A card's heading at the top of its column."""
        return fit_width(label(text, size=theme.LABEL_SIZE), CARD_W).move_to([CARD_XS[k], 3.0, 0])

    def sum_card(self) -> VGroup:
        """Two queries, two different weightings of the same tokens (a stylised head)."""
        heads = stylized_heads(causal=True)
        w = heads.weights[1]  # syntax head
        rows = [3, 7]  # 'chased' and 'across'
        bars = (
            VGroup(
                *(
                    BarPanel(
                        w[i],
                        width=CARD_W - 0.4,
                        height=0.9,
                        color=theme.WEIGHT,
                        show_index=False,
                        title=label(
                            f"query '{heads.sentence.texts[i]}'", size=theme.SMALL_SIZE, color=theme.QUERY
                        ),
                    )
                    for i in rows
                )
            )
            .arrange(DOWN, buff=0.45)
            .move_to([CARD_XS[0], 0.6, 0])
        )
        formula = math(r"\sum_i \alpha_i(q)\, v_i", size=theme.READOUT_SIZE).move_to([CARD_XS[0], -1.8, 0])
        return VGroup(self.card_title(0, "the weighted sum"), bars, formula)

    def softmax_card(self) -> VGroup:
        """Kernel regression with a learned similarity, and the max-entropy weights with H(a)."""
        x, y = noisy_sine(10, noise=0.25, seed=3)
        fit = fit_similarity(x, y)
        grid = np.linspace(0, 1, 121)
        axes = quiet_axes((0, 1), (-1.8, 1.8), width=CARD_W - 0.4, height=1.4).move_to([CARD_XS[1], 1.5, 0])
        axes.x_axis.set_opacity(0.0)
        fitted = curve(axes, grid, fit.weights(grid, x) @ y, width=2.5)
        gaussian = curve(axes, grid, kernel_weights(grid, x, 0.08) @ y, color=theme.MUTED, width=1.5)
        s = np.asarray(TemperatureSweep.scores)
        a = softmax(s, self.recap_tau)
        bars = BarPanel(a, width=CARD_W - 0.4, height=1.0, color=theme.WEIGHT, show_index=False)
        bars.move_to([CARD_XS[1], -0.55, 0])
        h = math(rf"\tau = {self.recap_tau:g},\; H(a) = {float(entropy(a)):.2f}", size=theme.SMALL_SIZE + 4)
        h.next_to(bars, DOWN, buff=0.2)
        reading = fit_width(
            label("regression, learned similarity", size=theme.SMALL_SIZE, color=theme.MUTED), CARD_W
        )
        reading.move_to([CARD_XS[1], 0.55, 0])
        parts = (axes, scatter(axes, x, y, radius=0.045), gaussian, fitted, reading, bars, h)
        return VGroup(self.card_title(1, "the softmax"), *parts)

    def cache_card(self) -> VGroup:
        """Raw keys and values, one column per token."""
        cols = VGroup()
        for _ in range(6):
            k = Square(side_length=0.36, color=theme.KEY, fill_opacity=0.6)
            v = Square(side_length=0.36, color=theme.VALUE, fill_opacity=0.6)
            cols.add(VGroup(k, v).arrange(DOWN, buff=0.06))
        cols.arrange(buff=0.12).move_to([CARD_XS[2], 0.9, 0])
        note = (
            VGroup(
                label("each new query", size=theme.SMALL_SIZE),
                label("reweights every entry", size=theme.SMALL_SIZE),
            )
            .arrange(DOWN, buff=0.1)
            .next_to(cols, DOWN, buff=0.4)
        )
        return VGroup(self.card_title(2, "the cache of raw vectors"), cols, note)
