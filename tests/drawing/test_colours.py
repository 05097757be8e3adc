"""The theme's colours read on the background, and stay apart for colour-blind viewers.

Everything is computed here from the published formulas, independent of the project's code:

- Contrast: WCAG 2.2's relative luminance and contrast ratio
  (https://www.w3.org/TR/WCAG22/#dfn-relative-luminance, #dfn-contrast-ratio). Text needs 4.5:1
  (1.4.3; at the 640-pixel player almost no text is "large"), graphics 3:1 (1.4.11).
- Colour-vision deficiency: G. M. Machado, M. M. Oliveira and L. A. F. Fernandes, "A Physiologically-based
  Model for Simulation of Color Vision Deficiency", IEEE Transactions on Visualization and Computer Graphics
  15(6):1291-1298, 2009 (doi:10.1109/TVCG.2009.113): their matrices for severity 1.0, applied to linear RGB.
- Colour difference: CIEDE2000 on CIELAB (D65), as written out in G. Sharma, W. Wu and E. N. Dalal, "The
  CIEDE2000 color-difference formula: implementation notes, supplementary test data, and mathematical
  observations", Color Research & Application 30(1):21-30, 2005; checked below on their test pairs.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import numpy as np
import pytest

from drawing import theme

REPO = Path(__file__).resolve().parents[2]

TEXT_COLOURS = (
    "TEXT",
    "MUTED",
    "QUERY",
    "KEY",
    "VALUE",
    "WEIGHT",
    "TEMPERATURE",
    "SCORE",
    "WARNING",
    "PRIOR",
)
"""Every theme colour a scene or the page writes text in (labels and terms take their role's colour)."""
GRAPHIC_COLOURS = TEXT_COLOURS
"""Every theme colour that draws bars, curves, dots and outlines."""
ROLES = ("QUERY", "KEY", "VALUE", "WEIGHT", "TEMPERATURE", "SCORE", "WARNING", "PRIOR")
"""The roles that share a screen; each must stay apart from every other (PRIOR's grey sits beside SCORE and
WEIGHT in the kernel-variants scene)."""

TEXT_CONTRAST = 4.5
GRAPHIC_CONTRAST = 3.0
MIN_DELTA_E = 10.0
"""Least CIEDE2000 difference between two roles, for normal vision and each simulated deficiency. The
Okabe-Ito palette's own closest pair (orange QUERY against yellow WEIGHT under deuteranopia) measures 11.6."""

# Machado, Oliveira & Fernandes (2009), Table 1, severity 1.0: linear RGB in, linear RGB out.
MACHADO = {
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, -0.691367, 1.684634]]
    ),
}
VISIONS = {"normal": np.eye(3), **MACHADO}


def srgb(hex_colour: str) -> np.ndarray:
    """'#RRGGBB' as sRGB in [0, 1]."""
    assert re.fullmatch(r"#[0-9A-Fa-f]{6}", hex_colour), hex_colour
    return np.array([int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])


def linear(c: np.ndarray) -> np.ndarray:
    """sRGB's transfer function undone (WCAG 2.2 writes 0.04045, as IEC 61966-2-1 does)."""
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def encoded(c: np.ndarray) -> np.ndarray:
    """Linear RGB back to sRGB, clipped to the gamut."""
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance."""
    r, g, b = linear(srgb(hex_colour))
    return float(0.2126 * r + 0.7152 * g + 0.0722 * b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio (L1 + 0.05) / (L2 + 0.05), L1 the lighter."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def lab(rgb: np.ndarray) -> tuple[float, float, float]:
    """sRGB in [0, 1] as CIELAB under D65."""
    to_xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    x, y, z = (to_xyz @ linear(rgb)) / np.array([0.95047, 1.0, 1.08883])

    def f(t: float) -> float:
        return float(np.cbrt(t)) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1), following Sharma, Wu & Dalal (2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    d_l, d_c = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        d_h = 0.0
    else:
        d_h = h2p - h1p
        d_h -= 360 if d_h > 180 else (-360 if d_h < -180 else 0)
    d_hh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(d_h / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_hh / s_h) ** 2 + r_t * (d_c / s_c) * (d_hh / s_h)
    )


def seen(hex_colour: str, vision: str) -> tuple[float, float, float]:
    """The colour as a viewer with ``vision`` sees it, in CIELAB."""
    return lab(encoded(VISIONS[vision] @ linear(srgb(hex_colour))))


# --- the formulas themselves ---------------------------------------------------------------------------


def test_contrast_formula_on_known_values():
    assert contrast("#FFFFFF", "#000000") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # the classic just-failing grey
    assert contrast("#0072B2", "#14161B") == pytest.approx(3.49, abs=0.01)  # Okabe-Ito's blue, as reported


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # Sharma, Wu & Dalal (2005), Table 1: pairs 1, 7, 17, 25 and 34
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
    ],
)
def test_ciede2000_on_published_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_simulation_leaves_greys_grey_and_merges_red_and_green_for_deuteranopes():
    for vision in MACHADO:
        assert np.allclose(seen("#808080", vision), seen("#808080", "normal"), atol=0.5)
    red_green = ciede2000(seen("#D81B1B", "deuteranopia"), seen("#5A8A00", "deuteranopia"))
    assert red_green < ciede2000(seen("#D81B1B", "normal"), seen("#5A8A00", "normal")) / 3


# --- the theme ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", TEXT_COLOURS)
def test_text_colours_read_on_the_background(name):
    ratio = contrast(getattr(theme, name), theme.BACKGROUND)
    assert ratio >= TEXT_CONTRAST, f"{name} {getattr(theme, name)}: {ratio:.2f}:1 on {theme.BACKGROUND}"


@pytest.mark.parametrize("name", GRAPHIC_COLOURS)
def test_graphic_colours_stand_out_from_the_background(name):
    ratio = contrast(getattr(theme, name), theme.BACKGROUND)
    assert ratio >= GRAPHIC_CONTRAST, f"{name} {getattr(theme, name)}: {ratio:.2f}:1 on {theme.BACKGROUND}"


@pytest.mark.parametrize("vision", VISIONS)
def test_every_pair_of_roles_stays_apart(vision):
    pairs = {
        (a, b): ciede2000(seen(getattr(theme, a), vision), seen(getattr(theme, b), vision))
        for a, b in itertools.combinations(ROLES, 2)
    }
    close = {f"{a}/{b}": round(d, 1) for (a, b), d in pairs.items() if d < MIN_DELTA_E}
    (a, b), least = min(pairs.items(), key=lambda kv: kv[1])
    print(f"{vision}: closest roles {a}/{b}, CIEDE2000 {least:.1f}")
    assert not close, f"{vision}: roles closer than CIEDE2000 {MIN_DELTA_E}: {close}"


HEAD_NEIGHBOURS = ("QUERY", "KEY", "VALUE", "WEIGHT", "WARNING")
"""The roles on screen beside the heads' colours in the multi-head scene: its columns' headers, the weights
inside each map, the values the heads' outputs are, the note on the measured model."""


