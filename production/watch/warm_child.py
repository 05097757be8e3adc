"""The warm preview's scene side: one replay of a scene leaves a process paused at each watched beat.

Runs in a fork of the watching process (:mod:`production.watch.warm`), with the
project's modules imported afresh, so it always sees the code as saved. The
replay is manim's own render of the scene (the build's shard command, in
process) with every animation skipped but its clock and state kept
(:class:`manim_patches.ExactRenderer`). As a watched beat starts
(:mod:`scenes.observer`), before its text is spoken, the replay forks a
**keeper**: a copy of the whole process, scene state and clock included,
paused there and listening on a Unix socket. Once every watched beat has a
keeper, the replay ends.

Each request to a keeper forks a **render** from it: a copy that reads the
beat's text again from the saved source when asked (a narration edit), and
renders the beat's animations and nothing after them, as manim ``-n`` would
(manim ends the scene at the next animation). So a narration edit re-renders
one beat without replaying the scene, and the keeper stays paused for the next
edit. The messages are the records below, one request and one answer per
connection.
"""

from __future__ import annotations

import ast
import json
import os
import select
import socket
import sys
import traceback
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from manim import config
from manim.utils.exceptions import EndSceneEarlyException

from atomic_files import write_text
from lecture.settings import SceneSettings
from narration import piper
from narration.engines import PIPER
from production.options import REPO
from scenes.observer import BeatObserver, observe_from_now, observing

__all__ = ["Request", "Answer", "Replayed", "replay", "new_text", "SKIP_ALL"]

SKIP_ALL = 10**9
"""The replay's ``-n SKIP_ALL,SKIP_ALL``: every animation before it is skipped (and there are fewer)."""


@dataclass(frozen=True)
class Request:
    """What the watch asks of a keeper: render the beat (reading its text from the saved source), or quit."""

    source: bool = False  # read the beat's text again from the saved scene module
    force: bool = False  # render even when the text is unchanged (a first render, a new recording)
    quit: bool = False


@dataclass(frozen=True)
class Answer:
    """A keeper's answer, by its ``status``.

    ``rendered`` (with the beat's silent video, beats record and animations),
    ``unchanged``, ``replay`` (the edit cannot be applied here: replay the
    scene) or ``failed`` (with one line).
    """

    beat: str
    status: str
    message: str = ""
    video: str = ""
    beats: str = ""
    first: int = -1
    last: int = -1


@dataclass(frozen=True)
class Replayed:
    """The replay's result: the keepers, in the scene's order (beat id, socket), or one line of error."""

    keepers: list[tuple[str, str]] = field(default_factory=list)
    error: str = ""

    def write(self, path: Path) -> None:
        """Write whole (renamed into place)."""
        write_text(path, json.dumps(asdict(self)))

    @classmethod
    def read(cls, path: Path) -> Replayed:
        """Read back; a replay that wrote nothing (killed) reads as an error."""
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            return cls(error="the scene's replay ended without a word (killed?)")
        return cls([(beat, path) for beat, path in data["keepers"]], data["error"])


class _AllKept(BaseException):
    """Every watched beat has its keeper: the replay stops here (not an error)."""


def _beat_calls(source: str, filename: str) -> list[ast.Call]:
    """Every ``.beat(...)`` call in a module's source, in a fixed order (that of :func:`ast.walk`)."""
    return [
        node
        for node in ast.walk(ast.parse(source, filename))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "beat"
    ]


def call_index(source: Path, line: int) -> int | None:
    """Which of ``source``'s beat calls (:func:`_beat_calls`) spans ``line``; None if none does."""
    calls = _beat_calls(source.read_text(), str(source))
    spans = [i for i, c in enumerate(calls) if c.lineno <= line <= (c.end_lineno or c.lineno)]
    return spans[-1] if spans else None


