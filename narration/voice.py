r"""The draft voice: offline speech for the narration, and checks on a lecturer's recordings.

Why festival with the HTS voice
-------------------------------
Of the three offline engines in Debian 12, festival with the HTS voice
``cmu_us_slt_arctic_hts`` should sound the most natural: it is a statistical
parametric voice at 32 kHz driven by festival's full English front end
(part-of-speech tagging, phrase breaks, accent and F0 models), where ``flite``
pairs a lighter front end with a 16 kHz voice and ``espeak-ng`` is a formant
synthesiser that sounds robotic. Festival's phrasing puts real pauses at
commas and between sentences, which gives listeners room and the caption
aligner (:func:`speech_onsets`) clean gaps. All three engines are deterministic
(the same text gives byte-identical audio on every run), and all three have a
rate control; festival's is the HTS engine's speed factor ``-r``, and at 0.9 it
speaks lecture sentences at about 151 words a minute (six sentences, silence
trimmed) against 167 at its default. The price is speed: ``text2wave`` takes
about 0.5 s a sentence, 0.4 s of it starting festival, against 0.1 s for flite
and 0.02 s for espeak-ng. So festival is started once per process and kept
running (:mod:`narration.festival`, the same bytes as ``text2wave``), and the
cache pays for each text once.

Making text speakable
---------------------
Festival reads digits, decimals and abbreviations well, but it spells out or
drops the symbols of mathematical writing. :func:`speakable` rewrites them
first: Greek letters become their names (``τ`` -> "tau"), a few LaTeX
commands lose their backslash (``\tau`` -> "tau", ``\frac{a}{b}`` -> "a over
b"), subscripts are read after a space (``k_eff`` -> "k effective", ``d_k``
-> "d k"), superscripts as powers (``n^2`` -> "n squared", ``K^T`` -> "K
transpose", ``e^{H}`` -> "e to the H"), a call reads "of" (``O(n^2)`` -> "O
of n squared"), other parentheses become commas, ``=``, ``≈``, ``×``, ``·``,
``√``, ``→`` and comparisons become words, ``a/b`` is "a over b", and quotes,
brackets and braces are dropped.

Two engines
-----------
The default draft voice is now Piper's neural ``en_US-joe-medium``
(:mod:`narration.piper`), which sounds like a person reading where festival's
HTS voice sounds synthetic; festival stays available (``--voice festival``).
Piper's phonemiser is espeak-ng, so its text also goes through
:mod:`narration.lexicon`'s respellings. Each engine's name, voice, settings
and version are part of the cache key (:func:`engine_key`).
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
import unicodedata
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy.io import wavfile

from atomic_files import replacing
from narration import festival, lexicon, piper

__all__ = [
    "ENGINE",
    "ENGINES",
    "engine_key",
    "engine_label",
    "INSTALL",
    "VoiceError",
    "BadRecording",
    "speakable",
    "synthesise",
    "wav_info",
    "check_recording",
    "speech_onsets",
    "run_engine",
    "FESTIVAL_SETUP",
]

INSTALL = "apt-get install --no-install-recommends festival festvox-us-slt-hts"
"""The Debian command that installs the draft voice."""

RATE = 0.9
"""HTS engine speed factor (``-r``): 1 is the voice's own pace (167 words a minute), 0.9 gives 151."""

LEAD, TAIL = 0.025, 0.05
"""Silence, in seconds, kept before the first and after the last speech in a synthesised file."""

_VOICE = "cmu_us_slt_arctic_hts"
# festival's voice and speaking rate, set up once per festival process
FESTIVAL_SETUP = (
    f'(begin (voice_{_VOICE}) (set! hts_engine_params (append hts_engine_params \'(("-r" {RATE})))))'
)
_RULES = 2  # bump when speakable() changes what is said

ENGINE = f"festival text2wave/{_VOICE}/r={RATE}/trim={LEAD},{TAIL}/speakable-v{_RULES}"  # (kept: same bytes)
"""Festival's engine, voice and settings; part of its cache keys, so changing any of them re-synthesises."""

