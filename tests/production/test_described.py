"""The audio-described lecture, the description tracks and the descriptive transcript (synthetic lecture).

The synthetic clips (tests/production/conftest.py) are 3 s at 15 fps with one
beat a second; beats 1 and 3 have a 0.6 s description (a tone), beat 2 is said.
What is checked is what a viewer gets: the frames and the sound of the files.
"""

from __future__ import annotations

import json
import math
import re

import av
import numpy as np
import pytest

from lecture.clips import LECTURE
from production.media.captions import parse_srt
from production.media.soundtrack import decode_audio
from production.media.video import probe
from production.publish.described import LEAD, TAIL
from tests.production.browser import assert_no_axe_violations, open_page
from tests.production.conftest import DESCRIPTION_SECONDS, EQUATIONS, FPS, SECONDS, WORDS, description_text

HOLD = math.ceil((LEAD + DESCRIPTION_SECONDS + TAIL) * FPS)
"""Frames the picture holds after a described beat (an independent count from the constants)."""
DESCRIBED_BEATS = (0, 2)


def frames(path) -> np.ndarray:
    with av.open(str(path)) as container:
        return np.stack([f.to_ndarray(format="rgb24").astype(int) for f in container.decode(video=0)])


def test_a_described_clip_holds_each_described_beats_last_frame_for_its_description(lecture):
    out = lecture["out"]
    clip = lecture["manifest"]["clips"][3]
    source = frames(out / clip["file"])
    described = frames(out / f"{clip['file'][:-4]}.described.mp4")
    assert len(source) == SECONDS * FPS
    assert len(described) == len(source) + HOLD * len(DESCRIBED_BEATS)
    # beat 1's 15 frames, its last frame held, beats 2 and 3 (30 frames), beat 3's last frame held
    layout = [source[:15], np.repeat(source[14:15], HOLD, 0), source[15:], np.repeat(source[44:45], HOLD, 0)]
    expected = np.concatenate(layout)
    assert np.abs(described - expected).mean(axis=(1, 2, 3)).max() < 2.0  # encoder noise only


def test_the_description_is_heard_while_the_picture_holds_and_not_elsewhere(lecture):
    out = lecture["out"]
    clip = lecture["manifest"]["clips"][0]
    sound = decode_audio(out / f"{clip['file'][:-4]}.described.mp4")
    assert sound is not None
    rate = 48_000
    loud = np.abs(sound) > 0.05
    spans = [(1.0 + LEAD, 1.0 + LEAD + DESCRIPTION_SECONDS)]
    spans.append((3.0 + HOLD / FPS + LEAD, 3.0 + HOLD / FPS + LEAD + DESCRIPTION_SECONDS))
    heard = np.zeros_like(loud)
    for start, end in spans:
        window = slice(round((start + 0.05) * rate), round((end - 0.05) * rate))
        assert loud[window].mean() > 0.3, (start, end)  # a tone: about two thirds of samples are above 0.05
        heard[round((start - 0.05) * rate) : round((end + 0.05) * rate)] = True
    assert not loud[~heard].any(), "sound outside the descriptions' pauses"


def test_the_described_lecture_is_the_lecture_plus_the_pauses_with_its_own_captions_and_chapters(lecture):
    out, manifest = lecture["out"], lecture["manifest"]
    described = manifest["described"]
    pauses = len(LECTURE) * len(DESCRIBED_BEATS) * HOLD / FPS
    assert described["duration"] == pytest.approx(manifest["lecture"]["duration"] + pauses, abs=0.1)
    assert probe(out / described["file"]).frames == len(LECTURE) * (SECONDS * FPS + 2 * HOLD)
    cues = parse_srt((out / described["captions"]["srt"]).read_text())
    texts = [c.text for c in cues]
    scene = LECTURE[1].scene
    # beat 1's caption, then its description, then beat 2's caption
    at = texts.index(f"Beat 1 of {scene}")
    assert texts[at + 1 : at + 3] == [description_text(scene, 0), f"Beat 2 of {scene}"]
    start = described["clips"][1]["start"]
    assert cues[at + 1].start == pytest.approx(start + 1.0 + LEAD, abs=1e-3)
    chapters = parse_srt((out / described["chapters"]).read_text().replace("WEBVTT", "", 1))
    assert [c.start for c in chapters] == pytest.approx([c["start"] for c in described["clips"]], abs=1e-3)
    assert chapters[1].start == pytest.approx((SECONDS * FPS + 2 * HOLD) / FPS, abs=1e-3)


