"""Every clip's voice in the default lecture ships under -1 dBTP at -16 LUFS, at the lowest and highest rate.

``make lecture`` (1080p60) once stopped after ten minutes of rendering on a voice that never
mastered: 60 fps frame-rounds the beats, which makes a slightly different track from the 480p one,
and that one landed on the edge of the limit. A clip's voice needs only its plan's beats, not its
frames, so this plans the default lecture as the build does (kept under ``media/plans``, where a
build finds them) and masters each clip's voice at the length the build gives it, measured with
ffmpeg's meter. Beats are timed in frames, so a quality's tracks depend only on its frame rate.

The rates' tracks hold the same speech; what moves is where each beat starts, by under a frame, and so
where AAC's 1024-sample frames fall against it, which moves the decoded peaks by tenths of a dB. The
build's mastering measures what it ships and encodes again until it is under the ceiling, or stops with
one line (:func:`production.media.soundtrack.master_track`). So the two ends of the offered rates are
mastered here: 60 fps (h and k, ``make lecture``'s), planned once, and 15 fps (l), from the scene runs'
beats (``tests/scenes/test_voice_at_15_fps.py``). 30 fps (m) is not planned again: it cost 100 s of
the suite's 15 minutes for a third alignment of the same speech.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from lecture.clips import LECTURE
from lecture.config import load_config
from narration.beats import BeatsRecord
from production.media.audio import MAX_TRUE_PEAK, SAMPLE_RATE, TARGET_LUFS, TOLERANCE_LU
from production.media.meter import ebur128
from production.media.soundtrack import decode_audio, master_voice
from production.options import QUALITIES, REPO, RenderOptions
from production.render.planning import plan, plan_key
from production.render.timeline import Timeline

pytestmark = [pytest.mark.render, pytest.mark.xdist_group("lecture-voices")]
"""One worker takes both frame rates, one after the other: the second reads the voice the first made
(media/voice). Split across both workers, the fresh-clone suite took 90 s longer at stop 67 (each
synthesising every line again is the likely cause; it was not measured apart)."""

OFFERED = ("l", "m", "h", "k")
"""The qualities the README offers."""
BY_RATE = {QUALITIES[q].frame_rate: q for q in reversed(OFFERED)}
"""One quality for each frame rate among them (the first named)."""
LOW_RATE = QUALITIES["l"].frame_rate
"""The scene tests' renders' rate (15 fps)."""


@cache
def planned(quality: str) -> dict[str, Timeline]:
    """The default lecture planned at ``quality`` as ``make lecture`` plans it (kept plans read back)."""
    config, media = load_config(None), REPO / "media"
    options, settings = RenderOptions(quality), config.settings().replace(voice_cache=media / "voice")
    keys = {c.scene: plan_key(c, options, config.fingerprint(c), settings) for c in config.clips}
    return plan(config.clips, options, media, media / ".work" / f"voice-test-{quality}", settings, 1, keys)


def test_the_offered_qualities_have_three_frame_rates():
    assert sorted(BY_RATE) == [15, 30, 60] and QUALITIES["h"].frame_rate == QUALITIES["k"].frame_rate


def ships(scene: str, record: BeatsRecord, seconds: float, out: Path, quality: str) -> str:
    """Master ``record`` over ``seconds`` into ``out`` as a build does; its report line, if it ships."""
    rounds = master_voice(record, seconds, out)
    assert rounds > 0, f"{scene}: silent at {quality}"
    loudness, peak = ebur128(decode_audio(out), SAMPLE_RATE)
    report = f"{scene} at {quality}: {rounds} encoding(s), {loudness:.2f} LUFS, {peak:.2f} dBTP"
    assert peak <= MAX_TRUE_PEAK, report
    assert abs(loudness - TARGET_LUFS) <= TOLERANCE_LU, report
    return report


HIGHEST = BY_RATE[max(BY_RATE)]
"""The quality of the highest offered frame rate (h): ``make lecture``'s."""


def test_every_clips_voice_ships_under_the_ceiling_at_the_highest_rate(tmp_path: Path):
    quality = HIGHEST
    timelines, report = planned(quality), []
    assert sorted(timelines) == sorted(c.scene for c in LECTURE)
    for scene, timeline in timelines.items():
        seconds = sum(frames for frames, _ in timeline.animations) / timeline.frame_rate  # as the build
        record = BeatsRecord(scene, timeline.duration, timeline.record)
        report.append(ships(scene, record, seconds, tmp_path / f"{scene}.m4a", quality))
    print("\n".join(report))
