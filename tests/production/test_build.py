"""The lecture build end to end on two scenes: files, captions, chapters, page, up-to-date, faults."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image

from narration.narrator import BREATH
from narration.recordings import wav_info
from production.media.captions import parse_srt
from production.media.video import probe
from production.publish.assemble import sha256
from tests.production.browser import ARGS as CHROMIUM_ARGS
from tests.production.shard_helpers import media_with_caches

BETWEEN_BEATS = 0.75 * BREATH
"""The shortest pause that separates two beats' speech. A beat's speech is followed by a breath
(:data:`narration.narrator.BREATH`); where the voice's own tail is silent for under 10 ms, the detector's
20 ms windows, centred every 10 ms, measure that pause a little short of the breath."""

REPO = Path(__file__).resolve().parents[2]
SCENES = ["LectureTitle", "FixedVsQueryWeights"]
CONFIG = 'title = "Two-scene test lecture"\nscenes = ["LectureTitle", "FixedVsQueryWeights"]\n'

# the tests that read the module's build run on one xdist worker (tests/production/conftest.py); the
# others, each rendering on its own, go wherever a worker is free
pytestmark = pytest.mark.render


def run_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scenes", *args], cwd=REPO, capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    root = tmp_path_factory.mktemp("lecture")
    config = root / "lecture.toml"
    config.write_text(CONFIG)
    media = root / "media"
    start = time.monotonic()
    proc = run_cli("--config", str(config), "build", "--quality", "l", "--media-dir", str(media))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return {
        "root": root,
        "config": config,
        "media": media,
        "out": media / "lecture" / "480p15",
        "first": proc,
        "seconds": time.monotonic() - start,
    }


def test_build_prints_progress_and_where_the_outputs_are(build):
    err, out = build["first"].stderr, build["first"].stdout
    assert "[2/2 done" in err and "rendered in" in err
    assert str(build["out"] / "index.html") in out


def test_manifest_describes_every_clip(build):
    out = build["out"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["title"] == "Two-scene test lecture"
    assert manifest["manim_version"] == "0.22.0" and manifest["project_version"]
    assert [c["scene"] for c in manifest["clips"]] == SCENES
    for i, clip in enumerate(manifest["clips"]):
        video = out / clip["file"]
        info = probe(video)
        assert clip["file"] == f"{i:02d}-{clip['scene']}.mp4"
        assert clip["resolution"] == "854x480" and clip["fps"] == pytest.approx(15.0, abs=0.01)
        assert clip["duration"] == pytest.approx(info.duration, abs=1e-3)
        assert clip["sha256"] == sha256(video)
        assert (out / clip["captions"]["srt"]).exists() and (out / clip["captions"]["vtt"]).exists()
        assert Image.open(out / clip["poster"]).size == (854, 480)


def test_captions_are_clamped_and_the_vtt_matches_the_srt(build):
    out = build["out"]
    for clip in json.loads((out / "manifest.json").read_text())["clips"]:
        srt = parse_srt((out / clip["captions"]["srt"]).read_text())
        vtt_text = (out / clip["captions"]["vtt"]).read_text()
        assert vtt_text.startswith("WEBVTT")
        assert srt == parse_srt(vtt_text.replace("WEBVTT", "", 1))
        assert srt and all(c.end <= clip["duration"] + 1e-6 and c.start < c.end for c in srt)


def test_lecture_video_is_the_clips_back_to_back(build):
    out = build["out"]
    manifest = json.loads((out / "manifest.json").read_text())
    clips = manifest["clips"]
    lecture = probe(out / "lecture.mp4")
    assert lecture.duration == pytest.approx(sum(c["duration"] for c in clips), abs=0.1)
    assert lecture.frames == sum(probe(out / c["file"]).frames for c in clips)
    assert clips[0]["start"] == 0.0 and clips[1]["start"] == pytest.approx(clips[0]["duration"], abs=0.01)
    # the first frame of the second clip sits at its start in the lecture
    with av.open(str(out / clips[1]["file"])) as c:
        first = next(c.decode(video=0)).to_ndarray(format="rgb24").astype(int)
    with av.open(str(out / "lecture.mp4")) as c:
        frames = [f for f in c.decode(video=0) if abs(float(f.time) - clips[1]["start"]) < 0.5 / 15]
    assert np.abs(frames[0].to_ndarray(format="rgb24").astype(int) - first).max() <= 2


def test_built_clips_draw_what_a_plain_manim_render_draws(build):
    """The build's renders read manim.cfg (background, seed, encoders) like ``manim`` run in the repository.

    The last frame of the built clip is compared with the reference frame the
    scene tests draw in-process with manim.cfg, and its background with the
    colour manim.cfg names.
    """
    out = build["out"]
    clip = json.loads((out / "manifest.json").read_text())["clips"][1]
    with av.open(str(out / clip["file"])) as container:
        *_, last = container.decode(video=0)
    frame = last.to_ndarray(format="rgb24").astype(int)
    reference = np.asarray(Image.open(REPO / "tests" / "scenes" / "reference" / f"{clip['scene']}.png"))
    background = next(
        line.split("=")[1].strip().lstrip("#")
        for line in (REPO / "manim.cfg").read_text().splitlines()
        if line.startswith("background_color")
    )
    expected = np.array([int(background[i : i + 2], 16) for i in (0, 2, 4)])
    assert np.abs(frame[5, 5] - expected).max() <= 3, f"background {frame[5, 5]}, manim.cfg says {expected}"
    # encoder noise only: 4:2:0 chroma blurs coloured edges and the YUV round trip lifts white text by
    # 5-11 levels, 1.7 to 2.9 levels on average over the lecture's last frames (measured); a frame drawn
    # on black, the bug this guards, is off by over 20 everywhere
    assert np.abs(frame - reference.astype(int)).mean() < 3.0


def test_lecture_captions_are_shifted_by_each_clips_start(build):
    out = build["out"]
    clips = json.loads((out / "manifest.json").read_text())["clips"]
    expected = []
    for clip in clips:
        expected += [
            (c.start + clip["start"], c.end + clip["start"], c.text)
            for c in parse_srt((out / clip["captions"]["srt"]).read_text())
        ]
    got = [(c.start, c.end, c.text) for c in parse_srt((out / "lecture.srt").read_text())]
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert (
            g[2] == e[2] and g[0] == pytest.approx(e[0], abs=1e-3) and g[1] == pytest.approx(e[1], abs=1e-3)
        )


def test_chapters_one_per_clip(build):
    out = build["out"]
    clips = json.loads((out / "manifest.json").read_text())["clips"]
    chapters = parse_srt((out / "chapters.vtt").read_text().replace("WEBVTT", "", 1))
    assert [c.start for c in chapters] == pytest.approx([c["start"] for c in clips], abs=1e-3)
    assert "Fixed and query-dependent weights" in chapters[1].text


def test_page_plays_offline_in_headless_chromium(build):
    chromium = shutil.which("chromium")
    assert chromium, "chromium is missing: run `make setup` (the Makefile installs Debian's chromium)"
    profile = build["root"] / "chromium-profile"
    cmd = [
        chromium,
        "--headless",
        *CHROMIUM_ARGS,
        f"--user-data-dir={profile}",
        "--virtual-time-budget=15000",
        "--dump-dom",
        (build["out"] / "index.html").as_uri(),
    ]
    dom = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
    n = len(SCENES)
    tracks = (build["out"] / "index.html").read_text().count("<track ")  # captions, descriptions, chapters
    assert tracks >= 2 * n + 3  # every clip's captions and descriptions; the lecture's, and its chapters
    assert f'data-videos-loaded="{n + 1}"' in dom, dom[:400]
    assert f'data-tracks-loaded="{tracks}"' in dom
    assert 'data-errors="0"' in dom
    assert "http://" not in dom.split("<script>")[0] and "https://" not in dom.split("<script>")[0]


def test_second_build_renders_nothing(build):
    out = build["out"]
    before = {p.name: p.stat().st_mtime_ns for p in out.glob("*.mp4")}
    start = time.monotonic()
    proc = run_cli(
        "--config", str(build["config"]), "build", "--quality", "l", "--media-dir", str(build["media"])
    )
    seconds = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("up to date") == 2 and "rendered in" not in proc.stderr
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("*.mp4")} == before
    assert seconds < 30  # the goal (< 10 s) is measured by make bench; this only catches a re-render


def test_a_described_build_after_a_plain_one_renders_no_frames_and_holds_for_each_description(build):
    from production.media.soundtrack import decode_audio
    from production.publish.described import LEAD, TAIL

    out = build["out"]
    clips_before = {p.name: p.stat().st_mtime_ns for p in out.glob("[0-9][0-9]-*.mp4")}
    args = ("--config", str(build["config"]), "build", "--quality", "l", "--media-dir", str(build["media"]))
    proc = run_cli(*args, "--described")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("up to date") == 2 and "rendered in" not in proc.stderr
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("[0-9][0-9]-*.mp4")} | clips_before == {
        p.name: p.stat().st_mtime_ns for p in out.glob("[0-9][0-9]-*.mp4")
    }
    assert str(out / "lecture-described.mp4") in proc.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    records = [json.loads((out / f"{c['file'][:-4]}.beats.json").read_text()) for c in manifest["clips"]]
    described = [b for r in records for b in r["beats"] if b["description"]["text"]]
    assert described, "no beat of the two scenes has a description"
    holds = [np.ceil((LEAD + b["description"]["duration"] + TAIL) * 15 - 1e-9) / 15 for b in described]
    lecture = probe(out / "lecture.mp4").duration
    assert manifest["described"]["duration"] == pytest.approx(lecture + sum(holds), abs=0.2)
    # the first described beat of the first clip: the picture holds, and the voice speaks, in its pause
    clip = manifest["described"]["clips"][0]
    beat = next(b for b in clip["beats"] if b["description"] and not b["said"])
    first = next(b for b in records[0]["beats"] if b["description"]["text"])
    pause_start, pause_end = beat["start"] + first["end"] - first["start"], beat["end"]
    with av.open(str(out / clip["file"])) as container:
        held = [
            f.to_ndarray(format="rgb24").astype(int)
            for f in container.decode(video=0)
            if pause_start + 0.1 < float(f.time) < pause_end - 0.1
        ]
    assert len(held) > 5 and max(np.abs(f - held[0]).max() for f in held) <= 2
    sound = decode_audio(out / clip["file"])
    speaking = slice(round((pause_start + LEAD + 0.1) * 48000), round((pause_end - TAIL - 0.1) * 48000))
    assert np.sqrt(np.mean(sound[speaking] ** 2)) > 0.01  # the description is spoken while it holds


def test_no_built_clip_flashes_more_than_three_times_a_second(build):
    """WCAG 2.3.1 on the built clips' rendered frames (``python -m production.media.flashes`` on all)."""
    from production.media.flashes import audit_clip

    for clip in json.loads((build["out"] / "manifest.json").read_text())["clips"]:
        flashes = audit_clip(build["out"] / clip["file"])
        assert len(flashes.general) == probe(build["out"] / clip["file"]).frames  # every frame was seen
        assert not flashes.breaches(), (clip["file"], flashes.breaches())


