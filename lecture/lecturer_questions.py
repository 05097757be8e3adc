"""A lecturer's own questions in ``lecture.toml``: each checked, each error one line naming section and field.

A section's table may hold an array of questions, one ``[[<Scene>.questions]]``
block each::

    [[<Scene>.questions]]   # e.g. the multi-head section's scene
    stem = "Which head lets the model copy a token it saw before?"
    options = ["A previous-token head", "An induction head", "A sink head"]
    right = "B"
    feedback = { A = "It looks one token back.", C = "It parks its weight on the first token." }
    answer = "An induction head: it finds the earlier copy and reads the token after it."   # optional

``right`` is the right option's letter (A to D, as the page names them);
``feedback`` says, for each wrong option and for no other, why it is wrong;
``answer`` is the explanation shown with the answer (the right option's text
when omitted). The questions follow the section's own in its "Check yourself"
list, on the page and in the notes, and in the course package's banks. The
video does not ask them, so they are not part of a clip's up-to-date hash.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lecture.parameters import ConfigError
from lecture.questions import LETTERS, Option, Question

__all__ = ["QUESTIONS_KEY", "FIELDS", "MIN_OPTIONS", "lecturer_questions"]

QUESTIONS_KEY = "questions"
"""The key, in a section's table, of the lecturer's questions."""
FIELDS = ("stem", "options", "right", "feedback", "answer")
"""A question's fields; all but ``answer`` are required."""
MIN_OPTIONS = 2
"""The fewest options a lecturer's question may have (the most is one per letter, A to D)."""


def _text(where: str, field: str, value: Any) -> str:
    """A non-empty string, or one line naming ``field``."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: {field} must be a non-empty string, got {value!r}")
    return value.strip()


def _options(where: str, value: Any) -> list[str]:
    """2 to 4 non-empty option texts."""
    ok = isinstance(value, list) and MIN_OPTIONS <= len(value) <= len(LETTERS)
    if not ok or not all(isinstance(o, str) and o.strip() for o in value):
        raise ConfigError(
            f"{where}: options must be a list of {MIN_OPTIONS} to {len(LETTERS)} non-empty strings, "
            f"got {value!r}"
        )
    return [o.strip() for o in value]


def _right(where: str, value: Any, n: int) -> int:
    """The right option's index, from its letter."""
    letters = LETTERS[:n]
    letter = value.strip().upper() if isinstance(value, str) else ""
    if len(letter) != 1 or letter not in letters:
        raise ConfigError(
            f"{where}: right must be the right option's letter, one of {', '.join(letters)}, got {value!r}"
        )
    return letters.index(letter)


def _feedback(where: str, value: Any, n: int, right: int) -> dict[int, str]:
    """Option index -> why it is wrong, for exactly the wrong options."""
    wrong = [LETTERS[i] for i in range(n) if i != right]
    if not isinstance(value, Mapping):
        raise ConfigError(
            f"{where}: feedback must be a table of one sentence per wrong option ({', '.join(wrong)}), "
            f'e.g. feedback = {{ {wrong[0]} = "Why {wrong[0]} is wrong." }}; got {value!r}'
        )
    stray = sorted(set(value) - set(wrong))
    if stray:
        raise ConfigError(
            f"{where}: feedback is for the wrong options ({', '.join(wrong)}) only, got {', '.join(stray)}"
        )
    missing = [letter for letter in wrong if letter not in value]
    if missing:
        raise ConfigError(
            f"{where}: feedback is missing for wrong option(s) {', '.join(missing)}: say why each is wrong"
        )
    return {LETTERS.index(k): _text(where, f"feedback {k}", v) for k, v in value.items()}


def _question(where: str, table: Any) -> Question:
    """One ``[[<Scene>.questions]]`` block as a :class:`Question`."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where} must be a table of {', '.join(FIELDS)}, got {table!r}")
    unknown = sorted(set(table) - set(FIELDS))
    if unknown:
        raise ConfigError(f"{where}: unknown field(s) {unknown}; allowed: {list(FIELDS)}")
    absent = [f for f in FIELDS[:-1] if f not in table]
    if absent:
        raise ConfigError(
            f"{where}: {', '.join(absent)} missing (every question needs {', '.join(FIELDS[:-1])})"
        )
    stem = _text(where, "stem", table["stem"])
    texts = _options(where, table["options"])
    right = _right(where, table["right"], len(texts))
    why = _feedback(where, table["feedback"], len(texts), right)
    answer = _text(where, "answer", table["answer"]) if "answer" in table else texts[right]
    options = tuple(Option(text, why.get(i)) for i, text in enumerate(texts))
    return Question(stem, answer, "", "", options)


def lecturer_questions(where: str, scene: str, value: Any) -> tuple[Question, ...]:
    """The questions of ``scene``'s ``[[<scene>.questions]]`` blocks; a :class:`ConfigError` names the flaw.

    ``where`` is the lecture file; each error names it, the section and the question's
    number (from 1), and the field.
    """
    if not isinstance(value, list):
        raise ConfigError(
            f"{where}: [{scene}] {QUESTIONS_KEY} must be [[{scene}.{QUESTIONS_KEY}]] blocks "
            f"(an array of tables), got {value!r}"
        )
    return tuple(
        _question(f"{where}: [[{scene}.{QUESTIONS_KEY}]] question {k}", table)
        for k, table in enumerate(value, 1)
    )
