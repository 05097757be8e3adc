"""The lecture's title card and outline.

Render with ``manim -qh scenes/s0_title.py LectureTitle``.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Mobject,
    Transform,
    VGroup,
    Write,
)

from attnmath import LOAN_SENTENCE, RIVER_SENTENCE
from drawing import theme
from drawing.arcs import mix_arcs, on_baseline
from drawing.widgets import fit_width, label, math, wrapped
from lecture.sections import s5_multihead
from lecture.sections.s0_title import TitleParameters
from lecture.sections.s5_multihead import HeadRoutingParameters
from scenes.base import SAID, LectureScene
from scenes.onscreen import separate_equations
from scenes.s0_scaling import SPREAD_WIDTHS, Scaling

__all__ = ["LectureTitle"]

# Two sentences in which "bank" needs its context, the word that settles it, and what it then means.
SENTENCES = (
    (RIVER_SENTENCE, "river", "a riverside"),
    (LOAN_SENTENCE, "loan", "a lender"),
)
OUTLINE_WORDS = 25
"""Words the outline's description may take to read the running sentence (the one description allowed
past 15 words: a listener has no other way to hear it before section 3 comes back to it)."""
# How much "bank" might draw on each word of the first sentence: drawn by hand, and labelled so.
ILLUSTRATIVE_MIX = (0.04, 0.08, 0.04, 0.04, 0.6, 0.2)


def illustrative_mix(words: tuple[str, ...], cue: str) -> tuple[float, ...]:
    """A hand-drawn mix for the second sentence: most on the deciding word, a little on each other."""
    rest = 0.4 / (len(words) - 1)
    return tuple(0.6 if w == cue else rest for w in words)


class LectureTitle(Scaling, LectureScene[TitleParameters]):
    """Title, the defining formula, and the outline of the sections."""

    lecture_title: str
    """The lecture's title (the lecturer's file may give its own)."""
    outline: tuple[str, ...]
    """One line per section of the lecture, as ``"<section>  <title>"``."""

    def setup(self) -> None:
        """The title and the outline of the lecture this scene opens."""
        super().setup()
        self.lecture_title = self.lecture.title
        self.outline = tuple(f"{c.number}  {c.title}" for c in self.lecture.clips if c.number != "0")

    def construct(self) -> None:
        """Storyboard: title, a word that needs its context, the formula, where q, k, v come from, outline."""
        with self.beat("title", f"Welcome to {self.lecture_title}: {self.params.subtitle}.", shows=SAID):
            self.show_heading()
        with self.beat(
            "bank",
            'The word bank means a riverside in "she sat on the river bank", '
            'but a lender in "she took a loan from the bank".',
            shows=self.sentences_description(),
        ):
            self.show_sentences()
        with self.beat(
            "mix",
            "Attention lets each word take a weighted mix of all the words, "
            "weights that can depend on what they say, not just their slots.",
            shows=self.mix_description(),
        ):
            self.show_mix()
        self.the_formula()
        self.why_root_dk()
        with self.beat(
            "outline", self.outline_narration(), shows=self.outline_description(), ends_section=True
        ):
            self.play(FadeOut(self.origins), run_time=0.6)
            self.show_outline()

    def the_formula(self) -> None:
        """Beats: one query's weighted sum of values, its weights, and where q, k and v come from."""
        self.formula = self.build_formula()
        with self.beat(
            "weighted-sum",
            "For one query, q, standing for the current word, attention returns a weighted sum of "
            "values, v i, one per word.",
            shows="Written: sum of alpha i v i. Bank is q; each word gets v i.",
        ):
            self.show_weighted_sum()
        with self.beat(
            "weights",
            "Each weight, alpha i, is proportional to e to the power q dot k i over tau: "
            "k i is a key, tau a temperature.",
            shows=SAID,  # the narration reads the formula for alpha i, symbol by symbol
        ):
            self.show_weights()
        with self.beat(
            "projections",
            "Each of q, k and v is a learned projection of a token's vector, x: "
            "its embedding, or a lower layer's output.",
            shows="q equals W Q x; k i, v i likewise use W K, W V.",
        ):
            self.show_projections()

    def why_root_dk(self) -> None:
        """Beats: the temperature root d k, the scores' variance d k, and that variance divided away."""
        with self.beat(
            "temperature",
            "The original transformer sets tau to root d k, the key's dimension.",
            shows=SAID,  # the rule and its gloss are the narration's words; the box only points at tau
        ):
            self.show_temperature()
        with self.beat(
            "variance",
            "A score sums d k products. If q's and k's entries are independent, mean zero, variance one, "
            "each product's variance is one; summed, d k.",
            shows="Written: the score as d k products, each of variance 1, summing to d k.",
        ):
            self.show_score_variance()
        with self.beat(
            "scaled",
            "Dividing by root d k divides that variance by d k: variance one, so wider keys don't sharpen "
            "the weights.",
            shows=f"Scores for d k {', '.join(map(str, SPREAD_WIDTHS[:-1]))} and {SPREAD_WIDTHS[-1]} "
            "spread ever wider, then shrink alike.",
        ):
            self.show_scaled_variance()

    # --- why: a word needs its context ------------------------------------------
    def show_sentences(self) -> None:
        """The two sentences, "bank" in yellow in each, the deciding word and the meaning under it."""
        rows = []
        for words, cue, meaning in SENTENCES:
            row = on_baseline(
                VGroup(*(label(w, size=theme.TITLE_SIZE) for w in words)).arrange(RIGHT, buff=0.35)
            )
            for word, text in zip(row, words, strict=True):
                word.set_color(theme.QUERY if text == "bank" else theme.KEY if text == cue else theme.TEXT)
            bank = row[words.index("bank")]
            gloss = label(meaning, color=theme.MUTED).next_to(bank, DOWN, buff=0.25)
            rows.append(VGroup(row, gloss))
        self.rows = [r[0] for r in rows]
        self.sentences = VGroup(*rows).arrange(DOWN, buff=1.1).move_to(0.6 * DOWN)
        self.play(FadeOut(self.heading, shift=0.3 * UP), run_time=0.6)
        self.play(FadeIn(rows[0][0]), FadeIn(rows[1][0]), run_time=1.2)
        self.hold(self.speech_left() - 2.0)
        self.play(FadeIn(rows[0][1]), FadeIn(rows[1][1]), run_time=1.0)

    def show_mix(self) -> None:
        """Arcs from "bank" to every word of the first sentence, their width its (hand-drawn) weight."""
        words, cue, _meaning = SENTENCES[0]
        self.arcs = mix_arcs(self.rows[0], words.index("bank"), ILLUSTRATIVE_MIX)
        note = label("weights drawn by hand", color=theme.MUTED, small=True)
        note.next_to(self.sentences, DOWN, buff=0.5)
        self.sentences.add(self.arcs, note)
        self.play(Create(self.arcs), run_time=2.0)
        self.play(FadeIn(note), Circumscribe(self.rows[0][words.index(cue)], color=theme.KEY), run_time=1.5)
        self.when_said("can depend on", *self.second_arcs(), run_time=1.5)

    def second_arcs(self) -> list[Animation]:
        """The second sentence's arcs: "bank" sits in another slot and weighs other words ("loan" most)."""
        words, cue, _meaning = SENTENCES[1]
        arcs = mix_arcs(self.rows[1], words.index("bank"), illustrative_mix(words, cue))
        self.sentences.add(arcs)
        return [Create(arcs), Circumscribe(self.rows[1][words.index(cue)], color=theme.KEY)]

    # --- the formula, on the first sentence ----------------------------------------
    def show_weighted_sum(self) -> None:
        """The first sentence stays, its arcs with it: "bank" is the query, each word gets its value."""
        first, second = self.sentences[0], VGroup(*self.sentences[1:])
        self.formula.move_to(2.5 * UP)  # not yet shown: it is written as it is said
        self.play(FadeOut(second), FadeOut(first[1]), run_time=0.8)
        self.sentence = VGroup(self.rows[0], self.arcs)
        self.play(self.sentence.animate.shift((-1.4 - self.rows[0].get_y()) * UP), run_time=0.8)
        words = SENTENCES[0][0]
        self.query_mark = label("q", color=theme.QUERY).next_to(self.rows[0][words.index("bank")], DOWN, 0.2)
        self.when_said("query, q", FadeIn(self.query_mark, shift=0.2 * UP), run_time=0.8)
        self.when_said("weighted sum", Write(self.formula[0]), run_time=2.0)
        self.values = self.word_labels("v", theme.VALUE, below=self.query_mark)
        self.when_said(
            "values", LaggedStart(*(FadeIn(v, shift=0.2 * DOWN) for v in self.values), lag_ratio=0.2)
        )

    def show_weights(self) -> None:
        """The weights' formula is written; the arcs light up as alpha, each word's key appears."""
        self.when_said("alpha i", Indicate(self.arcs, color=theme.WEIGHT, scale_factor=1.05), run_time=0.8)
        self.when_said("proportional", Write(self.formula[1]), run_time=2.5)  # written as it is read
        keys = self.word_labels("k", theme.KEY, below=self.values)
        self.when_said("a key", LaggedStart(*(FadeIn(k, shift=0.2 * DOWN) for k in keys), lag_ratio=0.2))
        self.when_said("temperature", Circumscribe(self.formula[1], color=theme.TEMPERATURE), run_time=1.2)

    def word_labels(self, symbol: str, color: str, below: Mobject) -> VGroup:
        """``symbol`` with each word's index, in a row under the first sentence and under ``below``."""
        row = self.rows[0]
        labels = VGroup(*(math(f"{symbol}_{j + 1}", color=color) for j in range(len(row))))
        for mark, word in zip(labels, row, strict=True):
            mark.next_to(word, DOWN, buff=0.2).set_y(below.get_bottom()[1] - 0.15 - mark.height / 2)
        self.sentence.add(labels)
        return labels

    def sentences_description(self) -> str:
        """What the sentences beat shows beyond its words: which word in each settles "bank"."""
        cues = " and ".join(cue for _words, cue, _meaning in SENTENCES)
        return f"Both sentences appear, bank highlighted; {cues} marked as the deciding words."

    def mix_description(self) -> str:
        """The arcs of the mix beat, thickest to the word of largest (hand-drawn) weight, and the note."""
        words, cue, _meaning = SENTENCES[0]
        thickest = words[int(np.argmax(ILLUSTRATIVE_MIX))]
        boxed = "" if thickest == cue else f", {cue} boxed"
        second = SENTENCES[1][1]
        river = f"River sentence: bank's thickest arc to {thickest}{boxed}"
        return f"{river}; loan sentence: to {second}; drawn, not measured."

    # --- where q, k and v come from, and tau ---------------------------------------
    def show_projections(self) -> None:
        """The formula moves up; q, k and v as projections of the embedding x, large in the middle."""
        self.play(FadeOut(self.sentence), FadeOut(self.query_mark), run_time=0.6)
        self.move_formula_up()
        size = theme.TITLE_SIZE + 8
        self.origins = VGroup(
            VGroup(
                math(r"q = W_Q\, x", size=size, colors={"q": theme.QUERY}),
                math(r"k_i = W_K\, x_i", size=size, colors={"k_i": theme.KEY}),
                math(r"v_i = W_V\, x_i", size=size, colors={"v_i": theme.VALUE}),
            ).arrange(RIGHT, buff=0.9)
        )
        self.origins.move_to(0.6 * UP)
        gloss = label("x: a token's embedding", color=theme.MUTED)
        gloss.next_to(self.origins, DOWN, buff=0.4)
        deeper = label("x: a token's embedding, or a lower layer's output", color=theme.MUTED)
        fit_width(deeper, theme.SAFE_RIGHT - theme.SAFE_LEFT).move_to(gloss)
        self.origins.add(gloss)
        self.play(FadeIn(self.origins[0], shift=0.2 * UP), run_time=1.5)
        self.when_said("its embedding", FadeIn(gloss), run_time=0.8)
        self.when_said("lower layer", Transform(gloss, deeper), run_time=1.0)

    def show_temperature(self) -> None:
        """The rule tau = sqrt(d_k) under the projections, and the formula's tau circled."""
        rule = math(r"\tau = \sqrt{d_k}", size=theme.TITLE_SIZE + 8, colors={r"\tau": theme.TEMPERATURE})
        gloss = label("d\u2096: entries in each key", color=theme.MUTED)
        VGroup(rule, gloss).arrange(RIGHT, buff=0.5).next_to(self.origins, DOWN, buff=0.6)
        self.origins.add(rule, gloss)
        self.play(FadeIn(rule, shift=0.2 * UP), run_time=1.2)
        self.when_said("root d k", Circumscribe(self.formula[1], color=theme.TEMPERATURE), run_time=1.2)
        self.when_said("dimension", FadeIn(gloss), run_time=0.8)

    def move_formula_up(self) -> None:
        """The formula's two lines side by side at the top, as the outline will have them."""
        target = self.formula.copy().arrange(RIGHT, buff=0.8)
        target[1].match_y(target[0][0][:8])  # level with "Attn(q, K, V)", not the sum's index
        fit_width(target.scale(0.75), theme.SAFE_RIGHT - theme.SAFE_LEFT)
        target.to_edge(UP, buff=theme.MARGIN + 0.1)
        self.play(Transform(self.formula, target), run_time=1.0)

    def show_heading(self) -> None:
        """The lecture's name and subtitle, wrapped to stay in the frame whatever their length."""
        width = theme.SAFE_RIGHT - theme.SAFE_LEFT
        heading = wrapped(self.lecture_title, width=width, size=theme.TITLE_SIZE + 16, max_lines=3)
        sub = wrapped(self.params.subtitle, width=width, size=theme.BODY_SIZE, color=theme.MUTED, max_lines=2)
        self.heading = VGroup(heading, sub).arrange(DOWN, buff=0.45).move_to(0.4 * UP)
        self.play(FadeIn(self.heading, shift=0.2 * UP), run_time=1.2)
        self.hold(self.speech_left())

    def build_formula(self) -> Mobject:
        """Attention for one query: the weighted sum, then its weights, large in the middle."""
        formula = math(
            r"\mathrm{Attn}(q, K, V) = \sum_i \alpha_i(q)\, v_i",
            r"\alpha_i(q) \propto \exp(q \cdot k_i / \tau)",
            size=theme.TITLE_SIZE + 8,
            colors={"q": theme.QUERY, r"v_i": theme.VALUE, r"k_i": theme.KEY, r"\alpha_i": theme.WEIGHT},
        )
        formula[1].next_to(formula[0], DOWN, buff=0.6)
        separate_equations(formula)  # the sum and its weights: two equations, however they are laid out
        formula.move_to(0.5 * UP)
        return fit_width(formula, theme.SAFE_RIGHT - theme.SAFE_LEFT)

    def outline_items(self) -> Mobject:
        """The outline's lines under the formula, one per section, at label size."""
        items = VGroup(*(label(line) for line in self.outline))
        items.arrange(DOWN, aligned_edge=LEFT, buff=0.16)
        pitch = items[0].height + 0.16 if len(items) == 1 else (items.height + 0.16) / len(items)
        for k, item in enumerate(items):  # every line on its own baseline (its first glyph is a digit)
            item.shift((-k * pitch - item[0].get_bottom()[1]) * UP)
        items.next_to(self.formula, DOWN, buff=0.5)
        fit_width(items, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        return items.set_x(0)

    def show_outline(self) -> None:
        """The sections appear one after another under the formula."""
        if not self.outline:
            return
        items = self.outline_items()
        self.play(LaggedStart(*(FadeIn(line) for line in items), lag_ratio=0.3), run_time=2.0)
        if len(self.outline) > 1:
            sentence = self.running_sentence().next_to(items, DOWN, buff=0.3)
            self.when_said("running sentence", FadeIn(sentence, shift=0.2 * UP), run_time=1.0)

    def section_five(self) -> HeadRoutingParameters:
        """Section 5's parameters (the lecturer's where the lecture file sets them): its sentence runs on."""
        return self.lecture.parameters_as(s5_multihead.SECTION, HeadRoutingParameters)

    def running_sentence(self) -> Mobject:
        """Section 5's sentence (the lecturer's where the lecture file sets it): sections 3 to 6 use it."""
        texts = [t.text for t in self.section_five().sentence.tokens]
        texts[0], texts[-1] = f"\u201c{texts[0]}", f"{texts[-1]}\u201d"  # quoted: a sentence, not a list
        words = VGroup(*(label(text, color=theme.KEY) for text in texts))
        return fit_width(on_baseline(words.arrange(RIGHT, buff=0.2)), theme.SAFE_RIGHT - theme.SAFE_LEFT)

    def outline_narration(self) -> str:
        """What the voice says over the outline: how many steps, from the first to the last."""
        titles = [lower_first(line.split("  ", 1)[-1]) for line in self.outline]
        if not titles:
            return "That is the lecture in one formula."
        if len(titles) == 1:
            return f"We will look at one part of it: {titles[0]}."
        return f"{len(titles)} steps follow, with one running sentence, from {titles[0]} to {titles[-1]}."

    def outline_description(self) -> str:
        """What the outline shows beyond its narration: the running sentence, which no voice has read yet.

        Each section's title is spoken as the section starts; the sentence is first read in section 3.
        """
        sentence = " ".join(t.text for t in self.section_five().sentence.tokens)
        said = f"Under the section list, the running sentence: {sentence}."
        return said if len(said.split()) <= OUTLINE_WORDS else "The section titles appear under the formula."


def lower_first(title: str) -> str:
    """``title`` as it reads inside a sentence: first letter small, unless it starts an acronym."""
    return title if title[:2].isupper() else title[:1].lower() + title[1:]
