"""The questions as an Anki deck (``attention.apkg``, written by genanki): one card per question.

The front is the question (and its options, lettered); the back its answer,
why each wrong option is wrong, and a link to the moment of the lecture that
shows the answer: the clip with a media fragment (``03-<Scene>.mp4#t=98.4``),
which browsers open at that second. The model and deck ids are fixed and each
note's guid comes from the question's id, so a student who imports a rebuilt
deck gets its cards updated, not doubled.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

import genanki

from lecture.questions import LETTERS
from production.publish.course.items import CourseQuestion

__all__ = ["ANKI_DECK", "MODEL_ID", "DECK_ID", "FIELDS", "card_fields", "write_deck"]

ANKI_DECK = "attention.apkg"
MODEL_ID = 1_607_392_319
"""The note type's id: fixed, so Anki recognises the note type on every import."""
DECK_ID = 2_059_400_110
"""The deck's id: fixed, so a rebuilt deck merges into the one a student has."""
TIMESTAMP = 1_767_225_600.0
"""The time genanki stamps into the collection (2026-01-01): the same deck gives the same file."""
FIELDS = ("Question", "Answer", "Where", "Section")


def _model() -> genanki.Model:
    return genanki.Model(
        MODEL_ID,
        "Attention lecture question",
        fields=[{"name": name} for name in FIELDS],
        templates=[
            {
                "name": "Question",
                "qfmt": "<p class=section>{{Section}}</p>{{Question}}",
                "afmt": "{{FrontSide}}<hr id=answer>{{Answer}}<p>{{Where}}</p>",
            }
        ],
        css=".card { font-family: sans-serif; font-size: 20px; } .section { color: #666; font-size: 16px; }",
    )


def card_fields(q: CourseQuestion) -> list[str]:
    """The note's fields (HTML): answer and why wrong options are wrong; link; heading."""
    e = html.escape
    front = f"<p>{e(q.question.prompt)}</p>"
    back = f"<p>{e(q.question.answer)}</p>"
    if q.choice:
        front += "<ol type=A>" + "".join(f"<li>{e(o.text)}</li>" for o in q.question.options) + "</ol>"
        wrong = [
            f"<li>Not {LETTERS[k]}: {e(o.why_not)}</li>"
            for k, o in enumerate(q.question.options)
            if o.why_not
        ]
        back = f"<p><b>{q.right_letter}.</b> {e(q.question.answer)}</p><ul>{''.join(wrong)}</ul>"
    clock = f"{int(q.at // 60)}:{int(q.at % 60):02d}"
    where = f'<a href="{e(q.clip)}#t={q.at:g}">Watch it in {e(q.heading)}, at {clock}</a>'
    return [front, back, where, e(q.heading)]


def write_deck(questions: Sequence[CourseQuestion], title: str, out: Path) -> None:
    """Write the deck of ``questions`` to ``out`` (an ``.apkg``)."""
    model = _model()
    deck = genanki.Deck(DECK_ID, title)
    for q in questions:
        deck.add_note(
            genanki.Note(model=model, fields=card_fields(q), guid=genanki.guid_for(q.ident), tags=[q.scene])
        )
    genanki.Package(deck).write_to_file(str(out), timestamp=TIMESTAMP)
