"""The prepare step's grouping: scenes shared out over processes by length."""

from __future__ import annotations

from scenes.build.pipeline import _groups
from scenes.lecture import LECTURE, Clip


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