def test_no_built_clip_holds_still_or_empty_while_the_voice_speaks(build):
    """Issues 29 and 51 on the rendered pixels: no 6 s of speech without a visible change, nor 3 s of a
    bare frame; nor over 6 s of speech on a picture that a small flourish alone keeps moving (every frame
    within 0.4% of a stretch's first, :mod:`production.media.stillness`)."""
    from production.media.motion import audit_clip
    from production.media.stillness import STILL_SECONDS, still_stretches

    for clip in json.loads((build["out"] / "manifest.json").read_text())["clips"]:
        video = build["out"] / clip["file"]
        held, empty = audit_clip(video, video.with_suffix(".beats.json"))
        assert (held, empty) == ([], []), clip["file"]
        beats = json.loads(video.with_suffix(".beats.json").read_text())["beats"]
        still = [s for s in still_stretches(video, beats) if s.speech > STILL_SECONDS]
        assert still == [], (clip["file"], still)


def test_changing_one_scenes_data_rerenders_exactly_that_clip(build, tmp_path):
    config = build["root"] / "changed.toml"
    config.write_text(CONFIG + '\n[LectureTitle]\nsubtitle = "weights the query chooses"\n')
    media = tmp_path / "media"  # a copy: the shared build keeps the default data the other tests read
    shutil.copytree(build["media"], media, symlinks=True)
    proc = run_cli("--config", str(config), "build", "--quality", "l", "--media-dir", str(media))
    assert proc.returncode == 0, proc.stderr
    assert "FixedVsQueryWeights: up to date" in proc.stderr  # the longer clip: not rendered again
    assert "LectureTitle: rendered in" in proc.stderr


