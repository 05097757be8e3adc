"""The lecture file's ``questions`` key: the players ask (the default), require an answer, or never pause."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from lecture.clips import LECTURE
from lecture.config import ConfigError, load_config
from production.publish.page import render_page
from tests.production.browser import open_page

CLIP = f"clip-{[c.scene for c in LECTURE].index('TemperatureSweep'):02d}"


@pytest.mark.parametrize("value", ["ask", "required", "off"])
def test_the_key_takes_its_three_values(tmp_path, value):
    path = tmp_path / "lecture.toml"
    path.write_text(f'questions = "{value}"\n')
    assert load_config(path).questions == value


def test_a_bad_value_is_one_line_naming_the_key(tmp_path):
    path = tmp_path / "lecture.toml"
    path.write_text('questions = "sometimes"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value) == f"{path}: questions must be one of 'ask', 'required', 'off', got 'sometimes'"


def page_with(lecture, tmp_path, browser, mode: str):
    """The synthetic lecture's page rendered with ``questions = mode``, beside links to its files, opened."""
    for f in lecture["out"].iterdir():
        os.symlink(f, tmp_path / f.name)
    config = replace(lecture["config"], questions=mode)
    (tmp_path / "index.html").write_text(render_page(lecture["manifest"], lecture["out"], config))
    opened = open_page(browser, (tmp_path / "index.html").as_uri())
    opened.page.wait_for_function(f"document.getElementById('{CLIP}').readyState >= 1")
    opened.page.evaluate(
        f"v = document.getElementById('{CLIP}'); v.muted = true; v.currentTime = 1.5; v.play()"
    )
    return opened


def test_required_questions_have_no_skip_and_no_setting(lecture, tmp_path, browser):
    opened = page_with(lecture, tmp_path, browser, "required")
    page = opened.page
    page.wait_for_selector(f"#ask-{CLIP}:not([hidden])", timeout=15000)
    assert page.locator(f"#ask-{CLIP} .ask-skip").is_hidden() and page.locator("#ask-setting").is_hidden()
    page.keyboard.press("Escape")  # does not skip
    page.wait_for_timeout(300)
    assert page.locator(f"#ask-{CLIP}").is_visible() and page.evaluate(
        f"document.getElementById('{CLIP}').paused"
    )
    page.locator(f"#ask-{CLIP} .ask-option").first.click()
    page.locator(f"#ask-{CLIP} .ask-play").click()
    page.wait_for_function(f"!document.getElementById('{CLIP}').paused")
    assert opened.console == []
    page.close()


def test_questions_off_never_pause_and_stay_listed(lecture, tmp_path, browser):
    opened = page_with(lecture, tmp_path, browser, "off")
    page = opened.page
    page.wait_for_function(f"document.getElementById('{CLIP}').ended", timeout=15000)
    assert page.locator(f"#ask-{CLIP}").count() == 0 and page.locator("#ask-setting").is_hidden()
    assert page.locator("#section-TemperatureSweep details").count() > 0  # the questions, with their answers
    assert opened.console == []
    page.close()
