"""Command line: ``attention-lecture list | script | render | build | slides | preview | package``.

``python -m scenes`` is the same program. Bad input (an option, a scene, a
lecture file, a render that fails) gets one line and exit status 2. Anything
else is a bug in the program: it prints a short traceback, says so, and exits
with status 70 (``EX_SOFTWARE``).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from atomic_files import write_text
from lecture.clips import UnknownScene, find_clip
from lecture.config import ConfigError, LectureConfig, load_config
from lecture.section import Section
from narration.beats import Beat, Description
from production.options import (
    FORMATS,
    QUALITIES,
    REPO,
    BuildRequest,
    RenderError,
    RenderOptions,
    RenderResult,
    UsageError,
    check_shards_option,
)
from production.render.lock import media_lock
from production.render.manim_run import terminate_children

__all__ = ["main"]

Describer = Callable[[Beat], Description] | bool
"""What ``publish_lecture(..., described=)`` takes: False, or what voices a description made elsewhere."""
BUG = 70
"""Exit status of an internal error (``EX_SOFTWARE`` in sysexits.h)."""
DEFAULT_MEDIA = REPO / "media"
DEFAULT_CONFIG = REPO / "lecture.toml"
PACKAGE_QUALITY = "m"
"""The course package's default quality: 720p30, small enough for a platform's upload limit."""
Subcommands = argparse._SubParsersAction  # what ``add_subparsers`` returns: the commands are added to it


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Parse the command line."""
    parser = argparse.ArgumentParser(prog="attention-lecture", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="lecture TOML file (default: lecture.toml in the repository, if present)",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the scenes in lecture order")
    _add_script(sub)
    _add_preview(sub)
    _add_renders(sub)
    _add_package(sub)
    return parser.parse_args(argv)


def _add_script(sub: Subcommands) -> None:
    """The ``script`` command and its options."""
    script = sub.add_parser("script", help="the narration script, beat by beat, for a lecturer to record")
    script.add_argument("--out", type=Path, default=None, help="write to this file (default: print it)")
    script.add_argument(
        "--media-dir", type=Path, default=DEFAULT_MEDIA, help="where scenes' plans are kept (default media/)"
    )


def _add_preview(sub: Subcommands) -> None:
    """The ``preview`` command and its options."""
    preview = sub.add_parser("preview", help="render the named beats of a scene, with voice and captions")
    preview.add_argument("scene", metavar="SCENE", help="the scene's name (see `list`)")
    preview.add_argument(
        "--beat",
        action="append",
        default=[],
        metavar="ID",
        help="a beat's id, as the script names it (e.g. 03-softmax) or its slug; repeat for more "
        "(default: every beat)",
    )
    preview.add_argument("--quality", default="l", help=f"one of {', '.join(QUALITIES)}; default l")
    preview.add_argument("--voice", default=None, help="draft, festival or none (default: the lecture's)")
    preview.add_argument("--media-dir", type=Path, default=DEFAULT_MEDIA, help="output root (default media/)")
    preview.add_argument(
        "--watch", action="store_true", help="keep running: after each save, render the beats that changed"
    )


def _add_renders(sub: Subcommands) -> None:
    """The ``render``, ``build`` and ``slides`` commands, which share most of their options."""
    for name, text in (
        ("render", "render chosen scenes"),
        ("build", "render and publish the whole lecture"),
        ("slides", "step-through decks: one offline HTML, PPTX and PDF (needs the slides extra)"),
    ):
        cmd = sub.add_parser(name, help=text)
        if name == "render":
            cmd.add_argument("scenes", nargs="*", metavar="SCENE", help="scene names (default: all)")
            cmd.add_argument("--format", default="mp4", help=f"one of {', '.join(FORMATS)}")
            cmd.add_argument("--transparent", action="store_true", help="alpha channel (webm)")
        cmd.add_argument("--quality", default="h", help=f"one of {', '.join(QUALITIES)} (default h)")
        cmd.add_argument(
            "--voice",
            default=None,
            help="draft (the offline neural voice, piper; recordings replace it beat by beat), "
            "festival (festival's HTS voice), or none (silent, same timing); "
            "default: the lecture file's voice, else draft",
        )
        cmd.add_argument("--jobs", type=int, default=None, help="parallel renders (default: one per core)")
        if name != "slides":
            cmd.add_argument(
                "--shards",
                type=int,
                default=None,
                help="split each clip into N ranges of its animations, rendered in parallel and joined "
                "(default: from the clips' lengths and the workers; see README)",
            )
            cmd.add_argument(
                "--scheduler",
                default=os.environ.get("DASK_SCHEDULER_ADDRESS") or None,
                help="run the jobs on a dask.distributed cluster at tcp://HOST:PORT "
                "(default: $DASK_SCHEDULER_ADDRESS, else local processes)",
            )
        cmd.add_argument("--media-dir", type=Path, default=DEFAULT_MEDIA, help="output root (default media/)")
        cmd.add_argument("--force", action="store_true", help="re-render even when up to date")
        if name == "build":
            cmd.add_argument(
                "--described",
                action="store_true",
                help="also write the audio-described lecture (lecture-described.mp4 and a described version "
                "of each clip): each beat's description spoken while its picture holds; renders no frames "
                "after a plain build",
            )


def _add_package(sub: Subcommands) -> None:
    """The ``package`` command and its options."""
    package = sub.add_parser(
        "package",
        help="the course package: SCORM 1.2 zip, QTI 2.1 and Moodle XML banks, Anki deck, conformance report",
    )
    package.add_argument(
        "--quality",
        default=PACKAGE_QUALITY,
        help=f"one of {', '.join(QUALITIES)} (default m, 720p: platforms limit uploads)",
    )
    package.add_argument("--media-dir", type=Path, default=DEFAULT_MEDIA, help="output root (default media/)")


def config_path(args: argparse.Namespace) -> Path | None:
    """The lecture file in use, if any."""
    if args.config is not None:
        return args.config.resolve()
    return DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None


def cmd_list(config: LectureConfig) -> None:
    """Print the scenes in lecture order with an estimate of their length."""
    for i, clip in enumerate(config.clips):
        print(f"{i:02d}  section {clip.number:>2}  {clip.scene:<26} ~{clip.seconds:3.0f} s  {clip.title}")
    print(f"total ~{sum(c.seconds for c in config.clips) / 60:.1f} min")


def render_clips(*args: Any, **kwargs: Any) -> list[RenderResult]:
    """:func:`production.render.pipeline.render_clips`, imported when a command renders (not list, script)."""
    from production.render.pipeline import render_clips as render

    return render(*args, **kwargs)


def cmd_script(args: argparse.Namespace, config: LectureConfig) -> None:
    """Print or write the narration script of the lecture's scenes (each scene's plan kept in media/plans)."""
    from production.publish.script import (
        narration_script,  # a scene's dry run imports manim: only when needed
    )
    from production.render.plans import PlanStore

    text = narration_script(config, PlanStore(args.media_dir.resolve()), before_dry_run=check_manim)
    if args.out is None:
        print(text, end="")
    else:
        write_text(args.out, text)
        print(f"script: {args.out}")


def cmd_render(args: argparse.Namespace, config: LectureConfig, *, build: bool) -> None:
    """Render chosen clips (``render``) or render and publish the whole lecture (``build``)."""
    config = config.with_voice(args.voice)
    fmt = "mp4" if build else args.format
    options = RenderOptions(args.quality, fmt, False if build else args.transparent)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be >= 1, got {args.jobs}")
    check_shards_option(args.shards, options)
    clips: list[Section] = (
        list(config.clips) if build or not args.scenes else [find_clip(n) for n in args.scenes]
    )
    sub = Path("lecture") / options.resolution if build else Path("clips") / options.variant
    media = args.media_dir.resolve()
    out_dir = media / sub
    with media_lock(media):  # one render at a time in a media folder (production.render.lock)
        request = BuildRequest(
            clips,
            options,
            out_dir,
            jobs=args.jobs,
            extra=config.fingerprint,
            settings=config.settings().replace(voice_cache=media / "voice"),
            force=args.force,
            numbered=build,
            shards=args.shards,
            scheduler=args.scheduler,
            config=config,
        )
        results = render_clips(request)
        if build:
            from production.publish.assemble import publish_lecture  # imports PyAV and manim: when needed

            page = publish_lecture(results, options, out_dir, config.title, config, _describer(args, config))
            described = f"\ndescribed: {out_dir / 'lecture-described.mp4'}" if args.described else ""
            print(
                f"\nlecture: {out_dir / 'lecture.mp4'}{described}\npage:    {page}\n"
                f"transcript: {out_dir / 'transcript.html'}\nclips, captions, posters and "
                f"manifest.json in {out_dir}"
            )
        else:
            print(f"\n{len(results)} clip(s) in {out_dir}")


def _describer(args: argparse.Namespace, config: LectureConfig) -> Describer:
    """What voices a description whose sound is not here, for ``build --described``; False without it."""
    if not args.described:
        return False
    from narration.narrator import NarrationSettings
    from production.publish.described import speaker  # imports PyAV: only when asked for

    media = args.media_dir.resolve()
    return speaker(NarrationSettings(voice=config.voice, recordings=config.narration, cache=media / "voice"))


def cmd_preview(args: argparse.Namespace, config: LectureConfig) -> None:
    """Render the chosen beats of one scene into media/preview/<Scene>/ and print their files."""
    from production.watch.preview import (  # imports the render machinery: only when needed
        preview_beats,
        watch,
    )

    clip = find_clip(args.scene)
    options, media = RenderOptions(args.quality), args.media_dir.resolve()
    if args.watch:
        load = lambda: load_config(config_path(args)).with_voice(args.voice)  # noqa: E731  (read each save)
        watch(clip, args.beat, options, media, load, lambda line: print(line, flush=True))
        return
    results = preview_beats(clip, args.beat, options, media, config.with_voice(args.voice))
    for r in results:
        what = f"rendered in {r.seconds:.1f}s" if r.rendered else "up to date"
        print(f"{r.beat}: {what}\n  video:    {r.video}\n  still:    {r.still}\n  captions: {r.captions}")


def cmd_slides(args: argparse.Namespace, config: LectureConfig) -> None:
    """Render every chosen scene as a deck and convert to HTML, PPTX and PDF."""
    from production.publish.deck import build_slides

    RenderOptions(args.quality)  # a bad quality is refused before anything is locked or written
    media = args.media_dir.resolve()
    out_dir = media / "slides" / QUALITIES[args.quality].folder
    config = config.with_voice(args.voice)
    settings = config.settings().replace(voice_cache=media / "voice")
    with media_lock(media):
        outputs = build_slides(config.clips, args.quality, out_dir, settings=settings)
    print("\n".join(str(p) for p in outputs))


def cmd_package(args: argparse.Namespace, config: LectureConfig) -> None:
    """Write the course package of the lecture built at ``--quality``, building it first where it is not."""
    from production.publish.course import CourseError, built, write_course

    options = RenderOptions(args.quality)
    folder = args.media_dir.resolve() / "lecture" / options.resolution
    if not built(folder):
        print(
            f"course: {folder} has no described lecture yet: building it first "
            f"(attention-lecture build --quality {args.quality} --described)",
            flush=True,
        )
        cmd_render(_build_args(args), config, build=True)
    try:
        course = write_course(folder, config, lambda line: print(line, flush=True))
    except CourseError as exc:
        raise UsageError(str(exc)) from None
    sizes = "\n".join(f"  {p.name}  {p.stat().st_size / 1e6:,.2f} MB" for p in sorted(course.iterdir()))
    print(f"\ncourse: {course}\n{sizes}")


def _build_args(args: argparse.Namespace) -> argparse.Namespace:
    """``package``'s options as ``build --described`` takes them (its other options at their defaults)."""
    return argparse.Namespace(
        **vars(args),
        voice=None,
        jobs=None,
        shards=None,
        scheduler=os.environ.get("DASK_SCHEDULER_ADDRESS") or None,
        force=False,
        described=True,
    )


def check_manim() -> None:
    """Refuse, in one line, a manim other than the one the patches were written for (before any render)."""
    import manim_patches  # imports manim: only for commands that render

    try:
        manim_patches.check_version()
    except manim_patches.PatchVersionError as exc:
        raise RenderError(str(exc)) from None


def _interrupt(signum: int, _frame: object) -> None:
    """Turn SIGTERM into the same clean stop as Ctrl-C."""
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for a usage, config or render error)."""
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        config = load_config(config_path(args))
        if args.command not in ("list", "script"):  # the script checks before its first dry run, if any
            check_manim()
        if args.command == "list":
            cmd_list(config)
        elif args.command == "script":
            cmd_script(args, config)
        elif args.command == "slides":
            cmd_slides(args, config)
        elif args.command == "preview":
            cmd_preview(args, config)
        elif args.command == "package":
            cmd_package(args, config)
        else:
            cmd_render(args, config, build=args.command == "build")
    except (RenderError, ConfigError, UsageError, UnknownScene) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        terminate_children()
        print("interrupted: published clips are untouched; run again to resume", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - anything else is a bug: say so, with where it happened
        terminate_children()
        traceback.print_exception(exc, limit=-6, file=sys.stderr)
        print(
            f"internal error: this is a bug in attention-lecture, not in what you asked "
            f"({type(exc).__name__}: {exc}); please report it with the lines above",
            file=sys.stderr,
        )
        return BUG
    return 0
