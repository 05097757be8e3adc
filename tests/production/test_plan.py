"""The prepare step: every build but a gif or --shards 1 plans its clips; scenes shared out by length."""

from __future__ import annotations

from lecture.clips import LECTURE
from lecture.parameters import Parameters
from lecture.section import Section
from production.options import RenderOptions
from production.render.planning import _groups, plan_needed


def test_groups_share_the_lecture_out_by_length() -> None:
    groups = _groups(LECTURE, 2)
    assert sorted(c.scene for g in groups for c in g) == sorted(c.scene for c in LECTURE)  # each once
    loads = [sum(c.seconds for c in g) for g in groups]
    assert max(loads) - min(loads) <= max(c.seconds for c in LECTURE)  # no worse than one scene apart
    assert max(loads) < 0.6 * sum(loads)


def test_groups_never_more_than_the_clips_or_fewer_than_one() -> None:
    one = [Section("A", "a", "1", "A", 10.0, Parameters)]
    assert _groups(one, 8) == [one]
    assert _groups(LECTURE, 1) == [sorted(LECTURE, key=lambda c: -c.seconds)]
    assert len(_groups(LECTURE, 0)) == 1


def test_every_build_is_planned_but_a_gif_or_one_whole_shard() -> None:
    mp4 = RenderOptions("h", "mp4")
    assert plan_needed(mp4, None) and plan_needed(mp4, 3) and plan_needed(RenderOptions("l", "webm"), None)
    assert not plan_needed(mp4, 1)  # --shards 1: one whole render, typesetting and speaking as it goes
    assert not plan_needed(RenderOptions("h", "gif"), None)  # a gif cannot be joined from segments
