"""What a scene shows as equations right now: the LaTeX a descriptive transcript lists for each beat.

A readout (:class:`drawing.widgets.Readout`) counts as its label and the value
it shows. An equation's parts (``MathTex("a", "=", "b")``) on one line are one
equation; parts moved onto lines of their own are equations of their own, and
a part shown without the rest (``Write(formula[0])``) counts. Anything under a curtain
(:class:`drawing.predict.Curtain`, ``covers = True``) is hidden, and so is
anything faded out.
"""

from __future__ import annotations

from manim import MathTex, Mobject, Scene, SingleStringMathTex
from manim.mobject.text.tex_mobject import MathTexPart

from drawing.widgets import Readout

__all__ = ["visible_equations", "now_shows", "uncovered"]

VISIBLE = 0.05
"""The least fill opacity at which an equation counts as on screen."""


def _opacity(mob: Mobject) -> float:
    return max((m.get_fill_opacity() for m in mob.family_members_with_points()), default=0.0)


def _tex(mob: Mobject) -> str:
    return " ".join(str(getattr(mob, "tex_string", "")).split())


APART = 0.4
"""Scene units between two parts of one ``MathTex`` on a line that make them two equations."""


def _lines(parts: list[Mobject]) -> list[str]:
    """The parts' LaTeX, joined where they run on along one line, in order.

    Two parts are one equation when their heights overlap and the gap
    between them is under :data:`APART` (parts set side by side with room
    between them are two).
    """
    lines: list[tuple[float, float, float, list[str]]] = []
    for part in parts:
        low, high, left = part.get_bottom()[1], part.get_top()[1], part.get_left()[0]
        if lines and low < lines[-1][1] and high > lines[-1][0] and left - lines[-1][2] < APART:
            lines[-1][3].append(_tex(part))
            lines[-1] = (*lines[-1][:2], part.get_right()[0], lines[-1][3])
        else:
            lines.append((low, high, part.get_right()[0], [_tex(part)]))
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
            found.extend(
                _lines(
                    [p for p in mob.submobjects if p.has_points() or p.submobjects if _opacity(p) > VISIBLE]
                )
            )
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
