"""Progress of a build: a line per change of a clip or shard, with the overall count in front."""

from __future__ import annotations

import threading
import time
from typing import TextIO

from production.render import RenderResult

__all__ = ["ProgressBoard"]


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

    def update(self, label: str, status: str) -> None:
        """A shard's or clip's new status (``animation N`` at most every 2 s per shard)."""
        with self.lock:
            now = time.monotonic()
            if status.startswith("animation") and now - self.last.get(label, 0.0) < 2.0:
                return
            self.last[label] = now
            if status.startswith("rendered in"):
                self.shards_done += 1
            self._print(f"{label}: {status}")

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
