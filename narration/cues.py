"""The one caption type: a text shown from ``start`` to ``end`` seconds.

A beat's cues count from the beat's start (:mod:`narration.narrator`); a
clip's or the lecture's captions count from the video's start
(:mod:`production.media.captions`, which reads and writes them as SRT and WebVTT).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["Cue"]


@dataclass(frozen=True)
class Cue:
    """One caption: its text (line breaks included), from ``start`` to ``end`` seconds.

    >>> cue = Cue(1.0, 3.5, "Softmax turns scores into weights.")
    >>> cue.duration, cue.shifted(10.0).start, cue.clamped(2.0).end
    (2.5, 11.0, 2.0)
    """

    start: float
    end: float
    text: str

    @property
    def duration(self) -> float:
        """Seconds the cue is shown."""
        return self.end - self.start

    def shifted(self, seconds: float) -> Cue:
        """The cue ``seconds`` later."""
        return replace(self, start=self.start + seconds, end=self.end + seconds)

    def moved_to_ms(self, seconds: float) -> Cue:
        """The cue ``seconds`` later, its start to the millisecond and its length kept to the millisecond.

        Rounding the end on its own could lengthen a 7-second cue to 7.001 s.

        >>> Cue(0.0004, 7.0008, "x").moved_to_ms(0.0)  # ends at 7.001 if the end were rounded alone
        Cue(start=0.0, end=7.0, text='x')
        """
        at = round(self.start + seconds, 3)
        return Cue(at, at + round(self.duration, 3), self.text)

    def clamped(self, end: float) -> Cue:
        """The cue cut to end by ``end``."""
        return replace(self, end=min(self.end, end))
