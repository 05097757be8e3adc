"""The neural draft voice: piper kept running, reproducible audio, pace, cache key, the voice check."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import wave
from pathlib import Path

import pytest

from lecture.settings import Voice
from narration import engines, piper
from narration.engines import FESTIVAL_ENGINE, PIPER_ENGINE, VoiceError
from narration.kept import Kept
from narration.recordings import speech_onsets, wav_info
from narration.voice import synthesise

REPO = Path(__file__).resolve().parents[2]
TWO_SENTENCES = "The query meets every key. The weights add up to one."


def test_piper_audio_is_reproducible_mono_16_bit_and_cached(tmp_path: Path, monkeypatch) -> None:
    text = "Attention is a weighted average of the values."
    first = synthesise(text, tmp_path / "a")
    second = synthesise(text, tmp_path / "b")  # spoken again, from nothing cached
    assert first.name == hashlib.sha256(f"{PIPER_ENGINE.key()}\0{text}".encode()).hexdigest() + ".wav"
    assert first.read_bytes() == second.read_bytes()
    with wave.open(str(first)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 22050)
    assert sorted(p.name for p in first.parent.iterdir()) == [first.name]  # no temp files left

    def engine_must_not_run(*args, **kwargs):
        raise AssertionError("the engine ran although the audio was cached")

    monkeypatch.setattr(engines.PiperEngine, "speak", engine_must_not_run)
    assert synthesise(text, tmp_path / "a") == first


def test_the_cache_key_names_voice_digests_settings_and_version() -> None:
    key = PIPER_ENGINE.key()
    assert all(d in key for d in piper.VOICE_MD5.values())
    assert "piper-tts 1.8.0" in key and "length_scale=1.35" in key
    assert key != FESTIVAL_ENGINE.key()
    assert engines.engine_for(Voice.named("piper")) is PIPER_ENGINE
    with pytest.raises(ValueError, match="'espeak' is not a valid Voice"):
        Voice.named("espeak")


def test_piper_speaks_at_about_150_words_a_minute(tmp_path: Path) -> None:
    sentences = [
        "Attention replaces fixed weights with weights that depend on the query.",
        "The temperature controls how sharp that distribution is.",
        "The cache keeps every key and value, so memory grows with the length of the sequence.",
    ]
    words = sum(len(s.split()) for s in sentences)
    wavs = [synthesise(s, tmp_path) for s in sentences]
    seconds = sum(wav_info(p)[1].size / wav_info(p)[0] for p in wavs)
    assert 140 <= words / seconds * 60 <= 165


def test_piper_pauses_between_sentences_and_trims_the_ends(tmp_path: Path) -> None:
    sr, x = wav_info(synthesise(TWO_SENTENCES, tmp_path))
    spans = speech_onsets(x, sr)
    assert spans[0][0] <= 0.035 and 0.02 <= x.size / sr - spans[-1][1] <= 0.1
    gaps = [b[0] - a[1] for a, b in zip(spans, spans[1:], strict=False)]
    assert max(gaps) >= 0.3  # the sentence pause (piper's --sentence-silence)


def test_one_piper_speaks_every_text_and_a_stopped_one_is_started_again(tmp_path: Path) -> None:
    piper.speak("Hello again.", tmp_path / "a.wav", engines.PIPER)
    running = piper.RUNNING.running(engines.PIPER)
    piper.speak("And once more.", tmp_path / "b.wav", engines.PIPER)
    assert piper.RUNNING.running(engines.PIPER) is running  # one process for both texts
    running.process.kill()
    running.process.wait()
    piper.speak("Hello again.", tmp_path / "c.wav", engines.PIPER)
    assert (tmp_path / "a.wav").read_bytes() == (tmp_path / "c.wav").read_bytes()
    assert piper.RUNNING.running(engines.PIPER) is not running
    assert not running.folder.exists() and running.process.stderr.closed  # the dead one left nothing behind


def test_a_missing_piper_is_one_line_naming_the_install(tmp_path: Path, monkeypatch) -> None:
    real = piper.importlib.util.find_spec
    monkeypatch.setattr(
        piper.importlib.util, "find_spec", lambda name: None if name == "piper" else real(name)
    )
    monkeypatch.setattr(piper, "RUNNING", Kept(piper.Piper))  # no piper running yet
    with pytest.raises(VoiceError, match="piper is not installed: run make setup") as caught:
        synthesise("A text never spoken before in this cache.", tmp_path)
    assert "\n" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def run_check() -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(REPO / "tools" / "check_voice.py")], capture_output=True, text=True, check=False
    )


def test_the_installed_voice_has_the_catalogue_digests() -> None:
    done = run_check()
    assert done.returncode == 0, done.stderr
    assert "match Piper's catalogue" in done.stdout


def test_a_voice_file_with_another_digest_is_refused_in_one_line(tmp_path: Path, monkeypatch, capsys) -> None:
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import check_voice
    finally:
        sys.path.remove(str(REPO / "tools"))
    model, config = tmp_path / "en_US-joe-medium.onnx", tmp_path / "en_US-joe-medium.onnx.json"
    model.write_bytes(b"not the model")
    config.write_bytes(b"{}")
    monkeypatch.setattr(check_voice, "voice_files", lambda: (model, config))
    assert check_voice.main() == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "en_US-joe-medium.onnx has md5" in err and "refusing" in err


def test_a_missing_piper_package_is_one_line_before_anything_is_spoken(tmp_path: Path, monkeypatch) -> None:
    def not_installed(name: str) -> str:
        raise piper.importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(piper.importlib.metadata, "version", not_installed)
    piper.engine_version.cache_clear()
    try:
        with pytest.raises(VoiceError, match="piper-tts is not installed: run make setup") as caught:
            synthesise("Anything at all.", tmp_path)
    finally:
        piper.engine_version.cache_clear()
    assert "\n" not in str(caught.value) and list(tmp_path.iterdir()) == []