ENGINES = ("piper", "festival")
"""Speech engines of the draft voice; the first is the default."""

PIPER = piper.PiperSettings()
"""Pace, noise and sentence pauses of the neural voice."""

_LEXICON = 1  # bump when lexicon.RESPELLINGS changes what is said

SILENT_PEAK_DBFS = -45.0  # a recording whose peak is below this is silent,
SILENT_WINDOW_DBFS = -40.0  # and so is one with no 50 ms window louder than this.
CLIP_LEVEL = 0.999  # a sample at or above this magnitude is at full scale;
CLIP_RUN = 3  # this many in a row in a channel is clipping,
CLIP_FRACTION = 0.001  # and so is more than this share of all samples.

_FRAME = 0.010  # seconds per energy frame


class VoiceError(RuntimeError):
    """The speech engine is missing or failed."""


class BadRecording(ValueError):
    """A WAV file that cannot be used as narration."""


# --- speakable text -----------------------------------------------------------------------------

_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta", "η": "eta",
    "θ": "theta", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho",
    "σ": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "gamma", "Δ": "delta", "Θ": "theta", "Λ": "lambda", "Π": "pi", "Σ": "sigma", "Φ": "phi",
    "Ψ": "psi", "Ω": "omega",
}  # fmt: skip
_SYMBOLS = {
    "=": "equals", "≈": "is about", "≠": "is not", "≤": "at most", "≥": "at least", "<": "less than",
    ">": "greater than", "+": "plus", "−": "minus", "±": "plus or minus", "×": "times", "·": "dot",
    "√": "square root of", "∞": "infinity", "→": "to", "∑": "sum of", "∈": "in", "&": "and",
    "²": "squared", "³": "cubed",
}  # fmt: skip
_LATEX = {"sqrt": "square root of", "cdot": "dot", "times": "times", "sum": "sum of", "infty": "infinity"}
_SUBSCRIPTS = {"eff": "effective", "max": "max", "min": "min"}
_POWERS = {"2": "squared", "3": "cubed", "T": "transpose", "⊤": "transpose", "-1": "inverse"}

_FRAC = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_SUB = re.compile(r"(?<=\w)_(?:\{([^{}]*)\}|(\w+))")
_SUP = re.compile(r"\^(?:\{([^{}]*)\}|(-?\w+|⊤))")
_CALL = re.compile(r"(?<=\w)\(([^()]*)\)")
_SLASH = re.compile(r"(?<=\w)\s*/\s*(?=[\w√])")


def _power(match: re.Match[str]) -> str:
    exponent = match.group(1) if match.group(1) is not None else match.group(2)
    return " " + _POWERS.get(exponent, f"to the {exponent}") + " "


def _subscript(match: re.Match[str]) -> str:
    index = match.group(1) if match.group(1) is not None else match.group(2)
    return " " + _SUBSCRIPTS.get(index, index) + " "


def _math_to_words(text: str) -> str:
    text = "".join(_GREEK.get(c, c) for c in text)
    text = text.replace("->", " → ")
    text = _FRAC.sub(r" \1 over \2 ", text)
    text = _COMMAND.sub(lambda m: " " + _LATEX.get(m.group(1), m.group(1)) + " ", text)
    text = _SUP.sub(_power, text)
    text = _SUB.sub(_subscript, text)
    while _CALL.search(text):
        text = _CALL.sub(r" of \1", text)
    text = _SLASH.sub(" over ", text)
    return "".join(f" {_SYMBOLS[c]} " if c in _SYMBOLS else c for c in text)


