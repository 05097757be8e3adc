"""The warm watch loop: one scene kept ready at each watched beat's start, so an edit renders that beat alone.

``preview --watch`` keeps this process warm: manim, numpy, scipy and the
scene's other libraries are imported once, and the TeX, text and voice caches
are on disk. Each replay is a fork of it that imports the project's own code
afresh, so it runs the code as saved (:mod:`production.watch.warm_child`): it plays
the scene with every animation skipped, its clock and state kept, and leaves a
**keeper** paused at each watched beat's start. No later render replays the
scene from its start while the keepers hold:

- **a narration edit** (the scene's code the same with the beats' spoken texts
  left out, :func:`production.render.inputs.without_narration`; the lecture file's data
  the same): each keeper forks a render that reads its beat's text again from
  the saved module. A beat whose text is unchanged answers at once; the edited
  beat is spoken and drawn from the kept state, and the keeper stays for the
  next edit. A new recording renders its beat the same way.
- **any other edit** (code, kit, ``attnmath``, the lecture file's data): one
  replay of the new code, then the watched beats render from their new keepers.

A render draws the same frames as a shard of the whole clip (manim's own
``-n`` skipping, with the same command line and exact skipping), so its frames
equal the whole clip's at that beat (a test compares them). Each rendered beat
is published as :func:`production.watch.beats.publish_beat` publishes a preview:
voice, captions, last frame, stamp. Rendering holds the media folder's lock
(:mod:`production.render.lock`); the keepers wait holding nothing. Keepers end when
the watch ends, even when it is killed: each waits on a pipe whose writer is the
watch, and end-of-file on it ends them.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict
from multiprocessing.connection import Connection
from pathlib import Path

from atomic_files import copy_file
from lecture.config import LectureConfig
from lecture.section import Section
from narration.beats import BeatsRecord
from production.options import PACKAGES, RenderError, RenderOptions
from production.render import manim_run
from production.render.inputs import clip_inputs_hash
from production.render.lock import media_lock
from production.watch.beats import (
    BeatPreview,
    beat_key,
    publish_beat,
    published,
    scene_hash,
    stamps,
    write_stamp,
)
from production.watch.warm_child import SKIP_ALL, Answer, Replayed, Request

__all__ = ["WarmScene", "FRESH", "warm_up"]

FRESH = tuple(name for name in PACKAGES if name != "manim_patches")
"""The project's packages, imported afresh by each replay (manim_patches stays: its patches are installed)."""


def warm_up(clip: Section) -> None:
    """Import manim (with the project's patches) and every library ``clip``'s scene uses, once."""
    import manim_patches
    from scenes import load_scene

    manim_patches.install()
    load_scene(clip)


def _fresh_modules() -> None:
    """Forget the project's modules in this (forked) process, so the next import reads the saved files."""
    for name in list(sys.modules):
        if name.split(".")[0] in FRESH:
            del sys.modules[name]


