"""Turn rendered clips into a lecture: captions, posters, one video, chapters, manifest, web page.

Everything lands in the clips' folder (``media/lecture/<resolution>/``) and
is written to a temporary name first, then renamed into place.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

import av
import manim

from scenes.build.captions import chapters_vtt, clamp, parse_srt, shift, to_srt, to_vtt
from scenes.build.media import concat_videos, probe, save_last_frame
from scenes.build.render import RenderOptions, RenderResult, write_text_atomic
from scenes.build.soundtrack import join_voices, manifest_beats, mux_voice, read_beats

__all__ = ["publish_lecture", "LECTURE_STEM"]

LECTURE_STEM = "lecture"


def sha256(path: Path) -> str:
    """Hex digest of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _clip_entry(result: RenderResult, options: RenderOptions) -> tuple[dict[str, Any], list]:
    """Manifest entry of one clip; writes its clamped SRT, its VTT and (if stale) its poster."""
    info = probe(result.video)
    cues = clamp(parse_srt(result.captions.read_text()), info.duration) if result.captions else []
    srt, vtt, poster = (result.video.with_suffix(s) for s in (".srt", ".vtt", ".png"))
    write_text_atomic(srt, to_srt(cues))
    write_text_atomic(vtt, to_vtt(cues))
    if result.rendered or not poster.exists() or poster.stat().st_mtime < result.video.stat().st_mtime:
        save_last_frame(result.video, poster)
    clip = result.clip
    beats = manifest_beats(read_beats(result.beats)) if result.beats else []
    entry = {
        "scene": clip.scene,
        "section": clip.section,
        "title": clip.title,
        "file": result.video.name,
        "format": options.fmt,
        "resolution": f"{info.width}x{info.height}",
        "fps": round(info.fps, 3),
        "duration": round(info.duration, 3),
        "captions": {"srt": srt.name, "vtt": vtt.name},
        "poster": poster.name,
        "sha256": sha256(result.video),
        "audio": probe_audio(result.video),
        "beats": beats,
    }
    return entry, cues


def probe_audio(video: Path) -> dict[str, Any] | None:
    """Codec, rate and channels of a clip's audio track (None for a silent clip)."""
    with av.open(str(video)) as container:
        if not container.streams.audio:
            return None
        stream = container.streams.audio[0]
        return {"codec": stream.codec_context.name, "rate": stream.rate, "channels": stream.channels}


def join_lecture(videos: Sequence[Path], out: Path) -> list[float]:
    """Join the clips' video without re-encoding and lay their voices on one track; returns clip starts."""
    joined = out.with_name(f".{out.stem}.video{out.suffix}")
    try:
        starts = concat_videos(videos, joined)
        track = join_voices(videos, starts, probe(joined).duration)
        if track is None:
            os.replace(joined, out)
        else:
            mux_voice(joined, track, out)
    finally:
        joined.unlink(missing_ok=True)
    return starts


def transcript(title: str, clips: Sequence[dict[str, Any]]) -> str:
    """Markdown transcript of the lecture: each clip's narration, beat by beat, with its time."""
    lines = [f"# {title}", ""]
    for clip in clips:
        heading = clip["title"] if clip["section"] == "0" else f"{clip['section']}. {clip['title']}"
        lines += [f"## {heading}", ""]
        for beat in clip["beats"]:
            at = clip["start"] + beat["start"]
            lines += [f"[{int(at // 60)}:{at % 60:04.1f}] {beat['text']}", ""]
    return "\n".join(lines)


def publish_lecture(
    results: Sequence[RenderResult], options: RenderOptions, out_dir: Path, title: str
) -> Path:
    """Write captions, posters, the joined lecture, chapters, ``manifest.json`` and ``index.html``."""
    entries, cue_lists = zip(*(_clip_entry(r, options) for r in results), strict=True)
    video = out_dir / f"{LECTURE_STEM}.{options.fmt}"
    manifest_path = out_dir / "manifest.json"
    previous = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    same_clips = [e["sha256"] for e in previous.get("clips", [])] == [e["sha256"] for e in entries]
    if same_clips and video.exists():
        starts = [c["start"] for c in previous["clips"]]
    else:
        starts = join_lecture([r.video for r in results], video)
    ends = [s + e["duration"] for s, e in zip(starts, entries, strict=True)]
    lecture_cues = [cue for s, cues in zip(starts, cue_lists, strict=True) for cue in shift(cues, s)]
    write_text_atomic(out_dir / f"{LECTURE_STEM}.srt", to_srt(lecture_cues))
    write_text_atomic(out_dir / f"{LECTURE_STEM}.vtt", to_vtt(lecture_cues))
    chapters = [
        (s, e, f"{c['section']}. {c['title']}" if c["section"] != "0" else c["title"])
        for s, e, c in zip(starts, ends, entries, strict=True)
    ]
    write_text_atomic(out_dir / "chapters.vtt", chapters_vtt(chapters))
    manifest = {
        "title": title,
        "quality": options.quality,
        "manim_version": manim.__version__,
        "project_version": version("attention-lecture"),
        "lecture": {
            "file": video.name,
            "duration": round(probe(video).duration, 3),
            "captions": {"srt": f"{LECTURE_STEM}.srt", "vtt": f"{LECTURE_STEM}.vtt"},
            "chapters": "chapters.vtt",
            "sha256": sha256(video),
        },
        "clips": [{**e, "start": round(s, 6)} for e, s in zip(entries, starts, strict=True)],
    }
    write_text_atomic(manifest_path, json.dumps(manifest, indent=2) + "\n")
    write_text_atomic(out_dir / "transcript.md", transcript(title, manifest["clips"]))
    write_text_atomic(out_dir / "index.html", render_page(manifest, out_dir))
    return out_dir / "index.html"


