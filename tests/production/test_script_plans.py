"""The script's plans: each scene's dry run kept under its inputs key, read back while nothing changed.

The in-process tests count dry runs with a stand-in for manim's; the last one
runs the real command twice in a copy of the repository, edits one beat's
narration there and runs it again.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from lecture.config import load_config
from narration.beats import Beat
from narration.cues import Cue
from production.publish import script
from production.render.plans import KEEP, PlanStore
from tests.production.shard_helpers import clean_env, cli, copy_of_the_repository
from tests.production.test_preview import NEW, OLD

SCENES = ("LectureTitle", "TemperatureSweep")


@pytest.fixture
def dry_runs(monkeypatch) -> list[str]:
    """The scenes dry-run, in order; each one's beats say how many dry runs came before."""
    runs: list[str] = []

    def fake(clip, **_settings):
        runs.append(clip.scene)
        text = f"{clip.scene} speaks, dry run {len(runs)}."
        beat = Beat(f"{clip.scene}.01-only", text, 0.0, 2.0, "none", "none", (), (Cue(0.0, 2.0, text),))
        return SimpleNamespace(beats=[beat], beat_spans=[(beat.id, 0, 0)], renderer=SimpleNamespace(time=2.0))

    monkeypatch.setattr(script, "dry_run", fake)
    return runs


def lecture_file(folder: Path, scores: str = "[0.5, 2.0, 1.0]") -> Path:
    path = folder / "lecture.toml"
    names = ", ".join(f'"{s}"' for s in SCENES)
    path.write_text(f'title = "Two scenes"\nscenes = [{names}]\n\n[TemperatureSweep]\nscores = {scores}\n')
    return path


def plan_files(media: Path) -> dict[str, int]:
    """Every kept plan and its modification time."""
    return {str(p.relative_to(media)): p.stat().st_mtime_ns for p in sorted((media / "plans").glob("*/*"))}


def test_a_second_script_reads_every_plan_back(tmp_path, dry_runs):
    config, store, checks = load_config(lecture_file(tmp_path)), PlanStore(tmp_path / "media"), []
    first = script.narration_script(config, store, before_dry_run=lambda: checks.append(1))
    assert dry_runs == list(SCENES) and len(checks) == 2
    kept = plan_files(tmp_path / "media")
    assert len(kept) == 2
    second = script.narration_script(config, store, before_dry_run=lambda: checks.append(1))
    assert second == first and dry_runs == list(SCENES) and len(checks) == 2  # no dry run, no manim check
    assert plan_files(tmp_path / "media") == kept


def test_a_changed_scene_is_planned_again_alone(tmp_path, dry_runs):
    store = PlanStore(tmp_path / "media")
    first = script.narration_script(load_config(lecture_file(tmp_path)), store)
    edited = script.narration_script(load_config(lecture_file(tmp_path, scores="[3.0, 1.0]")), store)
    assert dry_runs == [*SCENES, "TemperatureSweep"]
    assert "TemperatureSweep speaks, dry run 3." in edited and "LectureTitle speaks, dry run 1." in edited
    assert edited != first
    again = script.narration_script(load_config(lecture_file(tmp_path)), store)  # back: both plans are kept
    assert again == first and len(dry_runs) == 3


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # a write cut short
        lambda data: b"",
        lambda data: b"\xff\xfe\x00garbage",
        lambda data: b"[1, 2, 3]",
        lambda data: data.replace(b'"format": 1', b'"format": 99'),
        lambda data: json.dumps({**json.loads(data), "beats": [{"id": 1}]}).encode(),
        lambda data: json.dumps({**json.loads(data), "beats": 7}).encode(),
    ],
    ids=["truncated", "empty", "not-utf8", "not-a-plan", "other-format", "bad-beat", "bad-beats"],
)
def test_a_damaged_plan_is_ignored_and_made_again(tmp_path, dry_runs, damage):
    config, store = load_config(lecture_file(tmp_path)), PlanStore(tmp_path / "media")
    script.narration_script(config, store)
    path = store.path("LectureTitle", script.script_key(config.clips[0], config))
    path.write_bytes(damage(path.read_bytes()))
    text = script.narration_script(config, store)
    assert dry_runs == [*SCENES, "LectureTitle"]
    assert "LectureTitle speaks, dry run 3." in text
    assert store.load("LectureTitle", path.stem)["beats"][0]["text"] == "LectureTitle speaks, dry run 3."


def test_each_scene_keeps_its_newest_plans(tmp_path):
    store = PlanStore(tmp_path)
    for k in range(KEEP + 3):
        store.keep("S", f"script-{k:02d}", {"beats": []})
        os.utime(store.path("S", f"script-{k:02d}"), ns=(k * 10**9, k * 10**9))
    store.keep("S", "script-new", {"beats": []})
    kept = sorted(p.stem for p in (tmp_path / "plans" / "S").iterdir())
    assert len(kept) == KEEP and "script-new" in kept and "script-00" not in kept


def test_an_unwritable_media_folder_still_gives_the_script(tmp_path, dry_runs):
    (tmp_path / "plans").write_text("a file where the plans folder should be")
    config = load_config(lecture_file(tmp_path))
    assert "LectureTitle speaks" in script.narration_script(config, PlanStore(tmp_path))


def test_the_command_keeps_plans_and_plans_an_edited_scene_again(tmp_path):
    repo = copy_of_the_repository(tmp_path / "repo")
    (repo / "lecture.toml").write_text('title = "One scene"\nscenes = ["LectureTitle"]\n')
    media, scene = repo / "media", repo / "scenes" / "s0_title.py"
    env = {**clean_env(), "PYTHONPATH": str(repo)}

    def run() -> str:
        argv = cli("script", "--media-dir", str(media))
        proc = subprocess.run(argv, cwd=repo, env=env, capture_output=True)
        assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
        return proc.stdout.decode()

    first = run()
    kept = plan_files(media)
    assert len(kept) == 1 and "lets each word take" in " ".join(first.split())
    assert run() == first and plan_files(media) == kept  # read back: the plan was not written again
    scene.write_text(scene.read_text().replace(OLD, NEW))
    edited = run()
    assert "lets every word take" in " ".join(edited.split())
    now = plan_files(media)
    assert len(now) == 2 and all(now[name] == kept[name] for name in kept)  # a new plan beside the old
