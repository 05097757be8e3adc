"""The file-digest check that ``check_model.py``, ``check_decoder.py`` and ``check_voice.py`` share.

Each tool pins the digests of the files it installs; :func:`first_refusal` reads
each file in 1 MiB blocks and gives the one line that refuses the first missing
or changed file (None when every file matches).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Callable, Iterable
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


def check_model_files(
    folder: Callable[[], Path],
    digests: dict[str, str],
    install: str,
    model: str,
    error: type[Exception],
    noun: str = "model",
    argv: list[str] | None = None,
) -> int:
    """A model check's command line (``--model-dir DIR`` or the installed folder): 0, or 1 and one line."""
    parser = argparse.ArgumentParser(description=f"check {model}'s files against their pinned sha256")
    parser.add_argument("--model-dir", type=Path, help="check this folder instead of the installed model's")
    args = parser.parse_args(argv)
    try:
        where = args.model_dir if args.model_dir is not None else folder()
    except error as failure:
        print(f"error: {failure}", file=sys.stderr)
        return 1
    refusal = first_refusal(
        ((where / name, want) for name, want in digests.items()),
        "sha256",
        reinstall=f"reinstall the model: {install}",
        whose="the pinned",
        refusing=f"refusing this model (reinstall it: {install})",
    )
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 1
    print(f">> {noun} checked: {', '.join(digests)} match {model}'s pinned sha256")
    return 0
