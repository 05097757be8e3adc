"""What a scene shows as equations right now: the LaTeX a descriptive transcript lists for each beat.

A readout (:class:`drawing.readouts.Readout`) counts as its label and the value
it shows. An equation's parts (``MathTex("a", "=", "b")``) on one line are one
equation, parts moved onto lines of their own are equations of their own, and
a part shown without the rest (``Write(formula[0])``) counts. A ``MathTex``
whose parts are separate equations, wherever they sit, says so with
:func:`separate_equations`. Anything under a curtain
(:class:`drawing.predict.Curtain`, ``covers = True``) is hidden, and so is
anything faded out.
"""

from __future__ import annotations

from manim import MathTex, Mobject, Scene, SingleStringMathTex
from manim.mobject.text.tex_mobject import MathTexPart

from drawing.readouts import Readout

__all__ = ["visible_equations", "now_shows", "separate_equations", "uncovered"]

VISIBLE = 0.05
"""The least fill opacity at which an equation counts as on screen."""


def _opacity(mob: Mobject) -> float:
    return max((m.get_fill_opacity() for m in mob.family_members_with_points()), default=0.0)


def _tex(mob: Mobject) -> str:
    return " ".join(str(getattr(mob, "tex_string", "")).split())


def separate_equations(tex: MathTex) -> MathTex:
    """Mark ``tex``'s parts as equations of their own (two formulas typeset together, then laid apart)."""
    tex.separate_parts = True  # type: ignore[attr-defined]
    return tex


def _lines(tex: MathTex, parts: list[Mobject]) -> list[str]:
    """The parts' LaTeX, joined where they run on along one line (their heights overlap), in order."""
    if getattr(tex, "separate_parts", False):
        return [_tex(part) for part in parts]
    lines: list[tuple[float, float, list[str]]] = []
    for part in parts:
        low, high = part.get_bottom()[1], part.get_top()[1]
        if lines and low < lines[-1][1] and high > lines[-1][0]:
            lines[-1][2].append(_tex(part))
        else:
            lines.append((low, high, [_tex(part)]))
    return [" ".join(t for t in texts if t) for *_, texts in lines]


def now_shows(old: MathTex, new: MathTex) -> MathTex:
    """Mark ``old`` as showing ``new``'s equation (after ``Transform(old, new)``, whose glyphs it takes)."""
    old.shown_tex = " ".join(new.tex_string.split())  # type: ignore[attr-defined]
    return old


def visible_equations(scene: Scene) -> list[str]:
    """The LaTeX of each equation on screen, in drawing order, without repeats."""
    found: list[str] = []

    def visit(mob: Mobject) -> None:
        if isinstance(mob, Readout):
            if _opacity(mob) > VISIBLE:
                found.append(f"{mob.label.tex_string} {mob.shown}")
            return
        if isinstance(mob, MathTex) and hasattr(mob, "shown_tex"):
            if _opacity(mob) > VISIBLE:
                found.append(mob.shown_tex)
            return
        if isinstance(mob, MathTex) and mob.submobjects:
            shown = [p for p in mob.submobjects if p.has_points() or p.submobjects if _opacity(p) > VISIBLE]
            found.extend(_lines(mob, shown))
            return
        if isinstance(mob, (MathTexPart, SingleStringMathTex)):
            if _opacity(mob) > VISIBLE:
                found.append(_tex(mob))
            return
        for sub in mob.submobjects:
            visit(sub)

    for mob in uncovered(scene):
        visit(mob)
    return list(dict.fromkeys(found))


def uncovered(scene: Scene) -> list[Mobject]:
    """The scene's top-level mobjects a viewer can see: those drawn after the last curtain, if any."""
    covered = max((i for i, m in enumerate(scene.mobjects) if getattr(m, "covers", False)), default=-1)
    return list(scene.mobjects[covered + 1 :])
