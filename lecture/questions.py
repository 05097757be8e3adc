"""Check yourself: each section's questions, each with its answer, every number from attnmath.

Retrieval practice: a student predicts, then checks. The questions test
understanding (predict a limit, compare two kernels, say which head could fold
its cache), not recall of a sentence. Each section's module under
:mod:`lecture.sections` computes its questions from the section's parameters
(the lecturer's data where they set it, :meth:`lecture.section.Section.ask`),
so a changed score list or sentence changes the answers with it.

Every question has options, a choice of three or four with one right; each
wrong option carries a one-sentence reason, which the page's player and the
course package's banks give as feedback. A section's first question is the one
its pause-and-predict beat asks, before the animation that shows its answer.
The video's card shows its options and the voice reads them; the notes and the
page list every question's options with the answer behind a ``<details>``
element, which opens without JavaScript.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Question", "Option", "LETTERS", "ASK_BEAT", "PREDICT_BEAT", "ANSWER_BEAT"]

LETTERS = "ABCD"
"""How options are named, on the card, in speech and on the page."""

ASK_BEAT = "ask"
"""The pause-and-predict beat that asks the question, over the dimmed picture."""
PREDICT_BEAT = "predict"
"""The beat that reads the options and then holds silence: where the viewer predicts, and a player stops."""
ANSWER_BEAT = "predict-answer"
"""The beat that names the right option and shows why: where a player goes on."""


@dataclass(frozen=True)
class Option:
    """One choice of a question: its text, and for a wrong one, why it is wrong (None for the right one)."""

    text: str
    why_not: str | None = None

    @property
    def right(self) -> bool:
        """The option is the answer."""
        return self.why_not is None


@dataclass(frozen=True)
class Question:
    """One question with its answer, as written for the page and as spoken in the video.

    ``prompt`` and ``answer`` are for reading; ``spoken`` and ``spoken_answer``
    say the same for the ear (no symbols, numbers rounded as a person says them).
    ``options`` are its choices, two to four with one right (a pause-and-predict question has three
    or four; a lecturer's own question, :mod:`lecture.lecturer_questions`, may have two).
    """

    prompt: str
    answer: str
    spoken: str
    spoken_answer: str
    options: tuple[Option, ...] = ()

    def __post_init__(self) -> None:
        if self.options and not (2 <= len(self.options) <= len(LETTERS)):
            raise ValueError(f"bug: a question has 2 to {len(LETTERS)} options, got {len(self.options)}")
        if self.options and sum(o.right for o in self.options) != 1:
            raise ValueError(f"bug: exactly one option is right: {self.prompt!r}")

    @property
    def right(self) -> int:
        """The index of the right option (-1 without options)."""
        return next((i for i, o in enumerate(self.options) if o.right), -1)

    @property
    def spoken_options(self) -> str:
        """The options as the voice reads them: "Is it A, ...; B, ...; or C, ...?"."""
        said = [f"{LETTERS[i]}, {_lower_first(o.text.rstrip('.'))}" for i, o in enumerate(self.options)]
        return "Is it " + "; ".join(said[:-1]) + "; or " + said[-1] + "?"

    @property
    def said_answer(self) -> str:
        """The spoken answer, led by the right option's letter where the question has options."""
        return f"{LETTERS[self.right]}. {self.spoken_answer}" if self.options else self.spoken_answer


def _lower_first(text: str) -> str:
    """``text`` with its first letter lower case, unless its first word is all capitals (an acronym).

    >>> _lower_first("The top score"), _lower_first("KV cache")
    ('the top score', 'KV cache')
    """
    first = text.split()[0]
    return text if first.isupper() and len(first) > 1 else text[:1].lower() + text[1:]
