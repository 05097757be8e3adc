"""How a clip is rendered and where it is published: qualities, formats, options, results, errors."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lecture.clips import Clip

__all__ = [
    "REPO",
    "QUALITIES",
    "FORMATS",
    "RenderError",
    "RenderOptions",
    "RenderResult",
    "check_shards_option",
    "published_paths",
    "beats_path",
]

REPO = Path(__file__).resolve().parents[1]

# quality flag -> manim's output folder name
QUALITIES = {"l": "480p15", "m": "720p30", "h": "1080p60", "p": "1440p60", "k": "2160p60"}
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
        raise UsageError(f"--shards must be >= 1, got {shards}")
    if shards > 1 and options.fmt == "gif":
        raise UsageError(
            f"--shards {shards} needs --format mp4 or webm: a gif's palette is made from the whole "
            "clip, so it cannot be joined from parts; use --shards 1"
        )


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
