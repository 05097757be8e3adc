"""The segment cache: a planned clip cut at its beats, keyed by what each segment's frames are made of."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from narration.beats import Beat
from production.options import RenderOptions
from production.render.cut import Cut, cut_clips, cut_runs, runs, segment_keys, segments
from production.render.segment_cache import SegmentCache
from production.render.timeline import Timeline


def timeline(holds: tuple[int, ...] = (30, 45, 30), states: tuple[str, ...] = ("s0", "s1", "s2")) -> Timeline:
    """A scene of an intro animation, three beats of one hold each, and an outro animation."""
    animations = ((15, False), *((h, True) for h in holds), (9, False))
    held = ((h / 15, s) for h, s in zip(holds, states, strict=True))
    clocks = ((1.0, "s-intro"), *held, (0.6, "s-end"))
    spans, record, at = [], [], 1.0
    for k, hold in enumerate(holds):
        beat_id = f"S.0{k + 1}-b{k}"
        spans.append((beat_id, k + 1, k + 1))
        record.append(Beat(beat_id, f"Beat {k}.", round(at, 3), round(at + hold / 15, 3), "draft", "piper"))
        at += hold / 15
    duration = sum(f for f, _ in animations) / 15
    return Timeline("S", 15.0, duration, animations, tuple(spans), tuple(record), clocks)


CODE = "code-hash"


def test_segments_are_the_beats_and_what_lies_between():
    parts = segments(timeline())
    assert [(p.name, p.first, p.last) for p in parts] == [
        ("start+", 0, 0),
        ("S.01-b0", 1, 1),
        ("S.02-b1", 2, 2),
        ("S.03-b2", 3, 3),
        ("S.03-b2+", 4, 4),
    ]
    assert [p.beat.text if p.beat else None for p in parts] == [None, "Beat 0.", "Beat 1.", "Beat 2.", None]


def test_a_longer_beat_changes_its_own_key_only():
    before, after = timeline(), timeline(holds=(30, 60, 30))
    old = segment_keys(before, segments(before), CODE)
    new = segment_keys(after, segments(after), CODE)
    assert after.record[2].start != before.record[2].start  # the third beat moved in time...
    same = [a == b for a, b in zip(old, new, strict=True)]
    assert same == [True, True, False, True, True]  # ...and kept its key


def test_a_beats_text_its_code_or_the_state_it_starts_from_changes_its_key():
    base = timeline()
    keys = segment_keys(base, segments(base), CODE)
    worded = replace(base, record=(base.record[0], replace(base.record[1], text="Other."), base.record[2]))
    assert segment_keys(worded, segments(worded), CODE)[2] != keys[2]
    assert all(a != b for a, b in zip(segment_keys(base, segments(base), "other code"), keys, strict=True))
    drifted = timeline(states=("s0", "s1", "s2 at another time"))  # e.g. an updater driven by dt
    assert segment_keys(drifted, segments(drifted), CODE)[3] != keys[3]


def test_a_beats_sound_is_part_of_its_key(tmp_path):
    base = timeline()
    wav = tmp_path / "b1.wav"
    wav.write_bytes(b"one recording")
    sounded = replace(base.record[1], audio=((str(wav), 2.0),))
    voiced = replace(base, record=(base.record[0], sounded, base.record[2]))
    first = segment_keys(voiced, segments(voiced), CODE)
    wav.write_bytes(b"another recording")
    assert segment_keys(voiced, segments(voiced), CODE)[2] != first[2]


@given(st.lists(st.booleans(), min_size=1, max_size=40))
def test_runs_cover_exactly_the_missing_segments(missing):
    found = runs(missing)
    covered = [i for a, b in found for i in range(a, b + 1)]
    assert covered == [i for i, gone in enumerate(missing) if gone]
    assert all(b + 1 < c for (_, b), (c, _) in zip(found, found[1:], strict=False))  # maximal runs


@given(st.lists(st.booleans(), min_size=1, max_size=30), st.integers(1, 12), st.data())
def test_cut_runs_renders_each_missing_segment_once_in_contiguous_shards(missing, shards, data):
    gaps = runs(missing)
    costs = data.draw(st.lists(st.floats(0.5, 50.0), min_size=len(missing), max_size=len(missing)))
    cuts = cut_runs(gaps, costs, shards) if gaps else []
    assert [i for a, b in cuts for i in range(a, b + 1)] == [i for i, gone in enumerate(missing) if gone]
    assert len(cuts) == max(len(gaps), min(shards, sum(missing))) if gaps else cuts == []
    assert all(any(a >= g0 and b <= g1 for g0, g1 in gaps) for a, b in cuts)  # never across a cached one


def test_a_cut_renders_what_the_cache_lacks_and_orders_every_segment(tmp_path):
    base = timeline()
    keys = segment_keys(base, segments(base), CODE)
    cache = SegmentCache(tmp_path / "S", "mp4")
    for k in (keys[0], keys[3], keys[4]):
        cache.keep(k, b"video " + k.encode())
    [cut] = cut_clips([base], {"S": CODE}, {"S": cache}, RenderOptions("l"), None, 2).values()
    assert isinstance(cut, Cut) and cut.cached == {0, 3, 4} and cut.shards == ((1, 2),)
    assert cut.spans == [(1, 2)] and cut.segments_of(0) == ((1, 1), (2, 2))
    assert cut.order() == ((-1, 0), (0, 0), (0, 1), (-1, 1), (-1, 2))
    forced = cut_clips([base], {"S": CODE}, {"S": cache}, RenderOptions("l"), 2, 2, force=True)["S"]
    assert forced.cached == frozenset() and len(forced.shards) == 2


def test_the_cache_keeps_what_builds_use_and_as_many_bytes_of_the_rest(tmp_path):
    cache = SegmentCache(tmp_path / "S", "mp4")
    for k, name in enumerate(("old", "older", "used", "oldest")):
        cache.keep(name, b"x" * 100)
        os.utime(cache.path(name), (1000 + k, 1000 + {"old": 3, "older": 2, "used": 9, "oldest": 1}[name]))
    (tmp_path / "S" / ".half.partial.mp4").write_bytes(b"a write under way")
    assert cache.has("used") and not cache.has("never")
    cache.prune(["used"])
    left = sorted(p.name for p in Path(tmp_path / "S").iterdir())
    assert left == [".half.partial.mp4", "old.mp4", "used.mp4"]
