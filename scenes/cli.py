"""Command line for the lecture: ``python -m scenes list | render | build``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scenes.lecture import LECTURE, Clip, find_clip
from scenes.render import FORMATS, QUALITIES, REPO, RenderError, RenderOptions, render_clips

__all__ = ["main"]

DEFAULT_MEDIA = REPO / "media"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Parse the command line."""
    parser = argparse.ArgumentParser(prog="python -m scenes", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the scenes in lecture order")
    for name, text in (("render", "render chosen scenes"), ("build", "render the whole lecture")):
        cmd = sub.add_parser(name, help=text)
        if name == "render":
            cmd.add_argument("scenes", nargs="*", metavar="SCENE", help="scene names (default: all)")
            cmd.add_argument("--format", default="mp4", help=f"one of {', '.join(FORMATS)}")
            cmd.add_argument("--transparent", action="store_true", help="alpha channel (webm)")
        cmd.add_argument("--quality", default="h", help=f"one of {', '.join(QUALITIES)} (default h)")
        cmd.add_argument("--jobs", type=int, default=None, help="parallel renders (default: one per core)")
        cmd.add_argument("--media-dir", type=Path, default=DEFAULT_MEDIA, help="output root (default media/)")
        cmd.add_argument("--force", action="store_true", help="re-render even when up to date")
    return parser.parse_args(argv)


def cmd_list() -> None:
    """Print the scenes in lecture order."""
    for i, clip in enumerate(LECTURE):
        print(f"{i:02d}  section {clip.section:>2}  {clip.scene:<26} {clip.title}")


def chosen(names: list[str]) -> list[Clip]:
    """The clips named, or every clip."""
    return [find_clip(n) for n in names] if names else list(LECTURE)


def cmd_render(args: argparse.Namespace, *, build: bool) -> None:
    """Render chosen clips (``render``) or the whole lecture (``build``)."""
    fmt = "mp4" if build else args.format
    options = RenderOptions(args.quality, fmt, False if build else args.transparent)
    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs must be >= 1, got {args.jobs}")
    clips = list(LECTURE) if build else chosen(args.scenes)
    if build:
        out_dir = args.media_dir / "lecture" / options.resolution
    else:
        out_dir = args.media_dir / "clips" / options.variant
    results = render_clips(clips, options, out_dir, jobs=args.jobs, force=args.force)
    print(f"\n{len(results)} clip(s) in {out_dir}")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for a usage or render error)."""
    args = parse_args(argv)
    try:
        if args.command == "list":
            cmd_list()
        else:
            cmd_render(args, build=args.command == "build")
    except (RenderError, ValueError, KeyError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) else str(exc)
        print(f"error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: published clips are untouched; run again to resume", file=sys.stderr)
        return 130
    return 0
