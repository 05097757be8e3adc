"""A scene's beats record: what it said, when, with which voice, and its captions; written and read here only.

A scene run by the build writes its record (``SceneSettings.beats_out``); the
build turns it into the clip's captions, its voice track and the manifest's
``beats``, and publishes it beside the clip as ``<clip>.beats.json``. The file
format is JSON: ``{"scene", "duration", "beats": [{"id", "text", "start",
"end", "voice", "engine", "audio": [[wav, start], ...], "cues": [[text, start,
length], ...], "warning"}, ...]}``, all times in seconds from the clip's start.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from atomic_files import write_text
from narration.cues import Cue

__all__ = ["Beat", "BeatsRecord", "Description", "SpokenScene", "spoken"]


@dataclass(frozen=True)
class Description:
    """What a beat's picture shows that its words do not say (audio description), and how it is spoken.

    ``said`` marks a beat whose narration already describes its picture: it
    has no description text, and a described build adds nothing after it.
    ``audio`` and ``cues`` count from the description's own start; it is not
    heard in the plain lecture, only in the described one.

    >>> Description("The bars fall to one.", False, 1.6).needed, Description(said=True).needed
    (True, False)
    """

    text: str = ""
    said: bool = False
    duration: float = 0.0
    audio: tuple[tuple[str, float], ...] = ()
    cues: tuple[Cue, ...] = ()

    @property
    def needed(self) -> bool:
        """True when the picture shows something the words do not say."""
        return bool(self.text) and not self.said

    def to_json(self) -> dict[str, Any]:
        """The description as the file holds it."""
        return {
            "text": self.text,
            "said": self.said,
            "duration": self.duration,
            "audio": [[path, at] for path, at in self.audio],
            "cues": [[c.text, c.start, round(c.duration, 3)] for c in self.cues],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Description:
        """A description from the file's form (none for a record written before descriptions)."""
        if not data:
            return cls()
        return cls(
            text=data["text"],
            said=bool(data["said"]),
            duration=float(data["duration"]),
            audio=tuple((str(path), at) for path, at in data["audio"]),
            cues=tuple(Cue(start, start + length, text) for text, start, length in data["cues"]),
        )


