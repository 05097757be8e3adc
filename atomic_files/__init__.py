"""Writing a file so that readers see the old file or the whole new one, never a half-written one.

Every file the project publishes (clips, captions, pages, stills, cached voice
and parsed SVGs) is written through :func:`replacing`: the data goes to a
unique temporary name beside the target, which is renamed onto it only when
the writing finished without an error. The temporary name keeps the target's
suffix (PyAV and Pillow choose the format by it) and carries a random part, so
two builds sharing one ``media/`` folder never write the same temporary file.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["replacing", "replacing_folder", "write_text", "write_bytes", "copy_file"]


def temporary_name(path: Path) -> Path:
    """A unique hidden name beside ``path``, with the same suffix.

    >>> name = temporary_name(Path("/media/lecture.mp4"))
    >>> name.parent, name.name.startswith(".lecture."), name.suffix
    (PosixPath('/media'), True, '.mp4')
    >>> temporary_name(Path("a.txt")) != temporary_name(Path("a.txt"))
    True
    """
    return path.with_name(f".{path.stem}.{uuid.uuid4().hex[:12]}.partial{path.suffix}")


@contextmanager
def replacing(path: Path | str) -> Iterator[Path]:
    """Yield a temporary path to write; on success it replaces ``path``, on an error it is removed.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with replacing(folder / "notes.txt") as tmp:
    ...     _ = tmp.write_text("done")
    >>> (folder / "notes.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('done', ['notes.txt'])
    """
    path = Path(path)
    tmp = temporary_name(path)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@contextmanager
def replacing_folder(path: Path | str) -> Iterator[Path]:
    """Yield a temporary folder to fill: on success it replaces the folder ``path``; on an error it goes.

    The new folder is renamed into place only when it is whole; an old folder
    is first renamed aside and removed after. Between the two renames the path
    is briefly absent, never half-written.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> for text in ("old", "new"):
    ...     with replacing_folder(root / "course") as tmp:
    ...         _ = (tmp / "a.txt").write_text(text)
    >>> (root / "course" / "a.txt").read_text(), sorted(p.name for p in root.iterdir())
    ('new', ['course'])
    """
    path = Path(path)
    tmp, old = temporary_name(path), path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.old")
    tmp.mkdir()
    try:
        yield tmp
        if path.exists():
            os.replace(path, old)
        os.replace(tmp, path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def write_text(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    with replacing(path) as tmp:
        tmp.write_text(text)


def write_bytes(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with replacing(path) as tmp:
        tmp.write_bytes(data)


def copy_file(source: Path | str, path: Path | str) -> None:
    """Copy ``source`` to ``path`` atomically (a reader never sees part of the copy)."""
    with replacing(path) as tmp:
        shutil.copyfile(source, tmp)
