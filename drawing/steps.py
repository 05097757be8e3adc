"""A derivation shown step by step: the step being explained large and centred, the one before it small above.

While a beat explains an equation, the equation is the subject (docs/visual.md's
one idea per frame): the current step is drawn at ``size`` in the middle of
the frame, the step it came from shrinks to ``header_size`` at the top so the
viewer can see where it came from, and the terms the narration speaks about
are boxed in their role's colour with a short gloss beneath.

A step is written term by term while the beat begins to speak it, and a box
comes as its words are said: the scene passes ``until_said``, which holds the
picture until the narration reaches some words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    FadeIn,
    FadeOut,
    LaggedStart,
    Mobject,
    Scene,
    SurroundingRectangle,
    VGroup,
    Write,
)

from drawing import theme
from drawing.widgets import fit_width, label, math

__all__ = ["Mark", "EquationSteps"]

Mark = tuple[Sequence[Sequence[int]], str, str]
"""Parts of the step to box (groups of its TeX arguments), the gloss written under them, the box's colour."""


class EquationSteps:
    """The steps of one derivation on ``scene``: :meth:`start`, then :meth:`step` or :meth:`mark` a beat."""

    def __init__(
        self,
        scene: Scene,
        *,
        colors: Mapping[str, str] | None = None,
        size: float = 58,
        header_size: float = 40,
        y: float = 0.3,
        header_y: float = 2.75,
        header_top: float = 3.4,
        until_said: Callable[[str], None] = lambda _words: None,
        write_seconds: float = 2.0,
    ) -> None:
        self.scene, self.colors, self.until_said = scene, dict(colors or {}), until_said
        self.write_seconds = write_seconds
        self.size, self.header_size = size, header_size
        self.y, self.header_y, self.header_top = y, header_y, header_top
        self.main_size = size  # the font size the current step was made at
        self.header: Mobject = VGroup()
        self.main: Mobject = VGroup()
        self.marks = VGroup()

    def tex(self, *parts: str) -> Mobject:
        """A step's TeX at the step size, one argument per term, in the roles' colours."""
        return math(*parts, size=self.size, colors=self.colors)

    def start(self, header: Mobject, main: Mobject, *also: Animation) -> None:
        """Show ``header`` at the top (with ``also``, e.g. what leaves), then ``main``, the first step.

        A header already on screen (written where the scene explained it) moves up to its place.
        """
        top = self.header_y * UP
        shown = header in self.scene.mobjects
        self.scene.play(
            *also, header.animate.move_to(top) if shown else FadeIn(header.move_to(top)), run_time=0.8
        )
        self.scene.play(FadeIn(main.move_to(self.y * UP)), run_time=1.0)
        self.header, self.main, self.marks = header, main, VGroup()

    def step(
        self,
        main: Sequence[str] | Mobject,
        *marks: Mark,
        at: str | None = None,
        parts_at: Sequence[str] = (),
        alongside: Sequence[Sequence[Animation]] = (),
        before: tuple[str, Sequence[Animation]] | None = None,
        width: float | None = None,
        x: float = 0.0,
        size: float | None = None,
    ) -> None:
        """Make ``main`` the step being explained; the step before shrinks above it, older ones leave.

        ``main`` is written term by term; with ``parts_at``, its i-th part is
        written as the narration says ``parts_at[i]``. The marks come when the
        narration says ``at`` (at once without it). ``alongside[i]`` plays with part i (a picture
        drawn as its words come), and ``before`` = (words, animations) plays once the step before
        has shrunk, as the narration says its words (a picture that comes ahead of the first part);
        ``width`` and ``x`` place a step that leaves room beside it, and
        ``size`` is the font size a step built by the scene was made at (the step size by default).
        """
        if not isinstance(main, Mobject):
            main = self.tex(*main)
        fit_width(main, width or theme.SAFE_RIGHT - theme.SAFE_LEFT).move_to([x, self.y, 0.0])
        factor = self.header_size / self.main_size
        shrunk = self.main.copy().scale(factor).move_to(self.header_y * UP).align_to(self.header_top * UP, UP)
        self.scene.play(
            FadeOut(self.header),
            # the boxes travel with their step as it shrinks away, fading: none is left behind
            FadeOut(self.marks, target_position=self._follow(self.marks, shrunk, factor), scale=factor),
            self.main.animate.scale(factor).move_to(shrunk),
            run_time=0.8,
        )
        self.header, self.main, self.marks = self.main, main, VGroup()
        self.main_size = size or self.size
        if before is not None:
            self.until_said(before[0])
            self.scene.play(*before[1], run_time=1.0)
        if parts_at:
            extras = list(alongside) or [()] * len(parts_at)
            for part, words, extra in zip(main, parts_at, extras, strict=True):
                self.until_said(words)
                self.scene.play(Write(part), *extra, run_time=self.write_seconds)
        else:
            terms = LaggedStart(*(Write(part) for part in main), lag_ratio=0.35)
            self.scene.play(terms, run_time=self.write_seconds)
        self.mark(*marks, at=at)

    def recap(self, lines: Sequence[Sequence[str]], notes: Sequence[str], *marks: Mark, size: float) -> None:
        """End the derivation on its whole chain: every line stacked, its ``=`` aligned, a note beside each.

        ``lines`` are the steps' TeX, one argument per term, the relation (``=``) second; all but the
        last come in together, readable at ``size``, and the last, the beat's own step, is written
        under them and boxed with ``marks`` (a mark's gloss would fall under the frame: leave it empty).
        """
        rows = [math(*parts, size=size, colors=self.colors) for parts in lines]
        column = VGroup(*rows).arrange(DOWN, buff=0.22, aligned_edge=LEFT)
        column.set_y((theme.SAFE_TOP + theme.SAFE_BOTTOM) / 2)
        relation_x = theme.SAFE_LEFT + max(row[0].width for row in rows) + 0.3
        for row in rows:
            row.shift((relation_x - row[1].get_left()[0]) * RIGHT)
        names = [label(note, color=theme.MUTED, small=True) for note in notes]
        widest = max(name.width for name in names)
        note_x = min(max(row.get_right()[0] for row in rows) + 0.5, theme.SAFE_RIGHT - widest)
        for name, row in zip(names, rows, strict=True):
            name.move_to([note_x, row.get_y(), 0.0], aligned_edge=LEFT)
        self.scene.play(FadeOut(self.header), FadeOut(self.main), FadeOut(self.marks), run_time=0.6)
        chain = [FadeIn(VGroup(row, name), shift=0.2 * DOWN) for row, name in zip(rows, names, strict=True)]
        chain.pop()  # the last row is the beat's own step: written below
        self.scene.play(LaggedStart(*chain, lag_ratio=0.3), run_time=1.8)
        self.header, self.main, self.marks = VGroup(*rows[:-1], *names), rows[-1], VGroup()
        self.main_size = size
        terms = LaggedStart(*(Write(part) for part in rows[-1]), lag_ratio=0.35)
        self.scene.play(terms, FadeIn(names[-1]), run_time=self.write_seconds)
        self.mark(*marks)

    def _follow(self, mob: Mobject, shrunk: Mobject, factor: float) -> np.ndarray:
        """Where ``mob``'s centre goes when the current step is scaled by ``factor`` onto ``shrunk``."""
        if not len(mob):
            return shrunk.get_center()
        return shrunk.get_center() + factor * (mob.get_center() - self.main.get_center())

    def mark(self, *marks: Mark, at: str | None = None) -> None:
        """Box the parts of the current step being spoken, each mark with its gloss beneath.

        With ``at``, the boxes come when the narration says those words.
        """
        if at is not None:
            self.until_said(at)
        new = VGroup()
        for groups, gloss, color in marks:
            boxes = [
                SurroundingRectangle(
                    VGroup(*(self.main[i] for i in group)), color=color, buff=0.1, corner_radius=0.08
                )
                for group in groups
            ]
            new.add(*boxes)
            if gloss:
                new.add(self._gloss(gloss, boxes[-1]))
        if len(self.marks):  # the old glosses go before the new come: two glosses never share a place
            self.scene.play(FadeOut(self.marks), run_time=0.3)
        if len(new):
            self.scene.play(*(FadeIn(m) for m in new), run_time=0.6)
        self.marks = new

    def attach(self, *mobjects: Mobject) -> None:
        """Make ``mobjects`` (a picture beside the step) part of the step's marks: they leave with it."""
        self.marks.add(*mobjects)

    def _gloss(self, text: str, box: Mobject) -> Mobject:
        """``text`` under ``box`` and under the whole step, so it overlaps nothing; inside the safe area."""
        note = label(text).next_to(box, DOWN, buff=0.25)
        note.set_y(min(note.get_y(), self.main.get_bottom()[1] - 0.25 - note.height / 2))
        half = note.width / 2
        note.set_x(float(np.clip(note.get_x(), theme.SAFE_LEFT + half, theme.SAFE_RIGHT - half)))
        return note

    def clear(self) -> None:
        """Fade the derivation out."""
        self.scene.play(FadeOut(self.header), FadeOut(self.main), FadeOut(self.marks), run_time=0.6)
