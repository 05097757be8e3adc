"""What the lecture says: one idea per beat, and every spoken number checked against an independent value."""

from __future__ import annotations

import pytest

from lecture.clips import LECTURE
from narration.written import written
from tests.scenes.script_text import expected_numbers, numbers_in, script, slug

# the script is read off the scene runs: these tests run on their xdist worker (tests/scenes/script_text.py)
pytestmark = pytest.mark.xdist_group("scene-runs")

MAX_WORDS = 25
"""Words a beat may have (docs/narration.md: one idea per beat, about 10 to 25 words); title beats aside."""

CLIPS = [pytest.param(c, id=c.scene) for c in LECTURE]


@pytest.mark.parametrize("clip", CLIPS)
def test_no_beat_carries_more_than_one_idea(clip):
    long = [
        f"{b.id} ({len(b.text.split())} words)"
        for b in script()[clip.scene]
        if slug(b.id) != "title" and len(b.text.split()) > MAX_WORDS
    ]
    assert not long, f"beats over {MAX_WORDS} words: {long}"


@pytest.mark.parametrize("clip", CLIPS)
def test_every_spoken_number_is_the_computed_value(clip):
    expected = expected_numbers(clip.module)
    for beat in script()[clip.scene]:
        want = expected[slug(beat.id)]() if slug(beat.id) in expected else []
        assert numbers_in(beat.text) == want, f"{beat.id}: {beat.text!r}"
        captions = " ".join(" ".join(cue.text.split()) for cue in beat.cues)
        shown = want if written(beat.text) == beat.text else numbers_in(written(beat.text))  # SmolLM2: no "2"
        assert numbers_in(captions) == shown, f"{beat.id} captions: {captions!r}"


@pytest.mark.parametrize("clip", CLIPS)
def test_every_number_reference_names_a_beat_the_scene_has(clip):
    slugs = {slug(b.id) for b in script()[clip.scene]}
    slugs |= {f"{s}.description" for s in slugs}  # a description's numbers are checked under its beat's key
    stale = sorted(set(expected_numbers(clip.module)) - slugs)
    assert not stale, f"tests/scenes/spoken/{clip.module}.py checks beats {clip.scene} no longer has: {stale}"


def test_the_number_reader_finds_decimals_and_skips_names():
    assert numbers_in("T5 and ALiBi: 4.38x faster, 10 items, k_eff 2.5.") == ["4.38", "10", "2.5"]


@pytest.mark.parametrize("clip", CLIPS[1:])
def test_each_section_says_the_title_its_card_shows(clip):
    title = next(b for b in script()[clip.scene] if slug(b.id) == "title")
    assert title.text == clip.spoken_title == f"Section {title.text.split()[1]} {clip.title}."
