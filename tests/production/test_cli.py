"""The command line and the build's bookkeeping: clear errors, up-to-date hashing, set-up script."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from lecture.clips import LECTURE, find_clip
from production import cli
from production.cli import main
from production.options import RenderError, RenderOptions, published_paths
from production.render import manim_run
from production.render.inputs import clip_inputs_hash, is_up_to_date

REPO = Path(__file__).resolve().parents[2]


def test_list_prints_every_scene_in_order(capsys):
    assert main(["list"]) == 0
    *lines, total = capsys.readouterr().out.splitlines()
    assert [line.split()[3] for line in lines] == [c.scene for c in LECTURE]
    assert total.startswith("total ~") and total.endswith("min")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["render", "NoSuchScene"], "unknown scene 'NoSuchScene'"),
        (["render", "--quality", "z"], "quality must be one of"),
        (["render", "--format", "avi"], "format must be one of"),
        (["render", "--transparent"], "--transparent needs --format webm"),
        (["render", "LectureTitle", "--format", "gif", "--transparent"], "--transparent needs --format webm"),
        (["build", "--jobs", "0"], "--jobs must be >= 1"),
    ],
)
def test_bad_arguments_give_one_clear_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


@pytest.mark.parametrize("error", [ZeroDivisionError("division by zero"), ValueError("a bug's ValueError")])
def test_an_internal_error_says_it_is_a_bug_with_a_short_traceback(error, capsys, monkeypatch):
    def broken(_config):
        raise error

    monkeypatch.setattr(cli, "cmd_list", broken)
    assert main(["list"]) == cli.BUG == 70
    err = capsys.readouterr().err
    assert err.startswith("Traceback") and "in broken" in err  # where it happened
    last = err.strip().splitlines()[-1]
    assert last.startswith("internal error: this is a bug in attention-lecture") and str(error) in last


def test_the_help_names_the_program_attention_lecture(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert capsys.readouterr().out.startswith("usage: attention-lecture ")


def test_bad_options_are_refused_before_anything_renders(tmp_path, capsys, monkeypatch):
    rendered = []
    monkeypatch.setattr(cli, "render_clips", lambda *a, **k: rendered.append(a) or pytest.fail("rendered"))
    argv = ["render", "LectureTitle", "--format", "gif", "--transparent", "--media-dir", str(tmp_path)]
    assert main(argv) == 2
    assert not rendered and not any(tmp_path.iterdir())


def test_the_render_guard_can_fire(tmp_path, monkeypatch):
    """The seam the guard above patches is the one the CLI calls: a guard on an unused name never fires."""
    called = []

    def fake(*args, **kwargs):
        called.append(args)
        raise RenderError("stopped by the test")

    monkeypatch.setattr(cli, "render_clips", fake)
    assert main(["render", "LectureTitle", "--quality", "l", "--media-dir", str(tmp_path)]) == 2
    assert called


def test_a_failed_render_says_it_failed_and_why(tmp_path, capsys, monkeypatch):
    script = "import sys; print('Traceback (most recent call last):'); print('ValueError: boom'); sys.exit(3)"
    monkeypatch.setattr(manim_run, "manim_command", lambda *a, **k: [sys.executable, "-c", script])
    assert main(["render", "LectureTitle", "--quality", "l", "--media-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "render failed (manim exited with 3)" in err and "ValueError: boom" in err
    assert "interrupted" not in err
    assert not list((tmp_path / "clips").glob("*/*.mp4"))


def test_missing_latex_says_what_to_install(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(manim_run.shutil, "which", lambda tool: None)
    with pytest.raises(RenderError, match="apt-get install"):
        manim_run.check_latex()
    assert main(["build", "--quality", "l", "--media-dir", str(tmp_path)]) == 2
    assert "LaTeX is missing" in capsys.readouterr().err


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make a read-only folder bite")
def test_unwritable_media_dir_is_reported(tmp_path, capsys):
    target = tmp_path / "ro"
    target.mkdir()
    (target / "lecture").write_text("a file where a folder should be")
    assert main(["build", "--quality", "l", "--media-dir", str(target)]) == 2
    assert "error:" in capsys.readouterr().err


def test_inputs_hash_depends_on_options_and_not_on_time():
    clip = find_clip("TemperatureSweep")
    low = clip_inputs_hash(clip, RenderOptions("l"))
    assert low == clip_inputs_hash(clip, RenderOptions("l"))
    assert low != clip_inputs_hash(clip, RenderOptions("h"))
    assert low != clip_inputs_hash(clip, RenderOptions("l", "webm"))
    assert low != clip_inputs_hash(clip, RenderOptions("l"), extra="lecturer config")


def test_up_to_date_needs_the_video_and_a_matching_stamp(tmp_path):
    clip = find_clip("TemperatureSweep")
    options = RenderOptions("l")
    video, _, stamp = published_paths(clip, options, tmp_path)
    assert not is_up_to_date(clip, options, tmp_path)
    video.write_bytes(b"stand-in")
    stamp.write_text(clip_inputs_hash(clip, options))
    assert is_up_to_date(clip, options, tmp_path)
    stamp.write_text("0" * 64)
    assert not is_up_to_date(clip, options, tmp_path)


def test_a_clip_publishes_the_stamp_taken_before_it_was_planned(tmp_path, monkeypatch):
    """A scene edited while its clip renders leaves the clip stale: the stamp vouches for the sources the
    render read (hashed before planning), not for the sources at publishing time."""
    from production.render import pipeline
    from production.render.join import ClipOutput
    from production.render.pipeline import _Build, _Clip

    clip, options = find_clip("AdaptiveSufficiency"), RenderOptions("l")
    build = _Build([clip], options, tmp_path, None, None, lambda _c: "", None, False, None, False)  # type: ignore[arg-type]
    flight = _Clip(0, clip, None, [None], stamp=build.stamp(clip))
    monkeypatch.setattr(pipeline, "clip_inputs_hash", lambda *_a, **_k: "e" * 64)  # the scene, edited since
    srt = "1\n00:00:00,000 --> 00:00:01,000\nHi\n"
    build.publish(flight, ClipOutput(b"video", None, srt, (1.0,), 0.1, ()))
    _, _, stamp = published_paths(clip, options, tmp_path)
    assert stamp.read_text().strip() == clip_inputs_hash(clip, options)  # what the render was made from
    monkeypatch.undo()
    assert is_up_to_date(clip, options, tmp_path)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("su") is None, reason="needs root and su")
def test_setup_script_as_non_root_prints_the_install_line():
    # A copy in a folder that `nobody` may enter: the checkout itself may sit in a 0700 folder.
    folder = Path(tempfile.mkdtemp(prefix="ensure-system-"))
    try:
        folder.chmod(0o755)
        script = folder / "ensure_system.sh"
        shutil.copyfile(REPO / "tools" / "ensure_system.sh", script)
        script.chmod(0o755)
        proc = subprocess.run(
            ["su", "-s", "/bin/bash", "nobody", "-c", f"{script} surely-not-a-package-xyz coreutils"],
            capture_output=True,
            text=True,
            cwd="/",
        )
    finally:
        shutil.rmtree(folder)
    assert proc.returncode == 1
    assert "apt-get install -y --no-install-recommends surely-not-a-package-xyz" in proc.stderr
    assert "coreutils" not in proc.stderr.split("apt-get install")[1]


def test_setup_script_is_silent_when_nothing_is_missing():
    proc = subprocess.run([REPO / "tools" / "ensure_system.sh", "coreutils"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""
