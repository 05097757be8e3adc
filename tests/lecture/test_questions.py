"""Check-yourself questions: every number in a question or an answer equals an independent computation."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy.special import logsumexp
from scipy.special import softmax as scipy_softmax

from attnmath.datasets import RETRIEVAL_SCORES, noisy_sine
from lecture.clips import LECTURE, find_clip
from lecture.sections.s2_kernel_regression import KernelRegressionParameters
from lecture.sections.s3_softmax_temperature import TemperatureParameters
from tests import naive_decoder

NUMBER = re.compile(r"(?<![\w.^{])(-?\d[\d,]*(?:\.\d+)?)(?![\w}])")
"""Numbers as the questions write them (thousands separated by commas); not inside s_i or e^{...}."""


def numbers(text: str) -> list[str]:
    return [n.replace(",", "") for n in NUMBER.findall(text)]


Expected = list[tuple[list[str], list[str], list[str]]]
"""Per question: the numbers in its prompt, in its answer, and in its options with their reasons."""


def expected_fixed_vs_query() -> Expected:
    return [([], ["1"], ["1"]), ([], [], []), ([], [], [])]  # 1/N; the third's claim: tests/attnmath


def expected_kernel_regression() -> Expected:
    p = KernelRegressionParameters()
    _, y = noisy_sine(p.n_points, noise=p.noise, seed=p.seed)
    return [([], [f"{float(np.mean(y)):.2f}"], []), ([], [], []), ([], [], [])]


def expected_temperature() -> Expected:
    s, p = np.asarray(RETRIEVAL_SCORES), TemperatureParameters()
    hot = p.tau_range[1]
    e_hot = float(scipy_softmax(s / hot) @ s)
    best, shifted = 0.6 * logsumexp(s / 0.6), 0.6 * logsumexp((s + 5) / 0.6)
    assert shifted - best == pytest.approx(5)  # "rises by exactly 5"
    np.testing.assert_allclose(scipy_softmax((s + 5) / 0.6), scipy_softmax(s / 0.6))  # "the weights stay"
    np.testing.assert_allclose(scipy_softmax(2 * s / 1.2), scipy_softmax(s / 0.6))  # doubled at 1.2
    assert not np.allclose(scipy_softmax(2 * s / 0.6), scipy_softmax(s / 0.6))  # "as before" is wrong
    return [
        ([], [f"{sum(s) / len(s):.3f}", f"{hot:g}", f"{e_hot:.3f}"], []),
        (["5"], ["5", "5", "0.6", f"{best:.2f}", f"{shifted:.2f}"], ["5", "5"]),
        (["0.6"], [f"{2 * 0.6:g}"], [f"{2 * 0.6:g}", f"{0.6 / 2:g}", "0.6"]),
    ]


def expected_kernel_variants() -> Expected:
    n, w = 1000, 5  # keys kept, the query's own included
    window = sum(min(i + 1, w) for i in range(n))  # keys j with i - w < j <= i
    scores = ([str(w), str(n)], [str(window), str(n * (n + 1) // 2), "2"], [])
    slope, back = 0.25, 4  # the prior row's ALiBi slope (its title), and how much further back
    near, far = scipy_softmax([-slope * 3, -slope * (3 + back), 0.0])[:2]  # equal content, tau 1
    assert far / near == pytest.approx(math.exp(-1))  # "e^{-1}"
    alibi = (
        ["0.25", "1", "4"],
        [f"{far / near:.2f}", "0.25", "1", "4", "1"],
        [f"{math.exp(-slope):.2f}", "0.25", "1", "4", f"{far / near:.2f}"],  # the penalty charged once
    )
    return [([], ["1"], []), alibi, scores]


def expected_head_routing() -> Expected:
    return [([], [], []), ([], [], [])]


def expected_kv_cache() -> Expected:
    per_token = 2 * 32 * 32 * 128 * 2  # keys and values, layers, heads, width, fp16 bytes
    shared = 2 * 32 * 8 * 128 * 2  # the same with 8 key-value heads a layer: a quarter as much
    assert 4 * shared == per_token and 8 * shared // 2 == per_token  # the options: a quarter, not an eighth
    window, sinks, n = naive_decoder.WINDOW, naive_decoder.SINKS, 100_000
    kept = sum(1 for j in range(n) if j < sinks or n - 1 - j < window)  # keys the last token scores, counted
    state = 32 * 32 * (128 * 128 + 128) * 2 / 2**20  # a d x d matrix and a d-vector per layer and head, fp16
    cache, full = kept * per_token / 2**20, n * per_token / 2**30
    assert state < cache < 1.1 * state  # "a little more than the linear state"
    return [
        ([str(per_token // 1024), "32", "32", "32", "8"], [str(shared // 1024), "8", "32"], ["8", "32"]),
        ([str(per_token // 1024), str(sinks), str(window), str(n), f"{state:.2f}"],
         [f"{cache:.0f}", str(kept), str(per_token // 1024), str(n), f"{full:.0f}"],
         [f"{full:.0f}", str(kept), f"{cache:.0f}", str(kept), str(per_token // 1024), str(kept),
          f"{cache:.0f}"]),
        ([], [], []),  # the position-only head: no numbers
    ]  # fmt: skip


def expected_adaptive() -> Expected:
    e2 = math.exp(
        2.0
    )  # (2, 0, 0) and (3, 1, 1) differ by one: the same weights, e^2 / (e^2 + 2) and 1 / (e^2 + 2)
    weights = [f"{e2 / (e2 + 2):.2f}", f"{1 / (e2 + 2):.2f}", f"{1 / (e2 + 2):.2f}"]
    two = (["2", "0", "0", "3", "1", "1", "1"], weights, [])
    return [([], [], []), two]


EXPECTED = {
    "FixedVsQueryWeights": expected_fixed_vs_query,
    "KernelRegressionCollapse": expected_kernel_regression,
    "TemperatureSweep": expected_temperature,
    "KernelVariants": expected_kernel_variants,
    "HeadRouting": expected_head_routing,
    "KVCacheGrowth": expected_kv_cache,
    "AdaptiveSufficiency": expected_adaptive,
}


@pytest.mark.xdist_group("decoder")  # section 6's perplexities load the decoder (tests/conftest.py)
@pytest.mark.parametrize("scene", sorted(EXPECTED))
def test_every_number_in_questions_and_answers_is_computed(scene):
    got = [
        (numbers(q.prompt), numbers(q.answer), numbers(" ".join(f"{o.text} {o.why_not}" for o in q.options)))
        for q in find_clip(scene).ask()
    ]
    assert got == EXPECTED[scene]()


def test_every_question_offers_choices_with_a_reason_for_each_wrong_one():
    """Every question is multiple choice, so a course platform can mark it and say why an option is wrong."""
    for section in LECTURE[1:]:
        for q in section.ask():
            assert 3 <= len(q.options) <= 4 and q.right >= 0, q.prompt
            for option in q.options:
                why = option.why_not
                assert option.right or (why and why.endswith(".") and why.count(". ") == 0), q.prompt


def test_every_section_but_the_title_has_two_or_three_questions():
    assert not find_clip("LectureTitle").ask()
    for section in LECTURE[1:]:
        qs, scene = section.ask(), section.scene
        assert 2 <= len(qs) <= 3, scene
        assert qs[0].spoken.startswith("Pause and predict") and qs[0].spoken_answer, scene
        assert all(q.prompt.rstrip().endswith("?") for q in qs), scene


def test_answers_follow_the_lecturers_data():
    scores = TemperatureParameters(scores=(1.0, 2.0, 4.0))
    hot, shifted = find_clip("TemperatureSweep").ask(scores)[:2]
    assert hot.answer.startswith("The plain mean of the scores, 2.333:")
    best = 0.6 * logsumexp(np.array([1.0, 2.0, 4.0]) / 0.6)
    assert shifted.answer.endswith(f"(at \u03c4 = 0.6, from {best:.2f} to {best + 5:.2f}).")


SECTIONS = [pytest.param(s, id=s.scene) for s in LECTURE[1:]]


@pytest.mark.parametrize("section", SECTIONS)
def test_the_pause_and_predict_question_offers_choices_with_reasons(section):
    asked = section.ask()[0]
    assert 3 <= len(asked.options) <= 4
    assert [o.right for o in asked.options].count(True) == 1
    for option in asked.options:
        assert option.text and len(option.text.split()) <= 8, option.text  # fits a row of the card
        if not option.right:  # one sentence that says why
            why = option.why_not or ""
            assert why.endswith(".") and why.count(". ") == 0 and len(why.split()) <= 25, why
    assert asked.said_answer.startswith("ABCD"[asked.right] + ". ")


def test_the_right_answers_are_not_all_in_one_place():
    places = [s.ask()[0].right for s in LECTURE[1:]]
    assert set(places) == {0, 1, 2}  # A, B and C each right somewhere: no letter is a safe guess
    assert max(places.count(p) for p in set(places)) <= len(places) // 2


@pytest.mark.parametrize("section", SECTIONS)
def test_no_question_asks_for_a_section_or_names_a_later_one(section):
    number = int(section.number)
    words = ("zero", "one", "two", "three", "four", "five", "six", "seven")
    for q in section.ask():
        text = f"{q.prompt} {q.spoken} {' '.join(o.text for o in q.options)}".lower()
        assert "which section" not in text, q.prompt
        for later in words[number + 1 :]:
            assert f"section {later}" not in f"{text} {q.answer.lower()}", q.prompt
