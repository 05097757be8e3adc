"""Files every media folder on this machine can reuse: made once, named by what made them.

TeX's and Pango's SVGs, parsed SVG mobjects and the draft voice's WAVs are each
named by a hash of everything that made them (manim's hash of the LaTeX and its
template or of the text and its font, :func:`manim_patches.cached_svg_path`,
:func:`narration.voice.synthesise`'s key of the engine and the text). So a file
made for one media folder serves every other: a second ``--media-dir``, a
preview, or a fresh checkout of the same lecture need not typeset, parse or
speak it again.

They are kept per user, under ``$XDG_CACHE_HOME/attention-lecture/shared/``
(``~/.cache/...`` when unset), one folder per kind. Files are added by renaming
a whole copy into place (:func:`atomic_files.copy_file`) and never changed, so
builds running side by side read and add to it safely; a store that cannot be
written only costs the next build the work. ``ATTENTION_LECTURE_SHARED=off``
turns it off (a cold build, as on a new machine).
"""

from __future__ import annotations

import os
from pathlib import Path

from atomic_files import copy_file

__all__ = [
    "user_cache",
    "SharedFiles",
    "SWITCH",
    "TEX",
    "TEXTS",
    "TYPESET",
    "fill_typeset",
    "add_typeset",
    "MOBJECTS",
    "VOICE",
]

SWITCH = "ATTENTION_LECTURE_SHARED"
"""The environment variable that turns the shared files off (``off``)."""


def user_cache(*parts: str) -> Path:
    """``$XDG_CACHE_HOME/attention-lecture/PARTS`` (``~/.cache/...`` when the variable is unset).

    >>> user_cache("shared", "Tex").parts[-3:]
    ('attention-lecture', 'shared', 'Tex')
    """
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root, "attention-lecture", *parts)


class SharedFiles:
    """One kind of shared file (``kind`` is its folder; ``suffix`` the files it holds).

    >>> import tempfile
    >>> os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp()
    >>> a, b = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
    >>> _ = (a / "0f3a.svg").write_text("<svg/>")
    >>> tex = SharedFiles("Tex", ".svg")
    >>> tex.add(a), tex.fill(b), (b / "0f3a.svg").read_text()
    (1, 1, '<svg/>')
    >>> tex.add(a), tex.fill(b)  # nothing new either way
    (0, 0)
    >>> del os.environ["XDG_CACHE_HOME"]
    """

    def __init__(self, kind: str, suffix: str) -> None:
        self.kind, self.suffix = kind, suffix

    @property
    def folder(self) -> Path | None:
        """Where this kind is kept; None when the shared files are turned off."""
        if os.environ.get(SWITCH, "").lower() in ("off", "0", "no", "false"):
            return None
        return user_cache("shared", self.kind)

    def _ours(self, path: Path) -> bool:
        # manim parses an SVG through a "<name>_.svg" beside it; half-written files start with "."
        return path.suffix == self.suffix and not path.name.startswith(".") and not path.stem.endswith("_")

    def get(self, name: str, into: Path) -> Path | None:
        """``into/name``, copied from the shared files if they have it and ``into`` does not; else None."""
        folder, target = self.folder, into / name
        if folder is None or not (folder / name).is_file():
            return None
        try:
            into.mkdir(parents=True, exist_ok=True)
            if not target.is_file():
                copy_file(folder / name, target)
        except OSError:
            return None
        return target

    def put(self, path: Path) -> None:
        """Share ``path`` under its own name, unless a file of that name is shared already."""
        folder = self.folder
        if folder is None or not self._ours(path) or (folder / path.name).exists():
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
            copy_file(path, folder / path.name)
        except OSError:
            pass  # a store that cannot be written only costs the next build the work

    def fill(self, into: Path) -> int:
        """Copy into ``into`` every shared file it lacks; how many were copied."""
        folder = self.folder
        if folder is None or not folder.is_dir():
            return 0
        have = {p.name for p in into.iterdir()} if into.is_dir() else set()
        return sum(
            self.get(p.name, into) is not None
            for p in folder.iterdir()
            if self._ours(p) and p.name not in have
        )

    def add(self, folder: Path) -> int:
        """Share every file of ``folder`` not shared yet; how many were added."""
        shared = self.folder
        if shared is None or not folder.is_dir():
            return 0
        known = {p.name for p in shared.iterdir()} if shared.is_dir() else set()
        new = [p for p in folder.iterdir() if p.is_file() and self._ours(p) and p.name not in known]
        for path in new:
            self.put(path)
        return len(new)


TEX = SharedFiles("Tex", ".svg")
"""TeX typeset by manim (``tex_dir``): an SVG named by manim's hash of the full LaTeX document."""
TEXTS = SharedFiles("texts", ".svg")
"""Text drawn by Pango (``text_dir``), named by manim's hash of the text and its style. Shared whole, not
drawn again: cairo numbers each SVG's surface per process, so two drawings of one text differ in bytes,
and the parses (:data:`MOBJECTS`) are keyed by those bytes."""
TYPESET = {"Tex": TEX, "texts": TEXTS}
"""The shared kinds by the name of manim's cache folder that holds them."""


def fill_typeset(caches: Path) -> None:
    """Copy into manim's caches under ``caches`` (``Tex/``, ``texts/``) every shared file they lack."""
    for kind, shared in TYPESET.items():
        shared.fill(caches / kind)


def add_typeset(caches: Path) -> None:
    """Share every file of manim's caches under ``caches`` that is not shared yet."""
    for kind, shared in TYPESET.items():
        shared.add(caches / kind)


MOBJECTS = SharedFiles("mobjects", ".pickle")
"""SVG parses kept by :mod:`manim_patches`, named by a hash of the SVG, manim's version and its options."""
VOICE = SharedFiles("voice", ".wav")
"""The draft voice's speech, named by a hash of the engine, its voice and the text (narration.voice)."""
