"""The SVG disk cache: parsed Text and TeX kept on disk, keyed by the SVG and manim's settings.

Installed by :func:`manim_patches.install` in place of ``SVGMobject.init_svg_mobject``:
every render process parsed every Text and TeX again (about a fifth of a 480p15
render of section 3's scene). A parse is kept as a pickle in the media folder's
:data:`SVG_FOLDER` and in the machine's shared store (:data:`atomic_files.shared.MOBJECTS`);
two processes that parse one SVG at once take turns (:func:`_parsing`).
"""

from __future__ import annotations

import fcntl
import hashlib
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import manim
import numpy as np
from manim import config
from manim.mobject.svg.svg_mobject import SVGMobject

from atomic_files import write_bytes
from atomic_files.shared import MOBJECTS

__all__ = ["SVG_FOLDER", "MANIM_INIT_SVG", "cached_svg_path", "init_from_disk"]


SVG_FOLDER = "mobjects"
"""The SVG cache's folder, beside manim's ``texts/`` (the build copies and merges it with the others)."""

MANIM_INIT_SVG = SVGMobject.init_svg_mobject


def cached_svg_path(mob: SVGMobject) -> Path | None:
    """Where the parse of ``mob``'s SVG is kept; None when it has no readable file."""
    try:
        data = mob.get_file_path().read_bytes()
    except (OSError, ValueError):
        return None
    key = hashlib.sha256()
    form = 2  # 2: the parent's own sheen direction is kept too (init_from_disk)
    shape = (manim.__version__, type(mob).__name__, mob.svg_default, mob.path_string_config, config.renderer)
    key.update(repr((*shape, form)).encode())
    key.update(data)
    return Path(config.get_dir("text_dir")).parent / SVG_FOLDER / f"{key.hexdigest()[:32]}.pickle"


def _load(path: Path) -> Any | None:
    try:
        with path.open("rb") as fh:
            return pickle.load(fh)
    except Exception:  # missing, half-copied or from another manim: parse again
        return None


def _store(path: Path, mob: SVGMobject) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bytes(path, pickle.dumps(mob.copy(), protocol=pickle.HIGHEST_PROTOCOL))
        MOBJECTS.put(path)
    except OSError:
        pass  # a read-only cache only costs the next render a parse


@contextmanager
def _parsing(mob: SVGMobject, path: Path | None) -> Iterator[None]:
    """Hold a lock on ``mob``'s SVG file while it is parsed, against other processes.

    Manim's parse writes a modified copy beside the SVG (``<name>_.svg``), reads it and deletes
    it: two processes parsing one SVG in one media folder (two test workers, two builds) would
    delete each other's copy. Without a cache folder to lock in, it parses unlocked.
    """
    if path is None:
        yield
        return
    svg = hashlib.sha256(str(mob.get_file_path()).encode()).hexdigest()[:16]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = (path.parent / f".{svg}.lock").open("a")  # hidden: the build's cache views skip it
    except OSError:  # a read-only cache folder
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def init_from_disk(self: SVGMobject, use_svg_cache: bool) -> SVGMobject:
    """Manim's ``init_svg_mobject``, with the parsed submobjects read from and kept on disk."""
    path = cached_svg_path(self)  # also for Text, which skips manim's dictionary: the key is the SVG
    if path is not None and not path.is_file():
        MOBJECTS.get(path.name, path.parent)  # parsed before for another media folder
    mob = _load(path) if path is not None else None
    if mob is None:
        with _parsing(self, path):
            mob = _load(path) if path is not None else None  # another process may have parsed it meanwhile
            if mob is None:
                # Parsed, not copied from manim's in-memory map: a copy from there keeps the parent's
                # sheen direction unflipped (below), so two makings of one SVG would differ.
                MANIM_INIT_SVG(self, False)
                if path is not None:
                    _store(path, self)
                return self
    self.add(*mob)
    self.id_to_vgroup_dict = mob.id_to_vgroup_dict
    # The parse flips the whole SVG (y down to y up), which turns the parent's own sheen
    # direction too; copy it, so a loaded SVG equals a parsed one (state_digest sees it).
    self.sheen_direction = np.array(mob.sheen_direction)
    return self
