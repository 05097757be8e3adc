"""The lecture page in headless Chromium: offline, every clip plays with captions, storyboards seek."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from lecture.clips import LECTURE
from production.publish.page import render_page
from production.publish.page.storyboard import THUMB_SIZE, beat_moments, ink, write_storyboard
from tests.production.browser import assert_no_axe_violations, open_page
from tests.production.conftest import FPS, SECONDS, SIZE, TITLE, square_x


def test_the_page_is_one_file_that_asks_for_nothing_but_local_files(lecture, opened):
    html = lecture["page"].read_text()
    assert not re.search(r"""(src|href)=["']?(https?:)?//|url\((https?:)?//|@import""", html)
    assert "<script src" not in html and "<link" not in html  # scripts and styles are inlined
    local = [u for u in opened.requests if not u.startswith(("file://", "data:"))]
    assert not local and not opened.blocked, (local, opened.blocked)


def test_lecturer_text_is_escaped(lecture, opened):
    html = lecture["page"].read_text()
    assert "<h1>Attention &lt;week 5&gt; &amp; more</h1>" in html
    assert opened.page.locator("h1").text_content() == TITLE
    assert "</script>" not in html.split('id="explore-data">')[1].split("</script>")[0]


def test_every_clip_plays_with_its_captions(lecture, opened):
    page = opened.page
    ids = ["lecture"] + [f"clip-{i:02d}" for i in range(len(LECTURE))]
    for vid in ids:
        state = page.evaluate(
            """async (id) => {
                const v = document.getElementById(id);
                v.muted = true;
                await v.play();
                await new Promise((ok) => setTimeout(ok, 150));
                v.pause();
                const track = [...v.textTracks].find((t) => t.kind === "captions");
                v.currentTime = 1.5;  // inside the second cue
                await new Promise((ok) => v.addEventListener("seeked", ok, { once: true }));
                await new Promise((ok) => setTimeout(ok, 100));
                const band = document.querySelector(`.caption-band[data-for="${id}"]`);
                const box = v.getBoundingClientRect();
                const under = band.getBoundingClientRect();
                return { played: v.currentTime > 0, mode: track.mode, cues: track.cues.length,
                         active: [...track.activeCues].map((c) => c.text), band: band.className,
                         shown: band.textContent, below: under.top >= box.bottom - 0.5,
                         lines: under.height / parseFloat(getComputedStyle(band).lineHeight) };
            }""",
            vid,
        )
        cues = 3 * len(LECTURE) if vid == "lecture" else 3
        # the browser draws no caption over the picture ("hidden" still fires the cues) ...
        assert state["played"] and state["mode"] == "hidden" and state["cues"] == cues, (vid, state)
        assert state["active"] and state["active"][0].startswith("Beat 2 of"), (vid, state)
        # ... the band under the video shows the active cue, with room for two lines
        assert state["band"] == "caption-band" and state["below"] and state["lines"] >= 2, (vid, state)
        assert state["shown"] == "\n".join(state["active"]), (vid, state)
    assert page.evaluate("document.body.dataset.errors") == "0"


def test_one_thumbnail_per_beat_with_its_text(lecture, opened):
    page = opened.page
    for clip in lecture["manifest"]["clips"]:
        buttons = page.locator(f"#section-{clip['scene']} button.beat")
        texts = [b["text"] for b in clip["beats"]]
        assert buttons.count() == len(clip["beats"]) == len(clip["storyboard"]) == SECONDS
        assert buttons.locator("img").evaluate_all("els => els.map((e) => e.alt)") == texts
        assert buttons.evaluate_all("els => els.map((e) => e.title)") == texts
        for shot in clip["storyboard"]:
            with Image.open(lecture["out"] / shot["image"]) as img:
                assert img.format == "JPEG" and img.size == THUMB_SIZE
        commands = page.locator(f"#section-{clip['scene']} code.preview-command").all_text_contents()
        slugs = [b["id"].split(".", 1)[1] for b in clip["beats"]]
        assert commands == [f"python -m scenes preview {clip['scene']} --beat {s}" for s in slugs]
    strip = page.locator("#section-TemperatureSweep button.beat")
    strip.first.scroll_into_view_if_needed()
    loaded = "els => els.every((e) => e.complete && e.naturalWidth > 0)"
    page.wait_for_function(  # lazy images load after they scroll into view, not at once
        f"({loaded})(Array.from(document.querySelectorAll('#section-TemperatureSweep button.beat img')))",
        timeout=10_000,
    )
    assert strip.locator("img").evaluate_all("els => els.every((e) => e.complete && e.naturalWidth > 0)")


def test_each_thumbnail_shows_a_moment_inside_its_beat(lecture):
    """The square's position tells the second a thumbnail came from; a beat ending blank shows its middle."""
    clip = lecture["manifest"]["clips"][3]
    scale = THUMB_SIZE[0] / SIZE[0]
    for k, shot in enumerate(clip["storyboard"]):
        pixels = np.asarray(Image.open(lecture["out"] / shot["image"]).convert("RGB"), dtype=int)
        yellow = np.flatnonzero(((pixels[..., 0] > 180) & (pixels[..., 2] < 140)).any(axis=0))
        assert yellow.size, f"beat {k + 1}: no square in the thumbnail"
        assert abs(yellow.min() / scale - square_x(k)) < 4, (k, yellow.min() / scale)


