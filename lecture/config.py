"""The lecturer's TOML file: choose and order scenes, set the title, override example data.

Example ``lecture.toml``::

    title = "Attention, week 5"
    scenes = ["LectureTitle", "TemperatureSweep", "HeadRouting"]
    voice = "draft"              # the neural draft voice (piper); "festival"; or "none": silent, same timing
    narration = "my-recordings"  # <folder>/<Scene>/<beat id>.wav replace the draft voice

    [TemperatureSweep]
    scores = [0.5, 2.0, 1.0, 3.0, 0.2]

    [HeadRouting]
    sentence = { tokens = [
        { text = "Dogs", pos = "NOUN", phrase = 0 },
        { text = "bark", pos = "VERB", subject = 0 },
    ] }

Every key is checked: an unknown key or a value of the wrong type stops the
build with one line naming the key and what was expected. Scenes rendered by
the manim CLI read the file named by the ``LECTURE_CONFIG`` environment
variable, which the build sets.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from attnmath import Sentence
from lecture.clips import LECTURE, Clip, find_clip

__all__ = ["ConfigError", "LectureConfig", "load_config", "ENV_VAR", "VOICES", "apply_overrides"]

ENV_VAR = "LECTURE_CONFIG"
REPO = Path(__file__).resolve().parents[1]
VOICES = ("draft", "piper", "festival", "none")
"""Voices a render can ask for: the offline draft voice (recordings replace it beat by beat), or none.

