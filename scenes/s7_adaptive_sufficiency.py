"""Section 7: adaptive sufficiency — the three readings of attention, one at a time, then together.

Render with ``manim -qh scenes/s7_adaptive_sufficiency.py AdaptiveSufficiency``.

Each idea is a card: a picture, built large, and its words. The beat's card
fills the stage; when the next one comes, the words leave and the picture
shrinks into a strip of thumbnails at the bottom. The summary brings the
four pictures back as a row of named tiles.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Circumscribe,
    Dot,
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    Mobject,
    Square,
    VGroup,
    Write,
)

from attnmath import (
    StylizedHeads,
    entropy,
    fit_similarity,
    kernel_weights,
    noisy_sine,
    softmax,
    stylized_heads,
)
from drawing import theme
from drawing.flow import baseline_of
from drawing.plots import axis_labels, curve, quiet_axes, scatter
from drawing.stage import aim, regroup
from drawing.widgets import BarPanel, label, math
from lecture.sections import s1_fixed_vs_query, s3_softmax_temperature
from lecture.sections.s1_fixed_vs_query import FixedVsQueryParameters
from lecture.sections.s3_softmax_temperature import TemperatureParameters
from narration.narrator import Spoken
from scenes.base import LectureScene

__all__ = ["AdaptiveSufficiency"]

# The cards' symbols by role; no formula here has another q or k (inside a \sqrt, say).
ROLES = {r"\alpha_i": theme.WEIGHT, "v_i": theme.VALUE, "q": theme.QUERY, "k": theme.KEY}

STAGE_Y = 0.75  # centre of the beat's picture (above the strip)
STRIP_Y, STRIP_W, STRIP_H = -2.2, 2.9, 0.95  # thumbnail slots at the bottom, each named beneath
STRIP_XS = (-4.85, -1.6, 1.65, 4.9)
TILES, TILE_W, TILE_H = ((-3.4, 1.65), (3.4, 1.65), (-3.4, -1.25), (3.4, -1.25)), 5.0, 1.8  # summary grid
STRIP_NAMES = ("weighted sum", "regression", "entropy bonus", "raw cache")
NAMES = ("adaptive summary", "regression: the sum", "entropy bonus: softmax", "no factoring: raw cache")
SUMMARY = "one family of summaries, one per query"  # the summary's title line
RUNNING = r"S = \sum_i e^{\,q \cdot k_i / \tau}\, v_i, \ \ Z = \sum_i e^{\,q \cdot k_i / \tau}"
"""A known query's running sum and normaliser: each token adds its term as it arrives."""
SUM_ROWS = (3, 7)  # the weighted sum's two queries: 'chased' and 'across'


@cache
def causal_heads() -> StylizedHeads:
    """The stylised heads on the lecture's sentence under the causal mask, computed once for every card."""
    return stylized_heads(causal=True)


class Card(VGroup):
    """One idea: ``picture`` (scaled when it moves) and ``words`` (rebuilt, never scaled)."""

    def __init__(self, picture: VGroup, words: VGroup) -> None:
        super().__init__(picture, words)
        self.picture, self.words = picture, words


