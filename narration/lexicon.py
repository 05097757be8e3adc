"""Respellings that make the neural draft voice say the lecture's own words right.

Piper's phonemiser is espeak-ng. It reads most of the lecture as it should
(softmax, argmax, tau, sigma, T5, KV cache, square root of d k, e to the H),
but it spells out or mangles a few words. Each entry here is the written form,
how it is respelled for the voice, and why; ``tests/narration/test_lexicon.py``
checks the phonemes piper actually produces for both, so a respelling that no
longer helps, or a word that starts being mangled, fails a test.

The respellings apply to the neural voice only: festival has its own
front end and reads these words acceptably.
"""

from __future__ import annotations

import re

__all__ = ["RESPELLINGS", "respell"]

RESPELLINGS: tuple[tuple[str, str, str], ...] = (
    (r"\bk eff\b", "k effective", "espeak spells 'eff' as the letters E, F, F"),
    (r"\blogsumexp\b", "log sum exp", "read as one word, 'logsoomexp'"),
    (r"\bALiBi\b", "alibi", "read as 'a lie buy'; the method is said like the word alibi"),
    (r"\bNadaraya\b", "Nah da rah ya", "stressed on the first syllable, NAD-a-ray-a"),
    (r"\bELU\b|\belu\b", "E L U", "read as 'ih-loo'"),
    (r"\ba(?= i\b)", "eigh", "the variable a before its index i is read as the article 'uh'"),
    (r"(?<=\d)x\b", " times", "a speed-up such as 4.4x is read 'four point four ex'"),
)
"""(pattern, respelling, why) in the order they apply."""

_COMPILED = tuple((re.compile(p), s) for p, s, _ in RESPELLINGS)


def respell(text: str) -> str:
    """``text`` with the lexicon's respellings applied (after :func:`narration.voice.speakable`).

    >>> respell("Nadaraya Watson, k eff, ALiBi, 4.4x faster, and a i over tau")
    'Nah da rah ya Watson, k effective, alibi, 4.4 times faster, and eigh i over tau'
    """
    for pattern, spelling in _COMPILED:
        text = pattern.sub(spelling, text)
    return text
