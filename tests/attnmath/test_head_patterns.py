"""Head pattern scores on attention whose answer is known by hand, then on the real model's heads."""

import math

import numpy as np
import pytest

from attnmath.head_patterns import (
    MATCH_THRESHOLD,
    SINK_THRESHOLD,
    attention_sink,
    decay_overlap,
    decay_profile,
    head_scores,
    mass_on,
    match_stylised,
    mean_distance,
    next_token_score,
    previous_token_score,
    punctuation_tokens,
    real_heads,
    self_score,
    spread,
    target_score,
    word_attention,
)
from attnmath.heads import DEFAULT_SENTENCE, HEAD_NAMES, Sentence, stylized_heads

pytestmark = [pytest.mark.filterwarnings("error"), pytest.mark.xdist_group("encoder")]  # one model load

# DEFAULT_SENTENCE as the model sees it: one token per word, [CLS] first, [SEP] last.
TOKENS = ["[CLS]", *(w.lower() for w in DEFAULT_SENTENCE.texts), "[SEP]"]
WORD_IDS = np.array([-1, *range(len(DEFAULT_SENTENCE)), -1])
T = len(TOKENS)


def previous_head(t):
    a = np.eye(t, k=-1)
    a[0, 0] = 1.0
    return a


def uniform_head(t):
    return np.full((t, t), 1.0 / t)


def on_token(t, j):
    a = np.zeros((t, t))
    a[:, j] = 1.0
    return a


def from_words(word_weights):
    """Token attention for DEFAULT_SENTENCE from (W, W) word weights; [CLS] and [SEP] rows on [CLS]."""
    a = on_token(T, 0)
    a[1:-1] = 0.0
    a[1:-1, 1:-1] = word_weights
    return a


# --- each score on hand-made heads -------------------------------------------------------------
def test_a_perfect_previous_token_head_scores_one():
    assert previous_token_score(previous_head(6)) == 1.0
    assert next_token_score(previous_head(6)) == 0.0
    assert self_score(previous_head(6), np.arange(6) >= 1) == 0.0


def test_next_and_self_heads():
    assert next_token_score(np.eye(5, k=1)) == 1.0
    assert self_score(np.eye(5)) == 1.0
    assert math.isclose(float(self_score(uniform_head(4))), 0.25)


def test_scores_keep_leading_axes():
    stack = np.stack([[previous_head(4), np.eye(4)], [uniform_head(4)] * 2])  # (2, 2, 4, 4)
    assert previous_token_score(stack).tolist() == [[1.0, 0.0], [0.25, 0.25]]


def test_mass_on_keys_by_mask_or_index_and_queries():
    a = np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])
    assert math.isclose(float(mass_on(a, [0])), 0.5)
    assert math.isclose(float(mass_on(a, np.array([True, False, True]))), (0.5 + 1.0 + 0.5) / 3)
    assert math.isclose(float(mass_on(a, [0], np.array([True, True, False]))), 0.75)


def test_mean_distance_by_hand():
    assert mean_distance(np.eye(4)) == 0.0
    assert mean_distance(np.eye(5, k=-2), np.arange(5) >= 2) == 2.0
    # uniform over 3 tokens: rows' mean distances 1, 2/3, 1
    assert math.isclose(float(mean_distance(uniform_head(3))), 8 / 9)


def test_decay_overlap_is_one_for_the_profile_and_a_diagonal_share_for_a_self_head():
    lam = 0.7
    assert math.isclose(float(decay_overlap(decay_profile(7, lam), lam)), 1.0)
    want = 1.0 / (1.0 + math.exp(-lam))  # T = 2: each row's profile is (1, e^-lam) / (1 + e^-lam)
    assert math.isclose(float(decay_overlap(np.eye(2), lam)), want)
    assert decay_overlap(decay_profile(7, lam), lam) > decay_overlap(uniform_head(7), lam)


def test_decay_profile_matches_the_stylised_h3_without_its_causal_mask():
    h3 = stylized_heads(DEFAULT_SENTENCE, causal=False, decay=0.7).weights[2]
    assert np.allclose(h3, decay_profile(len(DEFAULT_SENTENCE), 0.7))


def test_spread_is_one_for_uniform_and_one_over_t_for_one_hot():
    assert math.isclose(float(spread(uniform_head(5))), 1.0)
    assert math.isclose(float(spread(np.eye(5))), 0.2)


