"""How a clip is rendered and where it is published: qualities, formats, options, results, errors."""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lecture.config import LectureConfig
from lecture.section import Section
from lecture.settings import SceneSettings

__all__ = [
    "REPO",
    "PACKAGES",
    "WATCHED",
    "QUALITIES",
    "BuildRequest",
    "Quality",
    "RENDER_COST",
    "FORMATS",
    "RenderError",
    "RenderOptions",
    "RenderResult",
    "check_shards_option",
    "published_paths",
    "beats_path",
]

REPO = Path(__file__).resolve().parents[1]

PACKAGES = (
    "atomic_files",
    "attnmath",
    "lecture",
    "drawing",
    "narration",
    "manim_patches",
    "scenes",
    "production",
)
"""The project's top-level packages, lowest layer first (pyproject.toml's import contract names the same).

The one list: a clip's inputs hash follows its imports among them
(:mod:`production.render.inputs`), the watch reloads them
(:mod:`production.watch.warm`) and watches what pictures and sound come from (:data:`WATCHED`).
"""
WATCHED = (*(name for name in PACKAGES if name not in ("atomic_files", "production")), "manim.cfg")
"""What a preview's pictures and sound come from, in the repository (with the lecture file and recordings)."""

RENDER_COST = {"l": 0.25, "m": 0.5, "h": 1.4, "p": 2.5, "k": 5.0}
"""Render seconds per video second by quality letter (2-core machine, the README's bench; p, k estimated)."""


@dataclass(frozen=True)
class Quality:
    """One of manim's render qualities, as manim's own table gives it, and its cost here.

    >>> q = QUALITIES["l"]
    >>> q.letter, q.name, q.folder, (q.width, q.height, q.frame_rate), q.render_cost
    ('l', 'low_quality', '480p15', (854, 480, 15), 0.25)
    """

    letter: str  # manim's -q flag
    name: str  # manim's config name, e.g. low_quality
    width: int
    height: int
    frame_rate: int
    render_cost: float  # render seconds per video second here (RENDER_COST)

    @property
    def folder(self) -> str:
        """Manim's folder name for the quality, e.g. ``480p15``."""
        return f"{self.height}p{self.frame_rate}"


def _manims_qualities(constants: Path | None = None) -> dict[str, Quality]:
    """``manim.constants.QUALITIES``, read from manim's source (``constants``), not imported.

    Importing manim takes about a second that ``list`` and ``script`` do not
    otherwise spend; the table is a literal in ``manim/constants.py``. A manim
    without that table stops the program with one line that says so.
    """
    if constants is None:
        spec = importlib.util.find_spec("manim")
        if spec is None or spec.origin is None:
            raise SystemExit("error: manim is not installed: run make setup")
        constants = Path(spec.origin).parent / "constants.py"
    table = _literal_table(constants, "QUALITIES")
    if not isinstance(table, dict) or not all(isinstance(q, dict) and "flag" in q for q in table.values()):
        raise SystemExit(
            f"error: no QUALITIES table of the shape manim 0.22 has in {constants}; this project needs "
            "manim 0.22 (run make setup)"
        )
    return {
        q["flag"]: Quality(
            q["flag"], name, q["pixel_width"], q["pixel_height"], q["frame_rate"], RENDER_COST[q["flag"]]
        )
        for name, q in table.items()
        if q["flag"] in RENDER_COST
    }


def _literal_table(source: Path, name: str) -> object:
    """The literal assigned to ``name`` at the top level of ``source`` (None where there is none)."""
    try:
        tree = ast.parse(source.read_text())
    except (OSError, SyntaxError):
        return None
    for node in tree.body:
        if not isinstance(node, ast.AnnAssign | ast.Assign):
            continue
        targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and node.value is not None:
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                return None
    return None


QUALITIES: dict[str, Quality] = _manims_qualities()
"""manim's qualities by ``-q`` letter (l, m, h, p, k)."""
FORMATS = ("mp4", "webm", "gif")


class RenderError(RuntimeError):
    """A clip failed to render; the message says which and where its log is."""


class UsageError(ValueError):
    """What was asked for cannot be done as asked: the message says what was wrong and what to do."""


@dataclass(frozen=True)
class RenderOptions:
    """How to render: manim quality letter, container format, alpha channel."""

    quality: str = "l"
    fmt: str = "mp4"
    transparent: bool = False

    def __post_init__(self) -> None:
        if self.quality not in QUALITIES:
            raise UsageError(f"quality must be one of {', '.join(QUALITIES)}, got {self.quality!r}")
        if self.fmt not in FORMATS:
            raise UsageError(f"format must be one of {', '.join(FORMATS)}, got {self.fmt!r}")
        if self.transparent and self.fmt != "webm":
            raise UsageError(
                f"--transparent needs --format webm (got --format {self.fmt}: it has no alpha channel)"
            )

    @property
    def level(self) -> Quality:
        """The quality, as manim's table gives it."""
        return QUALITIES[self.quality]

    @property
    def resolution(self) -> str:
        """Manim's folder name for the quality, e.g. ``480p15``."""
        return self.level.folder

    @property
    def variant(self) -> str:
        """A folder name unique to this combination of options."""
        return f"{self.resolution}-{self.fmt}" + ("-alpha" if self.transparent else "")


@dataclass(frozen=True)
class BuildRequest:
    """What a build is asked for: which clips, how, where to publish them, and on what.

    ``extra(clip)`` is folded into each clip's inputs hash (the lecturer's
    overrides); ``settings`` are what the scenes' manim processes are told;
    ``numbered`` names the clips ``NN-Scene`` by their position in ``clips``;
    ``shards`` splits each clip into that many shards (None: chosen from the
    clips' lengths and the workers); ``jobs`` local workers, or ``scheduler``,
    a dask scheduler's address; ``config`` lets jobs on other machines bring
    the lecture file and recordings along.
    """

    clips: Sequence[Section]
    options: RenderOptions
    out_dir: Path
    jobs: int | None = None
    extra: Callable[[Section], str] | None = None
    settings: SceneSettings | None = None
    force: bool = False
    numbered: bool = False
    shards: int | None = None
    scheduler: str | None = None
    config: LectureConfig | None = None


@dataclass(frozen=True)
class RenderResult:
    """A published clip."""

    clip: Section
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
        raise UsageError(f"--shards must be >= 1, got {shards}")
    if shards > 1 and options.fmt == "gif":
        raise UsageError(
            f"--shards {shards} needs --format mp4 or webm: a gif's palette is made from the whole "
            "clip, so it cannot be joined from parts; use --shards 1"
        )


def published_paths(
    clip: Section, options: RenderOptions, out_dir: Path, index: int | None = None
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
