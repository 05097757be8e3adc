"""One render at a time per media folder: an exclusive lock on ``<media>/.lock`` while a command renders.

Two commands that render into one media folder (``make lecture`` and a
``preview --watch`` beside it, or two ``render`` lines) share its TeX and text
caches, and manim writes its text cache in place: started together, one of
them reads an SVG the other is still writing. So ``render``, ``build``,
``slides`` and ``preview`` (each re-render of ``preview --watch``, not its wait
for the next save) hold the media folder's lock while they plan and render;
a second one prints one line and waits its turn, then finds the first one's
work in the caches. ``list`` and ``script`` write nothing there and never wait.

The lock is the operating system's (``flock``, through :mod:`filelock`): it is
released when its holder exits in any way, killed by SIGKILL included, and the
file stays in place, so a stale ``.lock`` file never blocks anyone.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from filelock import FileLock, Timeout

from production.render.manim_run import ensure_writable

__all__ = ["media_lock", "LOCK_NAME", "waiting_line"]

LOCK_NAME = ".lock"


def waiting_line(media: Path) -> str:
    """What a command prints, once, when another one holds ``media``'s lock.

    >>> waiting_line(Path("/srv/media"))
    'waiting for the build in progress in /srv/media…'
    """
    return f"waiting for the build in progress in {media}…"


@contextmanager
def media_lock(media: Path, stream: TextIO | None = None) -> Iterator[None]:
    """Hold ``media``'s lock while the block runs; if another process holds it, say so on ``stream`` and wait.

    ``stream`` defaults to stderr. The folder is created first (a one-line
    :class:`~production.options.RenderError` when it cannot be written).
    Ctrl-C or SIGTERM while waiting raises :class:`KeyboardInterrupt` as
    anywhere else in a command.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with media_lock(folder):
    ...     (folder / LOCK_NAME).exists()
    True
    """
    ensure_writable(media)
    lock = FileLock(str(media / LOCK_NAME))
    try:
        lock.acquire(blocking=False)
    except Timeout:
        print(waiting_line(media), file=stream or sys.stderr, flush=True)
        lock.acquire()
    try:
        yield
    finally:
        lock.release()
