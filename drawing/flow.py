"""Words laid out like running text: each word its own label, lines filled to a width."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import LEFT, UP, VGroup

from drawing import theme
from drawing.text import baseline_of, label

__all__ = ["flow_words", "baseline_of"]


def flow_words(
    words: Sequence[str],
    *,
    width: float,
    size: int = theme.LABEL_SIZE,
    color: str = theme.TEXT,
    max_lines: int = 3,
    pitch: float = 1.45,
) -> VGroup:
    """``words`` as separate labels on shared baselines, wrapped to ``width`` (top-left at the origin).

    Each word is its own label, so words can appear one at a time (text being
    generated) while the ones already shown stay put. When the words take more
    than ``max_lines`` lines at ``size``, the size steps down towards
    :data:`theme.SMALL_SIZE` (lecturer words are length-limited so that this
    fits). ``pitch`` is the line spacing in multiples of the font's line height.
    """
    for s in range(size, theme.SMALL_SIZE - 1, -2):
        mobs = [label(w, size=s, color=color) for w in words]
        space = 0.3 * s / theme.LABEL_SIZE
        lines = _break(np.array([m.width for m in mobs]), width, space)
        if len(lines) <= max_lines:
            break
    line_height = pitch * 0.4 * s / theme.LABEL_SIZE
    baseline = 0.28 * s / theme.LABEL_SIZE
    for k, line in enumerate(lines):
        x = 0.0
        for i in line:
            mob = mobs[i]
            mob.least_size = theme.SMALL_SIZE  # type: ignore[attr-defined]
            mob.move_to([x, 0, 0], aligned_edge=LEFT)
            # sit on the line's baseline: words with descenders hang below it
            mob.shift((-(k * line_height + baseline) - baseline_of(mob)) * UP)
            x += mob.width + space
    return VGroup(*mobs)


def _break(widths: np.ndarray, width: float, space: float) -> list[list[int]]:
    """Greedy line breaks: indices of the words on each line."""
    lines: list[list[int]] = [[]]
    used = 0.0
    for i, w in enumerate(widths):
        if lines[-1] and used + space + w > width:
            lines.append([])
            used = 0.0
        used += (space if lines[-1] else 0.0) + w
        lines[-1].append(i)
    return lines
