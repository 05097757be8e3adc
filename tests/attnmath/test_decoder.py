"""SmolLM2-135M-Instruct in numpy: known continuations, the KV cache, causal rows, a naive head, refusals."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.special import log_softmax

from attnmath.decoder import (
    cache_bytes,
    causal_mask,
    detokenize,
    forward,
    greedy_next_token,
    token_texts,
    tokenize,
    window_mask,
)
from attnmath.decoder_cache import IncrementalDecoder
from attnmath.decoder_probes import head_scores, repeated_random_tokens, token_nll, trailing_mean, window_nll
from attnmath.decoder_weights import MAX_TOKENS, MODEL_FILE, cache_path, load_decoder
from attnmath.kvcache import streaming_keep

# tests that share the loaded model run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("decoder")

REPO = Path(__file__).resolve().parents[2]
SENTENCE = "The cat sat on the mat. The dog sat on the"


@pytest.fixture(scope="module")
def decoder():
    return load_decoder()


@pytest.fixture(scope="module")
def run(decoder):
    return forward(SENTENCE)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The capital of France is", " Paris"),
        ("One, two, three, four, five,", " six"),
        (SENTENCE, " mat"),
    ],
)
def test_known_greedy_continuations(decoder, text, expected):
    assert greedy_next_token(text) == expected


def test_tokenizer_splits_words_and_each_digit(decoder):
    assert token_texts(tokenize("One, two, three")) == ("One", ",", " two", ",", " three")
    assert token_texts(tokenize("In 2024")) == ("In", " ", "2", "0", "2", "4")
    assert detokenize(tokenize("One, two, 2024\n\nthree")) == "One, two, 2024\n\nthree"


def test_cached_decoding_equals_the_full_causal_pass(run):
    cached = IncrementalDecoder()
    steps = [cached.append(int(i)) for i in run.ids]
    logits = np.stack([s.logits for s in steps])
    assert np.abs(logits - run.logits).max() < 1e-3
    for s in steps:
        np.testing.assert_allclose(s.attention, run.attention[:, :, s.position, : s.position + 1], atol=1e-5)
    np.testing.assert_allclose(cached.keys, run.keys, atol=1e-4)
    np.testing.assert_allclose(cached.values, run.values, atol=1e-4)


def test_every_attention_row_is_a_distribution_with_no_weight_on_the_future(run):
    n = len(run)
    assert run.attention.shape == (30, 9, n, n)
    assert (run.attention >= 0).all()
    np.testing.assert_allclose(run.attention.sum(axis=-1), 1.0, atol=1e-9)
    future = np.triu(np.ones((n, n), dtype=bool), k=1)
    assert (run.attention[..., future] == 0).all()


def test_cache_bytes_are_the_written_out_count(run):
    per_token_fp16 = 30 * 2 * 3 * 64 * 2  # layers x (keys, values) x KV heads x head width x bytes
    assert cache_bytes() == per_token_fp16 == 23040
    assert cache_bytes(100) == 100 * per_token_fp16
    assert cache_bytes(n_kv_heads=9) == 30 * 2 * 9 * 64 * 2
    cached = IncrementalDecoder()
    ids = np.concatenate([run.ids, run.ids])  # past the first 16 slots: the storage grows
    for n, i in enumerate(ids, start=1):
        cached.append(int(i))
        assert cached.keys.shape == cached.values.shape == (30, 3, n, 64)
        assert cached.nbytes == n * 30 * 2 * 3 * 64 * 4  # float32
    assert cached.nbytes == cache_bytes(len(ids), bytes_per_element=4)


def _naive_rope(vector, position, base=100000.0):
    out = list(vector)
    for i in range(0, len(vector), 2):  # adjacent pairs, as the GGUF file lays them out
        angle = position * base ** (-i / len(vector))
        c, s = math.cos(angle), math.sin(angle)
        out[i] = vector[i] * c - vector[i + 1] * s
        out[i + 1] = vector[i] * s + vector[i + 1] * c
    return out


@pytest.mark.parametrize(("layer", "head"), [(0, 0), (16, 4), (29, 8)])
def test_one_head_by_a_plain_loop_matches_the_vectorised_pass(decoder, run, layer, head):
    """From the layer's input: RMSNorm, the head's q and k (its KV head: head // 3), RoPE, causal softmax."""
    weights = decoder.layers[layer]
    x = run.hidden[layer].astype(np.float64)
    normed = x / np.sqrt((x**2).mean(axis=1, keepdims=True) + decoder.eps) * weights.attn_norm
    q = normed @ weights.w_q[:, head * 64 : (head + 1) * 64]
    k = normed @ weights.w_k[:, (head // 3) * 64 : (head // 3 + 1) * 64]
    n = len(run)
    qs = [_naive_rope(q[t].tolist(), t) for t in range(n)]
    ks = [_naive_rope(k[t].tolist(), t) for t in range(n)]
    expected = np.zeros((n, n))
    for t in range(n):
        scores = [sum(a * b for a, b in zip(qs[t], ks[j], strict=True)) / 8.0 for j in range(t + 1)]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        for j in range(t + 1):
            expected[t, j] = exps[j] / sum(exps)
    np.testing.assert_allclose(run.attention[layer, head], expected, atol=2e-4)


def test_window_mask_keeps_what_a_streaming_cache_keeps():
    n, window, sinks = 12, 4, 2
    mask = window_mask(n, window, sinks)
    for t in range(n):
        assert np.flatnonzero(mask[t]).tolist() == streaming_keep(t + 1, sinks, window).tolist()
    assert (window_mask(n, n) == causal_mask(n)).all()


def test_a_windowed_pass_puts_no_weight_outside_the_window(run):
    n = len(run)
    masked = forward(run.ids, allowed=window_mask(n, 3, sinks=1))
    outside = ~window_mask(n, 3, sinks=1)
    assert (masked.attention[..., outside] == 0).all()
    np.testing.assert_allclose(masked.attention.sum(axis=-1), 1.0, atol=1e-9)


def test_nll_is_the_log_softmax_of_the_logits_and_a_full_window_changes_nothing(run):
    expected = -log_softmax(run.logits[:-1].astype(np.float64), axis=-1)[np.arange(len(run) - 1), run.ids[1:]]
    np.testing.assert_allclose(token_nll(run.ids), expected, atol=1e-4)
    np.testing.assert_allclose(token_nll(run.ids, window_mask(len(run), len(run))), expected, atol=1e-4)
    result = window_nll(run.ids, window=4, sinks=1, start=6, use_cache=False)
    assert result.full == pytest.approx(expected[6:].mean(), abs=1e-4)
    assert result.perplexities[0] == pytest.approx(math.exp(result.full))


def test_kept_means_are_read_back_for_the_same_tokens_only(run, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # an empty cache folder
    computed = window_nll(run.ids, window=4, sinks=1, start=6)
    kept = sorted((tmp_path / "attention-lecture" / "results").glob("window-nll-*.json"))
    assert len(kept) == 1 and computed == window_nll(run.ids, window=4, sinks=1, start=6, use_cache=False)
    np.testing.assert_allclose(computed.losses[1], token_nll(run.ids, window_mask(len(run), 4)), atol=1e-9)
    planted = np.arange(3.0)[:, None] + np.zeros(len(run) - 1)
    kept[0].write_text(json.dumps({"losses": planted.tolist()}))  # what is kept is what is read
    assert (window_nll(run.ids, window=4, sinks=1, start=6).windowed, len(kept)) == (1.0, 1)
    other = window_nll(run.ids, window=5, sinks=1, start=6)  # other inputs: computed, kept apart
    assert other.windowed != 1.0 and len(list(kept[0].parent.iterdir())) == 2
    for spoiled in ("{half-written", json.dumps({"losses": planted[:, 1:].tolist()}), '{"losses": 3}'):
        kept[0].write_text(spoiled)
        assert window_nll(run.ids, window=4, sinks=1, start=6) == computed


def test_the_induction_copy_of_a_repeated_random_sequence(decoder):
    heads = head_scores(repeated_random_tokens(20, seed=0))
    assert heads.induction.shape == heads.previous.shape == heads.sink.shape == (30, 9)
    assert heads.best_induction[2] > 0.5 > 0.1 > heads.typical_induction
    assert heads.best_previous[2] > 0.5
    assert 0 < heads.sink_heads < 270
    assert heads.copy_accuracy > 0.3
    with pytest.raises(ValueError, match="repeated|again"):
        head_scores(repeated_random_tokens(5, seed=0)[:-1])


def test_a_text_longer_than_the_limit_gets_one_clear_error(decoder):
    long_text = " a" * (MAX_TOKENS + 10)
    with pytest.raises(ValueError, match=f"more than the {MAX_TOKENS}"):
        forward(long_text)
    with pytest.raises(ValueError, match=f"more than the {MAX_TOKENS}"):
        forward(np.zeros(MAX_TOKENS + 1, dtype=int))


def test_bad_masks_are_refused(run):
    n = len(run)
    with pytest.raises(ValueError, match="boolean"):
        forward(run.ids, allowed=np.ones((n, n)))
    with pytest.raises(ValueError, match="itself"):
        forward(run.ids, allowed=np.zeros((n, n), dtype=bool))


def test_the_weights_cache_lives_in_the_user_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_path("0" * 64).parent == tmp_path / "attention-lecture"


def test_import_reads_no_model():
    code = (
        "import sys, attnmath, attnmath.decoder as d, attnmath.decoder_probes; "
        "print(d.load_decoder.cache_info().currsize, 'gguf' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "False"]


def check_decoder(*args):
    return subprocess.run(
        [sys.executable, str(REPO / "tools" / "check_decoder.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_decoder_accepts_the_installed_file():
    done = check_decoder()
    assert done.returncode == 0, done.stderr
    assert "decoder checked" in done.stdout


def test_check_decoder_refuses_a_changed_file(tmp_path):
    (tmp_path / MODEL_FILE).write_bytes(b"GGUF not the pinned model")
    done = check_decoder("--model-dir", str(tmp_path))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and MODEL_FILE in lines[0] and "refusing" in lines[0]


def test_check_decoder_refuses_a_missing_file(tmp_path):
    done = check_decoder("--model-dir", str(tmp_path))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "is missing" in lines[0]


def test_trailing_means_match_a_loop_and_refuse_too_few_values():
    x = np.random.default_rng(1).normal(size=40)
    want = [sum(x[k : k + 7]) / 7 for k in range(34)]
    np.testing.assert_allclose(trailing_mean(x, 7), want, atol=1e-12)
    np.testing.assert_allclose(trailing_mean(x, 1), x)
    for bad in ((x[:3], 4), (x.reshape(8, 5), 2)):
        with pytest.raises(ValueError, match="at least width"):
            trailing_mean(*bad)
    with pytest.raises(ValueError, match="width"):
        trailing_mean(x, 0)


def test_section_three_scores_are_one_heads_q_dot_k_from_garden(decoder):
    """Section 3's default scores: layer 28, head 8's q . k_i / 8 from "garden" to each word, by a loop over
    the 64 entries, rounded to one decimal; unrounded, their softmax is the model's own attention row."""
    from attnmath import DEFAULT_SENTENCE
    from attnmath.datasets import RETRIEVAL_SCORES, RETRIEVAL_WORDS, SCORE_HEAD

    assert RETRIEVAL_WORDS == tuple(t.text for t in DEFAULT_SENTENCE.tokens)
    run = forward(" ".join(RETRIEVAL_WORDS))
    assert token_texts(run.ids) == tuple(w if i == 0 else f" {w}" for i, w in enumerate(RETRIEVAL_WORDS))
    layer, head = SCORE_HEAD[0] - 1, SCORE_HEAD[1] - 1
    shared = head // 3  # 9 query heads share 3 key-value heads
    q = run.queries[layer, head, -1]
    scores = [
        sum(float(q[d]) * float(run.keys[layer, shared, i, d]) for d in range(64)) / math.sqrt(64)
        for i in range(len(RETRIEVAL_WORDS))
    ]
    assert max(abs(s - r) for s, r in zip(scores, RETRIEVAL_SCORES, strict=True)) <= 0.05 + 1e-4
    weights = [math.exp(s) / sum(math.exp(t) for t in scores) for s in scores]
    np.testing.assert_allclose(weights, run.attention[layer, head, -1], atol=1e-5)
