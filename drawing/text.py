"""On-screen text in the lecture's sizes: labels, wrapped lines, math, and the size roles the tests read.

Every text carries ``least_size``: the smallest font size it may be shown at
(:data:`theme.SMALL_SIZE` for text marked small, else :data:`theme.LABEL_SIZE`).
``tests/scenes`` checks each visible text against it after every step.
"""

from __future__ import annotations

import re
import weakref
from typing import TypeVar

import numpy as np
from manim import DOWN, LEFT, ORIGIN, MathTex, Mobject, Text, VGroup

from drawing import theme

__all__ = ["label", "wrapped", "math", "light", "fit_width", "baseline_of"]

M = TypeVar("M", bound=Mobject)


def light(mob: M) -> M:
    """Drop the parsed SVG path objects that text glyphs keep after their points are built.

    Manim's Text and MathTex glyphs hold their ``svgelements`` path, used only
    to make the points; every FadeIn, FadeOut and Transform deep-copies the
    mobject, and that path made copies about six times slower.
    """
    for part in mob.family_members_with_points():
        if getattr(part, "path_obj", None) is not None:
            part.path_obj = None  # type: ignore[attr-defined]
    return mob


def baseline_of(mob: Mobject) -> float:
    """The y of a label's baseline: the bottom of its lowest glyph without a descender."""
    bottoms = [g.get_bottom()[1] for g in mob.submobjects if g.has_points()]
    return float(np.median(bottoms)) if bottoms else float(mob.get_bottom()[1])


def label(text: str, *, color: str = theme.TEXT, size: int | None = None, small: bool = False) -> Text:
    """Plain on-screen text in the lecture font.

    ``small`` marks secondary text (tick numbers, units, a footnote): it may be
    as small as :data:`theme.SMALL_SIZE`; every other text stays at
    :data:`theme.LABEL_SIZE` or more, at its size on screen (the size test
    reads ``least_size``).
    """
    mob = light(Text(text, font=theme.FONT, font_size=size or _default_size(small), color=color))
    mob.least_size = theme.SMALL_SIZE if small else theme.LABEL_SIZE  # type: ignore[attr-defined]
    return mob


def _default_size(small: bool) -> int:
    return theme.SMALL_SIZE if small else theme.LABEL_SIZE


def wrapped(
    text: str,
    *,
    width: float,
    size: int = theme.LABEL_SIZE,
    color: str = theme.TEXT,
    max_lines: int = 3,
    line_gap: float = 0.18,
    align_left: bool = False,
) -> VGroup:
    """``text`` broken at spaces into centred lines no wider than ``width``.

    Lines are filled greedily at ``size``; when that takes more than
    ``max_lines`` lines or one word alone is wider than ``width``, the size
    steps down towards :data:`theme.SMALL_SIZE` and, as a last resort, the
    block is scaled to fit (lecturer text is length-limited so that this
    stays readable). ``align_left`` aligns the lines on their left edges.
    """
    for s in range(size, theme.SMALL_SIZE - 1, -2):
        lines = _fill_lines(text.split(), width, s, color)
        if len(lines) <= max_lines and all(line.width <= width for line in lines):
            break
    block = VGroup(*lines).arrange(DOWN, buff=line_gap, aligned_edge=LEFT if align_left else ORIGIN)
    fit_width(block, width)
    block.text = " ".join(text.split())  # type: ignore[attr-defined]
    return block


def _fill_lines(words: list[str], width: float, size: int, color: str) -> list[Text]:
    """Greedy line filling: each line takes words while it stays within ``width``."""
    filled: list[list[str]] = []
    current: list[str] = []
    for word in words:
        trial = label(" ".join([*current, word]), size=size, color=color)
        if current and trial.width > width:
            filled.append(current)
            current = [word]
        else:
            current.append(word)
    if current:
        filled.append(current)
    lines = [label(" ".join(f), size=size, color=color) for f in filled]
    for line, f in zip(lines, filled, strict=True):
        line.least_size = theme.SMALL_SIZE  # type: ignore[attr-defined]
        line.words = " ".join(f)  # type: ignore[attr-defined]  # what the line says, spaces kept
    return lines


def fit_width(mob: Mobject, width: float) -> Mobject:
    """Shrink ``mob`` to ``width`` if it is wider (never enlarges)."""
    if mob.width > width:
        mob.scale_to_fit_width(width)
    return mob


def math(
    *tex: str,
    size: int = theme.MATH_SIZE,
    color: str = theme.TEXT,
    colors: dict[str, str] | None = None,
    small: bool = False,
) -> MathTex:
    """LaTeX math with role colours: :data:`theme.TEX_COLORS` plus ``colors``.

    ``colors`` maps substrings (e.g. ``"s_i"``) to colours; pick substrings
    that occur only as whole symbols in ``tex``. ``small`` marks secondary
    math (tick values, shapes) that may be as small as ``theme.SMALL_SIZE``.
    """
    mapping = {**theme.TEX_COLORS, **(colors or {})}
    for key in mapping:
        split = [c for t in tex for c in re.findall(r"\\[A-Za-z]+", t) if key in c and key != c]
        if split:
            raise ValueError(
                f"bug: colouring {key!r} would split the TeX command {split[0]!r}; write it another way"
            )
    mob = light(MathTex(*tex, font_size=size, color=color, tex_to_color_map=mapping))
    mob.least_size = theme.SMALL_SIZE if small else theme.LABEL_SIZE  # type: ignore[attr-defined]
    for part in mob.submobjects:  # a part animated on its own still belongs to one equation (a weak
        part.whole = weakref.ref(mob)  # type: ignore[attr-defined]  # reference: copies share it)
    return mob
