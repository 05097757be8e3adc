"""Narration of a scene: beats' spoken text, the voice that speaks it, and caption cues timed to it.

A scene's storyboard is a list of beats; each beat carries a short paragraph
written for the ear. :class:`Narrator` turns a beat's text into what the
viewer hears and reads:

- the *draft voice* (Piper's neural voice by default, or festival:
  :mod:`narration.voice`) speaks each caption chunk separately, so every cue
  starts exactly where its speech starts, with a longer pause after a
  sentence than after a clause, so the lecture breathes;
- a *recording* by the lecturer at ``<narration>/<Scene>/<beat id>.wav``
  replaces the draft for that beat, with cues aligned to its pauses; a bad
  recording is reported in one line and the draft voice is used instead;
- with the voice ``none`` the timing is the same as with a voice, and
  nothing is heard.

Captions follow subtitle practice: at most 42 characters a line, 2 lines a
cue, 20 characters a second, 1 to 7 seconds a cue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from lecture.config import REPO, VOICES, default_recordings
from lecture.settings import SceneSettings, Voice
from narration import recordings, voice
from narration.beats import Description
from narration.cues import Cue
from narration.engines import SpeechEngine, engine_for
from narration.written import written

__all__ = [
    "VOICES",
    "LINE",
    "MAX_CPS",
    "BREATH",
    "SECTION_BREATH",
    "pause_after",
    "Cue",
    "Spoken",
    "NarrationSettings",
    "Narrator",
    "split_cues",
    "wrap_cue",
]


LINE = 42  # characters a caption line
MAX_CPS = 19.5  # characters a second a cue may ask the viewer to read (practice: 20)
MIN_CUE, MAX_CUE = 1.0, 7.0  # seconds a cue stays up
CUE_MARGIN = 0.001
"""How far under :data:`MAX_CUE` a cue is capped: times are kept to the millisecond, and a cue of exactly
7 s, written as 00:01:02,650 --> 00:01:09,650 and subtracted back, reads 7.000000000000007 s."""
SENTENCE_PAUSE = 0.45  # seconds of silence after a chunk that ends a sentence,
CLAUSE_PAUSE = 0.25  # and after one that ends at a clause break (a comma, "and", "which" ...)
BREATH = 0.2  # seconds after a beat's speech before the next one (about 0.3 s of silence with Piper's tail)
SECTION_BREATH = 0.35  # after a clip's last beat: clips joined into the lecture still part with a clear pause
ESTIMATE_WPM = 150  # words a minute, when timing is estimated without a voice (the script command)

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_CLAUSE = re.compile(r"[,;:]\s+|\s+(?=(?:and|but|so|which|while|because|then|where|or)\s)")


@dataclass(frozen=True)
class Spoken:
    """What the voice does in one beat: its sound files, how long it speaks, and the captions.

    ``audio`` lists (WAV file, seconds from the beat's start); it is empty for
    the voice ``none``. ``warning`` says why a recording was not used.
    """

    beat_id: str
    text: str
    voice: str  # "draft", "recorded" or "none"
    duration: float
    cues: tuple[Cue, ...]
    audio: tuple[tuple[Path, float], ...] = ()
    warning: str = ""
    engine: str = "none"  # what spoke it: e.g. "piper en_US-joe-medium", "recording", or "none"

    def holding(self, words: str) -> list[tuple[Cue, str]]:
        """The caption cues that hold ``words`` whole, each with its text on one line."""
        words = written(words)  # the cues write what the voice spells: "K L" is "KL"
        return [(c, t) for c in self.cues if words in (t := " ".join(c.text.split()))]

    def first_said(self, words: str) -> str:
        """The longest opening of ``words`` (up to three) that one caption cue holds whole: their cue."""
        openings = [" ".join(words.split()[:n]) for n in (3, 2, 1)]
        return next((o for o in openings if self.holding(o)), openings[-1])


@dataclass(frozen=True)
class NarrationSettings:
    """Where the voice comes from: the voice asked for, the lecturer's recordings, the draft-voice cache.

    ``estimate`` times beats from their word count instead of speaking them
    (for printing the script, where no audio is needed).
    """

    voice: Voice = Voice.DRAFT
    recordings: Path = field(default_factory=default_recordings)
    cache: Path = REPO / "media" / "voice"
    estimate: bool = False

    def __post_init__(self) -> None:
        if self.voice not in VOICES:
            raise ValueError(f"voice must be one of {', '.join(VOICES)}, got {self.voice!r}")
        object.__setattr__(self, "voice", Voice.named(self.voice))  # a name given as a string

    @property
    def engine(self) -> SpeechEngine:
        """The speech engine of the draft voice: festival when asked for, else piper (also times ``none``)."""
        return engine_for(self.voice)

    @property
    def audible(self) -> bool:
        """Whether the beats are heard (every voice but ``none``)."""
        return self.voice.audible

    @classmethod
    def of(cls, given: SceneSettings) -> NarrationSettings:
        """Voice, recordings, cache and estimate from the build's :class:`~lecture.settings.SceneSettings`."""
        return cls(
            voice=given.voice,
            recordings=given.narration or default_recordings(),
            cache=given.voice_cache or cls.cache,
            estimate=given.estimate,
        )


# --- caption chunks ---------------------------------------------------------------------------


def wrap_cue(chunk: str, width: int = LINE) -> str | None:
    """``chunk`` on one line, or on two balanced lines of at most ``width`` characters; None if it can't."""
    chunk = " ".join(chunk.split())
    if len(chunk) <= width:
        return chunk
    words = chunk.split(" ")
    best: tuple[int, str] | None = None
    for i in range(1, len(words)):
        top, bottom = " ".join(words[:i]), " ".join(words[i:])
        longest = max(len(top), len(bottom))
        if longest <= width and (best is None or longest < best[0]):
            best = (longest, f"{top}\n{bottom}")
    return None if best is None else best[1]


def _halves(text: str) -> tuple[str, str]:
    """Split ``text`` in two at the clause break nearest its middle, else at the middle word break."""
    middle = len(text) / 2
    cuts = [m.end() for m in _CLAUSE.finditer(text) if 12 <= m.end() <= len(text) - 12]
    if not cuts:
        cuts = [m.end() for m in re.finditer(r"\s+", text)]
    cut = min(cuts, key=lambda c: abs(c - middle))
    return text[:cut].strip(), text[cut:].strip()


def _fit(text: str) -> list[str]:
    if wrap_cue(text) is not None or " " not in text:
        return [text]
    first, second = _halves(text)
    return _fit(first) + _fit(second)


def split_cues(text: str) -> list[str]:
    """A beat's narration as caption chunks: whole sentences where they fit two lines, else clauses.

    >>> split_cues("Short one. And another sentence that is not long.")
    ['Short one. And another sentence that is not long.']
    >>> all(wrap_cue(c) for c in split_cues("word " * 60))
    True
    """
    chunks: list[str] = []
    for sentence in _SENTENCE.split(" ".join(text.split())):
        for part in _fit(sentence):
            if chunks and wrap_cue(f"{chunks[-1]} {part}") is not None and len(chunks[-1]) < 30:
                chunks[-1] = f"{chunks[-1]} {part}"  # a very short sentence joins the one before
            else:
                chunks.append(part)
    return chunks


# --- timing -----------------------------------------------------------------------------------


def _cue_times(chunks: list[str], speech: list[tuple[float, float]]) -> list[Cue]:
    """Cues starting where each chunk's speech starts, long enough to read, until the next one."""
    cues = []
    for i, (chunk, (start, end)) in enumerate(zip(chunks, speech, strict=True)):
        until = speech[i + 1][0] if i + 1 < len(speech) else end + BREATH
        readable = max(MIN_CUE, len(chunk) / MAX_CPS)
        length = min(max(until - start, readable), MAX_CUE - CUE_MARGIN)
        if i + 1 < len(speech):
            length = min(length, speech[i + 1][0] - start)  # never under the next cue
        shown = written(chunk)  # the reader sees [CLS] and KL where the voice spells C L S and K L
        cues.append(Cue(round(start, 3), round(start, 3) + round(length, 3), wrap_cue(shown) or shown))
    return cues


def _draft_layout(chunks: list[str], lengths: list[float]) -> list[tuple[float, float]]:
    """(start, end) of each chunk's speech when the chunks are spoken one after another.

    A chunk too short to read at :data:`MAX_CPS` (or to stay up for a second)
    is followed by a longer pause, so its caption never has to be cut short.
    """
    spans, t = [], 0.0
    for chunk, length in zip(chunks, lengths, strict=True):
        spans.append((t, t + length))
        t += max(length + pause_after(chunk), MIN_CUE, len(chunk) / MAX_CPS)
    return spans


def pause_after(chunk: str) -> float:
    """Silence after a caption chunk: longer when it ends a sentence than at a clause break.

    >>> pause_after("The weights add up to one."), pause_after("Warm it up,")
    (0.45, 0.25)
    """
    return SENTENCE_PAUSE if chunk.rstrip().endswith((".", "!", "?")) else CLAUSE_PAUSE


def _recorded_layout(chunks: list[str], wav: Path) -> tuple[float, list[tuple[float, float]]]:
    """(duration, speech span of each chunk) of a recording, chunks placed on its pauses.

    Each chunk's start is put where the recording has spoken the same share of
    the beat's characters, then moved to the nearest start of speech after a
    pause (within 0.8 s).
    """
    sr, samples = recordings.wav_info(wav)
    duration = len(samples) / sr
    spans = recordings.speech_onsets(samples, sr) or [(0.0, duration)]
    first, last = spans[0][0], spans[-1][1]
    total = sum(len(c) for c in chunks)
    starts: list[float] = []
    done = 0
    for chunk in chunks:
        guess = first + (last - first) * done / total
        nearest = min((s for s, _ in spans), key=lambda s: abs(s - guess))
        after_previous = nearest >= (starts[-1] if starts else 0.0)
        starts.append(nearest if abs(nearest - guess) < 0.8 and after_previous else guess)
        done += len(chunk)
    ends = [*starts[1:], last]
    return duration, list(zip(starts, ends, strict=True))


@dataclass
class Narrator:
    """Speaks the beats of one scene with the voice the settings ask for."""

    scene: str
    settings: NarrationSettings

    def recording(self, beat_id: str) -> Path:
        """Where a lecturer's recording of ``beat_id`` goes."""
        return self.settings.recordings / self.scene / f"{beat_id}.wav"

    def speak(self, beat_id: str, text: str) -> Spoken:
        """The voice, timing and captions of one beat."""
        chunks = split_cues(text)
        path, warning = self.recording(beat_id), ""
        if path.exists():
            try:
                recordings.check_recording(path)
                return self._recorded(beat_id, text, chunks, path)
            except recordings.BadRecording as exc:
                warning = f"{exc}; using the draft voice for this beat"
        make = self._estimated if self.settings.estimate else self._draft
        return replace(make(beat_id, text, chunks), warning=warning)

    def describe(self, beat_id: str, text: str) -> Description:
        """``beat_id``'s audio description, spoken like a beat (``<beat id>.description.wav`` wins).

        Its sound and cues count from the description's own start.
        """
        spoken = self.speak(f"{beat_id}.description", " ".join(text.split()))
        audio = tuple((str(path), round(offset, 3)) for path, offset in spoken.audio)
        cues = tuple(cue.moved_to_ms(0.0) for cue in spoken.cues)
        return Description(spoken.text, False, round(spoken.duration, 3), audio, cues)

    def _draft(self, beat_id: str, text: str, chunks: list[str]) -> Spoken:
        engine = self.settings.engine
        wavs = [voice.synthesise(chunk, self.settings.cache, engine) for chunk in chunks]
        lengths = [_seconds(w) for w in wavs]
        spans = _draft_layout(chunks, lengths)
        audio = tuple((w, start) for w, (start, _) in zip(wavs, spans, strict=True))
        heard = self.settings.audible
        return Spoken(
            beat_id,
            text,
            "draft" if heard else "none",
            spans[-1][1],
            tuple(_cue_times(chunks, spans)),
            audio if heard else (),
            engine=engine.label if heard else "none",
        )

    def _recorded(self, beat_id: str, text: str, chunks: list[str], wav: Path) -> Spoken:
        duration, spans = _recorded_layout(chunks, wav)
        heard = self.settings.audible
        audio = ((wav, 0.0),) if heard else ()
        name = "recorded" if heard else "none"
        cues = tuple(_cue_times(chunks, spans))
        return Spoken(beat_id, text, name, duration, cues, audio, engine="recording" if heard else "none")

    def _estimated(self, beat_id: str, text: str, chunks: list[str]) -> Spoken:
        lengths = [60.0 * len(c.split()) / ESTIMATE_WPM for c in chunks]
        spans = _draft_layout(chunks, lengths)
        return Spoken(beat_id, text, "none", spans[-1][1], tuple(_cue_times(chunks, spans)))


def _seconds(wav: Path) -> float:
    sr, samples = recordings.wav_info(wav)
    return len(samples) / sr
