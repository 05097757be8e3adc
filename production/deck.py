"""Slides for live lectures: render each scene as a manim-slides deck, then one offline HTML, PPTX and PDF."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from atomic_files import replacing
from lecture.clips import Clip
from lecture.settings import SceneSettings
from production.manim_run import check_latex, ensure_writable
from production.options import QUALITIES, REPO, RenderError

__all__ = ["build_slides", "CACHE_HOME"]

CACHE_HOME = (
    REPO / ".cache"
)  # reveal.js assets for --offline live here (from npm, see tools/reveal_assets.sh)
SLIDES_SOURCE = REPO / "production" / "slides.py"


def _manim_slides() -> list[str]:
    try:
        import manim_slides  # noqa: F401
    except ImportError:
        raise RenderError(
            "manim-slides is not installed: run `make slides`, or pip install -e '.[slides]'"
        ) from None
    return [sys.executable, "-m", "manim_slides"]


def _run(cmd: list[str], cwd: Path, what: str, env: dict[str, str]) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-15:])
        raise RenderError(f"{what} failed (exit {proc.returncode}):\n{tail}")


def build_slides(
    clips: Sequence[Clip], quality: str, out_dir: Path, *, settings: SceneSettings
) -> list[Path]:
    """Render ``<Scene>Slides`` for each clip and convert them into one deck: HTML, PPTX, PDF."""
    if quality not in QUALITIES:
        raise ValueError(f"quality must be one of {', '.join(QUALITIES)}, got {quality!r}")
    tool = _manim_slides()
    check_latex()
    ensure_writable(out_dir)
    work = out_dir / ".work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copy(REPO / "manim.cfg", work / "manim.cfg")
    # Decks are for live lectures: the lecturer speaks, so the slides are silent (same timing as narrated).
    env = {
        **os.environ,
        **settings.replace(voice="none").env(),
        "XDG_CACHE_HOME": str(CACHE_HOME),
        "PYTHONPATH": str(REPO),
    }
    decks = [f"{c.scene}Slides" for c in clips]
    for i, deck in enumerate(decks, 1):
        print(f"[{i}/{len(decks)}] rendering {deck}", file=sys.stderr, flush=True)
        _run(
            [
                *tool,
                "render",
                f"-q{quality}",
                "--disable_caching",
                "--progress_bar",
                "none",
                str(SLIDES_SOURCE),
                deck,
            ],
            work,
            f"manim-slides render {deck}",
            env,
        )
    _run(["bash", str(REPO / "tools" / "reveal_assets.sh"), str(CACHE_HOME)], work, "fetching reveal.js", env)
    outputs = []
    for fmt, name, extra in (
        ("html", "slides.html", ["--one-file", "--offline"]),
        ("pptx", "slides.pptx", []),
        ("pdf", "slides.pdf", []),
    ):
        with replacing(out_dir / name) as tmp:
            _run([*tool, "convert", "--to", fmt, *extra, *decks, str(tmp)], work, f"converting to {fmt}", env)
        outputs.append(out_dir / name)
        print(f"wrote {out_dir / name}", file=sys.stderr, flush=True)
    shutil.rmtree(work, ignore_errors=True)
    return outputs
