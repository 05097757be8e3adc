"""Shards: a clip rendered in ranges of its animations and joined equals the clip rendered whole."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from lecture.config import load_config
from manim_patches import rendered_frames
from narration.beats import Beat, BeatsRecord
from production.cli import main
from production.media.soundtrack import decode_audio
from production.media.video import probe
from production.render.cut import auto_shards, split
from production.render.jobs import portable_toml
from production.render.join import check_shards
from production.render.timeline import Timeline
from tests.production.shard_helpers import (
    REPO,
    assert_frames_equal,
    assert_same_frames,
    clean_env,
    cli,
    copy_of_the_repository,
    frames,
    media_with_caches,
    rgb_frames,
    run_cli,
)

# tests that share this module's fixtures run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("shards")


@given(st.lists(st.floats(0.1, 100.0), min_size=1, max_size=60), st.integers(1, 70))
def test_split_cuts_contiguous_non_empty_ranges(costs, n):
    spans = split(costs, n)
    assert len(spans) == min(n, len(costs))
    assert spans[0][0] == 0 and spans[-1][1] == len(costs) - 1
    assert all(first <= last for first, last in spans)
    assert all(a[1] + 1 == b[0] for a, b in zip(spans, spans[1:], strict=False))


def test_split_balances_the_cost():
    costs = [1.0] * 30 + [10.0] * 3
    parts = [sum(costs[a : b + 1]) for a, b in split(costs, 3)]
    assert max(parts) - min(parts) <= 10.0


def test_auto_shards_follow_the_clip_lengths_and_the_workers():
    long = Timeline("Long", 15.0, 120.0, ((30, False),) * 60)
    short = Timeline("Short", 15.0, 20.0, ((30, False),) * 10)
    assert auto_shards([long], 1) == {"Long": 1}
    assert auto_shards([long], 2) == {"Long": 2}
    assert auto_shards([long, short], 2) == {"Long": 2, "Short": 1}  # share 70 s: only the long one is cut
    assert auto_shards([long, short], 64) == {"Long": 12, "Short": 2}  # at least 10 s of video a shard
    assert auto_shards([Timeline("Few", 15.0, 120.0, ((900, False),) * 4)], 8) == {"Few": 1}


def test_rendered_frames_match_manims_own_count():
    assert rendered_frames(1.0, False, 15) == 15
    assert rendered_frames(1.01, False, 15) == 16  # a play() draws every frame that starts before its end
    assert rendered_frames(1.06, True, 15) == 15  # a frozen wait() writes whole frames only


def test_shards_whose_beats_disagree_are_refused():
    beat = Beat("S.01-a", "A.", 0.0, 1.0, "none", "none")
    full = BeatsRecord("S", 2.0, (beat, replace(beat, id="S.02-b", start=1.0, end=2.0)))
    check_shards("S", [BeatsRecord("S", 1.0, (beat,)), full])
    with pytest.raises(ValueError, match="not deterministic"):
        check_shards("S", [BeatsRecord("S", 1.1, (replace(beat, end=1.1),)), full])


def test_the_lecture_file_travels_to_other_machines_without_its_paths(tmp_path):
    text = (
        'title = "Week \\"5\\""\nscenes = ["LectureTitle", "TemperatureSweep"]\nnarration = "rec"\n'
        "[TemperatureSweep]\nscores = [0.5, 2.0, 1.0]\n"
    )
    (tmp_path / "rec").mkdir()
    (tmp_path / "lecture.toml").write_text(text)
    config = load_config(tmp_path / "lecture.toml")
    scenes = [c.scene for c in config.clips]
    (tmp_path / "portable.toml").write_text(portable_toml(config.title, scenes, "none", config.raw))
    again = load_config(tmp_path / "portable.toml")
    assert (again.title, again.clips, again.parameters) == (config.title, config.clips, config.parameters)
    assert again.voice == "none" and again.narration != config.narration


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["render", "LectureTitle", "--shards", "0"], "--shards must be >= 1, got 0"),
        (["build", "--shards", "-2"], "--shards must be >= 1, got -2"),
        (["render", "LectureTitle", "--format", "gif", "--shards", "2"], "needs --format mp4 or webm"),
    ],
)
def test_bad_shard_counts_give_one_clear_line_before_anything_renders(argv, message, capsys, tmp_path):
    assert main([*argv, "--media-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not any(tmp_path.iterdir())


@pytest.fixture(scope="module")
def title(tmp_path_factory) -> dict:
    """The title rendered whole and in three shards, side by side, with the draft voice."""
    procs, videos, medias = {}, {}, {}
    for name, shards in (("whole", "1"), ("sharded", "3")):
        media = medias[name] = media_with_caches(tmp_path_factory.mktemp(name))
        args = cli("render", "LectureTitle", "--quality", "l", "--shards", shards, "--media-dir", str(media))
        procs[name] = subprocess.Popen(
            args, cwd=REPO, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        videos[name] = media / "clips" / "480p15-mp4" / "LectureTitle.mp4"
    logs = {}
    for name, proc in procs.items():
        _, logs[name] = proc.communicate(timeout=600)
        assert proc.returncode == 0, logs[name][-3000:]
    return {name: {"video": videos[name], "log": logs[name], "media": medias[name]} for name in procs}


def segments(log: str) -> int:
    """The clip's segment count, as the render's plan line gives it ("... for 3 of 10 segments")."""
    found = re.search(r"shard\(s\) for \d+ of (\d+) segments", log)
    assert found, log
    return int(found.group(1))


@pytest.mark.render
def test_sharded_title_has_the_frames_of_the_whole_one(title):
    log = title["sharded"]["log"]
    assert "LectureTitle [1/3]: rendering" in log and "LectureTitle [3/3]: rendered in" in log
    n = segments(log)  # one a beat
    assert "3/3 shards" in log and f"joining {n} segments (0 from the cache, {n} rendered)" in log
    assert_same_frames(title["whole"]["video"], title["sharded"]["video"])


@pytest.mark.render
def test_sharded_title_has_the_same_beats_captions_and_voice(title):
    whole, sharded = title["whole"]["video"], title["sharded"]["video"]
    beats = [json.loads(v.with_suffix(".beats.json").read_text()) for v in (whole, sharded)]
    for record in beats:  # each render has its own voice cache: compare the files' names
        for beat in record["beats"]:
            beat["audio"] = [[Path(path).name, at] for path, at in beat["audio"]]
            said = beat["description"]
            said["audio"] = [[Path(path).name, at] for path, at in said["audio"]]
    assert beats[0] == beats[1] and len(beats[0]["beats"]) >= 3
    assert whole.with_suffix(".srt").read_text() == sharded.with_suffix(".srt").read_text()
    voices = [decode_audio(v) for v in (whole, sharded)]
    assert voices[0] is not None and voices[1] is not None, "the voice was not laid on"
    assert voices[0].size == voices[1].size and np.abs(voices[0] - voices[1]).max() < 1e-3
    assert abs(probe(sharded).duration - beats[1]["duration"]) < 0.1


@pytest.mark.render
def test_a_one_beat_preview_is_that_beat_of_the_whole_clip(title):
    whole, media = title["whole"]["video"], title["whole"]["media"]
    args = ("preview", "LectureTitle", "--beat", "bank", "--quality", "l", "--media-dir", str(media))
    first = run_cli(*args)
    assert first.returncode == 0, first.stderr[-3000:]
    folder = media / "preview" / "LectureTitle"
    video, still = folder / "LectureTitle.02-bank.mp4", folder / "LectureTitle.02-bank.png"
    assert "LectureTitle.02-bank: rendered in" in first.stdout and str(video) in first.stdout
    record = json.loads(whole.with_suffix(".beats.json").read_text())
    beat = next(b for b in record["beats"] if b["id"].endswith("-bank"))
    shown = frames(video)
    start = round(beat["start"] * 15)
    assert len(shown) == round((beat["end"] - beat["start"]) * 15)
    assert_frames_equal(shown, frames(whole)[start : start + len(shown)])
    last = np.asarray(Image.open(still).convert("RGB"), dtype=np.int16)
    assert np.abs(last - rgb_frames(video)[-1]).mean() < 1.0  # the still is the beat's last frame
    voice = decode_audio(video)
    assert voice is not None and np.abs(voice).max() > 0.05, "the preview carries the beat's voice"
    cues = (folder / "LectureTitle.02-bank.srt").read_text()
    assert " ".join(beat["text"].split()[:3]) in " ".join(cues.split())
    made = video.stat().st_mtime_ns
    again = run_cli(*args)
    assert again.returncode == 0 and "LectureTitle.02-bank: up to date" in again.stdout
    assert video.stat().st_mtime_ns == made  # nothing was rendered again


@pytest.mark.render
def test_an_unknown_beat_is_one_line_naming_the_beats(tmp_path):
    media = media_with_caches(tmp_path)
    proc = run_cli("preview", "LectureTitle", "--beat", "nope", "--media-dir", str(media))
    err = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and err[-1].startswith("error: LectureTitle has no beat 'nope'; its beats:")
    assert "Traceback" not in proc.stderr


MIX = "weights that can depend on what they say, not just their slots."
LONGER = MIX + " So one word can mean two things."


@pytest.mark.render
def test_a_narration_edit_rebuilds_one_beat_and_gives_a_full_renders_frames(title, tmp_path):
    """The sharded title's segment cache, one beat's narration lengthened in a copy of the code: the
    rebuild renders that beat alone, copies the beats after it (only moved in time) from the cache,
    and gives frame for frame, beat for beat and word for word what a full render of the edit gives."""
    repo = copy_of_the_repository(tmp_path / "repo")
    shutil.copytree(title["sharded"]["media"] / "segments", repo / "media" / "segments")
    scene = repo / "scenes" / "s0_title.py"
    assert MIX in scene.read_text(), "the title's mix beat changed: edit MIX to its narration"
    scene.write_text(scene.read_text().replace(MIX, LONGER))

    def render(media: Path, *extra: str) -> str:
        args = ["render", "LectureTitle", "--quality", "l", "--media-dir", str(media), *extra]
        env = {**clean_env(), "PYTHONPATH": str(repo)}
        proc = subprocess.run(
            [sys.executable, "-m", "scenes", *args], cwd=repo, env=env, capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        return proc.stderr

    log = render(repo / "media")
    n = segments(log)
    assert f"LectureTitle 1 shard(s) for 1 of {n} segments" in log, log
    assert f"joining {n} segments ({n - 1} from the cache, 1 rendered)" in log, log
    edited = repo / "media" / "clips" / "480p15-mp4" / "LectureTitle.mp4"
    record = json.loads(edited.with_suffix(".beats.json").read_text())
    mix = next(b for b in record["beats"] if b["id"].endswith("-mix"))
    assert LONGER in " ".join(mix["text"].split())
    rendered = re.findall(r"rendering \(animations (\d+)-(\d+)\)", log)
    assert len(rendered) == 1 and 0 < int(rendered[0][0]) <= int(rendered[0][1]) < 20, log  # the beat
    before = json.loads(title["whole"]["video"].with_suffix(".beats.json").read_text())
    moved = [b["start"] - a["start"] for a, b in zip(before["beats"], record["beats"], strict=True)]
    assert moved[-1] > 1.0, moved  # the later beats moved in time, and came from the cache

    media = media_with_caches(tmp_path / "whole")
    assert "unplanned" in render(media, "--shards", "1")  # the edited scene rendered whole, no cache
    reference = media / "clips" / "480p15-mp4" / "LectureTitle.mp4"
    assert_same_frames(reference, edited)
    assert reference.with_suffix(".srt").read_text() == edited.with_suffix(".srt").read_text()
    voices = [decode_audio(v) for v in (reference, edited)]
    assert voices[0] is not None and voices[1] is not None
    assert voices[0].size == voices[1].size and np.abs(voices[0] - voices[1]).max() < 1e-3
