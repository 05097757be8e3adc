"""Arcs from one word of a row to every word, each as wide and as opaque as the weight it carries."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import UP, ArcBetweenPoints, Circle, VGroup

from drawing import theme
from drawing.flow import baseline_of

__all__ = ["mix_arcs", "on_baseline"]


def on_baseline(row: VGroup) -> VGroup:
    """Shift each word of an arranged ``row`` so that all sit on the first word's baseline."""
    line = baseline_of(row[0])
    for word in row:
        word.shift((line - baseline_of(word)) * UP)
    return row


def mix_arcs(row: VGroup, query: int, weights: Sequence[float], *, rise: float = 0.9) -> VGroup:
    """An arc from word ``query`` of ``row`` to each word (a loop over itself), as wide as its weight.

    An arc rises at most ``rise`` above the words, so that a long one stays clear of a row above.
    """
    arcs = VGroup()
    top = max(word.get_top()[1] for word in row) + 0.1
    for j, w in enumerate(weights):
        start, end = np.array([row[query].get_x(), top, 0.0]), np.array([row[j].get_x(), top, 0.0])
        chord = abs(end[0] - start[0])
        angle = 4 * np.arctan(min(np.tan(0.15 * np.pi), 2 * rise / max(chord, 1e-9)))  # 0.6 pi at most
        arc = (
            ArcBetweenPoints(start, end, angle=angle if j < query else -angle)
            if j != query
            else Circle(radius=0.18).move_to(start + 0.2 * UP)
        )
        arcs.add(arc.set_stroke(theme.WEIGHT, width=2.0 + 14.0 * w, opacity=0.35 + 0.65 * w))
    return arcs
