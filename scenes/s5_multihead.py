"""Section 5: multi-head attention — four heads route one sentence four ways.

Render with ``manim -qh scenes/s5_multihead.py HeadRouting``.
"""

from __future__ import annotations

from typing import ClassVar

from manim import DOWN, RIGHT, UP, Create, FadeIn, FadeOut, LaggedStart, Mobject, Rectangle, VGroup

from attnmath import DEFAULT_SENTENCE, Sentence, stylized_heads
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.narration import Spoken
from scenes.kit.tokens import Heatmap, TokenRow, attention_arcs
from scenes.kit.widgets import BarPanel, fit_width, label, math

__all__ = ["HeadRouting"]

ROW_Y = -0.55
BARS_Y = -1.75
HEAD_TEXT = (
    "Head one attends to the previous token, a building block of induction circuits.",
    "Head two routes by syntax: verbs look at their subjects, prepositions at their verbs.",
    "Head three is positional: weight falls with distance, whatever the words.",
    "Head four gathers each word's determiners and adjectives.",
)


class HeadRouting(LectureScene):
    """Each head's routing as arcs, then all four as heatmaps feeding W_O."""

    section = "Section 5"
    title = "Multi-head: many statistics at once"

    sentence: ClassVar[Sentence] = DEFAULT_SENTENCE

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.heads = stylized_heads(self.sentence, causal=True)
        with self.beat("title", "Section five. Multi-head attention: many statistics at once."):
            self.title_card()
        with self.beat(
            "sentence",
            "One sentence, where each word sees only itself and earlier words. "
            "A multi-head layer runs several attention patterns over it at once. "
            "These four are stylised, built by hand rather than measured.",
        ) as spoken:
            self.show_sentence(spoken)
        for h in range(4):
            self.show_head(h)
        with self.beat(
            "all-heads",
            "Side by side, rows for queries, columns for keys: "
            "each head is a different summary of the same prefix.",
        ):
            self.show_all_heads()
        with self.beat(
            "concatenate",
            "Their outputs are concatenated and mixed by an output matrix, for the next layer to build on. "
            "Many heads: many statistics in parallel.",
        ) as spoken:
            self.show_concatenation(spoken)

    def show_sentence(self, spoken: Spoken) -> None:
        """The tokens, and the standing note that the heads are stylised."""
        self.row = TokenRow(self.sentence.texts).move_to(ROW_Y * UP)
        self.note = label(
            "stylised heads built by hand, not measured from a trained model",
            size=theme.SMALL_SIZE,
            color=theme.MUTED,
        ).move_to(2.95 * DOWN)
        words = (FadeIn(word, shift=0.1 * UP) for word in self.row.boxes)
        self.play(LaggedStart(*words, lag_ratio=0.3), run_time=3.5)  # read left to right
        self.until_said(spoken, "These four")
        self.fade_in(self.note)

    def head_title(self, h: int) -> Mobject:
        """'Hk: rule' at the top of the frame."""
        title = label(f"H{h + 1}: {self.heads.names[h]}", size=theme.LABEL_SIZE, color=theme.WEIGHT)
        return fit_width(title, theme.SAFE_RIGHT - theme.SAFE_LEFT).move_to(3.1 * UP)

    def spotlight(self, h: int) -> int:
        """The query word whose row is highlighted for head h: one where the head's rule shows."""
        n = len(self.sentence)
        routed = [i for i in range(n) if not self.heads.targets[h][i, i]]  # annotated target elsewhere
        if h == 1 and routed:
            return routed[0]
        if h == 2:
            return n // 2
        return routed[-1] if h == 3 and routed else n - 1

    def spotlight_text(self, h: int) -> str:
        """Where the spotlit query word's largest weight goes under head h, as a sentence."""
        w, i = self.heads.weights[h], self.spotlight(h)
        j = int(w[i].argmax())
        target = "itself" if j == i else f'the word "{self.sentence.texts[j]}"'
        return f'The word "{self.sentence.texts[i]}" puts {100 * w[i, j]:.0f} percent on {target}.'

    def show_head(self, h: int) -> None:
        """All of head h's arcs, then one query word's row as bars under the words."""
        w = self.heads.weights[h]
        title = self.head_title(h)
        arcs = attention_arcs(self.row, w)
        i = self.spotlight(h)
        focus = attention_arcs(self.row, w, queries=[i], color=theme.QUERY)
        box = self.row.boxes[i][0].copy().set_stroke(theme.QUERY, width=4)
        bars = BarPanel(
            w[i],
            width=self.row.width,
            height=0.8,
            color=theme.WEIGHT,
            show_index=False,
            positions=self.row.centre_fractions(),
            fill_ratio=0.5,
        ).move_to(BARS_Y * UP)
        with self.beat(f"head-{h + 1}", f"{HEAD_TEXT[h]} {self.spotlight_text(h)}") as spoken:
            self.play(FadeIn(title), Create(arcs), run_time=1.5)
            self.until_said(spoken, "The word")
            self.play(
                arcs.animate.set_stroke(opacity=0.15), FadeIn(focus), Create(box), FadeIn(bars), run_time=1.0
            )
            self.hold(self.speech_left() - 0.5)
            self.play(FadeOut(VGroup(title, arcs, focus, box, bars)), run_time=0.5)

    def show_all_heads(self) -> None:
        """The four heads side by side as heatmaps (rows: queries, columns: keys)."""
        maps = VGroup()
        for h in range(4):
            hm = Heatmap(self.heads.weights[h], size=2.3)
            maps.add(VGroup(hm, hm.caption(f"H{h + 1}")))
        maps.arrange(RIGHT, buff=0.6).move_to(0.9 * UP)
        header = label(
            "four heads in parallel, one weight matrix each (rows: queries, columns: keys)",
            size=theme.SMALL_SIZE,
        ).move_to(3.1 * UP)
        fit_width(header, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        self.play(
            FadeOut(self.row),
            FadeIn(maps),
            FadeIn(header),
            run_time=1.2,
        )
        self.maps, self.header = maps, header

    def block(self, rows: int, cols: int, tex: str, color: str, unit: float) -> VGroup:
        """A matrix drawn to scale with its shape written beneath."""
        box = Rectangle(width=cols * unit, height=rows * unit, color=color, fill_opacity=0.25, stroke_width=2)
        return VGroup(box, math(tex, size=theme.SMALL_SIZE + 4).next_to(box, DOWN, buff=0.12))

    def show_concatenation(self, spoken: Spoken) -> None:
        """Head outputs (T x d_head) concatenate to (T x H d_head), then W_O maps to the next layer."""
        res = self.heads.result
        h, t, d_head = res.head_outputs.shape
        d_out = res.output.shape[1]
        unit = 0.12
        parts = VGroup(*(self.block(t, d_head, rf"{t}\times{d_head}", theme.VALUE, unit) for _ in range(h)))
        parts.arrange(RIGHT, buff=0.08)
        concat = self.block(t, h * d_head, rf"{t}\times{h * d_head}", theme.VALUE, unit)
        w_o = self.block(h * d_head, d_out, rf"W_O:\ {h * d_head}\times{d_out}", theme.TEXT, unit * 0.4)
        out = self.block(t, d_out, rf"{t}\times{d_out}", theme.VALUE, unit)
        chain = VGroup(parts, math(r"\to"), concat, math(r"\cdot"), w_o, math(r"="), out)
        chain.arrange(RIGHT, buff=0.3).move_to(1.3 * DOWN)
        fit_width(chain, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        self.play(self.maps.animate.scale(0.7).shift(1.1 * UP), FadeOut(self.header), run_time=0.8)
        self.fade_in(chain[:3])
        self.until_said(spoken, "mixed by")
        self.fade_in(chain[3:])
