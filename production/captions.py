"""Caption cues: read manim's SRT, clamp to a clip, shift into a concatenation, write SRT and WebVTT."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

__all__ = ["Cue", "parse_srt", "clamp", "shift", "to_srt", "to_vtt", "chapters_vtt"]

TIME = re.compile(r"(\d+):(\d{2}):(\d{2})[,.](\d{3})")


@dataclass(frozen=True)
class Cue:
    """One caption: start and end in seconds, and its text."""

    start: float
    end: float
    text: str


def _seconds(stamp: str) -> float:
    match = TIME.fullmatch(stamp.strip())
    if match is None:
        raise ValueError(f"not an SRT time stamp: {stamp!r}")
    h, m, s, ms = (int(g) for g in match.groups())
    return 3600 * h + 60 * m + s + ms / 1000


def parse_srt(text: str) -> list[Cue]:
    """Cues of an SRT file (index lines are ignored)."""
    cues = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line for line in block.splitlines() if line.strip()]
        arrow = next((i for i, line in enumerate(lines) if "-->" in line), None)
        if arrow is None:
            continue
        start, end = (part for part in lines[arrow].split("-->"))
        cues.append(Cue(_seconds(start), _seconds(end.split()[0]), "\n".join(lines[arrow + 1 :])))
    return cues


def clamp(cues: Iterable[Cue], duration: float) -> list[Cue]:
    """Cues cut to end by ``duration``; cues starting after it are dropped."""
    return [replace(c, end=min(c.end, duration)) for c in cues if c.start < duration]


def shift(cues: Iterable[Cue], offset: float) -> list[Cue]:
    """Cues moved later by ``offset`` seconds."""
    return [replace(c, start=c.start + offset, end=c.end + offset) for c in cues]


def _stamp(seconds: float, sep: str) -> str:
    ms = int(round(seconds * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


def to_srt(cues: Sequence[Cue]) -> str:
    """SRT text."""
    blocks = [
        f"{i}\n{_stamp(c.start, ',')} --> {_stamp(c.end, ',')}\n{c.text}" for i, c in enumerate(cues, 1)
    ]
    return "\n\n".join(blocks) + "\n"


def to_vtt(cues: Sequence[Cue]) -> str:
    """WebVTT text (what HTML5 ``<track>`` reads)."""
    blocks = [f"{_stamp(c.start, '.')} --> {_stamp(c.end, '.')}\n{c.text}" for c in cues]
    return "WEBVTT\n\n" + "\n\n".join(blocks) + "\n"


def chapters_vtt(chapters: Sequence[tuple[float, float, str]]) -> str:
    """WebVTT chapters: one cue (start, end, title) per section."""
    return to_vtt([Cue(start, end, title) for start, end, title in chapters])