@dataclass(frozen=True)
class Beat:
    """One beat in clip time: its id and text, its span, what spoke it, its sound files and captions."""

    id: str
    text: str
    start: float
    end: float
    voice: str  # "draft", "recorded" or "none"
    engine: str  # e.g. "piper en_US-joe-medium", "recording", or "none"
    audio: tuple[tuple[str, float], ...] = ()  # (WAV file, start)
    cues: tuple[Cue, ...] = ()
    warning: str = ""
    description: Description = Description()
    equations: tuple[str, ...] = ()  # LaTeX of every equation on screen during the beat, as first shown
    words: tuple[str, ...] = ()  # every text on screen during the beat that is not mathematics

    def to_json(self) -> dict[str, Any]:
        """The beat as the file holds it."""
        return {
            "id": self.id,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "voice": self.voice,
            "engine": self.engine,
            "audio": [[path, at] for path, at in self.audio],
            "cues": [[c.text, c.start, round(c.duration, 3)] for c in self.cues],
            "warning": self.warning,
            "description": self.description.to_json(),
            "equations": list(self.equations),
            "words": list(self.words),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Beat:
        """A beat from the file's form."""
        return cls(
            id=data["id"],
            text=data["text"],
            start=data["start"],
            end=data["end"],
            voice=data["voice"],
            engine=data.get("engine", "none"),
            audio=tuple((str(path), at) for path, at in data["audio"]),
            cues=tuple(Cue(start, start + length, text) for text, start, length in data["cues"]),
            warning=data.get("warning", ""),
            description=Description.from_json(data.get("description")),
            equations=tuple(data.get("equations", ())),
            words=tuple(data.get("words", ())),
        )

    def from_its_start(self) -> Beat:
        """The beat with its times counted from its own start (a preview clip's or a slide's zero).

        >>> beat = Beat("S.01-a", "A.", 2.0, 3.5, "draft", "e", (("a.wav", 2.1),), (Cue(2.1, 3.0, "A."),))
        >>> own = beat.from_its_start()
        >>> own.start, own.end, own.audio, own.cues
        (0.0, 1.5, (('a.wav', 0.1),), (Cue(start=0.1, end=1.0, text='A.'),))
        """
        at = self.start
        return replace(
            self,
            start=0.0,
            end=round(self.end - at, 3),
            audio=tuple((path, round(t - at, 6)) for path, t in self.audio),
            cues=tuple(replace(c, start=round(c.start - at, 6), end=round(c.end - at, 6)) for c in self.cues),
        )

    def manifest(self) -> dict[str, Any]:
        """The beat as the manifest lists it: its id, text, times, voices, description and equations.

        ``speech_end`` is where its voice stops (its last caption's end; its
        start when it says nothing): a player that asks a question stops
        there. ``description`` is the text a described build speaks after the
        beat (empty when the narration describes the picture: ``said``);
        ``equations`` the LaTeX of each equation on screen during the beat, and
        ``words`` each other text on screen (labels, names, notes).
        """
        keys = ("id", "text", "start", "end", "voice", "engine")
        spoken = {"speech_end": round(max((c.end for c in self.cues), default=self.start), 3)}
        shown = {**spoken, "description": self.description.text, "said": self.description.said}
        shown["equations"], shown["words"] = list(self.equations), list(self.words)
        return {**{k: getattr(self, k) for k in keys}, **shown}


@dataclass(frozen=True)
class BeatsRecord:
    """Every beat of one rendered scene, and the scene's length.

    >>> beat = Beat("S.01-hello", "Hello.", 0.0, 1.5, "none", "none", cues=(Cue(0.2, 1.2, "Hello."),))
    >>> record = BeatsRecord("S", 1.5, (beat,))
    >>> BeatsRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    True
    >>> record.cues()
    [Cue(start=0.2, end=1.2, text='Hello.')]
    """

    scene: str
    duration: float
    beats: tuple[Beat, ...]

    def to_json(self) -> dict[str, Any]:
        """The record as the file holds it."""
        return {"scene": self.scene, "duration": self.duration, "beats": [b.to_json() for b in self.beats]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BeatsRecord:
        """A record from the file's form."""
        return cls(data["scene"], data["duration"], tuple(Beat.from_json(b) for b in data["beats"]))

    def write(self, path: Path, indent: int | None = None) -> None:
        """Write the record to ``path`` (atomically)."""
        write_text(path, json.dumps(self.to_json(), indent=indent) + ("\n" if indent else ""))

    @classmethod
    def read(cls, path: Path) -> BeatsRecord:
        """The record in ``path``."""
        return cls.from_json(json.loads(Path(path).read_text()))

    def cues(self) -> list[Cue]:
        """Caption cues of every beat, in clip time."""
        return [cue for beat in self.beats for cue in beat.cues]

    def placements(self) -> list[tuple[Path, float]]:
        """(sound file, start in clip time) of everything the voice says in the clip."""
        return [(Path(path), at) for beat in self.beats for path, at in beat.audio]

    def manifest(self) -> list[dict[str, Any]]:
        """The beats as the manifest lists them."""
        return [beat.manifest() for beat in self.beats]

    def warnings(self) -> tuple[str, ...]:
        """Why recordings were not used, beat by beat (empty when all were)."""
        return tuple(beat.warning for beat in self.beats if beat.warning)

    def with_audio_moved(self, moved: Mapping[str, str]) -> BeatsRecord:
        """The record with sound files found elsewhere (``moved[old] = new``)."""
        beats = tuple(
            replace(b, audio=tuple((moved.get(path, path), at) for path, at in b.audio)) for b in self.beats
        )
        return replace(self, beats=beats)


@runtime_checkable
class SpokenScene(Protocol):
    """What a lecture scene (``scenes.base.LectureScene``) holds after it ran, for the app to read.

    ``beats`` are its beats in order; ``beat_spans`` the animations of each, as
    ``(beat id, first, last)`` in manim's numbering (``manim -n``).
    """

    beats: list[Beat]
    beat_spans: list[tuple[str, int, int]]


def spoken(scene: object) -> SpokenScene:
    """``scene`` as a :class:`SpokenScene`; a scene that speaks no beats is a bug of the caller.

    >>> class Plain: ...
    >>> spoken(Plain())
    Traceback (most recent call last):
    ...
    TypeError: bug: Plain is not a lecture scene (no beats or beat_spans)
    """
    if not isinstance(scene, SpokenScene):
        raise TypeError(f"bug: {type(scene).__name__} is not a lecture scene (no beats or beat_spans)")
    return scene
