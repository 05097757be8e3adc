"""Figures that change places: scaled and moved as one, with their words rebuilt at full size.

A figure (axes, data, bars) may be shown large while its beat is about it and
as a small thumbnail afterwards. Scaling text would shrink it below the
readable size, so only the picture is scaled: the words of the old place
leave, the picture moves, and the words of the new place, built around the
moved picture at full size, arrive. Three steps, so no text crosses a moving
figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from manim import FadeIn, FadeOut, Mobject, MoveToTarget, Scene, VGroup

__all__ = ["aim", "regroup"]


def aim(parts: Sequence[Mobject], centre: np.ndarray, factor: float, *, now: Iterable[Mobject] = ()) -> None:
    """Give each of ``parts`` a ``target``: scaled by ``factor`` about their centre, moved to ``centre``.

    Parts listed in ``now`` (hidden ones) are moved at once instead; build the
    new words around the targets (or the moved parts) before calling :func:`regroup`.
    """
    about = VGroup(*parts).get_center()
    at_once = set(map(id, now))
    for part in parts:
        moved = part if id(part) in at_once else part.copy()
        moved.scale(factor, about_point=about).shift(np.asarray(centre) - about)
        if moved is not part:
            part.target = moved


def regroup(
    scene: Scene,
    moving: Sequence[Mobject],
    *,
    words_out: Sequence[Mobject] = (),
    leaving: Sequence[Mobject] = (),
    arriving: Sequence[Mobject] = (),
    words_in: Sequence[Mobject] = (),
    run_time: float = 1.2,
) -> None:
    """Old words and ``leaving`` out; ``moving`` to their targets while ``arriving`` fade in; new words in."""
    out = [w for w in words_out if w.has_points() or w.submobjects] + list(leaving)
    if out:
        scene.play(*(FadeOut(w) for w in out), run_time=0.6)
    anims = [MoveToTarget(m) for m in moving] + [FadeIn(m) for m in arriving]
    if anims:
        scene.play(*anims, run_time=run_time)
    words_in = [w for w in words_in if w.has_points() or w.submobjects]
    if words_in:
        scene.play(*(FadeIn(w) for w in words_in), run_time=0.6)
