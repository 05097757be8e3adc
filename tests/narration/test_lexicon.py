"""Pronunciation: the phonemes piper produces for the lecture's own words, before and after respelling.

Piper's phonemiser (espeak-ng, bundled in its wheel) is run in a separate
process, as the voice itself is; the IPA strings below are its output as read
and checked by ear-free inspection: stress marks and vowels as espeak-ng writes
them for en-us.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache

import pytest

from narration.lexicon import RESPELLINGS, respell
from narration.speakable import speakable
from narration.written import WRITTEN
from tests.scenes.script_text import script

# the script is read off the scene runs: these tests run on their xdist worker (tests/scenes/script_text.py)
pytestmark = pytest.mark.xdist_group("scene-runs")

_PHONEMIZE = """
import json, sys, unicodedata
from piper.phonemize_espeak import EspeakPhonemizer
p = EspeakPhonemizer()
texts = json.load(sys.stdin)
out = [" ".join("".join(s) for s in p.phonemize("en-us", t)) for t in texts]
print(json.dumps([unicodedata.normalize("NFC", o) for o in out]))
"""


@cache
def _phonemes(texts: tuple[str, ...]) -> tuple[str, ...]:
    done = subprocess.run(
        [sys.executable, "-c", _PHONEMIZE],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=True,
    )
    return tuple(json.loads(done.stdout))


def phonemes(*texts: str) -> list[str]:
    return list(_phonemes(tuple(texts)))


def voiced(written: str) -> str:
    """What the neural voice is given for ``written``."""
    return respell(speakable(written))


# (as written in the narration, phonemes without the lexicon, phonemes the voice now says)
RESPELLED = [
    ("k eff", "kˈeɪ ˌiːʲˌɛfˈɛf", "kˈeɪ ɪfˈɛktɪv"),
    ("logsumexp", "lˈɔɡsuːmˌɛksp", "lˈɔɡ sˈʌm ˈɛksp"),
    ("ALiBi", "ɐ lˈaɪ bˈaɪ", "ˈælᵻbˌaɪ"),
    ("Nadaraya–Watson", "nˈædɐɹˌeɪə wˈɑːtsən", "nˈɑː dˈɑː ɹˈɑː jɐ wˈɑːtsən"),
    ("ELU", "ᵻlˈuː", "ˈiːʲ ˈɛl jˈuː"),
    ("a_i", "ɐ ˈaɪ", "ˈeɪ ˈaɪ"),
    ("4.4x", "fˈɔːɹ pɔɪnt fˈɔːɹ ˈɛks", "fˈɔːɹ pɔɪnt fˈɔːɹ tˈaɪmz"),
]

# words the voice already says right: held, so that a change of engine or rules that mangles one fails
RIGHT = {
    "softmax": "sˈɔftmæks",
    "argmax": "ˈɑːɹɡmæks",
    "τ": "tˈaʊ",
    "σ": "sˈɪɡmə",
    "φ": "fˈaɪ",
    "λ": "lˈæmdə",
    "T5": "tˈiː fˈaɪv",
    "KV cache": "kˌeɪvˈiː kˈæʃ",
    "KL": "kˌeɪˈɛl",
    "k_eff": "kˈeɪ ɪfˈɛktɪv",
    "e^{H}": "ˈiː tə ðɪʲ ˈeɪtʃ",
    "√d_k": "skwˈɛɹ ɹˈuːt ʌv dˈiː kˈeɪ",
    "W_Q": "dˈʌbəljˌuː kjˈuː",
    "N^2": "ˈɛn skwˈɛɹd",
    "O(N)": "ˈoʊ ʌv ˈɛn",
    "s_i/τ": "ˈɛs ˈaɪ ˌoʊvɚ tˈaʊ",
    "H1": "ˈeɪtʃ wˈʌn",
    "entropy": "ˈɛntɹəpi",
    "Lagrangian": "læɡɹˈæŋɡiən",
    "autoregressive": "ˌɔːɾoʊɹᵻɡɹˈɛsɪv",
}


@pytest.mark.parametrize(("written", "before", "after"), RESPELLED, ids=[r[0] for r in RESPELLED])
def test_each_respelling_is_needed_and_fixes_the_word(written: str, before: str, after: str) -> None:
    got_before, got_after = phonemes(speakable(written), voiced(written))
    assert got_before == before, f"{written!r} without the lexicon now reads {got_before}"
    assert got_after == after, f"{written!r} now reads {got_after}"


def test_every_lexicon_entry_is_tested() -> None:
    tested = " ".join(speakable(w) for w, _, _ in RESPELLED)
    for pattern, _spelling, why in RESPELLINGS:
        assert re.search(pattern, tested), f"no test for the respelling {pattern!r} ({why})"


def test_the_lectures_words_and_symbols_read_right() -> None:
    assert phonemes(*(voiced(w) for w in RIGHT)) == list(RIGHT.values())


ACRONYM = re.compile(r"\b(?:[A-Za-z]*[A-Z][A-Za-z]*[A-Z][A-Za-z]*|[A-Z]\d+)\b")
"""A word with two capitals or a capital and digits: espeak may spell it out, so each one is reviewed."""

REVIEWED = {"KV", "T5", "KL", "ALiBi", "H1", "H2", "H3", "H4", "ELU", "TV"}


def said(beat) -> list[str]:
    """What the voice speaks for ``beat``: its narration, and its audio description if it has one."""
    return [beat.text, beat.description.text] if beat.description.needed else [beat.text]


def test_every_acronym_the_narration_speaks_has_been_reviewed() -> None:
    spoken = {w for beats in script().values() for b in beats for t in said(b) for w in ACRONYM.findall(t)}
    assert spoken <= REVIEWED, f"add to the lexicon tests, then to REVIEWED: {sorted(spoken - REVIEWED)}"


def test_every_symbol_the_narration_writes_becomes_a_word() -> None:
    for beats in script().values():
        for beat in beats:
            for text in map(voiced, said(beat)):
                assert text.isascii() and not re.search(r"[\\^_{}=<>|]", text), (beat.id, text)


def test_captions_write_the_names_the_voice_spells_out():
    """The voice says "C L S"; the captions show [CLS], as the screen does (narration/written.py)."""
    found = set()
    for beats in script().values():
        for beat in beats:
            shown = " ".join(" ".join(c.text.split()) for c in beat.cues)
            for spoken, form in WRITTEN:
                if re.search(rf"(?<![\w\[]){re.escape(spoken)}(?![\w\]])", beat.text):
                    assert form in shown and spoken not in shown.replace(form, ""), (beat.id, shown)
                    found.add(form)
    assert {"[CLS]", "KL", "W_O", "MiniLM", "SmolLM2", "StreamingLLM"} <= found
