"""Section 5, "what a trained model does": the stylised heads beside heads measured in all-MiniLM-L6-v2.

The lecture's sentence runs through a real trained encoder (attnmath.encoder,
numpy, offline); every head is scored against each stylised pattern
(attnmath.head_patterns). Only a head that passes the stated threshold on its
own merit is shown as a match: a modifier or subject "match" that the same
head's previous-token score explains (the word sits just before its noun or
verb) is not claimed. The model is an encoder: every word sees the whole
sentence, unlike the causal stylised heads, and the scene says so.
"""

from __future__ import annotations

import math as pymath
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circumscribe,
    FadeIn,
    FadeOut,
    LaggedStart,
    Mobject,
    Rectangle,
    SurroundingRectangle,
    VGroup,
)

from attnmath import (
    MATCH_THRESHOLD,
    HeadMatch,
    RealHeads,
    Sentence,
    real_heads,
)
from attnmath.heads import StylizedHeads
from drawing import theme
from drawing.scorebar import ScoreBar
from drawing.tiles import HeadTiles
from drawing.tokens import Heatmap
from drawing.widgets import label
from lecture.sections.s5_multihead import HeadRoutingParameters
from scenes.base import SAID, Mixin

__all__ = ["TrainedHeads", "genuine"]

MODEL_NAME = "all-MiniLM-L6-v2"
BIG_MAP = 4.8  # side of a measured or stylised map shown alone
ROW_PITCH = 0.36  # the least row height that fits a small label without touching the next
SMALL_MAP = 1.8  # side of a stylised map in the row of patterns with no match


def best_score(match: HeadMatch) -> str:
    """A head's best score as its card shows it: to 3 decimals, more where 3 would cross the threshold.

    0.49992 reads 0.4999: not 0.500, which would seem to pass, nor a floored 0.499, hiding how near it is.
    """
    below = match.score < MATCH_THRESHOLD
    for decimals in range(3, 7):
        text = f"{match.score:.{decimals}f}"
        if (float(text) < MATCH_THRESHOLD) == below:
            return text
    return text


def from_previous(match: HeadMatch) -> bool:
    """Whether a pattern's best head is a previous-token head (its words sit next to their targets)."""
    return match.stylised != "H1" and match.previous >= MATCH_THRESHOLD


def by_source(matches: list[HeadMatch]) -> tuple[list[HeadMatch], list[HeadMatch]]:
    """(patterns under the mark on their own, patterns whose best head is the previous-token head)."""
    return [m for m in matches if not from_previous(m)], [m for m in matches if from_previous(m)]


def genuine(match: HeadMatch) -> bool:
    """A match shown on the head's own merit: H1, or a pattern its previous-token score leaves unexplained."""
    return match.matched and (match.stylised == "H1" or match.previous < MATCH_THRESHOLD)


@dataclass(frozen=True)
class ModelView:
    """The model view on screen: everything in it, the heads' image, and the caveat shown a beat later."""

    group: VGroup
    tiles: HeadTiles
    caveat: Mobject


