"""Render lecture clips with the manim CLI in worker processes, and publish them atomically.

Each clip (or shard of a clip) renders into its own work folder
(``media/.work/<variant>/<scene>/<k>of<n>``) with manim's partial-movie cache
disabled; only a finished file is moved, with ``os.replace``, to its published
path. The job graph that runs these renders, locally or on a dask cluster, is
:mod:`production.pipeline`. A render killed half-way therefore never
leaves a truncated file where a user or the build looks, and the next run
starts that clip's work folder afresh.

Whether a published clip is up to date is decided from a hash of its inputs
(the scene's source, the shared scene modules, ``attnmath``, ``manim.cfg``, the
render options and the manim version), recorded beside the output.
"""

from __future__ import annotations

import ast
import configparser
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lecture.clips import Clip
from production.prepare import cache_settings

__all__ = [
    "QUALITIES",
    "FORMATS",
    "RenderOptions",
    "RenderResult",
    "RenderError",
    "clip_inputs_hash",
    "check_latex",
    "check_shards_option",
]

REPO = Path(__file__).resolve().parents[1]
# Modules every clip depends on: the drawing kit, and the build steps that shape a clip's sound and captions.
SHARED_MODULES = ("kit.theme", "kit.widgets", "kit.base", "lecture", "build.soundtrack", "build.captions")

# quality flag -> manim's output folder name
QUALITIES = {"l": "480p15", "m": "720p30", "h": "1080p60", "p": "1440p60", "k": "2160p60"}
FORMATS = ("mp4", "webm", "gif")


class RenderError(RuntimeError):
    """A clip failed to render; the message says which and where its log is."""


@dataclass(frozen=True)
class RenderOptions:
    """How to render: manim quality letter, container format, alpha channel."""

    quality: str = "l"
    fmt: str = "mp4"
    transparent: bool = False

    def __post_init__(self) -> None:
        if self.quality not in QUALITIES:
            raise ValueError(f"quality must be one of {', '.join(QUALITIES)}, got {self.quality!r}")
        if self.fmt not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {self.fmt!r}")
        if self.transparent and self.fmt != "webm":
            raise ValueError(
                f"--transparent needs --format webm (got --format {self.fmt}: it has no alpha channel)"
            )

    @property
    def resolution(self) -> str:
        """Manim's folder name for the quality, e.g. ``480p15``."""
        return QUALITIES[self.quality]

    @property
    def variant(self) -> str:
        """A folder name unique to this combination of options."""
        return f"{self.resolution}-{self.fmt}" + ("-alpha" if self.transparent else "")


@dataclass(frozen=True)
class RenderResult:
    """A published clip."""

    clip: Clip
    video: Path
    captions: Path | None
    rendered: bool  # False when it was already up to date
    seconds: float  # work: every shard's render and the join, added up (0 when up to date)
    beats: Path | None = None  # the narration's beats (``NN-Scene.beats.json``), when the scene has them
    shard_seconds: tuple[float, ...] = ()  # how long each shard's render took (empty when up to date)
    join_seconds: float = 0.0  # joining the shards and laying the voice on


def check_shards_option(shards: int | None, options: RenderOptions) -> None:
    """Refuse a shard count that cannot work, before anything renders."""
    if shards is None:
        return
    if shards < 1:
        raise ValueError(f"--shards must be >= 1, got {shards}")
    if shards > 1 and options.fmt == "gif":
        raise ValueError(
            f"--shards {shards} needs --format mp4 or webm: a gif's palette is made from the whole "
            "clip, so it cannot be joined from parts; use --shards 1"
        )


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
        probe = folder / ".write-probe"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise RenderError(
            f"cannot write to {folder} ({exc.strerror}): choose another --media-dir or fix its permissions"
        ) from None


def _module_path(name: str) -> Path | None:
    """The file of module ``scenes.<name>`` (``kit.voice`` -> ``narration/voice.py``), if it exists."""
    base = REPO / "scenes" / Path(*name.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.exists()), None)


def _scene_dependencies(clip: Clip) -> list[Path]:
    """The clip's own module and the scene modules it imports, recursively."""
    seen: dict[str, Path] = {}
    todo = [clip.module, *SHARED_MODULES]
    while todo:
        name = todo.pop()
        path = _module_path(name)
        if name in seen or path is None:
            continue
        seen[name] = path
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("scenes."):
                sub = node.module.split(".", 1)[1]
                todo += [sub, *(f"{sub}.{alias.name}" for alias in node.names)]
    return sorted(set(seen.values()))


RECIPE = 2
"""How the build turns the same inputs into pixels; raised when that changes, so older clips re-render
(2: the renders read manim.cfg; before, the cache settings replaced it and clips were drawn on black)."""


