"""A rendered clip's narration: its beats, the captions made from them, and its normalised voice track.

A scene run by the build writes its beats (:class:`narration.beats.BeatsRecord`):
each beat's id, text, start and end, voice, the sound files to place and the
caption cues. This module lays, normalises and muxes that voice into the clip.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import av
import numpy as np

from narration.beats import BeatsRecord
from production.media.aac import encode_track, mux_track, video_seconds
from production.media.audio import MAX_TRUE_PEAK, SAMPLE_RATE, lay_track, measure, normalise

__all__ = [
    "add_voice",
    "master_voice",
    "mux_voice",
    "master_track",
    "decode_audio",
    "join_voices",
]


def add_voice(video: Path, record: BeatsRecord, out: Path, duration: float) -> bool:
    """Write ``out``: ``video`` with its narration as a normalised AAC track; False when it has none."""
    track = out.with_name(f".{out.stem}.voice.m4a")
    try:
        if not master_voice(record, duration, track):
            return False
        mux_track(video, track, out)
        return True
    finally:
        track.unlink(missing_ok=True)


def master_voice(record: BeatsRecord, duration: float, out: Path) -> int:
    """Write ``out`` (``.m4a``): the beats' sound laid over ``duration`` seconds, mastered.

    Needs only the beats, not the frames: a build masters a clip's voice while
    the clip renders, and its join lays the track on by copying packets.
    Returns the encodings mastering took (:func:`master_track`), 0 when the beats are silent.
    """
    placements = record.placements()
    if not placements:
        return 0
    return master_track(lay_track(placements, duration, SAMPLE_RATE), duration, out)


SHIPPED_MARGIN_DB = 0.1
"""How far under the true-peak ceiling the *decoded* AAC track must measure."""
SHIPPED_PEAK = MAX_TRUE_PEAK - SHIPPED_MARGIN_DB
"""The highest true peak a shipped (decoded) voice track may measure, dBTP."""
AAC_OVERSHOOT_DB = 0.5
"""Room left for AAC at the first try: its decoded peaks measured 0.3-0.6 dB above the source's on
the lecture's clips, so aiming this far under the ceiling ships most tracks after one encoding."""
STEP_DB = 0.1
"""What a round over the limit takes off beyond its overshoot. AAC's decoded peaks do not follow a
change of a thousandth of a dB (section 2's clip at 1080p60 stayed 0.001 dB over through
four such steps); a tenth of a dB of gain moves them as much."""
MAX_TRIM_DB = 0.4
"""The most a track's level is trimmed under the loudness target: -16 LUFS within 0.5 LU still holds."""
ROUNDS = 8
"""Encodings a track may take (each over-limit round lowers its peaks by at least :data:`STEP_DB`)."""


def master_track(
    track: np.ndarray, seconds: float, out: Path, rounds: int = ROUNDS, shipped_peak: float = SHIPPED_PEAK
) -> int:
    """Normalise ``track``, encode it as AAC into ``out`` (``.m4a``), check what ships; the encodings it took.

    AAC does not keep the waveform: its decoded peaks land up to a dB and a
    half above the normalised source's, and not always where the source
    peaks. So the encoded track is decoded and measured, and while its true
    peak is over ``shipped_peak`` it is encoded again, its peaks lowered by the
    overshoot plus :data:`STEP_DB`, in one of two ways (:class:`_Levels`):

    - the limiter's ceiling is lowered and the track normalised again, which
      keeps -16 LUFS: this moves a decoded peak that AAC lifted where the
      source peaks (section 5's clip at 1080p60: 1.35 dB over its source there);
    - where that did not move the decoded peak (by half the step), AAC made it
      where the source was already under the ceiling, and the whole track is
      trimmed instead: a uniform gain, which AAC follows.

    What is traded: a harder limiter flattens a few more peaks, and a trimmed
    track ships that much under -16 LUFS. The trims add up to
    :data:`MAX_TRIM_DB` at most, so the loudness stays within the target's
    0.5 LU; a track that would need more, or is still over after ``rounds``,
    is refused (RuntimeError, one line) and ``out`` removed. The first try
    leaves :data:`AAC_OVERSHOOT_DB` of room, so most tracks are encoded once.
    """
    levels = _Levels(track)
    peak = float("-inf")
    for k in range(1, rounds + 1):
        encode_track(levels.source(), SAMPLE_RATE, seconds, out)
        shipped = decode_audio(out)
        peak = measure(shipped, SAMPLE_RATE)[1] if shipped is not None else float("-inf")
        over = peak - shipped_peak
        if over <= 0:
            return k
        if k == rounds or not levels.lower(peak, over + STEP_DB):
            break
    out.unlink(missing_ok=True)
    raise RuntimeError(
        f"{out.name}: the voice track's true peak stays above {shipped_peak:.2f} dBTP after AAC "
        f"({peak:.2f} dBTP at encoding {k}, after a limiter ceiling of {levels.ceiling:.2f} dBTP and a "
        f"trim of {levels.trim:.2f} dB; at most {MAX_TRIM_DB} dB of trim keeps -16 LUFS)"
    )