``draft`` is the default engine's voice, Piper's neural ``en_US-joe-medium``
(also asked for as ``piper``); ``festival`` is festival's HTS voice; ``none``
gives silent clips with the same timing.
"""


class ConfigError(ValueError):
    """The lecture file is invalid; the message names the key."""


def _numbers(min_len: int, max_len: int) -> Callable[[str, Any], tuple[float, ...]]:
    def check(where: str, value: Any) -> tuple[float, ...]:
        ok = isinstance(value, list) and min_len <= len(value) <= max_len
        ok = ok and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        ok = ok and all(abs(v) <= 1e6 for v in value)
        if not ok:
            raise ConfigError(
                f"{where} must be a list of {min_len} to {max_len} numbers (|x| <= 1e6), got {value!r}"
            )
        return tuple(float(v) for v in value)

    return check


def _integer(lo: int, hi: int) -> Callable[[str, Any], int]:
    def check(where: str, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise ConfigError(f"{where} must be an integer from {lo} to {hi}, got {value!r}")
        return value

    return check


def _number(lo: float, hi: float) -> Callable[[str, Any], float]:
    def check(where: str, value: Any) -> float:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not lo <= value <= hi:
            raise ConfigError(f"{where} must be a number from {lo} to {hi}, got {value!r}")
        return float(value)

    return check


MAX_WORD = 12
"""Longest word the sentence scenes accept: 14 such words still fit the frame at a readable size."""


def _words(where: str, value: Any) -> tuple[str, ...]:
    if (
        not isinstance(value, list)
        or not 2 <= len(value) <= 12
        or not all(isinstance(w, str) and w.strip() and len(w) <= MAX_WORD for w in value)
    ):
        raise ConfigError(
            f"{where} must be a list of 2 to 12 non-empty words of at most {MAX_WORD} characters, "
            f"got {value!r}"
        )
    return tuple(value)


def _sentence(where: str, value: Any) -> Sentence:
    try:
        sentence = Sentence.from_dict(value)
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if len(sentence) > 14:
        raise ConfigError(f"{where} must have at most 14 tokens to fit on screen, got {len(sentence)}")
    long = [t.text for t in sentence.tokens if len(t.text) > MAX_WORD]
    if long:
        raise ConfigError(f"{where}: token {long[0]!r} is longer than {MAX_WORD} characters; shorten it")
    return sentence


# scene -> key in the file -> (attribute on the scene, validator)
OVERRIDES: dict[str, dict[str, tuple[str, Callable[[str, Any], Any]]]] = {
    "LectureTitle": {"subtitle": ("subtitle", lambda w, v: _text(w, v))},
    "FixedVsQueryWeights": {"n_points": ("n_points", _integer(4, 30)), "seed": ("seed", _integer(0, 2**31))},
    "KernelRegressionCollapse": {
        "n_points": ("n_points", _integer(4, 60)),
        "seed": ("seed", _integer(0, 2**31)),
        "query": ("query", _number(0.0, 1.0)),
    },
    "TemperatureSweep": {"scores": ("scores", _numbers(2, 16))},
    "HeadRouting": {"sentence": ("sentence", _sentence)},
    "KVCacheGrowth": {"words": ("words", _words), "n_prompt": ("n_prompt", _integer(1, 11))},
}


MAX_TEXT, MAX_TEXT_WORD = 80, 24
"""Title and subtitle: characters in all, and in one word (a line break goes between words)."""


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise ConfigError(
            f"{where} must be a non-empty string of at most {MAX_TEXT} characters, got {value!r}"
        )
    long = [w for w in value.split() if len(w) > MAX_TEXT_WORD]
    if long:
        raise ConfigError(
            f"{where}: the word {long[0]!r} is longer than {MAX_TEXT_WORD} characters; break it with a space"
        )
    return value


@dataclass(frozen=True)
class LectureConfig:
    """A validated lecture file (or the defaults)."""

    path: Path | None = None
    title: str = "Attention"
    clips: tuple[Clip, ...] = LECTURE
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)
    voice: str = "draft"
    narration: Path = REPO / "narration"

    def env(self) -> dict[str, str]:
        """Environment for manim processes, so the scenes read this file (empty: the defaults)."""
        return {
            ENV_VAR: str(self.path) if self.path else "",
            "LECTURE_VOICE": self.voice,
            "LECTURE_NARRATION": str(self.narration),
        }

    def recordings(self, clip: Clip) -> list[Path]:
        """The lecturer's recordings for ``clip``'s beats (``<narration>/<Scene>/*.wav``)."""
        return sorted((self.narration / clip.scene).glob("*.wav"))

    def fingerprint(self, clip: Clip) -> str:
        """What of the file, the voice and the recordings affects ``clip`` (part of its up-to-date hash)."""
        part: dict[str, Any] = {
            "overrides": self.raw.get(clip.scene, {}),
            "voice": self.voice,  # the engine's settings are in narration/voice.py, hashed with the code
            "recordings": {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in self.recordings(clip)},
        }
        if clip.scene == "LectureTitle":
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
    allowed = {"title", "scenes", "voice", "narration", *OVERRIDES}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) {unknown}; allowed: {sorted(allowed)}")
    title = _text(f"{path}: title", data["title"]) if "title" in data else "Attention"
    clips = _clips(path, data.get("scenes"))
    overrides = {scene: _scene_overrides(path, scene, data[scene]) for scene in OVERRIDES if scene in data}
    raw = {k: v for k, v in data.items() if k in OVERRIDES}
    voice = _voice(path, data.get("voice", "draft"))
    narration = _narration(path, data["narration"]) if "narration" in data else REPO / "narration"
    return LectureConfig(Path(path), title, clips, overrides, raw, voice, narration)


def _voice(path: Path, value: Any) -> str:
    if value not in VOICES:
        raise ConfigError(f"{path}: voice must be one of {', '.join(repr(v) for v in VOICES)}, got {value!r}")
    return canonical_voice(str(value))


def canonical_voice(voice: str) -> str:
    """``piper`` names the default engine, so it is ``draft``: one name, one up-to-date hash.

    >>> canonical_voice("piper"), canonical_voice("festival")
    ('draft', 'festival')
    """
    return "draft" if voice == "piper" else voice


def _narration(path: Path, value: Any) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{path}: narration must be a folder name, got {value!r}")
    folder = (Path(path).resolve().parent / value).resolve()
    if not folder.is_dir():
        raise ConfigError(f"{path}: narration folder {folder} does not exist; create it or fix the path")
    return folder


def _clips(path: Path, names: Any) -> tuple[Clip, ...]:
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


def _scene_overrides(path: Path, scene: str, table: Any) -> dict[str, Any]:
    if not isinstance(table, Mapping):
        raise ConfigError(f"{path}: [{scene}] must be a table, got {table!r}")
    allowed = OVERRIDES[scene]
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise ConfigError(f"{path}: [{scene}] unknown key(s) {unknown}; allowed: {sorted(allowed)}")
    values = {allowed[k][0]: allowed[k][1](f"{path}: [{scene}] {k}", v) for k, v in table.items()}
    if scene == "KVCacheGrowth":
        n_words = len(values.get("words", ())) or 10
        if values.get("n_prompt", 1) >= n_words:
            raise ConfigError(
                f"{path}: [KVCacheGrowth] n_prompt must be smaller than the number of words ({n_words})"
            )
    return values


def apply_overrides(scene: Any) -> None:
    """Set the lecturer's values on a scene instance (called from ``LectureScene.setup``)."""
    env = os.environ.get(ENV_VAR)
    config = load_config(Path(env)) if env else LectureConfig()
    name = type(scene).__name__
    for attr, value in config.overrides.get(name, {}).items():
        setattr(scene, attr, value)
    if name == "LectureTitle":
        scene.lecture_title = config.title
        scene.outline = tuple(f"{c.section}  {c.title}" for c in config.clips if c.section != "0")
