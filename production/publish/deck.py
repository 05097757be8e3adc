"""Slides for live lectures: render each scene as a manim-slides deck, then one offline HTML, PPTX and PDF."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from atomic_files import copy_file, replacing
from lecture.section import Section
from lecture.settings import SceneSettings
from narration.beats import Beat, BeatsRecord
from production.media.captions import to_vtt
from production.media.soundtrack import add_voice
from production.media.video import probe, save_last_frame
from production.options import QUALITIES, REPO, RenderError, UsageError
from production.render.manim_run import check_latex, ensure_writable

__all__ = [
    "build_slides",
    "voice_slides",
    "slide_captions",
    "captioned_deck_html",
    "last_frame_posters",
    "accessible_deck_html",
    "CACHE_HOME",
]

CACHE_HOME = (
    REPO / ".cache"
)  # reveal.js assets for --offline live here (from npm, see tools/reveal_assets.sh)
SLIDES_SOURCE = REPO / "production" / "publish" / "slides.py"


def _manim_slides() -> list[str]:
    try:
        import manim_slides  # noqa: F401
    except ImportError:
        raise RenderError(
            "manim-slides is not installed: run `make slides`, or pip install -e '.[slides]'"
        ) from None
    return [sys.executable, "-m", "manim_slides"]


FETCH_TIMEOUT = 300
"""Seconds the reveal.js files may take to come from npm (``make setup`` puts them in the cache first)."""
RENDER_TIMEOUT = 3600
"""Seconds one scene's deck may take to render (the longest scene at 1080p takes about a quarter of it)."""
CONVERT_TIMEOUT = 900
"""Seconds one ``manim-slides convert`` may take: it reads the rendered slides, which are already there."""


def _run(cmd: list[str], cwd: Path, what: str, env: dict[str, str], timeout: float | None = None) -> None:
    """Run one step of the deck's making; a RenderError names the step if it fails or outlasts ``timeout``."""
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RenderError(f"{what} took over {timeout:g} s and was stopped") from None
    if proc.returncode != 0:
        shown = 60 if proc.returncode < 0 else 15  # killed by a signal: the stacks it printed, if any
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-shown:])
        raise RenderError(f"{what} failed (exit {proc.returncode}):\n{tail}")


def build_slides(
    clips: Sequence[Section], quality: str, out_dir: Path, *, settings: SceneSettings
) -> list[Path]:
    """Render ``<Scene>Slides`` for each clip and convert them into one deck: HTML, PPTX, PDF."""
    if quality not in QUALITIES:
        raise UsageError(f"quality must be one of {', '.join(QUALITIES)}, got {quality!r}")
    tool = _manim_slides()
    check_latex()
    ensure_writable(out_dir)
    work = out_dir / ".work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copy(REPO / "manim.cfg", work / "manim.cfg")
    env = {**os.environ, "XDG_CACHE_HOME": str(CACHE_HOME), "PYTHONPATH": str(REPO)}
    decks = [f"{c.scene}Slides" for c in clips]
    captions: list[str | None] = []  # each slide's captions (WebVTT), in the deck's order
    for i, deck in enumerate(decks, 1):
        print(f"[{i}/{len(decks)}] rendering {deck}", file=sys.stderr, flush=True)
        beats = work / f"{deck}.beats.json"  # the voice is laid per slide below, not mixed in by manim
        deck_env = {**env, **settings.replace(beats_out=beats).env()}
        render = [*tool, "render", f"-q{quality}", "--disable_caching", "--progress_bar", "none"]
        _run(
            [*render, str(SLIDES_SOURCE), deck], work, f"manim-slides render {deck}", deck_env, RENDER_TIMEOUT
        )
        if settings.voice.audible:
            print(f"voicing {deck}'s slides", file=sys.stderr, flush=True)
            voice_slides(work / "slides" / f"{deck}.json", BeatsRecord.read(beats), work / "voicing")
        captions += slide_captions(work / "slides" / f"{deck}.json", BeatsRecord.read(beats))
    print("reveal.js's files (from the cache make setup filled, or npm)", file=sys.stderr, flush=True)
    reveal = ["bash", str(REPO / "tools" / "reveal_assets.sh"), str(CACHE_HOME)]
    _run(reveal, work, "fetching reveal.js", env, FETCH_TIMEOUT)
    outputs = [_convert(tool, decks, fmt, out_dir, work, env, captions) for fmt in ("html", "pptx", "pdf")]
    shutil.rmtree(work, ignore_errors=True)
    return outputs