class AdaptiveSufficiency(LectureScene):
    """Recap: three readings of attention, one per design choice: the sum, the softmax, the cache."""

    recap_tau: ClassVar[float] = 0.6

    def construct(self) -> None:
        """Storyboard: one card per design choice, then the one-line summary."""
        self.strip: list[Mobject] = []
        self.strip_names = VGroup()
        self.card: Card | None = None
        self.title_beat()
        with self.beat(
            "weighted-sum",
            "Attention's weighted sum compresses the sequence into a summary the query chooses: "
            "loosely, an adaptive sufficient statistic.",
            shows=self.sum_description(),
        ):
            card = self.sum_card()
            self.show_card(card)
            circled = Circumscribe(card.picture, color=theme.WEIGHT)
            self.when_said("adaptive sufficient", circled, run_time=1.5)
        with self.beat(
            "regression",
            "Kernel regression explains attention's weighted sum: a Nadaraya Watson average, with a "
            "learned similarity.",
            shows=f"{self.regression_data()[0].size} points descend left to right; "
            "learned and Gaussian kernel curves both follow them.",
        ):
            self.show_card(self.regression_card())
        with self.beat(
            "entropy",
            "Section three's entropy-regularised retrieval explains why its weights are a softmax: be "
            "relevant, not overconfident.",
            shows=self.entropy_description(),
        ):
            self.show_card(self.entropy_card())
        self.pause_and_predict(
            self.question(),
            self.known_queries,
            shows="Keys shaded by the known query's weights; values pour into a running sum and normaliser.",
        )
        with self.beat(
            "summary",
            "So attention is a family of summaries, one per query, each keeping only what its query needs, "
            "computed on demand from the raw cache.",
            shows=f"Four earlier pictures: {'; '.join(NAMES)}.",
            ends_section=True,
        ):
            self.show_summary()

    def known_queries(self, spoken: Spoken) -> None:
        """The answer: the raw cache folds, for one known query, into a running sum; then it stands again.

        A known query's weights (the stylised distance head's, at the last word) shade the keys as
        each is computed on arrival; the values pour into the query's sum and normaliser. As the
        voice says real queries come later, the sums leave and the raw cache's heading and reason come.
        """
        card = self.cache_card()
        self.take_stage(card)
        head, tokens, rows, note = card.words
        cols = card.picture[0]
        self.play(FadeIn(card.picture), FadeIn(tokens), FadeIn(rows), run_time=1.0)
        weights = causal_heads().weights[2][-1]  # the distance head: the last word sees all
        shades = VGroup(
            *(
                Square(side_length=0.75, stroke_width=0).set_fill(theme.WEIGHT, 0.1 + 0.9 * w / weights.max())
                for w in weights
            )
        )
        for shade, col in zip(shades, cols, strict=True):
            shade.move_to(col[0])
        self.when_said("on arrival", LaggedStart(*(FadeIn(s) for s in shades), lag_ratio=0.15), run_time=1.5)
        sums = math(RUNNING, size=48, colors={"q": theme.QUERY, "k_i": theme.KEY, "v_i": theme.VALUE})
        sums.move_to(note)
        pour = [c[1].copy() for c in cols]
        flows = (p.animate.scale(0.3).move_to(sums).set_opacity(0.0) for p in pour)
        self.until_said("running sum")
        self.play(LaggedStart(*flows, lag_ratio=0.1), FadeIn(sums, run_time=0.8), run_time=2.0)
        self.remove(*pour)
        self.until_said("Real queries")
        self.play(FadeOut(sums), FadeOut(shades), FadeIn(head), FadeIn(note), run_time=1.0)

    # --- staging ----------------------------------------------------------------
    def take_stage(self, card: Card) -> None:
        """The previous card shrinks into the strip; ``card`` is the one on stage."""
        if self.card is not None:
            self.to_strip(self.card)
        self.card = card

    def show_card(self, card: Card) -> None:
        """The previous card shrinks into the strip; this one's picture, then its words, fade in."""
        self.take_stage(card)
        self.play(FadeIn(card.picture), run_time=1.0)
        self.play(
            LaggedStart(*(FadeIn(w) for w in card.words), lag_ratio=0.3),
            run_time=min(max(self.speech_left() - 1.0, 1.0), 3.0),
        )

    def to_strip(self, card: Card) -> None:
        """The card's words leave; its picture shrinks into the next thumbnail slot."""
        slot = np.array([STRIP_XS[len(self.strip)], STRIP_Y, 0])
        picture = card.picture
        aim([picture], slot, min(STRIP_W / picture.width, STRIP_H / picture.height))
        name = label(STRIP_NAMES[len(self.strip)], small=True, color=theme.MUTED)
        name.move_to(slot + (STRIP_H / 2 + 0.08 + name.height / 2) * DOWN)
        regroup(self, [picture], words_out=[card.words], words_in=[name], run_time=1.0)
        self.strip.append(picture)
        self.strip_names.add(name)

    def show_summary(self) -> None:
        """The four pictures as named tiles in a two-by-two grid, under the one-line summary."""
        self.to_strip(self.card)
        names = VGroup()
        for (x, y), picture, name in zip(TILES, self.strip, NAMES, strict=True):
            factor = min(TILE_W / picture.width, TILE_H / picture.height)
            aim([picture], np.array([x, y, 0]), factor)
            names.add(label(name).move_to([x, y - TILE_H / 2 - 0.35, 0]))
        summary = label(SUMMARY, size=theme.TITLE_SIZE - 8)
        summary.move_to([0, theme.SAFE_TOP - summary.height / 2, 0])
        regroup(self, self.strip, words_out=[self.strip_names], words_in=[names], run_time=1.5)
        self.play(Write(summary), run_time=2.0)

    # --- the cards --------------------------------------------------------------------
    def heading(self, text: str, formula: str | None = None, colors: dict[str, str] | None = None) -> VGroup:
        """The card's title (and formula, its symbols in their roles' colours) across the top of the frame."""
        parts = [label(text, size=theme.TITLE_SIZE)]
        if formula:
            parts.append(math(formula, size=48, colors=colors))
        head = VGroup(*parts).arrange(RIGHT, buff=0.6)
        return head.move_to([0, theme.SAFE_TOP - head.height / 2, 0])

    def sum_card(self) -> Card:
        """Two queries, two different weightings of the same words (a stylised head)."""
        words, w = self.sum_weights()
        rows = SUM_ROWS
        bar_panels = [BarPanel(w[i], width=12.0, height=0.8, show_index=False) for i in rows]
        panels = VGroup(*bar_panels)
        picture = VGroup(panels.arrange(DOWN, buff=1.1))  # room for a query's dot above the next title
        for panel, i in zip(bar_panels, rows, strict=True):  # the query's own place, under its bars
            picture.add(
                Dot([self.slot_x(panel, i), panel.box.get_bottom()[1] - 0.14, 0], 0.1, color=theme.QUERY)
            )
        picture.move_to([0, STAGE_Y - 0.45, 0])
        head = self.heading("the weighted sum", r"\sum_i \alpha_i(q)\, v_i", ROLES)
        return Card(
            picture,
            VGroup(
                head,
                self.panel_titles(bar_panels, [words[i] for i in rows]),
                self.tokens(bar_panels[-1], words),
            ),
        )

    @staticmethod
    def sum_weights() -> tuple[tuple[str, ...], np.ndarray]:
        """The sentence's words and the verb/preposition head's weights (a stylised head)."""
        heads = causal_heads()
        return heads.sentence.texts, heads.weights[1]

    def sum_description(self) -> str:
        """Where each of the two queries puts its weight."""
        words, w = self.sum_weights()
        first, second = (words[i] for i in SUM_ROWS)
        on_first, on_second = (words[int(np.argmax(w[i]))] for i in SUM_ROWS)
        return (
            f"Two queries weigh one sentence: {first} puts most weight on {on_first}, "
            f"{second} on {on_second}."
        )

    @staticmethod
    def panel_titles(panels: list[BarPanel], queries: list[str]) -> VGroup:
        """Above each panel: whose weights these are, the query's word in its colour."""
        titles = VGroup()
        for panel, word in zip(panels, queries, strict=True):
            title = VGroup(
                label("weights \u03b1\u1d62 of the query", color=theme.MUTED), label(word, color=theme.QUERY)
            )
            title.arrange(RIGHT, buff=0.2).next_to(panel.box, UP, buff=0.1).align_to(panel.box, LEFT)
            titles.add(title)
        return titles

    def tokens(self, panel: BarPanel, words: tuple[str, ...]) -> VGroup:
        """The sentence's words under the bars, one under each, on one baseline."""
        y = panel.box.get_bottom()[1] - 0.55
        tokens = VGroup()
        for j, t in enumerate(words):
            token = label(t, small=True, color=theme.MUTED).move_to([self.slot_x(panel, j), y, 0])
            tokens.add(token.shift((y - baseline_of(token)) * UP))
        return tokens

    @staticmethod
    def slot_x(panel: BarPanel, i: int) -> float:
        """Scene x of bar ``i`` of ``panel``."""
        return float(panel.box.get_left()[0] + panel.centres[i] * panel.box.width)

    def regression_data(self) -> tuple[np.ndarray, np.ndarray]:
        """The regression card's samples: section 1's points (the lecturer's where the file sets them)."""
        points = self.lecture.parameters_as(s1_fixed_vs_query.SECTION, FixedVsQueryParameters)
        return noisy_sine(points.n_points, noise=points.noise, seed=points.seed)

    def regression_card(self) -> Card:
        """Kernel regression with a learned similarity (white) and a Gaussian kernel (grey)."""
        x, y = self.regression_data()
        grid = np.linspace(0, 1, 121)
        axes = quiet_axes((0, 1), (-1.8, 1.8), width=9.5, height=3.3)
        axes.x_axis.set_opacity(0.0)
        learned = curve(axes, grid, fit_similarity(x, y).weights(grid, x) @ y, width=4)
        gaussian = curve(axes, grid, kernel_weights(grid, x, 0.08) @ y, color=theme.MUTED, width=3)
        picture = VGroup(axes, scatter(axes, x, y, radius=0.1), gaussian, learned)
        picture.move_to([0.3, STAGE_Y - 0.15, 0])
        legend = VGroup(
            *(
                VGroup(Line(ORIGIN, 0.6 * RIGHT, color=c, stroke_width=5), label(t, color=c)).arrange(
                    RIGHT, buff=0.2
                )
                for c, t in ((theme.TEXT, "learned similarity"), (theme.MUTED, "Gaussian kernel"))
            )
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        legend.align_to(axes, UP + RIGHT).shift(0.2 * UP)
        titles = axis_labels(axes, "input x", "output y", x_ticks=(0, 0.5, 1))
        return Card(picture, VGroup(self.heading("kernel regression \u2192 the sum"), titles, legend))

    def recap_weights(self) -> tuple[np.ndarray, np.ndarray]:
        """Section 3's scores, the lecturer's where the lecture file sets them, and their softmax weights."""
        section3 = self.lecture.parameters_as(s3_softmax_temperature.SECTION, TemperatureParameters)
        s = np.asarray(section3.scores)
        return s, softmax(s, self.recap_tau)

    def entropy_description(self) -> str:
        """The heading's objective, where the weights peak, and the two numbers on screen."""
        _, a = self.recap_weights()
        return (
            f"Maximising expected score plus tau H, weights peak at item {int(np.argmax(a)) + 1}; "
            f"tau {self.recap_tau:g}, H {float(entropy(a)):.2f}."
        )

    def entropy_card(self) -> Card:
        """The softmax weights at one temperature, with the objective they maximise and their entropy."""
        s, a = self.recap_weights()
        top = max(0.5, float(np.ceil(10 * a.max()) / 10))  # a lecturer's scores may put more weight on one
        bars = BarPanel(a, width=10.5, height=2.7, y_range=(0.0, top), show_index=False)
        frame = quiet_axes((0, s.size), (0, top), width=10.5, height=2.7).move_to(bars)
        frame.x_axis.set_opacity(0.0)
        picture = VGroup(frame, bars).move_to([0.3, STAGE_Y - 0.45, 0])
        items = np.arange(s.size) + 0.5  # slot centres
        titles = VGroup(
            axis_labels(frame, "stored item i", None, x_ticks=items, tick_text=lambda v: f"{v + 0.5:g}"),
            axis_labels(frame, None, "weight a\u1d62", y_ticks=(0, top)),
        )
        titles[0][-1].align_to(frame.x_axis, RIGHT)  # "stored item i" clear of the thumbnails, lower left
        numbers = math(rf"\tau = {self.recap_tau:g},\quad H(a) = {float(entropy(a)):.2f}", size=44)
        numbers.align_to(bars.box, UP + RIGHT).shift(0.3 * UP)
        head = self.heading("entropy bonus \u2192 softmax", r"\max_a\ \mathbb{E}_a[s] + \tau H(a)", ROLES)
        return Card(picture, VGroup(head, titles, numbers))

    def cache_card(self) -> Card:
        """Raw keys and values, one column per word, kept for every future query."""
        words = causal_heads().sentence.texts
        cols = VGroup()
        for _ in words:
            k = Square(side_length=0.75, color=theme.KEY, fill_opacity=0.6)
            v = Square(side_length=0.75, color=theme.VALUE, fill_opacity=0.6)
            cols.add(VGroup(k, v).arrange(DOWN, buff=0.1))
        picture = VGroup(cols.arrange(RIGHT, buff=0.5)).move_to([0.25, STAGE_Y - 0.2, 0])
        line = cols.get_top()[1] + 0.25  # the words' baseline, whatever their descenders
        tokens = VGroup()
        for t, c in zip(words, cols, strict=True):
            token = label(t, small=True, color=theme.MUTED).move_to([c.get_x(), line, 0])
            tokens.add(token.shift((line - baseline_of(token)) * UP))
        rows = VGroup(
            math("k_i", color=theme.KEY, size=48).next_to(cols[0][0], LEFT, buff=0.35),
            math("v_i", color=theme.VALUE, size=48).next_to(cols[0][1], LEFT, buff=0.35),
        )
        note = math(r"e^{\,q \cdot k / \tau} \ne f(q)^\top g(k)", size=48, colors=ROLES)
        note.next_to(cols, DOWN, buff=0.5)
        head = self.heading("no factoring \u2192 a cache of raw k, v")
        return Card(picture, VGroup(head, tokens, rows, note))