class TrainedHeads(Mixin[HeadRoutingParameters]):
    """Mixin for section 5's scene: four beats that set measured heads beside the stylised ones."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        sentence: Sentence
        heads: StylizedHeads
        maps: VGroup
        map_tags: VGroup
        map_names: VGroup
        header: Mobject

    def show_trained(self) -> None:
        """The model view, head one's measured twin, the attention sink, and what the model does not show."""
        found = real_heads(self.params.sentence)
        view = self.model_view(found)
        n_layers, n_heads = found.run.attention.shape[:2]
        with self.beat(
            "trained",
            f"All {n_layers * n_heads} heads of a trained model, Mini L M, on this sentence; "
            "unlike ours, each word sees words on both sides.",
            shows=f"{n_layers * n_heads} small maps, {n_layers} layers by {n_heads} heads; some a stripe, "
            "some a bright column.",
        ):
            title, layers, image = view.group
            self.clear_for_trained()
            self.fade_in(image, layers, run_time=1.2)
            self.when_said("trained model", FadeIn(title, shift=0.2 * DOWN), run_time=1.0)
            self.when_said("on this sentence", Circumscribe(image, color=theme.MUTED), run_time=1.5)
            self.until_said("both sides")
            self.fade_in(view.caveat, run_time=1.0)
        self.measured_h1(found, view)
        self.measured_sink(found)
        self.unmatched(found)

    def back_to_stylised(self) -> None:
        """The measured heads leave; the stylised grid returns for the concatenation."""
        leaving = [self.shown, self.tag] if getattr(self, "tag", None) in self.mobjects else [self.shown]
        self.play(*(FadeOut(m) for m in leaving), run_time=0.6)
        self.play(FadeIn(self.stylised_grid), FadeIn(self.header), run_time=0.8)
        self.remove(self.stylised_grid)
        self.add(*self.stylised_grid)  # the concatenation moves each map on its own

    def clear_for_trained(self) -> None:
        """The stylised grid leaves; it returns for the concatenation."""
        self.stylised_grid = VGroup(*self.maps, *self.map_tags, *self.map_names)
        self.shown = VGroup()
        self.play(FadeOut(self.stylised_grid), FadeOut(self.header), run_time=0.8)

    def model_view(self, found: RealHeads) -> ModelView:
        """The 72 heads as one image, its name above and the caveat beneath (shown later)."""
        image = HeadTiles(found.run.attention, width=9.0).move_to(0.3 * UP)
        title = label(
            f"measured: {MODEL_NAME}, {found.run.attention.shape[0]} layers \u00d7 "
            f"{found.run.attention.shape[1]} heads",
            color=theme.MUTED,
        )
        title.next_to(image, UP, buff=0.3)
        layers = label(
            "layers 1\u20136, top to bottom; heads 1\u201312, left to right", small=True, color=theme.MUTED
        ).next_to(image, DOWN, buff=0.2)
        caveat = label("reads both ways, unlike our causal heads", color=theme.WARNING)
        caveat.next_to(layers, DOWN, buff=0.15)
        return ModelView(VGroup(title, layers, image), image, caveat)

    def pair(
        self, stylised: np.ndarray | None, measured: np.ndarray, tokens: tuple[str, ...]
    ) -> tuple[VGroup, Heatmap]:
        """A stylised map (or none) beside a measured one, each with its diagonal; the measured rows named."""
        right = Heatmap(measured, size=BIG_MAP, diagonal=True)
        cell = BIG_MAP / len(tokens)
        names = VGroup()
        if cell >= ROW_PITCH:  # a lecturer's long sentence has too many word pieces to name each row
            names = VGroup(*(label(t, small=True, color=theme.QUERY) for t in tokens))
            for i, name in enumerate(names):
                name.next_to(right.frame.get_corner(UP + LEFT) + (i + 0.5) * cell * DOWN, LEFT, buff=0.2)
        block = VGroup(right, names)
        if stylised is not None:
            left = Heatmap(stylised, size=BIG_MAP, diagonal=True)
            left.frame.set_stroke(theme.HEADS[0], width=3)  # stylised H1, in its colour
            block = VGroup(left, block).arrange(RIGHT, buff=0.8)
        return block.move_to(0.3 * DOWN), right

    def measured_h1(self, found: RealHeads, view: ModelView) -> None:
        """Head one beside the measured previous-token head, if the model has one."""
        match = found.matches[0]
        layer, head = match.layer + 1, match.head + 1
        if not genuine(match):
            with self.beat(
                "trained-previous", "Even the previous-token pattern has no measured match here.", shows=SAID
            ):
                self.hold(0.5)
            self.play(FadeOut(view.group), FadeOut(view.caveat), run_time=0.6)
            return
        percent = pymath.floor(100 * match.score)
        tile = self.tile_box(view, found, match.layer, match.head)
        with self.beat(
            "trained-previous",
            f"Layer {layer}, head {head}, is our previous-token head, measured: on average, over {percent} "
            "percent of a token's weight falls on the token before.",
            shows="Its map appears beside stylised H1; both show a stripe just below the diagonal.",
        ):
            self.play(FadeIn(tile), run_time=0.6)
            shown, right = self.pair(
                self.heads.weights[0], found.run.attention[match.layer, match.head], found.run.tokens
            )
            left_name = label("stylised H1", color=theme.HEADS[0]).next_to(shown[0], UP, buff=0.25)
            right_name = label(f"measured: layer {layer}, head {head}", color=theme.TEXT)
            right_name.next_to(right, UP, buff=0.25).align_to(right, RIGHT)
            share = label(f"over {percent}% on the word before", small=True, color=theme.WEIGHT)
            share.next_to(right, DOWN, buff=0.12).align_to(right, RIGHT)
            self.until_said("measured")
            leaving = (view.group, view.caveat, tile)
            arriving = (shown, left_name, right_name, *self.model_tag())
            self.play(*(FadeOut(m) for m in leaving), *(FadeIn(m) for m in arriving), run_time=1.2)
            self.when_said("percent", FadeIn(share, shift=0.2 * UP), run_time=0.8)
        self.shown = VGroup(shown, left_name, right_name, share)

    def model_tag(self) -> list[Mobject]:
        """The model's name and caveat, small at the top while measured heads show: [it] until it is shown."""
        if not hasattr(self, "tag"):
            self.tag = label(
                f"measured in {MODEL_NAME}, which reads both ways", small=True, color=theme.MUTED
            )
            self.tag.move_to([0, theme.SAFE_TOP - self.tag.height / 2, 0])
        return [] if self.tag in self.mobjects else [self.tag]

    def tile_box(self, view: ModelView, found: RealHeads, layer: int, head: int) -> Rectangle:
        """A box around one head's tile in the model view."""
        frame = view.tiles.tile(layer, head)
        return SurroundingRectangle(frame, color=theme.HEADS[0], buff=0.05, stroke_width=4)  # H1's match

    def measured_sink(self, found: RealHeads) -> None:
        """The head that parks the most weight on [CLS] (or [SEP]), with its column marked."""
        sink = found.sink
        if not sink.is_sink:
            return
        layer, head, percent = sink.layer + 1, sink.head + 1, round(100 * sink.weight)
        token = "C L S" if sink.token == "[CLS]" else "S E P"
        where = "start" if sink.token == "[CLS]" else "end"
        column, t = found.run.tokens.index(sink.token), len(found.run.tokens)
        weights = found.run.attention[sink.layer, sink.head][:, column]
        rows = "bright in every row" if weights.min() >= 0.5 else "bright in most rows"
        with self.beat(
            "trained-sink",
            f"Some heads park weight on {token}, a special {where} token: plausibly a default, an attention "
            f"sink; layer {layer}, head {head} averages {percent} percent.",
            shows=f"Rows fill in; a box outlines the {token} column, {rows}.",
        ):
            shown, right = self.pair(None, found.run.attention[sink.layer, sink.head], found.run.tokens)
            name = label(f"measured: layer {layer}, head {head}", color=theme.TEXT)
            name.next_to(right, UP, buff=0.25).align_to(right, RIGHT)
            cells = VGroup(*(right.cells[i * t + column] for i in range(t)))
            mark = SurroundingRectangle(cells, color=theme.KEY, buff=0.03)
            right.remove(right.cells)  # the rows arrive as the voice says where their weight goes
            arriving = (shown, name, *self.model_tag())
            self.play(FadeOut(getattr(self, "shown", VGroup())), *(FadeIn(m) for m in arriving), run_time=1.2)
            self.rows_arrive(right, t, "park weight")
            note = self.special_tokens(right)
            self.when_said(f"{where} token", FadeIn(note, shift=0.2 * LEFT), run_time=0.8)
            share = label(f"{percent}% on {sink.token}", small=True, color=theme.WEIGHT)
            share.next_to(name, RIGHT, buff=0.4)
            self.until_said("attention sink")
            self.play(FadeIn(mark), run_time=0.8)
            self.when_said(f"head {head} averages", FadeIn(share, shift=0.2 * LEFT), run_time=0.8)
        self.shown = VGroup(shown, name, mark, share, note)

    @staticmethod
    def special_tokens(heatmap: Heatmap) -> VGroup:
        """What [CLS] and [SEP] are, in three short lines beside ``heatmap``, whose rows begin and end so."""
        lines = ("[CLS], [SEP]:", "tokens added", "at start, end")
        note = VGroup(*(label(line, small=True, color=theme.MUTED) for line in lines))
        return note.arrange(DOWN, aligned_edge=LEFT, buff=0.1).next_to(heatmap.frame, RIGHT, buff=0.4)

    def rows_arrive(self, heatmap: Heatmap, t: int, words: str) -> None:
        """``heatmap``'s removed cells back as the voice reaches ``words``, one query row after another."""
        rows = [VGroup(*heatmap.cells[i * t : (i + 1) * t]) for i in range(t)]
        self.when_said(words, LaggedStart(*(FadeIn(row) for row in rows), lag_ratio=0.35), run_time=2.0)
        self.rejoin(*rows)
        heatmap.submobjects.insert(1, heatmap.cells)  # drawn as part of the map again, under its diagonal

    def unmatched(self, found: RealHeads) -> None:
        """The stylised patterns no measured head shows on its own merit, each with the best score found."""
        missing = [m for m in found.matches if not genuine(m)]
        if not missing:
            return
        missing.sort(key=from_previous)  # the patterns no head shows first, then the previous-token head's
        names = [SHORT.get(m.stylised, m.name) for m in missing]
        row = VGroup(*(self.unmatched_card(m) for m in missing)).arrange(RIGHT, buff=0.7, aligned_edge=UP)
        title = VGroup(
            label("each pattern's best trained head", color=theme.TEXT),
            label("score: its weight on the pattern's targets, 0 to 1", small=True, color=theme.MUTED),
        ).arrange(DOWN, buff=0.12)  # fmt: skip
        VGroup(title, row).arrange(DOWN, buff=0.3).move_to([0, -0.12, 0])  # under the model's tag
        with self.beat(
            "trained-none", self.unmatched_narration(missing), shows=f"{self.unmatched_scores(missing)}."
        ):
            self.play(FadeOut(self.shown), run_time=0.6)
            self.fade_in(title, run_time=1.0)
            for card, name in zip(row, names, strict=True):  # each card as the narration names its pattern
                self.when_said(name, FadeIn(card, shift=0.2 * UP), run_time=0.8)
        self.shown = VGroup(title, row)

    @staticmethod
    def unmatched_narration(missing: list[HeadMatch]) -> str:
        """Why no trained head shows these patterns: those no head shows, then the previous-token head's.

        A pattern whose best head is the previous-token head is one whose targets often sit one word
        back; its score, on either side of the mark, is that head's pattern, not its own.
        """

        def listed(matches: list[HeadMatch], last: str) -> str:
            names = [SHORT.get(m.stylised, m.name) for m in matches]
            return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {last} " + names[-1]

        rest, via = by_source(missing)
        clauses = [f"no trained head clearly shows {listed(rest, 'or')}"] if rest else []
        if via:
            clauses.append(f"many targets of {listed(via, 'and')} sit one word back, so the previous-token "
                           "head scores best")  # fmt: skip
        return f"Here, {'; '.join(clauses)}."

    @staticmethod
    def unmatched_scores(missing: list[HeadMatch]) -> str:
        """The cards' best scores for the ear: the previous-token head's first, then the rest, under the mark.

        Patterns whose best head is the previous-token head are named together, as their cards say: a
        score of that head on either side of the mark shows the previous-token pattern, not theirs.
        """

        def said(matches: list[HeadMatch]) -> str:
            return ", ".join(f"{ON_SCREEN[m.stylised]} {best_score(m)}" for m in matches)

        rest, via = by_source(missing)
        parts = [f"Previous-token head: {said(via)}"] if via else []
        if rest:
            listed = f"{said(rest)}, under {MATCH_THRESHOLD:g}"
            parts.append(listed[:1].upper() + listed[1:])
        return "Best scores. " + ". ".join(parts)

    @staticmethod
    def why_unmatched(match: HeadMatch) -> tuple[str, ...]:
        """Why a pattern's best head is no match, as lines: under the mark, or the previous-token head."""
        if not from_previous(match):
            under = f"under {MATCH_THRESHOLD:g}"
            return (under, "(an overlap)") if match.stylised == "H3" else (under,)
        return ("only via the", "previous-token head")  # the head is another pattern's, on either side

    def unmatched_card(self, match: HeadMatch) -> VGroup:
        """One stylised head's map, its name, and the best measured score (or why its match is none)."""
        h = int(match.stylised[1:]) - 1
        heat = Heatmap(self.heads.weights[h], size=SMALL_MAP)
        heat.frame.set_stroke(theme.HEADS[h], width=3)
        name = label(f"{match.stylised}: {ON_SCREEN[match.stylised]}", color=theme.HEADS[h])
        bar = ScoreBar(match.score, MATCH_THRESHOLD, best_score(match), color=theme.HEADS[h])
        why = VGroup(*(label(line, small=True, color=theme.MUTED) for line in self.why_unmatched(match)))
        best = VGroup(bar, why.arrange(DOWN, buff=0.06)).arrange(DOWN, buff=0.15)
        return VGroup(name, heat, best).arrange(DOWN, buff=0.2)


SHORT = {"H1": "the previous token", "H2": "syntax", "H3": "distance decay", "H4": "modifiers"}
"""How the narration names each stylised pattern."""
ON_SCREEN = {"H1": "previous", "H2": "syntax", "H3": "distance", "H4": "modifiers"}
"""Its name under a small map."""
