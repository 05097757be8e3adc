"""The build's plan: dry-run the stale scenes for their timelines, each kept under what it depends on.

The plan step (one or more processes here) typesets each scene's TeX, speaks
its draft voice and dry-runs it (:mod:`production.render.manim_entry`): each
animation's frames, run time and starting state, and each beat's animations
and times. Every planned clip is then a row of segments
(:mod:`production.render.cut`); those the segment cache holds are not rendered
again, and the missing runs are cut into shards at segment boundaries. A gif,
and ``--shards 1``, render whole without a plan.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from atomic_files.shared import add_typeset, fill_typeset
from lecture.section import Section
from lecture.settings import SceneSettings
from production.options import RenderOptions
from production.render import manim_run
from production.render.inputs import clip_inputs_hash
from production.render.plans import PlanStore
from production.render.timeline import Timeline, read_lines
from production.render.workspace import cache_view, keep_new_cache_files

__all__ = ["plan", "plan_key", "plan_needed"]


def plan_needed(options: RenderOptions, shards: int | None) -> bool:
    """Whether the build plans its clips (and so cuts them into segments and shards).

    >>> plan_needed(RenderOptions("l"), None), plan_needed(RenderOptions("l"), 1)
    (True, False)
    >>> plan_needed(RenderOptions("l", "gif"), None)
    False

    A gif cannot be joined (its palette is the whole clip's), and ``--shards 1``
    asks for one whole render: those typeset and speak as they render.
    Everything else is planned, so that every clip's segments are cached and
    a later build renders only what changed.
    """
    return options.fmt != "gif" and shards != 1


def plan_key(clip: Section, options: RenderOptions, extra: str, settings: SceneSettings | None) -> str:
    """The key a render's plan of ``clip`` is kept under: what the plan depends on.

    Its inputs hash (``extra``: the lecture's data for it, recordings
    included), the quality (the frame rate), and the voice it is spoken with.
    """
    voice = (settings or SceneSettings()).voice
    return f"render-{options.quality}-{clip_inputs_hash(clip, options, f'{extra}|render: voice {voice}')}"


def plan(
    clips: Sequence[Section],
    options: RenderOptions,
    cache: Path,
    work: Path,
    settings: SceneSettings | None,
    processes: int = 1,
    keys: Mapping[str, str] | None = None,
) -> dict[str, Timeline]:
    """Prepare ``clips`` (typeset, voice) and count their animations at ``options``' rate.

    The clips are shared out over up to ``processes`` processes, longest first;
    with more than one, each typesets into its own copy of the TeX and text
    caches (two manims must not write one text cache at once) and its new
    files are added to ``cache`` afterwards. The voice cache is written by
    renaming finished files into place, so they share it.

    With ``keys`` (:func:`plan_key` of each scene), a plan kept under its key in
    ``cache/plans`` (:class:`~production.render.plans.PlanStore`) is read back instead,
    when every sound file it names is still there; each new plan is kept.
    """
    store = PlanStore(cache)
    kept = {c.scene: t for c in clips if keys and (t := _kept(store, c.scene, keys.get(c.scene))) is not None}
    todo = [c for c in clips if c.scene not in kept]
    if not todo:
        return kept
    planned = _plan_all(todo, options, cache, work, settings, processes)
    for scene, (_, line) in planned.items():
        if keys and scene in keys:
            store.keep(scene, keys[scene], {"plan": line})
    return {**kept, **{scene: timeline for scene, (timeline, _) in planned.items()}}


def _kept(store: PlanStore, scene: str, key: str | None) -> Timeline | None:
    """The plan kept for ``scene`` under ``key``, if there is one and its sound files are all there."""
    data = store.load(scene, key) if key else None
    if data is None or not isinstance(data.get("plan"), dict):
        return None
    try:
        timeline = Timeline.from_json(data["plan"])
    except (KeyError, TypeError, ValueError):  # a plan of another layout: made again
        return None
    sounds = [Path(path) for beat in timeline.record for path, _ in beat.audio]
    return timeline if all(p.is_file() for p in sounds) else None


def _plan_all(
    clips: Sequence[Section],
    options: RenderOptions,
    cache: Path,
    work: Path,
    settings: SceneSettings | None,
    processes: int,
) -> dict[str, tuple[Timeline, dict[str, Any]]]:
    """Dry-run ``clips`` in up to ``processes`` processes: each scene's timeline and its plan line."""
    work.mkdir(parents=True, exist_ok=True)
    groups = _groups(clips, processes)
    with ThreadPoolExecutor(len(groups)) as pool:
        try:
            one = lambda k: _plan_group(groups, k, options, cache, work, settings)  # noqa: E731
            planned = pool.map(one, range(len(groups)))
            timelines = [t for group in planned for t in group]
        except KeyboardInterrupt:  # stop the plan's manims, or leaving ``with`` waits for them to finish
            manim_run.terminate_children()
            raise
    return {t[0].scene: t for t in timelines}


def _groups(clips: Sequence[Section], processes: int) -> list[list[Section]]:
    """``clips`` in at most ``processes`` groups of about equal length (longest to the shortest group)."""
    groups: list[list[Section]] = [[] for _ in range(max(1, min(processes, len(clips))))]
    for clip in sorted(clips, key=lambda c: -c.seconds):
        min(groups, key=lambda g: sum(c.seconds for c in g)).append(clip)
    return groups


def _plan_group(
    groups: list[list[Section]],
    k: int,
    options: RenderOptions,
    cache: Path,
    work: Path,
    settings: SceneSettings | None,
) -> list[tuple[Timeline, dict[str, Any]]]:
    """Plan ``groups[k]`` in one process (in a copy of the caches when there are other groups)."""
    clips, n = groups[k], len(groups)
    folder = work if n == 1 else work / f"prepare-{k + 1}of{n}"
    if n > 1:
        shutil.rmtree(folder, ignore_errors=True)
    view = cache if n == 1 else cache_view(cache, folder)
    if n == 1:  # typesetting straight into the build's caches (its lock keeps other builds out)
        fill_typeset(cache)
    log = folder / "prepare.log"
    cmd = [sys.executable, "-m", "production.render.manim_entry", "plan", str(view), options.quality]
    scenes = [c.scene for c in clips]
    manim_run.run_manim(clips[0], [*cmd, *scenes], log, None, settings, what=f"preparing {', '.join(scenes)}")
    if n > 1:
        keep_new_cache_files(view, cache)
        shutil.rmtree(view, ignore_errors=True)  # the log stays beside it
    else:
        add_typeset(cache)
    return [(timeline, timeline.to_json()) for timeline in read_lines(log.read_text().splitlines())]