def wait_for_partial_movies(work: Path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(work.glob("**/partial_movie_files/**/*.mp4")):
            return
        time.sleep(0.2)
    raise AssertionError(f"no partial movie appeared under {work}")


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_a_killed_render_leaves_nothing_half_written_and_the_next_run_recovers(tmp_path, how):
    media = media_with_caches(tmp_path)  # warm TeX and voice: the render starts drawing at once
    cmd = [sys.executable, "-m", "scenes", "render", "LectureTitle", "--quality", "l"]
    cmd += ["--media-dir", str(media)]
    proc = subprocess.Popen(
        cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    wait_for_partial_movies(media / "clips" / ".work")
    if how == "SIGKILL":
        os.killpg(proc.pid, signal.SIGKILL)  # everything dies at once, manim included
    else:
        proc.send_signal(signal.SIGTERM)  # the build is asked to stop; it stops its manim too
    proc.communicate(timeout=60)
    published = media / "clips" / "480p15-mp4" / "LectureTitle.mp4"
    assert not published.exists()
    assert not list(published.parent.glob("*.partial*"))
    assert not list((media / "segments").rglob("*.partial*"))  # no half-kept segment either
    again = run_cli("render", "LectureTitle", "--quality", "l", "--media-dir", str(media))
    assert again.returncode == 0, again.stderr
    assert probe(published).duration > 10


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('colour = "red"\n', "unknown key(s) ['colour']"),
        ('scenes = ["Nope"]\n', "unknown scene 'Nope'"),
        ('[TemperatureSweep]\nscores = [1, "a"]\n', "scores must be a list of 2 to 16 numbers"),
        (
            '[HeadRouting]\nsentence = { tokens = [{ text = "a", pos = "XX" }, '
            '{ text = "b", pos = "NOUN" }] }\n',
            "unknown role 'XX'",
        ),
        ("title = 3\n", "title must be a non-empty string"),
        ("scenes = [\n", "not valid TOML"),
    ],
)
def test_bad_lecture_file_gives_one_clear_line(tmp_path, toml, message):
    config = tmp_path / "bad.toml"
    config.write_text(toml)
    proc = run_cli("--config", str(config), "list")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr


