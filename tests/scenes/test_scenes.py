"""Every scene of the lecture constructs, keeps its text on screen, and matches its reference frame."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.scenes.conftest import REFERENCE_DIR

# tests that share this module's fixtures run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("scene-runs")


def test_scene_constructs_and_has_a_sensible_length(scene_run):
    """Each clip runs under 4 minutes (issue 50's length; section 5, the longest, is about 3 min 56 s)."""
    assert 10.0 < scene_run.duration < 240.0


def test_the_lecture_runs_under_twenty_minutes():
    """The scene runs are 480p15 renders of the default lecture: their lengths are the 480p build's."""
    from lecture.clips import LECTURE
    from tests.scenes.conftest import cached_run

    total = sum(cached_run(clip).duration for clip in LECTURE)
    assert total < 20 * 60, f"the lecture runs {total:.1f} s"


def test_the_picture_moves_at_least_every_six_seconds_of_speech(scene_run):
    """Issue 29's rule on the scene's plan: no 6 s of narration without an animation playing.

    The pixels of the two clips the suite renders are measured in tests/production/test_build.py, and
    ``python -m production.media.motion`` measures a whole build's.
    """
    from production.media.motion import plan_held

    scene = scene_run.scene
    held = plan_held(scene_run.duration, scene.moving, [b.to_json() for b in scene.beats])
    assert held == [], [f"{s.beat} {s.start:.1f}-{s.end:.1f} s" for s in held]


def test_each_beats_voice_is_handed_to_manim_where_the_beat_speaks(scene_run):
    """The plain manim CLI mixes the voice (scenes/base.py): every sound file of every beat, at its time."""
    asked = sorted((Path(f).name, t) for f, t in scene_run.sounds)
    beats = sorted((Path(f).name, t) for b in scene_run.scene.beats for f, t in b.audio)
    assert beats and [f for f, _ in asked] == [f for f, _ in beats]
    assert np.allclose([t for _, t in asked], [t for _, t in beats], atol=0.002)  # beats keep 3 decimals


def test_nothing_is_drawn_both_alone_and_inside_a_group(scene_run):
    assert scene_run.drawn_twice == []


def test_the_picture_reaches_each_named_thing_within_a_second_of_its_words(scene_run):
    """In step: an animation cued to words (``when_said``, ``until_said``) starts within 1 s of them."""
    late = [(beat, words, seconds) for beat, words, seconds in scene_run.scene.late if seconds > 1.0]
    assert late == []


def test_text_stays_in_the_safe_area_and_never_overlaps(scene_run):
    assert scene_run.problems == []


def test_text_reads_at_embed_size(scene_run):
    """At the page's 640-pixel player: no text under 30, labels, equations and readouts at 36 or more."""
    problems = sorted(set(p.split(": ", 1)[1] for p in scene_run.size_problems))
    assert problems == [], "\n".join(problems[:40])


def test_every_role_symbol_is_drawn_in_its_role_colour(scene_run):
    """Issue 29: q orange, k blue, v green, s blue, a and w yellow, wherever an equation writes them."""
    problems = sorted(set(p.split(": ", 1)[1] for p in scene_run.role_problems))
    assert problems == [], "\n".join(problems[:40])


def test_role_check_catches_a_symbol_in_the_text_colour():
    from manim import Scene

    from drawing import theme
    from drawing.widgets import math
    from tests.scenes.roles import role_problems

    scene = Scene()
    scene.add(
        math(r"w_i \propto K(q, x_i)"),  # both left white: two problems
        math(r"k_{\mathrm{eff}} = e^{H}"),  # an effective count, not a key
        math(r"\sqrt{d_k}\;\text{keys and queries}"),  # no symbol: a command, a subscript, words
        math(r"\phi(q)^\top \phi(k_i)", colors={"q": theme.QUERY, "k_i": theme.KEY}),
        math("q", color=theme.KEY),  # the query drawn as a key
    )
    problems = role_problems(scene, "synthetic")
    assert len(problems) == 3, problems
    assert sum("the weight in 'w_i" in p for p in problems) == 1
    assert sum("the query in 'w_i" in p for p in problems) == 1
    assert sum("the query in 'q'" in p for p in problems) == 1


def test_size_check_catches_small_and_shrunk_text():
    from manim import Scene

    from drawing.widgets import label, math
    from tests.scenes.conftest import size_problems

    scene = Scene()
    scene.add(label("tick", small=True), label("name").scale(0.9), math("x").scale(0.5), label("ok"))
    problems = size_problems(scene, "synthetic")
    assert len(problems) == 2
    assert any("'name'" in p for p in problems) and any("'x'" in p for p in problems)


def test_last_frame_matches_reference(scene_run):
    name = type(scene_run.scene).__name__
    path = REFERENCE_DIR / f"{name}.png"
    frame = scene_run.last_frame
    if os.environ.get("UPDATE_REFERENCES") == "1":
        Image.fromarray(frame).save(path, optimize=True)
    if not path.exists():
        pytest.fail(f"no reference frame {path}; run UPDATE_REFERENCES=1 make test to create it")
    reference = np.asarray(Image.open(path).convert("RGB"))
    assert frame.shape == reference.shape
    diff = np.abs(frame.astype(int) - reference.astype(int))
    # Tolerant to anti-aliasing differences, not to anything moving or changing colour.
    assert diff.mean() < 1.0, f"mean pixel difference {diff.mean():.3f}"
    assert np.mean(diff.max(axis=-1) > 40) < 0.002, "more than 0.2% of pixels changed visibly"


def test_last_frame_is_not_blank(scene_run):
    frame = scene_run.last_frame.astype(float)
    assert frame.std() > 5.0


def test_layout_checker_catches_offscreen_and_overlapping_text():
    from manim import RIGHT, Scene, Text

    from tests.scenes.conftest import layout_problems

    scene = Scene()
    scene.add(Text("far right").move_to(6.8 * RIGHT), Text("a"), Text("b"))
    problems = layout_problems(scene, "synthetic")
    assert any("leaves the safe area" in p for p in problems)
    assert any("overlaps" in p for p in problems)
