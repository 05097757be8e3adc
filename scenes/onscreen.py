"""What a scene shows as equations and words right now: what a descriptive transcript lists for each beat.

A readout (:class:`drawing.readouts.Readout`) counts as its label and the value
it shows. An equation's parts (``MathTex("a", "=", "b")``) on one line are one
equation, parts moved onto lines of their own are equations of their own, and
a part shown without the rest (``Write(formula[0])``) counts. A ``MathTex``
whose parts are separate equations, wherever they sit, says so with
:func:`separate_equations`. Anything under a curtain
(:class:`drawing.predict.Curtain`, ``covers = True``) is hidden, and so is
anything faded out.

Words (:func:`visible_words`) are the texts that are not mathematics: labels,
names, notes and titles, each as written, less tick numbers and lone letters.
"""

from __future__ import annotations

from manim import MarkupText, MathTex, Mobject, Scene, SingleStringMathTex, Text
from manim.mobject.text.tex_mobject import MathTexPart

from drawing.readouts import LabelSwitch, Readout

__all__ = [
    "visible_items",
    "visible_words",
    "changing",
    "whole_equations",
    "now_shows",
    "continuing",
    "separate_equations",
    "uncovered",
]

VISIBLE = 0.05
"""The least fill opacity at which an equation counts as on screen."""


def _opacity(mob: Mobject) -> float:
    return max((m.get_fill_opacity() for m in mob.family_members_with_points()), default=0.0)


def _tex(mob: Mobject) -> str:
    return " ".join(str(getattr(mob, "tex_string", "")).split())


def _shown_as(tex: MathTex) -> str | None:
    """The equation ``tex`` shows when it is not its own LaTeX: a continued line or a transformed one."""
    shown: str | None = getattr(tex, "shown_tex", None)  # what a transform left it showing
    left = getattr(tex, "continues", None)
    return shown if shown is not None or not left else f"{left} {_tex(tex)}"


def separate_equations(tex: MathTex) -> MathTex:
    """Mark ``tex``'s parts as equations of their own (two formulas typeset together, then laid apart)."""
    tex.separate_parts = True  # type: ignore[attr-defined]
    return tex


def _lines(tex: MathTex, parts: list[Mobject]) -> list[str]:
    r"""The parts' LaTeX, joined where they run on along one line (their heights overlap), in order.

    An aligned block (its lines broken by ``\\``) is one equation, however many lines it takes.
    """
    if getattr(tex, "separate_parts", False):
        return [_tex(part) for part in parts]
    if any(_tex(part) == r"\\" for part in tex.submobjects):
        return [" ".join(t for t in (_tex(part) for part in parts) if t)]
    lines: list[tuple[float, float, list[str]]] = []
    for part in parts:
        low, high = part.get_bottom()[1], part.get_top()[1]
        if lines and low < lines[-1][1] and high > lines[-1][0]:
            lines[-1][2].append(_tex(part))
        else:
            lines.append((low, high, [_tex(part)]))
    return [" ".join(t for t in texts if t) for *_, texts in lines]


def continuing(tex: MathTex, left: str) -> MathTex:
    """Mark ``tex``, a line that opens with "=", as the rest of an equation whose left side is ``left``.

    Written whole, it reads as that equation; written part by part, its parts read after ``left``.
    """
    tex.continues = left  # type: ignore[attr-defined]
    return tex


def now_shows(old: MathTex, new: MathTex) -> MathTex:
    """Mark ``old`` as showing ``new``'s equation (after ``Transform(old, new)``, whose glyphs it takes)."""
    old.shown_tex = " ".join(new.tex_string.split())  # type: ignore[attr-defined]
    return old


def visible_items(scene: Scene) -> list[tuple[str, str]]:
    """(key, LaTeX) of each equation on screen, in drawing order.

    A readout's key is the readout (its value changes while it stays one readout); an equation's, its LaTeX.
    Parts of one equation shown on their own (faded in one by one) are read together, as their equation.
    """
    found: list[tuple[str, str]] = []
    pieces: dict[int, tuple[MathTex, list[Mobject]]] = {}  # an equation shown in parts -> the parts seen

    def visit(mob: Mobject) -> None:
        if isinstance(mob, Readout):
            if _opacity(mob) > VISIBLE:
                found.append((f"readout {id(mob)}", f"{mob.label.tex_string} {mob.shown}"))
            return
        if isinstance(mob, MathTex) and (equation := _shown_as(mob)) is not None:
            if _opacity(mob) > VISIBLE:
                found.append((equation, equation))
            return
        if isinstance(mob, MathTex) and mob.submobjects:
            shown = [p for p in mob.submobjects if p.has_points() or p.submobjects if _opacity(p) > VISIBLE]
            found.extend((line, line) for line in _lines(mob, shown))
            return
        if isinstance(mob, (MathTexPart, SingleStringMathTex)):
            whole = getattr(mob, "whole", lambda: None)()
            if _opacity(mob) > VISIBLE and whole is not None:
                if id(whole) not in pieces:
                    found.append((f"whole {id(whole)}", ""))  # its place, filled in once all are seen
                pieces.setdefault(id(whole), (whole, []))[1].append(mob)
            elif _opacity(mob) > VISIBLE:
                found.append((_tex(mob), _tex(mob)))
            return
        for sub in mob.submobjects:
            visit(sub)

    for mob in whole_groups(scene):
        visit(mob)
    return [item for key, tex in found for item in _filled(key, tex, pieces)]


