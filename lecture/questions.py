"""Check yourself: two or three questions per section, each with its answer, every number from attnmath.

Retrieval practice: a student predicts, then checks. The questions test
understanding (predict a limit, compare two kernels, say which head could fold
its cache), not recall of a sentence.  Each section's module under :mod:`lecture.sections`
computes its questions from the section's parameters (the lecturer's data where
they set it, :meth:`lecture.section.Section.ask`), so a changed score list or
sentence changes the answers with it. The notes
and the page show each answer behind a ``<details>`` element, which opens
without JavaScript; each scene's pause-and-predict beat asks the first one
(:attr:`Question.spoken`, :attr:`Question.spoken_answer`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Question"]


@dataclass(frozen=True)
class Question:
    """One question with its answer, as written for the page and as spoken in the video.

    ``prompt`` and ``answer`` are for reading; ``spoken`` and ``spoken_answer``
    say the same for the ear (no symbols, numbers rounded as a person says them).
    """

    prompt: str
    answer: str
    spoken: str
    spoken_answer: str