def test_clicking_or_pressing_enter_on_a_thumbnail_seeks_its_clip(lecture, opened):
    page = opened.page
    clip = lecture["manifest"]["clips"][2]
    video = "document.getElementById('clip-02')"
    strip = page.locator(f"#section-{clip['scene']} button.beat")
    strip.nth(2).click()
    assert page.evaluate(f"{video}.currentTime") == pytest.approx(clip["beats"][2]["start"], abs=1e-6)
    strip.nth(1).focus()
    page.keyboard.press("Enter")
    assert page.evaluate(f"{video}.currentTime") == pytest.approx(clip["beats"][1]["start"], abs=1e-6)
    page.wait_for_function(  # the mark follows the seek's timeupdate; the click before marked beat 3
        "document.querySelectorAll('#section-KernelRegressionCollapse button.beat')[1]"
        ".getAttribute('aria-current') === 'true'"
    )
    assert strip.nth(1).get_attribute("aria-current") == "true"


def test_thumbnails_are_written_again_only_for_a_newer_clip(lecture, tmp_path):
    result = lecture["results"][0]
    beats = lecture["manifest"]["clips"][0]["beats"]
    folder = result.video.parent / "storyboard" / result.video.stem
    before = {p.name: p.stat().st_mtime_ns for p in folder.glob("*.jpg")}
    write_storyboard(result.video, beats, float(SECONDS), FPS)
    assert {p.name: p.stat().st_mtime_ns for p in folder.glob("*.jpg")} == before
    (folder / "99.jpg").write_bytes(b"left over from a longer clip")
    os.utime(result.video)  # the clip is newer: re-rendered
    write_storyboard(result.video, beats[:2], float(SECONDS), FPS)
    assert sorted(p.name for p in folder.glob("*.jpg")) == ["01.jpg", "02.jpg"]
    write_storyboard(result.video, beats, float(SECONDS), FPS, force=True)


def test_beat_moments_stay_inside_the_beat_and_the_clip():
    beats = [{"start": 0.0, "end": 2.0}, {"start": 2.0, "end": 2.1}, {"start": 2.1, "end": 9.0}]
    assert beat_moments(beats, 5.0, 10.0) == [(1.75, 1.0), (2.0, 2.05), (4.9, 4.9)]


def test_ink_tells_a_blank_frame_from_a_drawn_one():
    blank = Image.new("RGB", (320, 180), theme_background())
    assert ink(blank) == 0.0
    drawn = blank.copy()
    drawn.paste((240, 228, 66), (10, 10, 50, 50))
    assert ink(drawn) > 0.02


def theme_background() -> tuple[int, int, int]:
    from drawing import theme

    return tuple(int(theme.BACKGROUND[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def test_a_lecture_without_figure_scenes_has_no_figure_data(lecture):
    manifest = dict(lecture["manifest"], clips=lecture["manifest"]["clips"][:2])
    html = render_page(manifest, Path(lecture["out"]))
    assert 'id="explore-data">{}</script>' in html and "data-explore=" not in html


def test_every_control_has_a_name_and_takes_the_keyboard(opened):
    unnamed = opened.page.evaluate(
        """() => [...document.querySelectorAll("input, button, select, textarea")]
            .filter((el) => !(el.labels?.length || el.getAttribute("aria-label") || el.textContent.trim()
                               || el.querySelector("img[alt]")))
            .map((el) => el.outerHTML.slice(0, 80))"""
    )
    assert unnamed == []
    untabbable = opened.page.evaluate(
        "() => [...document.querySelectorAll('.explore input, .explore button, button.beat')]"
        ".filter((el) => el.tabIndex < 0 && !el.closest('.decoder-grid')).length"
    )
    assert untabbable == 0
    # the decoder's 270 maps are one tab stop, moved through with the arrow keys (test_explore_decoder.py)
    stops = opened.page.evaluate(
        "() => [...document.querySelectorAll('.decoder-grid button')].filter((b) => b.tabIndex >= 0).length"
    )
    assert stops == 1


@pytest.mark.parametrize("width", [1280, 320])  # a laptop, and the 320 CSS pixels WCAG 1.4.10 reflows to
def test_axe_finds_no_wcag_a_or_aa_violations(lecture, browser, width):
    """axe-core, WCAG 2.0-2.2 A and AA, on a fresh page: every figure ready, then the other views."""
    opened = open_page(browser, lecture["page"].as_uri(), width=width)
    page = opened.page
    try:
        page.wait_for_function("document.querySelectorAll('[data-explore][data-ready]').length === 5")
        assert_no_axe_violations(page, f"index.html at {width} px")
        page.locator('input[data-view="model"]').check()
        page.wait_for_function("!document.querySelector('[data-pane=\"model\"]').hidden")
        assert_no_axe_violations(page, f"index.html at {width} px, section 5's trained-model view")
        for fig in ("s5", "s6"):
            page.locator(f'#explore-{fig} input[data-view="decoder"]').check()
            page.wait_for_function(
                f"!document.querySelector('#explore-{fig} [data-pane=\"decoder\"]').hidden"
            )
            assert_no_axe_violations(page, f"index.html at {width} px, section {fig[1]}'s decoder view")
    finally:
        page.close()


def test_no_console_errors(opened):
    """Last in the file: every test above has driven the page."""
    assert opened.console == []
