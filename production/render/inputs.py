"""Whether a published clip is up to date: a hash of everything that can change its pixels or captions.

The hash covers the scene's module and every project module it imports,
followed through the imports (the drawing kit, the narration, the manim
patches, the lecture file's checks), the build steps that shape a clip's sound
and captions, ``attnmath``, ``manim.cfg``, the render options and the manim
version; it is recorded beside the output.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from lecture.section import Section
from production.options import PACKAGES, REPO, RenderError, RenderOptions, published_paths

__all__ = ["clip_inputs_hash", "is_up_to_date", "scene_dependencies", "RECIPE"]

PROJECT = tuple(name for name in PACKAGES if name not in ("attnmath", "atomic_files"))
"""Top-level packages whose modules a clip's hash follows (``attnmath`` is hashed whole)."""

SHARED_MODULES = (
    "scenes.base",
    "drawing.theme",
    "lecture.clips",
    "production.media.soundtrack",
    "production.media.captions",
)
"""Modules every clip depends on: the scene base, the theme, the scene list, and the build steps
that shape a clip's sound and captions."""


def module_path(name: str) -> Path | None:
    """The file of project module ``name`` (``drawing.theme`` -> ``drawing/theme.py``), if it exists."""
    base = REPO / Path(*name.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.exists()), None)


def _imported(path: Path) -> list[str]:
    """The project modules ``path`` imports (``from x import y`` counts as ``x`` and ``x.y``).

    Each file is parsed once per version of it (its modification time and size), not once per clip.
    """
    stat = path.stat()
    return list(_imports_of(path, stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=1024)
def _imports_of(path: Path, _mtime_ns: int, _size: int) -> tuple[str, ...]:
    found: list[str] = []
    for node in _statements(_parse(path)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return tuple(name for name in found if name.split(".")[0] in PROJECT)


def _statements(tree: ast.Module) -> Iterator[ast.AST]:
    """Every statement of ``tree``, nested ones included (imports are statements: expressions are skipped)."""
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo += getattr(node, name, [])


def _parse(path: Path) -> ast.Module:
    """``path``'s syntax tree; a :class:`RenderError` naming the file and line when it does not parse."""
    try:
        return ast.parse(path.read_text(), filename=str(path))
    except SyntaxError as error:
        where = path.relative_to(REPO) if path.is_relative_to(REPO) else path
        raise RenderError(f"{where}, line {error.lineno}: {error.msg}; fix it and save again") from None


def scene_dependencies(clip: Section) -> list[Path]:
    """The clip's own module and the project modules it imports, recursively."""
    seen: dict[str, Path] = {}
    todo = [f"scenes.{clip.module}", *SHARED_MODULES]
    while todo:
        name = todo.pop()
        path = module_path(name)
        if name in seen or path is None:
            continue
        seen[name] = path
        todo += _imported(path)
    return sorted(set(seen.values()))


RECIPE = 2
"""How the build turns the same inputs into pixels; raised when that changes, so older clips re-render
(2: the renders read manim.cfg; before, the cache settings replaced it and clips were drawn on black)."""


def clip_inputs_hash(
    clip: Section, options: RenderOptions, extra: str = "", *, narration: bool = True
) -> str:
    """SHA-256 over everything that can change the clip's pixels or captions.

    Without ``narration``, the scene modules are hashed with their beats' spoken
    texts left out (:func:`without_narration`): what a beat's own key adds back.
    """
    digest = hashlib.sha256()
    files = [
        *scene_dependencies(clip),
        *sorted((REPO / "attnmath").glob("*.py")),
        *sorted(p for p in (REPO / "scenes" / "data").glob("*") if p.is_file()),  # data the scenes read
        REPO / "manim.cfg",
    ]
    for path in files:
        digest.update(str(path.relative_to(REPO)).encode())
        scene_module = path.parent.name == "scenes" and path.name.startswith("s")
        digest.update(path.read_bytes() if narration or not scene_module else without_narration(path))
    digest.update(f"{options.variant}|manim {_manim_version()}|recipe {RECIPE}|{extra}".encode())
    return digest.hexdigest()


def _manim_version() -> str:
    """``manim.__version__``, read from the installed package's metadata (importing manim takes seconds)."""
    try:
        return version("manim")
    except PackageNotFoundError:  # what manim itself says then
        return "0.0.0+unknown"


def without_narration(path: Path) -> bytes:
    r"""A scene module's code with the text of every ``beat(slug, text)`` call left out.

    >>> import tempfile
    >>> a, b = (Path(tempfile.mkdtemp()) / "s9.py" for _ in range(2))
    >>> _ = a.write_text('with self.beat("x", "One sentence."):\n    self.play(A())\n')
    >>> _ = b.write_text('with self.beat("x", "Another one."):\n    self.play(A())\n')
    >>> without_narration(a) == without_narration(b)
    True
    """
    tree = _parse(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "beat":
            if len(node.args) >= 2:
                node.args[1] = ast.Constant("")
            node.keywords = [k for k in node.keywords if k.arg != "text"]
    return ast.dump(tree).encode()


def is_up_to_date(
    clip: Section, options: RenderOptions, out_dir: Path, extra: str = "", index: int | None = None
) -> bool:
    """True when the published clip exists and was made from the current inputs."""
    video, _, stamp = published_paths(clip, options, out_dir, index)
    return (
        video.exists()
        and stamp.exists()
        and stamp.read_text().strip() == clip_inputs_hash(clip, options, extra)
    )