def _convert(
    tool: list[str],
    decks: list[str],
    fmt: str,
    out_dir: Path,
    work: Path,
    env: dict[str, str],
    captions: list[str | None],
) -> Path:
    """``manim-slides convert`` the rendered decks into ``slides.<fmt>``, mended for access."""
    print(f"converting the deck to {fmt}", file=sys.stderr, flush=True)
    out = out_dir / f"slides.{fmt}"
    extra = ["--one-file", "--offline"] if fmt == "html" else []
    with replacing(out) as tmp:
        _run(
            [*tool, "convert", "--to", fmt, *extra, *decks, str(tmp)],
            work,
            f"converting to {fmt}",
            env,
            CONVERT_TIMEOUT,
        )
        if fmt == "html":
            accessible_deck_html(tmp)
            captioned_deck_html(tmp, captions)
        if fmt == "pptx":
            last_frame_posters(tmp, work / "posters")
    print(f"wrote {out}", file=sys.stderr, flush=True)
    return out


def _slide_beats(deck_json: Path, record: BeatsRecord) -> list[Beat | None]:
    """Each slide's beat (None for a slide before the first beat): a beat starts a slide, notes its script."""
    from manim_slides.config import PresentationConfig  # the optional dependency

    beats = iter(record.beats)
    slides = PresentationConfig.from_file(deck_json).slides
    return [next(beats, None) if slide.notes.strip() else None for slide in slides]


def slide_captions(deck_json: Path, record: BeatsRecord) -> list[str | None]:
    """Each slide's captions as WebVTT, its beat's cues from the slide's start (None for no beat)."""
    beats = _slide_beats(deck_json, record)
    return [None if b is None else to_vtt(list(b.from_its_start().cues)) for b in beats]


def voice_slides(deck_json: Path, record: BeatsRecord, scratch: Path) -> None:
    """Lay each beat's voice into its slide's video (a slide is a beat: its notes are the beat's text).

    Each slide's sound starts with the slide, as the beat's starts with the beat,
    normalised as the clips' voice tracks are; a slide without a beat stays silent.
    """
    from manim_slides.config import PresentationConfig  # the optional dependency

    scratch.mkdir(parents=True, exist_ok=True)
    slides = PresentationConfig.from_file(deck_json).slides
    for k, (slide, beat) in enumerate(zip(slides, _slide_beats(deck_json, record), strict=True)):
        if beat is None or not beat.audio:
            continue  # animations before the first beat, or a silent beat: no voice
        own = beat.from_its_start()
        voiced = scratch / f"{k}{Path(slide.file).suffix}"
        record_k = BeatsRecord(record.scene, own.end, (own,))
        if add_voice(Path(slide.file), record_k, voiced, probe(slide.file).duration):
            copy_file(voiced, slide.file)


_HTML_TAG = re.compile(rb"<html(?![^>]*\blang=)([^>]*)>", re.IGNORECASE)
_META = re.compile(rb"<meta\b[^>]*>", re.IGNORECASE)
_VIEWPORT_NAME = re.compile(rb"""\bname\s*=\s*["']?viewport\b""", re.IGNORECASE)
_CONTENT = re.compile(rb"""(\bcontent\s*=\s*)(["'])[^"']*\2""", re.IGNORECASE)
VIEWPORT = b"width=device-width, initial-scale=1.0"
"""The deck's viewport: no maximum-scale or user-scalable=no, so a viewer can zoom (WCAG 1.4.4)."""


def _zoomable(meta: re.Match[bytes]) -> bytes:
    """A ``<meta name="viewport">`` tag (attributes in any order) with :data:`VIEWPORT` as its content."""
    tag = meta[0]
    if not _VIEWPORT_NAME.search(tag):
        return tag
    return _CONTENT.sub(lambda c: c[1] + c[2] + VIEWPORT + c[2], tag, count=1)


