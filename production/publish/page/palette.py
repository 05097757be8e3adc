"""The pages' colours: the videos' role colours, the panels text sits on, and text that reads on each.

The page, notes and transcript set these as CSS custom properties
(``--query``, ``--panel-figure``, ``--warning-text``...). A role colour keeps
its hue on shapes (bars, curves, outlines), where WCAG 2.2 asks 3:1 (1.4.11).
Words need 4.5:1 (1.4.3), and some role colours miss that on the lighter
panels: the warning vermillion is 4.31:1 on the figure panel. So each role has
a text variant, the role colour mixed toward the text colour only as far as
it takes to reach 4.5:1 on every panel; the stylesheets colour words with the
variants and only with them (``tests/production/test_palette.py`` reads them).
"""

from __future__ import annotations

from drawing import theme

__all__ = ["PANELS", "ROLES", "TEXT_CONTRAST", "contrast", "page_colours", "text_variant"]

ROLES = ("BACKGROUND", "TEXT", "MUTED", "QUERY", "KEY", "VALUE", "WEIGHT", "TEMPERATURE", "SCORE", "WARNING")
"""The videos' colour roles the pages use (:mod:`drawing.theme`)."""

PANELS: dict[str, str] = {
    "background": theme.BACKGROUND,  # the page itself
    "panel-figure": "#1b1e25",  # an Explore figure
    "panel-card": "#1e2128",  # the player's question card
    "panel-control": "#22252c",  # buttons, inputs, a word's box, a head's small map
    "panel-raised": "#2a2e37",  # the switch and answer buttons
    "panel-query": "#3a2f17",  # the query word's box
    "panel-band": "#262a32",  # the band of predictions the eviction plot's means leave out
    "panel-tint": "#1d1f24",  # a question's box, the notes' equations: white at 4% over the page
}
"""Every surface a word may sit on, by its custom property's name (without ``--``)."""

TEXT_CONTRAST = 4.5
"""WCAG 2.2 success criterion 1.4.3 (AA): normal-size text against its background."""


def _channel(c: int) -> float:
    s = c / 255
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


def _rgb(hex_colour: str) -> list[int]:
    """``#rrggbb`` as its three 8-bit channels."""
    return [int(hex_colour.lstrip("#")[i : i + 2], 16) for i in (0, 2, 4)]


def _luminance(hex_colour: str) -> float:
    r, g, b = _rgb(hex_colour)
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG 2.2's contrast ratio of two ``#rrggbb`` colours, lighter over darker: 1 to 21."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _mix(a: str, b: str, t: float) -> str:
    """``a`` moved a fraction ``t`` of the way to ``b``, channel by channel in sRGB."""
    return "#" + "".join(f"{round(x + (y - x) * t):02X}" for x, y in zip(_rgb(a), _rgb(b), strict=True))


def text_variant(hex_colour: str) -> str:
    """``hex_colour`` itself if words in it reach :data:`TEXT_CONTRAST` on every panel.

    Otherwise the least mix of it toward :data:`drawing.theme.TEXT` that does, in steps of 1%.
    """
    for step in range(101):
        mixed = _mix(hex_colour, theme.TEXT, step / 100)
        if all(contrast(mixed, panel) >= TEXT_CONTRAST for panel in PANELS.values()):
            return mixed
    raise ValueError(f"bug: not even the text colour reads on every panel ({theme.TEXT})")


def page_colours() -> dict[str, str]:
    """Every custom property the pages set: each role, its text variant, and each panel."""
    roles = {name.lower(): getattr(theme, name) for name in ROLES}
    texts = {f"{name}-text": text_variant(c) for name, c in roles.items() if name != "background"}
    return {**roles, **texts, **PANELS}
