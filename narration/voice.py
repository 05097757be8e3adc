"""The draft voice's cache: each text spoken once by its engine, trimmed, and kept under its key.

:func:`synthesise` makes the text speakable (:mod:`narration.speakable`), asks
the engine (:mod:`narration.engines`) for it, trims the silence at both ends
and writes a mono 16-bit WAV named by the SHA-256 of the engine's key and the
text; a later call with the same key returns the file as is. Recordings and
their checks are :mod:`narration.recordings`.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
from scipy.io import wavfile

from atomic_files import replacing
from atomic_files.shared import VOICE
from narration.engines import LEAD, PIPER_ENGINE, TAIL, SpeechEngine, VoiceError
from narration.recordings import frame_energy
from narration.speakable import speakable

__all__ = ["synthesise", "VoiceError"]


def _key(text: str, engine: SpeechEngine) -> str:
    return hashlib.sha256(f"{engine.key()}\0{text}".encode()).hexdigest()


def _trim(samples: np.ndarray, sr: int) -> np.ndarray:
    """Cut silence before the first and after the last speech, keeping LEAD and TAIL seconds."""
    hop = max(1, round(sr * 0.005))
    frames = frame_energy(samples, hop, hop)
    if frames.size == 0 or frames.max() <= 0:
        return samples
    active = np.flatnonzero(10 * np.log10(np.maximum(frames, 1e-20) / frames.max()) > -40.0)
    start = max(0, active[0] * hop - round(LEAD * sr))
    end = min(samples.size, (active[-1] + 1) * hop + round(TAIL * sr))
    return samples[start:end]


def _write_wav_atomic(path: Path, sr: int, samples: np.ndarray) -> None:
    pcm = np.clip(np.round(samples * 32768), -32768, 32767).astype(np.int16)  # inverse of _to_float
    with replacing(path) as tmp:
        wavfile.write(tmp, sr, pcm)


def synthesise(text: str, cache_dir: Path, engine: SpeechEngine = PIPER_ENGINE) -> Path:
    """Speak ``text`` with the draft voice into a mono 16-bit WAV in ``cache_dir`` (cached).

    Parameters
    ----------
    text : str
        The narration as written; :func:`speakable` is applied before speaking.
    cache_dir : Path
        Folder for the audio, created if missing.
    engine : SpeechEngine
        Piper's neural voice (default) or festival's (:mod:`narration.engines`).

    Returns
    -------
    Path
        ``cache_dir / "<sha256 of engine.key() and text>.wav"``; an existing file is returned as is,
        and one spoken before for another folder is copied from :data:`atomic_files.shared.VOICE`.

    Raises
    ------
    ValueError
        If the text has nothing to say.
    VoiceError
        If the engine or its voice is missing or fails.
    """
    spoken = speakable(text)
    if not re.search(r"[A-Za-z0-9]", spoken):
        raise ValueError(f"nothing to say in {text!r}")
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    target = cache_dir / f"{_key(text, engine)}.wav"
    if target.is_file() or VOICE.get(target.name, cache_dir) is not None:
        return target
    sr, samples = engine.speak(spoken, cache_dir)
    _write_wav_atomic(target, sr, _trim(samples, sr))
    VOICE.put(target)
    return target
