"""notes.html in headless Chromium: offline, the manifest's beats, their thumbnails, the equations."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image

from lecture.clips import LECTURE, find_clip
from production.publish.page.equations import equation_svg, inline_svg
from tests.production.browser import assert_no_axe_violations, open_page
from tests.production.conftest import TITLE

# tests that share this module's fixtures run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("notes")


@pytest.fixture(scope="module")
def notes(lecture, browser):
    """notes.html open at 1000 pixels wide; every request that is not a local file is recorded and aborted."""
    opened = open_page(browser, (lecture["out"] / "notes.html").as_uri(), width=1000)
    page = opened.page
    page.wait_for_load_state("load")
    yield opened
    page.close()


def test_the_build_writes_the_notes_and_the_page_links_them(lecture):
    notes = lecture["out"] / "notes.html"
    assert notes.is_file() and not list(lecture["out"].glob(".*.partial"))
    assert '<a href="notes.html">' in lecture["page"].read_text()
    html = notes.read_text()
    assert "<script" not in html and "<link" not in html  # one file: the style and equations are inlined
    assert not re.search(r"""(src|href)=["']?(https?:)?//|url\(|@import""", html)


def test_the_notes_ask_for_nothing_but_local_files(notes):
    assert notes.blocked == []
    assert notes.requests and all(u.startswith("file://") for u in notes.requests), notes.requests


def test_every_beat_of_the_manifest_in_order_under_its_section(lecture, notes):
    page = notes.page
    clips = lecture["manifest"]["clips"]
    assert page.locator("h1").text_content() == TITLE
    assert page.locator("section.notes").evaluate_all("els => els.map((e) => e.id)") == [
        f"notes-{c['scene']}" for c in clips
    ]
    for clip in clips:
        section = page.locator(f"#notes-{clip['scene']}")
        assert clip["title"] in section.locator("h2").text_content()
        shown = section.locator(".beat").evaluate_all(
            "els => els.map((e) => [e.dataset.beat, e.querySelector('p').textContent])"
        )
        assert [b for b, _ in shown] == [b["id"] for b in clip["beats"]]
        for (_, text), beat in zip(shown, clip["beats"], strict=True):
            assert text.strip().endswith(beat["text"]), (text, beat["text"])


def test_every_thumbnail_loads(lecture, notes):
    page = notes.page
    n_beats = sum(len(c["beats"]) for c in lecture["manifest"]["clips"])
    images = page.locator(".beat img")
    assert images.count() == n_beats
    wanted = [s["image"] for c in lecture["manifest"]["clips"] for s in c["storyboard"]]
    assert images.evaluate_all("els => els.map((e) => e.getAttribute('src'))") == wanted
    page.wait_for_function(
        "[...document.querySelectorAll('.beat img')].every((e) => e.complete && e.naturalWidth > 0)",
        timeout=10_000,
    )


def test_every_equation_renders(lecture, notes):
    page = notes.page
    for clip in lecture["manifest"]["clips"]:
        svgs = page.locator(f"#notes-{clip['scene']} .equation svg")
        assert svgs.count() == len(find_clip(clip["scene"]).equations)
        for k in range(svgs.count()):
            svg = svgs.nth(k)
            svg.scroll_into_view_if_needed()
            box = svg.bounding_box()
            assert box and box["width"] > 20 and box["height"] > 5, (clip["scene"], k, box)
            pixels = np.asarray(Image.open(io.BytesIO(svg.screenshot())).convert("L"), dtype=int)
            assert pixels.max() - pixels.min() > 100, (clip["scene"], k)  # glyphs drawn, not an empty box
    # the glyphs every <use> points at are in its own SVG: no two equations share an id
    broken = page.evaluate(
        """() => {
            const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
            const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
            const bad = [...document.querySelectorAll('.equation use')].filter((u) => {
                const ref = (u.getAttribute('href') || u.getAttribute('xlink:href')).slice(1);
                return !u.closest('svg').querySelector(`[id="${ref}"]`);
            });
            return { dup: dup.length, bad: bad.length };
        }"""
    )
    assert broken == {"dup": 0, "bad": 0}


def test_equations_take_the_text_colour(notes):
    colours = notes.page.locator(".equation svg").evaluate_all(
        "els => [...new Set(els.map((e) => getComputedStyle(e).fill + '|'"
        " + getComputedStyle(e.parentNode).color))]"
    )
    assert len(colours) == 1
    fill, text = colours[0].split("|")
    assert fill == text


def test_notes_print_one_section_per_page(lecture, notes):
    pdf = notes.page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    assert pages >= len(lecture["manifest"]["clips"])


def test_axe_finds_no_wcag_a_or_aa_violations(lecture, notes, browser):
    assert_no_axe_violations(notes.page, "notes.html at 1000 px")
    narrow = open_page(browser, (lecture["out"] / "notes.html").as_uri(), width=320)
    try:
        narrow.page.wait_for_load_state("load")
        assert_no_axe_violations(narrow.page, "notes.html at 320 px")
    finally:
        narrow.page.close()


def test_no_console_errors(notes):
    assert notes.console == []


def test_every_section_has_equations_and_their_svg_inlines(tmp_path):
    assert all(section.equations for section in LECTURE)
    svg = inline_svg(equation_svg(r"a_i \propto \exp(s_i / \tau)", tmp_path), "eq-x-1", r"a < b & c")
    assert svg.startswith("<svg") and "<?xml" not in svg
    assert "fill='currentColor'" in svg and re.search(r"width='[0-9.]+em' height='[0-9.]+em'", svg)
    assert "aria-label='a &lt; b &amp; c'" in svg
    ids = re.findall(r"\bid='([^']+)'", svg)
    refs = re.findall(r"href='#([^']+)'", svg)
    assert ids and refs and all(i.startswith("eq-x-1-") for i in ids) and set(refs) <= set(ids)
