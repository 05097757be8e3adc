"""The lecturer's TOML file: choose and order scenes, set the title, override example data.

Example ``lecture.toml``::

    title = "Attention, week 5"
    scenes = ["<Scene>", "<Scene>", ...]    # the section's scenes, in order (python -m scenes list)
    voice = "draft"              # the neural draft voice (piper); "festival"; or "none": silent, same timing
    narration = "my-recordings"  # <folder>/<Scene>/<beat id>.wav replace the draft voice (else recordings/)
    questions = "ask"            # the page's players ask each question: "ask" (skippable), "required", "off"

    [<Scene>]                    # a scene's data: the README's table lists each scene's keys
    scores = [0.5, 2.0, 1.0, 3.0, 0.2]

    [[<Scene>.questions]]        # a question of the lecturer's own (lecture.lecturer_questions)
    stem = "..."
    options = ["...", "...", "..."]
    right = "B"
    feedback = { A = "Why A is wrong.", C = "Why C is wrong." }

Every key is checked: an unknown key or a value of the wrong type stops the
build with one line naming the key and what was expected. A scene's manim
process finds the file in the build's :class:`lecture.settings.SceneSettings`.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from lecture.clips import LECTURE, find_clip, models
from lecture.lecturer_questions import QUESTIONS_KEY, lecturer_questions
from lecture.parameters import ConfigError, Parameters, Text
from lecture.questions import Question
from lecture.section import Section
from lecture.settings import SceneSettings, Voice

M = TypeVar("M", bound=Parameters)

__all__ = [
    "ConfigError",
    "LectureConfig",
    "load_config",
    "VOICES",
    "QUESTIONS",
    "lecture_for",
    "canonical_voice",
]

REPO = Path(__file__).resolve().parents[1]
VOICES = Voice.names()
"""The names a lecturer may give a voice (:class:`lecture.settings.Voice`)."""
QUESTIONS = ("ask", "required", "off")
"""How the page's players ask each section's question: pause and ask (the student may skip, or turn
the pauses off), pause and ask with no skip and no setting, or never pause (the page still lists them)."""

RECORDINGS = REPO / "recordings"
"""Where a lecturer's recordings go unless the lecture file names a folder: ``recordings/<Scene>/<id>.wav``.

Not ``narration/``, which is the code package of the voice: a lecturer's WAV
files do not belong among the code."""
OLD_RECORDINGS = REPO / "narration"
"""The default folder of recordings before it moved out of the code (still read, with one line)."""


@cache
def default_recordings() -> Path:
    """:data:`RECORDINGS`, or the old default ``narration/`` while recordings lie there (said in one line)."""
    if not RECORDINGS.is_dir() and any(OLD_RECORDINGS.glob("*/*.wav")):
        print(
            f"warning: recordings found in {OLD_RECORDINGS}/<Scene>/, inside the code; move them to "
            f"{RECORDINGS}/<Scene>/ (used from the old folder this time)",
            file=sys.stderr,
        )
        return OLD_RECORDINGS
    return RECORDINGS


@dataclass(frozen=True)
class LectureConfig:
    """A validated lecture file (or the defaults)."""

    path: Path | None = None
    title: str = "Attention"
    clips: tuple[Section, ...] = LECTURE
    parameters: dict[str, Parameters] = field(default_factory=dict)  # scenes whose table the file has
    raw: dict[str, Any] = field(default_factory=dict)
    voice: Voice = Voice.DRAFT
    narration: Path = field(default_factory=default_recordings)
    questions: str = "ask"  # how the page's players ask (QUESTIONS); the clips do not change with it
    lecturer_questions: dict[str, tuple[Question, ...]] = field(
        default_factory=dict
    )  # scene -> the file's own

    def settings(self) -> SceneSettings:
        """What manim processes are told, so the scenes read this file, voice and recordings."""
        return SceneSettings(config=self.path, voice=self.voice, narration=self.narration)

    def parameters_for(self, scene: str) -> Parameters | None:
        """``scene``'s parameters: the lecturer's table where the file has one, else the defaults.

        None for a scene whose section has no data.
        """
        if scene in self.parameters:
            return self.parameters[scene]
        model = models().get(scene)
        return model() if model is not None else None

    def parameters_of(self, section: Section) -> Parameters:
        """``section``'s parameters: the lecturer's table where the file has one, else its defaults."""
        return self.parameters.get(section.scene) or section.parameters()

    def parameters_as(self, section: Section, model: type[M]) -> M:
        """``section``'s parameters (:meth:`parameters_of`), read by another section as its ``model``."""
        params = self.parameters_of(section)
        if not isinstance(params, model):
            raise TypeError(
                f"bug: {section.scene}'s parameters are a {type(params).__name__}, not {model.__name__}"
            )
        return params

    def questions_for(self, section: Section) -> list[Question]:
        """``section``'s check-yourself questions: its own, from its parameters, then the lecturer's.

        The first of its own is the one its video asks; the lecturer's are not in the video.
        """
        own = section.ask(self.parameters_of(section))
        return own + list(self.lecturer_questions.get(section.scene, ()))

    def recordings(self, clip: Section) -> list[Path]:
        """The lecturer's recordings for ``clip``'s beats (``<narration>/<Scene>/*.wav``)."""
        return sorted((self.narration / clip.scene).glob("*.wav"))

    def fingerprint(self, clip: Section, recordings: bool = True) -> str:
        """What of the file, the voice and the recordings affects ``clip`` (part of its up-to-date hash).

        Without ``recordings``, the recordings are left out (a beat's key names its own sound).
        """
        part: dict[str, Any] = {
            "overrides": self.raw.get(clip.scene, {}),
            "voice": str(self.voice),  # the engines' settings are in narration/engines.py, hashed as code
        }
        if clip.reads:
            part["reads"] = {read.scene: self.raw.get(read.scene, {}) for read in clip.reads}
        if recordings:
            found = self.recordings(clip)
            part["recordings"] = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in found}
        if clip.reads_outline:
            part |= {"title": self.title, "outline": [c.scene for c in self.clips]}
        return json.dumps(part, sort_keys=True)

    def with_voice(self, voice: str | None) -> LectureConfig:
        """The same lecture with ``voice`` (from ``--voice``) instead of the file's, when given."""
        if voice is None:
            return self
        if voice not in VOICES:
            raise ConfigError(f"--voice must be one of {', '.join(VOICES)}, got {voice!r}")
        return replace(self, voice=canonical_voice(voice))


