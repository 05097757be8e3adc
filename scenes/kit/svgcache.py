"""Parsed SVGs kept on disk: text and TeX already parsed by an earlier run are loaded, not parsed again.

Manim keeps the mobjects it parses from an SVG (every ``Text`` and ``MathTex``)
in a dictionary for the rest of the process, but each render is a new process,
so every render parsed each of its texts and formulas again: about a fifth of
a 480p15 render of TemperatureSweep (84 SVGs, svgelements and path building).
:func:`install` keeps what manim's own dictionary keeps, the parsed
submobjects, as a pickle in ``mobjects/`` beside the text cache
(manim's resolved ``text_dir``), named by a digest of the SVG's bytes, the settings that
shape its parsing and manim's version; a render that meets the same SVG loads
the pickle (a few milliseconds) instead. The points are the parsed ones
exactly (``tests/kit/test_svgcache.py``); a pickle that cannot be read is
parsed again and rewritten.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import uuid
from pathlib import Path
from typing import Any

import manim
from manim import config
from manim.mobject.svg.svg_mobject import SVGMobject

__all__ = ["FOLDER", "install", "cached_path", "init_from_disk"]

FOLDER = "mobjects"
"""The cache's folder, beside ``texts/`` (the build copies and merges it with the TeX and text caches)."""

_ORIGINAL = SVGMobject.init_svg_mobject


def cached_path(mob: SVGMobject) -> Path | None:
    """Where the parse of ``mob``'s SVG is kept; None when it has no readable file."""
    try:
        data = mob.get_file_path().read_bytes()
    except (OSError, ValueError):
        return None
    key = hashlib.sha256()
    shape = (manim.__version__, type(mob).__name__, mob.svg_default, mob.path_string_config, config.renderer)
    key.update(repr(shape).encode())
    key.update(data)
    return Path(config.get_dir("text_dir")).parent / FOLDER / f"{key.hexdigest()[:32]}.pickle"


def _load(path: Path) -> Any | None:
    try:
        with path.open("rb") as fh:
            return pickle.load(fh)
    except Exception:  # missing, half-copied or from another manim: parse again
        return None


def _store(path: Path, mob: SVGMobject) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.partial")
        tmp.write_bytes(pickle.dumps(mob.copy(), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache only costs the next render a parse


def init_from_disk(self: SVGMobject, use_svg_cache: bool) -> SVGMobject:
    """Manim's ``init_svg_mobject``, with the parsed submobjects read from and kept on disk."""
    path = cached_path(self)  # also for Text, which skips manim's dictionary: the key is the SVG's bytes
    mob = _load(path) if path is not None else None
    if mob is None:
        _ORIGINAL(self, use_svg_cache)
        if path is not None:
            _store(path, self)
        return self
    self.add(*mob)
    self.id_to_vgroup_dict = mob.id_to_vgroup_dict
    return self


def install() -> None:
    """Make SVG mobjects use the disk cache (idempotent)."""
    SVGMobject.init_svg_mobject = init_from_disk  # type: ignore[method-assign,assignment]