# --- narration: voice, beats, captions ------------------------------------------------------------


def test_clips_and_lecture_carry_a_normalised_aac_voice(build):
    from production.media.meter import ebur128
    from production.media.soundtrack import decode_audio

    out = build["out"]
    manifest = json.loads((out / "manifest.json").read_text())
    for name in [c["file"] for c in manifest["clips"]] + ["lecture.mp4"]:
        with av.open(str(out / name)) as container:
            assert [s.codec_context.name for s in container.streams.audio] == ["aac"], name
        samples = decode_audio(out / name)
        loudness, peak = ebur128(samples, 48000)  # ffmpeg's meter, not the one that normalised it
        assert loudness == pytest.approx(-16.0, abs=1.0), name
        assert peak <= -1.0, name  # measured on what ships: the decoded AAC
    assert manifest["clips"][0]["audio"] == {"codec": "aac", "rate": 48000, "channels": 1}


def test_manifest_records_each_clips_beats(build):
    out = build["out"]
    for clip in json.loads((out / "manifest.json").read_text())["clips"]:
        beats = clip["beats"]
        assert len(beats) >= 3
        keys = {
            "id",
            "text",
            "start",
            "end",
            "speech_end",
            "voice",
            "engine",
            "description",
            "said",
            "equations",
            "words",
        }
        assert [set(b) for b in beats] == [keys] * len(beats)
        assert {b["engine"] for b in beats} == {"piper en_US-joe-medium"}  # the default draft voice
        ids = [b["id"] for b in beats]
        assert len(set(ids)) == len(ids) and all(i.startswith(f"{clip['scene']}.") for i in ids)
        assert beats[0]["start"] == 0.0 and all(b["voice"] == "draft" and b["text"] for b in beats)
        for before, after in zip(beats, beats[1:], strict=False):
            assert before["start"] < before["end"] <= after["start"] + 1e-6
        assert beats[-1]["end"] == pytest.approx(clip["duration"], abs=0.15)
    transcript = (out / "transcript.md").read_text()
    assert all(b["text"] in transcript for b in beats)


