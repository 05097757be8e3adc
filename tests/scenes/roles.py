"""Role colours read off the screen: each symbol that names a role is drawn in that role's colour.

The kit can know a role where the TeX writes it: ``q`` (a query), ``k`` or ``k_i`` (a key), ``v_i`` (a
value), ``s_i`` (a score), ``a_i``, ``w_i`` or ``\\alpha_i`` (a weight). After every ``play()`` of a scene
run, each visible equation is taken in the parts manim typeset separately (one per TeX string); a part that
writes one of these symbols must draw some glyph in its role's colour (docs/visual.md: one colour per role,
everywhere). Manim colours glyphs inside a part, and which glyph a symbol became is not recorded, so this is
the check the pixels' source allows: a symbol left in the text colour is caught. The TeX is read here, apart
from the kit's colour maps (``drawing.theme.TEX_COLORS``, the scenes' ``colors=``).
"""

from __future__ import annotations

import re

from manim import MathTex, Mobject, SingleStringMathTex

from drawing import theme
from drawing.readouts import Readout
from scenes.onscreen import uncovered

_NOT_AFTER = r"(?<![\\A-Za-z_^{])"  # not part of a command, a word, a subscript or a superscript's name
ROLE_SYMBOLS = {
    "query": (re.compile(_NOT_AFTER + r"q(?![A-Za-z])"), theme.QUERY),
    "key": (re.compile(_NOT_AFTER + r"k(?![A-Za-z]|_\{\\mathrm)"), theme.KEY),
    "value": (re.compile(_NOT_AFTER + r"v_[ijt0-9]"), theme.VALUE),
    "score": (re.compile(_NOT_AFTER + r"s_[ijt0-9]"), theme.SCORE),
    "weight": (re.compile(_NOT_AFTER + r"(?:a|w)_[ijt0-9]|\\alpha_[ijt0-9]"), theme.WEIGHT),
}
"""Role: (where the TeX writes it, the colour it must be drawn in)."""

_TEXT_ARGUMENT = re.compile(r"\\(?:text|operatorname)\{[^{}]*\}")


def parts(mob: Mobject) -> list[Mobject]:
    """The separately drawn pieces of an equation, each with its ``tex_string`` (manim's MathTexPart)."""
    pieces = [m for m in mob.submobjects if isinstance(getattr(m, "tex_string", None), str)]
    return pieces or [mob]


def drawn_colours(part: Mobject) -> set[str]:
    """The fill colours of ``part``'s visible glyphs (none when nothing shows)."""
    glyphs = [g for g in part.family_members_with_points() if g.get_fill_opacity() > 0.05]
    return {g.get_fill_color().to_hex().upper() for g in glyphs}


def misdrawn_roles(tex: str, colours: set[str]) -> list[str]:
    """The roles ``tex`` writes that no glyph of ``colours`` draws in the role's colour."""
    if not colours:
        return []
    bare = _TEXT_ARGUMENT.sub("", tex)  # words in \text{...} name no symbol
    return [
        role
        for role, (pattern, wanted) in ROLE_SYMBOLS.items()
        if pattern.search(bare) and wanted.upper() not in colours
    ]


def role_problems(scene, step: str) -> list[str]:
    """Each visible equation piece that writes a role's symbol in another colour, after one step."""
    problems: list[str] = []

    def visit(mob: Mobject) -> None:
        if isinstance(mob, Readout):
            visit(mob.label)
            return
        if isinstance(mob, MathTex | SingleStringMathTex):
            for part in parts(mob):
                tex = getattr(part, "tex_string", "")
                for role in misdrawn_roles(tex, drawn_colours(part)):
                    problems.append(f"{step}: the {role} in {tex!r} is not drawn in the {role}'s colour")
            return
        for sub in mob.submobjects:
            visit(sub)

    for mob in uncovered(scene):
        visit(mob)
    return problems
