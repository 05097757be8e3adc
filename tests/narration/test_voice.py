"""The draft voice and the recording checks: festival output, WAV reading, silence, clipping, speech spans."""

from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest
from scipy.io import wavfile

from narration import engines, festival, voice
from narration.engines import FESTIVAL_ENGINE, VoiceError
from narration.recordings import BadRecording, check_recording, speech_onsets, wav_info
from narration.speakable import speakable
from narration.voice import synthesise

needs_festival = pytest.mark.skipif(shutil.which("festival") is None, reason=engines.INSTALL)

SR = 48000
TWO_SENTENCES = "The query meets every key. The weights add up to one."


def sine(seconds: float, *, freq: float = 440.0, amplitude: float = 0.5, sr: int = SR) -> np.ndarray:
    return amplitude * np.sin(2 * np.pi * freq * np.arange(round(seconds * sr)) / sr)


def write_pcm24(path: Path, sr: int, x: np.ndarray) -> None:
    """A 24-bit PCM WAV written by hand (scipy cannot write 24-bit)."""
    frames = x.reshape(len(x), -1)
    channels = frames.shape[1]
    ints = np.round(frames * (2**23 - 1)).astype("<i4")
    data = ints.view(np.uint8).reshape(-1, 4)[:, :3].tobytes()
    fmt = struct.pack("<HHIIHH", 1, channels, sr, sr * channels * 3, channels * 3, 24)
    body = b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt + b"data" + struct.pack("<I", len(data)) + data
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)


# --- speakable ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "spoken"),
    [
        ("Effective k = 1.", "Effective k equals 1."),
        ("k_eff = N", "k effective equals N"),
        ("τ and σ", "tau and sigma"),
        ("tau stays tau", "tau stays tau"),
        ("e^{H} over n^2", "e to the H over n squared"),
        ("K^T", "K transpose"),
        ("O(n^2) memory", "O of n squared memory"),
        ("scores (one per key) add up", "scores, one per key, add up"),
        (r"\sqrt{d_k}", "square root of d k"),
        (r"\frac{1}{2}", "1 over 2"),
        ("QK^T/√d", "QK transpose over square root of d"),
        ('the "query" vector', "the query vector"),
        ("it’s 0.01 → 100", "it's 0.01 to 100"),
        ("σ²", "sigma squared"),
        ("Nadaraya–Watson regression", "Nadaraya Watson regression"),
        ("one rule — three regimes", "one rule, three regimes"),
    ],
)
def test_speakable(written: str, spoken: str) -> None:
    assert speakable(written) == spoken


def test_speakable_is_ascii() -> None:
    assert speakable("α β γ δ ε θ λ μ π ρ σ τ φ ω ≈ ≤ ≥ × · ∞ “x” ‘y’ …").isascii()


# --- synthesis ------------------------------------------------------------------------------------


@needs_festival
def test_synthesise_is_cached_deterministic_mono_16_bit(tmp_path: Path, monkeypatch) -> None:
    text = "Attention is a weighted average of the values."
    first = synthesise(text, tmp_path / "a", FESTIVAL_ENGINE)
    second = synthesise(text, tmp_path / "b", FESTIVAL_ENGINE)
    assert first.name == hashlib.sha256(f"{FESTIVAL_ENGINE.key()}\0{text}".encode()).hexdigest() + ".wav"
    assert first.read_bytes() == second.read_bytes()
    with wave.open(str(first)) as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
    assert sorted(p.name for p in first.parent.iterdir()) == [first.name]  # no temp files left

    def engine_must_not_run(*args, **kwargs):
        raise AssertionError("the engine ran although the audio was cached")

    monkeypatch.setattr(engines.FestivalEngine, "speak", engine_must_not_run)
    assert synthesise(text, tmp_path / "a", FESTIVAL_ENGINE) == first


@needs_festival
def test_synthesise_trims_silence_to_the_speech(tmp_path: Path) -> None:
    sr, x = wav_info(synthesise(TWO_SENTENCES, tmp_path, FESTIVAL_ENGINE))
    spans = speech_onsets(x, sr)
    assert spans[0][0] <= 0.035
    assert 0.03 <= x.size / sr - spans[-1][1] <= 0.08


@needs_festival
def test_speech_rate_is_about_150_words_a_minute(tmp_path: Path) -> None:
    sentences = [
        "Attention replaces fixed weights with weights that depend on the query.",
        "The temperature controls how sharp that distribution is.",
        "The cache keeps every key and value, so memory grows with the length of the sequence.",
    ]
    words = sum(len(s.split()) for s in sentences)
    wavs = [synthesise(s, tmp_path, FESTIVAL_ENGINE) for s in sentences]
    seconds = sum(wav_info(p)[1].size / wav_info(p)[0] for p in wavs)
    assert 140 <= words / seconds * 60 <= 160


