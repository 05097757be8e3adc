"""Caption files: read and write SRT (with the ``srt`` library), write WebVTT; clamp and shift cues."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta

import srt

from narration.cues import Cue

__all__ = ["Cue", "parse_srt", "clamp", "shift", "to_srt", "to_vtt", "chapters_vtt"]


def parse_srt(text: str) -> list[Cue]:
    r"""Cues of an SRT file.

    >>> parse_srt("1\n00:00:01,000 --> 00:00:02,500\nOne line\nand two\n")
    [Cue(start=1.0, end=2.5, text='One line\nand two')]
    """
    try:
        return [Cue(s.start.total_seconds(), s.end.total_seconds(), s.content) for s in srt.parse(text)]
    except srt.SRTParseError as exc:
        raise ValueError(f"not valid SRT: {exc}") from None


def clamp(cues: Iterable[Cue], duration: float) -> list[Cue]:
    """Cues cut to end by ``duration``; cues starting after it are dropped."""
    return [c.clamped(duration) for c in cues if c.start < duration]


def shift(cues: Iterable[Cue], offset: float) -> list[Cue]:
    """Cues moved later by ``offset`` seconds."""
    return [c.shifted(offset) for c in cues]


def _time(seconds: float) -> timedelta:
    return timedelta(milliseconds=round(seconds * 1000))


def to_srt(cues: Sequence[Cue]) -> str:
    """SRT text, numbered from 1, times to the millisecond.

    >>> print(to_srt([Cue(0.9, 2.3, "Hello")]), end="")
    1
    00:00:00,900 --> 00:00:02,300
    Hello
    """
    subtitles = [srt.Subtitle(i, _time(c.start), _time(c.end), c.text) for i, c in enumerate(cues, 1)]
    return srt.compose(subtitles, reindex=False).rstrip("\n") + "\n"


def _vtt_stamp(seconds: float) -> str:
    return srt.timedelta_to_srt_timestamp(_time(seconds)).replace(",", ".")


def to_vtt(cues: Sequence[Cue]) -> str:
    """WebVTT text (what HTML5 ``<track>`` reads).

    >>> print(to_vtt([Cue(0.9, 2.3, "Hello")]), end="")
    WEBVTT
    <BLANKLINE>
    00:00:00.900 --> 00:00:02.300
    Hello
    """
    blocks = [f"{_vtt_stamp(c.start)} --> {_vtt_stamp(c.end)}\n{c.text}" for c in cues]
    return "WEBVTT\n\n" + "\n\n".join(blocks) + "\n"


def chapters_vtt(chapters: Sequence[tuple[float, float, str]]) -> str:
    """WebVTT chapters: one cue (start, end, title) per section."""
    return to_vtt([Cue(start, end, title) for start, end, title in chapters])
