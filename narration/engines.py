"""The draft voice's speech engines: each a :class:`SpeechEngine` with its name, its key and how it speaks.

A beat without a recording is spoken by the engine of the voice asked for
(:class:`lecture.settings.Voice`): piper's neural voice for ``draft``,
festival's for ``festival``. An engine's :meth:`~SpeechEngine.key` names what
decides its audio for a text (engine, voice, settings, version, the text
rules), so the cache (:func:`narration.voice.synthesise`) re-synthesises when
any of them changes; its :attr:`~SpeechEngine.label` is what the manifest names.

Two engines
-----------
The default draft voice is Piper's neural ``en_US-joe-medium``
(:mod:`narration.piper`), which sounds like a person reading. Piper's
phonemiser is espeak-ng, so its text also goes through
:mod:`narration.lexicon`'s respellings. Festival with the HTS voice
``cmu_us_slt_arctic_hts`` stays available (``--voice festival``): of Debian's
offline engines before piper it sounded the most natural (a statistical
parametric voice at 32 kHz behind festival's full English front end, where
``flite`` has a lighter front end and a 16 kHz voice and ``espeak-ng`` is a
formant synthesiser). Its phrasing puts real pauses at commas and between
sentences, which gives listeners room and the caption aligner
(:func:`narration.recordings.speech_onsets`) clean gaps. Its rate is the HTS
engine's speed factor ``-r``: at 0.9 it speaks lecture sentences at about 151
words a minute. Starting festival costs about 0.4 s, so it is started once
per process and kept running (:mod:`narration.festival`, the same bytes as
``text2wave``).

Both engines are deterministic (the same text gives byte-identical audio on
every run), and the voice cache (:func:`narration.voice.synthesise`) pays for
each text once: each engine's name, voice, settings and version are part of
its :meth:`~SpeechEngine.key`.
"""

from __future__ import annotations

import shutil
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path

import numpy as np

from lecture.settings import Voice
from narration import festival, lexicon, piper
from narration.recordings import read_samples
from narration.speakable import RULES

__all__ = [
    "SpeechEngine",
    "PiperEngine",
    "FestivalEngine",
    "PIPER_ENGINE",
    "FESTIVAL_ENGINE",
    "engine_for",
    "VoiceError",
    "INSTALL",
    "FESTIVAL_SETUP",
    "PIPER",
    "LEAD",
    "TAIL",
]

INSTALL = "apt-get install --no-install-recommends festival festvox-us-slt-hts"
"""The Debian command that installs festival's voice."""

RATE = 0.9
"""HTS engine speed factor (``-r``): 1 is the voice's own pace (167 words a minute), 0.9 gives 151."""

LEAD, TAIL = 0.025, 0.05
"""Silence, in seconds, kept before the first and after the last speech in a synthesised file."""

_VOICE = "cmu_us_slt_arctic_hts"
# festival's voice and speaking rate, set up once per festival process
FESTIVAL_SETUP = (
    f'(begin (voice_{_VOICE}) (set! hts_engine_params (append hts_engine_params \'(("-r" {RATE})))))'
)

PIPER = piper.PiperSettings()
"""Pace, noise and sentence pauses of the neural voice."""

_LEXICON = 1  # bump when lexicon.RESPELLINGS changes what is said


class VoiceError(RuntimeError):
    """The speech engine is missing or failed."""


class SpeechEngine(ABC):
    """A speech engine of the draft voice, kept running once per process."""

    name: str
    """The engine's name, as ``--voice`` and the lecture file know it for its voice."""

    @abstractmethod
    def key(self) -> str:
        """What decides the engine's audio for a text; part of every cache key."""

    @property
    @abstractmethod
    def label(self) -> str:
        """What the manifest names as the engine and voice of a draft beat."""

    @abstractmethod
    def speak(self, spoken: str, folder: Path) -> tuple[int, np.ndarray]:
        """Speak ``spoken`` (already :func:`~narration.speakable.speakable`); rate and mono samples.

        Scratch files go in a private folder inside ``folder``.
        """

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class PiperEngine(SpeechEngine):
    """Piper's neural ``en_US-joe-medium`` (:mod:`narration.piper`), its text respelled first."""

    name = "piper"

    def key(self) -> str:
        """Voice digests, piper's version and settings, the trim and the text rules.

        >>> PIPER_ENGINE.key().startswith("piper en_US-joe-medium md5=")
        True
        """
        digests = ",".join(piper.VOICE_MD5.values())
        try:
            version = piper.engine_version()
        except piper.PiperError as error:
            raise VoiceError(str(error)) from None
        return (
            f"piper {piper.VOICE} md5={digests}/{version}/{PIPER}"
            f"/trim={LEAD},{TAIL}/speakable-v{RULES}/lexicon-v{_LEXICON}"
        )

    @property
    def label(self) -> str:
        """``piper en_US-joe-medium``."""
        return f"piper {piper.VOICE}"

    def speak(self, spoken: str, folder: Path) -> tuple[int, np.ndarray]:
        """Speak ``spoken``, respelled, with this process's piper."""
        respelled = lexicon.respell(spoken)

        def run(stem: Path) -> None:
            try:
                piper.speak(respelled, stem / "speech.wav", PIPER)
            except piper.PiperError as error:
                raise VoiceError(f"the neural voice failed: {error}") from None

        return _spoken_samples(folder, run)


class FestivalEngine(SpeechEngine):
    """Festival with the HTS voice (:mod:`narration.festival`), started once per process."""

    name = "festival"

    def key(self) -> str:
        """The voice, rate, trim and text rules (the same bytes as ``text2wave`` gives)."""
        return f"festival text2wave/{_VOICE}/r={RATE}/trim={LEAD},{TAIL}/speakable-v{RULES}"

    @property
    def label(self) -> str:
        """``festival cmu_us_slt_arctic_hts``."""
        return f"festival {_VOICE}"

    def speak(self, spoken: str, folder: Path) -> tuple[int, np.ndarray]:
        """Speak ``spoken`` with this process's festival."""
        if shutil.which("festival") is None:
            raise VoiceError(f"festival is not installed: run {INSTALL}")

        def run(stem: Path) -> None:
            (stem / "text.txt").write_text(spoken)
            try:
                festival.speak(FESTIVAL_SETUP, stem / "text.txt", stem / "speech.wav")
            except festival.FestivalError as error:
                message = f"festival failed ({error}); is the voice installed? run {INSTALL}"
                raise VoiceError(message) from None

        return _spoken_samples(folder, run)


PIPER_ENGINE = PiperEngine()
FESTIVAL_ENGINE = FestivalEngine()


def engine_for(voice: Voice) -> SpeechEngine:
    """The engine that speaks ``voice``: festival's for ``festival``, else piper's (it also times ``none``).

    >>> engine_for(Voice.FESTIVAL).label, engine_for(Voice.DRAFT).name
    ('festival cmu_us_slt_arctic_hts', 'piper')
    """
    return FESTIVAL_ENGINE if voice is Voice.FESTIVAL else PIPER_ENGINE


def _spoken_samples(folder: Path, speak: Callable[[Path], None]) -> tuple[int, np.ndarray]:
    """Rate and mono samples of what ``speak(scratch)`` writes to ``scratch / "speech.wav"``.

    ``scratch`` is a private folder inside ``folder``, removed afterwards.
    """
    stem = Path(tempfile.mkdtemp(dir=folder, prefix=".raw-"))
    try:
        speak(stem)
        sr, samples = read_samples(stem / "speech.wav")
        return sr, samples.mean(axis=1)
    finally:
        shutil.rmtree(stem, ignore_errors=True)
