"""Decks for live lectures: the manim 0.22 shim for manim-slides, and a real offline deck."""

from __future__ import annotations

import base64
import builtins
import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from manim import config, tempconfig
from PIL import Image

from lecture.clips import LECTURE, find_clip
from lecture.config import load_config
from manim_patches import install_slides_config as patch_manim_config
from production.media.soundtrack import decode_audio
from production.options import RenderError
from production.publish.deck import accessible_deck_html
from production.publish.script import scene_beats
from production.publish.slides import DECKS
from tests.production.browser import assert_no_axe_violations, open_page
from tests.production.shard_helpers import rgb_frames

REPO = Path(__file__).resolve().parents[2]


def test_shim_restores_the_keys_manim_slides_sets():
    patch_manim_config()
    patch_manim_config()  # idempotent
    with tempconfig({}):
        config["max_files_cached"] = float("inf")
        assert config["max_files_cached"] == -1  # manim 0.22's spelling of "no limit"
        config["max_files_cached"] = 7
        assert config["max_files_cached"] == 7
        with pytest.raises(ValueError):
            config["max_files_cached"] = -5
        config["flush_cache"] = True
        assert config["flush_cache"] is False
        config["write_to_movie"] = True
        assert config["write_to_movie"] is True


def test_every_scene_has_a_deck():
    assert list(DECKS) == [c.scene for c in LECTURE]
    for clip in LECTURE:
        assert DECKS[clip.scene].__name__ == f"{clip.scene}Slides"
        assert DECKS[clip.scene].skip_reversing  # no forked reversing pool: it could hang (see slides.py)
        assert hasattr(DECKS[clip.scene], "next_slide")


def test_missing_manim_slides_says_how_to_install(monkeypatch):
    from production.publish import deck

    real_import = builtins.__import__

    def no_slides(name, *args, **kwargs):
        if name == "manim_slides":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_slides)
    with pytest.raises(RenderError, match=r"make slides"):
        deck._manim_slides()


def test_the_deck_template_gets_a_language_and_a_zoomable_viewport(tmp_path):
    """manim-slides' own reveal.js template, as installed: mended as build_slides mends the deck it writes."""
    import manim_slides

    deck = tmp_path / "slides.html"
    deck.write_text((Path(manim_slides.__file__).parent / "templates" / "revealjs.html").read_text())
    accessible_deck_html(deck)
    head = deck.read_text().split("</head>")[0]
    assert re.search(r'<html lang="en">', head)
    [viewport] = re.findall(r'<meta name="viewport" content="([^"]*)"', head)
    assert viewport == "width=device-width, initial-scale=1.0"
    deck.write_text("<html><body>no head</body></html>")
    with pytest.raises(RenderError, match="no </head>"):
        accessible_deck_html(deck)


def test_a_step_of_the_deck_that_outlasts_its_time_is_stopped_and_named(tmp_path):
    from production.publish.deck import _run

    with pytest.raises(RenderError, match=r"^sleeping took over 0.5 s and was stopped$"):
        _run(["sleep", "30"], tmp_path, "sleeping", {}, 0.5)
    with pytest.raises(RenderError, match=r"failing failed \(exit 3\):\nwhy"):
        _run(["bash", "-c", "echo why; exit 3"], tmp_path, "failing", {})


def test_make_setup_put_reveal_js_where_the_deck_reads_it():
    """So ``make slides`` (and the test below) reaches no network: the files are in the checkout's cache."""
    from production.publish.deck import CACHE_HOME

    folder = CACHE_HOME / "manim-slides" / "revealjs6.0.1"
    missing = [f for f in ("reveal.js", "reveal.css", "black.css", "notes.js") if not (folder / f).is_file()]
    assert not missing, f"{missing} not in {folder}: run `make setup`"