@pytest.mark.parametrize("head", range(len(theme.HEADS)))
def test_each_head_colour_reads_as_text(head):
    ratio = contrast(theme.HEADS[head], theme.BACKGROUND)
    assert ratio >= TEXT_CONTRAST, f"head {head + 1} {theme.HEADS[head]}: {ratio:.2f}:1"


@pytest.mark.parametrize("vision", VISIONS)
def test_the_heads_stay_apart_from_each_other_and_from_the_roles_beside_them(vision):
    heads = {f"H{k + 1}": colour for k, colour in enumerate(theme.HEADS)}
    pairs = [(a, b, heads[a], heads[b]) for a, b in itertools.combinations(heads, 2)]
    pairs += [(h, role, heads[h], getattr(theme, role)) for h in heads for role in HEAD_NEIGHBOURS]
    close = {
        f"{a}/{b}": round(d, 1)
        for a, b, x, y in pairs
        if (d := ciede2000(seen(x, vision), seen(y, vision))) < MIN_DELTA_E
    }
    assert not close, f"{vision}: closer than CIEDE2000 {MIN_DELTA_E}: {close}"


def test_the_role_colours_are_distinct_hex():
    colours = [getattr(theme, name).upper() for name in ("BACKGROUND", *TEXT_COLOURS)]
    colours += [colour.upper() for colour in theme.HEADS]
    assert len(set(colours)) == len(colours)


# --- the page takes its colours from the theme -----------------------------------------------------------

PAGE = REPO / "production" / "publish" / "page"
HEX = re.compile(r"#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})\b")


def page_sources() -> list[Path]:
    return sorted(p for p in PAGE.rglob("*") if p.suffix in {".css", ".js", ".j2", ".py"})


def test_the_page_never_hard_codes_a_theme_colour():
    """The page names theme colours as var(--role) (the template writes them from drawing.theme)."""
    theme_hex = {
        getattr(theme, name).upper(): name for name in ("BACKGROUND", *TEXT_COLOURS) if name != "PRIOR"
    }
    found = [
        f"{p.relative_to(REPO)}: {m} is theme.{theme_hex[m.upper()]}"
        for p in page_sources()
        for m in HEX.findall(p.read_text())
        if m.upper() in theme_hex
    ]
    assert not found, found


def test_every_colour_variable_the_css_uses_is_defined():
    from production.publish.page.palette import page_colours

    defined = set(page_colours())
    css = [p for p in page_sources() if p.suffix == ".css"]
    local = {m for p in page_sources() for m in re.findall(r"--([a-z][a-z0-9-]*)\s*:", p.read_text())}
    local |= {
        m for p in page_sources() for m in re.findall(r"""["']--([a-z][a-z0-9-]*)["']""", p.read_text())
    }
    used = {(p.name, v) for p in css for v in re.findall(r"var\(--([a-z][a-z0-9-]*)", p.read_text())}
    missing = sorted((f, v) for f, v in used if v not in defined | local)
    assert not missing, missing
    assert {r.lower() for r in ("BACKGROUND", "TEXT", "MUTED")} <= defined
