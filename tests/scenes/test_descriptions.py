"""Every beat's audio description: present, short, for the ear, and SAID exactly where the words suffice.

A described build speaks each description after its beat while the picture
holds (production.publish.described); the descriptive transcript prints it. The
numbers a description speaks are checked with the narration's, against
independent values (tests/scenes/spoken/, keys ``<slug>.description``).
"""

from __future__ import annotations

import math
import re

import pytest

from lecture.clips import LECTURE
from tests.scenes.script_text import expected_numbers, numbers_in, script, slug

# the script is read off the scene runs: these tests run on their xdist worker (tests/scenes/script_text.py)
pytestmark = pytest.mark.xdist_group("scene-runs")

MAX_WORDS = 15
"""Words a description may have: each second of it stops the picture in the described lecture (at 25
words a beat, the descriptions doubled the lecture's length: 15:52 became 32:00)."""

SAID = {
    "LectureTitle": {"title", "weights", "temperature"},
    "FixedVsQueryWeights": {"title", "when-learned-wins", "ask", "predict"},
    "KernelRegressionCollapse": {"title", "ask", "predict"},
    "TemperatureSweep": {"title", "log", "ask", "predict"},
    "KernelVariants": {"title", "ask", "predict"},
    "HeadRouting": {"title", "stylised", "head-1", "ask", "predict"},
    "KVCacheGrowth": {"title", "window-of-one", "ask", "predict"},
    "AdaptiveSufficiency": {"title", "ask", "predict"},
}
"""Scene -> the beats whose narration already describes their picture (each reviewed by reading its body)."""

CLIPS = [pytest.param(c, id=c.scene) for c in LECTURE]


@pytest.mark.parametrize("clip", CLIPS)
def test_every_beat_is_described_or_said(clip):
    beats = script()[clip.scene]
    missing = [b.id for b in beats if not b.description.said and not b.description.text.strip()]
    assert not missing, f"beats with neither a description nor SAID: {missing}"
    said = {slug(b.id) for b in beats if b.description.said}
    reviewed = SAID[clip.scene]
    assert said == reviewed, f"{clip.scene}: SAID on {sorted(said)}, reviewed as {sorted(reviewed)}"


LONGER = {"LectureTitle.outline": 25}
"""Beats whose description may run longer, and how long: the outline names the sections no voice reads."""


@pytest.mark.parametrize("clip", CLIPS)
def test_descriptions_are_short_and_written_for_the_ear(clip):
    for beat in script()[clip.scene]:
        text = beat.description.text
        if not text:
            continue
        most = LONGER.get(f"{clip.scene}.{slug(beat.id)}", MAX_WORDS)
        assert len(text.split()) <= most, f"{beat.id}: {len(text.split())} words: {text!r}"
        assert text.isascii() and not re.search(r"[\\$_^{}]", text), f"{beat.id}: not for the ear: {text!r}"
        assert text.rstrip().endswith((".", "!", "?")), f"{beat.id}: a description ends its sentence"


@pytest.mark.parametrize("clip", CLIPS)
def test_every_number_a_description_speaks_is_the_computed_value(clip):
    expected = expected_numbers(clip.module)
    for beat in script()[clip.scene]:
        key = f"{slug(beat.id)}.description"
        want = expected[key]() if key in expected else []
        assert numbers_in(beat.description.text) == want, f"{beat.id}: {beat.description.text!r}"


def test_the_predict_beat_is_said_and_its_answer_described():
    for clip in LECTURE:
        beats = {slug(b.id): b for b in script()[clip.scene]}
        if "ask" in beats:
            assert beats["ask"].description.said, clip.scene
            assert beats["predict"].description.said, clip.scene
            assert beats["predict-answer"].description.needed, clip.scene


def test_the_predict_beat_leaves_two_to_three_seconds_of_silence_before_the_answer():
    """Issue 51: the options are read (the ``predict`` beat), then 2-3 s of silence, then the answer.

    Measured on the captions, which are timed from the voice's own recordings: from the last word of
    the options to the first word of the answer, with nothing spoken between.
    """
    asked = 0
    for clip in LECTURE:
        beats = script()[clip.scene]
        ids = [slug(b.id) for b in beats]
        for k in (k for k, name in enumerate(ids) if name == "predict"):
            assert ids[k + 1] == "predict-answer", (clip.scene, ids[k + 1])
            asked_at = beats[k].cues[-1].end
            answered_at = beats[k + 1].cues[0].start
            assert 2.0 <= answered_at - asked_at <= 3.0, (clip.scene, answered_at - asked_at)
            asked += 1
    assert asked == 7