class _Levels:
    """A track's limiter ceiling and trim between encodings, and the source they give."""

    def __init__(self, track: np.ndarray) -> None:
        self.track = track
        self.ceiling = MAX_TRUE_PEAK - AAC_OVERSHOOT_DB
        self.trim = 0.0
        self.normalised = normalise(track, SAMPLE_RATE, max_true_peak=self.ceiling)
        self.last: tuple[str, float, float] | None = None  # (what moved, by how much, the peak before)

    def source(self) -> np.ndarray:
        """The samples to encode: normalised under the ceiling, then trimmed."""
        return self.normalised * np.float32(10 ** (-self.trim / 20))

    def lower(self, peak: float, step: float) -> bool:
        """Lower the peaks by ``step`` dB after a decoded ``peak``; False when only a trim too deep would."""
        if self.last is not None and self.last[0] == "ceiling" and self.last[2] - peak < self.last[1] / 2:
            self.trim += step  # the ceiling did not reach AAC's peak: gain does
            self.last = ("trim", step, peak)
            return self.trim <= MAX_TRIM_DB
        try:
            normalised = normalise(self.track, SAMPLE_RATE, max_true_peak=self.ceiling - step)
        except ValueError:  # no limiting that deep keeps -16 LUFS
            return False
        self.ceiling -= step
        self.normalised = normalised
        self.last = ("ceiling", step, peak)
        return True


def mux_voice(video: Path, track: np.ndarray, out: Path) -> None:
    """Write ``out``: ``video``'s frames with ``track`` mastered (:func:`master_track`) beside them."""
    voice = out.with_name(f".{out.stem}.voice.m4a")
    try:
        master_track(track, video_seconds(video), voice)
        mux_track(video, voice, out)
    finally:
        voice.unlink(missing_ok=True)


def decode_audio(video: Path, sample_rate: int = SAMPLE_RATE) -> np.ndarray | None:
    """The first audio track of ``video`` as mono float32 at ``sample_rate``; None when it has none."""
    with av.open(str(video)) as container:
        if not container.streams.audio:
            return None
        resampler = av.AudioResampler(format="flt", layout="mono", rate=sample_rate)
        parts = [
            out.to_ndarray().reshape(-1)
            for frame in container.decode(container.streams.audio[0])
            for out in resampler.resample(frame)
        ]
        parts += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    return np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, np.float32)


def join_voices(videos: Sequence[Path], starts: Sequence[float], duration: float) -> np.ndarray | None:
    """One track for the joined lecture: each clip's voice at its start; None if every clip is silent.

    The clips' tracks are decoded and laid end to end (a clip without a voice
    leaves silence); :func:`mux_voice` then encodes it with its peaks checked.
    """
    track = np.zeros(round(duration * SAMPLE_RATE), dtype=np.float32)
    heard = False
    for video, start in zip(videos, starts, strict=True):
        voice = decode_audio(video)
        if voice is None:
            continue
        at = round(start * SAMPLE_RATE)
        part = voice[: max(0, track.size - at)]
        track[at : at + part.size] = part
        heard = True
    return track if heard else None
