"""The lecture's offline page: every clip with captions and a storyboard, and Explore figures.

``index.html`` is rendered from ``templates/index.html.j2`` with Jinja2; the
page's CSS and JavaScript (``assets/``) and the figures' data are inlined, so
the page is one file that works from ``file://`` with no network. Only the
videos, their posters and the storyboard thumbnails sit beside it.

``notes.html`` (``templates/notes.html.j2``, :func:`render_notes`) is the
lecture for reading: each section's narration, beat by beat, from the same
manifest beats the video speaks, each beside its storyboard thumbnail, and the
section's key equations (:mod:`production.publish.page.equations`) typeset to inline
SVG. It prints to PDF from the browser.

``transcript.html`` (``templates/transcript.html.j2``, :func:`render_transcript`)
is the descriptive transcript: speech, pictures and equations in order
(:mod:`production.publish.page.transcript`).
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from lecture.clips import find_clip
from lecture.config import LectureConfig
from lecture.section import section_heading
from production.publish.page.asking import asked_questions, stops
from production.publish.page.equations import typeset
from production.publish.page.palette import page_colours
from production.publish.page.storyboard import write_storyboard
from production.publish.page.switch import clip_player, described_clips, described_player, timeline
from production.publish.page.transcript import transcript_sections

__all__ = [
    "render_page",
    "render_notes",
    "render_transcript",
    "write_storyboard",
    "figures_data",
    "environment",
    "ASSETS",
    "TEMPLATES",
]

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
ASSETS = HERE / "assets"
SCRIPTS = ("explore/common.js", "explore/ports.js")
MIME = {"mp4": "video/mp4", "webm": "video/webm"}


def environment(templates: Path = TEMPLATES) -> Environment:
    """The pages' Jinja2 environment (autoescaped, strict), loading from ``templates``."""
    env = Environment(
        loader=FileSystemLoader(templates),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["clock"] = lambda t: f"{int(t // 60)}:{int(t % 60):02d}"
    env.filters["log10"] = math.log10
    return env


def data_uri(path: Path, mime: str = "text/vtt") -> str:
    """A small file as a data: URI: pages opened from file:// may not fetch track files."""
    return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _asset(name: str) -> str:
    return (ASSETS / name).read_text()


def inline_json(data: Any) -> Markup:
    """JSON safe inside a <script> element: no ``<`` can close it early."""
    return Markup(json.dumps(data, allow_nan=False, separators=(",", ":")).replace("<", "\\u003c"))


def _section_heading(clip: Mapping[str, Any]) -> str:
    """A manifest clip's section heading (:func:`lecture.clips.section_heading`)."""
    return section_heading(clip["section"], clip["title"])


def _clip_context(
    clip: Mapping[str, Any], folder: Path, index: int, described: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """What the template needs of one clip: its player, storyboard, embed snippet and described player."""
    shots = {s["beat"]: s for s in clip.get("storyboard", [])}
    heading = _section_heading(clip)
    player = clip_player(index)
    return {
        **clip,
        "id": player,
        "heading": heading,
        "tracks": _tracks(clip["captions"], folder),
        "beats": [{**b, "image": shots[b["id"]]["image"]} for b in clip["beats"] if b["id"] in shots],
        "described": described
        and {**described, "id": described_player(player), "tracks": _tracks(described["captions"], folder)},
    }


def _tracks(
    captions: Mapping[str, str], folder: Path, chapters: str | None = None
) -> list[tuple[str, str, str]]:
    """A player's tracks (kind, data: URI, label): captions, its audio description if any, chapters if any."""
    tracks = [("captions", data_uri(folder / captions["vtt"]), "English")]
    if "descriptions" in captions:
        tracks.append(("descriptions", data_uri(folder / captions["descriptions"]), "Audio description"))
    if chapters is not None:
        tracks.append(("chapters", data_uri(folder / chapters), "Chapters"))
    return tracks


def figures_data(clips: Sequence[Mapping[str, Any]], config: LectureConfig) -> dict[str, Any]:
    """Figure id -> data, for the manifest's clips whose section has an Explore figure (``config``'s data).

    Each section computes its figure's data from its parameters
    (:meth:`lecture.section.Section.figure_data`): the lecturer's values where the
    file sets them, the same values the scene renders with.
    """
    sections = (find_clip(c["scene"]) for c in clips)
    return {s.figure_id: s.figure_data(config.parameters_of(s)) for s in sections if s.figure is not None}


def _clips_context(manifest: Mapping[str, Any], folder: Path, config: LectureConfig) -> list[dict[str, Any]]:
    """Every clip's context, with its Explore figure's id (None without one) and its questions."""
    contexts = []
    described = described_clips(manifest)
    for i, c in enumerate(manifest["clips"]):
        section = find_clip(c["scene"])
        contexts.append(
            {
                **_clip_context(c, folder, i, described.get(c["scene"])),
                "figure": section.figure_id if section.figure is not None else None,
                "questions": config.questions_for(section),
            }
        )
    return contexts


def _asking(manifest: Mapping[str, Any], config: LectureConfig) -> dict[str, Any]:
    """The players' questions and where each player stops to ask them (:mod:`.asking`)."""
    asked = asked_questions(manifest["clips"], config)
    clip_ids = [clip_player(i) for i in range(len(manifest["clips"]))]
    return {"mode": config.questions, "questions": asked, "stops": stops(manifest, asked, clip_ids)}


def render_page(manifest: Mapping[str, Any], folder: Path, config: LectureConfig | None = None) -> str:
    """The page's HTML for ``manifest`` (files in ``folder``), its figures with ``config``'s data."""
    clips, config = manifest["clips"], config or LectureConfig()
    figures = figures_data(clips, config)
    lec, described = manifest["lecture"], manifest.get("described")
    context = {
        "title": manifest["title"],
        "mime": MIME.get(clips[0]["format"], "video/mp4"),
        "lecture": {**lec, "tracks": _tracks(lec["captions"], folder, lec["chapters"])},
        "described": described
        and {**described, "tracks": _tracks(described["captions"], folder, described["chapters"])},
        "clips": _clips_context(manifest, folder, config),
        "colours": page_colours(),
        "css": Markup(_asset("page.css") + _asset("explore/explore.css") + _asset("questions.css")),
        "scripts": Markup("\n".join(_asset(s) for s in (*SCRIPTS, *(f"explore/{k}.js" for k in figures)))),
        "page_script": Markup(_asset("page.js") + _asset("questions.js") + _asset("switch.js")),
        "figures": figures,
        "figure_data": inline_json(figures),
        "asking": inline_json(_asking(manifest, config)),
        "timeline": inline_json(timeline(manifest)),
    }
    return environment().get_template("index.html.j2").render(context)


def render_notes(manifest: Mapping[str, Any], tex_dir: Path, config: LectureConfig | None = None) -> str:
    """The lecture notes' HTML for ``manifest``: its beats' text by section, thumbnails, key equations.

    The text is the manifest's beats, the same the video speaks; the
    thumbnails are the storyboard's files (relative paths, beside the page);
    the equations are typeset with manim's TeX, cached in ``tex_dir``; each
    section's check-yourself questions are computed with ``config``'s data.
    """
    config = config or LectureConfig()
    sections = []
    for clip in manifest["clips"]:
        shots = {s["beat"]: s["image"] for s in clip.get("storyboard", [])}
        section = find_clip(clip["scene"])
        sections.append(
            {
                "scene": clip["scene"],
                "heading": _section_heading(clip),
                "start": clip["start"],
                "beats": [
                    {**b, "image": shots.get(b["id"]), "at": clip["start"] + b["start"]}
                    for b in clip["beats"]
                ],
                "equations": typeset(section, tex_dir),
                "questions": config.questions_for(section),
            }
        )
    context = {
        "title": manifest["title"],
        "sections": sections,
        "colours": page_colours(),
        "css": Markup(_asset("notes.css") + _asset("questions.css")),
    }
    return environment().get_template("notes.html.j2").render(context)


def render_transcript(manifest: Mapping[str, Any]) -> str:
    """The descriptive transcript's HTML for ``manifest``: each beat's time, speech, picture, equations."""
    context = {
        "title": manifest["title"],
        "described": manifest.get("described"),
        "lecture": manifest["lecture"],
        "sections": transcript_sections(manifest),
        "colours": page_colours(),
        "css": Markup(_asset("notes.css") + _asset("transcript.css")),
    }
    return environment().get_template("transcript.html.j2").render(context)
