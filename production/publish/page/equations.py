"""The lecture notes' key equations, typeset offline to inline SVG.

Each section declares its equations (:attr:`lecture.section.Section.equations`).

Each equation goes through manim's own TeX pipeline (LaTeX, then dvisvgm, the
same as every ``MathTex`` in the scenes) into a cache folder, and the SVG is
made fit to sit inside an HTML page: its ids get a prefix of their own (two
equations' glyphs share ids such as ``g0-11``), it is filled with
``currentColor`` (the page's text colour, on screen and in print) and it is
sized in ``em``, so it scales with the text around it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from lecture.section import Section

__all__ = ["ENVIRONMENT", "equation_svg", "typeset", "inline_svg"]

ENVIRONMENT = "align*"
"""Every equation is typeset as display maths; ``&`` aligns and ``\\\\`` breaks lines."""
POINTS_PER_EM = 9.0
"""TeX's 10 pt text shown a little larger than the page's text: equations are displayed."""

_SIZE = re.compile(r"\s(width|height)='([0-9.]+)pt'")
_ID = re.compile(r"""\b(id|xlink:href|href)=(['"])(#?)([^'"]+)\2""")


def inline_svg(svg: str, prefix: str, label: str) -> Markup:
    """A dvisvgm SVG made fit to inline: ids prefixed, filled with currentColor, sized in em, labelled."""
    body = svg[svg.index("<svg") :]
    body = re.sub(r"<!--.*?-->", "", body, flags=re.S)

    def em(match: re.Match[str]) -> str:
        return f" {match[1]}='{float(match[2]) / POINTS_PER_EM:.3f}em'"

    def renamed(match: re.Match[str]) -> str:
        name, quote, hash_, ref = match.groups()
        if name != "id" and not hash_:  # a link to something outside the SVG: dvisvgm writes none
            return match[0]
        return f"{name}={quote}{hash_}{prefix}-{ref}{quote}"

    head_end = body.index(">")
    head = _SIZE.sub(em, body[:head_end])
    head += f" fill='currentColor' role='img' aria-label='{escape(label)}' class='tex'"
    return Markup(head + _ID.sub(renamed, body[head_end:]).strip())


def equation_svg(tex: str, tex_dir: Path) -> str:
    """The SVG text of ``tex`` typeset by manim's TeX pipeline, cached in ``tex_dir``."""
    from manim import tempconfig
    from manim.utils.tex_file_writing import tex_to_svg_file

    with tempconfig({"tex_dir": str(tex_dir), "verbosity": "ERROR"}):
        return tex_to_svg_file(tex, environment=ENVIRONMENT).read_text()


def typeset(section: Section[Any], tex_dir: Path) -> list[Markup]:
    """``section``'s key equations as inline SVG."""
    return [
        inline_svg(equation_svg(tex, tex_dir), f"eq-{section.scene}-{k}", tex)
        for k, tex in enumerate(section.equations, start=1)
    ]