def accessible_deck_html(html: Path, lang: str = "en") -> None:
    """Mend manim-slides' reveal.js page in place: ``<html lang>`` (WCAG 3.1.1) and a zoomable viewport.

    manim-slides 5.7.0's template writes a bare ``<html>`` and a viewport with
    ``maximum-scale=1.0, user-scalable=no``, which axe-core reports as
    ``html-has-lang`` and ``meta-viewport``. Only the head is rewritten: the
    one-file deck's slides (base64 videos) follow it unchanged.

    >>> import tempfile
    >>> deck = Path(tempfile.mkdtemp()) / "slides.html"
    >>> viewport = "width=device-width, initial-scale=1.0, maximum-scale=1.0, user-scalable=no"
    >>> head = f'<meta charset="utf-8"/><meta content="{viewport}" name="viewport"/>'
    >>> _ = deck.write_text(f"<!DOCTYPE html><html><head>{head}</head>x")
    >>> accessible_deck_html(deck)
    >>> print(deck.read_text().replace("><", ">" + chr(10) + "<"))
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8"/>
    <meta content="width=device-width, initial-scale=1.0" name="viewport"/>
    </head>x
    """
    data = html.read_bytes()
    end = data.find(b"</head>")
    if end < 0:
        raise RenderError(f"{html}: no </head> in the deck manim-slides wrote")
    head = _HTML_TAG.sub(lambda m: b'<html lang="' + lang.encode() + b'"' + m[1] + b">", data[:end], count=1)
    head = _META.sub(_zoomable, head)
    if not re.search(rb"<html\b[^>]*\blang=", head, re.IGNORECASE) or re.search(
        rb"maximum-scale|user-scalable", head, re.IGNORECASE
    ):
        raise RenderError(
            f"{html}: the deck's <html> or viewport tag changed shape; update accessible_deck_html"
        )
    html.write_bytes(head + data[end:])


_CAPTIONS_SCRIPT = """<script>
/* Captions for the slides' videos (WCAG 1.2.2): reveal.js makes each slide's background video when the
   slide comes near, so each video gets its slide's track as it appears (production.publish.deck). */
Reveal.on("ready", function () {
  var captions = %s;
  function attach() {
    Reveal.getSlides().forEach(function (slide, i) {
      var background = Reveal.getSlideBackground(slide);
      var video = background && background.querySelector("video");
      if (!video || !captions[i] || video.querySelector("track")) return;
      var track = document.createElement("track");
      track.kind = "captions"; track.srclang = "en"; track.label = "English"; track.default = true;
      track.src = "data:text/vtt;base64," + captions[i];
      video.appendChild(track);
      track.track.mode = "showing";
    });
  }
  attach();
  new MutationObserver(attach).observe(Reveal.getBackgroundsElement(), { childList: true, subtree: true });
});
</script>
"""


def captioned_deck_html(html: Path, captions: Sequence[str | None]) -> None:
    """Give every slide's video of manim-slides' HTML deck its captions (a track added in the browser).

    manim-slides plays each slide as a reveal.js background video, made by
    reveal.js when the slide comes near, so the tracks cannot be written into
    the page: a script adds each slide's track (a WebVTT ``data:`` URI, in the
    slides' order) to its video as the video appears.
    """
    data = html.read_bytes()
    end = data.rfind(b"</body>")
    if end < 0:
        raise RenderError(f"{html}: no </body> in the deck manim-slides wrote")
    encoded = [None if c is None else base64.b64encode(c.encode()).decode("ascii") for c in captions]
    script = (_CAPTIONS_SCRIPT % json.dumps(encoded)).encode()
    html.write_bytes(data[:end] + script + data[end:])


def last_frame_posters(pptx: Path, scratch: Path) -> None:
    """Give every movie in ``pptx`` its last frame as its still (what the slide shows once played).

    manim-slides uses each video's first frame; the slide sorter, a printout and a
    viewer that cannot play video then show a blank slide.
    """
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE
    from pptx.oxml.ns import qn

    scratch.mkdir(parents=True, exist_ok=True)
    deck = Presentation(str(pptx))
    for k, slide in enumerate(deck.slides):
        for shape in slide.shapes:
            if shape.shape_type != MSO_SHAPE_TYPE.MEDIA:
                continue
            video_rid = shape.element.xpath(".//a:videoFile/@r:link")[0]
            video = scratch / f"{k}.mp4"
            video.write_bytes(slide.part.related_part(video_rid).blob)
            still = scratch / f"{k}.png"
            save_last_frame(video, still)
            _part, image_rid = slide.part.get_or_add_image_part(str(still))
            blip = shape.element.xpath(".//a:blip")[0]
            first_frame = blip.get(qn("r:embed"))
            blip.set(qn("r:embed"), image_rid)
            slide.part.drop_rel(first_frame)  # the first-frame still is no longer shown
    deck.save(str(pptx))