def test_captions_follow_subtitle_practice(build):
    out = build["out"]
    for clip in json.loads((out / "manifest.json").read_text())["clips"]:
        for cue in parse_srt((out / clip["captions"]["srt"]).read_text()):
            lines = cue.text.split("\n")
            assert len(lines) <= 2 and all(len(line) <= 42 for line in lines), cue
            assert 1.0 - 1e-3 <= cue.end - cue.start <= 7.0 + 1e-3, cue
            assert len(" ".join(lines)) / (cue.end - cue.start) <= 20.0, cue


def test_each_caption_starts_with_its_speech(build):
    """Measured on the clip's own audio track: every cue starts within 0.25 s of a start of speech."""
    from narration.recordings import speech_onsets
    from production.media.soundtrack import decode_audio

    out = build["out"]
    for clip in json.loads((out / "manifest.json").read_text())["clips"]:
        spans = speech_onsets(decode_audio(out / clip["file"]), 48000, min_pause=BETWEEN_BEATS)
        starts = np.array([s for s, _ in spans])
        for cue in parse_srt((out / clip["captions"]["srt"]).read_text()):
            assert np.min(np.abs(starts - cue.start)) <= 0.25, (clip["file"], cue)
        # and the speech is where the beats say: nothing is said after the clip's last beat ends
        assert spans[-1][1] <= clip["beats"][-1]["end"] + 0.05


def test_the_lecture_speaks_where_its_captions_say(build):
    """The lecture's track is the clips' packets laid end to end: each cue still starts with its speech."""
    from narration.recordings import speech_onsets
    from production.media.soundtrack import decode_audio

    out = build["out"]
    spans = speech_onsets(decode_audio(out / "lecture.mp4"), 48000, min_pause=BETWEEN_BEATS)
    starts = np.array([s for s, _ in spans])
    cues = parse_srt((out / "lecture.srt").read_text())
    assert len(cues) == sum(len(parse_srt((out / f"{c}.srt").read_text())) for c in _clip_stems(out))
    for cue in cues:
        assert np.min(np.abs(starts - cue.start)) <= 0.25, cue


def _clip_stems(out: Path) -> list[str]:
    return [Path(c["file"]).stem for c in json.loads((out / "manifest.json").read_text())["clips"]]


