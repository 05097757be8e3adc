"""The seam a process watching a scene uses: told as each beat starts and ends, before its text is spoken.

A plain render has no observer (:class:`BeatObserver` does nothing). The warm
preview (:mod:`production.watch.warm`) sets one with :func:`observing` for the scene
it keeps ready: it pauses a copy of the process at a watched beat's start, and
a later copy may give the beat a new text (the lecturer's edit) before it is
spoken. A context variable, not a class attribute: only scenes constructed in
that context, in that process, see it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["BeatObserver", "observer", "observing", "observe_from_now"]


class BeatObserver:
    """Told of each beat of the scenes constructed while it is set; the base class changes nothing."""

    def starting(self, scene: Any, beat_id: str, text: str) -> str:
        """Beat ``beat_id`` of ``scene`` starts, before a frame or a word: the text it will speak."""
        return text

    def ended(self, scene: Any, beat_id: str) -> None:
        """Beat ``beat_id`` has played its last animation and been recorded."""


_NOBODY = BeatObserver()
_OBSERVER: ContextVar[BeatObserver | None] = ContextVar("beat_observer", default=None)


def observer() -> BeatObserver:
    """The observer of scenes constructed now (the base class when none was set)."""
    return _OBSERVER.get() or _NOBODY


def observe_from_now(watcher: BeatObserver) -> None:
    """``watcher`` observes from now on in this context: for a process that ends with its scene."""
    _OBSERVER.set(watcher)


@contextmanager
def observing(watcher: BeatObserver) -> Iterator[BeatObserver]:
    """``watcher`` observes the scenes constructed in this block.

    >>> class Loud(BeatObserver):
    ...     def starting(self, scene, beat_id, text):
    ...         return text.upper()
    >>> with observing(Loud()):
    ...     observer().starting(None, "S.01-x", "hi")
    'HI'
    >>> observer().starting(None, "S.01-x", "hi")
    'hi'
    """
    token = _OBSERVER.set(watcher)
    try:
        yield watcher
    finally:
        _OBSERVER.reset(token)