def test_each_clip_has_a_descriptions_track_over_its_described_beats(lecture):
    out = lecture["out"]
    for clip in lecture["manifest"]["clips"]:
        vtt = (out / clip["captions"]["descriptions"]).read_text()
        cues = parse_srt(vtt.replace("WEBVTT", "", 1))
        assert [(c.start, c.end) for c in cues] == [(0.0, 1.0), (2.0, 3.0)]
        assert [c.text for c in cues] == [description_text(clip["scene"], k) for k in DESCRIBED_BEATS]
    html = lecture["page"].read_text()
    assert html.count('<track kind="descriptions"') == len(LECTURE) + 1  # every clip and the lecture


def test_a_second_publish_keeps_the_described_clips(lecture):
    from production.options import RenderOptions
    from production.publish.assemble import publish_lecture

    out = lecture["out"]
    made = {p.name: p.stat().st_mtime_ns for p in out.glob("*.described.mp4")}
    assert len(made) == len(LECTURE)
    config = lecture["config"]
    publish_lecture(lecture["results"], RenderOptions("l"), out, config.title, config, described=True)
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("*.described.mp4")} == made


def test_the_transcript_gives_every_beats_speech_picture_and_new_equations_in_order(lecture):
    html = (lecture["out"] / "transcript.html").read_text()
    manifest = lecture["manifest"]
    moments = re.findall(r'<div class="moment" id="moment-([^"]+)"', html)
    assert moments == [b["id"] for c in manifest["clips"] for b in c["beats"]]
    for clip in manifest["clips"]:
        for k in DESCRIBED_BEATS:
            assert description_text(clip["scene"], k) in html
    assert html.count("The picture shows what the speech says.") == len(LECTURE)
    # beat 1 shows one equation; beat 2 adds one (the first is still on screen, not repeated)
    assert html.count("<math") == len(LECTURE) * 2
    assert html.count(f'alttext="{EQUATIONS[1][1]}"') == len(LECTURE)
    # the words likewise: beat 1 lists two; beats 2 and 3 only the one each adds (beat 2 asks a question)
    listed = re.findall(r'<span class="word">([^<]+)</span>', html)
    assert listed == [*WORDS[0], WORDS[1][1], WORDS[2][1]] * len(LECTURE)


def test_the_transcript_opens_offline_reads_its_maths_and_passes_axe(lecture, browser):
    page = open_page(browser, (lecture["out"] / "transcript.html").as_uri())
    try:
        assert not [u for u in page.requests if not u.startswith(("file://", "data:"))]
        boxes = page.page.evaluate(
            "[...document.querySelectorAll('math')].map((m) => m.getBoundingClientRect().width)"
        )
        assert boxes and min(boxes) > 10, boxes  # Chromium lays the MathML out (MathML Core)
        assert_no_axe_violations(page.page, "transcript.html")
    finally:
        page.page.close()


def test_the_manifest_lists_each_beats_description(lecture):
    manifest = json.loads((lecture["out"] / "manifest.json").read_text())
    beats = manifest["clips"][0]["beats"]
    assert [b["said"] for b in beats] == [False, True, False]
    assert beats[0]["description"] == description_text(manifest["clips"][0]["scene"], 0)
    assert [b["equations"] for b in beats] == list(EQUATIONS)
