"""Two commands on one media folder: the second waits for the first, saying so once, and both finish whole.

Without the lock, two renders started together race on manim's text cache
(one reads ``texts/<hash>_.svg`` while the other writes it) and one fails.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

from production.media.video import probe
from production.render.lock import LOCK_NAME, media_lock, waiting_line
from tests.production.shard_helpers import REPO, clean_env, cli, copy_of_the_repository, media_with_caches
from tests.production.test_preview import Lines, _ctrl_c_heard


def assert_clip_whole(video: Path) -> None:
    """The clip is as long as its beats say (its beats' end), to the frame."""
    beats = json.loads(Path(f"{video.with_suffix('')}.beats.json").read_text())["beats"]
    info = probe(video)
    assert abs(info.duration - beats[-1]["end"]) < 0.5 / info.fps, (info, beats[-1]["end"])


def test_a_held_lock_makes_the_next_one_wait_and_say_so_once(tmp_path):
    """In-process: the waiting line, once, and the wait ends as soon as the holder lets go."""
    holder = FileLock(str(tmp_path / LOCK_NAME))
    holder.acquire()
    said: list[str] = []

    class Stream:
        def write(self, text: str) -> None:
            said.append(text)
            if text.strip():
                holder.release()  # the other command finishes while this one waits

        def flush(self) -> None:
            pass

    with media_lock(tmp_path, Stream()):
        pass
    assert "".join(said) == waiting_line(tmp_path) + "\n"
    with media_lock(tmp_path, Stream()):  # free now: nothing said
        pass
    assert "".join(said).count("waiting") == 1


def test_a_killed_holder_leaves_the_lock_free(tmp_path):
    code = f"from filelock import FileLock; lock = FileLock({str(tmp_path / LOCK_NAME)!r}); lock.acquire()"
    holder = subprocess.Popen(
        [sys.executable, "-c", code + "; print('held', flush=True); import time; time.sleep(60)"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(TimeoutError):
            FileLock(str(tmp_path / LOCK_NAME)).acquire(blocking=False)
    finally:
        holder.kill()
        holder.wait()
    FileLock(str(tmp_path / LOCK_NAME)).acquire(blocking=False)  # SIGKILL released it


def test_ctrl_c_while_waiting_is_the_usual_clean_stop(tmp_path):
    holder = FileLock(str(tmp_path / LOCK_NAME))
    holder.acquire()
    argv = ["render", "LectureTitle", "--quality", "l", "--media-dir", str(tmp_path)]
    proc = subprocess.Popen(
        cli(*argv), cwd=REPO, env=clean_env(), stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_heard
    )
    assert proc.stderr is not None
    try:
        assert proc.stderr.readline().strip() == waiting_line(tmp_path.resolve())
        proc.send_signal(signal.SIGINT)
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 130
    finally:
        proc.kill()
        holder.release()
    assert err.startswith("interrupted:") and "Traceback" not in err, err


@pytest.mark.render
def test_two_renders_into_one_media_folder_both_finish(tmp_path):
    media = media_with_caches(tmp_path)
    argv = ["render", "LectureTitle", "--quality", "l", "--media-dir", str(media)]
    run = dict(cwd=REPO, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    procs = [subprocess.Popen(cli(*argv), **run) for _ in range(2)]  # started together
    outputs = [proc.communicate(timeout=600) for proc in procs]
    errs = [err.decode(errors="replace") for _, err in outputs]
    for proc, err in zip(procs, errs, strict=True):
        assert proc.returncode == 0, err[-3000:]
    waited = [err.count(waiting_line(media.resolve())) for err in errs]
    assert sorted(waited) == [0, 1], errs
    assert_clip_whole(media / "clips" / "480p15-mp4" / "LectureTitle.mp4")


@pytest.mark.render
def test_a_watch_beside_a_build_waits_for_it_then_renders(tmp_path):
    repo = copy_of_the_repository(tmp_path / "repo")
    (repo / "lecture.toml").write_text('title = "One scene"\nvoice = "none"\nscenes = ["LectureTitle"]\n')
    scene = repo / "scenes" / "s0_title.py"
    source = scene.read_text()
    media = (repo / "media").resolve()
    env = {**clean_env(), "PYTHONPATH": str(repo)}
    run = dict(cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    watch_args = ["preview", "LectureTitle", "--beat", "mix", "--watch", "--media-dir", str(media)]
    watch = subprocess.Popen(cli(*watch_args), preexec_fn=_ctrl_c_heard, **run)
    build = None
    try:
        watched = Lines(watch)
        first = watched.until(lambda line: line.startswith("watching"))
        assert sum("rendered in" in line for line in first) == 1, first
        build = subprocess.Popen(cli("build", "--quality", "l", "--media-dir", str(media)), **run)
        built = Lines(build)
        built.until(lambda line: "planned in" in line)  # the build holds the lock, its plan is made
        # The beat's preview deleted, then the scene saved unchanged: the watch renders that beat again,
        # and the build, which is rendering the scene from the same code, is not disturbed.
        (media / "preview" / "LectureTitle" / "LectureTitle.03-mix.mp4").unlink()
        scene.write_text(source)
        waiting = watched.until(lambda line: "waiting for the build" in line, timeout=60)
        assert waiting[-1] == waiting_line(media), waiting  # it woke while the build held the lock
        edited = watched.until(lambda line: "rendered in" in line)
        assert edited[-1].startswith("LectureTitle.03-mix: rendered in"), edited
        assert build.poll() is not None, "the watch planned and rendered only once the build was done"
        assert build.wait(timeout=60) == 0, "\n".join([*built.seen, *built.quiet(1)][-30:])
        assert not any("waiting" in line for line in [*built.seen, *built.quiet(1)])
    finally:
        watch.send_signal(signal.SIGINT)
        try:
            watch.wait(timeout=60)
        except subprocess.TimeoutExpired:
            watch.kill()
        if build is not None and build.poll() is None:
            build.kill()
    assert watch.returncode == 0
    assert_clip_whole(media / "lecture" / "480p15" / "00-LectureTitle.mp4")
    preview = media / "preview" / "LectureTitle"
    assert probe(preview / "LectureTitle.03-mix.mp4").duration > 0
    assert not [p.name for p in preview.iterdir() if ".partial" in p.name]
