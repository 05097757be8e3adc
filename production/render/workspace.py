"""Where a render job works: a folder of its own, and private copies of the TeX and text caches.

Manim writes its TeX and text caches in place, so renders running side by side
each typeset into copies (:func:`cache_view`) and add what they made to the
shared caches afterwards, renamed into place (:func:`keep_new_cache_files`). A
worker that does not see the build's caches keeps its own
(:data:`WORKER_CACHE`). TeX and text typeset for any media folder on this machine
are shared too (:data:`atomic_files.shared.TYPESET`): a view starts with it, and adds to it.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from atomic_files import copy_file
from atomic_files.shared import add_typeset, fill_typeset

__all__ = ["CACHE_KINDS", "WORKER_CACHE", "work_folder", "cache_view", "keep_new_cache_files"]


CACHE_KINDS = ("Tex", "texts", "mobjects")  # cache_settings' folders and manim_patches' SVG cache beside them
WORKER_CACHE = Path(tempfile.gettempdir()) / "attention-lecture-cache"
"""A worker's own TeX, text and voice caches, where it does not see the build's."""


@contextlib.contextmanager
def work_folder(work: str | None, name: str) -> Iterator[Path]:
    """``work`` emptied first and removed after success, or a temporary folder."""
    if work is None:
        with tempfile.TemporaryDirectory(prefix=f"lecture-{name}-") as tmp:
            yield Path(tmp)
        return
    path = Path(work)
    shutil.rmtree(path, ignore_errors=True)  # whatever a killed run left
    path.mkdir(parents=True)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def cache_view(shared: Path, work: Path) -> Path:
    """Private copies of the TeX and text caches for one render (``Tex/``, ``texts/`` under the result).

    Manim rewrites a cached text SVG in place each time a ``Text`` is built
    (``remove_last_M``) and parses every SVG through a ``<name>_.svg`` file
    beside it, so two renders building the same text in one folder truncate
    each other's files. Copies (not links: a link shares the file) are safe.
    """
    view = work / "cache"
    for kind in CACHE_KINDS:
        (view / kind).mkdir(parents=True)
        if (shared / kind).is_dir():
            for f in (shared / kind).iterdir():
                if f.is_file() and not f.name.endswith("_.svg") and not f.name.startswith("."):
                    shutil.copyfile(f, view / kind / f.name)
    fill_typeset(view)  # typeset before for another media folder (atomic_files.shared)
    return view


def keep_new_cache_files(view: Path, shared: Path) -> None:
    """Add what this render typeset to the shared caches (renamed into place, never half written)."""
    try:
        for kind in CACHE_KINDS:
            (shared / kind).mkdir(parents=True, exist_ok=True)
            for f in (view / kind).iterdir():
                target = shared / kind / f.name
                if (
                    f.is_file()
                    and not f.name.endswith("_.svg")
                    and not f.name.startswith(".")
                    and not target.exists()
                ):
                    copy_file(f, target)
        add_typeset(view)
    except OSError:
        pass  # a read-only cache only costs the next render a LaTeX run
