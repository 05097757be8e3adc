"""Section 6's real decoder: bytes a token written out, sink heads and mean losses recomputed naively."""

import math

import numpy as np
import pytest

from attnmath.decoder import forward, token_texts, tokenize
from attnmath.decoder_spec import MAX_TOKENS, MODEL_FILE
from lecture.sections.s6_kv_cache import KVCacheParameters
from lecture.sections.s6_real import (
    MAX_DECODED,
    MODEL_NAME,
    WEIGHT_BITS,
    decoder_figure,
    kib,
    reading,
    real_decoding,
    real_eviction,
    real_memory,
    real_sinks,
    sentence_text,
)
from tests import naive_decoder

# tests that share the loaded model run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("decoder")


def test_bytes_a_token_are_the_written_out_products():
    memory = real_memory()
    assert memory.grouped == 30 * 2 * 3 * 64 * 2 == 23_040  # layers, k and v, KV heads, width, fp16 bytes
    assert memory.ungrouped == 30 * 2 * 9 * 64 * 2 == 69_120  # one KV head per query head
    assert (kib(memory.grouped), kib(memory.ungrouped)) == ("22.5", "67.5")
    assert kib(2**19) == "512"


def test_the_model_is_named_as_its_file_names_it():
    assert MODEL_FILE == "SmolLM2-135M-Instruct.Q4_1.gguf"  # Q4_1: 4-bit weights, a scale and a minimum
    assert (MODEL_NAME, WEIGHT_BITS) == ("SmolLM2-135M-Instruct", 4)


def test_sink_heads_match_a_loop_over_the_attention():
    count, heads, share = naive_decoder.sink_heads()
    sinks = real_sinks()
    assert (sinks.count, sinks.n_heads) == (count, heads)
    np.testing.assert_allclose(sinks.share, share, atol=1e-12)


def test_the_passage_is_a_few_hundred_tokens_the_decoder_runs():
    assert 350 <= len(tokenize(reading())) <= 450 < MAX_TOKENS


def test_mean_losses_match_log_softmax_under_loop_built_masks():
    tokens, start, (full, windowed, with_sinks) = naive_decoder.mean_nlls()
    nll = real_eviction()
    assert (nll.tokens, nll.start, nll.window, nll.sinks) == (tokens, start, 64, 4)
    np.testing.assert_allclose(
        [nll.full, nll.windowed, nll.with_sinks], [full, windowed, with_sinks], atol=1e-6
    )
    np.testing.assert_allclose(
        nll.perplexities, [math.exp(x) for x in (full, windowed, with_sinks)], rtol=1e-6
    )


def test_the_model_reproduces_streamingllms_finding_on_the_passage():
    """What the narration says: the window breaks the model, the sinks mostly restore it."""
    _, _, (full, windowed, with_sinks) = naive_decoder.mean_nlls()
    assert full < with_sinks < windowed
    assert with_sinks - full < (windowed - full) / 2


def test_the_explore_figure_carries_the_same_numbers():
    data = decoder_figure()
    count, _, share = naive_decoder.sink_heads()
    _, _, (full, windowed, with_sinks) = naive_decoder.mean_nlls()
    assert data["bytes_per_token"] == {"grouped": 30 * 2 * 3 * 64 * 2, "ungrouped": 30 * 2 * 9 * 64 * 2}
    assert data["sink_heads"] == count and data["sink_threshold"] == 0.5
    np.testing.assert_allclose(data["sink_share"], share, atol=1e-12)
    got = data["eviction"]["nll"]
    np.testing.assert_allclose(
        [got["full"], got["window"], got["sinks_window"]], [full, windowed, with_sinks]
    )


def test_the_explore_figure_carries_every_prediction_and_its_trailing_mean():
    eviction = decoder_figure()["eviction"]
    tokens, _, rows = naive_decoder.token_nlls()
    caches = ("full", "window", "sinks_window")
    np.testing.assert_allclose([eviction["losses"][c] for c in caches], rows, atol=1e-6)
    width = eviction["trailing_width"]
    for c, row in zip(caches, rows, strict=True):
        np.testing.assert_allclose(eviction["trailing"][c], naive_decoder.trailing(row, width), atol=1e-6)
    assert len(eviction["texts"]) == tokens and eviction["texts"][:2] == ['"When"', '" we"']


def test_decoding_through_the_cache_draws_a_real_head_and_matches_the_full_pass():
    words = KVCacheParameters().words
    ids = tokenize(" ".join(words).replace(" .", "."))
    decoded = real_decoding(sentence_text(words))
    assert decoded.tokens == token_texts(ids) and len(ids) <= MAX_DECODED
    previous = naive_decoder.head_shares()[2][1]
    assert (decoded.layer, decoded.head) == np.unravel_index(np.argmax(previous), previous.shape)
    full = forward(ids).attention[decoded.layer, decoded.head]  # one causal pass, no cache
    np.testing.assert_allclose(decoded.weights, full, atol=1e-4)
    assert decoded.step_bytes == 30 * 2 * 3 * 64 * 2
    assert 0 <= decoded.max_gap < 1e-3  # what the voice says: each step's scores match the full pass
    with pytest.raises(ValueError, match=f"at most {MAX_DECODED}"):
        real_decoding(" ".join(["word"] * (MAX_DECODED + 1)))
