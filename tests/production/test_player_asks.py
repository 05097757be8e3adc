"""The player asks: each section's video pauses at its pause-and-predict beat and asks before it answers.

On the synthetic lecture (tests/production/conftest.py) every clip's second beat reads a question's options
(its caption ends at 1.9 s) and the third shows the answer (from 2.0 s): each section's player stops there.
"""

from __future__ import annotations

import pytest

from lecture.clips import LECTURE, find_clip
from tests.production.browser import assert_no_axe_violations, open_page
from tests.production.conftest import PLAYERS

SCENE = "TemperatureSweep"
CLIP = f"clip-{[c.scene for c in LECTURE].index(SCENE):02d}"


@pytest.fixture()
def page(lecture, browser):
    """The page, its videos loaded, every answer event kept in ``window.answers``."""
    opened = open_page(browser, lecture["page"].as_uri())
    page = opened.page
    page.wait_for_function(f"document.body.dataset.videosLoaded === '{PLAYERS}'", timeout=20000)
    page.evaluate(
        "window.answers = []; document.addEventListener('lecture-answer', e => answers.push(e.detail))"
    )
    yield page
    assert opened.console == []
    page.close()


def question(config):
    section = find_clip(SCENE)
    return section.ask(config.parameters_of(section))[0]


def play_until_asked(page, video: str) -> None:
    page.evaluate(f"v = document.getElementById('{video}'); v.muted = true; v.currentTime = 0; v.play()")
    page.wait_for_selector(f"#ask-{video}:not([hidden])", timeout=15000)


def test_the_video_pauses_and_asks_before_it_answers(lecture, page):
    play_until_asked(page, CLIP)
    asked = question(lecture["config"])
    state = page.evaluate(f"(v => [v.paused, v.currentTime])(document.getElementById('{CLIP}'))")
    assert state[0] and 1.85 <= state[1] < 2.0 + 0.3, state  # after the options are read, before the answer
    panel = page.locator(f"#ask-{CLIP}")
    assert " ".join(panel.locator(".ask-prompt").text_content().split()) == asked.prompt
    options = panel.locator(".ask-option").all_text_contents()
    assert options == [f"{'ABCD'[k]}. {o.text}" for k, o in enumerate(asked.options)]
    assert page.evaluate("document.activeElement.className") == "ask-prompt"  # focus moved to the question
    assert page.locator(f"#ask-{CLIP}-live").text_content().startswith(f"Question: {asked.prompt}")
    assert_no_axe_violations(page, "index.html with a question open")


def test_a_wrong_choice_says_why_then_the_answer_plays(lecture, page):
    play_until_asked(page, CLIP)
    asked = question(lecture["config"])
    wrong = next(k for k, o in enumerate(asked.options) if not o.right)
    page.locator(f"#ask-{CLIP} .ask-option").nth(wrong).click()
    feedback = page.locator(f"#ask-{CLIP} .ask-feedback").text_content()
    assert asked.options[wrong].why_not in feedback and f"The answer is {'ABCD'[asked.right]}" in feedback
    assert page.evaluate(
        f"document.getElementById('{CLIP}').paused"
    )  # nothing plays before the student goes on
    assert page.evaluate("document.activeElement.textContent") == "Play the answer"
    page.keyboard.press("Enter")
    page.wait_for_function(f"!document.getElementById('{CLIP}').paused")
    assert page.locator(f"#ask-{CLIP}").is_hidden()
    assert page.evaluate("answers") == [
        {"scene": SCENE, "video": CLIP, "chosen": wrong, "right": False, "skipped": False}
    ]


def test_the_right_choice_is_confirmed(lecture, page):
    play_until_asked(page, CLIP)
    asked = question(lecture["config"])
    page.locator(f"#ask-{CLIP} .ask-option").nth(asked.right).click()
    assert page.locator(f"#ask-{CLIP} .ask-feedback").text_content().startswith("Right")
    assert page.evaluate("answers")[0]["right"] is True


def test_escape_skips_and_the_video_goes_on(page):
    play_until_asked(page, CLIP)
    page.keyboard.press("Escape")
    page.wait_for_function(f"!document.getElementById('{CLIP}').paused")
    assert page.evaluate("answers") == [
        {"scene": SCENE, "video": CLIP, "chosen": None, "right": False, "skipped": True}
    ]


def test_the_setting_turns_the_pauses_off(page):
    setting = page.locator("#ask-setting")
    assert setting.is_visible() and setting.is_checked()
    setting.uncheck()
    page.evaluate(f"v = document.getElementById('{CLIP}'); v.muted = true; v.play()")
    page.wait_for_function(f"document.getElementById('{CLIP}').ended", timeout=15000)
    assert page.locator(f"#ask-{CLIP}").is_hidden() and page.evaluate("answers") == []


def test_the_whole_and_the_described_lecture_ask_where_their_own_timing_puts_the_beat(lecture, page):
    """The described lecture's beats move later by the descriptions it speaks: its stop is its own."""
    for video, clips in (("lecture", lecture["manifest"]["clips"]), ("lecture-described", None)):
        clips = clips or lecture["manifest"]["described"]["clips"]
        first = next(c for c in clips if c["scene"] != "LectureTitle")
        options = next(b for b in first["beats"] if b["id"].endswith("-predict"))
        stop = first["start"] + options["speech_end"]
        play_until_asked(page, video)
        at = page.evaluate(f"document.getElementById('{video}').currentTime")
        assert stop - 0.05 <= at < stop + 0.4, (video, at, stop)
        page.keyboard.press("Escape")
        page.evaluate(f"document.getElementById('{video}').pause()")


def test_a_sections_described_clip_asks_where_its_own_timing_puts_the_beat(lecture, page):
    """A section's described player, unfolded, stops after its own options beat: later than the clip's."""
    described = next(c for c in lecture["manifest"]["described"]["clips"] if c["scene"] == SCENE)
    options = next(b for b in described["beats"] if b["id"].endswith("-predict"))
    player = f"{CLIP}-described"
    page.evaluate(f"document.getElementById('{player}').closest('details').open = true")
    play_until_asked(page, player)
    at = page.evaluate(f"document.getElementById('{player}').currentTime")
    assert options["speech_end"] - 0.05 <= at < options["speech_end"] + 0.4, (at, options["speech_end"])
    assert options["speech_end"] > 2.0  # its descriptions came first: later than the plain clip's stop
    page.keyboard.press("Escape")