@pytest.mark.parametrize("clip", CLIPS)
def test_every_equation_on_screen_is_recorded_and_reads_as_mathml(clip):
    """The descriptive transcript gives each beat's equations as MathML: each one converts, with no error."""
    from production.publish.page.mathml import mathml

    beats = script()[clip.scene]
    shown = [tex for b in beats for tex in b.equations]
    assert shown, f"{clip.scene}: no equation recorded on screen"
    for tex in dict.fromkeys(shown):
        body = str(mathml(tex)).split('">', 1)[1]  # after the <math> tag and its alttext
        assert "<merror" not in body and "<mi>&</mi>" not in body and "\\" not in body, (tex, body)


@pytest.mark.parametrize("clip", CLIPS)
def test_no_equation_line_is_a_fragment(clip):
    """Each beat lists whole equations: no lone symbol, no line that starts mid-equation, and none that
    another line of the same beat contains (an equation's first parts, noted while it was written)."""
    for beat in script()[clip.scene]:
        flat = ["".join(tex.split()) for tex in beat.equations]
        for tex, f in zip(beat.equations, flat, strict=True):
            assert re.search(r"[A-Za-z0-9]", f), (beat.id, tex)
            assert not f.startswith(("&", "=", "+", "\\\\", ",")), (beat.id, tex)
            assert not any(f != other and f in other for other in flat), (beat.id, tex)


def test_the_sweeps_readouts_are_listed_with_their_values_at_each_beats_end():
    """Section 3's stops end at their temperatures: every readout listed is scipy's value there."""
    from scipy.special import softmax
    from scipy.stats import entropy

    from lecture.sections.s3_softmax_temperature import TemperatureParameters
    from scenes.s3_softmax_temperature import TemperatureSweep

    scores = TemperatureParameters().scores
    beats = {slug(b.id): b for b in script()["TemperatureSweep"]}
    for stop, tau, _seconds in TemperatureSweep.stops:
        a = softmax([s / tau for s in scores])
        expected_score = sum(w * s for w, s in zip(a, scores, strict=True))
        values = {
            r"\tau =": f"{tau:.2f}",
            "H(a) =": f"{entropy(a):.3f}",
            r"k_{\mathrm{eff}} =": f"{math.exp(entropy(a)):.2f}",
            r"\mathbb{E}_a[s] =": f"{expected_score:.3f}",
            r"J_{\tau}(a) =": f"{expected_score + tau * entropy(a):.2f}",
        }
        listed = {tex.rsplit(" ", 1)[0]: tex.rsplit(" ", 1)[1] for tex in beats[stop].equations if "=" in tex}
        shown = [label for label in values if label in listed]
        assert len(shown) >= 2, (stop, beats[stop].equations)
        for label in shown:
            assert listed[label] == values[label], (stop, label, listed[label], values[label])


@pytest.mark.parametrize("clip", CLIPS)
def test_the_words_on_screen_are_listed_with_their_beats(clip):
    """The transcript lists the words each beat shows (labels, names, notes): each one was drawn, none is a
    bare number, and every scene has some."""
    from tests.scenes.conftest import cached_run

    drawn = {"".join(text.split()) for text in cached_run(clip).drawn_texts}  # manim's Text drops spaces
    listed = [word for beat in script()[clip.scene] for word in beat.words]
    assert listed, f"{clip.scene}: no words recorded on screen"
    for word in listed:
        assert made_of("".join(word.split()), drawn) and re.search(r"[A-Za-z]{2}", word), (clip.scene, word)


def made_of(text: str, pieces: set[str]) -> bool:
    """``text`` is one drawn text, or lines drawn one after another (a wrapped block).

    >>> made_of("abcd", {"ab", "cd"}), made_of("abcd", {"abc"})
    (True, False)
    """
    return text in pieces or any(text.startswith(p) and made_of(text[len(p) :], pieces) for p in pieces if p)


def test_the_scores_source_is_listed_where_the_voice_names_it():
    """Section 3's scores come from one trained head: the note naming it is in the retrieval beat's words."""
    from attnmath.datasets import SCORE_HEAD

    beats = {slug(b.id): b for b in script()["TemperatureSweep"]}
    layer, head = SCORE_HEAD
    note = f"q from garden, k from each word: SmolLM2, layer {layer}, head {head}"
    assert note in beats["retrieval"].words and note not in beats["scores"].words
