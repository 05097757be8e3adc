"""The scenes' data parameters: the base model, the lecturer's keys and their checks.

Each section declares its model (a frozen dataclass deriving from
:class:`Parameters`) in its module under :mod:`lecture.sections`. A field made
with :func:`lecturer` has a ``check`` and is a key the lecturer may set in the
scene's ``lecture.toml`` table; the others are fixed example data that the
scene and the page's Explore figure both read. From these models come the
lecture file's validation and its one-line errors (:meth:`Parameters.from_table`),
the values a scene renders with (``LectureScene.setup``), the page figures'
data (:attr:`lecture.section.Section.figure`), and the README's table of keys
(:func:`keys_table`, which a test compares with the README).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Self

from attnmath import Sentence

__all__ = [
    "ConfigError",
    "Parameters",
    "lecturer",
    "keys_table",
    "Integer",
    "Number",
    "Numbers",
    "Text",
    "Words",
    "SentenceCheck",
    "MAX_WORD",
    "MAX_TEXT",
    "MAX_TEXT_WORD",
]


class ConfigError(ValueError):
    """The lecture file is invalid; the message names the key."""


MAX_WORD = 12
"""Longest word the sentence scenes accept: 14 such words still fit the frame at a readable size."""
MAX_TEXT, MAX_TEXT_WORD = 80, 24
"""Title and subtitle: characters in all, and in one word (a line break goes between words)."""


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True)
class Integer:
    """An integer from ``lo`` to ``hi``; ``shown`` puts the range in the README's table."""

    lo: int
    hi: int
    shown: bool = True

    def __call__(self, where: str, value: Any) -> int:
        """The checked value of key ``where``, or a :class:`ConfigError` naming it."""
        if not isinstance(value, int) or isinstance(value, bool) or not self.lo <= value <= self.hi:
            raise ConfigError(f"{where} must be an integer from {self.lo} to {self.hi}, got {value!r}")
        return value

    def doc(self) -> str:
        """What the README says of the values."""
        return f"{self.lo}–{self.hi}" if self.shown else ""


@dataclass(frozen=True)
class Number:
    """A number from ``lo`` to ``hi``."""

    lo: float
    hi: float

    def __call__(self, where: str, value: Any) -> float:
        """The checked value of key ``where``, or a :class:`ConfigError` naming it."""
        if not _is_number(value) or not self.lo <= value <= self.hi:
            raise ConfigError(f"{where} must be a number from {self.lo} to {self.hi}, got {value!r}")
        return float(value)

    def doc(self) -> str:
        """What the README says of the values."""
        return f"{self.lo:g}–{self.hi:g}"


@dataclass(frozen=True)
class Numbers:
    """A list of ``min_len`` to ``max_len`` numbers (|x| <= 1e6)."""

    min_len: int
    max_len: int

    def __call__(self, where: str, value: Any) -> tuple[float, ...]:
        """The checked value of key ``where``, or a :class:`ConfigError` naming it."""
        ok = isinstance(value, list) and self.min_len <= len(value) <= self.max_len
        ok = ok and all(_is_number(v) and abs(v) <= 1e6 for v in value)
        if not ok:
            raise ConfigError(
                f"{where} must be a list of {self.min_len} to {self.max_len} numbers (|x| <= 1e6), "
                f"got {value!r}"
            )
        return tuple(float(v) for v in value)

    def doc(self) -> str:
        """What the README says of the values."""
        return f"list of {self.min_len} to {self.max_len} numbers"


@dataclass(frozen=True)
class Text:
    """A non-empty string of at most :data:`MAX_TEXT` characters, no word over :data:`MAX_TEXT_WORD`."""

    def __call__(self, where: str, value: Any) -> str:
        """The checked value of key ``where``, or a :class:`ConfigError` naming it."""
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
            raise ConfigError(
                f"{where} must be a non-empty string of at most {MAX_TEXT} characters, got {value!r}"
            )
        long = [w for w in value.split() if len(w) > MAX_TEXT_WORD]
        if long:
            raise ConfigError(
                f"{where}: the word {long[0]!r} is longer than {MAX_TEXT_WORD} characters; "
                "break it with a space"
            )
        return value

    def doc(self) -> str:
        """What the README says of the values."""
        return f"at most {MAX_TEXT} characters, no word over {MAX_TEXT_WORD}"


@dataclass(frozen=True)
class Words:
    """2 to 12 non-empty words of at most :data:`MAX_WORD` characters."""

    def __call__(self, where: str, value: Any) -> tuple[str, ...]:
        """The checked value of key ``where``, or a :class:`ConfigError` naming it."""
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

    def doc(self) -> str:
        """What the README says of the values."""
        return f"2–12 words of at most {MAX_WORD} characters"


@dataclass(frozen=True)
class SentenceCheck:
    """An annotated sentence of at most 14 tokens (see :meth:`attnmath.Sentence.from_dict`)."""

    def __call__(self, where: str, value: Any) -> Sentence:
        """The checked value of key ``where``, or a :class:`ConfigError` naming it."""
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

    def doc(self) -> str:
        """What the README says of the values."""
        return (
            f"up to 14 tokens with `text` (at most {MAX_WORD} characters), `pos` (DET, ADJ, NOUN, PRON, "
            "VERB, PREP, ADV, CONJ, PUNCT), and optionally `subject` (a verb's subject index), `head` (a "
            "preposition's verb index), `phrase` (noun-phrase id)"
        )


def lecturer(default: Any, check: Any, note: str = "") -> Any:
    """A field the lecturer may set in ``lecture.toml``, checked by ``check``."""
    return field(default=default, metadata={"check": check, "note": note})


@dataclass(frozen=True)
class Parameters:
    """A scene's parameters (subclasses are frozen dataclasses, one per scene)."""

    scene: ClassVar[str] = ""

    @classmethod
    def keys(cls) -> dict[str, Any]:
        """The lecturer's keys and their checks, in field order."""
        return {f.name: f.metadata["check"] for f in fields(cls) if "check" in f.metadata}

    @classmethod
    def from_table(cls, where: str, table: Any) -> Self:
        """The defaults with the lecturer's ``[Scene]`` table in their place; errors name the key."""
        if not isinstance(table, Mapping):
            raise ConfigError(f"{where}: [{cls.scene}] must be a table, got {table!r}")
        keys = cls.keys()
        unknown = sorted(set(table) - set(keys))
        if unknown:
            raise ConfigError(f"{where}: [{cls.scene}] unknown key(s) {unknown}; allowed: {sorted(keys)}")
        values = {k: keys[k](f"{where}: [{cls.scene}] {k}", v) for k, v in table.items()}
        made = replace(cls(), **values)
        made.check(where)
        return made

    def check(self, where: str) -> None:
        """Checks across keys (none by default)."""

    def values(self) -> dict[str, Any]:
        """Every parameter by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def keys_table(models: Iterable[type[Parameters]]) -> list[str]:
    """The README's rows for the scenes' tables: ``| `[Scene]` | keys |``, one per model with keys."""
    rows = []
    for model in models:
        shown = []
        for f in fields(model):
            if "check" not in f.metadata:
                continue
            doc = f.metadata["note"] or f.metadata["check"].doc()
            if not doc:
                shown.append(f"`{f.name}`")
            else:  # a description with its own parentheses follows a colon
                shown.append(f"`{f.name}`: {doc}" if "(" in doc else f"`{f.name}` ({doc})")
        if shown:
            rows.append(f"| `[{model.scene}]` | {', '.join(shown)} |")
    return rows