def speakable(text: str) -> str:
    """Rewrite ``text`` so festival says the math in it as words (rules in the module docstring).

    Parameters
    ----------
    text : str
        Narration as written, possibly with Greek letters, LaTeX, sub- and superscripts.

    Returns
    -------
    str
        Plain ASCII text for the speech engine.

    Examples
    --------
    >>> speakable("Effective k_eff = N when τ is large.")
    'Effective k effective equals N when tau is large.'
    >>> speakable("Cost O(n^2), e^{H} and (softmax(QK^T/√d)).")
    'Cost O of n squared, e to the H and, softmax of QK transpose over square root of d.'
    """
    text = re.sub(r"(?<=\w)[–—](?=\w)", " ", text)  # Nadaraya–Watson: two names, not one word
    text = re.sub(r"\s+[–—]\s+", ", ", text)  # a spaced dash is a pause
    text = _math_to_words(text.replace("’", "'"))
    text = re.sub(r"[()]", " , ", text)
    text = re.sub(r"[\[\]{}\"“”‘`*\\]|(?<!\w)'|'(?!\w)", " ", text)
    text = re.sub(r"\s+-+\s+", ", ", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    return re.sub(r"^[,;:]+|[,;:]+(?=[.!?]|$)", "", text.strip()).strip()


# --- synthesis ------------------------------------------------------------------------------------


def engine_key(engine: str = "piper") -> str:
    """What decides ``engine``'s audio for a text: engine, voice (digests), settings, version, rules.

    Part of every cache key, so a change to any of them re-synthesises.
    """
    if engine == "festival":
        return ENGINE
    if engine != "piper":
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    digests = ",".join(piper.VOICE_MD5.values())
    try:
        version = piper.engine_version()
    except piper.PiperError as error:
        raise VoiceError(str(error)) from None
    return (
        f"piper {piper.VOICE} md5={digests}/{version}/{PIPER}"
        f"/trim={LEAD},{TAIL}/speakable-v{_RULES}/lexicon-v{_LEXICON}"
    )


def engine_label(engine: str = "piper") -> str:
    """What the manifest names as the engine and voice of a draft beat, e.g. ``"piper en_US-joe-medium"``."""
    return {"piper": f"piper {piper.VOICE}", "festival": f"festival {_VOICE}"}[engine]


def _key(text: str, engine: str) -> str:
    return hashlib.sha256(f"{engine_key(engine)}\0{text}".encode()).hexdigest()


def run_engine(spoken: str, folder: Path, engine: str) -> tuple[int, np.ndarray]:
    """Speak ``spoken`` with this process's ``engine``; rate and mono samples."""
    if engine == "piper":
        return _run_piper(lexicon.respell(spoken), folder)
    return _run_festival(spoken, folder)


def _spoken_samples(folder: Path, speak: Callable[[Path], None]) -> tuple[int, np.ndarray]:
    """Rate and mono samples of what ``speak(scratch)`` writes to ``scratch / "speech.wav"``.

    ``scratch`` is a private folder inside ``folder``, removed afterwards.
    """
    stem = Path(tempfile.mkdtemp(dir=folder, prefix=".raw-"))
    try:
        speak(stem)
        sr, samples = _read(stem / "speech.wav")
        return sr, samples.mean(axis=1)
    finally:
        shutil.rmtree(stem, ignore_errors=True)


def _run_piper(spoken: str, folder: Path) -> tuple[int, np.ndarray]:
    """Speak ``spoken`` with this process's piper (:mod:`narration.piper`); rate and mono samples."""

    def speak(stem: Path) -> None:
        try:
            piper.speak(spoken, stem / "speech.wav", PIPER)
        except piper.PiperError as error:
            raise VoiceError(f"the neural voice failed: {error}") from None

    return _spoken_samples(folder, speak)


def _run_festival(spoken: str, folder: Path) -> tuple[int, np.ndarray]:
    """Speak ``spoken`` with this process's festival (:mod:`narration.festival`); rate and mono samples."""
    if shutil.which("festival") is None:
        raise VoiceError(f"festival is not installed: run {INSTALL}")

    def speak(stem: Path) -> None:
        (stem / "text.txt").write_text(spoken)
        try:
            festival.speak(FESTIVAL_SETUP, stem / "text.txt", stem / "speech.wav")
        except festival.FestivalError as error:
            raise VoiceError(f"festival failed ({error}); is the voice installed? run {INSTALL}") from None

    return _spoken_samples(folder, speak)


def _trim(samples: np.ndarray, sr: int) -> np.ndarray:
    """Cut silence before the first and after the last speech, keeping LEAD and TAIL seconds."""
    hop = max(1, round(sr * 0.005))
    frames = _frame_energy(samples, hop, hop)
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


def synthesise(text: str, cache_dir: Path, engine: str = "piper") -> Path:
    """Speak ``text`` with the draft voice into a mono 16-bit WAV in ``cache_dir`` (cached).

    Parameters
    ----------
    text : str
        The narration as written; :func:`speakable` is applied before speaking.
    cache_dir : Path
        Folder for the audio, created if missing.
    engine : str
        ``"piper"`` (the neural voice, default) or ``"festival"``.

    Returns
    -------
    Path
        ``cache_dir / "<sha256 of engine_key(engine) and text>.wav"``; an existing file is returned as is.

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
    if target.is_file():
        return target
    sr, samples = run_engine(spoken, cache_dir, engine)
    _write_wav_atomic(target, sr, _trim(samples, sr))
    return target


# --- reading and checking recordings ----------------------------------------------------------


def _to_float(data: np.ndarray) -> np.ndarray:
    if data.dtype == np.uint8:
        return (data.astype(np.float32) - 128.0) / 128.0
    if np.issubdtype(data.dtype, np.integer):
        return (data / float(-np.iinfo(data.dtype).min)).astype(np.float32)
    return data.astype(np.float32)


def _read(path: Path) -> tuple[int, np.ndarray]:
    """Sample rate and float32 samples shaped (frames, channels)."""
    name = Path(path).name
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sr, data = wavfile.read(path)
    except FileNotFoundError:
        raise BadRecording(f"{name}: no such file") from None
    except (OSError, ValueError, EOFError) as error:
        raise BadRecording(f"{name}: not a readable WAV file ({error}); export it as PCM WAV") from None
    except Exception as error:  # struct.error and friends from a damaged header
        raise BadRecording(f"{name}: damaged WAV header ({error}); export it again as PCM WAV") from None
    if any("EOF prematurely" in str(w.message) for w in caught):
        raise BadRecording(f"{name}: truncated WAV (the data ends before the header says); export it again")
    if data.size == 0:
        raise BadRecording(f"{name}: the WAV file has no audio samples; record or export it again")
    return int(sr), _to_float(data).reshape(data.shape[0], -1)


def wav_info(path: Path) -> tuple[int, np.ndarray]:
    """Sample rate and mono float32 samples in [-1, 1] of a WAV file.

    Parameters
    ----------
    path : Path
        A PCM (8, 16, 24 or 32-bit) or float WAV file, mono or multichannel (mixed down).

    Returns
    -------
    tuple[int, numpy.ndarray]
        The sample rate and a 1-D float32 array.

    Raises
    ------
    BadRecording
        If the file is missing, not a WAV file, damaged or empty.
    """
    sr, samples = _read(path)
    return sr, samples.mean(axis=1, dtype=np.float32)


def _frame_energy(samples: np.ndarray, window: int, hop: int) -> np.ndarray:
    """Mean square of ``samples`` over windows of ``window`` samples every ``hop`` samples."""
    if samples.size < window:
        return np.array([np.mean(np.square(samples, dtype=np.float64))]) if samples.size else np.zeros(0)
    power = np.concatenate([[0.0], np.cumsum(np.square(samples, dtype=np.float64))])
    starts = np.arange(0, samples.size - window + 1, hop)
    return (power[starts + window] - power[starts]) / window


def _longest_run(mask: np.ndarray) -> int:
    if not mask.any():
        return 0
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return int((np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)).max())


def _check_level(name: str, sr: int, mono: np.ndarray) -> None:
    peak = float(np.abs(mono).max())
    window = max(1, round(0.05 * sr))
    loudest = float(_frame_energy(mono, window, max(1, window // 4)).max())
    if peak < 10 ** (SILENT_PEAK_DBFS / 20) or loudest < 10 ** (SILENT_WINDOW_DBFS / 10):
        level = 20 * np.log10(max(peak, 1e-10))
        raise BadRecording(
            f"{name}: silent (peak {level:.0f} dBFS); check the microphone input and record again"
        )


def _check_clipping(name: str, samples: np.ndarray) -> None:
    hot = np.abs(samples) >= CLIP_LEVEL
    run = max(_longest_run(hot[:, ch]) for ch in range(samples.shape[1]))
    share = hot.any(axis=1).mean()
    if run >= CLIP_RUN or share > CLIP_FRACTION:
        raise BadRecording(
            f"{name}: clipped ({share:.2%} of samples at full scale, longest run {run}); "
            "lower the input gain and record again"
        )


def check_recording(path: Path) -> float:
    """Check a lecturer's recording and return its duration in seconds.

    Parameters
    ----------
    path : Path
        The WAV file to check.

    Returns
    -------
    float
        Duration in seconds.

    Raises
    ------
    BadRecording
        If the file is not a readable WAV, is silent (peak below -45 dBFS or no 50 ms
        window above -40 dBFS), or is clipped (3 or more consecutive samples, or more
        than 0.1 % of samples, at ``|x| >= 0.999`` in any channel).
    """
    sr, samples = _read(path)
    name = Path(path).name
    _check_level(name, sr, samples.mean(axis=1))
    _check_clipping(name, samples)
    return samples.shape[0] / sr


# --- speech spans -------------------------------------------------------------------------------------


def _spans(active: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """Runs of active frames as [start, end) frame indices, joining runs less than ``gap`` apart."""
    edges = np.diff(np.concatenate([[0], active.astype(np.int8), [0]]))
    runs: list[tuple[int, int]] = []
    for start, end in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True):
        if runs and start - runs[-1][1] < gap:
            runs[-1] = (runs[-1][0], int(end))
        else:
            runs.append((int(start), int(end)))
    return runs


def speech_onsets(
    samples: np.ndarray, sr: int, *, min_pause: float = 0.25, threshold_db: float = -35.0
) -> list[tuple[float, float]]:
    """Spans of speech separated by pauses of at least ``min_pause`` seconds.

    Speech is where the energy of a 20 ms window centred on each 10 ms step
    is within ``threshold_db`` of the loudest window; spans shorter than 30 ms
    (clicks) are dropped. Times are rounded to the millisecond.

    Parameters
    ----------
    samples : numpy.ndarray
        Mono samples.
    sr : int
        Sample rate in Hz.
    min_pause : float
        Shortest silence, in seconds, that separates two spans.
    threshold_db : float
        Level relative to the loudest window above which a window counts as speech.

    Returns
    -------
    list[tuple[float, float]]
        ``(start, end)`` in seconds, in order; empty for silence.

    Examples
    --------
    >>> sr = 1000
    >>> tone = np.sin(np.arange(sr) * 0.5)
    >>> speech_onsets(np.concatenate([tone, np.zeros(sr), tone]), sr)
    [(0.0, 1.0), (2.0, 3.0)]
    """
    x = np.asarray(samples, dtype=np.float64).reshape(-1)
    hop = max(1, round(_FRAME * sr))
    energy = _frame_energy(np.pad(x, hop), 2 * hop, hop)  # frame i is centred on sample i * hop
    if energy.size == 0 or energy.max() <= 1e-12:
        return []
    active = energy > energy.max() * 10 ** (threshold_db / 10)
    spans = _spans(active, gap=round(min_pause / _FRAME) + 1)
    return [
        (round(s * hop / sr, 3), round(min(x.size, (e - 1) * hop) / sr, 3))
        for s, e in spans
        if (e - 1 - s) * hop >= 0.03 * sr
    ]