class WarmScene:
    """The keepers of one scene's watched beats, and the edits sent to them.

    ``wanted``: the beats watched (ids, ``NN-slug`` or slugs; empty: every beat).
    """

    def __init__(self, clip: Section, wanted: Sequence[str], options: RenderOptions, media_dir: Path) -> None:
        self.clip, self.wanted, self.options, self.media_dir = clip, list(wanted), options, media_dir
        self.folder = media_dir / "preview" / clip.scene
        self.work = media_dir / ".work" / "warm" / f"{clip.scene}-{os.getpid()}"
        self.keepers: list[tuple[str, str]] = []
        self.sockets: Path | None = None
        self.alive: int | None = None  # the pipe the keepers watch (its writer: this process)
        self.scene = self.code = self.voices = ""  # what the keepers were made from

    def refresh(self, config: LectureConfig) -> list[BeatPreview]:
        """Bring the watched beats' previews up to date after a save (or at the start)."""
        scene = scene_hash(self.clip, self.options, config)
        if self.keepers and scene == self.scene:  # nothing changed: render only a beat whose files went
            missing = [beat for beat, _ in self.keepers if not stamps(self.folder, beat)]
            if not missing:
                return []
            with media_lock(self.media_dir):
                return self._ask(Request(force=True), config, scene, only=missing) or []
        code = clip_inputs_hash(
            self.clip, self.options, config.fingerprint(self.clip, recordings=False), narration=False
        )
        voices = config.fingerprint(self.clip)
        with media_lock(self.media_dir):
            return self._refresh(config, scene, code, voices)

    def _refresh(self, config: LectureConfig, scene: str, code: str, voices: str) -> list[BeatPreview]:
        """:meth:`refresh`, under the media folder's lock."""
        if self.keepers and code == self.code:
            results = self._ask(Request(source=True, force=voices != self.voices), config, scene)
            if results is not None:
                self.scene, self.voices = scene, voices
                return results
        self._replay(config)
        self.scene, self.code, self.voices = scene, code, voices
        stale = [b for b, _ in self.keepers if stamps(self.folder, b)[:1] != [scene]]
        results = self._ask(Request(force=True), config, scene, only=stale)
        return results or []

    def render_now(self, config: LectureConfig, scene: str) -> list[BeatPreview]:
        """Replay the scene and render every watched beat once (the caller holds the media folder's lock)."""
        self._replay(config)
        return self._ask(Request(force=True), config, scene) or []

    def _ask(
        self, request: Request, config: LectureConfig, scene: str, only: list[str] | None = None
    ) -> list[BeatPreview] | None:
        """Send ``request`` to each keeper (or those ``only``): their previews; None if one needs a replay."""
        results = []
        for beat, path in self.keepers:
            if only is not None and beat not in only:
                continue
            start = time.monotonic()
            answer = _send(path, request, beat)
            if answer.status == "replay":
                return None
            if answer.status == "failed":
                raise RenderError(f"{beat}: {answer.message}")
            if answer.status == "unchanged":
                stamp = stamps(self.folder, beat)
                if stamp:  # the published beat is still right for the saved scene
                    write_stamp(self.folder, beat, scene, stamp[1])
                continue
            results.append(self._publish(answer, config, scene, start))
        return results

    def _publish(self, answer: Answer, config: LectureConfig, scene: str, start: float) -> BeatPreview:
        """Voice, captions, last frame and stamp of a rendered beat, each renamed into place."""
        beat_work = self.work / "publish" / answer.beat
        shutil.rmtree(beat_work, ignore_errors=True)
        beat_work.mkdir(parents=True)
        silent = beat_work / "beat.mp4"
        copy_file(Path(answer.video), silent)
        record = BeatsRecord.read(Path(answer.beats))
        beat = publish_beat(self.clip, answer.beat, silent, record, self.folder, beat_work)
        key = beat_key(self.clip, self.options, config, beat, (answer.first, answer.last))
        write_stamp(self.folder, answer.beat, scene, key)
        return published(self.folder, answer.beat, rendered=True, seconds=time.monotonic() - start)

    def _replay(self, config: LectureConfig) -> None:
        """Replay the saved scene in a fork, leaving new keepers at the watched beats."""
        self.close()
        manim_run.check_latex()
        manim_run.ensure_writable(self.folder)
        shutil.rmtree(self.work, ignore_errors=True)
        self.work.mkdir(parents=True)
        self.sockets = Path(tempfile.mkdtemp(prefix="warm-"))  # short: a socket's path has 107 bytes at most
        settings = config.settings().replace(
            voice_cache=self.media_dir / "voice", beats_out=self.work / "beats.json"
        )
        cmd = manim_run.manim_command(
            self.clip, self.options, self.work, cache=self.media_dir, span=(SKIP_ALL, SKIP_ALL)
        )
        args = cmd[cmd.index("render") :]
        watched, self.alive = os.pipe()
        pid = os.fork()
        if pid == 0:  # the replay
            os.close(self.alive)
            _replay_child(args, settings.env(), self.wanted, self.sockets, self.work, watched)
        os.close(watched)
        os.waitpid(pid, 0)
        replayed = Replayed.read(self.sockets / "replayed.json")
        self.keepers = replayed.keepers
        if replayed.error:
            self.close()
            raise RenderError(f"{self.clip.scene}: {replayed.error} (log: {self.work / 'replay.log'})")

    def close(self) -> None:
        """End the keepers (and remove their sockets)."""
        for beat, path in self.keepers:
            with contextlib.suppress(OSError):
                _send(path, Request(quit=True), beat, answer=False)
        self.keepers = []
        if self.alive is not None:
            os.close(self.alive)  # end of file for any keeper that missed the request
            self.alive = None
        if self.sockets is not None:
            shutil.rmtree(self.sockets, ignore_errors=True)
            self.sockets = None


def _replay_child(
    args: list[str], settings: dict[str, str], wanted: list[str], sockets: Path, work: Path, watched: int
) -> None:
    """The forked replay: its output to a log, the project's code imported afresh; never returns."""
    code = 70
    try:
        log = os.open(work / "replay.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        _fresh_modules()
        child = importlib.import_module("production.watch.warm_child")
        code = child.replay(args, settings, wanted, sockets, watched)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _send(path: str, request: Request, beat: str, *, answer: bool = True) -> Answer:
    """One request to the keeper at ``path``, and its answer."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    with Connection(sock.detach()) as conn:
        conn.send(asdict(request))
        if not answer:
            return Answer(beat, "unchanged")
        try:
            return Answer(**conn.recv())
        except EOFError:
            return Answer(beat, "failed", f"the keeper of {beat} ended without an answer")
