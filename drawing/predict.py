"""The pause-and-predict card: the picture dimmed behind a curtain, the question large in front of it.

A deliberate hold (docs/visual.md: the one exception to "never a held frame
while the voice speaks"): the viewer sees the question and, faintly, the
picture it is about, and has a few seconds to think before the answer is
shown by the animation that proves it.
"""

from __future__ import annotations

from manim import DOWN, Rectangle, VGroup

from drawing import theme
from drawing.text import label, wrapped

__all__ = ["Curtain", "predict_card", "THINK_SECONDS", "CURTAIN_OPACITY"]

THINK_SECONDS = 1.0
"""How long the question holds after it has been spoken, for the viewer to predict (the card reads
"Pause and predict": a student who needs longer pauses the player)."""
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


def predict_card(question: str) -> VGroup:
    """'Pause and predict' over the question, centred in the frame above the caption band."""
    heading = label("Pause and predict", color=theme.MUTED, size=theme.TITLE_SIZE)  # no role: not the query
    body = wrapped(question, width=theme.SAFE_RIGHT - theme.SAFE_LEFT - 1.0, size=theme.TITLE_SIZE - 4)
    card = VGroup(heading, body).arrange(DOWN, buff=0.5)
    return card.move_to([0, (theme.SAFE_TOP + theme.SAFE_BOTTOM) / 2, 0])