@pytest.mark.render
def test_slides_command_writes_an_offline_html_pptx_and_pdf(tmp_path, browser):
    config_file = tmp_path / "one.toml"
    config_file.write_text('scenes = ["LectureTitle"]\n')
    media = tmp_path / "media"
    cmd = [sys.executable, "-m", "scenes", "--config", str(config_file), "slides", "--quality", "l"]
    proc = run_or_show_where_it_hangs([*cmd, "--media-dir", str(media)], timeout=540)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = media / "slides" / "480p15"
    html = (out / "slides.html").read_text()
    assert "reveal" in html.lower()
    assert not re.search(r'(src|href)="https?://', html), "the deck must not load anything from the network"
    assert html.count("<section") >= 2  # the title scene pauses once: two slides
    assert '<html lang="en"' in html and "user-scalable" not in html.split("</head>")[0]
    with zipfile.ZipFile(out / "slides.pptx") as pptx:
        slides = [n for n in pptx.namelist() if re.fullmatch(r"ppt/slides/slide\d+\.xml", n)]
    assert len(slides) >= 2
    planned = scene_beats(find_clip("LectureTitle"), load_config(config_file))
    beats = [b.text for b in planned]
    assert_notes_are_the_script(out, beats, browser)
    assert_every_slide_has_its_beats_captions(out, [[c.text for c in b.cues] for b in planned], browser)
    assert_every_slide_speaks_and_shows_its_last_frame(out, tmp_path, browser)
    pdf = (out / "slides.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 2


def run_or_show_where_it_hangs(cmd: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """Run ``cmd``; if it outlasts ``timeout``, fail with where its processes were (Python's faulthandler).

    Once, in CI only, the deck's command hung after "rendering LectureTitleSlides" until the test's
    timeout killed it, with nothing said. Now every process under it gets SIGABRT, children first:
    each Python one prints its threads' stacks, and the command reports its child's last lines.
    """
    import os
    import signal

    import psutil

    env = {**os.environ, "PYTHONFAULTHANDLER": "1"}
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for child in reversed(psutil.Process(proc.pid).children(recursive=True)):
            child.send_signal(signal.SIGABRT)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            out, err = proc.communicate()
        pytest.fail(f"{' '.join(cmd[2:])} hung for {timeout:g} s; where it was:\n{err[-6000:]}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def assert_notes_are_the_script(out, beats: list[str], browser) -> None:
    """Every slide's speaker notes are its beat's script: in Chromium (reveal.js) and in the PPTX.

    While the deck is open, axe-core finds no WCAG 2.x A or AA violation in it.
    """
    from pptx import Presentation

    opened = open_page(browser, (out / "slides.html").as_uri())  # the session's Chromium
    notes = opened.page.evaluate(
        "Array.from(document.querySelectorAll('.slides > section'))"
        ".map(s => (s.querySelector('aside.notes') || {textContent: ''}).textContent.trim())"
    )
    assert_no_axe_violations(opened.page, "slides.html")
    opened.page.close()
    assert notes == beats, "slides.html: each slide's notes (press S) must be its beat's script"
    deck = Presentation(str(out / "slides.pptx"))
    pptx_notes = [s.notes_slide.notes_text_frame.text if s.has_notes_slide else "" for s in deck.slides]
    assert pptx_notes == beats, "slides.pptx: each slide's notes page must hold its beat's script"


CAPTIONS_OF_SLIDE = """async (i) => {
    Reveal.slide(i);
    const slide = Reveal.getSlides()[i];
    for (let t = 0; t < 100; t++) {
        const video = Reveal.getSlideBackground(slide).querySelector("video");
        const track = video && video.textTracks[0];
        if (track && track.cues && track.cues.length)
            return { kind: track.kind, mode: track.mode, cues: [...track.cues].map((c) => c.text) };
        await new Promise((ok) => setTimeout(ok, 100));
    }
    return null;
}"""


def assert_every_slide_has_its_beats_captions(out: Path, cues: list[list[str]], browser) -> None:
    """In Chromium, each slide's video shows a captions track whose cues are its beat's (WCAG 1.2.2)."""
    opened = open_page(browser, (out / "slides.html").as_uri())
    try:
        for i, want in enumerate(cues):
            got = opened.page.evaluate(CAPTIONS_OF_SLIDE, i)
            assert got is not None, f"slides.html: slide {i + 1}'s video has no captions"
            assert got["kind"] == "captions" and got["mode"] == "showing", got
            assert got["cues"] == want, f"slides.html: slide {i + 1}'s captions are not its beat's"
        assert not opened.console, opened.console
    finally:
        opened.page.close()


def has_sound(video: bytes, scratch: Path) -> bool:
    """Whether a video carries an audio track with speech-level sound in it."""
    scratch.write_bytes(video)
    sound = decode_audio(scratch)
    return sound is not None and float(np.abs(sound).max()) > 0.05


def assert_every_slide_speaks_and_shows_its_last_frame(out: Path, tmp_path: Path, browser) -> None:
    """Each slide's video carries its beat's voice (HTML, PPTX); each PPTX still is its movie's last frame."""
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    opened = open_page(browser, (out / "slides.html").as_uri())
    sources = opened.page.evaluate(
        "Array.from(document.querySelectorAll('.slides > section')).map(s => s.dataset.backgroundVideo)"
    )
    opened.page.close()
    for k, source in enumerate(sources):
        video = base64.b64decode(source.split(",", 1)[1])
        assert has_sound(video, tmp_path / f"html-{k}.mp4"), f"slides.html: slide {k + 1} is silent"
    deck = Presentation(str(out / "slides.pptx"))
    for k, slide in enumerate(deck.slides):
        [movie] = [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.MEDIA]
        video = slide.part.related_part(movie.element.xpath(".//a:videoFile/@r:link")[0]).blob
        assert has_sound(video, tmp_path / f"pptx-{k}.mp4"), f"slides.pptx: slide {k + 1}'s movie is silent"
        still_rid = movie.element.xpath(".//a:blip/@r:embed")[0]
        still = np.asarray(Image.open(io.BytesIO(slide.part.related_part(still_rid).blob)).convert("RGB"))
        last = rgb_frames(tmp_path / f"pptx-{k}.mp4")[-1]
        assert np.abs(still.astype(np.int16) - last).mean() < 1.0, f"slides.pptx: slide {k + 1}'s still"
