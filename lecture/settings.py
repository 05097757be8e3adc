"""What the build tells a scene's manim process, and what the scene tells the build back.

The build tells it one typed record, carried by one environment variable; the
scene answers, as it renders, with one :class:`Played` line per animation.
A scene rendered by the plain manim CLI finds no record and uses the defaults
(the repository's ``lecture.toml`` is not read: the build passes it). The
build, the script command and the decks write the record with :meth:`SceneSettings.env`;
the scene reads it back with :meth:`SceneSettings.current`. A dry run in this
process gives its scenes settings with :meth:`SceneSettings.applied`, a context
variable, not the environment. Every field has one meaning and one place, so a
new setting is one line here.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

__all__ = ["ENV", "SceneSettings", "Played", "Voice"]


class Voice(StrEnum):
    """The voices a render can ask for: the offline draft voice (recordings replace it beat by beat), or none.

    ``draft`` is the default engine's voice, Piper's neural ``en_US-joe-medium``
    (also asked for as ``piper``: :meth:`named`); ``festival`` is festival's
    HTS voice; ``none`` gives silent clips with the same timing. The engines
    themselves are :mod:`narration.engines`.

    >>> Voice.named("piper"), Voice.named("festival") == "festival"
    (<Voice.DRAFT: 'draft'>, True)
    """

    DRAFT = "draft"
    FESTIVAL = "festival"
    NONE = "none"

    @classmethod
    def named(cls, name: str) -> Voice:
        """The voice ``name`` asks for (``piper`` is the default engine's: ``draft``); ValueError if none."""
        return cls.DRAFT if name == "piper" else cls(name)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every name a lecturer may write, in the order messages list them."""
        return (cls.DRAFT.value, "piper", cls.FESTIVAL.value, cls.NONE.value)

    @property
    def audible(self) -> bool:
        """Whether the beats are heard (every voice but ``none``)."""
        return self is not Voice.NONE


ENV = "LECTURE_SETTINGS"
"""The environment variable that carries the record, as JSON."""


@dataclass(frozen=True)
class SceneSettings:
    """The build's settings for one scene process.

    Attributes
    ----------
    config : Path | None
        The lecturer's ``lecture.toml`` (None: the default lecture).
    voice : str
        The voice asked for (:class:`Voice`).
    narration : Path | None
        The recordings folder (``<folder>/<Scene>/<beat id>.wav``); None: the repository's ``narration/``.
    voice_cache : Path | None
        Where synthesised speech is kept; None: the default under ``media/voice``.
    estimate : bool
        Time the beats from their words, with no audio at all (the script command, the page's plan).
    beats_out : Path | None
        Where the scene writes its beats record for the build; None: manim mixes the voice in itself.
    progress : bool
        Print a :class:`Played` line as each animation is drawn (the build's progress).

    >>> s = SceneSettings(config=Path("/x/lecture.toml"), voice="none", estimate=True)
    >>> SceneSettings.from_env(s.env()) == s
    True
    >>> SceneSettings.from_env({}) == SceneSettings()
    True
    """

    config: Path | None = None
    voice: Voice = Voice.DRAFT
    narration: Path | None = None
    voice_cache: Path | None = None
    estimate: bool = False
    beats_out: Path | None = None
    progress: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "voice", Voice.named(self.voice))  # a name given as a string

    def env(self) -> dict[str, str]:
        """The environment entry that gives a manim process these settings."""
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self)}
        return {ENV: json.dumps(data, sort_keys=True)}

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> SceneSettings:
        """The settings in ``environ`` (default: this process's), or the defaults when there are none."""
        raw = (os.environ if environ is None else environ).get(ENV)
        if not raw:
            return cls()
        data = json.loads(raw)
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"{ENV} has unknown setting(s) {unknown}: the build and the scene differ")
        paths = {"config", "narration", "voice_cache", "beats_out"}
        values: dict[str, Any] = {k: Path(v) if k in paths and v else v for k, v in data.items()}
        if "voice" in values:
            values["voice"] = Voice.named(values["voice"])
        return cls(**values)

    def replace(self, **changes: Any) -> SceneSettings:
        """These settings with ``changes``."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def current(cls) -> SceneSettings:
        """The settings a scene constructed now runs with.

        Those :meth:`applied` in this process, if any, else the ones its process was given (:meth:`from_env`).

        >>> with SceneSettings(voice="none").applied():
        ...     SceneSettings.current().voice is Voice.NONE
        True
        >>> SceneSettings.current() == SceneSettings.from_env()
        True
        """
        given = _APPLIED.get()
        return given if given is not None else cls.from_env()

    @contextmanager
    def applied(self) -> Iterator[SceneSettings]:
        """These settings for scenes constructed in this context of this process, until the block ends.

        For a dry run. The process's environment is left alone, so no other code sees them.
        """
        token = _APPLIED.set(self)
        try:
            yield self
        finally:
            _APPLIED.reset(token)


_APPLIED: ContextVar[SceneSettings | None] = ContextVar("lecture_settings_applied", default=None)
"""The settings :meth:`SceneSettings.applied` gives this context's scenes (None: the environment's)."""


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, Path) else value


@dataclass(frozen=True)
class Played:
    """What a scene tells the build as it renders: animation ``number`` (as ``manim -n`` counts) is drawn.

    One line on the scene's standard output among manim's own; written and read here only.

    >>> Played.read(Played(4).line()), Played.read("INFO Animation 4 : Partial movie file written")
    (Played(number=4), None)
    """

    number: int

    def line(self) -> str:
        """The line the scene prints."""
        return _PLAYED + json.dumps({"number": self.number})

    @classmethod
    def read(cls, line: str) -> Played | None:
        """The record on ``line``, if it is one."""
        if not line.startswith(_PLAYED):
            return None
        return cls(int(json.loads(line[len(_PLAYED) :])["number"]))


_PLAYED = "PLAYED "
