"""Section 6, the hard case: a syntax head's query finds the entry it needs only when it arrives.

Section 5's stylised syntax head on a relative clause: the first verb looks back at the latest noun,
the second past it at an earlier one, so a summary that keeps only the latest noun (or any one slot
chosen in advance) fails, and every entry stays. Mixed into section 6's scene (:mod:`scenes.s6_kv_cache`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circumscribe,
    Create,
    Cross,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    SurroundingRectangle,
    VGroup,
)

from attnmath import Token, stylized_heads
from drawing import theme
from drawing.flow import baseline_of
from drawing.widgets import BarPanel, label
from lecture.sections.s6_kv_cache import RELATIVE_CLAUSE, KVCacheParameters
from scenes.base import Mixin

__all__ = ["SyntaxPointer"]


class SyntaxPointer(Mixin[KVCacheParameters]):
    """The beats that show a syntax head's query pointing where no fixed summary can keep."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        pointer: VGroup

        def kv_column(self, i: int, y: float) -> VGroup:  # noqa: D102
            ...

    @staticmethod
    def pointer_weights() -> tuple[tuple[Token, ...], tuple[int, int], np.ndarray]:
        """The relative clause's words, its two verbs (the syntax head's queries), and their weights.

        Rows are the two verbs' weights under section 5's stylised syntax head, causal; columns are the
        words up to the second verb. The first verb looks back at the latest noun, the second past it.
        """
        heads = stylized_heads(RELATIVE_CLAUSE, causal=True)
        toks = heads.sentence.tokens
        first, second = (i for i, t in enumerate(toks) if t.pos == "VERB" and t.subject is not None)
        return toks, (first, second), heads.weights[1][[first, second], : second + 1]

    def pointer_shows(self) -> str:
        """The audio description of the pointer: where each query's tallest bar stands."""
        toks, queries, w = self.pointer_weights()
        first, second = (toks[q].text for q in queries)
        tops = [toks[int(np.argmax(row))].text for row in w]
        sentence = " ".join(t.text for t in toks).rstrip(" .")
        tallest = f"{first.capitalize()}'s tallest bar: {tops[0]}; {second}'s: {tops[1]}"
        return f"New sentence: {sentence}. {tallest}."

    @staticmethod
    def latest_noun(toks: tuple[Token, ...], before: int) -> int:
        """The last noun before position ``before``: what a one-slot "latest noun" summary keeps."""
        return max(i for i, t in enumerate(toks[:before]) if t.pos == "NOUN")

    def subject_pointer(self) -> VGroup:
        """The first verb's weights over the clause so far, peaked on its subject, the latest noun.

        The panel spans the clause up to the second verb; :meth:`show_pointer` brings in its word.
        """
        toks, (verb, _second), weights = self.pointer_weights()
        w = weights[0]
        pitch = min(1.6, 12.6 / w.size)  # the longest word still clears its neighbours
        panel = BarPanel(
            w, width=pitch * w.size, height=2.4, y_range=(0.0, 1.0), show_index=False, stepped=False
        )
        cols = VGroup(*(self.kv_column(0, 0.0).scale(1.3) for _ in w))
        cols.arrange(RIGHT, buff=pitch - cols[0].width)
        cols.next_to(panel, DOWN, buff=0.15)
        words = VGroup(
            *(
                label(t.text, color=theme.QUERY if i == verb else theme.TEXT).next_to(c, DOWN, buff=0.2)
                for i, (t, c) in enumerate(zip(toks, cols, strict=False))
            )
        )
        line = min(baseline_of(word) for word in words)  # one baseline for every word
        for word in words:
            word.shift((line - baseline_of(word)) * UP)
        tag = label(f"weights of the query \u201c{toks[verb].text}\u201d", color=theme.WEIGHT)
        tag.next_to(panel, UP, buff=0.3)
        note = label("section 5's stylised syntax head", small=True, color=theme.MUTED)
        return VGroup(tag, panel, cols, words, note.next_to(words, DOWN, buff=0.35)).move_to(
            [0, (theme.SAFE_TOP + theme.SAFE_BOTTOM) / 2, 0]
        )

    def show_pointer(self) -> None:
        """The first verb's query peaks on the latest noun; the second verb's, past it, on an earlier one."""
        toks, (verb, second), weights = self.pointer_weights()
        self.pointer = self.subject_pointer()
        tag, panel, cols, words, note = self.pointer
        assert isinstance(panel, BarPanel)
        later = VGroup(*cols[verb + 1 :], *words[verb + 1 :])
        shown = (tag, panel, VGroup(*cols[: verb + 1]), VGroup(*words[: verb + 1]), note)
        panel.set_values(np.zeros_like(weights[0]))  # the first verb's weights rise as it is said to look
        self.play(*(FadeOut(m) for m in self.mobjects), *(FadeIn(m) for m in shown), run_time=1.5)
        self.when_said(f"{toks[verb].text} looks", panel.animate.set_values(weights[0]), run_time=1.2)
        first_peak = panel.bars[int(np.argmax(weights[0]))]
        self.play(Circumscribe(first_peak, color=theme.WEIGHT), run_time=1.2)
        retag = label(f"weights of the query \u201c{toks[second].text}\u201d", color=theme.WEIGHT)
        retag.move_to(tag)
        self.until_said(f"{toks[second].text} looks")
        self.play(
            FadeIn(later, shift=0.2 * LEFT),
            panel.animate.set_values(weights[1]),
            words[verb].animate.set_color(theme.TEXT),
            words[second].animate.set_color(theme.QUERY),
            FadeOut(tag),
            FadeIn(retag),
            run_time=1.2,
        )
        self.pointer = VGroup(retag, panel, cols, words, note)  # the tag now on screen names the new query
        peak = panel.bars[int(np.argmax(weights[1]))]
        self.when_said(f"to {toks[int(np.argmax(weights[1]))].text}", Circumscribe(peak, color=theme.WEIGHT))

    def no_one_slot(self) -> None:
        """A "latest noun" slot holds the wrong word for the second verb: crossed out; the cache stays."""
        toks, (_verb, second), weights = self.pointer_weights()
        _tag, _panel, cols, words, _note = self.pointer
        kept = self.latest_noun(toks, second)
        slot = SurroundingRectangle(VGroup(cols[kept], words[kept]), color=theme.MUTED, buff=0.1)
        name = label("latest noun", small=True, color=theme.MUTED).next_to(slot, UP, buff=0.4)
        self.when_said("the latest noun", Create(slot), FadeIn(name), run_time=1.0)
        cross = Cross(slot, stroke_color=theme.WARNING, stroke_width=6)
        needed = int(np.argmax(weights[1]))
        self.when_said("misses", Create(cross), Indicate(words[needed], color=theme.QUERY), run_time=1.2)
        nouns = [VGroup(cols[i], words[i]) for i, t in enumerate(toks[:second]) if t.pos == "NOUN"]
        earlier = LaggedStart(*(Indicate(n, color=theme.KEY) for n in nouns), lag_ratio=0.5)  # all wanted
        self.when_said("earlier nouns", earlier, run_time=1.5)
        self.when_said("may still", Indicate(words[second], color=theme.QUERY), run_time=1.2)
        cache = SurroundingRectangle(cols, color=theme.KEY, buff=0.12, stroke_width=6)
        self.when_said("every entry", FadeOut(VGroup(slot, name, cross)), Create(cache), run_time=1.2)
        self.hold(self.speech_left())
        self.play(FadeOut(cache), run_time=0.5)