def _data_uri(vtt: Path) -> str:
    """A WebVTT file as a data: URI: pages opened from file:// may not fetch track files."""
    return "data:text/vtt;base64," + base64.b64encode(vtt.read_bytes()).decode("ascii")


def _video_tag(file: str, poster: str | None, tracks: Sequence[tuple[str, str, str]], mime: str) -> str:
    track_tags = "".join(
        f'<track kind="{kind}" src="{html.escape(src)}" srclang="en" label="{label}"'
        + (" default" if kind == "captions" else "")
        + ">"
        for kind, src, label in tracks
    )
    poster_attr = f' poster="{html.escape(poster)}"' if poster else ""
    return (
        f'<video controls preload="metadata"{poster_attr} width="640">'
        f'<source src="{html.escape(file)}" type="{mime}">{track_tags}</video>'
    )


def render_page(manifest: dict[str, Any], folder: Path) -> str:
    """One offline page: the lecture with chapters, then each clip with captions and an embed snippet.

    The page's own players carry their captions inline (data: URIs), so it
    works from file:// with no server; the embed snippets point at the files.
    """
    mime = {"mp4": "video/mp4", "webm": "video/webm"}.get(manifest["clips"][0]["format"], "video/mp4")
    lec = manifest["lecture"]
    inline = [
        ("captions", _data_uri(folder / lec["captions"]["vtt"]), "English"),
        ("chapters", _data_uri(folder / lec["chapters"]), "Chapters"),
    ]
    blocks = [f"<section><h2>Whole lecture</h2>{_video_tag(lec['file'], None, inline, mime)}</section>"]
    for clip in manifest["clips"]:
        vtt = clip["captions"]["vtt"]
        player = _video_tag(
            clip["file"], clip["poster"], [("captions", _data_uri(folder / vtt), "English")], mime
        )
        embed = _video_tag(clip["file"], clip["poster"], [("captions", vtt, "English")], mime)
        heading = f"{html.escape(clip['section'])}. {html.escape(clip['title'])}"
        blocks.append(
            f"<section><h2>{heading}</h2>{player}"
            f"<p>{clip['duration']:.1f} s, {clip['resolution']}, {clip['fps']:g} fps</p>"
            '<label>Embed (copy beside the clip and its .vtt): <textarea readonly rows="3">'
            f"{html.escape(embed)}</textarea></label></section>"
        )
    return PAGE.format(title=html.escape(manifest["title"]), body="\n".join(blocks))


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ background: #14161B; color: #E6E6E6; font-family: sans-serif; max-width: 60rem; margin: auto; }}
textarea {{ width: 100%; background: #22252c; color: #E6E6E6; }}
section {{ margin: 2rem 0; }}
</style></head>
<body data-videos-loaded="0" data-tracks-loaded="0" data-errors="0">
<h1>{title}</h1>
{body}
<script>
// Report, on the body element, how many videos and caption tracks have loaded (read by the tests).
const body = document.body;
const bump = (key) => {{ body.dataset[key] = String(Number(body.dataset[key]) + 1); }};
for (const video of document.querySelectorAll("video")) {{
  if (video.readyState >= 1) bump("videosLoaded");
  else video.addEventListener("loadedmetadata", () => bump("videosLoaded"));
  video.addEventListener("error", () => bump("errors"), true);
  for (const track of video.textTracks) track.mode = track.kind === "chapters" ? "hidden" : "showing";
}}
for (const el of document.querySelectorAll("track")) {{
  if (el.readyState === 2) bump("tracksLoaded");
  else {{
    el.addEventListener("load", () => bump("tracksLoaded"));
    el.addEventListener("error", () => bump("errors"));
  }}
}}
</script>
</body></html>
"""
