"""The pause-and-predict card: the picture dimmed behind a curtain, the question large in front of it.

A deliberate hold (docs/visual.md: the one exception to "never a held frame
while the voice speaks"): the viewer sees the question and, faintly, the
picture it is about, and has a few seconds to think before the answer is
shown by the animation that proves it.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, LEFT, RIGHT, UP, Rectangle, VGroup

from drawing import theme
from drawing.text import fit_width, label, wrapped
from lecture.questions import LETTERS

__all__ = ["Curtain", "PredictCard", "predict_card", "THINK_SECONDS", "CURTAIN_OPACITY"]

THINK_SECONDS = 2.5
"""Seconds of silence after the options are read, before the answer starts: time to choose (the card
reads "Pause and predict": a student who needs longer pauses the player, which pauses by itself there)."""
CURTAIN_OPACITY = 0.92
"""The picture stays faintly visible behind the question (8% of its contrast)."""


class Curtain(Rectangle):
    """A frame-sized panel in the background colour; what lies under it counts as hidden."""

    covers = True  # read by the layout checks: texts under a curtain are not on screen

    def __init__(self) -> None:
        super().__init__(
            width=theme.FRAME_WIDTH + 0.2,
            height=theme.FRAME_HEIGHT + 0.2,
            fill_color=theme.BACKGROUND,
            fill_opacity=CURTAIN_OPACITY,
            stroke_width=0,
        )


class PredictCard(VGroup):
    """'Pause and predict' over the question and its lettered options, centred above the caption band.

    ``ask`` (heading and question) shows first; ``options`` (one row a choice,
    "A  ...") follow when the voice reads them.
    """

    def __init__(self, question: str, options: Sequence[str] = ()) -> None:
        width = theme.SAFE_RIGHT - theme.SAFE_LEFT - 1.0
        heading = label("Pause and predict", color=theme.MUTED, size=theme.TITLE_SIZE)  # no role colour
        body = wrapped(question[:1].upper() + question[1:], width=width, size=theme.TITLE_SIZE - 4)
        self.ask = VGroup(heading, body).arrange(DOWN, buff=0.5)
        self.options = VGroup(*(_option(LETTERS[i], text, width) for i, text in enumerate(options)))
        if options:
            self.options.arrange(DOWN, buff=0.28, aligned_edge=LEFT)
            column = max(mark.get_right()[0] for mark, _ in self.options) + 0.35
            for _, text in self.options:  # one column for every text
                text.shift((column - text.get_left()[0]) * RIGHT)
            super().__init__(self.ask, self.options)
            self.arrange(DOWN, buff=0.55)
        else:
            super().__init__(self.ask)
        height = theme.SAFE_TOP - theme.SAFE_BOTTOM - 0.3
        if self.height > height:
            self.scale(height / self.height)
        self.move_to([0, (theme.SAFE_TOP + theme.SAFE_BOTTOM) / 2, 0])


def _option(letter: str, text: str, width: float) -> VGroup:
    """One choice: its letter, then its text, left-aligned and wrapped beside it."""
    mark = label(letter, color=theme.MUTED, size=theme.BODY_SIZE)
    body = wrapped(text, width=width - 1.0, size=theme.BODY_SIZE, max_lines=2, align_left=True)
    row = VGroup(mark, body).arrange(RIGHT, buff=0.35, aligned_edge=UP)
    fit_width(row, width)
    return row


def predict_card(question: str, options: Sequence[str] = ()) -> PredictCard:
    """The card for ``question`` and its ``options`` (none: the question alone)."""
    return PredictCard(question, options)
