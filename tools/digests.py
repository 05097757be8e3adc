"""The file-digest check that ``check_model.py`` and ``check_voice.py`` share.

Each tool pins the digests of the files it installs; :func:`first_refusal` reads
each file in 1 MiB blocks and gives the one line that refuses the first missing
or changed file (None when every file matches).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def file_digest(path: Path, algorithm: str) -> str:
    """The hex digest of ``path`` (``algorithm``: ``"md5"``, ``"sha256"``, ...), read in 1 MiB blocks."""
    digest = hashlib.new(algorithm)
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def first_refusal(
    pinned: Iterable[tuple[Path, str]], algorithm: str, *, reinstall: str, whose: str, refusing: str
) -> str | None:
    """The one-line error for the first file of ``pinned`` (path, digest) that is missing or differs.

    ``reinstall`` follows a missing file ("... is missing; <reinstall>"); a changed
    file reads "<name> has <algorithm> <found>, not <whose> <want>; <refusing>".
    """
    for path, want in pinned:
        if not path.is_file():
            return f"error: {path} is missing; {reinstall}"
        found = file_digest(path, algorithm)
        if found != want:
            return f"error: {path.name} has {algorithm} {found}, not {whose} {want}; {refusing}"
    return None
