"""A score from 0 to 1 as a filled bar with its pass mark: how far a measure is from a threshold, seen."""

from __future__ import annotations

from manim import DOWN, LEFT, UP, DashedLine, Rectangle, VGroup

from drawing import theme
from drawing.text import label

__all__ = ["ScoreBar", "filled_track"]


def filled_track(score: float, width: float, height: float, color: str) -> tuple[Rectangle, Rectangle]:
    """A 0-to-1 track ``width`` long and the fill from its left end to ``score`` (clipped to the track)."""
    track = Rectangle(width=width, height=height, stroke_color=theme.MUTED, stroke_width=2)
    fill = Rectangle(width=max(max(min(score, 1.0), 0.0) * width, 1e-3), height=height, stroke_width=0)
    fill.set_fill(color, opacity=0.85).align_to(track, LEFT)
    return track, fill


class ScoreBar(VGroup):
    """A 0-to-1 track filled to ``score``, a dashed line at ``threshold``, and the score's text under it.

    Parameters
    ----------
    score : float
        The value, between 0 and 1 (clipped to the track).
    threshold : float
        The pass mark, drawn as a dashed line across the track and named above it.
    text : str
        How the score is written after the track (e.g. ``"0.4999"``, as precise as the pass needs).
    width, height : float
        The track's size in scene units.
    """

    def __init__(
        self,
        score: float,
        threshold: float,
        text: str,
        *,
        width: float = 2.0,
        height: float = 0.28,
        color: str = theme.WEIGHT,
    ) -> None:
        super().__init__()
        self.track, self.fill = filled_track(score, width, height, color)
        x = self.track.get_left()[0] + threshold * width
        self.mark = DashedLine(
            [x, -height / 2 - 0.12, 0], [x, height / 2 + 0.12, 0], color=theme.TEXT, stroke_width=3
        )
        self.mark_name = label(f"{threshold:g}", small=True, color=theme.MUTED)
        self.mark_name.next_to(self.mark, UP, buff=0.06)
        self.value = label(text, small=True).next_to(self.track, DOWN, buff=0.1)
        self.value.align_to(self.track, LEFT)
        self.add(self.track, self.fill, self.mark, self.mark_name, self.value)
