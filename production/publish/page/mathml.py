r"""An equation's LaTeX as MathML, for a page that a screen reader reads (``latex2mathml``).

Chromium, Firefox and Safari draw MathML Core, and screen readers (NVDA,
JAWS, VoiceOver, Orca) speak it. Each ``<math>`` also carries the LaTeX as its
``alttext``. A name set upright letter by letter (``\mathrm{Attn}``) becomes
one identifier, so it is read as a word, not spelled.
"""

from __future__ import annotations

import re

from latex2mathml.converter import convert
from markupsafe import Markup, escape

__all__ = ["mathml"]

_UPRIGHT = re.compile(r'(?:<mi mathvariant="normal">[^<]</mi>){2,}')
_LETTER = re.compile(r'<mi mathvariant="normal">([^<])</mi>')
_SPACES = {
    "negativethinmathspace": "-0.1667em",
    "thinmathspace": "0.1667em",
    "mediummathspace": "0.2222em",
    "thickmathspace": "0.2778em",
}
_SPACE = re.compile(r'width="(' + "|".join(_SPACES) + r')"')


def _word(match: re.Match[str]) -> str:
    return f'<mi mathvariant="normal">{"".join(_LETTER.findall(match[0]))}</mi>'


MATHML = "http://www.w3.org/1998/Math/MathML"
_UNKNOWN = {re.compile(r"\\arg(?![A-Za-z])"): r"\operatorname{arg}"}
"""Operator names latex2mathml leaves as raw text, and how it reads them (as an operator name)."""


def _converted(tex: str, display: bool) -> str:
    for name, known in _UNKNOWN.items():
        tex = name.sub(known.replace("\\", "\\\\"), tex)  # a replacement template: its backslash escaped
    try:
        markup = convert(tex, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises many kinds, all meaning "cannot read this"
        raise ValueError(f"cannot write {tex!r} as MathML: {exc}") from None
    return _SPACE.sub(lambda m: f'width="{_SPACES[m[1]]}"', _UPRIGHT.sub(_word, markup))


def _inner(markup: str) -> str:
    return markup.split(">", 1)[1].rsplit("</math>", 1)[0]


def mathml(tex: str, display: bool = True) -> Markup:
    r"""``tex`` as one ``<math>`` element, its LaTeX as ``alttext``.

    >>> str(mathml(r"\mathrm{Attn}(q) = x", display=False))  # doctest: +ELLIPSIS
    '<math ... alttext="\\mathrm{Attn}(q) = x"><mrow><mrow><mi mathvariant="normal">Attn</mi></mrow>...'

    Lines of an ``align*`` body (``\\`` between them, ``&`` at the alignment
    points, as manim's ``MathTex`` takes them) become the rows of a table,
    which latex2mathml does not make of a bare body.

    >>> rows = str(mathml(r"J &= a \\ &= b"))
    >>> rows.count("<mtr>"), "<mi>&</mi>" in rows
    (2, False)

    An operator name it does not know is read as one (``\arg``):

    >>> "<mo>arg</mo>" in str(mathml(r"\arg\max_a x"))
    True

    Raises ``ValueError`` naming the equation when latex2mathml cannot read it.
    """
    rows = [r.replace("&", " ") for r in re.split(r"\\\\", tex) if r.strip()]
    if len(rows) > 1 or "&" in tex:
        cells = "".join(f"<mtr><mtd>{_inner(_converted(r, display))}</mtd></mtr>" for r in rows)
        head = f'<math xmlns="{MATHML}" display="{"block" if display else "inline"}"'
        markup = f'{head}><mtable columnalign="left">{cells}</mtable></math>'
    else:
        markup = _converted(tex, display)
    head, rest = markup.split(">", 1)
    return Markup(f'{head} alttext="{escape(tex)}">{rest}')
