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


def master_voice(record: BeatsRecord, duration: float, out: Path) -> bool:
    """Write ``out`` (``.m4a``): the beats' sound laid over ``duration`` seconds, mastered; False if silent.

    Needs only the beats, not the frames: a build masters a clip's voice while
    the clip renders, and its join lays the track on by copying packets.
    """
    placements = record.placements()
    if not placements:
        return False
    master_track(lay_track(placements, duration, SAMPLE_RATE), duration, out)
    return True


SHIPPED_MARGIN_DB = 0.1
"""How far under the true-peak ceiling the *decoded* AAC track must measure."""
AAC_OVERSHOOT_DB = 0.5
"""Room left for AAC at the first try: its decoded peaks measured 0.3-0.6 dB above the source's on
the lecture's clips, so aiming this far under the ceiling ships most tracks after one encoding."""


def master_track(track: np.ndarray, seconds: float, out: Path, rounds: int = 4) -> None:
    """Normalise ``track``, encode it as AAC into ``out`` (``.m4a``), and check what ships.

    AAC does not keep the waveform: its decoded peaks land a few tenths of a
    dB above the normalised source's. So the encoded track is decoded and
    measured, and while its true peak is above the ceiling the source is
    normalised again under a ceiling lowered by the overshoot. The first try
    already leaves :data:`AAC_OVERSHOOT_DB` of room, so most tracks are encoded once.
    """
    ceiling = MAX_TRUE_PEAK - AAC_OVERSHOOT_DB
    for _ in range(rounds):
        encode_track(normalise(track, SAMPLE_RATE, max_true_peak=ceiling), SAMPLE_RATE, seconds, out)
        shipped = decode_audio(out)
        peak = measure(shipped, SAMPLE_RATE)[1] if shipped is not None else float("-inf")
        over = peak - (MAX_TRUE_PEAK - SHIPPED_MARGIN_DB)
        if over <= 0:
            return
        ceiling -= over
    raise RuntimeError(f"{out.name}: the voice track's true peak stays above {MAX_TRUE_PEAK} dBTP after AAC")


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
