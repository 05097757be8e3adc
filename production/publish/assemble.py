"""Turn rendered clips into a lecture: captions, posters, storyboards, one video, chapters, manifest, pages.

Everything lands in the clips' folder (``media/lecture/<resolution>/``) and
is written to a temporary name first, then renamed into place.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version
from pathlib import Path
from typing import Any

import av
import manim

from atomic_files import write_text
from lecture.config import LectureConfig
from lecture.section import Section, section_heading
from narration.beats import Beat, BeatsRecord, Description
from narration.cues import Cue
from production.media.captions import chapters_vtt, clamp, parse_srt, shift, to_srt, to_vtt
from production.media.soundtrack import join_voices, mux_voice
from production.media.video import audio_format, join_videos, probe, save_last_frame
from production.options import RenderOptions, RenderResult
from production.publish.described import DESCRIBED, describe_clip, descriptions_vtt
from production.publish.page import render_notes, render_page, render_transcript, write_storyboard

__all__ = ["publish_lecture", "LECTURE_STEM", "DESCRIBED_STEM"]

LECTURE_STEM = "lecture"
DESCRIBED_STEM = f"{LECTURE_STEM}-described"
DESCRIBED_CHAPTERS = "chapters-described.vtt"


def _chapter(clip: Section) -> str:
    return section_heading(clip.number, clip.title)


def sha256(path: Path) -> str:
    """Hex digest of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _clip_entry(result: RenderResult, options: RenderOptions, digest: str) -> tuple[dict[str, Any], list]:
    """Manifest entry of one clip; writes its clamped SRT, its VTT and (if stale) its poster."""
    info = probe(result.video)
    cues = clamp(parse_srt(result.captions.read_text()), info.duration) if result.captions else []
    srt, vtt, poster = (result.video.with_suffix(s) for s in (".srt", ".vtt", ".png"))
    write_text(srt, to_srt(cues))
    write_text(vtt, to_vtt(cues))
    if result.rendered or not poster.exists() or poster.stat().st_mtime < result.video.stat().st_mtime:
        save_last_frame(result.video, poster)
    clip = result.clip
    record = BeatsRecord.read(result.beats) if result.beats else None
    beats = record.manifest() if record else []
    storyboard = write_storyboard(result.video, beats, info.duration, info.fps, force=result.rendered)
    captions = {"srt": srt.name, "vtt": vtt.name}
    if record is not None and any(b.description.needed for b in record.beats):
        described = result.video.with_suffix(".descriptions.vtt")
        write_text(described, descriptions_vtt(record))
        captions["descriptions"] = described.name
    entry = {
        "scene": clip.scene,
        "section": clip.number,
        "title": clip.title,
        "file": result.video.name,
        "format": options.fmt,
        "resolution": f"{info.width}x{info.height}",
        "fps": round(info.fps, 3),
        "duration": round(info.duration, 3),
        "captions": captions,
        "poster": poster.name,
        "sha256": digest,
        "audio": probe_audio(result.video),
        "beats": beats,
        "storyboard": storyboard,
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
    """Join the clips without re-encoding; returns clip starts.

    When every clip carries the same audio format (the usual case: each
    clip's voice already normalised and checked), the audio packets are
    copied too. When only some clips speak, their voices are decoded, laid
    on one track and encoded once, normalised like a clip's.
    """
    formats = {audio_format(v) for v in videos}
    if len(formats) == 1:
        return join_videos(videos, out, audio=None not in formats)
    joined = out.with_name(f".{out.stem}.video{out.suffix}")
    try:
        starts = join_videos(videos, joined)
        track = join_voices(videos, starts, probe(joined).duration)
        assert track is not None  # the formats differ, so some clip speaks
        mux_voice(joined, track, out)
    finally:
        joined.unlink(missing_ok=True)
    return starts


def transcript(title: str, clips: Sequence[dict[str, Any]]) -> str:
    """Markdown transcript of the lecture: each clip's narration, beat by beat, with its time."""
    lines = [f"# {title}", ""]
    for clip in clips:
        lines += [f"## {section_heading(clip['section'], clip['title'])}", ""]
        for beat in clip["beats"]:
            at = clip["start"] + beat["start"]
            lines += [f"[{int(at // 60)}:{at % 60:04.1f}] {beat['text']}", ""]
    return "\n".join(lines)


def _described_clip(result: RenderResult, speak: Callable[[Beat], Description] | None) -> dict[str, Any]:
    """The described clip of one published clip (made again only when the clip or its beats are newer)."""
    assert result.beats is not None, f"bug: {result.clip.scene} was published without its beats"
    stem = f"{result.video.stem}{DESCRIBED}"
    video, beats_file = result.video.with_name(f"{stem}.mp4"), result.video.with_name(f"{stem}.beats.json")
    newest = max(result.video.stat().st_mtime, result.beats.stat().st_mtime)
    if video.exists() and beats_file.exists() and video.stat().st_mtime >= newest:
        record = BeatsRecord.read(beats_file)
    else:
        source = BeatsRecord.read(result.beats)
        count = sum(b.description.needed for b in source.beats)
        print(f"describing {result.video.name}: {count} descriptions", file=sys.stderr, flush=True)
        record = describe_clip(result.video, source, video, speak)
        record.write(beats_file)
    seconds = probe(video).duration
    cues = clamp(record.cues(), seconds)
    srt, vtt = video.with_name(f"{stem}.srt"), video.with_name(f"{stem}.vtt")
    write_text(srt, to_srt(cues))
    write_text(vtt, to_vtt(cues))
    return {
        "scene": result.clip.scene,
        "file": video.name,
        "duration": round(seconds, 3),
        "captions": {"srt": srt.name, "vtt": vtt.name},
        "beats": record.manifest(),
        "cues": cues,
    }


def publish_described(
    results: Sequence[RenderResult], out_dir: Path, speak: Callable[[Beat], Description] | None
) -> dict[str, Any]:
    """The audio-described clips and lecture (:mod:`~production.publish.described`): their manifest entry."""
    clips = [_described_clip(r, speak) for r in results]
    video = out_dir / f"{DESCRIBED_STEM}.mp4"
    starts = join_lecture([out_dir / c["file"] for c in clips], video)
    cues = [cue for s, c in zip(starts, clips, strict=True) for cue in shift(c.pop("cues"), s)]
    write_text(out_dir / f"{DESCRIBED_STEM}.srt", to_srt(cues))
    write_text(out_dir / f"{DESCRIBED_STEM}.vtt", to_vtt(cues))
    ends = [s + c["duration"] for s, c in zip(starts, clips, strict=True)]
    chapters = [(s, e, _chapter(r.clip)) for s, e, r in zip(starts, ends, results, strict=True)]
    write_text(out_dir / DESCRIBED_CHAPTERS, chapters_vtt(chapters))
    return {
        "file": video.name,
        "duration": round(probe(video).duration, 3),
        "captions": {"srt": f"{DESCRIBED_STEM}.srt", "vtt": f"{DESCRIBED_STEM}.vtt"},
        "chapters": DESCRIBED_CHAPTERS,
        "sha256": sha256(video),
        "clips": [{**c, "start": round(s, 6)} for c, s in zip(clips, starts, strict=True)],
    }


def publish_lecture(
    results: Sequence[RenderResult],
    options: RenderOptions,
    out_dir: Path,
    title: str,
    config: LectureConfig | None = None,
    described: Callable[[Beat], Description] | bool = False,
) -> Path:
    """Write captions, posters, storyboards, the joined lecture, chapters, manifest and the pages.

    The pages are ``index.html`` (the players), ``notes.html`` (the lecture
    notes) and ``transcript.html`` (the descriptive transcript).

    ``config`` is the lecture file the clips were rendered from: the page's
    Explore figures show its data (the defaults when None). ``described``
    also writes the audio-described clips and lecture (``True``, or the
    function that voices a description whose sound is not on this machine:
    :func:`production.publish.described.speaker`).
    """
    video = out_dir / f"{LECTURE_STEM}.{options.fmt}"
    manifest_path = out_dir / "manifest.json"
    previous = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    digests = [sha256(r.video) for r in results]
    same_clips = [e["sha256"] for e in previous.get("clips", [])] == digests
    # the joined lecture, the clips' posters and their storyboards are written side by side
    with ThreadPoolExecutor(max(1, min(len(results) + 1, os.cpu_count() or 1))) as pool:
        joining = (
            None
            if same_clips and video.exists()
            else pool.submit(join_lecture, [r.video for r in results], video)
        )
        made = pool.map(lambda r, d: _clip_entry(r, options, d), results, digests)
        entries, cue_lists = zip(*made, strict=True)
        starts = [c["start"] for c in previous["clips"]] if joining is None else joining.result()
    ends = [s + e["duration"] for s, e in zip(starts, entries, strict=True)]
    lecture_captions = _write_lecture_captions(out_dir, starts, entries, cue_lists)
    chapters = [(s, e, _chapter(r.clip)) for s, e, r in zip(starts, ends, results, strict=True)]
    write_text(out_dir / "chapters.vtt", chapters_vtt(chapters))
    clips_entries = [{**e, "start": round(s, 6)} for e, s in zip(entries, starts, strict=True)]
    manifest = {
        "title": title,
        "quality": options.quality,
        "manim_version": manim.__version__,
        "project_version": version("attention-lecture"),
        "lecture": {
            "file": video.name,
            "duration": round(probe(video).duration, 3),
            "captions": lecture_captions,
            "chapters": "chapters.vtt",
            "sha256": sha256(video),
        },
        "clips": clips_entries,
    }
    if described:
        manifest["described"] = publish_described(results, out_dir, None if described is True else described)
    write_text(manifest_path, json.dumps(manifest, indent=2) + "\n")
    return _write_pages(manifest, out_dir, config)


def _write_pages(manifest: dict[str, Any], out_dir: Path, config: LectureConfig | None) -> Path:
    """Write the transcripts and the pages of ``manifest`` (a lecture's); return the players' page.

    ``transcript.md``, ``index.html`` (the players), ``notes.html`` (the lecture
    notes) and ``transcript.html`` (the descriptive transcript).
    """
    write_text(out_dir / "transcript.md", transcript(manifest["title"], manifest["clips"]))
    write_text(out_dir / "index.html", render_page(manifest, out_dir, config))
    # the notes' equations are typeset in the TeX cache the renders share (media/Tex)
    write_text(out_dir / "notes.html", render_notes(manifest, out_dir.parent.parent / "Tex", config))
    write_text(out_dir / "transcript.html", render_transcript(manifest))
    return out_dir / "index.html"


def _write_lecture_captions(
    out_dir: Path, starts: Sequence[float], entries: Sequence[dict], cue_lists: Sequence[Sequence[Cue]]
) -> dict[str, str]:
    """Write the whole lecture's captions (SRT, VTT) and, where any beat has one, its descriptions' VTT.

    Each clip's cues are shifted by its start in the lecture. Returns the
    manifest's ``captions`` entry: each caption file's name by its kind.
    """
    lecture_cues = [cue for s, cues in zip(starts, cue_lists, strict=True) for cue in shift(cues, s)]
    write_text(out_dir / f"{LECTURE_STEM}.srt", to_srt(lecture_cues))
    write_text(out_dir / f"{LECTURE_STEM}.vtt", to_vtt(lecture_cues))
    lecture_captions = {"srt": f"{LECTURE_STEM}.srt", "vtt": f"{LECTURE_STEM}.vtt"}
    described_cues = [
        Cue(round(s + b["start"], 3), round(s + b["end"], 3), b["description"])
        for s, e in zip(starts, entries, strict=True)
        for b in e["beats"]
        if b["description"] and not b["said"]
    ]
    if described_cues:
        write_text(out_dir / f"{LECTURE_STEM}.descriptions.vtt", to_vtt(described_cues))
        lecture_captions["descriptions"] = f"{LECTURE_STEM}.descriptions.vtt"
    return lecture_captions
