"""The questions as Moodle XML (``attention-moodle.xml``): Moodle imports it without a plugin.

A question with options is ``multichoice`` (one answer, not shuffled,
lettered A to D): the right option has fraction 100, the others 0 and the
reason each is wrong as its feedback. A question without options is an
``essay`` whose written answer is the grader's information and the general
feedback. Texts are HTML (``format="html"``), so each is escaped once for
HTML before the XML writer escapes it for XML.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from xml.etree import ElementTree as ET

from production.publish.course.items import CourseQuestion

__all__ = ["MOODLE_XML", "moodle_xml"]

MOODLE_XML = "attention-moodle.xml"


def _text(parent: ET.Element, tag: str, text: str, **attrs: str) -> ET.Element:
    """``<tag format="html"><text>text</text></tag>`` under ``parent``, the text escaped for HTML."""
    el = ET.SubElement(parent, tag, {"format": "html", **attrs})
    ET.SubElement(el, "text").text = html.escape(text, quote=False)
    return el


def _settings(question: ET.Element, values: dict[str, str]) -> None:
    for tag, value in values.items():
        ET.SubElement(question, tag).text = value


def _question(quiz: ET.Element, q: CourseQuestion) -> None:
    """One ``<question>``: multichoice with feedback per answer, or an essay with its answer for graders."""
    question = ET.SubElement(quiz, "question", {"type": "multichoice" if q.choice else "essay"})
    name = ET.SubElement(question, "name")
    ET.SubElement(name, "text").text = f"{q.heading}: {q.ident}"
    _text(question, "questiontext", q.question.prompt)
    _text(question, "generalfeedback", q.question.answer)
    _settings(question, {"defaultgrade": "1", "penalty": "0", "hidden": "0", "idnumber": q.ident})
    if not q.choice:
        _settings(
            question,
            {
                "responseformat": "editor",
                "responserequired": "1",
                "responsefieldlines": "5",
                "attachments": "0",
                "attachmentsrequired": "0",
            },
        )
        _text(question, "graderinfo", q.question.answer)
        return
    _settings(question, {"single": "true", "shuffleanswers": "false", "answernumbering": "ABCD"})
    for option in q.question.options:
        answer = _text(question, "answer", option.text, fraction="100" if option.right else "0")
        _text(answer, "feedback", "Right." if option.right else option.why_not or "")


def moodle_xml(questions: Sequence[CourseQuestion], category: str) -> bytes:
    """The Moodle XML quiz of ``questions``, in the question-bank category ``category``."""
    quiz = ET.Element("quiz")
    heading = ET.SubElement(quiz, "question", {"type": "category"})
    ET.SubElement(ET.SubElement(heading, "category"), "text").text = f"$course$/{category}"
    for q in questions:
        _question(quiz, q)
    ET.indent(quiz)
    return ET.tostring(quiz, encoding="utf-8", xml_declaration=True)
