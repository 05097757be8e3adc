"""The lecture's title card and outline.

Render with ``manim -qh scenes/s0_title.py LectureTitle``.
"""

from __future__ import annotations

from typing import ClassVar

from manim import DOWN, LEFT, UP, FadeIn, VGroup, Write

from scenes import theme
from scenes.base import LectureScene
from scenes.lecture import LECTURE
from scenes.widgets import fit_width, label, math

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
        heading = label(self.lecture_title, size=theme.TITLE_SIZE + 16)
        sub = label(self.subtitle, size=theme.BODY_SIZE, color=theme.MUTED)
        top = VGroup(heading, sub).arrange(DOWN, buff=0.25).move_to(2.6 * UP)
        formula = math(
            r"\mathrm{Attn}(q, K, V) = \sum_i \alpha_i(q)\, v_i,",
            r"\qquad \alpha_i(q) \propto \exp(q \cdot k_i / \tau)",
            colors={r"v_i": theme.VALUE, r"k_i": theme.KEY, r"\alpha_i": theme.WEIGHT},
        ).move_to(1.0 * UP)
        fit_width(formula, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        self.play(FadeIn(top, shift=0.2 * UP), run_time=1.2, subcaption="Attention.", subcaption_duration=1.2)
        self.play(
            Write(formula),
            run_time=2.0,
            subcaption="Each output is a weighted sum of values, with weights that depend on the query's "
            "similarity to each key.",
            subcaption_duration=4.5,
        )
        self.wait(2.5)
        self.slide_break()
        items = VGroup(*(label(line, size=theme.LABEL_SIZE) for line in self.outline))
        items.arrange(DOWN, aligned_edge=LEFT, buff=0.14).next_to(formula, DOWN, buff=0.45)
        fit_width(items, theme.SAFE_RIGHT - theme.SAFE_LEFT)
        if items.get_bottom()[1] < theme.SAFE_BOTTOM:
            items.scale((items.get_top()[1] - theme.SAFE_BOTTOM) / items.height, about_edge=UP)
        self.play(
            FadeIn(items, lag_ratio=0.15),
            run_time=2.5,
            subcaption=f"The lecture in {len(self.outline)} steps.",
            subcaption_duration=4.5,
        )
        self.wait(2.0)