def render_title(tmp_path, *extra: str, config: str = "") -> tuple[subprocess.CompletedProcess[str], Path]:
    """Render LectureTitle alone (the shortest scene) into ``tmp_path``."""
    lecture = tmp_path / "lecture.toml"
    lecture.write_text(config or 'scenes = ["LectureTitle"]\n')
    media = tmp_path / "media"
    proc = run_cli(
        "--config",
        str(lecture),
        "render",
        "LectureTitle",
        "--quality",
        "l",
        "--media-dir",
        str(media),
        *extra,
    )
    return proc, media / "clips" / "480p15-mp4"


def test_voice_none_renders_silent_clips_with_the_same_timing(build, tmp_path):
    proc, folder = render_title(tmp_path, "--voice", "none", "--shards", "1", config=CONFIG)  # same narration
    assert proc.returncode == 0, proc.stderr[-2000:]
    # --shards 1 renders whole without the prepare step that the two-scene build ran
    assert "unplanned (--shards 1" in proc.stderr and "preparing" not in proc.stderr
    assert "preparing" in build["first"].stderr
    voiced = json.loads((build["out"] / "manifest.json").read_text())["clips"][0]
    with av.open(str(folder / "LectureTitle.mp4")) as container:
        assert not container.streams.audio
    assert probe(folder / "LectureTitle.mp4").frames == probe(build["out"] / voiced["file"]).frames
    beats = json.loads((folder / "LectureTitle.beats.json").read_text())["beats"]
    assert [(b["id"], b["start"], b["end"]) for b in beats] == [
        (b["id"], b["start"], b["end"]) for b in voiced["beats"]
    ]
    assert {b["voice"] for b in beats} == {"none"}


def test_a_gif_clip_is_found_under_manims_gif_name_and_published(tmp_path):
    """Manim names a gif ``<Scene>_ManimCE_v<version>.gif``; the build publishes it as ``<Scene>.gif``."""
    from PIL import Image

    media = tmp_path / "media"
    proc = run_cli("render", "LectureTitle", "--quality", "l", "--format", "gif", "--media-dir", str(media))
    assert proc.returncode == 0, proc.stderr[-2000:]
    counted = re.search(r"LectureTitle: rendered in .*\((\d+) animations\)", proc.stderr)
    assert counted and int(counted.group(1)) >= 10, proc.stderr[-2000:]
    gif = media / "clips" / "480p15-gif" / "LectureTitle.gif"
    with Image.open(gif) as image:
        assert image.format == "GIF" and image.size == (854, 480)
        beats = json.loads(gif.with_suffix(".beats.json").read_text())["beats"]
        assert image.n_frames == pytest.approx(beats[-1]["end"] * 15, abs=2)  # every frame at 15 fps


