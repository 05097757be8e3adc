"""One beat at a time: render only the named beats of a scene, with their voice and captions.

A beat is a range of the scene's animations (the plan numbers them as
``manim -n`` does), so a beat renders as a shard does: manim runs the scene up
to the beat with its animations skipped but its clock and state kept
(:class:`manim_patches.ExactRenderer`), then draws the beat's frames,
the same frames the whole clip has there. The stale beats render from one such
run, in this process, each from a copy kept at its start (:mod:`production.watch.warm`).
Each beat is published under ``media/preview/<Scene>/`` as ``<beat id>.mp4`` (its voice laid on),
``<beat id>.srt`` and ``<beat id>.png`` (its last frame), with a stamp of its
inputs in two lines (:mod:`production.watch.beats`). The first is the whole scene's inputs hash: when it is
unchanged, the beat is up to date without a plan, so a second run returns at
once. The second is the beat's own key: the scene's code with the beats' spoken
texts left out, the lecture file, and the beat itself as the plan times it (its
text, voice and sound, start, end and animations). After an edit, the scene is
planned again (a dry run) and only the beats whose key changed render: after an
edit to one beat's narration or recording, that beat, and later beats only when
the edit moved them in time; after an edit to the scene's other code, the kit
or the lecture file's data, every beat.
:func:`watch` keeps those copies between saves, so a narration edit renders its
beat without running the scene again (:mod:`production.watch.warm`). Planning and rendering hold the media
folder's lock (:mod:`production.render.lock`), so a preview beside a build waits for
it; a preview that is up to date, and a watch waiting for a save, hold nothing.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from lecture.config import LectureConfig
from lecture.section import Section
from production.options import REPO, WATCHED, RenderOptions, UsageError
from production.render import manim_run
from production.render.lock import media_lock
from production.render.planning import plan, plan_key
from production.watch.beats import BeatPreview, beat_key, published, scene_hash, stamps, write_stamp

__all__ = ["preview_beats", "watch"]


def preview_beats(
    clip: Section,
    beats: Sequence[str],
    options: RenderOptions,
    media_dir: Path,
    config: LectureConfig,
) -> list[BeatPreview]:
    """Render ``beats`` of ``clip`` (ids or slugs; none: every beat) into ``media/preview/<Scene>/``."""
    if options.fmt != "mp4" or options.transparent:
        raise UsageError("a preview is an mp4 with its voice: leave out --format and --transparent")
    folder = media_dir / "preview" / clip.scene
    manim_run.check_latex()
    manim_run.ensure_writable(folder)
    scene = scene_hash(clip, options, config)
    previewed = [p.stem for p in folder.glob("*.inputs")]
    if beats and all(_matching(b, previewed) for b in beats):  # each was previewed: is the scene unchanged?
        done = [_resolve(clip, b, previewed) for b in beats]
        if all(stamps(folder, b)[:1] == [scene] for b in done):
            return [published(folder, b, rendered=False, seconds=0.0) for b in done]  # nothing to plan
    with media_lock(media_dir):  # planning and rendering: one command at a time in a media folder
        return _plan_and_render(clip, beats, options, media_dir, config, folder, scene)


def _plan_and_render(
    clip: Section,
    beats: Sequence[str],
    options: RenderOptions,
    media_dir: Path,
    config: LectureConfig,
    folder: Path,
    scene: str,
) -> list[BeatPreview]:
    """Plan the scene and render the chosen beats whose key changed (under the media folder's lock)."""
    settings = config.settings().replace(voice_cache=media_dir / "voice")
    work = media_dir / ".work" / "preview" / f"{clip.scene}-{os.getpid()}"  # two previews never share it
    keys = {clip.scene: plan_key(clip, options, config.fingerprint(clip), settings)}
    timeline = plan([clip], options, media_dir, work, settings, keys=keys)[clip.scene]
    spans = {beat: (first, last) for beat, first, last in timeline.beats}
    timed = {beat.id: beat for beat in timeline.record}
    chosen = [_resolve(clip, b, spans) for b in beats] if beats else list(spans)
    keys = {beat: beat_key(clip, options, config, timed[beat], spans[beat]) for beat in chosen}
    stale = [beat for beat in chosen if stamps(folder, beat)[1:2] != [keys[beat]]]
    shutil.rmtree(work, ignore_errors=True)
    rendered = {r.beat: r for r in _render_beats(clip, stale, options, media_dir, config, scene)}
    results = []
    for beat in chosen:
        write_stamp(folder, beat, scene, keys[beat])
        results.append(rendered.get(beat) or published(folder, beat, rendered=False, seconds=0.0))
    return results


def _render_beats(
    clip: Section,
    beats: list[str],
    options: RenderOptions,
    media_dir: Path,
    config: LectureConfig,
    scene: str,
) -> list[BeatPreview]:
    """Render ``beats`` from one replay of the scene (under the media folder's lock).

    Each renders from a process kept at its start (:mod:`production.watch.warm`), as
    manim renders a shard of it, so its frames are the whole clip's there.
    """
    if not beats:
        return []
    from production.watch.warm import WarmScene, warm_up

    warm_up(clip)
    warm = WarmScene(clip, beats, options, media_dir)
    try:
        return warm.render_now(config, scene)
    finally:
        warm.close()


def _matching(name: str, beats: Iterable[str]) -> str | None:
    """The beat id among ``beats`` that ``name`` names (the id, ``NN-slug`` or the slug), if any."""
    return next((b for b in beats if name in (b, b.split(".", 1)[1], b.split("-", 1)[1])), None)


def _resolve(clip: Section, name: str, beats: Iterable[str]) -> str:
    """The beat id ``name`` names, or a one-line error listing the scene's beats."""
    found = _matching(name, beats)
    if found is None:
        known = ", ".join(b.split(".", 1)[1] for b in beats)
        raise UsageError(f"{clip.scene} has no beat {name!r}; its beats: {known}")
    return found


def watch(
    clip: Section,
    beats: Sequence[str],
    options: RenderOptions,
    media_dir: Path,
    load: Callable[[], LectureConfig],
    say: Callable[[str], None],
) -> None:
    """Preview ``beats`` (none: every beat) now and after every save of what they are made of, until Ctrl-C.

    ``load()`` reads the lecture file afresh each time. Each render prints one
    line; a scene that fails (a syntax error, a failed render, a bad lecture
    file) prints one line naming the error, and the next save is waited for.
    """
    from watchfiles import watch as changes

    from production.watch.warm import WarmScene, warm_up

    try:
        warm_up(clip)  # manim and the scene's libraries, imported once for every render that follows
    except Exception:  # noqa: BLE001  (a scene that does not import yet: its replay will say why)
        pass
    warm = WarmScene(clip, beats, options, media_dir)

    def once() -> None:
        try:
            for result in warm.refresh(load()):
                say(f"{result.beat}: rendered in {result.seconds:.1f}s -> {result.video}")
        except Exception as failure:  # any failure is one line, and the watch goes on (Ctrl-C still stops)
            say(f"error: {(str(failure) or type(failure).__name__).splitlines()[0]}")

    def start() -> tuple[Iterator[set[Any]], set[Any]]:
        """A watcher running from now on (its first batch: what changed in its first half second)."""
        batches = changes(
            *paths, watch_filter=_relevant, raise_interrupt=True, yield_on_timeout=True, rust_timeout=500
        )
        return batches, next(batches)

    config = load()
    paths = [REPO / name for name in WATCHED if (REPO / name).exists()]
    paths += [p for p in (config.path, config.narration) if p is not None and Path(p).exists()]
    logging.getLogger("watchfiles").setLevel(logging.WARNING)  # one line per render, not per change
    batches, pending = start()  # before the first render: a save during it is seen
    once()
    say(f"watching {len(paths)} paths; Ctrl-C stops")
    try:
        while True:
            batch, pending = pending or next(batches), set()
            if batch:
                # A new watcher before the render: saves during it are seen, and a file an editor
                # replaced by renaming (lecture.toml, manim.cfg) is watched again.
                batches.close()  # type: ignore[attr-defined]
                batches, pending = start()
                once()
    except KeyboardInterrupt:
        manim_run.terminate_children()  # a render under way stops; its files were never published
        say("stopped watching; every published file is whole")
    finally:
        warm.close()
        batches.close()  # type: ignore[attr-defined]


def _relevant(_change: object, path: str) -> bool:
    """A saved source, data or recording file (not caches, editors' swap files or compiled bytecode)."""
    name = Path(path).name
    return (
        not name.startswith(".")
        and "__pycache__" not in path
        and name.endswith((".py", ".toml", ".cfg", ".wav", ".json"))
    )
