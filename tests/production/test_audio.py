"""The audio track: laying clips, loudness against ffmpeg's ebur128 and closed forms, limiting, muxing."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import av
import av.filter
import numpy as np
import pytest
from scipy.io import wavfile

from narration import engines, voice
from production.media.aac import encode_track, mux_track, video_seconds
from production.media.audio import SAMPLE_RATE, lay_track, limit, measure, normalise, true_peak
from production.media.meter import ebur128

SR = SAMPLE_RATE
ENGINE_NAMED = {"piper": engines.PIPER_ENGINE, "festival": engines.FESTIVAL_ENGINE}
needs_festival = pytest.mark.skipif(shutil.which("text2wave") is None, reason=engines.INSTALL)


def sine(seconds: float, amplitude: float, freq: float = 997.0, sr: int = SR, phase: float = 0.0):
    return amplitude * np.sin(2 * np.pi * freq * np.arange(round(seconds * sr)) / sr + phase)


def speech_like(seconds: float, seed: int = 0) -> np.ndarray:
    """Voiced syllables (harmonics of a gliding f0) about four a second, pauses, and a few sharp plosives."""
    rng = np.random.default_rng(seed)
    t = np.arange(round(seconds * SR)) / SR
    f0 = 160 + 40 * np.sin(2 * np.pi * 0.7 * t)
    phase = 2 * np.pi * np.cumsum(f0) / SR
    voiced = sum(np.sin(k * phase) / k for k in range(1, 12))
    syllables = np.clip(np.sin(2 * np.pi * 2.1 * t), 0, None) ** 2 * (np.sin(2 * np.pi * 0.3 * t) > -0.6)
    x = 0.2 * voiced * syllables
    for at in rng.choice(t.size - 200, size=int(seconds), replace=False):
        x[at : at + 40] += 0.35 * rng.standard_normal(40) * np.hanning(40)
    return x


def write_wav(path: Path, sr: int, x: np.ndarray) -> Path:
    wavfile.write(path, sr, x.astype(np.float32))
    return path


# --- the references themselves ---------------------------------------------------------------------


def test_references_agree_with_the_closed_form() -> None:
    # BS.1770: a full-scale 1 kHz sine in one channel reads -3.01 LUFS, so -20 dBFS reads -23.01.
    x = sine(5.0, 0.1)
    for loudness, peak in (ebur128(x, SR), measure(x, SR)):
        assert loudness == pytest.approx(-23.01, abs=0.06)
        assert peak == pytest.approx(-20.0, abs=0.05)


def test_true_peak_sees_between_the_samples() -> None:
    # A sine at a quarter of the rate, sampled 45 degrees off its crests: the samples reach
    # only 0.707 of the amplitude, the waveform between them the full amplitude.
    x = sine(1.0, 0.5, freq=SR / 4, phase=np.pi / 4)
    x[:2400] *= np.linspace(0, 1, 2400)  # fade in and out: an abrupt start rings
    x[-2400:] *= np.linspace(1, 0, 2400)
    assert 20 * np.log10(np.abs(x).max()) == pytest.approx(-9.03, abs=0.01)
    assert true_peak(x) == pytest.approx(-6.02, abs=0.02)
    assert ebur128(x, SR)[1] == pytest.approx(-6.02, abs=0.1)


def test_peak_envelope_equals_the_oversampled_signal() -> None:
    # The polyphase FFT branches give what scipy's 4x resampler gives, sample for sample.
    from scipy.signal import resample_poly

    from production.media.audio import _INTERPOLATOR, OVERSAMPLING, _peak_envelope

    rng = np.random.default_rng(7)
    for shape in [(48_000,), (9_000, 2), (5,), (600_000,)]:  # the last in three blocks
        x = rng.standard_normal(shape) * 0.3
        up = np.abs(resample_poly(x, OVERSAMPLING, 1, axis=0, window=_INTERPOLATOR))
        per_sample = np.maximum(np.abs(x), up.reshape(x.shape[0], OVERSAMPLING, *x.shape[1:]).max(axis=1))
        want = per_sample if x.ndim == 1 else per_sample.max(axis=1)
        np.testing.assert_allclose(_peak_envelope(x), want, rtol=0, atol=1e-12)


def test_a_limited_signals_estimated_peak_is_its_measured_one_within_a_twentieth_of_a_db() -> None:
    # normalise() steers its search by the estimate and ends only on the exact measure; the estimate
    # must be close for the search to take as few rounds as the exact one did.
    from production.media.audio import _apply, _estimated_peak, _limiter_gain, _peak_db, _peak_envelope

    rng = np.random.default_rng(5)
    bursts = rng.standard_normal(SR * 4) * np.repeat(rng.uniform(0.02, 0.6, 40), SR // 10)
    envelope = _peak_envelope(bursts)
    for ceiling in (-6.0, -3.0, 0.0):
        gain = _limiter_gain(envelope, SR, ceiling)
        exact = _peak_db(_apply(bursts, gain) * 10 ** (2.0 / 20))
        assert _estimated_peak(envelope, gain, 2.0) == pytest.approx(exact, abs=0.05)


def test_silence_and_short_signals() -> None:
    assert measure(np.zeros(SR), SR) == (-np.inf, -np.inf)
    assert measure(sine(0.3, 0.5), SR)[0] == -np.inf  # shorter than one 400 ms block


# --- laying a track ----------------------------------------------------------------------------------


def test_lay_track_places_resamples_and_cuts(tmp_path: Path) -> None:
    low = write_wav(tmp_path / "low.wav", 16000, sine(0.5, 0.25, freq=300, sr=16000))
    same = write_wav(tmp_path / "same.wav", SR, np.full(SR // 2, 0.125))
    track = lay_track([(low, 0.25), (same, 0.5), (same, 1.8)], duration=2.0)
    assert track.dtype == np.float32 and track.shape == (2 * SR,)
    assert not track[: SR // 4].any()
    expected = sine(0.5, 0.25, freq=300)
    body = slice(SR // 4 + 200, SR // 4 + SR // 2 - 200)  # away from the resampler's edges
    second_clip = 0.125 * (np.arange(SR)[body] >= SR // 2)
    np.testing.assert_allclose(track[body], expected[200:-200] + second_clip, atol=2e-3)
    np.testing.assert_allclose(track[SR + 1000 : round(1.8 * SR)], 0, atol=1e-6)
    np.testing.assert_allclose(track[round(1.8 * SR) :], 0.125, atol=1e-6)  # cut at the end


def test_lay_track_exact_length_and_bad_input(tmp_path: Path) -> None:
    clip = write_wav(tmp_path / "c.wav", SR, np.ones(10))
    assert lay_track([], 1.2345).size == round(1.2345 * SR)
    assert lay_track([(clip, 5.0)], 1.0).size == SR  # starts after the end: nothing laid
    with pytest.raises(ValueError, match="c.wav starts at -0.1 s"):
        lay_track([(clip, -0.1)], 1.0)


# --- normalising -------------------------------------------------------------------------------------


def assert_on_target(y: np.ndarray, tolerance: float = 0.5) -> None:
    for name, (loudness, peak) in {"pyloudnorm": measure(y, SR), "ebur128": ebur128(y, SR)}.items():
        assert loudness == pytest.approx(-16.0, abs=tolerance), name
        assert peak <= -1.0, name


def test_normalise_a_quiet_sine_by_gain_alone() -> None:
    x = sine(4.0, 0.05)
    y = normalise(x, SR)
    assert_on_target(y, tolerance=0.1)
    np.testing.assert_allclose(y / x.max(), x / x.max() * (y.max() / x.max()), atol=1e-5)  # pure gain


def test_normalise_speech_with_sharp_peaks() -> None:
    x = speech_like(12.0)
    assert true_peak(x) - measure(x, SR)[0] > 15  # the peaks stop plain gain from reaching -16 LUFS
    y = normalise(x, SR)
    assert y.dtype == np.float32 and y.shape == x.shape
    assert_on_target(y)


def test_normalise_stereo_shares_one_gain() -> None:
    x = speech_like(6.0)
    stereo = np.stack([x, 0.5 * x], axis=1)
    y = normalise(stereo, SR)
    assert_on_target(y)
    np.testing.assert_allclose(y[:, 1], 0.5 * y[:, 0], atol=1e-6)


@pytest.mark.parametrize("engine", ["piper", pytest.param("festival", marks=needs_festival)])
def test_normalise_a_draft_utterance(tmp_path: Path, engine: str) -> None:
    wav = voice.synthesise(
        "The softmax turns scores into weights that add up to one.", tmp_path, ENGINE_NAMED[engine]
    )
    track = lay_track([(wav, 0.5)], duration=5.0)
    assert_on_target(normalise(track, SR))


def test_an_impossible_target_says_so() -> None:
    with pytest.raises(ValueError, match="cannot reach -16.0 LUFS with true peaks under -30.0 dBTP"):
        normalise(speech_like(3.0), SR, max_true_peak=-30.0)


def test_silence_comes_back_unchanged() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for x in (np.zeros(3 * SR, dtype=np.float32), np.zeros(0), sine(0.2, 0.3)):
            np.testing.assert_array_equal(normalise(x, SR), x.astype(np.float32))


def test_limiter_is_smooth_and_local() -> None:
    x = sine(3.0, 0.3, freq=220)
    x[SR] += 2.0  # one spike at 1 s
    y = limit(x, SR, -1.0)
    assert true_peak(y) <= -1.0 + 1e-6
    gain = y / np.where(np.abs(x) > 0.05, x, np.nan)
    assert np.nanmax(np.abs(np.diff(gain[SR - 2000 : SR + 2000]))) < 0.02  # no steps, only ramps
    far = np.r_[0 : SR - SR // 50, SR + SR // 2 : x.size]  # 20 ms before, 500 ms after
    np.testing.assert_allclose(y[far], x[far], atol=1e-3)


# --- muxing ----------------------------------------------------------------------------------------


def make_video(path: Path, seconds: float = 2.0, fps: int = 15) -> Path:
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for i in range(round(seconds * fps)):
            image = np.full((48, 64, 3), (i * 8) % 256, dtype=np.uint8)
            image[:, 2 * i % 60 : 2 * i % 60 + 4] = 255
            for packet in stream.encode(av.VideoFrame.from_ndarray(image, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return path


def video_packets(path: Path) -> list[tuple[bytes, int | None, int | None]]:
    with av.open(str(path)) as container:
        return [(bytes(p), p.pts, p.dts) for p in container.demux(video=0) if p.size]


def video_frames(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as container:
        return [f.to_ndarray(format="yuv420p") for f in container.decode(video=0)]


def decoded_audio(path: Path) -> tuple[int, np.ndarray]:
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        chunks = [f.to_ndarray() for f in container.decode(stream)]
        return stream.rate, np.concatenate(chunks, axis=1).T


def mux_audio(video: Path, samples: np.ndarray, sr: int, out: Path) -> None:
    """``out``: ``video``'s frames, copied, beside ``samples`` as AAC, the way a build voices a clip.

    The voice is cut or padded to the video's length and encoded alone
    (``encode_track``), then its packets are laid beside the video's (``mux_track``).
    """
    track = out.with_name(f".{out.stem}.voice.m4a")
    try:
        encode_track(samples, sr, video_seconds(video), track)
        mux_track(video, track, out)
    finally:
        track.unlink(missing_ok=True)


def test_mux_copies_the_video_and_adds_aac(tmp_path: Path) -> None:
    video = make_video(tmp_path / "clip.mp4")
    out = tmp_path / "clip-voiced.mp4"
    voice = normalise(speech_like(2.0), SR)
    mux_audio(video, voice, SR, out)
    with av.open(str(out)) as container:
        kinds = [(s.type, s.codec_context.name) for s in container.streams]
        audio = container.streams.audio[0]
        assert (audio.rate, audio.codec_context.channels) == (SR, 1)
        assert audio.codec_context.bit_rate <= 170_000  # the fast coder spends less on simple sounds
    assert kinds == [("video", "h264"), ("audio", "aac")]
    assert video_packets(out) == video_packets(video)  # same bytes, same time stamps: no re-encode
    frames = video_frames(out)
    assert len(frames) == 30
    assert all(np.array_equal(a, b) for a, b in zip(frames, video_frames(video), strict=True))
    rate, samples = decoded_audio(out)
    assert abs(samples.shape[0] - 2.0 * SR) <= 1024  # within one AAC frame of the video
    n = min(samples.shape[0], voice.size)
    error = samples[:n, 0] - voice[:n]
    assert 10 * np.log10(np.sum(voice[:n] ** 2) / np.sum(error**2)) > 30  # the decoded voice is the voice
    for loudness, _ in (measure(samples, rate), ebur128(samples, rate)):
        assert loudness == pytest.approx(-16.0, abs=1.0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clip-voiced.mp4", "clip.mp4"]


def test_mux_fits_the_audio_to_the_video_and_takes_stereo(tmp_path: Path) -> None:
    video = make_video(tmp_path / "clip.mp4")
    out = tmp_path / "out.mp4"
    for seconds in (0.7, 3.5):  # too short: padded; too long: cut
        x = normalise(speech_like(seconds), SR) if seconds > 1 else np.zeros(round(seconds * SR))
        mux_audio(video, np.stack([x, x], axis=1), SR, out)
        rate, samples = decoded_audio(out)
        assert samples.shape[1] == 2 and abs(samples.shape[0] - 2.0 * SR) <= 1024


def test_a_failed_mux_leaves_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "clip.mp4"
    bad.write_bytes(b"not a video")
    with pytest.raises(av.error.InvalidDataError):
        mux_audio(bad, np.zeros(SR), SR, tmp_path / "out.mp4")
    assert [p.name for p in tmp_path.iterdir()] == ["clip.mp4"]
