"""The switch between a player and its described one keeps the student's place (synthetic lecture).

The whole lecture has one; so does each section's clip, whose described player waits folded.
"""

from __future__ import annotations

import pytest

from production.publish.course.scorm import course_data
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
    page.evaluate(
        "window.switches = []; document.addEventListener('lecture-switch', e => switches.push(e.detail))"
    )
    t = 2 * SECONDS + 1.4  # section 2's second beat, 0.4 s in
    page.evaluate(f"v = document.getElementById('lecture'); v.muted = true; v.currentTime = {t}; v.play()")
    page.wait_for_function(f"document.getElementById('lecture').currentTime > {t + 0.1}")
    page.locator("button.switch-video[data-to='lecture-described']").click()
    (went,) = page.evaluate("switches")
    beat = beat_at(beats["lecture"], went["left"])
    there = next(b for b in beats["lecture-described"] if b[0] == beat[0])
    assert went["to"] == "lecture-described" and abs(went["at"] - (there[1] + went["left"] - beat[1])) < 0.01
    assert there[1] > beat[1]  # the described lecture is later at that beat: its descriptions came before
    state = page.evaluate(
        "(v => [v.paused, document.activeElement.id, document.getElementById('lecture').paused])"
        "(document.getElementById('lecture-described'))"
    )
    assert state == [False, "lecture-described", True]  # it plays on, as the lecture played; focus moved
    page.evaluate("document.getElementById('lecture-described').pause()")
    page.locator("button.switch-video[data-to='lecture']").click()
    back = page.evaluate("switches")[1]
    assert beat_at(beats["lecture"], back["at"])[0] == beat_at(beats["lecture-described"], back["left"])[0]
    assert beat_at(beats["lecture"], back["at"])[0] == beat[0]
    assert page.evaluate("document.getElementById('lecture').paused")  # it was paused: it stays paused


def test_a_sections_switch_unfolds_its_described_clip_at_the_same_moment(lecture, page):
    beats = timeline(lecture["manifest"])
    page.evaluate(
        "window.switches = []; document.addEventListener('lecture-switch', e => switches.push(e.detail))"
    )
    folded = "document.getElementById('clip-01-described').closest('details').open"
    assert page.evaluate(folded) is False  # out of the way until asked for
    page.evaluate("v = document.getElementById('clip-01'); v.muted = true; v.currentTime = 1.4")
    page.wait_for_function("document.getElementById('clip-01').seeking === false")
    page.locator("button.switch-video[data-to='clip-01-described']").click()
    (went,) = page.evaluate("switches")
    beat = beat_at(beats["clip-01"], went["left"])
    there = next(b for b in beats["clip-01-described"] if b[0] == beat[0])
    assert went["to"] == "clip-01-described" and abs(went["at"] - (there[1] + went["left"] - beat[1])) < 0.01
    assert there[1] > beat[1]  # its description came before, so the beat starts later there
    assert page.evaluate(folded) is True
    assert page.evaluate("document.activeElement.id") == "clip-01-described"
    page.locator("button.switch-video[data-from='clip-01-described']").click()
    back = page.evaluate("switches")[1]
    assert back["to"] == "clip-01" and beat_at(beats["clip-01"], back["at"])[0] == beat[0]


def test_every_sections_described_clip_is_on_the_page_and_in_the_course_data(lecture):
    html = lecture["page"].read_text()
    described = lecture["manifest"]["described"]["clips"]
    data = course_data(lecture["manifest"])
    for i, clip in enumerate(described):
        assert f'id="clip-{i:02d}-described"' in html and f'src="{clip["file"]}"' in html
        span = data["sections"][i]["videos"][f"clip-{i:02d}-described"]
        assert span == [0.0, clip["beats"][-1]["end"]]
