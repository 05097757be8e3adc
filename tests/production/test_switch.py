"""The switch between the lecture and the described lecture keeps the student's place (synthetic lecture)."""

from __future__ import annotations

import pytest

from production.publish.page.switch import timeline
from tests.production.browser import open_page
from tests.production.conftest import SECONDS


@pytest.fixture()
def page(lecture, browser):
    opened = open_page(browser, lecture["page"].as_uri())
    opened.page.wait_for_function("document.body.dataset.videosLoaded !== '0'")
    opened.page.wait_for_function(
        "['lecture', 'lecture-described'].every(id => document.getElementById(id).readyState >= 1)"
    )
    yield opened.page
    assert opened.console == []
    opened.page.close()


def beat_at(beats: list, t: float) -> list:
    return next(b for b in beats if b[1] <= t < b[2])


def test_switching_goes_to_the_same_beat_at_the_same_time_after_its_start(lecture, page):
    beats = timeline(lecture["manifest"])
    t = 2 * SECONDS + 1.4  # section 2's second beat, 0.4 s in
    page.evaluate(f"v = document.getElementById('lecture'); v.muted = true; v.currentTime = {t}; v.play()")
    page.wait_for_function(f"document.getElementById('lecture').currentTime > {t + 0.1}")
    page.locator("button.switch-video[data-to='lecture-described']").click()
    here = page.evaluate("document.getElementById('lecture').currentTime")
    beat = beat_at(beats["lecture"], here)
    there = next(b for b in beats["lecture-described"] if b[0] == beat[0])
    state = page.evaluate(
        "(v => [v.currentTime, v.paused, document.activeElement.id])"
        "(document.getElementById('lecture-described'))"
    )
    assert abs(state[0] - (there[1] + here - beat[1])) < 0.1, (state, there, here, beat)
    assert there[1] > beat[1]  # the described lecture is later at that beat: its descriptions came before
    assert page.evaluate("document.getElementById('lecture').paused") and state[2] == "lecture-described"
    assert not state[1]  # it plays on, as the lecture was playing
    page.evaluate("document.getElementById('lecture-described').pause()")
    page.locator("button.switch-video[data-to='lecture']").click()
    back = page.evaluate("document.getElementById('lecture').currentTime")
    assert beat_at(beats["lecture"], back)[0] == beat[0] and abs(back - here) < 0.1
    assert page.evaluate("document.getElementById('lecture').paused")  # it was paused: it stays paused
