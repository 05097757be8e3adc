"""The lecture's title card and outline.

Render with ``manim -qh scenes/s0_title.py LectureTitle``.
"""

from __future__ import annotations

from typing import ClassVar

from manim import DOWN, LEFT, UP, FadeIn, LaggedStart, Mobject, VGroup, Write

from scenes.kit import theme
from scenes.kit.base import LectureScene
from scenes.kit.widgets import fit_width, label, math
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
            self.play(Write(self.formula[0]), run_time=2.5)
        with self.beat(
            "weights",
            "Each weight, alpha i, grows exponentially with the dot product of q and a key, k i, "
            "divided by a temperature, tau.",
        ):
            self.play(Write(self.formula[1]), run_time=min(max(self.speech_left() - 2.0, 2.5), 5.0))
        with self.beat("outline", self.outline_narration()):
            self.show_outline()

    def show_heading(self) -> None:
        """The lecture's name and subtitle."""
        heading = label(self.lecture_title, size=theme.TITLE_SIZE + 16)
        sub = label(self.subtitle, size=theme.BODY_SIZE, color=theme.MUTED)
        top = VGroup(heading, sub).arrange(DOWN, buff=0.25).move_to(2.6 * UP)
        self.play(FadeIn(top, shift=0.2 * UP), run_time=1.2)

    def build_formula(self) -> Mobject:
        """Attention for one query: the weighted sum, then its weights."""
        formula = math(
            r"\mathrm{Attn}(q, K, V) = \sum_i \alpha_i(q)\, v_i,",
            r"\qquad \alpha_i(q) \propto \exp(q \cdot k_i / \tau)",
            colors={r"v_i": theme.VALUE, r"k_i": theme.KEY, r"\alpha_i": theme.WEIGHT},
        ).move_to(1.0 * UP)
        return fit_width(formula, theme.SAFE_RIGHT - theme.SAFE_LEFT)

    def outline_items(self) -> Mobject:
        """The outline's lines under the formula, shrunk to stay inside the safe area."""
        items = VGroup(*(label(line, size=theme.LABEL_SIZE) for line in self.outline))
        items.arrange(DOWN, aligned_edge=LEFT, buff=0.14).next_to(self.formula, DOWN, buff=0.45)
        fit_width(items, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        if items.get_bottom()[1] < theme.SAFE_BOTTOM:
            items.scale((items.get_top()[1] - theme.SAFE_BOTTOM) / items.height, about_edge=UP)
        return items

    def show_outline(self) -> None:
        """The sections, one line after another, over most of the narration."""
        if not self.outline:
            return
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
