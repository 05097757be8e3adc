"""Render lecture clips with the manim CLI in worker processes, and publish them atomically.

Each clip renders into its own work folder (``media/.work/<variant>/<scene>``)
with manim's partial-movie cache disabled; only a finished file is moved, with
``os.replace``, to its published path. A render killed half-way therefore never
leaves a truncated file where a user or the build looks, and the next run
starts that clip's work folder afresh.

Whether a published clip is up to date is decided from a hash of its inputs
(the scene's source, the shared scene modules, ``attnmath``, ``manim.cfg``, the
render options and the manim version), recorded beside the output.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from scenes.build.captions import to_srt
from scenes.build.media import probe
from scenes.build.prepare import cache_settings
from scenes.build.soundtrack import add_voice, beat_cues, read_beats
from scenes.lecture import Clip

__all__ = [
    "QUALITIES",
    "FORMATS",
    "RenderOptions",
    "RenderResult",
    "RenderError",
    "clip_inputs_hash",
    "render_clips",
    "check_latex",
]

REPO = Path(__file__).resolve().parents[2]
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
    seconds: float
    beats: Path | None = None  # the narration's beats (``NN-Scene.beats.json``), when the scene has them


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
    """The file of module ``scenes.<name>`` (``kit.voice`` -> ``scenes/kit/voice.py``), if it exists."""
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
    digest.update(f"{options.variant}|manim {manim.__version__}|{extra}".encode())
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


def _manim_command(clip: Clip, options: RenderOptions, work: Path, cache: Path | None = None) -> list[str]:
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
    if cache is not None:  # TeX and text typeset once, shared by every render (see scenes.build.prepare)
        cfg = work / "caches.cfg"
        cfg.write_text("[CLI]\n" + "".join(f"{k} = {v}\n" for k, v in cache_settings(cache).items()))
        cmd += ["--config_file", str(cfg)]
    return [*cmd, str(clip.path), clip.scene]


def _find_output(work: Path, clip: Clip, options: RenderOptions) -> Path:
    matches = sorted(work.glob(f"videos/{clip.module}/*/{clip.scene}.{options.fmt}"))
    if not matches:
        raise RenderError(f"{clip.scene}: render failed: manim wrote no .{options.fmt} under {work}")
    return matches[0]


def _publish(src: Path, dst: Path) -> None:
    """Copy ``src`` next to ``dst`` under a temporary name, then rename it into place."""
    tmp = dst.with_name(f".{dst.name}.partial")
    shutil.copyfile(src, tmp)
    os.replace(tmp, dst)


Progress = Callable[[Clip, str], None]


def render_clip(
    clip: Clip,
    options: RenderOptions,
    out_dir: Path,
    *,
    extra: str = "",
    force: bool = False,
    progress: Progress | None = None,
    env: dict[str, str] | None = None,
    index: int | None = None,
) -> RenderResult:
    """Render one clip (unless up to date) and publish it under ``out_dir``."""
    video, captions, stamp = published_paths(clip, options, out_dir, index)
    start = time.monotonic()
    if not force and is_up_to_date(clip, options, out_dir, extra, index):
        beats = beats_path(video)
        shown = captions if captions.exists() else None
        return RenderResult(clip, video, shown, False, 0.0, beats if beats.exists() else None)
    work = out_dir.parent / ".work" / options.variant / clip.scene
    shutil.rmtree(work, ignore_errors=True)  # whatever a killed run left
    work.mkdir(parents=True)
    log_path = work / "manim.log"
    beats_out = work / "beats.json"
    cmd = _manim_command(clip, options, work, cache=out_dir.parent.parent)
    _run_manim(clip, cmd, log_path, progress, {**(env or {}), "LECTURE_BEATS_OUT": str(beats_out)})
    src = _find_output(work, clip, options)
    srt = src.with_suffix(".srt")
    record = read_beats(beats_out) if beats_out.exists() else None
    if record is not None:
        src = _narrate(clip, options, src, record, work, progress)
    stamp.unlink(missing_ok=True)  # the old stamp must not vouch for a half-published clip
    _publish(src, video)
    if record is not None:
        write_text_atomic(captions, to_srt(beat_cues(record)))
        write_text_atomic(beats_path(video), json.dumps(record, indent=1) + "\n")
    elif srt.exists():
        _publish(srt, captions)
    write_text_atomic(stamp, clip_inputs_hash(clip, options, extra) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    return RenderResult(
        clip,
        video,
        captions if captions.exists() else None,
        True,
        time.monotonic() - start,
        beats_path(video) if record is not None else None,
    )


def _narrate(
    clip: Clip, options: RenderOptions, src: Path, record: dict, work: Path, progress: Progress | None
) -> Path:
    """Report the scene's warnings about recordings; lay its voice into the clip (mp4 only)."""
    for beat in record["beats"]:
        if beat.get("warning") and progress is not None:
            progress(clip, f"warning: {beat['warning']}")
    if options.fmt != "mp4":
        return src  # AAC belongs in mp4; webm and gif clips stay silent
    if progress is not None and any(b["audio"] for b in record["beats"]):
        progress(clip, "laying the voice track")
    voiced = work / f"voiced-{src.name}"
    return voiced if add_voice(src, record, voiced, probe(src).duration) else src


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


