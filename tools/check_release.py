"""Decode what the README's commands published, before a release (``make check-release`` runs it).

After ``make lecture``, ``make lecture-described`` and ``make slides``: every
clip and the joined lectures (plain and described) are decoded frame by frame
(their frame count must match what the file states, at the quality's size and
rate), and each voice track is measured with ffmpeg's ``ebur128``: at most
-1.0 dBTP true peak, -16 +/- 0.5 LUFS. The decks must be whole: ``slides.html``
with one ``<section>`` per slide, ``slides.pptx`` a zip with slides,
``slides.pdf`` a PDF with pages. One line per file; exit 1 on the first
problem, naming the file and what is wrong.
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile
from pathlib import Path

import av

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from production.media.audio import MAX_TRUE_PEAK, TARGET_LUFS, TOLERANCE_LU  # noqa: E402
from production.media.meter import ebur128  # noqa: E402
from production.media.soundtrack import decode_audio  # noqa: E402
from production.media.video import count_frames, probe  # noqa: E402
from production.options import QUALITIES  # noqa: E402


class Refused(Exception):
    """A published file is missing or wrong; the message names it."""


def check_video(path: Path, quality: str, voiced: bool = True) -> str:
    """Decode ``path``'s frames and measure its voice; one line saying what was found."""
    if not path.is_file():
        raise Refused(f"{path}: missing (run the command that publishes it)")
    want = QUALITIES[quality]
    info = probe(path)
    if (info.width, info.height, round(info.fps)) != (want.width, want.height, want.frame_rate):
        raise Refused(f"{path}: {info.width}x{info.height} at {info.fps} fps, not {want.folder}")
    decoded = count_frames(path)
    if decoded != info.frames:
        raise Refused(f"{path}: {decoded} frames decode where the file states {info.frames}")
    line = f"{path.name}: {decoded} frames, {info.duration:.2f} s"
    sound = decode_audio(path)
    if sound is None or not voiced:
        return line + (", silent" if sound is None else "")
    loudness, peak = ebur128(sound, 48000)
    if peak > MAX_TRUE_PEAK or abs(loudness - TARGET_LUFS) > TOLERANCE_LU:
        raise Refused(f"{path}: voice at {loudness:.2f} LUFS, {peak:.2f} dBTP (wanted -16 +/- 0.5, <= -1.0)")
    return line + f", voice {loudness:.2f} LUFS, {peak:.2f} dBTP"


def check_lecture(folder: Path, quality: str) -> list[str]:
    """Every clip, the lecture and the described lecture in ``folder``."""
    clips = sorted(p for p in folder.glob("[0-9][0-9]-*.mp4"))
    if not clips:
        raise Refused(f"{folder}: no clips (run make lecture)")
    names = [*clips, folder / "lecture.mp4", folder / "lecture-described.mp4"]
    return [check_video(path, quality) for path in names]


def check_slides(folder: Path) -> list[str]:
    """The three decks in ``folder`` are whole."""
    html, pptx, pdf = (folder / f"slides.{ext}" for ext in ("html", "pptx", "pdf"))
    for path in (html, pptx, pdf):
        if not path.is_file():
            raise Refused(f"{path}: missing (run make slides)")
    sections = html.read_text().count("<section")
    with zipfile.ZipFile(pptx) as deck:
        slides = [n for n in deck.namelist() if re.fullmatch(r"ppt/slides/slide\d+\.xml", n)]
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    if not data.startswith(b"%PDF") or not sections or not slides or not pages:
        found = f"{sections} HTML slides, {len(slides)} PPTX, {pages} PDF pages"
        raise Refused(f"{folder}: a deck is empty ({found})")
    return [f"decks: {sections} HTML slides, {len(slides)} PPTX slides, {pages} PDF pages"]


def main(argv: list[str] | None = None) -> int:
    """Check the lecture folder and the slides folder; exit 1 on the first problem."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quality", default="h", choices=sorted(QUALITIES), help="the lecture's quality")
    parser.add_argument("--media-dir", type=Path, default=Path("media"))
    parser.add_argument("--slides-quality", default="m", choices=sorted(QUALITIES))
    args = parser.parse_args(argv)
    try:
        lines = check_lecture(args.media_dir / "lecture" / QUALITIES[args.quality].folder, args.quality)
        lines += check_slides(args.media_dir / "slides" / QUALITIES[args.slides_quality].folder)
    except (Refused, av.error.FFmpegError) as error:
        print(f"release check: {error}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    print(">> release check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
