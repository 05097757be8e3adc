"""A speech program kept running: one process per Python process, fed a line at a time.

Starting a speech engine costs more than speaking one lecture sentence (festival
loads its voice in about 0.4 s; piper loads its model), so each engine is
started once per Python process and given one text after another on its
stdin. Both engines report on stderr, which is not buffered: the caller reads
it until the engine says it is done (:meth:`KeptProcess.read_until`). A
process that stops or fails is closed, and the next text starts a new one
(:class:`Kept`). A forked child starts its own. The process ends when its
stdin closes: when the Python process exits or is killed, the engine reads
end-of-file and stops.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Generic, TypeVar

__all__ = ["KeptProcess", "Kept", "TIMEOUT"]

TIMEOUT = 120.0
"""Seconds one text may take before the engine is taken to be stuck (and killed)."""


class KeptProcess:
    """One running engine, ``name``: ``command`` with text on stdin and its messages on stderr.

    ``error`` is the exception type its failures raise; ``folder`` (if any) is
    the engine's own scratch folder, removed when it is closed.
    """

    def __init__(
        self, name: str, command: list[str], error: type[Exception], folder: Path | None = None
    ) -> None:
        self.name = name
        self.error = error
        self.folder = folder
        self.lock = threading.Lock()
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
            )
        except OSError as failure:
            self._remove_folder()
            raise error(f"{name} could not start ({failure})") from None

    def alive(self) -> bool:
        """Whether the process is still running."""
        return self.process.poll() is None

    def send(self, text: str) -> None:
        """Write ``text`` to the engine's input; the error type if it has stopped."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(text)
            self.process.stdin.flush()
        except OSError as failure:
            raise self.error(f"{self.name} stopped ({failure})") from None

    def read_until(self, done: Callable[[str], bool]) -> tuple[str, list[str]]:
        """Read stderr until a line for which ``done`` is true: (that line, the lines before it).

        Raises the error type, with the engine's last message, when it ends or
        takes longer than :data:`TIMEOUT`.
        """
        assert self.process.stderr is not None
        seen: list[str] = []
        stuck = threading.Event()

        def kill() -> None:
            stuck.set()
            self.process.kill()

        timer = threading.Timer(TIMEOUT, kill)
        timer.start()
        try:
            for line in self.process.stderr:
                if done(line):
                    return line, seen
                seen.append(line)
        finally:
            timer.cancel()
        if stuck.is_set():
            raise self.error(f"{self.name} gave no answer within {TIMEOUT:.0f} s and was stopped")
        last = " | ".join(s.strip() for s in seen[-3:] if s.strip()) or "no message"
        raise self.error(f"{self.name} stopped ({last})")

    def close(self) -> None:
        """End the process (end of its input), wait for it, close its pipes and remove its folder."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except OSError:  # the engine is gone: what was buffered cannot be written
                pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        self._remove_folder()

    def _remove_folder(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


P = TypeVar("P", bound=KeptProcess)
R = TypeVar("R")


class Kept(Generic[P]):
    """The engines of this Python process, one per setting, each started on first use.

    ``start(setting)`` starts one; :meth:`use` runs a job on the running one,
    replacing it when it has stopped, and closes and forgets it when the job
    fails with its error type.
    """

    def __init__(self, start: Callable[[Hashable], P]) -> None:
        self._start = start
        self._running: dict[tuple[int, Hashable], P] = {}
        self._guard = threading.Lock()
        atexit.register(self.close_all)

    def running(self, setting: Hashable) -> P | None:
        """The engine of this Python process for ``setting``, if one is running."""
        return self._running.get((os.getpid(), setting))

    def engines(self) -> list[P]:
        """The engines running for this Python process."""
        return [engine for (pid, _setting), engine in self._running.items() if pid == os.getpid()]

    def use(self, setting: Hashable, job: Callable[[P], R]) -> R:
        """``job(engine)`` with this process's engine for ``setting``, started (again) when needed."""
        key = (os.getpid(), setting)
        with self._guard:
            engine = self._running.get(key)
            if engine is not None and not engine.alive():
                engine.close()  # it stopped: its pipes and folder go with it
                engine = None
            if engine is None:
                engine = self._running[key] = self._start(setting)
        try:
            return job(engine)
        except engine.error:
            with self._guard:
                if self._running.get(key) is engine:
                    del self._running[key]
            engine.close()
            raise

    def inherit(self, parent: int) -> None:
        """Take over the engines of process ``parent``, from a fork of it.

        Only for a parent that waits while its child runs (the warm preview's
        keeper and its render): two processes writing to one engine would mix
        their texts. The child ends without exit handlers (``os._exit``), so the
        engines stay open for the parent's next child.
        """
        for (pid, setting), engine in list(self._running.items()):
            if pid == parent:
                self._running[(os.getpid(), setting)] = engine

    def close_all(self) -> None:
        """Close this process's engines (at exit; a forked child's parent keeps its own)."""
        for (pid, _setting), engine in list(self._running.items()):
            if pid == os.getpid():
                engine.close()
        self._running.clear()