def test_target_score_pools_word_pieces():
    # tokens: [CLS], w0, w1 (two pieces), [SEP]; word 1 should look at word 0
    a = np.array(
        [
            [1.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0, 0.0],
            [0.1, 0.6, 0.3, 0.0, 0.0],
            [0.0, 0.2, 0.4, 0.4, 0.0],
            [1.0, 0.0, 0.0, 0.0, 0.0],
        ]
    )
    targets = np.array([[False, False], [True, False]])
    assert math.isclose(float(target_score(a, [-1, 0, 1, 1, -1], targets)), (0.6 + 0.2) / 2)
    targets_self = np.array([[False, False], [False, True]])  # both pieces of word 1
    assert math.isclose(float(target_score(a, [-1, 0, 1, 1, -1], targets_self)), (0.3 + 0.8) / 2)


def test_word_attention_pools_pieces_as_target_score_does():
    rng = np.random.default_rng(0)
    a = rng.dirichlet(np.ones(6), size=(2, 6))  # (2, T, T): tokens [CLS], w0, w1 (two pieces), w2, [SEP]
    tokens, ids = ["[CLS]", "dogs", "chas", "##ed", "it", "[SEP]"], [-1, 0, 1, 1, 2, -1]
    w = word_attention(a, tokens, ids)
    assert w.queries == ("dogs", "chased", "it") and w.keys == ("[CLS]", "dogs", "chased", "it", "[SEP]")
    assert w.weights.shape == (2, 3, 5)
    assert np.allclose(w.weights.sum(axis=-1), 1.0)
    cls_share = np.stack(
        [a[:, 1, 0], a[:, 2:4, 0].mean(axis=1), a[:, 4, 0]], axis=1
    )  # the query pieces averaged
    assert np.allclose(w.weights[..., 0], cls_share)
    assert np.allclose(w.weights[:, 0, 2], a[:, 1, 2] + a[:, 1, 3])  # the key pieces summed
    for q in range(3):
        for k in range(3):
            targets = np.zeros((3, 3), bool)
            targets[q, k] = True
            assert np.allclose(w.weights[:, q, k + 1], target_score(a, ids, targets))
    assert word_attention(a, tokens, ids, ["Dogs", "chased", "it"]).queries[0] == "Dogs"
    with pytest.raises(ValueError, match="words"):
        word_attention(a, tokens, ids, ["Dogs"])