@needs_festival
def test_a_failed_write_leaves_no_file(tmp_path: Path, monkeypatch) -> None:
    def broken_write(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(voice.wavfile, "write", broken_write)
    with pytest.raises(OSError, match="disk full"):
        synthesise("One more sentence.", tmp_path, FESTIVAL_ENGINE)
    assert list(tmp_path.iterdir()) == []


@needs_festival
def test_one_festival_speaks_every_text_as_text2wave_does(tmp_path: Path) -> None:
    """The running festival writes the very bytes that ``text2wave`` writes, text after text."""
    texts = [TWO_SENTENCES, "Hi.", 'A "quoted" word, k effective, and tau 0.5.', TWO_SENTENCES]
    for k, text in enumerate(texts):
        (tmp_path / f"{k}.txt").write_text(text)
        festival.speak(engines.FESTIVAL_SETUP, tmp_path / f"{k}.txt", tmp_path / f"{k}-kept.wav")
        alone = subprocess.run(
            ["text2wave", "-eval", engines.FESTIVAL_SETUP, "-o", str(tmp_path / f"{k}-alone.wav")],
            input=text,
            text=True,
            capture_output=True,
            check=True,
        )
        assert not alone.stderr.strip()
        assert (tmp_path / f"{k}-kept.wav").read_bytes() == (tmp_path / f"{k}-alone.wav").read_bytes(), text
    assert len(festival.RUNNING.engines()) == 1  # one process


@needs_festival
def test_a_festival_that_stops_is_started_again(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("Hello again.")
    festival.speak(engines.FESTIVAL_SETUP, tmp_path / "t.txt", tmp_path / "a.wav")
    running = festival.RUNNING.running(engines.FESTIVAL_SETUP)
    running.process.kill()
    running.process.wait()
    festival.speak(engines.FESTIVAL_SETUP, tmp_path / "t.txt", tmp_path / "b.wav")
    assert (tmp_path / "a.wav").read_bytes() == (tmp_path / "b.wav").read_bytes()
    assert festival.RUNNING.running(engines.FESTIVAL_SETUP) is not running


def test_missing_engine_names_the_package(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(engines.shutil, "which", lambda name: None)
    with pytest.raises(VoiceError, match=engines.INSTALL):
        synthesise("Hello.", tmp_path, FESTIVAL_ENGINE)


@needs_festival
def test_missing_voice_names_the_package(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(engines, "FESTIVAL_SETUP", "(voice_no_such_voice_hts)")
    with pytest.raises(VoiceError, match="festvox-us-slt-hts") as caught:
        synthesise("Hello.", tmp_path, FESTIVAL_ENGINE)
    assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_nothing_to_say(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="nothing to say"):
        synthesise(" ( ) ", tmp_path)


# --- reading WAV files ----------------------------------------------------------------------------


def test_wav_info_reads_every_sample_format(tmp_path: Path) -> None:
    x = sine(0.25, amplitude=0.5)
    writers = {
        "pcm16": lambda p: wavfile.write(p, SR, np.round(x * 32767).astype(np.int16)),
        "pcm24": lambda p: write_pcm24(p, SR, x),
        "pcm32": lambda p: wavfile.write(p, SR, np.round(x * (2**31 - 1)).astype(np.int32)),
        "float32": lambda p: wavfile.write(p, SR, x.astype(np.float32)),
        "float64": lambda p: wavfile.write(p, SR, x),
        "stereo": lambda p: wavfile.write(p, SR, np.stack([x, x], axis=1).astype(np.float32)),
        "stereo24": lambda p: write_pcm24(p, SR, np.stack([x, x], axis=1)),
    }
    for name, write in writers.items():
        path = tmp_path / f"{name}.wav"
        write(path)
        sr, got = wav_info(path)
        assert sr == SR and got.dtype == np.float32 and got.ndim == 1, name
        np.testing.assert_allclose(got, x, atol=1e-4, err_msg=name)


def test_wav_info_mixes_stereo_down(tmp_path: Path) -> None:
    x = sine(0.1)
    wavfile.write(tmp_path / "lr.wav", SR, np.stack([x, np.zeros_like(x)], axis=1).astype(np.float32))
    np.testing.assert_allclose(wav_info(tmp_path / "lr.wav")[1], x / 2, atol=1e-6)


def damaged_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    good = tmp_path / "good.wav"
    wavfile.write(good, SR, np.round(sine(1.0) * 32767).astype(np.int16))
    files = {
        "text": ("notes.wav", b"These are my lecture notes, not audio.\n", "not a readable WAV"),
        "header": ("cut_header.wav", good.read_bytes()[:20], "WAV"),
        "data": ("cut_data.wav", good.read_bytes()[:5000], "truncated"),
        "zero": ("zero.wav", b"", "WAV"),
    }
    out = {}
    for key, (name, data, what) in files.items():
        (tmp_path / name).write_bytes(data)
        out[key] = (tmp_path / name, what)
    wavfile.write(tmp_path / "empty.wav", SR, np.zeros(0, np.int16))
    out["empty"] = (tmp_path / "empty.wav", "no audio samples")
    out["missing"] = (tmp_path / "missing.wav", "no such file")
    return out


@pytest.mark.parametrize("case", ["text", "header", "data", "zero", "empty", "missing"])
def test_bad_files_raise_one_clear_line(tmp_path: Path, case: str) -> None:
    path, what = damaged_files(tmp_path)[case]
    for reader in (wav_info, check_recording):
        with pytest.raises(BadRecording, match=what) as caught:
            reader(path)
        message = str(caught.value)
        assert message.startswith(path.name) and "\n" not in message
    assert issubclass(BadRecording, ValueError)


# --- checking recordings --------------------------------------------------------------------------


def test_a_good_recording_returns_its_duration(tmp_path: Path) -> None:
    wavfile.write(tmp_path / "take.wav", SR, np.round(sine(2.5, amplitude=0.3) * 32767).astype(np.int16))
    assert check_recording(tmp_path / "take.wav") == pytest.approx(2.5)


@pytest.mark.parametrize(
    "samples",
    [np.zeros(SR), sine(2.0, amplitude=10 ** (-50 / 20)), np.concatenate([[0.3], np.zeros(SR)])],
    ids=["digital silence", "peak -50 dBFS", "one click"],
)
def test_silent_recordings_are_rejected(tmp_path: Path, samples: np.ndarray) -> None:
    wavfile.write(tmp_path / "quiet.wav", SR, samples.astype(np.float32))
    with pytest.raises(BadRecording, match=r"^quiet\.wav: silent.*record again$"):
        check_recording(tmp_path / "quiet.wav")


@pytest.mark.parametrize(
    "samples",
    [
        np.clip(sine(1.0, amplitude=1.5), -1, 1),
        np.stack([np.clip(sine(1.0, amplitude=1.5), -1, 1), sine(1.0, amplitude=0.2)], axis=1),
    ],
    ids=["mono", "one stereo channel"],
)
def test_clipped_recordings_are_rejected(tmp_path: Path, samples: np.ndarray) -> None:
    wavfile.write(tmp_path / "hot.wav", SR, np.round(samples * 32767).astype(np.int16))
    with pytest.raises(BadRecording, match=r"^hot\.wav: clipped.*lower the input gain"):
        check_recording(tmp_path / "hot.wav")


def test_rare_single_full_scale_samples_are_not_clipping(tmp_path: Path) -> None:
    x = sine(2.0, amplitude=0.4)
    x[::5000] = 1.0  # 20 isolated samples, 0.02 %
    wavfile.write(tmp_path / "peaky.wav", SR, x.astype(np.float32))
    assert check_recording(tmp_path / "peaky.wav") == pytest.approx(2.0)


# --- speech spans ----------------------------------------------------------------------------------


def bursts(layout: list[tuple[float, float]], total: float) -> np.ndarray:
    rng = np.random.default_rng(0)
    x = 10 ** (-65 / 20) * rng.standard_normal(round(total * SR))  # a quiet room
    for start, end in layout:
        i, j = round(start * SR), round(end * SR)
        x[i:j] += sine(end - start, freq=220.0, amplitude=0.4)[: j - i]
    return x


def test_speech_onsets_on_tone_bursts() -> None:
    layout = [(0.5, 1.0), (1.6, 2.4), (2.5, 3.0)]  # pauses of 0.6 s and 0.1 s
    x = bursts(layout, 3.5)
    merged = speech_onsets(x, SR)
    assert len(merged) == 2
    np.testing.assert_allclose(merged, [(0.5, 1.0), (1.6, 3.0)], atol=0.011)
    np.testing.assert_allclose(speech_onsets(x, SR, min_pause=0.05), layout, atol=0.011)


def test_speech_onsets_of_silence_is_empty() -> None:
    assert speech_onsets(np.zeros(SR), SR) == []
    assert speech_onsets(np.zeros(0), SR) == []


@needs_festival
def test_speech_onsets_split_two_spoken_sentences(tmp_path: Path) -> None:
    sr, x = wav_info(synthesise(TWO_SENTENCES, tmp_path, FESTIVAL_ENGINE))
    spans = speech_onsets(x, sr)
    assert len(spans) == 2
    (_, end1), (start2, end2) = spans
    assert start2 - end1 >= 0.25
    assert 0.4 <= end1 / end2 <= 0.6  # the two sentences have six and six words
