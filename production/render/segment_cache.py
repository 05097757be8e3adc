"""The build's segment cache: each segment's video kept under its key, whichever build rendered it.

What a segment is, and what its key is made of, is :mod:`production.render.cut`'s.
The cache lives in ``media/segments/<variant>/<Scene>/<key>.<fmt>``; each
file is renamed into place whole, and a build keeps what it used plus older
segments up to as many bytes again (:meth:`SegmentCache.prune`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from atomic_files import write_bytes

__all__ = ["SegmentCache"]


@dataclass(frozen=True)
class SegmentCache:
    """The segments of one scene at one variant, one file each: ``<folder>/<key>.<fmt>``."""

    folder: Path
    fmt: str

    def path(self, key: str) -> Path:
        """The segment's file."""
        return self.folder / f"{key}.{self.fmt}"

    def has(self, key: str) -> bool:
        """Whether the segment is kept (its access time renewed: the prune keeps what builds use)."""
        path = self.path(key)
        if not path.is_file():
            return False
        os.utime(path)
        return True

    def read(self, key: str) -> bytes:
        """The segment's video."""
        return self.path(key).read_bytes()

    def keep(self, key: str, video: bytes) -> None:
        """Keep a rendered segment (renamed into place whole; a read-only cache is skipped)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_bytes(self.path(key), video)
        except OSError:
            pass  # a cache we cannot write only costs the next build a render

    def prune(self, used: Sequence[str]) -> None:
        """Keep ``used`` and the most recently used others up to as many bytes; remove the rest."""
        if not self.folder.is_dir():
            return
        kept = {self.path(k) for k in used}
        budget = sum(p.stat().st_size for p in kept if p.is_file())
        others = [p for p in self.folder.iterdir() if p not in kept and not p.name.startswith(".")]
        for path in sorted(others, key=lambda p: -p.stat().st_mtime):  # (hidden: a write under way)
            budget -= path.stat().st_size
            if budget < 0:
                path.unlink(missing_ok=True)
