"""One running sentence: sections 0 and 3 to 6 draw its words, and section 3's and 4's descriptions name them.

The words are read off the scene runs (every text on screen after each play); the tallest keys are found by
a plain sort and a naive loop over the section's data, not by the scenes' code.
"""

from __future__ import annotations

import math
import re

import pytest

from attnmath import DEFAULT_SENTENCE
from attnmath.datasets import RETRIEVAL_SCORES, RETRIEVAL_WORDS
from lecture.clips import find_clip
from tests.scenes.conftest import cached_run
from tests.scenes.script_text import script, slug

pytestmark = pytest.mark.xdist_group("scene-runs")

WORDS = tuple(t.text for t in DEFAULT_SENTENCE.tokens)


def drawn_words(scene: str) -> set[str]:
    """Every word drawn in the scene's run, lower-cased, punctuation stripped."""
    texts = cached_run(find_clip(scene)).drawn_texts
    return {w.lower() for text in texts for w in re.findall(r"[A-Za-z]+", text)}


@pytest.mark.parametrize("scene", ["LectureTitle", "TemperatureSweep", "KernelVariants", "HeadRouting"])
def test_each_section_that_uses_tokens_draws_the_running_sentence(scene):
    assert RETRIEVAL_WORDS == WORDS  # section 3's items are the sentence section 5 reads
    missing = {w.lower() for w in WORDS} - drawn_words(scene)
    assert not missing, f"{scene} never draws {sorted(missing)}"


def test_section_six_decodes_the_running_sentence():
    missing = {w.lower() for w in WORDS} - drawn_words("KVCacheGrowth")
    assert not missing


def description(scene: str, beat: str) -> str:
    return next(b.description.text for b in script()[scene] if slug(b.id) == beat)


def test_section_three_names_its_tallest_scores_by_number_and_word():
    top = sorted(range(len(RETRIEVAL_SCORES)), key=lambda i: -RETRIEVAL_SCORES[i])[:3]
    said = description("TemperatureSweep", "scores")
    assert "; ".join(f"{i + 1}, {WORDS[i]}" for i in top) in said, said


def test_section_four_says_which_key_the_alibi_prior_makes_win():
    """Content alone: the top score; with ALiBi (slope 0.25, the query last): the top of s_j - 0.25 d_j."""
    n = len(RETRIEVAL_SCORES)
    content = max(range(n), key=lambda j: RETRIEVAL_SCORES[j])
    logs = [RETRIEVAL_SCORES[j] + math.log(math.exp(-0.25 * (n - 1 - j))) for j in range(n)]
    prior = max(range(n), key=lambda j: logs[j])
    assert (WORDS[prior], WORDS[content]) == ("garden", "dog")  # the prior moves the weight to recent keys
    said = description("KernelVariants", "alibi-prior")
    assert f"{WORDS[prior]} towers over {WORDS[content]}" in said, said