def test_punctuation_tokens():
    marks = punctuation_tokens(["[CLS]", "dog", ".", "'", "s", "!?", "##s", "[SEP]"])
    assert np.flatnonzero(marks).tolist() == [2, 3, 5]


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: previous_token_score(np.ones((2, 3))), "attention"),
        (lambda: previous_token_score(-np.eye(3)), "attention"),
        (lambda: self_score(np.eye(3), np.ones(3)), "queries"),
        (lambda: mass_on(np.eye(3), [5]), "keys"),
        (lambda: decay_overlap(np.eye(3), 0.0), "decay"),
        (lambda: target_score(np.eye(3), [0, 1, 1], np.zeros((2, 2), bool)), "targets"),
        (lambda: target_score(np.eye(3), [0, 0, 0], np.ones((2, 2), bool)), "targets"),
        (lambda: head_scores(np.eye(3), ["a", "b", "c"], [0, 1, 2]), "attention"),
        (lambda: spread(np.ones((3, 3))), "attention"),
        (lambda: head_scores(np.ones((1, 1, 3, 3)) / 3, ["a", "b"], [0, 1, 2]), "tokens"),
        (lambda: head_scores(np.ones((1, 1, 3, 3)) / 3, ["a", "b", "c"], [0, 1]), "word_ids"),
    ],
)
def test_bad_arguments_are_named(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# --- whole-sentence scores and matching on hand-made heads -------------------------------------
def synthetic_layer():
    """(1, 4, T, T): previous-token, uniform, [CLS] sink, and the stylised syntax head's targets."""
    syntax = stylized_heads(DEFAULT_SENTENCE).targets[1].astype(float)
    syntax /= syntax.sum(axis=1, keepdims=True)
    return np.stack([previous_head(T), uniform_head(T), on_token(T, 0), from_words(syntax)])[None]


def test_head_scores_by_hand():
    s = head_scores(synthetic_layer(), TOKENS, WORD_IDS, DEFAULT_SENTENCE)
    assert s.previous.shape == (1, 4)
    # queries: the 9 words after the first; the syntax head's "chased" looks one back, at "cat"
    assert np.allclose(s.previous[0], [1.0, 1 / T, 0.0, 1 / 9])
    assert np.allclose(s.cls[0], [1 / (T - 2), 1 / T, 1.0, 0.0])
    assert np.allclose(s.sep[0], [0.0, 1 / T, 0.0, 0.0])
    assert np.allclose(s.punctuation, 0.0)  # the sentence has no punctuation
    assert np.allclose(s.syntax[0, 3], 1.0)  # "chased" -> "cat", "across" -> "chased", all of it
    assert s.syntax[0, 0] == pytest.approx(0.5)  # "cat" is just before "chased": the previous head gets half
    assert s.spread[0, 1] == pytest.approx(1.0)


def test_matching_reports_the_best_head_and_never_assumes_a_match():
    scores = head_scores(synthetic_layer(), TOKENS, WORD_IDS, DEFAULT_SENTENCE)
    matches = {m.stylised: m for m in match_stylised(scores)}
    assert [m.name for m in matches.values()] == list(HEAD_NAMES)
    assert (matches["H1"].layer, matches["H1"].head, matches["H1"].matched) == (0, 0, True)
    assert (matches["H2"].head, matches["H2"].score, matches["H2"].matched) == (3, pytest.approx(1.0), True)
    assert not matches["H3"].matched  # no head here decays smoothly with distance
    assert matches["H3"].score < MATCH_THRESHOLD
    only_uniform = np.broadcast_to(uniform_head(T), (2, 3, T, T))
    found = match_stylised(head_scores(only_uniform, TOKENS, WORD_IDS, DEFAULT_SENTENCE))
    assert not any(m.matched for m in found)


def test_without_a_sentence_only_the_unannotated_heads_are_matched():
    found = match_stylised(head_scores(synthetic_layer(), TOKENS, WORD_IDS))
    assert [m.stylised for m in found] == ["H1", "H3"]


def test_attention_sink_finds_the_cls_head():
    sink = attention_sink(head_scores(synthetic_layer(), TOKENS, WORD_IDS))
    assert (sink.token, sink.layer, sink.head, sink.weight, sink.is_sink) == ("[CLS]", 0, 2, 1.0, True)
    none = attention_sink(head_scores(np.broadcast_to(uniform_head(T), (1, 2, T, T)), TOKENS, WORD_IDS))
    assert none.weight == pytest.approx(1 / T) and not none.is_sink and none.threshold == SINK_THRESHOLD


def test_a_sentence_without_annotations_leaves_h2_and_h4_unmeasured():
    bare = Sentence.from_dict({"tokens": [{"text": w, "pos": "NOUN"} for w in DEFAULT_SENTENCE.texts]})
    scores = head_scores(synthetic_layer(), TOKENS, WORD_IDS, bare)
    assert scores.syntax is None and scores.modifiers is None
    assert [m.stylised for m in match_stylised(scores)] == ["H1", "H3"]


def test_head_scores_checks_the_sentence_against_word_ids():
    short = Sentence.from_dict({"tokens": [{"text": "a", "pos": "DET"}, {"text": "b", "pos": "NOUN"}]})
    with pytest.raises(ValueError, match="word_ids"):
        head_scores(synthetic_layer(), TOKENS, WORD_IDS, short)


# --- the real model ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def measured():
    return real_heads(DEFAULT_SENTENCE)


def test_the_real_model_has_a_previous_token_head(measured):
    best = measured.matches[0]
    assert best.stylised == "H1" and best.matched
    # The pinned all-MiniLM-L6-v2 (digests checked by tools/check_model.py): layer 0, head 2 (0-based).
    assert (best.layer, best.head) == (0, 2)
    assert best.score > 0.99
    assert best.score == measured.scores.previous.max()


def test_real_matches_are_reported_for_every_stylised_head(measured):
    assert [m.stylised for m in measured.matches] == ["H1", "H2", "H3", "H4"]
    for m in measured.matches:
        assert 0.0 <= m.score <= 1.0
        assert m.matched == (m.score >= MATCH_THRESHOLD)
        assert m.score == pytest.approx(float(getattr(measured.scores, m.score_name).max()))


def test_the_real_model_parks_weight_on_cls(measured):
    assert measured.sink.token == "[CLS]" and measured.sink.is_sink
    assert measured.sink.mean_weight > 0.3  # a large share across all 72 heads, not one odd head
    assert np.allclose(measured.run.attention.sum(axis=-1), 1.0)


def test_the_real_heads_word_maps(measured):
    words = measured.words
    n = len(DEFAULT_SENTENCE)
    assert words.queries == DEFAULT_SENTENCE.texts and words.keys == (
        "[CLS]",
        *DEFAULT_SENTENCE.texts,
        "[SEP]",
    )
    assert words.weights.shape == (6, 12, n, n + 2)
    assert np.allclose(words.weights.sum(axis=-1), 1.0)
    assert np.allclose(words.weights[..., 0].mean(axis=-1), measured.scores.cls)  # one token per word here
