"""Reading WAV files, checking a lecturer's recordings, and finding the speech in a sound.

A recording replaces the draft voice beat by beat (``<folder>/<Scene>/<beat id>.wav``);
:func:`check_recording` refuses one that cannot be used, in one line naming why and
what to do. :func:`speech_onsets` finds where speech starts and ends, for the
captions' timing, in a recording or in synthesised speech alike.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
from scipy.io import wavfile

__all__ = ["BadRecording", "wav_info", "read_samples", "check_recording", "speech_onsets", "frame_energy"]

SILENT_PEAK_DBFS = -45.0  # a recording whose peak is below this is silent,
SILENT_WINDOW_DBFS = -40.0  # and so is one with no 50 ms window louder than this.
CLIP_LEVEL = 0.999  # a sample at or above this magnitude is at full scale;
CLIP_RUN = 3  # this many in a row in a channel is clipping,
CLIP_FRACTION = 0.001  # and so is more than this share of all samples.

_FRAME = 0.010  # seconds per energy frame


class BadRecording(ValueError):
    """A WAV file that cannot be used as narration."""


def _to_float(data: np.ndarray) -> np.ndarray:
    if data.dtype == np.uint8:
        return (data.astype(np.float32) - 128.0) / 128.0
    if np.issubdtype(data.dtype, np.integer):
        return (data / float(-np.iinfo(data.dtype).min)).astype(np.float32)
    return data.astype(np.float32)


def read_samples(path: Path) -> tuple[int, np.ndarray]:
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
    sr, samples = read_samples(path)
    return sr, samples.mean(axis=1, dtype=np.float32)


def frame_energy(samples: np.ndarray, window: int, hop: int) -> np.ndarray:
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
    loudest = float(frame_energy(mono, window, max(1, window // 4)).max())
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
    sr, samples = read_samples(path)
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
    energy = frame_energy(np.pad(x, hop), 2 * hop, hop)  # frame i is centred on sample i * hop
    if energy.size == 0 or energy.max() <= 1e-12:
        return []
    active = energy > energy.max() * 10 ** (threshold_db / 10)
    spans = _spans(active, gap=round(min_pause / _FRAME) + 1)
    return [
        (round(s * hop / sr, 3), round(min(x.size, (e - 1) * hop) / sr, 3))
        for s, e in spans
        if (e - 1 - s) * hop >= 0.03 * sr
    ]
