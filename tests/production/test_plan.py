"""The prepare step: needed only when a clip may be cut into shards; scenes shared out by length."""

from __future__ import annotations

from lecture.clips import LECTURE, Clip
from production.options import RenderOptions
from production.pipeline import _groups, plan_needed
from production.shards import Timeline, auto_shards, min_shard_seconds


def test_groups_share_the_lecture_out_by_length() -> None:
    groups = _groups(LECTURE, 2)
    assert sorted(c.scene for g in groups for c in g) == sorted(c.scene for c in LECTURE)  # each once
    loads = [sum(c.seconds for c in g) for g in groups]
    assert max(loads) - min(loads) <= max(c.seconds for c in LECTURE)  # no worse than one scene apart
    assert max(loads) < 0.6 * sum(loads)


def test_groups_never_more_than_the_clips_or_fewer_than_one() -> None:
    one = [Clip("A", "a", "1", "A", 10.0)]
    assert _groups(one, 8) == [one]
    assert _groups(LECTURE, 1) == [sorted(LECTURE, key=lambda c: -c.seconds)]
    assert len(_groups(LECTURE, 0)) == 1


def test_a_plan_only_when_a_clip_may_be_cut() -> None:
    mp4 = RenderOptions("h", "mp4")
    assert not plan_needed(LECTURE, mp4, None, 2)  # 111 s of 582 s: far under its share of 291 s
    assert not plan_needed(LECTURE, mp4, None, 1) and not plan_needed(LECTURE, mp4, 1, 8)
    assert not plan_needed(LECTURE, RenderOptions("h", "gif"), 4, 8)
    assert plan_needed(LECTURE, mp4, 3, 2)  # shards asked for
    assert plan_needed(LECTURE, mp4, None, 8)  # a share of 73 s: the longest clips may be cut
    # the plan is skipped only where the rule that cuts clips would cut none, even if one clip ran half
    # as long again as its estimate
    for workers in (2, 3, 4, 5, 6, 8, 16):
        if plan_needed(LECTURE, mp4, None, workers):
            continue
        for long in LECTURE:
            timelines = [
                Timeline(c.scene, 60.0, c.seconds * (1.5 if c is long else 1.0), ((1, False),) * 40)
                for c in LECTURE
            ]
            assert set(auto_shards(timelines, workers, min_shard_seconds("h")).values()) == {1}, workers


def test_a_lecture_of_short_clips_renders_unplanned_at_low_quality() -> None:
    short = [Clip(n, "m", "1", n, 40.0) for n in "ABC"]
    low = RenderOptions("l", "mp4")
    assert min_shard_seconds("l") > 60  # at 480p15 a shard must be a minute long to pay its start-up
    assert not plan_needed(short, low, None, 3)
    assert plan_needed(short, RenderOptions("h", "mp4"), None, 3)
