"""Multi-head attention against a naive per-head loop; the four stylised heads' properties."""

import math

import numpy as np
import pytest

from attnmath import attention, causal_mask
from attnmath.heads import DEFAULT_SENTENCE, Sentence, stylized_heads
from attnmath.multihead import multi_head_attention

pytestmark = pytest.mark.filterwarnings("error")
RNG = np.random.default_rng(9)


def naive_mha(x, w_q, w_k, w_v, w_o, h, mask=None):
    t, width = x.shape[0], w_q.shape[1]
    d = width // h
    heads = []
    for k in range(h):
        cols = slice(k * d, (k + 1) * d)
        q, kk, v = x @ w_q[:, cols], x @ w_k[:, cols], x @ w_v[:, cols]
        out = np.zeros((t, v.shape[1]))
        for i in range(t):
            scores = [
                float(q[i] @ kk[j]) / math.sqrt(d) if mask is None or mask[i, j] else -math.inf
                for j in range(t)
            ]
            m = max(scores)
            e = [math.exp(s - m) if s > -math.inf else 0.0 for s in scores]
            out[i] = sum(e[j] / sum(e) * v[j] for j in range(t))
        heads.append(out)
    return np.concatenate(heads, axis=1) @ w_o


@pytest.mark.parametrize("causal", [False, True])
def test_matches_naive_per_head_loop_and_attention_per_head(causal):
    x = RNG.normal(size=(6, 8))
    w_q, w_k, w_v = (RNG.normal(size=(8, 12)) for _ in range(3))
    w_o = RNG.normal(size=(12, 5))
    mask = causal_mask(6) if causal else None
    res = multi_head_attention(x, w_q, w_k, w_v, w_o, 3, mask=mask)
    np.testing.assert_allclose(res.output, naive_mha(x, w_q, w_k, w_v, w_o, 3, mask), rtol=1e-10)
    for h in range(3):
        cols = slice(4 * h, 4 * h + 4)
        single = attention(x @ w_q[:, cols], x @ w_k[:, cols], x @ w_v[:, cols], mask=mask)
        np.testing.assert_allclose(res.weights[h], single.weights)
        np.testing.assert_allclose(res.head_outputs[h], single.output)
        np.testing.assert_allclose(res.concat[:, cols], single.output)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (
            (np.ones((4, 3)), np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 4)), np.ones((4, 2)), 3),
            "not divisible",
        ),
        (
            (np.ones((4, 3)), np.ones((2, 4)), np.ones((3, 4)), np.ones((3, 4)), np.ones((4, 2)), 2),
            "w_q must have",
        ),
        (
            (np.ones((4, 3)), np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 2)), 2),
            "w_o must have",
        ),
        (
            (np.ones((4, 3)), np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 4)), np.ones((4, 2)), 0),
            "n_heads must",
        ),
    ],
)
def test_bad_shapes(args, match):
    with pytest.raises(ValueError, match=match):
        multi_head_attention(*args)


@pytest.mark.parametrize("causal", [False, True])
def test_stylized_heads_do_what_they_say(causal):
    heads = stylized_heads(causal=causal)
    w = heads.weights
    n = len(DEFAULT_SENTENCE)
    np.testing.assert_allclose(w.sum(-1), 1.0)
    # H1: previous token
    assert list(np.argmax(w[0, 1:], axis=-1)) == list(range(n - 1))
    # H2, H4: mass on the annotated targets
    for h in (1, 3):
        assert np.all((w[h] * heads.targets[h]).sum(-1) > 0.95)
    # H3: weights fall with distance, on both sides of the diagonal
    for i in range(n):
        left, right = w[2, i, : i + 1], w[2, i, i:]
        assert np.all(np.diff(left) > 0)
        if not causal:
            assert np.all(np.diff(right) < 0)
    if causal:
        assert np.all(w[:, ~causal_mask(n)] == 0.0)


def test_syntax_head_points_verbs_to_subjects():
    w = stylized_heads().weights[1]
    texts = DEFAULT_SENTENCE.texts
    assert texts[int(np.argmax(w[texts.index("chased")]))] == "cat"
    assert texts[int(np.argmax(w[texts.index("across")]))] == "chased"


def test_head_outputs_are_where_each_head_looked():
    heads = stylized_heads()
    np.testing.assert_allclose(heads.result.head_outputs, heads.weights)


def tok(**kw):
    return {"text": "w", "pos": "NOUN", **kw}


@pytest.mark.parametrize(
    ("tokens", "error", "match"),
    [
        (
            [tok(), {"text": "ran", "pos": "VERB", "subject": 5}],
            ValueError,
            "subject 5 must be another token",
        ),
        ([tok(), {"text": "ran", "pos": "VERB", "subject": 1}], ValueError, "must be another token"),
        ([tok(), {"text": "x", "pos": "VERBISH"}], ValueError, "unknown role 'VERBISH'"),
        ([tok(), tok(subject=0)], ValueError, "only a VERB has a subject"),
        ([tok(), tok(colour="red")], ValueError, "unknown key"),
        ([tok(), tok(phrase=-1)], ValueError, "phrase must be an integer >= 0"),
        ([tok()], ValueError, "at least 2 tokens"),
        ([tok(), "dog"], TypeError, "token 1 must be a table"),
    ],
)
def test_bad_annotations_are_rejected(tokens, error, match):
    with pytest.raises(error, match=match):
        Sentence.from_dict({"tokens": tokens})


def test_a_lecturers_sentence_works():
    s = Sentence.from_dict(
        {
            "tokens": [
                {"text": "Dogs", "pos": "NOUN", "phrase": 0},
                {"text": "bark", "pos": "VERB", "subject": 0},
                {"text": "at", "pos": "PREP", "head": 1},
                {"text": "night", "pos": "NOUN", "phrase": 1},
            ]
        }
    )
    w = stylized_heads(s).weights
    assert w.shape == (4, 4, 4)
    assert int(np.argmax(w[1, 1])) == 0


def test_the_decay_heads_weight_roughly_halves_per_word_back():
    """Section 5 describes head three's causal rows so: each word back keeps about half the weight of
    the word after it (read off the weights, not the decay setting)."""
    w = stylized_heads(causal=True).weights[2]
    ratios = [w[i, j - 1] / w[i, j] for i in range(len(w)) for j in range(1, i + 1)]
    assert ratios and all(0.45 < r < 0.55 for r in ratios), ratios