def test_recordings_replace_the_draft_and_bad_ones_are_reported(tmp_path):
    from scipy.io import wavfile

    from narration.voice import synthesise

    recordings = tmp_path / "my-voice" / "LectureTitle"
    recordings.mkdir(parents=True)
    # a "recording" of the first beat: a longer reading with a second of silence at each end
    rate, speech = wavfile.read(
        synthesise("Welcome. This recording is much longer than the draft voice would be.", tmp_path)
    )
    silence = np.zeros(rate, dtype=np.float32)
    take = np.concatenate([silence, speech.astype(np.float32) / 32768, silence])
    wavfile.write(recordings / "LectureTitle.01-title.wav", rate, (take * 32767).astype(np.int16))
    (recordings / "LectureTitle.02-bank.wav").write_text("not audio at all")
    config = 'scenes = ["LectureTitle"]\nnarration = "my-voice"\n'
    proc, folder = render_title(tmp_path, config=config)
    assert proc.returncode == 0, proc.stderr[-2000:]
    warnings = [line for line in proc.stderr.splitlines() if "warning:" in line]
    assert len(warnings) == 1 and "LectureTitle.02-bank.wav" in warnings[0]
    assert "using the draft voice for this beat" in warnings[0]
    beats = json.loads((folder / "LectureTitle.beats.json").read_text())["beats"]
    assert [b["voice"] for b in beats[:2]] == ["recorded", "draft"]
    assert [b["engine"] for b in beats[:2]] == ["recording", "piper en_US-joe-medium"]
    assert beats[0]["end"] - beats[0]["start"] >= take.size / rate  # re-timed to the recording
    # a changed recording is a changed input: the clip renders again
    again, _ = render_title(tmp_path, config=config)
    assert "up to date" in again.stderr
    shorter = (take[rate // 2 :] * 32767).astype(np.int16)
    wavfile.write(recordings / "LectureTitle.01-title.wav", rate, shorter)
    third, _ = render_title(tmp_path, config=config)
    assert third.returncode == 0 and "rendered in" in third.stderr


def test_festival_stays_a_voice_the_lecture_file_can_choose(tmp_path):
    proc, folder = render_title(tmp_path, config='scenes = ["LectureTitle"]\nvoice = "festival"\n')
    assert proc.returncode == 0, proc.stderr[-2000:]
    beats = json.loads((folder / "LectureTitle.beats.json").read_text())["beats"]
    assert {(b["voice"], b["engine"]) for b in beats} == {("draft", "festival cmu_us_slt_arctic_hts")}
    rates = {wav_info(Path(path))[0] for b in beats for path, _ in b["audio"]}
    assert rates == {32000}  # festival's HTS voice, not piper's 22,050 Hz


def test_script_lists_every_beat_with_its_recording_path(build):
    """The script of the lecture file, read from the plans its build kept (not planned again)."""
    proc = run_cli("--config", str(build["config"]), "script", "--media-dir", str(build["media"]))
    assert proc.returncode == 0, proc.stderr[-2000:]
    manifest = json.loads((build["out"] / "manifest.json").read_text())
    for clip in manifest["clips"]:
        for beat in clip["beats"]:
            assert f"### {beat['id']}\n\n{beat['text']}\n" in proc.stdout
            assert f"`{clip['scene']}/{beat['id']}.wav`" in proc.stdout


def test_page_storyboards_seek_the_real_clips_offline(build):
    """One thumbnail per beat of each rendered clip, each seeking its clip; nothing leaves the disk."""
    from tests.production.browser import in_own_thread

    in_own_thread(lambda: check_storyboards(build["out"]))


def check_storyboards(out: Path) -> None:
    """The storyboard checks of the test above, in a thread of their own."""
    from tests.production.browser import chromium, open_page

    clips = json.loads((out / "manifest.json").read_text())["clips"]
    with chromium() as browser:
        opened = open_page(browser, (out / "index.html").as_uri())
        page = opened.page
        described = "described" in json.loads((out / "manifest.json").read_text())
        players = (len(clips) + 1) * (2 if described else 1)  # the clips and the lecture, and each described
        page.wait_for_function(f"document.body.dataset.videosLoaded === '{players}'", timeout=30000)
        for i, clip in enumerate(clips):
            buttons = page.locator(f"#section-{clip['scene']} button.beat")
            assert buttons.count() == len(clip["beats"]) == len(clip["storyboard"])
            alts = buttons.locator("img").evaluate_all("els => els.map((e) => e.alt)")
            assert alts == [b["text"] for b in clip["beats"]]
            assert all(Image.open(out / s["image"]).size == (192, 108) for s in clip["storyboard"])
            buttons.last.click()
            seconds = page.evaluate(f"document.getElementById('clip-{i:02d}').currentTime")
            assert seconds == pytest.approx(clip["beats"][-1]["start"], abs=1e-6)
        assert page.locator("[data-explore]").count() == 0  # neither scene has an Explore figure
        assert all(u.startswith(("file://", "data:")) for u in opened.requests) and not opened.blocked
        assert opened.console == []
