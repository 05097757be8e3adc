"""Run manim as a child process: its command line, its config, its output, and stopping it cleanly.

Each clip (or shard of a clip) renders into its own work folder
(``media/.work/<variant>/<scene>/<k>of<n>``) with manim's partial-movie cache
disabled; only a finished file is published (:mod:`atomic_files`), so a render
killed half-way never leaves a truncated file where a user or the build looks,
and the next run starts that clip's work folder afresh. The job graph that runs
these renders, locally or on a dask cluster, is :mod:`production.render.pipeline`.
"""

from __future__ import annotations

import configparser
import io
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from lecture.section import Section
from lecture.settings import Played, SceneSettings
from production.options import REPO, RenderError, RenderOptions
from production.progress import Event, Stage
from production.render.prepare import cache_settings

__all__ = [
    "check_latex",
    "ensure_writable",
    "manim_command",
    "config_with_caches",
    "find_output",
    "run_manim",
    "terminate_children",
    "stopping",
    "Progress",
]


def check_latex() -> None:
    """Raise :class:`RenderError` with the install line when LaTeX is missing."""
    missing = [tool for tool in ("latex", "dvisvgm") if shutil.which(tool) is None]
    if missing:
        raise RenderError(
            f"LaTeX is missing ({', '.join(missing)} not found): run `make setup` as root, or "
            "apt-get install --no-install-recommends texlive-latex-base texlive-latex-recommended "
            "texlive-latex-extra texlive-fonts-recommended dvisvgm"
        )


def ensure_writable(folder: Path) -> None:
    """Create ``folder`` and prove it writable, or raise :class:`RenderError` saying so."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # a probe of its own: two renders into one folder must not remove each other's
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-probe-"):
            pass
    except OSError as exc:
        raise RenderError(
            f"cannot write to {folder} ({exc.strerror}): choose another --media-dir or fix its permissions"
        ) from None


def manim_command(
    clip: Section,
    options: RenderOptions,
    work: Path,
    cache: Path | None = None,
    span: tuple[int, int] | None = None,
) -> list[str]:
    """The manim CLI rendering ``clip`` into ``work``; animations ``span`` only (a shard) when given.

    A shard is manim's own ``-n FROM,UPTO``: a lecture scene renders with
    :class:`manim_patches.ExactRenderer`, whose skipped animations keep the clock
    of a full render.
    """
    cmd = [
        sys.executable,
        "-m",
        "manim",
        "render",
        f"-q{options.quality}",
        "--disable_caching",
        "--media_dir",
        str(work),
        "--format",
        options.fmt,
        "--progress_bar",
        "none",
        "-v",
        "INFO",
    ]
    if options.transparent:
        cmd.append("--transparent")
    if span is not None:
        cmd += ["-n", f"{span[0]},{span[1]}"]
    if cache is not None:  # TeX and text typeset beforehand (render.prepare), copied per render (jobs)
        cfg = work / "caches.cfg"
        cfg.write_text(config_with_caches(cache))
        cmd += ["--config_file", str(cfg)]
    return [*cmd, str(clip.path), clip.scene]


def config_with_caches(cache: Path) -> str:
    """The repository's manim.cfg with the TeX and text caches in ``cache``, as a config file's text.

    ``--config_file`` replaces the manim.cfg that manim would read from the
    working folder (background, seed, encoders), so the file carries it whole.
    """
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(REPO / "manim.cfg")
    if not parser.has_section("CLI"):
        parser.add_section("CLI")
    for key, value in cache_settings(cache).items():
        parser.set("CLI", key, value)
    parser.set("CLI", "max_files_cached", "-1")  # every animation's segment stays: the build cuts its own
    text = io.StringIO()
    parser.write(text)
    return text.getvalue()


def find_output(work: Path, clip: Section, options: RenderOptions) -> Path:
    """The clip manim wrote in ``work`` (a gif is named ``<Scene>_ManimCE_v<version>.gif``)."""
    names = (f"{clip.scene}.{options.fmt}", f"{clip.scene}_ManimCE_v*.{options.fmt}")
    matches = sorted(p for name in names for p in work.glob(f"videos/{clip.module}/*/{name}"))
    if not matches:
        raise RenderError(f"{clip.scene}: render failed: manim wrote no .{options.fmt} under {work}")
    return matches[0]


Progress = Callable[[Section, Event], None]

_CHILDREN: set[subprocess.Popen[str]] = set()
_CHILDREN_LOCK = threading.Lock()
_STOPPING = threading.Event()


@contextmanager
def stopping() -> Iterator[None]:
    """While open, a render about to start stops at once (the build is stopping its workers)."""
    _STOPPING.set()
    try:
        yield
    finally:
        _STOPPING.clear()


def terminate_children() -> None:
    """Stop every manim process this build started (on Ctrl-C or SIGTERM)."""
    with _CHILDREN_LOCK:
        for proc in list(_CHILDREN):
            proc.terminate()


def run_manim(
    clip: Section,
    cmd: list[str],
    log_path: Path,
    progress: Progress | None,
    settings: SceneSettings | None,
    what: str = "",
) -> None:
    """Run ``cmd`` (a manim render or the prepare step) with a log; RenderError with its tail on failure.

    ``settings`` are what the scene is told (its lecture file, voice, where to write its beats).
    """
    with (
        log_path.open("w") as log,
        subprocess.Popen(
            cmd,
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, **(settings or SceneSettings()).env()},
        ) as proc,
    ):
        with _CHILDREN_LOCK:
            _CHILDREN.add(proc)
            if _STOPPING.is_set():
                proc.terminate()
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                log.write(line)
                played = Played.read(line)
                if played is not None and progress is not None:
                    progress(clip, Event(Stage.ANIMATION, f"animation {played.number + 1}"))
            code = proc.wait()
        except BaseException:  # Ctrl-C or SIGTERM here: stop manim now (leaving ``with`` would wait for it)
            proc.terminate()
            raise
        finally:
            with _CHILDREN_LOCK:
                _CHILDREN.discard(proc)
    if code != 0:
        tail = "".join(log_path.read_text().splitlines(keepends=True)[-15:])
        what = what or f"{clip.scene}: render"
        raise RenderError(f"{what} failed (manim exited with {code}); log: {log_path}\n{tail}")