def new_text(source: Path, index: int, frame: Any) -> str | None:
    r"""The text the ``index``-th beat call of ``source`` (as saved now) gives, evaluated in ``frame``.

    An edit of narration alone keeps the module's code the same apart from the
    beats' texts (:func:`production.render.inputs.without_narration`), so the calls
    keep their order, and a call's text is evaluated where its beat now stands.
    None when the module no longer has that call.

    >>> import sys, tempfile
    >>> path = Path(tempfile.mkdtemp()) / "s9.py"
    >>> _ = path.write_text('n = 3\nwith self.beat("x", f"Now {n} words."):\n    pass\n')
    >>> call_index(path, 2), call_index(path, 1)
    (0, None)
    >>> new_text(path, 0, sys._getframe()) if (n := 4) else None
    'Now 4 words.'
    >>> new_text(path, 1, sys._getframe()) is None
    True
    """
    calls = _beat_calls(source.read_text(), str(source))
    if index >= len(calls):
        return None
    call = calls[index]
    text = (
        call.args[1]
        if len(call.args) > 1
        else next((k.value for k in call.keywords if k.arg == "text"), None)
    )
    if text is None:
        return None
    code = compile(ast.Expression(text), str(source), "eval")
    return str(eval(code, frame.f_globals, frame.f_locals))  # noqa: S307  (the lecturer's own scene code)


def _caller(frame: Any) -> Any:
    """The frame that wrote ``with self.beat(...)``: the first outside this plumbing and ``beat`` itself."""
    plumbing = {__file__, sys.modules["scenes.observer"].__file__}
    base = sys.modules["scenes.base"].__file__

    def inside(f: Any) -> bool:
        name = f.f_code.co_filename
        return name in plumbing or "contextlib" in name or (name == base and f.f_code.co_name == "beat")

    while frame is not None and inside(frame):
        frame = frame.f_back
    return frame


class _Keepers(BeatObserver):
    """At each watched beat's start, fork a keeper; when all have one, end the replay."""

    def __init__(self, wanted: list[str], sockets: Path, watched: int) -> None:
        self.wanted = wanted  # beat ids or slugs; empty: every beat
        self.sockets = sockets
        self.watched = watched  # end of file here: the watch has ended
        self.keepers: list[tuple[str, str]] = []
        self.text = ""

    def _watched(self, beat_id: str) -> bool:
        slug = beat_id.split("-", 1)[1]
        return not self.wanted or any(w in (beat_id, beat_id.split(".", 1)[1], slug) for w in self.wanted)

    def starting(self, scene: Any, beat_id: str, text: str) -> str:
        if not self._watched(beat_id):
            return text
        path = self.sockets / f"{len(self.keepers):03d}.sock"
        listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listening.bind(str(path))
        listening.listen(1)
        frame = _caller(sys._getframe())
        where = (Path(frame.f_code.co_filename), call_index(Path(frame.f_code.co_filename), frame.f_lineno))
        if os.fork() == 0:
            return _keep(
                listening, self.watched, scene, beat_id, text, where
            )  # returns only in a render, with the beat's text
        listening.close()
        self.keepers.append((beat_id, str(path)))
        if self.wanted and len(self.keepers) == len(self.wanted):
            raise _AllKept
        return text


class _Finisher(BeatObserver):
    """In a render: the watched beat plays, and the scene ends at the next beat or animation."""

    def __init__(self, beat_id: str, conn: Connection, scene: Any) -> None:
        self.beat_id, self.conn, self.scene = beat_id, conn, scene
        self.first, self.last = scene.renderer.num_plays, -1

    def starting(self, scene: Any, beat_id: str, text: str) -> str:
        raise EndSceneEarlyException  # the next beat: the watched one is done

    def ended(self, scene: Any, beat_id: str) -> None:
        self.last = scene.renderer.num_plays - 1
        config.upto_animation_number = self.last  # manim ends the scene at the next animation


_RENDER: list[_Finisher] = []
"""In a render process, its finisher (empty in the replay and the keepers)."""


