"""Every word on the pages reaches 4.5:1 on every panel it may sit on (WCAG 2.2, 1.4.3).

The stylesheets are read as text: each declaration that colours words (``color``,
and ``fill`` on SVG text) is resolved through the custom properties the pages set
(:func:`production.publish.page.palette.page_colours`), and its contrast is
computed with the test's own WCAG formula (``tests/drawing/test_colours.py``)
against every panel. Every background the stylesheets draw must be one of those
panels, so a new surface cannot escape the check.
"""

from __future__ import annotations

import colorsys
import re
from pathlib import Path

import pytest

from production.publish.page.palette import PANELS, page_colours, text_variant
from tests.drawing.test_colours import contrast

ASSETS = Path(__file__).resolve().parents[2] / "production" / "publish" / "page" / "assets"
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
DECLARATION = re.compile(r"(?<![-\w])([a-z-]+)\s*:\s*([^;]+)")


def split_print(text: str) -> tuple[str, str]:
    """(the stylesheet on screen, its ``@media print`` blocks: dark ink on white paper)."""
    screen, paper = text, ""
    while (start := screen.find("@media print")) >= 0:
        opening, depth, end = screen.index("{", start), 0, len(screen)
        for end in range(opening, len(screen)):  # the block ends at its matching brace
            depth += {"{": 1, "}": -1}.get(screen[end], 0)
            if depth == 0:
                break
        paper += screen[opening + 1 : end]
        screen = screen[:start] + screen[end + 1 :]
    return screen, paper


def declarations(medium: str = "screen") -> list[tuple[str, str, str, str]]:
    """(file, selector, property, value) for each declaration in the pages' stylesheets, screen or paper."""
    found = []
    for path in sorted(ASSETS.rglob("*.css")):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        screen, paper = split_print(text)
        for selector, body in RULE.findall(screen if medium == "screen" else paper):
            selector = selector.split("{")[-1].strip()  # a rule inside @media keeps its own selector
            found += [(path.name, selector, p, v.strip()) for p, v in DECLARATION.findall(body)]
    return found


def resolve(value: str) -> str | None:
    """A ``var(--name)``, ``#rgb`` or ``#rrggbb`` value as ``#rrggbb``; None for anything else."""
    if m := re.fullmatch(r"var\(--([a-z0-9-]+)\)", value):
        return page_colours()[m.group(1)]
    if re.fullmatch(r"#[0-9a-fA-F]{3}", value):
        return "#" + "".join(c * 2 for c in value[1:])
    return value if re.fullmatch(r"#[0-9a-fA-F]{6}", value) else None


def colours_words(selector: str, prop: str) -> bool:
    return prop == "color" or (prop == "fill" and re.search(r"\btext\b", selector) is not None)


WORDS = [d for d in declarations() if colours_words(d[1], d[2])]
PRINTED = [d for d in declarations("print") if colours_words(d[1], d[2])]
MEDIA = re.compile(r"\b(video|img)\b")  # pictures, not surfaces for words: letterboxed in black


def test_the_stylesheets_colour_words_somewhere():
    assert len(WORDS) > 30  # the parse found the pages' text rules (a regex that matched nothing would pass)
    assert any(v == "var(--warning-text)" for *_, v in WORDS)  # the Explore figure's "masked" label


@pytest.mark.parametrize("where,selector,prop,value", WORDS, ids=[f"{d[0]}:{d[1]}" for d in WORDS])
def test_every_word_reads_on_every_panel(where, selector, prop, value):
    colour = resolve(value)
    assert colour is not None, f"{where}: {selector} {{ {prop}: {value} }} is not a page colour"
    low = {name: round(contrast(colour, panel), 2) for name, panel in PANELS.items()}
    assert min(low.values()) >= 4.5, f"{where}: {selector} {{ {prop}: {value} }} = {colour}: {low}"


def test_printed_words_read_on_white_paper():
    assert PRINTED  # the notes and the transcript print dark on white
    for where, selector, prop, value in PRINTED:
        colour = resolve(value)
        assert colour is not None and contrast(colour, "#FFFFFF") >= 4.5, (where, selector, prop, value)


def test_every_background_is_a_declared_panel():
    drawn = [
        d for d in declarations() if d[2] in {"background", "background-color"} and not MEDIA.search(d[1])
    ]
    assert len(drawn) > 10
    stray = [d for d in drawn if resolve(d[3].split()[0]) not in PANELS.values()]
    assert not stray, stray


def test_the_warning_colour_itself_would_fail_on_the_figure_panel_and_its_text_variant_does_not():
    """The case the check was written for: vermillion words on the figure panel are 4.31:1."""
    warning, figure = page_colours()["warning"], PANELS["panel-figure"]
    assert contrast(warning, figure) == pytest.approx(4.31, abs=0.01)
    variant = text_variant(warning)
    assert contrast(variant, figure) >= 4.5
    rgb = [[int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)] for c in (variant, warning)]
    hue = [colorsys.rgb_to_hsv(*channels)[0] for channels in rgb]
    assert variant != warning and abs(hue[0] - hue[1]) * 360 < 5  # a lighter vermillion, not another hue


def test_a_colour_that_already_reads_is_its_own_text_variant():
    text = page_colours()["text"]
    assert text_variant(text) == text