def render_clips(
    clips: Sequence[Clip],
    options: RenderOptions,
    out_dir: Path,
    *,
    jobs: int | None = None,
    extra: Callable[[Clip], str] | None = None,
    env: dict[str, str] | None = None,
    force: bool = False,
    stream: TextIO | None = None,
    numbered: bool = False,
) -> list[RenderResult]:
    """Render ``clips`` in ``jobs`` parallel manim processes, reporting progress on ``stream``.

    ``extra(clip)`` is folded into each clip's inputs hash (the lecturer's
    overrides); ``env`` is added to the manim processes' environment.
    ``numbered`` names the clips ``NN-Scene`` by their position in ``clips``.
    """
    check_latex()
    ensure_writable(out_dir)
    board = _ProgressBoard(clips, stream or sys.stderr)
    jobs = max(1, jobs or os.cpu_count() or 1)
    stale = [
        c
        for i, c in enumerate(clips)
        if force or not is_up_to_date(c, options, out_dir, extra(c) if extra else "", i if numbered else None)
    ]
    if stale:
        _prepare(stale, out_dir.parent.parent, out_dir.parent / ".work", env, board)

    def one(indexed: tuple[int, Clip]) -> RenderResult:
        index, clip = indexed
        board.update(clip, "rendering")
        try:
            result = render_clip(
                clip,
                options,
                out_dir,
                extra=extra(clip) if extra else "",
                force=force,
                progress=board.update,
                env=env,
                index=index if numbered else None,
            )
        except Exception:
            board.update(clip, "FAILED")
            raise
        board.done(clip, result)
        return result

    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        results = list(pool.map(one, enumerate(clips)))
    except BaseException:  # Ctrl-C, SIGTERM or a failed clip: stop the other renders too
        _STOPPING.set()
        pool.shutdown(wait=False, cancel_futures=True)
        terminate_children()
        pool.shutdown(wait=True)
        _STOPPING.clear()
        raise
    pool.shutdown()
    board.finish()
    return results


def _prepare(
    clips: Sequence[Clip], cache: Path, work: Path, env: dict[str, str] | None, board: _ProgressBoard
) -> None:
    """Typeset and voice ``clips`` in one process before the parallel renders (scenes.build.prepare)."""
    board.note(f"preparing {len(clips)} scene(s): typesetting TeX, speaking the narration")
    work.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "scenes.build.prepare", str(cache), *(c.scene for c in clips)]
    for clip in clips:
        board.update(clip, "preparing")
    _run_manim(clips[0], cmd, work / "prepare.log", None, env, what="preparing the scenes")


class _ProgressBoard:
    """Per-clip and overall progress lines; a line per change, rate-limited per clip."""

    def __init__(self, clips: Sequence[Clip], stream) -> None:
        self.total = len(clips)
        self.finished = 0
        self.stream = stream
        self.lock = threading.Lock()
        self.last: dict[str, float] = {}
        self.start = time.monotonic()

    def _print(self, text: str) -> None:
        elapsed = time.monotonic() - self.start
        print(
            f"[{self.finished}/{self.total} done, {elapsed:5.1f}s] {text}",
            file=self.stream,
            flush=True,
        )

    def note(self, text: str) -> None:
        with self.lock:
            self._print(text)

    def update(self, clip: Clip, status: str) -> None:
        with self.lock:
            now = time.monotonic()
            if status.startswith("animation") and now - self.last.get(clip.scene, 0.0) < 2.0:
                return
            self.last[clip.scene] = now
            self._print(f"{clip.scene}: {status}")

    def done(self, clip: Clip, result: RenderResult) -> None:
        with self.lock:
            self.finished += 1
            what = f"rendered in {result.seconds:.1f}s" if result.rendered else "up to date"
            self._print(f"{clip.scene}: {what} -> {result.video}")

    def finish(self) -> None:
        with self.lock:
            self._print("all clips ready")