def changing(mob: Mobject, key: str) -> Mobject:
    """Mark ``mob`` as one state of a label that changes (a count): a beat lists its latest text only."""
    mob.changing_key = key  # type: ignore[attr-defined]
    return mob


def visible_words(scene: Scene) -> list[tuple[str, str]]:
    """(key, text) of each text on screen that is not mathematics, as written, in drawing order.

    A text counts when it has a word in it: at least two letters in a row (no tick numbers). A block of
    lines (:func:`drawing.text.wrapped`) counts as its whole text, and a label that switches in place
    (:class:`drawing.readouts.LabelSwitch`) as the option it shows. The key is the text, or for a label
    marked :func:`changing`, its mark: its states share one key, as a readout's values do.
    """
    found: list[tuple[str, str]] = []

    def visit(mob: Mobject) -> None:
        if isinstance(mob, LabelSwitch):
            if _opacity(mob) > VISIBLE:
                found.append((f"switch {id(mob)}", mob.text))
            return
        if isinstance(mob, (Text, MarkupText)) or isinstance(getattr(mob, "text", None), str):
            if _opacity(mob) > VISIBLE:  # a text, or a block of lines (drawing.text.wrapped) as one
                text = " ".join(str(getattr(mob, "original_text", mob.text)).split())
                found.append((getattr(mob, "changing_key", text), text))
            return
        if isinstance(mob, (Readout, MathTex, SingleStringMathTex)):
            return
        for sub in mob.submobjects:
            visit(sub)

    for mob in whole_groups(scene):
        visit(mob)
    return [(key, text) for key, text in found if _has_word(text)]


def _has_word(text: str) -> bool:
    """Two letters in a row ("d²" and "0.5" have none).

    >>> _has_word("d\u00b2"), _has_word("layer 3")
    (False, True)
    """
    return any(a.isalpha() and b.isalpha() for a, b in zip(text, text[1:], strict=False))


def _filled(key: str, tex: str, pieces: dict[int, tuple[MathTex, list[Mobject]]]) -> list[tuple[str, str]]:
    """An item as found, or an equation's place with the lines its seen parts make (in its own order)."""
    if not key.startswith("whole "):
        return [(key, tex)]
    whole, seen = pieces[int(key.split()[1])]
    order = {id(p): i for i, p in enumerate(whole.submobjects)}
    parts = sorted(seen, key=lambda p: order.get(id(p), len(order)))
    lines = _lines(whole, parts)
    left = getattr(whole, "continues", None)
    if lines and left:  # the rest of an equation: its left side first
        lines[0] = f"{left} {lines[0]}"
    return [(line, line) for line in lines]


def whole_groups(scene: Scene) -> list[Mobject]:
    """:func:`uncovered`, each live group whole where its driver is.

    :mod:`scenes.live` splits a live group in the scene into still parts and a driver of changing
    parts, and a readout is only whole in the group.
    """
    live = getattr(scene, "live_drivers", {})
    groups = {id(driver): group for group, driver in live.values()}
    parts = {id(m) for group in groups.values() for m in group.get_family()}
    shown = []
    for mob in uncovered(scene):
        if id(mob) in groups:
            shown.append(groups[id(mob)])
        elif id(mob) not in parts:
            shown.append(mob)
    return shown


def whole_equations(shown: list[str]) -> list[str]:
    """A beat's equations less its fragments.

    A fragment is a lone symbol ("=", "+"), or what another equation of the beat contains (the first
    parts of an equation written part by part).
    """
    squeezed = ["".join(tex.split()) for tex in shown]
    return [
        tex
        for tex, flat in zip(shown, squeezed, strict=True)
        if any(c.isalnum() for c in flat) and not any(flat != other and flat in other for other in squeezed)
    ]


def uncovered(scene: Scene) -> list[Mobject]:
    """The scene's top-level mobjects a viewer can see: those drawn after the last curtain, if any."""
    covered = max((i for i, m in enumerate(scene.mobjects) if getattr(m, "covers", False)), default=-1)
    return list(scene.mobjects[covered + 1 :])