def _keep(
    listening: socket.socket,
    watched: int,
    scene: Any,
    beat_id: str,
    text: str,
    where: tuple[Path, int | None],
) -> str:
    """The keeper's loop: one request per connection, each rendered by a fork. Returns only in a render.

    Ends when asked, or when the watch has ended (end of file on ``watched``).
    """
    _voice_ready(scene)
    while True:
        ready, _, _ = select.select([listening.fileno(), watched], [], [])
        if watched in ready:
            os._exit(0)
        sock, _ = listening.accept()
        conn = Connection(sock.detach())
        request = Request(**conn.recv())
        if request.quit:
            os._exit(0)
        render = os.fork()
        if render == 0:
            listening.close()
            piper.RUNNING.inherit(os.getppid())  # the keeper's voice, loaded already
            return _start_render(scene, beat_id, text, where, request, conn)
        _, status = os.waitpid(render, 0)
        if status != 0:  # the render died before answering
            conn.send(asdict(Answer(beat_id, "failed", f"the render of {beat_id} died (status {status})")))
        conn.close()


def _voice_ready(scene: Any) -> None:
    """Start the draft voice now (piper loads its model in about 1.5 s), for this keeper's renders."""
    settings = scene.narrator.settings
    if settings.engine == "piper" and settings.audible and not settings.estimate:
        piper.RUNNING.use(PIPER, lambda _engine: None)


def _start_render(
    scene: Any, beat_id: str, text: str, where: tuple[Path, int | None], request: Request, conn: Connection
) -> str:
    """In the render: the beat's text (read again when asked), and manim told to draw from here."""
    said: str | None = text
    source, index = where
    if request.source and source.parent.name == "scenes" and source.name.startswith("s"):
        said = None if index is None else new_text(source, index, _caller(sys._getframe()))
        if said is None:
            _answer(
                conn, Answer(beat_id, "replay", f"{source.name} no longer has the beat call of {beat_id}")
            )
    if said == text and not request.force:
        _answer(conn, Answer(beat_id, "unchanged"))
    finisher = _Finisher(beat_id, conn, scene)
    _RENDER.append(finisher)
    config.from_animation_number = scene.renderer.num_plays  # draw from the beat's first animation
    observe_from_now(finisher)
    return str(said)


def _answer(conn: Connection, answer: Answer) -> None:
    """Answer and end this process (a fork: no exit handlers, the keeper's engines stay open)."""
    conn.send(asdict(answer))
    conn.close()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _one_line(error: BaseException) -> str:
    """The error in one line: a syntax error's file and line, else its type, message and last frame."""
    if isinstance(error, SyntaxError) and error.filename:
        path = Path(error.filename).resolve()
        name = path.relative_to(REPO) if path.is_relative_to(REPO) else path
        return f"{name}, line {error.lineno}: {error.msg}"
    last = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    where = f" ({Path(last[0].filename).name}, line {last[0].lineno})" if last else ""
    message = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {message}{where}"


def replay(
    manim_args: list[str], settings: dict[str, str], wanted: list[str], sockets: Path, watched: int
) -> int:
    """Replay the scene of ``manim_args`` to each ``wanted`` beat, leaving a keeper there.

    Writes :class:`Replayed` to ``sockets/replayed.json``; returns the exit status.
    In a render (a keeper's fork), answers the watch instead and never returns.
    """
    from manim.__main__ import main as manim_main

    keepers = _Keepers(wanted, sockets, watched)
    error: BaseException | None = None
    try:
        with SceneSettings.from_env(settings).applied(), observing(keepers):
            manim_main(manim_args, prog_name="manim", standalone_mode=False)
    except _AllKept:
        pass
    except BaseException as failure:  # noqa: BLE001  (reported in one line to the watch)
        error = failure
    if _RENDER:  # this is a render, the beat drawn (or failed)
        finisher = _RENDER[0]
        if error is not None:
            _answer(finisher.conn, Answer(finisher.beat_id, "failed", _one_line(error)))
        writer = finisher.scene.renderer.file_writer
        beats = finisher.scene.settings.beats_out
        video = str(writer.movie_file_path)
        _answer(
            finisher.conn,
            Answer(finisher.beat_id, "rendered", "", video, str(beats), finisher.first, finisher.last),
        )
    if error is None and wanted and len(keepers.keepers) < len(wanted):
        error = LookupError(f"the scene has no beat {', '.join(wanted)}")
    Replayed(keepers.keepers, _one_line(error) if error else "").write(sockets / "replayed.json")
    return 1 if error else 0
