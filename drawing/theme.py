"""The lecture's visual language: one colour per role, frame margins, font sizes, pacing.

Colours are the Okabe–Ito palette, which stays distinguishable for
colour-blind viewers, with one change: Okabe–Ito's blue #0072B2 has 3.49:1
against the background, too little for text, so scores take a lighter royal
blue (4.85:1). Every colour here reads as text on the background (4.5:1), and
every pair of roles stays apart under simulated deuteranopia and protanopia
(tests/drawing/test_colours.py). Every scene imports from here; change a
role's look in this one place.
"""

from __future__ import annotations

__all__ = [
    "BACKGROUND",
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
    "HEADS",
    "FONT",
    "TITLE_SIZE",
    "BODY_SIZE",
    "LABEL_SIZE",
    "SMALL_SIZE",
    "MATH_SIZE",
    "READOUT_SIZE",
    "FRAME_WIDTH",
    "FRAME_HEIGHT",
    "MARGIN",
    "CAPTION_BAND",
    "SAFE_LEFT",
    "SAFE_RIGHT",
    "SAFE_TOP",
    "SAFE_BOTTOM",
    "TITLE_CARD_SECONDS",
    "REGIME_PAUSE",
    "TEX_COLORS",
]

BACKGROUND = "#14161B"
TEXT = "#E6E6E6"
MUTED = "#A0A6AE"

# One colour per role, across every scene (docs/visual.md).
QUERY = "#E69F00"  # orange: the query q
KEY = "#56B4E9"  # sky blue: keys k_i
VALUE = "#009E73"  # bluish green: values v_i
WEIGHT = "#F0E442"  # yellow: attention weights a_i
TEMPERATURE = "#CC79A7"  # reddish purple: temperature / bandwidth
SCORE = "#4D7CFE"  # royal blue: scores s_i (Okabe–Ito's #0072B2 is too dark for text)
WARNING = "#D55E00"  # vermillion: masked entries, "cannot"
PRIOR = "#BBBBBB"  # light grey: a position prior r_i (not a role of its own)
HEADS = ("#5EE4ED", "#E830AB", "#CCE699", "#F28C9A")
"""One colour per head (cyan, magenta, lime, salmon), for a head's name, its map's frame and its slice of the
concatenation: parallel things, not roles. Each stays apart from the others and from the roles that share
their screen (query, key, value, weight, warning), for colour-blind viewers too
(tests/drawing/test_colours.py); the weights inside a head's map keep the weight colour, and every head
is also named (H1 ... H4)."""

FONT = "DejaVu Sans"
# Sizes for the 640-pixel player (docs/visual.md): nothing below SMALL_SIZE (tick
# numbers, units); names, labels and body text at LABEL_SIZE or more.
TITLE_SIZE = 48
BODY_SIZE = 36
LABEL_SIZE = 36
SMALL_SIZE = 30
# TeX glyphs render smaller than Pango text at the same font_size.
MATH_SIZE = 40
READOUT_SIZE = 36

# Manim's frame is 14.22 x 8 units; keep 0.5 units clear on every side and the
# lowest 0.8 units free for the player's captions.
FRAME_WIDTH = 14.0 + 2.0 / 9.0
FRAME_HEIGHT = 8.0
MARGIN = 0.5
CAPTION_BAND = 0.8
SAFE_LEFT = -FRAME_WIDTH / 2 + MARGIN
SAFE_RIGHT = FRAME_WIDTH / 2 - MARGIN
SAFE_TOP = FRAME_HEIGHT / 2 - MARGIN
SAFE_BOTTOM = -FRAME_HEIGHT / 2 + CAPTION_BAND

TITLE_CARD_SECONDS = 2.0
REGIME_PAUSE = 1.2

# Symbols coloured by role inside MathTex (tex_to_color_map). Only symbols that
# cannot occur inside a longer TeX command: colouring "q" would split "\\sqrt".
TEX_COLORS = {
    r"\tau": TEMPERATURE,
    r"\sigma": TEMPERATURE,
}
