"""A clip's sound: narration laid on a timeline, normalised to -16 LUFS, muxed beside the video.

Loudness follows ITU-R BS.1770-4 / EBU R128 (``pyloudnorm``): integrated
loudness in LUFS with the -70 LUFS absolute and -10 LU relative gates, and true
peak in dBTP from 4x oversampling. -16 LUFS with at most -1 dBTP is the usual
target for speech on the web and in podcasts; a limiter with look-ahead takes
down the few peaks that would otherwise stop the speech reaching it, and keeps
them 0.4 dB clear of the ceiling (``SAFETY_DB``) so that other meters, ffmpeg's
``ebur128`` among them, read them under -1 dBTP too.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd
from pathlib import Path

import numpy as np
import pyloudnorm
from scipy.ndimage import maximum_filter1d
from scipy.signal import firwin, oaconvolve, resample_poly

from narration.recordings import wav_info

__all__ = [
    "SAMPLE_RATE",
    "TARGET_LUFS",
    "MAX_TRUE_PEAK",
    "lay_track",
    "measure",
    "true_peak",
    "limit",
    "normalise",
]

SAMPLE_RATE = 48000
TARGET_LUFS = -16.0
MAX_TRUE_PEAK = -1.0

TOLERANCE_LU = 0.5
"""How far from the target the integrated loudness of a normalised track may be."""
ATTACK = 0.005
"""Limiter look-ahead and attack, seconds: the gain is fully down when a peak arrives."""
RELEASE = 0.08
"""Limiter release time constant, seconds."""
MARGIN_DB = 0.1
"""The limiter aims this far below the true-peak ceiling."""
SAFETY_DB = 0.4
"""normalise() keeps true peaks this far under the ceiling, as room for other meters: 4x
oversampling can miss about 0.2 dB between its points on sharp broadband bursts, and ffmpeg's
ebur128 reads such bursts up to 0.35 dB above a near-ideal interpolator."""
MAX_ROUNDS = 12
OVERSAMPLING = 4
"""True peak is read at 4x, as BS.1770-4 asks at 48 kHz."""
ENVELOPE_BLOCK = 1 << 18
"""Samples per block of the true-peak envelope (long FFTs over a whole lecture are slower per sample)."""
_INTERPOLATOR = firwin(2 * 32 * OVERSAMPLING + 1, 1 / OVERSAMPLING, window=("kaiser", 5.0))
"""Flat within 0.01 dB to 22 kHz at 48 kHz (BS.1770's 48-tap example rolls off from about 20 kHz)."""


def _resample(x: np.ndarray, rate: int, target: int) -> np.ndarray:
    if rate == target:
        return x
    g = gcd(rate, target)
    return resample_poly(x, target // g, rate // g).astype(np.float32)


def lay_track(
    placements: Sequence[tuple[Path, float]], duration: float, sample_rate: int = SAMPLE_RATE
) -> np.ndarray:
    """Mix WAV files onto a silent mono track, each at its start time.

    Parameters
    ----------
    placements : Sequence[tuple[Path, float]]
        ``(wav, start)`` pairs, ``start`` in seconds from the beginning of the track.
    duration : float
        Length of the track in seconds.
    sample_rate : int
        Rate of the track; files at other rates are resampled (polyphase).

    Returns
    -------
    numpy.ndarray
        Float32 samples, exactly ``round(duration * sample_rate)`` of them; audio
        running past the end is cut.

    Raises
    ------
    ValueError
        If the duration or a start time is negative.
    """
    if duration < 0:
        raise ValueError(f"the track cannot last {duration} s")
    track = np.zeros(round(duration * sample_rate), dtype=np.float32)
    for path, start in placements:
        if start < 0:
            raise ValueError(f"{Path(path).name} starts at {start} s, before the track")
        rate, samples = wav_info(path)
        at = round(start * sample_rate)
        part = _resample(samples, rate, sample_rate)[: max(0, track.size - at)]
        track[at : at + part.size] += part
    return track


def _as_frames(samples: np.ndarray) -> np.ndarray:
    """Float64 samples shaped (frames,) or (frames, channels)."""
    x = np.asarray(samples, dtype=np.float64)
    if x.ndim not in (1, 2):
        raise ValueError(f"samples must be shaped (frames,) or (frames, channels), not {x.shape}")
    return x


def _peak_envelope(x: np.ndarray) -> np.ndarray:
    """Per sample, the largest magnitude of the oversampled signal up to the next sample, over channels.

    The 4x interpolation is done as its four polyphase branches, each an FFT
    convolution of the signal with every fourth tap of the interpolator, a block
    of :data:`ENVELOPE_BLOCK` samples at a time: the same values as
    ``resample_poly(x, 4, 1, window=_INTERPOLATOR)`` (to 1e-15,
    ``tests/production/test_audio.py``), five to ten times faster on a lecture's track.
    """
    n = x.shape[0]
    taps = _INTERPOLATOR * OVERSAMPLING
    skip = (taps.size - 1) // 2 // OVERSAMPLING  # the branches' delay, in input samples
    branches = [taps[p::OVERSAMPLING].reshape(-1, *([1] * (x.ndim - 1))) for p in range(OVERSAMPLING)]
    reach = max(b.shape[0] for b in branches)
    env = np.abs(x)
    for start in range(0, n, ENVELOPE_BLOCK):
        stop = min(n, start + ENVELOPE_BLOCK)
        lo, hi = max(0, start + skip - reach + 1), min(n, stop + skip)  # the input those outputs see
        for branch in branches:
            y = oaconvolve(x[lo:hi], branch, mode="full", axes=0)[start + skip - lo : stop + skip - lo]
            np.maximum(env[start:stop], np.abs(y), out=env[start:stop])
    return env if env.ndim == 1 else env.max(axis=1)


def true_peak(samples: np.ndarray) -> float:
    """True peak in dBTP (4x oversampling, as BS.1770-4 annex 2); ``-inf`` for silence."""
    return _peak_db(_as_frames(samples))


def _peak_db(x: np.ndarray) -> float:
    peak = float(_peak_envelope(x).max()) if x.size else 0.0
    return 20 * np.log10(peak) if peak > 0 else -np.inf


def measure(samples: np.ndarray, sr: int) -> tuple[float, float]:
    """Integrated loudness and true peak of a mono or multichannel signal.

    Parameters
    ----------
    samples : numpy.ndarray
        Shaped (frames,) or (frames, channels), full scale 1.0.
    sr : int
        Sample rate in Hz.

    Returns
    -------
    tuple[float, float]
        Integrated loudness in LUFS (BS.1770-4 gating) and true peak in dBTP; ``-inf``
        for silence, and loudness ``-inf`` for signals shorter than one 400 ms block.
    """
    x = _as_frames(samples)
    return _loudness(x, sr), _peak_db(x)


def _loudness(x: np.ndarray, sr: int) -> float:
    meter = pyloudnorm.Meter(sr)
    if x.shape[0] < meter.block_size * sr:
        return -np.inf
    with np.errstate(divide="ignore"):
        return float(meter.integrated_loudness(x))


def _gain(db: float) -> float:
    return float(10 ** (db / 20))


def _release(need: np.ndarray, sr: int) -> np.ndarray:
    """``r[n] = max(need[n], a * r[n-1])`` with ``a = exp(-1 / (RELEASE * sr))``, without a loop."""
    log_a = -1.0 / (RELEASE * sr)
    k = np.arange(need.size) * log_a
    with np.errstate(divide="ignore"):
        held = np.maximum.accumulate(np.log(need) - k)
    return np.exp(held + k)


def _limiter_gain(envelope: np.ndarray, sr: int, ceiling_db: float) -> np.ndarray:
    """Gain per sample that keeps a peak ``envelope`` under ``ceiling_db`` (see :func:`limit`)."""
    with np.errstate(divide="ignore"):
        need = np.maximum(20 * np.log10(envelope) - ceiling_db, 0.0)
    size = max(1, round(ATTACK * sr))
    ahead = maximum_filter1d(need, size=size, origin=-(size // 2), mode="nearest")  # max over [n, n + size)
    released = _release(ahead, sr)
    total = np.concatenate([[0.0], np.cumsum(np.concatenate([np.full(size - 1, released[0]), released]))])
    smooth = (total[size:] - total[:-size]) / size  # mean over (n - size, n], the first value held before 0
    return 10 ** (-smooth / 20)


def _apply(x: np.ndarray, gain: np.ndarray) -> np.ndarray:
    return x * (gain if x.ndim == 1 else gain[:, None])


def limit(samples: np.ndarray, sr: int, ceiling_db: float) -> np.ndarray:
    """Smooth look-ahead peak limiter: true peaks end up at or below ``ceiling_db``.

    The gain reduction each sample needs (in dB, from the 4x oversampled peak
    envelope) is held over the look-ahead window, released exponentially, and
    averaged over the attack window; each of these steps only raises it, so every
    peak is covered and the gain moves smoothly.

    Parameters
    ----------
    samples : numpy.ndarray
        Shaped (frames,) or (frames, channels); the channels share one gain.
    sr : int
        Sample rate in Hz.
    ceiling_db : float
        Highest true peak wanted, dBTP.

    Returns
    -------
    numpy.ndarray
        The limited samples, float64, same shape.
    """
    x = _as_frames(samples)
    if x.shape[0] == 0:
        return x
    return _apply(x, _limiter_gain(_peak_envelope(x), sr, ceiling_db))


def _next_aim(history: list[tuple[float, float]], ceiling: float) -> float:
    """The limiter ceiling for the next round, from the (ceiling, peak after re-gain) pairs so far.

    Re-gaining after the limiter lifts the peaks again, by more the harder it
    limits; a secant step through the last two rounds finds the limiter ceiling
    whose re-gained peaks land ``MARGIN_DB`` under ``ceiling``.
    """
    if not history:
        return ceiling - MARGIN_DB
    aim, peak = history[-1]
    step = peak - (ceiling - MARGIN_DB)
    if len(history) >= 2 and history[-2][0] != aim:
        slope = (peak - history[-2][1]) / (aim - history[-2][0])
        if 0.05 < slope < 1.0:
            step /= slope
    return aim - step


def _estimated_peak(envelope: np.ndarray, gain: np.ndarray, regain_db: float) -> float:
    """The true peak, in dBTP, of the signal whose peak ``envelope`` is limited by ``gain`` and re-gained.

    The limiter's gain moves over milliseconds, the interpolator reaches about one, so the limited
    signal's envelope is close to the envelope times the gain: a search step needs no new
    oversampling, and :func:`normalise` measures exactly only a round that this puts under the ceiling.
    """
    peak = float(np.max(envelope * gain)) * _gain(regain_db)
    return 20 * np.log10(peak) if peak > 0 else -np.inf


def _at_target(samples: np.ndarray, sr: int, target_lufs: float) -> np.ndarray | None:
    """``samples`` as frames gained to ``target_lufs``; None for silence or under 400 ms (no loudness)."""
    x = _as_frames(samples)
    loudness = _loudness(x, sr)
    return x * _gain(target_lufs - loudness) if np.isfinite(loudness) else None


def normalise(
    samples: np.ndarray, sr: int, *, target_lufs: float = TARGET_LUFS, max_true_peak: float = MAX_TRUE_PEAK
) -> np.ndarray:
    """Bring a signal to ``target_lufs`` integrated loudness with true peaks at most ``max_true_peak``.

    The signal is gained to the target; if its peaks then pass the ceiling, it is limited and gained
    again, the limiter's ceiling lowered each round by what the re-gain pushed the peaks over.

    Parameters
    ----------
    samples : numpy.ndarray
        Shaped (frames,) or (frames, channels).
    sr : int
        Sample rate in Hz.
    target_lufs : float
        Integrated loudness wanted, LUFS.
    max_true_peak : float
        Highest true peak allowed, dBTP.

    Returns
    -------
    numpy.ndarray
        Float32 samples within 0.5 LU of the target, true peaks ``SAFETY_DB`` under the ceiling. Silence,
        or a signal shorter than 400 ms (it has no integrated loudness), comes back unchanged.

    Raises
    ------
    ValueError
        If no amount of limiting meets both limits (a ceiling far below the target).
    """
    x = _at_target(samples, sr, target_lufs)
    if x is None:
        return np.array(samples, dtype=np.float32)
    envelope = _peak_envelope(x)
    ceiling = max_true_peak - SAFETY_DB
    # Each round's signal is gained to the target from its own measured loudness, and loudness is
    # proportional to gain (BS.1770: the gates are relative but for -70 LUFS), so it is not measured again.
    loudness, peak = target_lufs, 20 * np.log10(max(float(envelope.max()), 1e-300))
    y, aim = x, None
    history: list[tuple[float, float]] = []  # (limiter ceiling, true peak after re-gain)
    for _ in range(MAX_ROUNDS):
        if abs(loudness - target_lufs) <= TOLERANCE_LU and peak <= ceiling:
            return y.astype(np.float32)
        if aim is not None:
            history.append((aim, peak))
        aim = _next_aim(history, ceiling)
        gain = _limiter_gain(envelope, sr, aim)
        limited = _apply(x, gain)
        left = _loudness(limited, sr)
        if not np.isfinite(left):  # limited to nothing
            break
        y = limited * _gain(target_lufs - left)
        peak = _estimated_peak(envelope, gain, target_lufs - left)
        if peak <= ceiling:  # only an exact measure ends the search
            peak = _peak_db(y)
    raise ValueError(
        f"cannot reach {target_lufs} LUFS with true peaks under {max_true_peak} dBTP "
        f"(got {loudness:.1f} LUFS, {peak:.1f} dBTP)"
    )
