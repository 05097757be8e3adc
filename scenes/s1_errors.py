"""Section 1's errors' line: under the two plots, a heading and two named errors, each with its bar.

Every bar is on one scale, so a bar that grows from one row to the next says the
error grew: the leave-one-out errors both similarities were tuned on, then the
fresh points' errors, then the learned similarity's own two side by side. Mixed
into section 1's scene through :class:`scenes.s1_fair_test.FairComparison`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from manim import (
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Mobject,
    Rectangle,
    VGroup,
)

from drawing import theme
from drawing.widgets import fit_width, label
from scenes.s1_figures import MethodFigures

__all__ = ["ERROR_BAR", "LEARNED", "PLOTS", "ErrorsLine", "ErrorsRow", "sig2"]

ERROR_BAR = 2.0
"""The longest error bar's length (scene units): the largest error the section shows."""
BAR_GAP = 0.15
"""Space between an error's text and its bar."""
PLOTS = ("kernel", "attention")
"""The errors' names under the kernel's and attention's plot, as the narration calls them."""
LEARNED = ("tuned on", "fresh")
"""The learned similarity's two errors: the leave-one-out error it was tuned on, and the fresh one."""


@dataclass(frozen=True)
class ErrorsRow:
    """The errors' line: a heading, two named errors, and their bars (grown as each error is said)."""

    header: Mobject
    names: VGroup
    bars: VGroup

    @property
    def group(self) -> VGroup:
        """All of it, to fade as one."""
        return VGroup(self.header, self.names, self.bars)

    def grow(self) -> list[Animation]:
        """Each bar grown from its left end."""
        return [GrowFromEdge(b, LEFT) for b in self.bars]


def sig2(value: float) -> str:
    """``value`` to two significant figures, as the narration says it and the screen shows it."""
    return f"{value:.2g}"


class ErrorsLine(MethodFigures):
    """Mixin: the errors' line under section 1's two plots, and a veil that dims one plot."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        loo: tuple[float, float]
        held_out: tuple[float, float]

    dimmed: Rectangle = Rectangle()  # a veil over the kernel's plot while the words are about attention
    note: VGroup | None = None  # the errors' line (or a note in its place) now shown

    def show_errors_note(self, text: str) -> None:
        """A one-line note in the errors' place; it replaces the line before."""
        self.play(*self.errors_note(text), run_time=1.0)

    def errors_note(self, text: str) -> list[Animation]:
        """A one-line note replacing the errors' line before it: the fade out and in, to play."""
        line = label(text, color=theme.TEXT)
        line.set_y(max(theme.SAFE_BOTTOM + 0.22, theme.SAFE_BOTTOM + 0.02 + line.height / 2))  # descenders in
        note = VGroup(fit_width(line, theme.SAFE_RIGHT - theme.SAFE_LEFT))
        return [self.hand_over(note, FadeIn(note))]

    def hand_over(self, line: VGroup, coming: Animation) -> Animation:
        """The errors' line before fades, then ``coming`` brings ``line``, the one kept from now on.

        One after the other, never both at once; with no line before, ``coming`` alone.
        """
        old, self.note = self.note, line
        return coming if old is None else LaggedStart(FadeOut(old), coming, lag_ratio=1.0)

    def errors_row(
        self, heading: str, errors: tuple[float, float], names: tuple[str, str] = PLOTS
    ) -> ErrorsRow:
        """A heading over two named errors, each with a bar: the errors' line under the two plots.

        Every bar is on one scale, :data:`ERROR_BAR` for the largest error the section shows, so a bar
        that grows from one row to the next says the error grew. Each name with its bar's full length
        is centred under its plot.
        """
        scale = max(*self.loo, *self.held_out)
        texts = VGroup(*(label(f"{name} {sig2(e)}") for name, e in zip(names, errors, strict=True)))
        texts.set_y(theme.SAFE_BOTTOM + 0.22)
        bars = VGroup()
        for text, error, axes in zip(texts, errors, (self.axes[1], self.axes[2]), strict=True):
            room = text.width + BAR_GAP + ERROR_BAR
            text.set_x(axes.get_center()[0] - (room - text.width) / 2)
            bar = Rectangle(width=max(ERROR_BAR * error / scale, 0.03), height=0.24, stroke_width=0)
            bar.set_fill(theme.TEXT, opacity=0.9).next_to(text, RIGHT, buff=BAR_GAP)
            bars.add(bar)
        clear_left = max(theme.SAFE_LEFT - texts[0].get_left()[0], 0.0)  # a long name stays in the frame
        texts[0].shift(clear_left * RIGHT)
        bars[0].shift(clear_left * RIGHT)
        header = fit_width(label(heading, color=theme.MUTED), theme.SAFE_RIGHT - theme.SAFE_LEFT)
        return ErrorsRow(header.next_to(texts, UP, buff=0.1).set_x(0), texts, bars)

    def replace_row(self, row: ErrorsRow, *shown: Animation) -> Animation:
        """``row`` replaces the errors' line before it; ``shown`` plays once the old line has gone.

        By default ``shown`` is the whole row, its bars growing.
        """
        coming = shown or (FadeIn(row.header, row.names), *row.grow())
        return self.hand_over(row.group, AnimationGroup(*coming))

    def undim(self) -> list[Animation]:
        """The veil lifts, if one is down."""
        veil, self.dimmed = self.dimmed, Rectangle()
        return [FadeOut(veil)] if veil in self.mobjects else []

    def dim_over(self, figure: Mobject) -> Rectangle:
        """A veil in the background's colour over ``figure``: dimmed while the words are about the other."""
        veil = Rectangle(width=figure.width + 0.2, height=figure.height + 0.2, stroke_width=0)
        return veil.set_fill(theme.BACKGROUND, opacity=0.7).move_to(figure).set_z_index(5)
