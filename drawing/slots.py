"""Words set one per slot of a row: a grid's columns, a chart's bars.

Where any word is wider than its slot, the words take two staggered rows, every
other one moved a row further from the slots, so each word has two slots' room
(a slot and a half at either end). A word wider still is cut with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import RIGHT, UP, Text, VGroup

from drawing import theme
from drawing.text import baseline_of, label

__all__ = ["fit_word", "slot_words", "place_above", "place_below", "keep_within"]

GAP = 0.12
"""Room kept between neighbouring words, in scene units."""


def fit_word(word: str, width: float, color: str) -> Text:
    """``word`` as a small label, cut short with an ellipsis where it is wider than ``width``."""
    for n in range(len(word), 0, -1):
        mob = label(word[:n] + ("" if n == len(word) else "\u2026"), small=True, color=color)
        if mob.width <= width:
            return mob
    return mob


def slot_words(
    words: Sequence[str], slot_w: float, color: str = theme.KEY, *, ends: float = 1.5
) -> tuple[VGroup, float]:
    """The words, one per slot of width ``slot_w``, and how far every other one is moved (0: one row).

    Staggered, each word has two slots' room, and the first and last ``ends`` slots (more where the row
    may reach past its slots' edge).
    """
    n = len(words)
    stagger = any(label(w, small=True).width > slot_w - 0.08 for w in words)
    room = [(2 if stagger else 1) * slot_w - GAP] * n
    if stagger:
        room[0] = room[-1] = ends * slot_w - GAP
    row = VGroup(*(fit_word(w, r, color) for w, r in zip(words, room, strict=True)))
    return row, (max(w.height for w in row) + 0.1 if stagger else 0.0)


def place_above(row: VGroup, xs: Sequence[float], line: float, rise: float) -> None:
    """Each word over its x on one baseline just above ``line``, every other one ``rise`` higher."""
    _set_on_baselines(row, xs, line + 0.15, rise)


def place_below(row: VGroup, xs: Sequence[float], line: float, rise: float) -> None:
    """Each word under its x on one baseline just below ``line``, every other one ``rise`` lower."""
    _set_on_baselines(row, xs, line - 0.1 - 0.8 * max(w.height for w in row), -rise)


def _set_on_baselines(row: VGroup, xs: Sequence[float], base: float, step: float) -> None:
    """Each word centred on its x with its baseline at ``base``, every other one's ``step`` further."""
    for j, (word, x) in enumerate(zip(row, xs, strict=True)):
        line = base + (step if j % 2 else 0.0)
        word.move_to([x, line + word.height / 2, 0])
        word.shift((line - baseline_of(word)) * UP)


def keep_within(row: VGroup, left: float, right: float) -> None:
    """Pull the end words in where they would reach past ``left`` or ``right``."""
    if row[0].get_left()[0] < left:
        row[0].shift((left - row[0].get_left()[0]) * RIGHT)
    if row[-1].get_right()[0] > right:
        row[-1].shift((right - row[-1].get_right()[0]) * RIGHT)
