"""The lecture's title card and outline.

Render with ``manim -qh scenes/s0_title.py LectureTitle``.
"""

from __future__ import annotations

from typing import ClassVar

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, LaggedStart, Mobject, Transform, VGroup, Write

from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.widgets import fit_width, label, math, wrapped
from scenes.lecture import LECTURE

__all__ = ["LectureTitle"]

OUTLINE = tuple(f"{c.section}  {c.title}" for c in LECTURE if c.section != "0")


class LectureTitle(LectureScene):
    """Title, the defining formula, and the outline of the sections."""

    section = "Lecture"
    title = "Attention"

    lecture_title: ClassVar[str] = "Attention"
    subtitle: ClassVar[str] = "weights that depend on the query"
    outline: ClassVar[tuple[str, ...]] = OUTLINE

    def construct(self) -> None:
        """Storyboard: title, formula, outline."""
        with self.beat("title", f"Welcome to {self.lecture_title}: {self.subtitle}."):
            self.show_heading()
        self.formula = self.build_formula()
        with self.beat(
            "weighted-sum", "For one query, q, attention returns a weighted sum of the values, v i."
        ):
            self.play(FadeOut(self.heading, shift=0.3 * UP), run_time=0.6)
            self.play(Write(self.formula[0]), run_time=2.0)
        with self.beat(
            "weights",
            "Each weight, alpha i, grows exponentially with the dot product of q and a key, k i, "
            "divided by a temperature, tau.",
        ):
            self.play(Write(self.formula[1]), run_time=min(max(self.speech_left() - 2.0, 2.5), 5.0))
        with self.beat("outline", self.outline_narration()):
            self.show_outline()

    def show_heading(self) -> None:
        """The lecture's name and subtitle, wrapped to stay in the frame whatever their length."""
        width = theme.SAFE_RIGHT - theme.SAFE_LEFT
        heading = wrapped(self.lecture_title, width=width, size=theme.TITLE_SIZE + 16, max_lines=3)
        sub = wrapped(self.subtitle, width=width, size=theme.BODY_SIZE, color=theme.MUTED, max_lines=2)
        self.heading = VGroup(heading, sub).arrange(DOWN, buff=0.45).move_to(0.4 * UP)
        self.play(FadeIn(self.heading, shift=0.2 * UP), run_time=1.2)

    def build_formula(self) -> Mobject:
        """Attention for one query: the weighted sum, then its weights, large in the middle."""
        formula = math(
            r"\mathrm{Attn}(q, K, V) = \sum_i \alpha_i(q)\, v_i",
            r"\alpha_i(q) \propto \exp(q \cdot k_i / \tau)",
            size=theme.TITLE_SIZE + 8,
            colors={r"v_i": theme.VALUE, r"k_i": theme.KEY, r"\alpha_i": theme.WEIGHT},
        )
        formula[1].next_to(formula[0], DOWN, buff=0.6)
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
        """The formula moves up; the sections appear one after another under it."""
        if not self.outline:
            return
        formula_target = self.formula.copy().arrange(RIGHT, buff=0.8)
        formula_target[1].match_y(formula_target[0][0][:8])  # level with "Attn(q, K, V)", not the sum's index
        fit_width(formula_target.scale(0.75), theme.SAFE_RIGHT - theme.SAFE_LEFT)
        formula_target.to_edge(UP, buff=theme.MARGIN + 0.1)
        self.play(Transform(self.formula, formula_target), run_time=1.0)
        run_time = min(max(self.speech_left() - 0.5, 2.5), 6.0)
        self.play(
            LaggedStart(*(FadeIn(line) for line in self.outline_items()), lag_ratio=0.3), run_time=run_time
        )

    def outline_narration(self) -> str:
        """What the voice says over the outline: how many steps, from the first to the last."""
        titles = [lower_first(line.split("  ", 1)[-1]) for line in self.outline]
        if not titles:
            return "That is the lecture in one formula."
        if len(titles) == 1:
            return f"We will look at one part of it: {titles[0]}."
        return f"We will build it up in {len(titles)} steps, from {titles[0]} to {titles[-1]}."


def lower_first(title: str) -> str:
    """``title`` as it reads inside a sentence: first letter small, unless it starts an acronym."""
    return title if title[:2].isupper() else title[:1].lower() + title[1:]
