"""Progress of a build: a line per change of a clip or shard, with the overall count in front."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TextIO

from production.options import RenderResult

__all__ = ["ProgressBoard", "Stage", "Event", "Report"]


class Stage(StrEnum):
    """What a shard or clip is doing (the kind of a progress :class:`Event`)."""

    RENDERING = "rendering"
    ANIMATION = "animation"  # manim started the next animation
    RENDERED = "rendered"  # a shard is done
    JOINING = "joining"
    VOICE = "voice"  # laying the voice track
    WARNING = "warning"


@dataclass(frozen=True)
class Event:
    """One progress event: its stage and the line shown for it.

    >>> str(Event(Stage.ANIMATION, "animation 3")), Event(Stage.RENDERING, "rendering").on("tcp://w:1").text
    ('animation 3', 'rendering on tcp://w:1')
    """

    stage: Stage
    text: str

    def __str__(self) -> str:
        return self.text

    def on(self, where: str) -> Event:
        """The event, saying where it happens (a cluster worker's address)."""
        return Event(self.stage, f"{self.text} on {where}")


Report = Callable[[str, Event], None]
"""Progress callback: (job label, event)."""


class ProgressBoard:
    """Per-shard and overall progress lines; animation counts are rate-limited per shard.

    Every line starts ``[clips done/clips, shards done/shards, elapsed]``.
    Callable from any thread (the local pool's, or the dask client's event loop).
    """

    def __init__(self, clips: int, stream: TextIO) -> None:
        self.total = clips
        self.finished = 0
        self.shards = 0
        self.shards_done = 0
        self.stream = stream
        self.lock = threading.Lock()
        self.last: dict[str, float] = {}
        self.start = time.monotonic()

    def _print(self, text: str) -> None:
        elapsed = time.monotonic() - self.start
        shards = f", {self.shards_done}/{self.shards} shards" if self.shards else ""
        print(
            f"[{self.finished}/{self.total} done{shards}, {elapsed:5.1f}s] {text}",
            file=self.stream,
            flush=True,
        )

    def note(self, text: str) -> None:
        """A line about the build as a whole."""
        with self.lock:
            self._print(text)

    def expect(self, shards: int) -> None:
        """Count ``shards`` more shards to render."""
        with self.lock:
            self.shards += shards

    def update(self, label: str, event: Event) -> None:
        """A shard's or clip's new status (animation counts at most every 2 s per shard)."""
        with self.lock:
            now = time.monotonic()
            if event.stage is Stage.ANIMATION and now - self.last.get(label, 0.0) < 2.0:
                return
            self.last[label] = now
            if event.stage is Stage.RENDERED:
                self.shards_done += 1
            self._print(f"{label}: {event}")

    def done(self, result: RenderResult) -> None:
        """A clip is published (or was up to date)."""
        with self.lock:
            self.finished += 1
            what = f"rendered in {result.seconds:.1f}s" if result.rendered else "up to date"
            if len(result.shard_seconds) > 1:
                what += f" ({len(result.shard_seconds)} shards)"
            self._print(f"{result.clip.scene}: {what} -> {result.video}")

    def finish(self) -> None:
        """Every clip is ready."""
        self.note("all clips ready")
