"""Section 5: multi-head attention — four heads route one sentence four ways.

Render with ``manim -qh scenes/s5_multihead.py HeadRouting``.
"""

from __future__ import annotations

from typing import ClassVar

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    Mobject,
    Transform,
    VGroup,
)

from attnmath import DEFAULT_SENTENCE, Sentence, stylized_heads
from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.blocks import matrix_block
from scenes.kit.narration import Spoken
from scenes.kit.sentence import WordRows, word_arcs
from scenes.kit.tokens import Heatmap
from scenes.kit.widgets import label, math

__all__ = ["HeadRouting"]

HEAD_TEXT = (
    "Head one attends to the previous token, a building block of induction circuits.",
    "Head two routes by syntax: verbs look at their subjects, prepositions at their verbs.",
    "Head three is positional: weight falls with distance, whatever the words.",
    "Head four gathers each word's determiners and adjectives.",
)
SHORT_NAMES = ("previous token", "syntax", "distance decay", "modifiers")
FOOT_Y = -2.85  # the band under the sentence: the footnote, then each head's spotlit weight
MAP_SIZE = 2.55


class HeadRouting(LectureScene):
    """Each head's routing as arcs over the sentence, then all four as heatmaps feeding W_O."""

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
            "One sentence, each word seeing only itself and earlier words. "
            "A multi-head layer runs several attention patterns over it at once; "
            "these four are stylised, built by hand rather than measured.",
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

    # --- the sentence and one head at a time ------------------------------------------
    def show_sentence(self, spoken: Spoken) -> None:
        """The words, large, and the note that the heads are stylised."""
        self.words = WordRows(self.sentence.texts, top=2.75, bottom=-2.35, size=56)
        self.note = label("stylised heads, built by hand", small=True, color=theme.MUTED).move_to(FOOT_Y * UP)
        appear = (FadeIn(word, shift=0.1 * UP) for word in self.words.boxes)
        self.play(LaggedStart(*appear, lag_ratio=0.3), run_time=3.5)  # read left to right
        self.until_said(spoken, "these four")
        self.fade_in(self.note)

    def head_title(self, h: int) -> Mobject:
        """'Hk: rule' at the top of the frame."""
        return label(f"H{h + 1}: {self.heads.names[h]}", color=theme.WEIGHT).move_to(3.2 * UP)

    def spotlight(self, h: int) -> int:
        """The query word whose row is highlighted for head h: one where the head's rule shows."""
        n = len(self.sentence)
        routed = [i for i in range(n) if not self.heads.targets[h][i, i]]  # annotated target elsewhere
        if h == 1 and routed:
            return routed[0]
        if h == 2:
            return n // 2
        return routed[-1] if h == 3 and routed else n - 1

    def strongest(self, h: int) -> tuple[int, int, float]:
        """(query, key, weight): the spotlit word and where its largest weight goes under head h."""
        w, i = self.heads.weights[h], self.spotlight(h)
        j = int(w[i].argmax())
        return i, j, float(w[i, j])

    def spotlight_text(self, h: int) -> str:
        """Where the spotlit query word's largest weight goes under head h, as a sentence."""
        i, j, w = self.strongest(h)
        target = "itself" if j == i else f'the word "{self.sentence.texts[j]}"'
        return f'The word "{self.sentence.texts[i]}" puts {100 * w:.0f} percent on {target}.'

    def weight_line(self, h: int) -> VGroup:
        """'query → key: 62%' in the band under the sentence: the number the narration reads out."""
        i, j, w = self.strongest(h)
        texts = self.sentence.texts
        parts = VGroup(
            label(texts[i], color=theme.QUERY),
            label("→", color=theme.MUTED),
            label("itself" if i == j else texts[j]),
            label(f"{100 * w:.0f}%", color=theme.WEIGHT),
        )
        return parts.arrange(RIGHT, buff=0.25).move_to(FOOT_Y * UP)

    def show_head(self, h: int) -> None:
        """All of head h's arcs, then one query word's weights as arcs and as levels in the word boxes."""
        w = self.heads.weights[h]
        i = self.spotlight(h)
        title, line = self.head_title(h), self.weight_line(h)
        arcs = word_arcs(self.words, w)
        focus = word_arcs(self.words, w, queries=[i], color=theme.QUERY)
        shown = focus.copy()
        focus.set_stroke(opacity=0.0)
        query_box = self.words.boxes[i][0]
        self.add(arcs, focus)
        self.bring_to_back(focus)
        self.bring_to_back(arcs)  # behind the words: a word's opaque box hides arcs passing behind it
        leaving = [FadeOut(self.note)] if h == 0 else []
        with self.beat(f"head-{h + 1}", f"{HEAD_TEXT[h]} {self.spotlight_text(h)}") as spoken:
            self.play(FadeIn(title), Create(arcs, introducer=False), *leaving, run_time=1.5)
            self.until_said(spoken, "The word")
            gauges = zip(self.words.gauges, self.words.gauge_targets(w[i]), strict=True)
            self.play(
                arcs.animate.set_stroke(opacity=0.12),
                Transform(focus, shown),
                query_box.animate.set_stroke(theme.QUERY, width=5),
                *(Transform(g, target) for g, target in gauges),
                FadeIn(line),
                run_time=1.0,
            )
            self.hold(self.speech_left() - 0.6)
            empty = zip(self.words.gauges, self.words.gauge_targets(0.0 * w[i]), strict=True)
            self.play(
                *(FadeOut(m) for m in (title, arcs, focus, line)),
                query_box.animate.set_stroke(theme.MUTED, width=2),
                *(Transform(g, target) for g, target in empty),
                run_time=0.6,
            )

    # --- all heads, and what follows them ------------------------------------------------
    def show_all_heads(self) -> None:
        """The four heads as heatmaps in a 2 x 2 grid (rows: queries, columns: keys), each named."""
        cells = VGroup()
        self.maps, self.map_tags, self.map_names = VGroup(), VGroup(), VGroup()
        for h in range(4):
            hm = Heatmap(self.heads.weights[h], size=MAP_SIZE)
            tag = label(f"H{h + 1}", color=theme.WEIGHT, size=theme.TITLE_SIZE)
            name = label(SHORT_NAMES[h])
            side = VGroup(tag, name).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
            cells.add(VGroup(hm, side.next_to(hm, RIGHT, buff=0.3)))
            self.maps.add(hm)
            self.map_tags.add(tag)
            self.map_names.add(name)
        cells.arrange_in_grid(rows=2, cols=2, buff=(0.6, 0.45), cell_alignment=LEFT).move_to(0.2 * DOWN)
        self.header = label("rows: query word    columns: key word", color=theme.MUTED).move_to(3.2 * UP)
        self.play(FadeOut(self.words), FadeIn(cells), FadeIn(self.header), run_time=1.2)

    def show_concatenation(self, spoken: Spoken) -> None:
        """Each head's output is a slice of one (T x H d_head) matrix; W_O maps it to the next layer."""
        res = self.heads.result
        h, t, d_head = res.head_outputs.shape
        d_out = res.output.shape[1]
        bands = VGroup(*(matrix_block(1.8, 2.1, None, theme.VALUE) for _ in range(h))).arrange(RIGHT, buff=0)
        concat = VGroup(bands, math(rf"{t}\times{h * d_head}", small=True).next_to(bands, DOWN, buff=0.15))
        w_o = matrix_block(1.1, 2.9, r"W_O", theme.MUTED)
        w_o.add(math(rf"{h * d_head}\times{d_out}", small=True).next_to(w_o, DOWN, buff=0.15))
        out = matrix_block(2.5, 2.1, None, theme.VALUE)  # T rows as tall as the bands, wider than tall
        out.add(math(rf"{t}\times{d_out}", small=True).next_to(out, DOWN, buff=0.15))
        chain = VGroup(concat, math(r"\cdot"), w_o, math(r"="), out).arrange(RIGHT, buff=0.35)
        chain.move_to(1.0 * DOWN)
        for part in chain[1:]:
            part.match_y(bands)
        for part in chain[2::2]:
            part[-1].next_to(part[0], DOWN, buff=0.15)  # shapes beneath their blocks after the move
        tops = [band.get_top() for band in bands]
        arrows = VGroup(*(Arrow(top + 0.9 * UP, top, buff=0.05, color=theme.MUTED) for top in tops))
        self.play(*(FadeOut(m) for m in (*self.map_names, self.header)), run_time=0.5)
        moves = []
        for hm, tag, top in zip(self.maps, self.map_tags, tops, strict=True):
            moves.append(hm.animate.scale(1.5 / MAP_SIZE).move_to(top + 1.75 * UP))
            moves.append(tag.animate.move_to(top + 1.05 * DOWN))
        self.play(FadeIn(bands), *moves, run_time=1.2)
        self.fade_in(arrows, concat[1])
        self.until_said(spoken, "mixed by")
        self.fade_in(*chain[1:])
