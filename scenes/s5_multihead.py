"""Section 5: multi-head attention — four heads route one sentence four ways.

Render with ``manim -qh scenes/s5_multihead.py HeadRouting``.
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
    Arrow,
    Circumscribe,
    Create,
    Cross,
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attnmath import distinctive_queries, stylized_heads
from drawing import theme
from drawing.blocks import matrix_block
from drawing.pointing import in_turn
from drawing.sentence import WordRows
from drawing.tokens import Heatmap
from drawing.widgets import label, math
from lecture.sections.s5_multihead import HeadRoutingParameters
from narration.narrator import Spoken
from scenes.base import SAID, LectureScene, Said
from scenes.s5_induction import DecoderInduction
from scenes.s5_trained import TrainedHeads

__all__ = ["HeadRouting"]

HEAD_TEXT = (
    "Head one looks one token back.",
    "Head two routes by syntax: verbs look at their subjects, prepositions at their verbs.",
    "Head three, positional: each word back roughly halves the weight.",
    "Head four gathers modifiers, within each noun phrase.",
)
SHORT_NAMES = ("previous token", "syntax", "distance decay", "modifiers")
MAP_SIZE = 2.55
SPOKEN_SHARE = 0.2  # a key is named (and labelled with its percent) when it takes at least this weight
LINE_SHARE = 0.05  # a query's line to a key is drawn when the key takes at least this weight


def as_sentence(words: Sequence[str]) -> str:
    """``words`` as one sentence for the voice: punctuation against its word, a full stop at the end."""
    text = re.sub(r" (?=[.,;:!?])", "", " ".join(words))
    return text if text.endswith((".", "!", "?")) else text + "."


class RoutingColumns(VGroup):
    """The sentence twice, queries down the left, keys down the right; a head's weights as lines between."""

    def __init__(self, words: Sequence[str], *, top: float = 2.0, bottom: float = -2.95, gap: float = 3.4):
        super().__init__()
        n = len(words)
        self.step = (top - bottom) / max(n - 1, 1)
        size = theme.LABEL_SIZE if self.step >= 0.55 else theme.SMALL_SIZE
        ys = [top - i * self.step for i in range(n)]
        self.left_x, self.right_x = -gap / 2, gap / 2
        self.queries = VGroup(*(label(w, size=size, small=size < theme.LABEL_SIZE) for w in words))
        self.keys = VGroup(*(label(w, size=size, small=size < theme.LABEL_SIZE) for w in words))
        for q, k, y in zip(self.queries, self.keys, ys, strict=True):
            q.move_to([self.left_x - 0.15 - q.width / 2, y, 0])
            k.move_to([self.right_x + 0.15 + k.width / 2, y, 0])
        self.ys = ys
        self.headers = VGroup(
            label("query", color=theme.QUERY).move_to([self.left_x - 0.9, top + 0.55, 0]),
            label("key", color=theme.KEY).move_to([self.right_x + 0.6, top + 0.55, 0]),
        )
        self.add(self.queries, self.keys, self.headers)

    def lines(
        self, weights: np.ndarray, queries: Sequence[int] | None = None, color: str = theme.WEIGHT
    ) -> VGroup:
        """A line from each query to each key it weighs at LINE_SHARE or more; width and opacity follow it."""
        group = VGroup()
        for i in queries if queries is not None else range(len(self.ys)):
            for j in np.flatnonzero(weights[i] >= LINE_SHARE):
                w = float(weights[i, j])
                line = Line([self.left_x + 0.05, self.ys[i], 0], [self.right_x - 0.05, self.ys[int(j)], 0])
                group.add(line.set_stroke(color, width=1.5 + 6.0 * w, opacity=0.3 + 0.7 * w))
        return group

    def percents(self, row: np.ndarray, keys: Sequence[int]) -> VGroup:
        """Each named key's weight as a percentage, to the right of the key word."""
        return VGroup(
            *(
                label(f"{100 * row[j]:.0f}%", color=theme.WEIGHT).next_to(self.keys[j], RIGHT, buff=0.3)
                for j in keys
            )
        )


