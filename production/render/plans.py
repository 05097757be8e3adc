"""Each scene's dry run kept on disk under its inputs key: ``<media>/plans/<Scene>/<key>.json``.

A dry run of a scene (its beats: ids, texts, times and cues) takes seconds to
a minute: manim constructs the whole scene and typesets its TeX. Its result
depends only on what the scene's inputs key covers
(:func:`~production.render.inputs.clip_inputs_hash`: the scene's code and the modules
it imports, ``attnmath``, ``manim.cfg``, the lecture file's data), so it is kept
under that key and a later run with the same key reads it back instead.

Each plan is one small JSON file, written whole and renamed into place
(:mod:`atomic_files`): a dry run killed half-way leaves no plan, and two
commands writing the same plan at once write the same bytes. A file that does
not read back as a plan of that scene and key (truncated, corrupt, another
format) counts as missing, and the next run replaces it. Each scene keeps its
:data:`KEEP` newest plans, so switching between two lecture files does not
re-plan either. Reading and writing plans needs no lock (:mod:`production.render.lock`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from atomic_files import write_text

__all__ = ["PlanStore", "FORMAT", "KEEP"]

FORMAT = 1
"""The layout of a plan file; raised when it changes, so older files are ignored and replaced."""
KEEP = 8
"""Plans kept per scene (the newest)."""

_KEY = re.compile(r"[0-9a-z][0-9a-z-]*")


class PlanStore:
    """The plans under ``<media>/plans``.

    >>> import tempfile
    >>> store = PlanStore(Path(tempfile.mkdtemp()))
    >>> store.load("S", "script-ab12") is None
    True
    >>> store.keep("S", "script-ab12", {"beats": []})
    >>> store.load("S", "script-ab12")["beats"], store.load("S", "script-cd34")
    ([], None)
    >>> _ = store.path("S", "script-ab12").write_text('{"format": 1, "sce')  # truncated
    >>> store.load("S", "script-ab12") is None
    True
    """

    def __init__(self, media: Path) -> None:
        self.root = media / "plans"

    def path(self, scene: str, key: str) -> Path:
        """Where the plan of ``scene`` under ``key`` is kept."""
        if not _KEY.fullmatch(key) or "/" in scene or scene.startswith("."):
            raise ValueError(f"not a plan's scene and key: {scene!r}, {key!r}")
        return self.root / scene / f"{key}.json"

    def load(self, scene: str, key: str) -> dict[str, Any] | None:
        """The kept plan of ``scene`` under ``key``; None when there is none, or it is not whole."""
        try:
            data = json.loads(self.path(scene, key).read_bytes())
        except (OSError, ValueError):  # missing, unreadable, truncated or not JSON (or not UTF-8)
            return None
        whose = (FORMAT, scene, key)
        if not isinstance(data, dict) or tuple(data.get(k) for k in ("format", "scene", "key")) != whose:
            return None
        return data

    def keep(self, scene: str, key: str, data: dict[str, Any]) -> None:
        """Keep ``data`` as the plan of ``scene`` under ``key`` (and drop the scene's oldest plans).

        A media folder that cannot be written keeps nothing: the plan is made again next time.
        """
        path = self.path(scene, key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text(path, json.dumps({"format": FORMAT, "scene": scene, "key": key, **data}))
            self._prune(path.parent)
        except OSError:
            pass

    @staticmethod
    def _prune(folder: Path) -> None:
        """Remove all but the :data:`KEEP` newest plans in ``folder``."""
        dated = []
        for plan in folder.glob("*.json"):
            if plan.name.startswith("."):  # a plan being written (atomic_files' temporary name)
                continue
            try:
                dated.append((plan.stat().st_mtime, plan))
            except FileNotFoundError:  # another command pruned it
                continue
        for _, old in sorted(dated, reverse=True)[KEEP:]:
            old.unlink(missing_ok=True)
