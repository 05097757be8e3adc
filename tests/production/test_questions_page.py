"""Check yourself on the page and in the notes: questions, hidden answers, with and without JavaScript."""

from __future__ import annotations

import numpy as np
import pytest

from lecture.clips import LECTURE
from tests.production.browser import open_page

PAGES = ("index.html", "notes.html")
SECTION = {"index.html": "#section-{}", "notes.html": "#notes-{}"}


def asked(config):
    """Scene -> its questions, computed with the synthetic lecture's data, then the lecturer's own."""
    return {c.scene: config.questions_for(c) for c in LECTURE}


@pytest.fixture(scope="module", params=[True, False], ids=["javascript", "no-javascript"])
def pages(request, lecture, browser):
    """Both pages, in a browser context with or without JavaScript."""
    context = browser.new_context(java_script_enabled=request.param, viewport={"width": 1100, "height": 900})
    opened = {}
    for name in PAGES:
        page = context.new_page()
        page.goto((lecture["out"] / name).as_uri())
        page.wait_for_load_state("load")
        opened[name] = page
    yield opened
    context.close()


@pytest.mark.parametrize("name", PAGES)
def test_every_section_asks_its_questions_with_the_answers_hidden(lecture, pages, name):
    page = pages[name]
    for scene, questions in asked(lecture["config"]).items():
        block = page.locator(SECTION[name].format(scene)).locator(".check .question")
        assert block.count() == len(questions), (name, scene)
        for k, question in enumerate(questions):
            item = block.nth(k)
            assert " ".join(item.locator("p").first.text_content().split()) == question.prompt
            answer = item.locator(".answer")
            lead = f"{'ABCD'[question.right]}. " if question.options else ""
            assert " ".join(answer.text_content().split()) == lead + question.answer
            assert not answer.is_visible(), f"{scene} answer {k + 1} shows before it is asked for"


@pytest.mark.parametrize("name", PAGES)
def test_an_answer_opens_on_click_and_on_the_keyboard(lecture, pages, name):
    page = pages[name]
    items = page.locator(SECTION[name].format("TemperatureSweep")).locator(".check .question")
    first, second = items.nth(0), items.nth(1)
    first.locator("summary").click()
    assert first.locator(".answer").is_visible()
    second.locator("summary").focus()
    page.keyboard.press("Enter")
    assert second.locator(".answer").is_visible()
    page.keyboard.press("Enter")
    assert not second.locator(".answer").is_visible()


def test_the_answers_follow_the_lecturers_data(lecture, pages):
    """The synthetic lecture's six scores (tests/production/conftest.py), not the defaults: their mean,
    0.950, and their best value J* at tau 0.6 before and after a shift of 5, by scipy."""
    from scipy.special import logsumexp

    scores = np.array([0.5, 2.0, 1.0, 3.0, 0.2, -1.0])
    best = 0.6 * logsumexp(scores / 0.6)
    page = pages["notes.html"]
    answers = page.locator("#notes-TemperatureSweep .check .answer").all_text_contents()
    assert answers[0].startswith("C. The plain mean of the scores, 0.950:")
    assert answers[1].startswith("C. The weights stay:")
    assert answers[1].endswith(f"(at \u03c4 = 0.6, from {best:.2f} to {best + 5:.2f}).")


def test_the_title_section_has_no_questions(pages):
    for name in PAGES:
        assert pages[name].locator(SECTION[name].format("LectureTitle") + " .check").count() == 0


def test_the_pages_fetch_nothing_for_the_questions(lecture, browser):
    opened = open_page(browser, (lecture["out"] / "notes.html").as_uri())
    opened.page.wait_for_load_state("load")
    assert opened.blocked == []
    opened.page.close()