class HeadRouting(TrainedHeads, DecoderInduction, LectureScene[HeadRoutingParameters]):
    """Each head's routing as lines from query words to key words, then all four as heatmaps feeding W_O."""

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.heads = stylized_heads(self.params.sentence, causal=True)
        self.spotlights = distinctive_queries(self.heads.weights)
        self.title_beat()
        with self.beat(
            "sentence",
            "One sentence, each word seeing itself and earlier words; "
            "a multi-head layer runs several attention patterns.",
            shows=f"Words appear: {as_sentence(self.params.sentence.texts)}",
        ):
            self.show_sentence()
        with self.beat(
            "own-weights",
            "Each head has its own query, key and value matrices, so training may give each "
            "its own pattern: syntax, delimiters, copies.",
            shows="The words become two columns: queries on the left, keys on the right.",
        ):
            self.show_columns()
        with self.beat(
            "stylised",
            "These four heads are stylised, built by hand from grammar and positions, not trained.",
            shows=SAID,
        ):
            self.show_note()
        for h in range(4):
            self.show_head(h)
        with self.beat(
            "all-heads",
            "As grids, rows for queries, columns for keys: four different summaries of the same words.",
            shows="Four grids, blank above the diagonal; H1 a stripe under it; H3 fades leftward.",
        ):
            self.show_all_heads()
        self.show_trained()
        self.show_decoder()
        with self.beat(
            "concatenate",
            "Our four heads' outputs are concatenated; an output matrix, W O, mixes them into one: many "
            "summaries in parallel.",
            shows=self.concatenation_shows(),
        ):
            self.back_to_stylised()
            self.show_concatenation()
        self.pause_and_predict(
            self.question(),
            self.the_folding_head,
            shows="H2 keeps all keys and values; H1 one value; H3 one sum; H4 phrase sums.",
            ends_section=True,
        )

    # --- the sentence, then one head at a time ------------------------------------------
    def show_sentence(self) -> None:
        """The words, large, read left to right."""
        self.words = WordRows(self.params.sentence.texts, top=2.75, bottom=-2.35, size=56)
        appear = (FadeIn(word, shift=0.1 * UP) for word in self.words.boxes)
        self.play(LaggedStart(*appear, lag_ratio=0.3), run_time=3.5)

    def show_columns(self) -> None:
        """The sentence becomes two columns, queries and keys; each head's own projections are named."""
        self.columns = RoutingColumns(self.params.sentence.texts)
        self.top_line: Mobject = math(
            r"\text{each head: its own } W_Q,\ W_K,\ W_V", color=theme.TEXT
        ).move_to(3.2 * UP)
        texts = [word[2] for word in self.words.boxes]
        self.play(
            *(ReplacementTransform(t, q) for t, q in zip(texts, self.columns.queries, strict=True)),
            *(TransformFromCopy(t, k) for t, k in zip(texts, self.columns.keys, strict=True)),
            *(FadeOut(VGroup(word[0], word[1])) for word in self.words.boxes),
            run_time=1.5,
        )
        self.fade_in(self.columns.headers, run_time=0.6)
        self.when_said("own query", FadeIn(self.top_line, shift=0.2 * DOWN), run_time=1.0)
        self.when_said("its own pattern", in_turn(self.columns.queries, color=theme.QUERY), run_time=2.5)

    def show_note(self) -> None:
        """The stylised-heads note replaces the projections line."""
        note = label("stylised heads, built by hand", color=theme.MUTED).move_to(3.2 * UP)
        self.play(FadeOut(self.top_line), run_time=0.5)
        self.fade_in(note, run_time=1.0)
        self.when_said("built by hand", Circumscribe(note, color=theme.MUTED), run_time=1.2)
        self.top_line = note

    def head_title(self, h: int) -> Mobject:
        """'Hk: rule' at the top of the frame."""
        return label(f"H{h + 1}: {self.heads.names[h]}", color=theme.HEADS[h]).move_to(3.2 * UP)

    def named_keys(self, h: int) -> list[int]:
        """The spotlit query's one or two largest weights under head h (those of at least SPOKEN_SHARE)."""
        row = self.heads.weights[h][self.spotlights[h]]
        order = np.argsort(-row, kind="stable")[:2]
        return [int(j) for j in order if row[j] >= SPOKEN_SHARE]

    def spotlight_text(self, h: int) -> str:
        """Where the spotlit query word's weight goes under head h, as a sentence."""
        i, texts = int(self.spotlights[h]), self.params.sentence.texts
        row = self.heads.weights[h][i]
        where = {j: "itself" if j == i else f'"{texts[j]}"' for j in self.named_keys(h)}
        parts = [f"{100 * row[j]:.0f} percent on {place}" for j, place in where.items()]
        word = f'"{texts[i]}"'
        if list(texts).count(texts[i]) > 1 and i > 0:  # which "the": the one after its previous word
            word = f'the {word} after "{texts[i - 1]}"'
        return f"Here {word} puts " + " and ".join(parts) + "."

    def head_shows(self, h: int) -> str | Said:
        """The audio description of head h's beat: what its lines do that the narration does not say."""
        w, texts = self.heads.weights[h], self.params.sentence.texts
        if h == 0:
            return SAID  # one token back, and the spotlit word's weight: both spoken
        if h == 1:
            turns = [(i, int(np.argmax(w[i]))) for i in range(len(texts)) if int(np.argmax(w[i])) != i]
            if not turns:
                return "Each line goes to itself."
            away = ", ".join(f'"{texts[i]}" to "{texts[j]}"' for i, j in turns)
            return f"Each word's line goes to itself, except {away}."
        if h == 2:
            back = max(int(np.count_nonzero(w[i, :i] >= LINE_SHARE)) for i in range(len(texts)))
            return f"Each word's weight roughly halves per word back; lines drawn only to {back} back."
        return "Nouns and adjectives weigh their phrase's earlier modifiers; other words, themselves."

    def concatenation_shows(self) -> str:
        """The audio description of the concatenation: what its width is made of, and the output's shape."""
        h, t, d_head = self.heads.result.head_outputs.shape
        d_out = self.heads.result.output.shape[1]
        return f"Rows, {t} words; {h} heads' {d_head}-wide values joined, {h * d_head}; W O maps to {d_out}."

    def show_head(self, h: int) -> None:
        """All of head h's lines, then the spotlit query's lines and their percentages."""
        w, i = self.heads.weights[h], int(self.spotlights[h])
        title = self.head_title(h)
        lines = self.columns.lines(w)
        focus = self.columns.lines(w, queries=[i], color=theme.QUERY)
        tags = self.columns.percents(w[i], self.named_keys(h))
        query = self.columns.queries[i]
        with self.beat(f"head-{h + 1}", f"{HEAD_TEXT[h]} {self.spotlight_text(h)}", shows=self.head_shows(h)):
            self.play(FadeOut(self.top_line), run_time=0.4)  # one title at a time: a crossfade reads as two
            draw = min(max(self.seconds_until("Here") - 0.3, 1.5), 4.5)  # the lines draw while it is said
            self.play(FadeIn(title), Create(lines), run_time=draw)
            self.until_said("Here")
            self.play(
                lines.animate.set_stroke(opacity=0.12),
                Create(focus),
                query.animate.set_color(theme.QUERY),
                FadeIn(tags),
                run_time=1.0,
            )
            self.hold(self.speech_left() - 0.6)
            self.play(
                *(FadeOut(m) for m in (lines, focus, tags)), query.animate.set_color(theme.TEXT), run_time=0.6
            )
        self.top_line = title

    # --- all heads, and what follows them ------------------------------------------------
    def show_all_heads(self) -> None:
        """The four heads as heatmaps in a 2 x 2 grid (rows: queries, columns: keys), each named."""
        cells = VGroup()
        self.maps, self.map_tags, self.map_names = VGroup(), VGroup(), VGroup()
        for h in range(4):
            hm = Heatmap(self.heads.weights[h], size=MAP_SIZE, diagonal=True)  # H1's stripe reads off it
            hm.frame.set_stroke(theme.HEADS[h], width=3)  # the head's colour, kept into the concatenation
            tag = label(f"H{h + 1}", color=theme.HEADS[h], size=theme.TITLE_SIZE)
            name = label(SHORT_NAMES[h])
            side = VGroup(tag, name).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
            cells.add(VGroup(hm, side.next_to(hm, RIGHT, buff=0.3)))
            self.maps.add(hm)
            self.map_tags.add(tag)
            self.map_names.add(name)
        cells.arrange_in_grid(rows=2, cols=2, buff=(0.6, 0.45), cell_alignment=LEFT).move_to(0.2 * DOWN)
        rows_are = label("rows: query word", color=theme.MUTED)
        self.header = VGroup(rows_are, label("columns: key word", color=theme.MUTED))
        self.header.arrange(RIGHT, buff=0.6).move_to(3.2 * UP)
        self.play(FadeOut(self.columns), FadeOut(self.top_line), FadeIn(cells), run_time=1.2)
        row, column = self.row_and_column(self.maps[0])
        self.when_said("rows for queries", FadeIn(rows_are), Create(row), run_time=1.0)
        self.when_said("columns for keys", FadeIn(self.header[1]), Create(column), run_time=1.0)
        self.play(FadeOut(row), FadeOut(column), run_time=0.5)
        self.rejoin(*self.header)
        self.add(self.header)  # one piece again, as later beats fade it
        each = LaggedStart(
            *(Circumscribe(m, color=theme.HEADS[h]) for h, m in enumerate(self.maps)), lag_ratio=0.5
        )
        self.when_said("different summaries", each, run_time=3.0)

    def row_and_column(self, heatmap: Heatmap) -> tuple[Rectangle, Rectangle]:
        """How to read ``heatmap``: its middle word's row (query colour) and column (key colour)."""
        t, middle = len(self.heads.weights[0]), len(self.heads.weights[0]) // 2
        row = VGroup(*heatmap.cells[middle * t : (middle + 1) * t])
        column = VGroup(*heatmap.cells[middle::t])
        return SurroundingRectangle(row, color=theme.QUERY, buff=0.02), SurroundingRectangle(
            column, color=theme.KEY, buff=0.02
        )

    def the_folding_head(self, spoken: Spoken) -> None:
        """The answer, head by head: what each must keep, written in its band; the syntax head crossed.

        The syntax head keeps every key and value (vermillion, the colour of "cannot"); head one a
        single value, head three one discounted sum, head four a sum per noun phrase. Each head a
        fixed-size summary settles dims, so the one exception stands out.
        """
        keeps = {
            1: ("all k, v", theme.WARNING, "syntax head"),
            0: ("1 value", theme.VALUE, "one value"),
            2: ("1 sum", theme.VALUE, "discounted sum"),
            3: ("phrase sums", theme.VALUE, "sum per phrase"),
        }
        for h, (text, colour, cue) in keeps.items():
            tag = self.map_tags[h]  # at its band's centre; the band is 2.1 high, its shape written under it
            below = 1.8 + 0.4 * (h % 2)  # alternate rows: neighbours' words never meet
            kept = label(text, small=True, color=colour).move_to([tag.get_x(), tag.get_y() - below, 0])
            self.until_said(cue)
            if h == 1:
                cross = Cross(self.maps[h], stroke_color=theme.WARNING, stroke_width=5)
                self.play(Create(cross), FadeIn(kept, shift=0.1 * UP), run_time=1.0)
            else:  # settled by a fixed-size summary: its map and band dim, the exception stands out
                settled = VGroup(self.maps[h], self.bands[h], self.map_tags[h])
                self.play(FadeIn(kept, shift=0.1 * UP), settled.animate.fade(0.6), run_time=1.0)

    def show_concatenation(self) -> None:
        """Each head's output is a slice of one (T x H d_head) matrix; W_O maps it to the next layer."""
        res = self.heads.result
        h, t, d_head = res.head_outputs.shape
        d_out = res.output.shape[1]
        bands = VGroup(*(matrix_block(1.8, 2.1, None, theme.HEADS[k]) for k in range(h)))
        self.bands = bands
        bands.arrange(RIGHT, buff=0)
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
        arrows = VGroup(
            *(Arrow(top + 0.9 * UP, top, buff=0.05, color=theme.HEADS[k]) for k, top in enumerate(tops))
        )
        self.play(*(FadeOut(m) for m in (*self.map_names, self.header)), run_time=0.5)
        moves = []
        for hm, tag, top in zip(self.maps, self.map_tags, tops, strict=True):
            moves.append(hm.animate.scale(1.5 / MAP_SIZE).move_to(top + 1.75 * UP))
            moves.append(tag.animate.move_to(top + 1.05 * DOWN))
        self.play(FadeIn(bands), *moves, run_time=1.2)
        self.fade_in(arrows, concat[1])
        self.until_said("mixes them")
        self.fade_in(*chain[1:])
