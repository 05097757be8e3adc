"""Section 5, "what a trained decoder does": SmolLM2 reads random tokens twice, and one head copies.

The decoder (attnmath.decoder, numpy, offline) reads ``n`` random tokens, then
the same ``n`` again (lecture.sections.s5_induction). One picture changes in
place: the tokens as chips on the right, a head's 2n x 2n causal map on the
left. The map fills with the best previous-token head, then becomes the best
induction head, whose stripe sits n - 1 columns left of the diagonal in the
second copy's rows; a grid of all 270 heads' induction scores shows it is the
best; and the chips mark which tokens the model predicts, copy by copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    Create,
    CurvedArrow,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Mobject,
    Polygon,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    VGroup,
)

from attnmath import StylizedHeads
from drawing import theme
from drawing.scorebar import filled_track
from drawing.text import label
from drawing.tiles import HeadTiles
from lecture.parameters import ConfigError
from lecture.sections.s5_induction import DECODER_NAME, DECODER_SPOKEN, Induction, induction
from lecture.sections.s5_multihead import HeadRoutingParameters
from scenes.base import Mixin

__all__ = ["DecoderInduction", "percent"]

WALK = 3
"""Tokens the previous-token head's spotlight steps through before it rests on the spotlit query."""

MAP_SIDE = 3.9
MAP_CENTRE = np.array([-4.1, -0.35, 0.0])
GRID_CENTRE = np.array([-1.45, -0.35, 0.0])
CHIPS_LEFT, CHIPS_TOP = -0.3, 2.75
LINE_PITCH = 0.5


def percent(share: float) -> str:
    """A share as the voice says it: a whole percent, or "under 1" for a share that rounds to none."""
    whole = round(100 * share)
    return f"{whole} percent" if whole >= 1 else "under 1 percent"


def chip(text: str) -> VGroup:
    """One token as a small boxed label; a leading space is dropped, the box shows where it ends."""
    word = label(text.strip() or "\u2423", small=True)
    box = SurroundingRectangle(word, buff=0.07, color=theme.MUTED, stroke_width=1.5)
    return VGroup(box, word)


def flow(chips: list[VGroup], left: float, top: float, width: float) -> float:
    """Lay ``chips`` out left to right in lines no wider than ``width``; the y under the last line."""
    x, y = left, top
    for c in chips:
        if x > left and x + c.width > left + width:
            x, y = left, y - LINE_PITCH
        c.move_to([x + c.width / 2, y, 0])
        x += c.width + 0.12
    return y - LINE_PITCH