def clip_inputs_hash(clip: Clip, options: RenderOptions, extra: str = "") -> str:
    """SHA-256 over everything that can change the clip's pixels or captions."""
    import manim

    digest = hashlib.sha256()
    files = [
        *_scene_dependencies(clip),
        *sorted((REPO / "attnmath").glob("*.py")),
        REPO / "manim.cfg",
    ]
    for path in files:
        digest.update(str(path.relative_to(REPO)).encode())
        digest.update(path.read_bytes())
    digest.update(f"{options.variant}|manim {manim.__version__}|recipe {RECIPE}|{extra}".encode())
    return digest.hexdigest()


def published_paths(
    clip: Clip, options: RenderOptions, out_dir: Path, index: int | None = None
) -> tuple[Path, Path, Path]:
    """(video, captions, inputs-hash) paths of a clip under ``out_dir``, named ``NN-Scene`` in a lecture."""
    stem = out_dir / (clip.scene if index is None else f"{index:02d}-{clip.scene}")
    return (
        stem.with_suffix(f".{options.fmt}"),
        stem.with_suffix(".srt"),
        stem.with_suffix(".inputs"),
    )


def beats_path(video: Path) -> Path:
    """Where a clip's narration beats are published, beside the clip."""
    return video.with_suffix(".beats.json")


def is_up_to_date(
    clip: Clip, options: RenderOptions, out_dir: Path, extra: str = "", index: int | None = None
) -> bool:
    """True when the published clip exists and was made from the current inputs."""
    video, _, stamp = published_paths(clip, options, out_dir, index)
    return (
        video.exists()
        and stamp.exists()
        and stamp.read_text().strip() == clip_inputs_hash(clip, options, extra)
    )


def _manim_command(
    clip: Clip,
    options: RenderOptions,
    work: Path,
    cache: Path | None = None,
    span: tuple[int, int] | None = None,
) -> list[str]:
    """The manim CLI rendering ``clip`` into ``work``; animations ``span`` only (a shard) when given.

    A shard runs manim through :mod:`production.manim_entry`, whose skipped
    animations keep the clock of a full render.
    """
    runner = ["manim"] if span is None else ["production.manim_entry"]
    cmd = [
        sys.executable,
        "-m",
        *runner,
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
    if cache is not None:  # TeX and text typeset beforehand (production.prepare), copied per render (jobs)
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
    text = io.StringIO()
    parser.write(text)
    return text.getvalue()


def _find_output(work: Path, clip: Clip, options: RenderOptions) -> Path:
    """The clip manim wrote in ``work`` (a gif is named ``<Scene>_ManimCE_v<version>.gif``)."""
    names = (f"{clip.scene}.{options.fmt}", f"{clip.scene}_ManimCE_v*.{options.fmt}")
    matches = sorted(p for name in names for p in work.glob(f"videos/{clip.module}/*/{name}"))
    if not matches:
        raise RenderError(f"{clip.scene}: render failed: manim wrote no .{options.fmt} under {work}")
    return matches[0]


Progress = Callable[[Clip, str], None]


def render_clip(
    clip: Clip,
    options: RenderOptions,
    out_dir: Path,
    *,
    extra: str = "",
    force: bool = False,
    env: dict[str, str] | None = None,
) -> RenderResult:
    """Render one clip, unsharded (unless up to date), and publish it under ``out_dir``."""
    from production.pipeline import render_clips  # the job graph builds on this module

    return render_clips(
        [clip], options, out_dir, jobs=1, extra=lambda _c: extra, env=env, force=force, shards=1
    )[0]


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` under a temporary name beside ``path``, then rename it into place."""
    tmp = path.with_name(f".{path.name}.partial")
    tmp.write_text(text)
    os.replace(tmp, path)


ANIMATION_LINE = re.compile(r"Animation (\d+)")
_CHILDREN: set[subprocess.Popen[str]] = set()
_CHILDREN_LOCK = threading.Lock()
_STOPPING = threading.Event()


def terminate_children() -> None:
    """Stop every manim process this build started (on Ctrl-C or SIGTERM)."""
    with _CHILDREN_LOCK:
        for proc in list(_CHILDREN):
            proc.terminate()


def _run_manim(
    clip: Clip,
    cmd: list[str],
    log_path: Path,
    progress: Progress | None,
    env: dict[str, str] | None,
    what: str = "",
) -> None:
    """Run ``cmd`` (a manim render or the prepare step) with a log; RenderError with its tail on failure."""
    with (
        log_path.open("w") as log,
        subprocess.Popen(
            cmd,
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, **(env or {}), "COLUMNS": "200"},
        ) as proc,
    ):
        with _CHILDREN_LOCK:
            _CHILDREN.add(proc)
            if _STOPPING.is_set():
                proc.terminate()
        assert proc.stdout is not None
        for line in proc.stdout:
            log.write(line)
            match = ANIMATION_LINE.search(line)
            if match and progress is not None:
                progress(clip, f"animation {int(match.group(1)) + 1}")
        code = proc.wait()
        with _CHILDREN_LOCK:
            _CHILDREN.discard(proc)
    if code != 0:
        tail = "".join(log_path.read_text().splitlines(keepends=True)[-15:])
        what = what or f"{clip.scene}: render"
        raise RenderError(f"{what} failed (manim exited with {code}); log: {log_path}\n{tail}")
