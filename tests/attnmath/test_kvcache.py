"""The KV cache against full causal attention; the running summary; memory arithmetic."""

import numpy as np
import pytest

from attnmath import attention, causal_mask
from attnmath.heads import previous_token_projections
from attnmath.kvcache import KVCache, RunningSummary, kv_cache_bytes, paged_kv_blocks, streaming_keep

pytestmark = pytest.mark.filterwarnings("error")


@pytest.mark.parametrize(("t", "d", "tau"), [(1, 3, None), (7, 4, None), (12, 8, 0.5), (20, 2, 3.0)])
def test_incremental_decoding_equals_full_causal_attention(t, d, tau):
    rng = np.random.default_rng(t * 100 + d)
    q, k, v = rng.normal(size=(t, d)), rng.normal(size=(t, d)), rng.normal(size=(t, 3))
    full = attention(q, k, v, tau=tau, mask=causal_mask(t))
    cache = KVCache(d, 3)
    for step in range(t):
        cache.append(k[step], v[step])
        read = cache.attend(q[step], tau=tau)
        np.testing.assert_allclose(read.output, full.output[step], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(read.weights, full.weights[step, : step + 1], rtol=1e-12, atol=1e-14)


def test_block_append_equals_step_appends():
    rng = np.random.default_rng(1)
    k, v = rng.normal(size=(5, 2)), rng.normal(size=(5, 4))
    a, b = KVCache(), KVCache()
    a.append(k, v)
    for i in range(5):
        b.append(k[i], v[i])
    np.testing.assert_array_equal(a.keys, b.keys)
    np.testing.assert_array_equal(a.values, b.values)
    assert len(a) == 5 and a.nbytes == 5 * (2 + 4) * 8


@pytest.mark.parametrize(
    ("k", "v", "match"),
    [
        (np.ones(3), np.ones(2), "k must have width 2"),
        (np.ones(2), np.ones(5), "v must have width 2"),
        (np.ones((2, 2)), np.ones((3, 2)), "same number of steps"),
        (np.array([np.nan, 1.0]), np.ones(2), "k must be finite"),
        (["a", "b"], np.ones(2), "k must be a real numeric"),
    ],
)
def test_bad_append_is_rejected_and_leaves_the_cache_unchanged(k, v, match):
    cache = KVCache(2, 2)
    cache.append(np.ones(2), np.zeros(2))
    before = (cache.keys.copy(), cache.values.copy(), cache.nbytes)
    with pytest.raises((ValueError, TypeError), match=match):
        cache.append(k, v)
    assert len(cache) == 1
    np.testing.assert_array_equal(cache.keys, before[0])
    np.testing.assert_array_equal(cache.values, before[1])


def test_bad_query_and_empty_cache():
    cache = KVCache(2, 1)
    with pytest.raises(ValueError, match="cache is empty"):
        cache.attend(np.ones(2))
    cache.append(np.ones(2), np.ones(1))
    with pytest.raises(ValueError, match=r"q must have shape \(2,\)"):
        cache.attend(np.ones(3))
    with pytest.raises(ValueError, match="d_k must be >= 1"):
        KVCache(0, 1)


def test_cached_keys_are_read_only():
    cache = KVCache(1, 1)
    cache.append([1.0], [2.0])
    with pytest.raises(ValueError):
        cache.keys[0, 0] = 5.0


def test_running_summary_equals_uniform_attention_at_every_step():
    rng = np.random.default_rng(2)
    v = rng.normal(size=(9, 3))
    summary = RunningSummary(3)
    cache = KVCache(4, 3)
    for t in range(9):
        summary.append(v[t])
        cache.append(rng.normal(size=4), v[t])
        uniform = cache.attend(np.zeros(4))  # a query that ignores content: equal weights
        np.testing.assert_allclose(summary.read(), uniform.output, rtol=1e-12)
        np.testing.assert_allclose(summary.read(), v[: t + 1].mean(axis=0), rtol=1e-12)
    assert summary.nbytes == 3 * 8 + 8


def test_running_summary_cannot_reproduce_a_previous_token_head():
    n = 8
    rng = np.random.default_rng(3)
    v = rng.normal(size=(n, 2))
    w_q, w_k = previous_token_projections(n, 8.0)
    cache, summary = KVCache(n, 2), RunningSummary(2)
    gaps = []
    for t in range(n):
        e = np.eye(n)[t]
        cache.append(e @ w_k, v[t])
        summary.append(v[t])
        read = cache.attend(e @ w_q)
        if t > 0:
            assert int(np.argmax(read.weights)) == t - 1
        gaps.append(float(np.abs(read.output - summary.read()).max()))
    assert max(gaps[1:]) > 0.1


def test_kv_cache_bytes_worked_values():
    assert kv_cache_bytes(32, 32, 128, 1) == 512 * 1024
    assert kv_cache_bytes(32, 32, 128, 4096) == 2 * 1024**3
    assert kv_cache_bytes(32, 8, 128, 4096) == 512 * 1024**2  # grouped-query attention: 8 KV heads
    assert kv_cache_bytes(80, 8, 128, 1000, bytes_per_element=1) == 2 * 80 * 8 * 128 * 1000
    with pytest.raises(ValueError, match="seq_len must be >= 0"):
        kv_cache_bytes(1, 1, 1, -5)


@pytest.mark.parametrize(
    ("n", "block", "blocks", "waste"),
    [(0, 16, 0, 0), (1, 16, 1, 15), (16, 16, 1, 0), (17, 16, 2, 15), (100, 16, 7, 12), (4096, 16, 256, 0)],
)
def test_paged_blocks(n, block, blocks, waste):
    got = paged_kv_blocks(n, block)
    assert (got.n_blocks, got.used_slots, got.wasted_slots) == (blocks, n, waste)


@pytest.mark.parametrize(
    ("n", "sink", "window", "expected"),
    [
        (10, 2, 3, [0, 1, 7, 8, 9]),
        (5, 2, 3, [0, 1, 2, 3, 4]),
        (6, 0, 2, [4, 5]),
        (6, 3, 0, [0, 1, 2]),
        (0, 4, 4, []),
    ],
)
def test_streaming_keep(n, sink, window, expected):
    assert streaming_keep(n, sink, window).tolist() == expected


@pytest.mark.parametrize(("layers", "heads", "dim", "width"), [(32, 32, 128, 2), (2, 3, 5, 4), (1, 1, 1, 1)])
def test_linear_state_bytes_is_the_size_of_its_d_by_d_states_and_normalisers(layers, heads, dim, width):
    from attnmath.kvcache import linear_state_bytes

    dtype = {1: np.int8, 2: np.float16, 4: np.float32}[width]
    states = np.zeros((layers, heads, dim, dim), dtype=dtype)  # one S_t per layer and head
    norms = np.zeros((layers, heads, dim), dtype=dtype)  # and its normaliser z_t
    assert linear_state_bytes(layers, heads, dim, bytes_per_element=width) == states.nbytes + norms.nbytes


@pytest.mark.parametrize(("layers", "heads", "dim"), [(32, 32, 128), (2, 3, 5), (1, 1, 1), (4, 8, 64)])
def test_the_raw_cache_overtakes_the_states_at_the_first_token_count_where_it_is_larger(layers, heads, dim):
    from attnmath.kvcache import kv_cache_bytes, linear_state_bytes, raw_cache_overtakes

    n = raw_cache_overtakes(layers, heads, dim)
    state = layers * heads * (dim * dim + dim) * 2  # written out, half precision
    raw = lambda t: 2 * layers * heads * dim * t * 2  # noqa: E731  keys and values, half precision
    assert raw(n) > state >= raw(n - 1)
    assert kv_cache_bytes(layers, heads, dim, n) == raw(n) and linear_state_bytes(layers, heads, dim) == state


def test_linear_state_is_a_fixed_size_recurrence_for_causal_linear_attention():
    """S_t = S_{t-1} + phi(k_t) v_t^T, one d x d state, answers each query as causal linear attention does."""
    from attnmath import linear_attention

    rng = np.random.default_rng(7)
    t, d = 9, 4
    q, k, v = rng.normal(size=(t, d)), rng.normal(size=(t, d)), rng.normal(size=(t, d))
    phi = lambda x: np.where(x > 0, x + 1.0, np.exp(x))  # noqa: E731  elu + 1, written out
    expected = linear_attention(q, k, v, feature_map="elu+1", causal=True)
    state, norm = np.zeros((d, d)), np.zeros(d)
    for step in range(t):  # the recurrence a decoder runs, one token at a time, the state never growing
        state, norm = state + np.outer(phi(k[step]), v[step]), norm + phi(k[step])
        np.testing.assert_allclose(phi(q[step]) @ state / (phi(q[step]) @ norm), expected[step], rtol=1e-12)


def test_linear_state_bytes_rejects_bad_sizes():
    from attnmath.kvcache import linear_state_bytes

    with pytest.raises(ValueError):
        linear_state_bytes(0, 1, 1)