class DecoderInduction(Mixin[HeadRoutingParameters]):
    """Mixin for section 5's scene: six beats on a trained decoder's previous-token and induction heads."""

    if TYPE_CHECKING:  # kept by the beats before these (scenes.s5_trained, scenes.s5_multihead)
        shown: VGroup
        heads: StylizedHeads  # the four stylised heads (scenes.s5_multihead)

    def show_decoder(self) -> None:
        """The decoder reads the tokens twice; its previous-token head, its induction head, its copying."""
        found = induction(self.params.induction_tokens, self.params.induction_seed)
        self.decoder_reads(found)
        self.decoder_previous(found)
        self.decoder_induction(found)
        self.decoder_best(found)
        self.decoder_copies(found)
        self.play(FadeOut(self.decoder_view), run_time=0.8)

    # --- the picture -------------------------------------------------------------
    def decoder_layout(self, found: Induction) -> None:
        """The map's frame with its copies marked, the chips in two labelled blocks, the model's name."""
        n = found.n
        self.map_frame = Rectangle(width=MAP_SIDE, height=MAP_SIDE, color=theme.MUTED, stroke_width=1.5)
        self.map_frame.move_to(MAP_CENTRE)
        self.map_cells = 2 * n  # the map's rows and columns: both copies
        corner, cell = self.map_frame.get_corner(UP + LEFT), MAP_SIDE / self.map_cells
        self.cell = lambda i, j: corner + np.array([(j + 0.5) * cell, -(i + 0.5) * cell, 0.0])
        half = VGroup(
            DashedLine(corner + n * cell * RIGHT, corner + n * cell * RIGHT + MAP_SIDE * DOWN),
            DashedLine(corner + n * cell * DOWN, corner + n * cell * DOWN + MAP_SIDE * RIGHT),
        ).set_stroke(theme.MUTED, width=1.5, opacity=0.7)
        tops = VGroup(
            *(
                label(f"copy {k + 1}", small=True, color=theme.MUTED).move_to(
                    corner + ((k + 0.5) * MAP_SIDE / 2) * RIGHT + 0.25 * UP
                )
                for k in range(2)
            )
        )
        keys = label("keys", small=True, color=theme.MUTED).next_to(self.map_frame, DOWN, buff=0.12)
        queries = label("queries", small=True, color=theme.MUTED).rotate(np.pi / 2)
        queries.next_to(self.map_frame, LEFT, buff=0.1)
        self.chips = [chip(t) for t in found.tokens]
        heads = [
            label("copy 1", small=True, color=theme.MUTED),
            label("copy 2", small=True, color=theme.MUTED),
        ]
        width = theme.SAFE_RIGHT - CHIPS_LEFT
        heads[0].move_to([CHIPS_LEFT + heads[0].width / 2, CHIPS_TOP, 0])
        below = flow(self.chips[:n], CHIPS_LEFT, CHIPS_TOP - LINE_PITCH, width)
        heads[1].move_to([CHIPS_LEFT + heads[1].width / 2, below - 0.1, 0])
        self.chips_end = flow(self.chips[n:], CHIPS_LEFT, below - 0.1 - LINE_PITCH, width)
        if self.chips[-1].get_bottom()[1] < theme.SAFE_BOTTOM:
            raise ConfigError(
                f"[{self.params.scene}] the decoder's {n} random tokens "
                f"(induction_seed {self.params.induction_seed}) "
                "are too long to show twice at a readable size; set fewer induction_tokens or another seed"
            )
        self.chip_heads = heads
        tag = label(f"measured in {DECODER_NAME}, 4-bit weights", small=True)
        self.decoder_tag = tag.set_color(theme.MUTED).move_to([0, theme.SAFE_TOP - tag.height / 2, 0])
        self.map_marks = VGroup(half, tops, keys, queries)

    def head_map(self, weights: np.ndarray) -> HeadTiles:
        """One head's 2n x 2n causal map in the frame."""
        tiles = HeadTiles(weights[None, None], width=MAP_SIDE)
        tiles.frames.set_stroke(opacity=0)  # the frame is the scene's own, drawn once
        return tiles.move_to(self.map_frame)

    def head_name(self, layer: int, head: int) -> Mobject:
        """A head's name over the map, 1-based as the voice says it."""
        name = label(f"layer {layer + 1}, head {head + 1}", color=theme.TEXT)
        return name.next_to(self.map_frame, UP, buff=0.55)

    def outline(self, k: int, color: str) -> Mobject:
        """A coloured box around token ``k``'s chip."""
        return SurroundingRectangle(self.chips[k], buff=0.04, color=color, stroke_width=4)

    def cell_box(self, i: int, j: int, color: str) -> Mobject:
        """A box around cell (i, j) of the map, a little larger than the cell."""
        side = 1.8 * MAP_SIDE / self.map_cells
        return Rectangle(width=side, height=side, color=color, stroke_width=3).move_to(self.cell(i, j))

    def looks_back(self, k: int) -> VGroup:
        """Token ``k`` outlined as a query, the token before it as its key, and their cell of the map."""
        return VGroup(
            self.outline(k, theme.QUERY), self.outline(k - 1, theme.KEY), self.cell_box(k, k - 1, theme.KEY)
        )

    def causal_mask(self) -> Polygon:
        """The map's cells above the diagonal, shaded vermillion: keys after the query, which it never sees.

        A staircase along the diagonal, cell by cell, drawn over any map (those cells hold no weight).
        """
        size = self.map_cells
        corner, cell = self.map_frame.get_corner(UP + LEFT), MAP_SIDE / size
        steps = [corner + np.array([(k + 1) * cell, -d * cell, 0.0]) for k in range(size) for d in (k, k + 1)]
        mask = Polygon(*steps[:-1], corner + np.array([MAP_SIDE, 0.0, 0.0]), stroke_width=0)
        return mask.set_fill(theme.WARNING, opacity=0.3).set_z_index(1)

    # --- the beats ---------------------------------------------------------------
    def spotlight(self, found: Induction) -> int:
        """The second-copy query the beats point at: the one the induction head sends most to its target."""
        n = found.n
        rows = np.arange(n + 2, 2 * n - 1)
        return int(rows[np.argmax(found.induction[rows, rows - n + 1])])

    def decoder_reads(self, found: Induction) -> None:
        """The model's name and the empty map; then the tokens, copy by copy."""
        self.decoder_layout(found)
        n = found.n
        tag = getattr(self, "tag", None)  # the encoder's name, while it shows
        leaving = [self.shown, *([tag] if tag in self.mobjects else [])]
        with self.beat(
            "decoder",
            f"Now a trained decoder, {DECODER_SPOKEN}, with 4-bit weights: it predicts each token from those "
            "before.",
            shows=f"An empty {2 * n} by {2 * n} map, queries by keys; above the diagonal, masked.",
        ):
            self.play(*(FadeOut(m) for m in leaving), run_time=0.6)
            self.fade_in(self.decoder_tag, run_time=0.8)
            self.until_said(DECODER_SPOKEN.split()[0])
            self.fade_in(self.map_frame, self.map_marks, run_time=1.0)
            self.mask = self.causal_mask()
            self.when_said("from those", FadeIn(self.mask), run_time=1.0)
        with self.beat(
            "decoder-tokens",
            f"It reads {n} random tokens, then the same {n}: no one could guess the first copy, "
            "but the second can be copied.",
            shows="Two blocks of token chips, the second a repeat of the first.",
        ):
            for k, words in enumerate(("random tokens", "the same")):
                block = self.chips[k * n : (k + 1) * n]
                self.until_said(words)
                chips = LaggedStart(*(FadeIn(c) for c in block), lag_ratio=0.1)
                self.play(FadeIn(self.chip_heads[k]), chips, run_time=1.5)
        self.decoder_view = VGroup(
            self.decoder_tag, self.map_frame, self.map_marks, self.mask, *self.chip_heads, *self.chips
        )

    def decoder_previous(self, found: Induction) -> None:
        """The best previous-token head fills the map; the spotlit query and the token before it."""
        layer, head, score = found.heads.best_previous
        t = self.spotlight(found)
        self.map_now, self.name_now = self.head_map(found.previous), self.head_name(layer, head)
        with self.beat(
            "decoder-previous",
            f"Layer {layer + 1}, head {head + 1}, looks one token back, like our previous-token head: on "
            f"average {percent(score)} of each token's weight falls there.",
            shows="Its map fills: a stripe just below the diagonal; stylised head one's beside it.",
        ):
            self.play(FadeIn(self.map_now), FadeIn(self.name_now), run_time=1.2)
            walk = range(t - WALK, t + 1)  # the spotlight steps along the stripe to the query it rests on
            self.until_said("one token back")
            self.marks = self.looks_back(walk[0])
            self.play(FadeIn(self.marks), run_time=0.8)
            last = len(self.chips) - 1  # the stripe: every query's weight on the token before it
            stripe = DashedLine(self.cell(1, 0), self.cell(last, last - 1), color=theme.KEY, stroke_width=2)
            self.head_one = self.stylised_head_one()
            self.when_said("like our previous-token", FadeIn(self.head_one), run_time=1.0)
            self.when_said("on average", Create(stripe), run_time=1.5)
            self.until_said("each token's")
            for row in walk[1:]:
                step = self.looks_back(row)
                self.play(ReplacementTransform(self.marks, step), run_time=0.6)
                self.marks = step
            self.remove(stripe)  # drawn from here as part of the marks: fading them out takes it too
            self.marks.add(stripe)
        self.decoder_view.add(self.map_now, self.name_now, self.marks)

    def decoder_induction(self, found: Induction) -> None:
        """The map becomes the induction head's: the query's earlier twin, and the token after it."""
        layer, head, _ = found.heads.best_induction
        n, t = found.n, self.spotlight(found)
        new_map, new_name = self.head_map(found.induction), self.head_name(layer, head)
        twin, target = t - n, t - n + 1
        arrow = CurvedArrow(
            self.chips[t].get_top() + 0.05 * UP,
            self.chips[target].get_bottom() + 0.05 * DOWN,
            color=theme.KEY,
        )
        stripe = VGroup(DashedLine(self.cell(n, 1), self.cell(2 * n - 1, n), color=theme.KEY, stroke_width=2))
        with self.beat(
            "decoder-induction",
            f"Layer {layer + 1}, head {head + 1}, is new: in the second copy, each token finds its earlier "
            "twin, then weighs the token that followed it.",
            shows="In second-copy rows, weight falls on the token after each earlier twin.",
        ):
            swap = (FadeOut(self.marks), FadeOut(self.map_now), FadeOut(self.head_one), FadeIn(new_map))
            self.play(*swap, FadeOut(self.name_now), FadeIn(new_name), run_time=1.2)  # map and name together
            copy = SurroundingRectangle(VGroup(*self.chips[n:]), buff=0.1, color=theme.TEXT, stroke_width=3)
            self.when_said("second copy", Create(copy), run_time=0.8)
            self.until_said("earlier")
            marks = VGroup(self.outline(t, theme.QUERY), self.outline(twin, theme.MUTED))
            self.play(FadeIn(marks), run_time=0.8)
            self.until_said("followed")
            pointed = VGroup(self.outline(target, theme.KEY), arrow)
            self.play(FadeIn(pointed), FadeOut(copy), run_time=0.8)
            stripe.add(self.cell_box(t, target, theme.KEY))
            self.play(FadeIn(stripe), run_time=0.8)
        self.decoder_view.remove(self.map_now, self.name_now, self.marks)
        self.chip_marks = VGroup(marks, pointed)  # on the tokens: they leave with them
        self.decoder_view.add(new_map, new_name, self.chip_marks, stripe)

    def decoder_best(self, found: Induction) -> None:
        """Every head's induction score, large where the tokens were: one bright tile, the rest nearly dark.

        The grid lies 30 layers across and 9 heads down; the tokens and their marks make room for it
        and come back for the model's guesses (:meth:`decoder_copies`).
        """
        h = found.heads
        layer, head, score = h.best_induction
        grid = self.score_grid(h.induction)
        best = SurroundingRectangle(grid[0].tile(head, layer), color=theme.KEY, buff=0.04, stroke_width=4)
        figures = score_rows((("best", score, theme.KEY), ("typical", h.typical_induction, theme.MUTED)))
        figures.next_to(grid, DOWN, buff=0.3).set_x(grid[0].get_x())
        tokens = self.tokens_shown()
        with self.beat(
            "decoder-best",
            f"An induction head: the best of {found.n_heads}, averaging {percent(score)} on "
            f"that token; a typical head averages {percent(h.typical_induction)}.",
            shows=f"Grid, {h.induction.shape[0]} layers by {h.induction.shape[1]} heads; brightest, layer "
            f"{layer + 1} head {head + 1}: {score:.2f}; typical {h.typical_induction:.2f}.",
        ):
            self.play(FadeOut(tokens), run_time=0.8)  # the map's stripe alone, as its pattern is named
            self.when_said("the best", FadeIn(grid), run_time=1.0)
            self.when_said("averaging", Create(best), *grow_row(figures[0]), run_time=1.0)
            self.when_said("typical", *grow_row(figures[1]), run_time=0.8)
        self.decoder_view.remove(*tokens)
        self.grid_shown = VGroup(grid, best, figures)

    def tokens_shown(self) -> VGroup:
        """The token chips, their copies' names and the induction beat's marks: the grid's room."""
        return VGroup(*self.chip_heads, *self.chips, self.chip_marks)

    def score_grid(self, scores: np.ndarray) -> VGroup:
        """(layers, heads) scores as tiles, layers across and heads down, titled, with its ends named."""
        tiles = HeadTiles(scores.T[:, :, None, None], width=theme.SAFE_RIGHT - CHIPS_LEFT, gap=0.04)
        tiles.frames.set_stroke(opacity=0.35)
        tiles.move_to([(CHIPS_LEFT + theme.SAFE_RIGHT) / 2, 0.6, 0.0])
        n_heads, n_layers = scores.shape[1], scores.shape[0]
        title = label(f"induction score, all {scores.size} heads", small=True, color=theme.MUTED)
        title.next_to(tiles, UP, buff=0.3)
        ends = VGroup(
            label("layer 1", small=True, color=theme.MUTED)
            .next_to(tiles, DOWN, buff=0.15)
            .align_to(tiles, LEFT),
            label(f"layer {n_layers}", small=True, color=theme.MUTED),
            label(f"{n_heads} heads", small=True, color=theme.MUTED).rotate(np.pi / 2),
        )
        ends[1].next_to(tiles, DOWN, buff=0.15).align_to(tiles, RIGHT)
        ends[2].next_to(tiles, LEFT, buff=0.12)
        return VGroup(tiles, title, ends)

    def stylised_head_one(self) -> VGroup:
        """Head one's causal map on the stylised sentence, small beside the real head's: the same stripe."""
        tile = HeadTiles(self.heads.weights[0][None, None], width=1.1)
        tile.frames.set_stroke(theme.HEADS[0], width=2, opacity=1.0)
        name = label("H1", small=True, color=theme.HEADS[0]).next_to(tile, UP, buff=0.12)
        return VGroup(tile, name).move_to(GRID_CENTRE)

    def decoder_copies(self, found: Induction) -> None:
        """The chips of tokens the model predicts light up, copy by copy, with each copy's count."""
        n = found.n
        copies = (found.first_copied, found.heads.copied)
        right = [int(c.sum()) for c in copies]
        with self.beat(
            "decoder-copies",
            f"The whole model's top guess is right for {right[1]} of {n - 1} second-copy tokens, and "
            f"{right[0]} of {n - 1} in the first, where nothing repeats.",
            shows=f"Correct guesses light: {right[1]} in copy two, {right[0]} in copy one; first tokens "
            "not scored.",
        ):
            chips = VGroup(*self.chip_heads, *self.chips)
            self.play(FadeOut(self.grid_shown), FadeIn(chips), run_time=1.0)
            self.decoder_view.add(chips)
            for k, words in ((1, "right for"), (0, "in the first")):
                hits = [self.chips[k * n + 1 + i] for i in np.flatnonzero(copies[k])]
                lit = [c[0].copy().set_fill(theme.WEIGHT, opacity=0.35) for c in hits]
                count = label(f"{right[k]} of {n - 1} predicted", small=True, color=theme.WEIGHT)
                count.move_to([theme.SAFE_RIGHT - count.width / 2, self.chip_heads[k].get_y(), 0])
                self.until_said(words)
                self.play(*(FadeIn(m) for m in lit), FadeIn(count), run_time=1.0)
                self.decoder_view.add(*lit, count)
        self.shown = self.decoder_view


def score_rows(rows: tuple[tuple[str, float, str], ...], width: float = 3.0) -> VGroup:
    """One 0-to-1 track per (name, score, colour), filled to its score: name, track, then the number."""
    shown = VGroup()
    for name, score, colour in rows:
        track, fill = filled_track(score, width, 0.3, colour)
        named = label(name, small=True, color=colour).next_to(track, LEFT, buff=0.2)
        number = label(f"{score:.2f}", small=True, color=colour).next_to(track, RIGHT, buff=0.2)
        shown.add(VGroup(track, fill, named, number))
    shown.arrange(DOWN, buff=0.2)
    for row in shown[1:]:  # tracks under one another, whatever their names' widths
        row.shift((shown[0][0].get_x() - row[0].get_x()) * RIGHT)
    return shown


def grow_row(row: VGroup) -> tuple[Animation, ...]:
    """A score row's track, name and number appear as its fill grows from zero to the score."""
    track, fill, named, number = row
    return FadeIn(track), FadeIn(named), GrowFromEdge(fill, LEFT), FadeIn(number)
