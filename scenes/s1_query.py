"""Section 1, the query moves: a query line through each figure, its weights redrawn as it goes.

The mean's weights never change as the query crosses; kernel regression's and
attention's follow it. Mixed into section 1's scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    ValueTracker,
    VGroup,
)

from drawing import theme
from drawing.plots import to_scene
from drawing.widgets import math
from narration.narrator import Spoken
from scenes.s1_figures import BIG, PAIR, THUMBS, Y_RANGE, MethodFigures, Place

__all__ = ["MovingQuery", "where"]


def where(q: float) -> str:
    """Where on the input axis, 0 to 1, the query stands, in words."""
    if q < 0.2:
        return "the far left"
    if q < 0.45:
        return "left of centre"
    if q <= 0.55:
        return "the centre"
    if q <= 0.8:
        return "right of centre"
    return "the far right"


class MovingQuery(MethodFigures):
    """Mixin for section 1's scene: the query's markers and live weights, and the beats that move it."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        query_path: ClassVar[tuple[float, ...]]

    # --- the query moves ---------------------------------------------------------
    def show_weights(self) -> None:
        """Weight axes under each plot, a query line through both, then the weights on the points."""
        self.q = ValueTracker(self.query_path[0])
        self.arrange_figures(self.places, reveal=True, run_time=0.8)  # brisk: the voice is naming q
        self.markers = [VGroup(DashedLine(UP, DOWN, color=theme.QUERY, stroke_width=4)) for _ in range(3)]
        for k, marker in enumerate(self.markers):
            marker.add(Dot(radius=0.12 * self.scale_of(k), color=theme.QUERY))
        self.q_names = VGroup(*(math("q", color=theme.QUERY) for _ in range(3)))
        self.refresh()
        self.show_names()
        self.figures[1][0].remove(self.bump)  # the mid-plot kernel gives way to the query's own weights
        self.play(Create(VGroup(*self.markers)), FadeIn(self.q_names), FadeOut(self.bump), run_time=0.8)
        for fig, marker in zip(self.figures, self.markers, strict=True):
            fig[0].add(marker)  # from now on it moves and scales with its plot
        self.when_said("yellow bars", *(FadeIn(b.bars) for b in self.bars), run_time=1.5)
        self.live = VGroup()
        self.start_live()

    def refresh(self) -> None:
        """Move the query markers of the figures on screen and redraw their weight bars."""
        q = float(self.q.get_value())
        weights = self.weights(np.array([q]))
        for k in self.place:
            axes, marker = self.axes[k], self.markers[k]
            top = to_scene(axes, q, Y_RANGE[1])[0]
            bottom = to_scene(self.bar_axes[k], q, 0.0)[0]
            marker[0].put_start_and_end_on(bottom, top)
            marker[1].move_to(to_scene(axes, q, float(weights[k][0] @ self.y))[0])
            self.q_names[k].next_to(top, RIGHT, buff=0.12).shift(0.3 * DOWN)
            self.bars[k].set_values(weights[k][0])

    def show_names(self) -> None:
        """Only a large or paired figure names its query: a thumbnail is too small for the letter."""
        for k, name in enumerate(self.q_names):
            name.set_opacity(1.0 if self.place.get(k, "thumb") != "thumb" else 0.0)

    def start_live(self) -> None:
        """Redraw the markers, names and bars of the figures on screen on every frame."""
        self.live = VGroup(*(VGroup(self.markers[k], self.bars[k], self.q_names[k]) for k in self.place))
        self.go_live(self.live, self.refresh)

    def rearrange(self, places: dict[int, Place]) -> None:
        """Move the figures (markers and bars move with them), then follow the query again."""
        self.stop_live(self.live)
        self.q_names.set_opacity(0.0)
        self.arrange_figures(places)
        self.show_names()
        self.start_live()

    def query_moves_right(self, spoken: Spoken) -> None:
        """The answer: the mean alone as the query crosses right, then kernel and attention coming back.

        The mean is drawn large as the voice says its weights never change; the other two take the
        screen side by side as they are named, and their weights follow the query back.
        """
        self.rearrange({0: ("big", BIG), 1: ("thumb", THUMBS[0]), 2: ("thumb", THUMBS[1])})
        self.sweep_to(self.q, self.query_path[1], max(self.seconds_until("Kernel and") - 0.2, 2.0))
        self.until_said("Kernel and")
        self.rearrange({1: ("pair", PAIR[0]), 2: ("pair", PAIR[1])})
        self.sweep_to(self.q, self.query_path[2], min(max(self.speech_left(), 3.0), 6.0))
