"""Text that changes in place: a live numeric readout, and a label switched among prepared options.

Both rewrite the points of one path instead of adding, removing or copying
mobjects while they change, so what manim draws mid-animation is exactly what
the widget holds, and a frame draws one path per widget, not one per letter or
digit (docs/manim.md). Like every widget they only draw numbers computed by
:mod:`attnmath`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import MathTex, Mobject, VGroup, VMobject

from drawing import theme
from drawing.text import light, math

__all__ = ["Readout", "LabelSwitch", "Glyph"]


@dataclass(frozen=True)
class Glyph:
    """One typeset character: the path, its outline centred on the origin, and its size."""

    mob: VMobject
    shape: np.ndarray  # the path's points minus its centre
    width: float
    height: float

    @classmethod
    def typeset(cls, char: str, size: int, color: str) -> Glyph:
        """Typeset ``char`` in math mode."""
        mob = light(MathTex(char, font_size=size, color=color))[0][0]
        return cls(mob, mob.points - mob.get_center(), mob.width, mob.height)


_GLYPHS: dict[tuple[int, str], dict[str, Glyph]] = {}


class LabelSwitch(VMobject):
    """One of several prepared labels, shown as a single path whose points are swapped in place.

    For a label that changes during an animation (a regime's name): switching
    rewrites the points of this one mobject, so nothing is added or removed
    mid-animation and a frame draws one path, not one per letter, and not the
    hidden alternatives.

    Parameters
    ----------
    options : dict
        Name -> the label as placed on screen (``Text`` or ``MathTex``, one colour).
    """

    def __init__(self, options: dict[str, Mobject]) -> None:
        first = next(iter(options.values())).family_members_with_points()[0]
        super().__init__(
            fill_color=first.get_fill_color(), fill_opacity=first.get_fill_opacity(), stroke_width=0
        )
        anchor = np.mean([mob.get_center() for mob in options.values()], axis=0)
        # Each option's points relative to the anchor, so the switch may be moved like any mobject.
        self.options = {
            name: np.concatenate([m.points for m in mob.family_members_with_points()]) - anchor
            for name, mob in options.items()
        }
        self.texts = {  # as written: manim's Text keeps its text without spaces, and its original_text with
            name: getattr(mob, "original_text", getattr(mob, "text", name)) for name, mob in options.items()
        }
        self.sizes = {name: float(getattr(mob, "font_size", 0.0)) for name, mob in options.items()}
        self.least_size = min(getattr(mob, "least_size", theme.LABEL_SIZE) for mob in options.values())
        self.current = ""
        self.points = np.tile(anchor, (4, 1))

    def anchor(self) -> np.ndarray:
        """Where the options are placed from (follows any move of the switch)."""
        if not self.current:
            return self.points[0].copy()
        return self.points[0] - self.options[self.current][0]

    def switch_to(self, name: str) -> LabelSwitch:
        """Show the option ``name``, or nothing for ``""`` (points rewritten only on a change)."""
        if name != self.current:
            anchor = self.anchor()
            self.points = self.options[name] + anchor if name else np.tile(anchor, (4, 1))
            self.current = name
        return self

    @property
    def font_size(self) -> float:
        """The shown label's font size on screen (it follows any scaling of the switch)."""
        if not self.current:
            return 0.0
        prepared = np.ptp(self.options[self.current][:, 1])
        return self.sizes[self.current] * float(np.ptp(self.points[:, 1]) / prepared)

    @property
    def text(self) -> str:
        """The text shown now ("" when hidden)."""
        return self.texts[self.current] if self.current else ""


class Readout(VGroup):
    """A TeX label and a live number with fixed decimals, aligned on its right edge.

    The number is one path built once: a new value rewrites its points from
    glyphs typeset once per character (``0-9``, ``.``, ``-``), one subpath
    group per character. Nothing is added, removed or copied while a value
    changes, so what manim draws during an animation is exactly what the
    readout holds (manim keeps drawing submobjects that are detached
    mid-animation: see docs/manim.md), and a frame draws one path per
    readout, not one per digit. The points are rewritten only when the printed
    text changes; fixed decimals and a fixed right edge keep the decimal point
    still.

    Parameters
    ----------
    tex : str
        Label, e.g. ``r"H(a) ="``.
    value : float
        Initial value.
    decimals : int
        Decimal places shown.
    widest : float
        The widest value expected, to reserve room for the number; values whose
        text is longer than ``-abs(widest)``'s are refused.
    """

    def __init__(
        self,
        tex: str,
        value: float,
        *,
        decimals: int = 2,
        widest: float = 100.0,
        color: str = theme.TEXT,
        size: int = theme.READOUT_SIZE,
    ) -> None:
        super().__init__()
        self.decimals = decimals
        self.label = math(tex, size=size, color=color)
        self.glyph_key = (size, str(color))
        self.gap = 0.06 * size / 48
        self.digit_height = self.glyphs["0"].height
        # Where the digits go, relative to the label (the readout may be moved after construction).
        self.right_offset = 0.15 + self._advance(self.text_for(abs(widest)))[-1]
        self.room = len(self.text_for(-abs(widest)))
        self.number = self.glyphs["0"].mob.copy()
        self.shown = ""
        self.add(self.label, self.number)
        self.set_value(value)

    @property
    def glyphs(self) -> dict[str, Glyph]:
        """The typeset characters this readout draws with, shared by readouts of one size and colour.

        They live outside the mobject, so copies of the readout (made by every
        FadeIn, FadeOut and Transform) do not copy them.
        """
        if self.glyph_key not in _GLYPHS:
            size, color = self.glyph_key
            _GLYPHS[self.glyph_key] = {c: Glyph.typeset(c, size, color) for c in "0123456789.-"}
        return _GLYPHS[self.glyph_key]

    @property
    def font_size(self) -> float:
        """The readout's font size on screen (its label's; the digits are typeset at the same size)."""
        return float(self.label.font_size)

    @property
    def least_size(self) -> int:
        """A readout is a name and a number the viewer must read: label size or more."""
        return theme.LABEL_SIZE

    def live_parts(self) -> tuple[list[Mobject], list[Mobject]]:
        """(parts that stay still, parts that ``set_value`` changes): the label, the number."""
        return [self.label], [self.number]

    def text_for(self, value: float) -> str:
        """The text the readout prints for ``value``."""
        return f"{value:.{self.decimals}f}"

    def _advance(self, text: str) -> np.ndarray:
        """Right edge of each character of ``text`` from the text's left edge."""
        widths = np.array([self.glyphs[c].width for c in text])
        return np.cumsum(widths + self.gap) - self.gap

    def set_value(self, value: float) -> Readout:
        """Show ``value``: the number's points are rewritten only when the printed text changes."""
        text = self.text_for(value)
        if text == self.shown:
            return self
        if len(text) > self.room:
            name = self.label.tex_string
            raise ValueError(f"readout {name!r} has room for {self.room} characters, got {text!r}")
        right = self.label.get_right()[0] + self.right_offset
        bottom = self.label.get_center()[1] - self.digit_height / 2
        advance = self._advance(text)
        parts = []
        for c, x_right in zip(text, right - advance[-1] + advance, strict=True):
            glyph = self.glyphs[c]
            y = bottom + self.digit_height / 2 if c == "-" else bottom + glyph.height / 2
            parts.append(glyph.shape + np.array([x_right - glyph.width / 2, y, 0.0]))
        self.number.points = np.concatenate(parts)
        self.shown = text
        return self
