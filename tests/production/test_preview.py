"""Watch mode: a real process, real edits of a copy of the repository; only the edited beat renders again."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.production.shard_helpers import (
    REPO,
    assert_same_frames,
    clean_env,
    cli,
    copy_of_the_repository,
    media_with_caches,
)

OLD = '"Attention lets each word take a weighted mix of all the words, "'
NEW = '"Attention lets every word take a weighted mix of all the words, "'


class Lines:
    """A process's stdout lines, read on a thread, awaited with a deadline."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.queue.put(line.rstrip("\n"))

    def until(self, predicate, timeout: float = 300) -> list[str]:
        """Lines up to and including the first for which ``predicate`` holds."""
        got, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.queue.get(timeout=1)
            except queue.Empty:
                continue
            got.append(line)
            self.seen.append(line)
            if predicate(line):
                return got
        raise AssertionError(f"no such line within {timeout}s; saw: {self.seen[-20:]}")

    def quiet(self, seconds: float) -> list[str]:
        """Whatever arrives in the next ``seconds``."""
        time.sleep(seconds)
        got = []
        while not self.queue.empty():
            got.append(self.queue.get())
        self.seen += got
        return got


def _ctrl_c_heard() -> None:
    """SIGINT as a terminal gives it: a test run started in the background (``make test &``) ignores
    SIGINT, and its children, Python among them, would inherit that and never see the Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.render
def test_watch_renders_only_the_edited_beat_and_survives_a_broken_scene(tmp_path):
    repo = copy_of_the_repository(tmp_path / "repo")
    scene = repo / "scenes" / "s0_title.py"
    source = scene.read_text()
    assert OLD in source
    args = ["preview", "LectureTitle", "--beat", "bank", "--beat", "mix", "--watch", "--quality", "l"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "scenes", *args, "--media-dir", str(repo / "media")],
        cwd=repo,
        env={**clean_env(), "PYTHONPATH": str(repo)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=_ctrl_c_heard,
    )
    lines = Lines(proc)
    try:
        first = lines.until(lambda line: line.startswith("watching"))
        assert sum("rendered in" in line for line in first) == 2, first  # both beats, once
        scene.write_text(source.replace("def construct(self)", "def construct(self"))  # a syntax error
        broken = lines.until(lambda line: line.startswith("error:"))
        assert "scenes/s0_title.py, line" in broken[-1] and "Traceback" not in "\n".join(broken)
        scene.write_text(source.replace(OLD, NEW))  # one beat's narration edited
        edited = lines.until(lambda line: "rendered in" in line)
        edited += lines.quiet(8)
        rendered = [line for line in edited if "rendered in" in line]
        assert len(rendered) == 1 and rendered[0].startswith("LectureTitle.03-mix: rendered in"), edited
        assert proc.poll() is None, "the watch must keep running"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
    lines.quiet(1)
    stopped = any(line.startswith("stopped watching") for line in lines.seen)
    assert proc.returncode == 0 and stopped, lines.seen[-20:]
    folder = repo / "media" / "preview" / "LectureTitle"
    assert not [p.name for p in folder.iterdir() if ".partial" in p.name]  # nothing half-written
    assert "lets every word take" in " ".join((folder / "LectureTitle.03-mix.srt").read_text().split())
    assert os.path.getsize(folder / "LectureTitle.02-bank.mp4") > 0
    _same_as_a_cold_preview(repo, folder, "LectureTitle.03-mix")


def _same_as_a_cold_preview(repo, folder, beat):
    """The watch drew ``beat`` from a kept process after the edit; a preview that replays the edited
    scene from its start (the shard path, itself tested against the whole clip) gives the same frames,
    captions and stamp."""
    warm = {suffix: (folder / f"{beat}{suffix}").read_bytes() for suffix in (".mp4", ".srt", ".inputs")}
    (folder / f"{beat}.mp4").rename(folder / "warm.mp4")
    (folder / f"{beat}.inputs").unlink()
    args = ["preview", "LectureTitle", "--beat", beat, "--quality", "l", "--media-dir", str(repo / "media")]
    env = {**clean_env(), "PYTHONPATH": str(repo)}
    cold = subprocess.run(
        [sys.executable, "-m", "scenes", *args], cwd=repo, env=env, capture_output=True, text=True
    )
    assert cold.returncode == 0 and f"{beat}: rendered in" in cold.stdout, cold.stderr[-3000:]
    assert_same_frames(folder / f"{beat}.mp4", folder / "warm.mp4")
    assert (folder / f"{beat}.srt").read_bytes() == warm[".srt"]
    assert (folder / f"{beat}.inputs").read_bytes() == warm[".inputs"]  # the same scene hash and beat key


def _processes_naming(marker: str) -> list[int]:
    """The processes whose command line names ``marker`` (a watch's forks share its command line)."""
    found = []
    for proc in os.listdir("/proc"):
        try:
            if proc.isdigit() and marker in open(f"/proc/{proc}/cmdline").read():
                found.append(int(proc))
        except OSError:  # it ended meanwhile
            continue
    return found


@pytest.mark.render
def test_a_killed_watch_leaves_no_kept_process(tmp_path):
    """The keepers a watch leaves at its beats end with it, even when it is killed (SIGKILL)."""
    media = media_with_caches(tmp_path)
    args = cli("preview", "LectureTitle", "--beat", "mix", "--watch", "--media-dir", str(media))
    proc = subprocess.Popen(
        args, cwd=REPO, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    lines = Lines(proc)
    try:
        first = lines.until(lambda line: line.startswith("watching"))
        assert any(line.startswith("LectureTitle.03-mix: rendered in") for line in first), first
        kept = [pid for pid in _processes_naming(str(media)) if pid != proc.pid]
        assert kept, "the watch keeps a process paused at its beat"
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 20
    while _processes_naming(str(media)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _processes_naming(str(media)), "a kept process outlived its watch"
