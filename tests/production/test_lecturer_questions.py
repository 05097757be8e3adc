"""A lecturer's own question (lecture.toml) on the page, in the notes and in the QTI and Moodle banks.

The synthetic lecture (``conftest.py``) adds one question to section 5 and one,
with two options, to section 7, which has no data of its own.
"""

from __future__ import annotations

import html
import zipfile
from xml.etree import ElementTree as ET

import pytest

from lecture.clips import find_clip
from production.publish.course.items import course_questions
from production.publish.course.moodle import moodle_xml
from production.publish.course.qti import write_qti
from tests.production.conftest import LECTURER_QUESTIONS

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
SCENES = list(LECTURER_QUESTIONS)


def own(config, scene: str):
    """The lecturer's question of ``scene`` (the last of its list) and its number in that list, from 1."""
    questions = config.questions_for(find_clip(scene))
    return questions[-1], len(questions)


@pytest.mark.parametrize("scene", SCENES)
@pytest.mark.parametrize(("page", "section"), [("index.html", "section"), ("notes.html", "notes")])
def test_the_question_is_listed_with_its_options_and_feedback(lecture, browser, scene, page, section):
    q, k = own(lecture["config"], scene)
    tab = browser.new_page()
    try:
        tab.goto((lecture["out"] / page).as_uri())
        item = tab.locator(f"#{section}-{scene} .check .question").nth(k - 1)
        assert item.get_attribute("data-question") == f"{scene}-{k}"
        assert " ".join(item.locator("p").first.text_content().split()) == q.prompt
        assert item.locator(".options li").all_text_contents() == [o.text for o in q.options]
        item.locator("summary").click()
        assert item.locator(".answer").text_content() == f"{'ABCD'[q.right]}. {q.answer}"
        wrong = [f"Not {'ABCD'[i]}: {o.why_not}" for i, o in enumerate(q.options) if not o.right]
        assert item.locator(".why-not li").all_text_contents() == wrong
    finally:
        tab.close()


@pytest.fixture(scope="module")
def banks(lecture, tmp_path_factory):
    """The course's questions, and their QTI zip and Moodle XML, written from the synthetic lecture."""
    questions = course_questions(lecture["manifest"], lecture["config"])
    folder = tmp_path_factory.mktemp("banks")
    write_qti(questions, folder / "bank.zip")
    with zipfile.ZipFile(folder / "bank.zip") as z:
        items = {n: ET.fromstring(z.read(n)) for n in z.namelist() if n.startswith("items/")}
    moodle = ET.fromstring(moodle_xml(questions, "synthetic")).findall("question")[1:]
    return {"questions": questions, "qti": items, "moodle": moodle}


@pytest.mark.parametrize("scene", SCENES)
def test_the_question_is_in_the_qti_bank_with_its_right_option_and_feedback(lecture, banks, scene):
    q, k = own(lecture["config"], scene)
    placed = next(c for c in banks["questions"] if c.ident == f"{scene}-q{k}")
    assert placed.question == q and placed.choice and placed.at == 0.0  # the video does not ask it
    item = banks["qti"][f"items/{scene}-q{k}.xml"]
    interaction = item.find(f"{QTI}itemBody/{QTI}choiceInteraction")
    assert interaction.findtext(f"{QTI}prompt") == q.prompt
    choices = interaction.findall(f"{QTI}simpleChoice")
    assert [c.text for c in choices] == [o.text for o in q.options]
    right = item.findtext(f"{QTI}responseDeclaration/{QTI}correctResponse/{QTI}value")
    assert right == choices[q.right].get("identifier")
    feedback = {f.get("identifier"): f.text for f in item.findall(f"{QTI}modalFeedback")}
    for choice, option in zip(choices, q.options, strict=True):
        assert (option.why_not or q.answer) in feedback[choice.get("identifier")]


@pytest.mark.parametrize("scene", SCENES)
def test_the_question_is_in_the_moodle_bank(lecture, banks, scene):
    q, k = own(lecture["config"], scene)
    at = next(i for i, c in enumerate(banks["questions"]) if c.ident == f"{scene}-q{k}")
    el = banks["moodle"][at]
    assert el.get("type") == "multichoice" and html.unescape(el.findtext("questiontext/text")) == q.prompt
    answers = el.findall("answer")
    assert [html.unescape(a.findtext("text")) for a in answers] == [o.text for o in q.options]
    assert [a.get("fraction") for a in answers] == ["100" if o.right else "0" for o in q.options]
    for a, option in zip(answers, q.options, strict=True):
        if option.why_not:
            assert html.unescape(a.findtext("feedback/text")) == option.why_not
