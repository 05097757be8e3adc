"""Narration: caption chunks that follow subtitle practice, cues timed to speech, recordings and checks."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.io import wavfile

from narration import engines, recordings
from narration.narrator import (
    LINE,
    NarrationSettings,
    Narrator,
    split_cues,
    wrap_cue,
)

needs_festival = pytest.mark.skipif(
    shutil.which("text2wave") is None, reason=f"needs festival: {engines.INSTALL}"
)

TEXT = (
    "Start cold. At a tiny temperature the entropy bonus is worth almost nothing, so all the weight "
    "lands on the best item. The entropy is zero and the effective number of items is one: the argmax "
    "regime, as relevant as it gets, and brittle."
)


def check_cue_text(text: str) -> None:
    lines = text.split("\n")
    assert 1 <= len(lines) <= 2 and all(len(line) <= LINE for line in lines), text


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=14)


@given(st.lists(st.tuples(words, st.sampled_from([" ", " ", ", ", ". ", "; "])), min_size=1, max_size=80))
@settings(max_examples=200, deadline=None)
def test_chunks_always_fit_two_lines_of_42(parts):
    text = "".join(w.capitalize() + sep for w, sep in parts).strip()
    chunks = split_cues(text)
    assert " ".join(chunks).split() == text.split()  # nothing lost, nothing reordered
    for chunk in chunks:
        check_cue_text(wrap_cue(chunk))


def test_wrap_balances_two_lines_and_refuses_what_cannot_fit():
    assert wrap_cue("short") == "short"
    two = wrap_cue("the weights that softmax gives at the current temperature")
    top, bottom = two.split("\n")
    assert abs(len(top) - len(bottom)) < 12
    assert wrap_cue("x" * 43) is None


def test_sentences_stay_whole_where_they_fit():
    chunks = split_cues("One rule, three regimes. The temperature trades relevance against spread.")
    assert chunks == [
        "One rule, three regimes. The temperature trades relevance against spread."
    ] or chunks == [
        "One rule, three regimes.",
        "The temperature trades relevance against spread.",
    ]


def test_unknown_voice_is_refused():
    with pytest.raises(ValueError, match="voice must be one of draft, piper, festival, none"):
        NarrationSettings(voice="robot")


@needs_festival
def test_draft_cues_start_with_their_speech_and_read_at_subtitle_pace(tmp_path):
    narrator = Narrator("Demo", NarrationSettings(recordings=tmp_path / "none", cache=tmp_path / "voice"))
    spoken = narrator.speak("Demo.01-argmax", TEXT)
    assert spoken.voice == "draft" and len(spoken.cues) == len(spoken.audio) >= 3
    assert " ".join(c.text.replace("\n", " ") for c in spoken.cues).split() == TEXT.split()
    for cue, (wav, at) in zip(spoken.cues, spoken.audio, strict=True):
        check_cue_text(cue.text)
        assert 1.0 <= cue.duration <= 7.0
        assert len(cue.text.replace("\n", " ")) / cue.duration <= 20.0
        # the cue starts where its speech starts, measured on the audio itself
        sr, samples = recordings.wav_info(wav)
        onset = at + recordings.speech_onsets(samples, sr)[0][0]
        assert abs(cue.start - onset) <= 0.25
    ends = [c.end for c in spoken.cues]
    assert all(end <= nxt.start + 1e-9 for end, nxt in zip(ends, spoken.cues[1:], strict=False))
    words = len(TEXT.split())
    assert 120 <= 60 * words / spoken.duration <= 180  # about 150 words a minute


@needs_festival
def test_voice_none_has_the_same_timing_and_no_sound(tmp_path):
    draft = Narrator("Demo", NarrationSettings(recordings=tmp_path, cache=tmp_path / "v")).speak(
        "Demo.01-x", TEXT
    )
    silent = Narrator("Demo", NarrationSettings("none", tmp_path, tmp_path / "v")).speak("Demo.01-x", TEXT)
    assert silent.voice == "none" and silent.audio == ()
    assert silent.duration == draft.duration and silent.cues == draft.cues


def speechlike(seconds_on: list[float], sr: int = 16000, pause: float = 0.6) -> np.ndarray:
    """Tone bursts (speech stand-ins) separated by pauses, starting after 0.4 s of silence."""
    parts = [np.zeros(int(0.4 * sr))]
    for on in seconds_on:
        t = np.arange(int(on * sr)) / sr
        ramp = np.minimum(1.0, np.minimum(t, t[-1] - t) / 0.01)  # 10 ms fades, no clicks
        parts += [0.3 * np.sin(2 * np.pi * 220 * t) * ramp, np.zeros(int(pause * sr))]
    return np.concatenate(parts).astype(np.float32)


def test_a_recording_replaces_the_draft_and_sets_the_timing(tmp_path):
    folder = tmp_path / "narration" / "Demo"
    folder.mkdir(parents=True)
    text = "First part of the beat, spoken slowly. Second part of the beat, after a pause."
    samples = speechlike([2.5, 2.5])
    wavfile.write(folder / "Demo.01-x.wav", 16000, (samples * 32767).astype(np.int16))
    narrator = Narrator("Demo", NarrationSettings(recordings=tmp_path / "narration", cache=tmp_path / "v"))
    spoken = narrator.speak("Demo.01-x", text)
    assert spoken.voice == "recorded" and spoken.warning == ""
    assert spoken.duration == pytest.approx(samples.size / 16000, abs=1e-3)
    assert spoken.audio == ((folder / "Demo.01-x.wav", 0.0),)
    # two sentences, two bursts: each cue starts at its burst
    assert [c.start for c in spoken.cues] == pytest.approx([0.4, 0.4 + 2.5 + 0.6], abs=0.06)


@needs_festival
def test_a_clipped_recording_is_reported_and_the_draft_voice_used(tmp_path):
    folder = tmp_path / "narration" / "Demo"
    folder.mkdir(parents=True)
    t = np.arange(32000) / 16000
    wavfile.write(
        folder / "Demo.01-x.wav",
        16000,
        (np.clip(3 * np.sin(2 * np.pi * 200 * t), -1, 1) * 32767).astype(np.int16),
    )
    narrator = Narrator("Demo", NarrationSettings(recordings=tmp_path / "narration", cache=tmp_path / "v"))
    spoken = narrator.speak("Demo.01-x", "A short beat.")
    assert spoken.voice == "draft"
    assert "Demo.01-x.wav" in spoken.warning and "clipped" in spoken.warning
    assert spoken.warning.endswith("using the draft voice for this beat") and "\n" not in spoken.warning
