"""The questions as a QTI 2.1 bank (``attention-qti21.zip``), which Canvas, Blackboard and others import.

One ``assessmentItem`` file per question and an ``imsmanifest.xml`` (IMS
Content Packaging 1.1) listing each as an ``imsqti_item_xmlv2p1`` resource.
A question with options is a ``choiceInteraction`` whose
``responseDeclaration`` names the right option as its ``correctResponse``;
response processing scores 1 for it and sets ``FEEDBACK`` to the chosen
option, so each wrong option's ``modalFeedback`` says why it is wrong. A
question without options is an ``extendedTextInteraction`` (an essay), its
written answer given as feedback once the student has answered.
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from pathlib import Path
from xml.etree import ElementTree as ET

from lecture.questions import LETTERS
from production.publish.course.items import CourseQuestion

__all__ = ["QTI_ZIP", "QTI", "qti_item", "qti_manifest", "write_qti"]

QTI_ZIP = "attention-qti21.zip"
QTI = "http://www.imsglobal.org/xsd/imsqti_v2p1"
QTI_XSD = "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
CP = "http://www.imsglobal.org/xsd/imscp_v1p1"
XSI = "http://www.w3.org/2001/XMLSchema-instance"


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    """A QTI element under ``parent``."""
    el = ET.SubElement(parent, f"{{{QTI}}}{tag}", attrs)
    el.text = text
    return el


def _choice_id(k: int) -> str:
    return f"Choice{LETTERS[k]}"


def _declarations(item: ET.Element, q: CourseQuestion) -> None:
    """The response (with its correct choice, for a choice) and the SCORE and FEEDBACK outcomes."""
    if q.choice:
        response = _el(
            item, "responseDeclaration", identifier="RESPONSE", cardinality="single", baseType="identifier"
        )
        _el(_el(response, "correctResponse"), "value", _choice_id(q.question.right))
    else:
        _el(item, "responseDeclaration", identifier="RESPONSE", cardinality="single", baseType="string")
    score = _el(item, "outcomeDeclaration", identifier="SCORE", cardinality="single", baseType="float")
    _el(_el(score, "defaultValue"), "value", "0")
    _el(item, "outcomeDeclaration", identifier="FEEDBACK", cardinality="single", baseType="identifier")


def _body(item: ET.Element, q: CourseQuestion) -> None:
    """The item's body: its prompt and the choice among the options, or an essay box."""
    body = _el(item, "itemBody")
    if q.choice:
        interaction = _el(
            body, "choiceInteraction", responseIdentifier="RESPONSE", shuffle="false", maxChoices="1"
        )
        _el(interaction, "prompt", q.question.prompt)
        for k, option in enumerate(q.question.options):
            _el(interaction, "simpleChoice", option.text, identifier=_choice_id(k))
    else:
        interaction = _el(body, "extendedTextInteraction", responseIdentifier="RESPONSE", expectedLines="4")
        _el(interaction, "prompt", q.question.prompt)


def _processing(item: ET.Element, q: CourseQuestion) -> None:
    """Score 1 for the right option; FEEDBACK names the chosen option (or ANSWER for an essay)."""
    rp = _el(item, "responseProcessing")
    feedback = _el(rp, "setOutcomeValue", identifier="FEEDBACK")
    if not q.choice:
        _el(feedback, "baseValue", "ANSWER", baseType="identifier")
        return
    _el(feedback, "variable", identifier="RESPONSE")
    condition = _el(rp, "responseCondition")
    match = _el(_el(condition, "responseIf"), "match")
    _el(match, "variable", identifier="RESPONSE")
    _el(match, "correct", identifier="RESPONSE")
    _el(_el(condition[0], "setOutcomeValue", identifier="SCORE"), "baseValue", "1", baseType="float")


def _feedback(item: ET.Element, q: CourseQuestion) -> None:
    """One ``modalFeedback`` per option (why a wrong one is wrong), or the essay's answer."""
    if not q.choice:
        _el(
            item,
            "modalFeedback",
            q.question.answer,
            outcomeIdentifier="FEEDBACK",
            identifier="ANSWER",
            showHide="show",
        )
        return
    for k, option in enumerate(q.question.options):
        said = f"Right. {q.question.answer}" if option.right else f"Not {LETTERS[k]}: {option.why_not}"
        _el(
            item,
            "modalFeedback",
            said,
            outcomeIdentifier="FEEDBACK",
            identifier=_choice_id(k),
            showHide="show",
        )


def qti_item(q: CourseQuestion) -> bytes:
    """One question as a QTI 2.1 ``assessmentItem`` document."""
    ET.register_namespace("", QTI)
    ET.register_namespace("xsi", XSI)
    item = ET.Element(
        f"{{{QTI}}}assessmentItem",
        {
            f"{{{XSI}}}schemaLocation": f"{QTI} {QTI_XSD}",
            "identifier": q.ident,
            "title": f"{q.heading}: question {q.ident.rsplit('q', 1)[1]}",
            "adaptive": "false",
            "timeDependent": "false",
        },
    )
    _declarations(item, q)
    _body(item, q)
    _processing(item, q)
    _feedback(item, q)
    ET.indent(item)
    return ET.tostring(item, encoding="utf-8", xml_declaration=True)


def qti_manifest(questions: Sequence[CourseQuestion]) -> bytes:
    """The bank's ``imsmanifest.xml``: each item file as an ``imsqti_item_xmlv2p1`` resource."""
    ET.register_namespace("", CP)
    root = ET.Element(f"{{{CP}}}manifest", {"identifier": "attention-qti21"})
    ET.SubElement(root, f"{{{CP}}}organizations")
    resources = ET.SubElement(root, f"{{{CP}}}resources")
    for q in questions:
        href = f"items/{q.ident}.xml"
        resource = ET.SubElement(
            resources,
            f"{{{CP}}}resource",
            {"identifier": f"res-{q.ident}", "type": "imsqti_item_xmlv2p1", "href": href},
        )
        ET.SubElement(resource, f"{{{CP}}}file", {"href": href})
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def write_qti(questions: Sequence[CourseQuestion], out: Path) -> None:
    """Write the QTI 2.1 bank of ``questions`` to the zip ``out``."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("imsmanifest.xml", qti_manifest(questions))
        for q in questions:
            z.writestr(f"items/{q.ident}.xml", qti_item(q))
