"""Written forms for the reader: captions and the transcript show what the screen shows.

The narration spells some names as the voice must say them ("C L S", "K L",
"W O"), letter by letter. A reader should see the written form the picture
uses ([CLS], KL, W_O), so the caption cues and the transcript take their text
through :func:`written`; the voice keeps the spoken form. Each entry is a
spoken form and its written form.
"""

from __future__ import annotations

import re

__all__ = ["WRITTEN", "written"]

WRITTEN: tuple[tuple[str, str], ...] = (
    ("Streaming L L M", "StreamingLLM"),
    ("Smol L M 2", "SmolLM2"),
    ("Mini L M", "MiniLM"),
    ("C L S", "[CLS]"),
    ("S E P", "[SEP]"),
    ("K L", "KL"),
    ("W O", "W_O"),
    ("W Q", "W_Q"),
    ("W K", "W_K"),
    ("W V", "W_V"),
    ("T V", "TV"),
    ("E L U", "ELU"),
)
"""(spoken form, written form); a longer spoken form comes before any it contains."""

_PATTERN = re.compile(r"(?<![\w\[])(" + "|".join(re.escape(s) for s, _ in WRITTEN) + r")(?![\w\]])")
_FORMS = dict(WRITTEN)


def written(text: str) -> str:
    """``text`` with each spelled-out name in its written form.

    >>> written("On C L S, a K L penalty; W O mixes; Smol L M 2 and Mini L M.")
    'On [CLS], a KL penalty; W_O mixes; SmolLM2 and MiniLM.'
    >>> written("K Lines and a K L2")  # only whole spoken forms
    'K Lines and a K L2'
    """
    return _PATTERN.sub(lambda m: _FORMS[m.group(1)], text)