def load_config(path: Path | None) -> LectureConfig:
    """Read and validate ``path``; ``None`` gives the default lecture."""
    if path is None:
        return LectureConfig()
    try:
        data = tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    allowed = {"title", "scenes", "voice", "narration", "questions", *(s.scene for s in LECTURE)}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) {unknown}; allowed: {sorted(allowed)}")
    title = Text()(f"{path}: title", data["title"]) if "title" in data else "Attention"
    clips = _clips(path, data.get("scenes"))
    raw, own = _section_tables(path, data)
    parameters = {s: model.from_table(str(path), raw[s]) for s, model in models().items() if s in raw}
    voice = _voice(path, data.get("voice", "draft"))
    narration = _narration(path, data["narration"]) if "narration" in data else default_recordings()
    questions = _questions(path, data.get("questions", "ask"))
    return LectureConfig(Path(path), title, clips, parameters, raw, voice, narration, questions, own)


def _section_tables(
    path: Path, data: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, tuple[Question, ...]]]:
    """Each section's data table (its clip reads it) and, apart, the lecturer's questions (it does not).

    A section without data (no parameters model) may have a table holding only its questions.
    """
    tables = models()
    raw, own = {}, {}
    for scene in (s.scene for s in LECTURE if s.scene in data):
        table = data[scene]
        if isinstance(table, Mapping) and QUESTIONS_KEY in table:
            own[scene] = lecturer_questions(str(path), scene, table[QUESTIONS_KEY])
            table = {k: v for k, v in table.items() if k != QUESTIONS_KEY}
            if not table:
                continue
        if scene not in tables:
            raise ConfigError(f"{path}: [{scene}] has no data to set; it takes only [[{scene}.questions]]")
        raw[scene] = table
    return raw, own


def _questions(path: Path, value: Any) -> str:
    if value not in QUESTIONS:
        raise ConfigError(
            f"{path}: questions must be one of {', '.join(repr(q) for q in QUESTIONS)}, got {value!r}"
        )
    return str(value)


def _voice(path: Path, value: Any) -> Voice:
    if value not in VOICES:
        raise ConfigError(f"{path}: voice must be one of {', '.join(repr(v) for v in VOICES)}, got {value!r}")
    return canonical_voice(str(value))


def canonical_voice(voice: str) -> Voice:
    """``piper`` names the default engine, so it is ``draft``: one name, one up-to-date hash.

    >>> canonical_voice("piper") == "draft", canonical_voice("festival") is Voice.FESTIVAL
    (True, True)
    """
    return Voice.named(voice)


def _narration(path: Path, value: Any) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{path}: narration must be a folder name, got {value!r}")
    folder = (Path(path).resolve().parent / value).resolve()
    if not folder.is_dir():
        raise ConfigError(f"{path}: narration folder {folder} does not exist; create it or fix the path")
    return folder


def _clips(path: Path, names: Any) -> tuple[Section, ...]:
    if names is None:
        return LECTURE
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"{path}: scenes must be a non-empty list of scene names, got {names!r}")
    if len(set(names)) != len(names):
        raise ConfigError(f"{path}: scenes lists a scene twice: {names}")
    try:
        return tuple(find_clip(n) for n in names)
    except KeyError as exc:
        raise ConfigError(f"{path}: scenes: {exc.args[0]}") from None


def lecture_for(settings: SceneSettings) -> LectureConfig:
    """The lecture a scene belongs to: the file the build passed (``settings.config``), else the default.

    A scene reads its parameters from it (:meth:`LectureConfig.parameters_for`), the title scene its
    title and outline.
    """
    return load_config(settings.config) if settings.config else LectureConfig()
