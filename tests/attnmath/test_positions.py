"""Masks, ALiBi slopes and biases, T5 buckets, and the kernel-variant profiles."""

import math

import numpy as np
import pytest

from attnmath.positions import (
    alibi_bias,
    alibi_slopes,
    causal_mask,
    local_window_mask,
    t5_bias,
    t5_relative_position_bucket,
)
from attnmath.variants import VARIANTS, weight_profiles

pytestmark = pytest.mark.filterwarnings("error")


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, [2**-8]),
        (4, [2**-2, 2**-4, 2**-6, 2**-8]),
        (8, [2 ** -(i + 1) for i in range(8)]),
        (16, [2 ** -(0.5 * (i + 1)) for i in range(16)]),
        # 12: the 8-head slopes, then every other slope of 16 heads.
        (12, [2 ** -(i + 1) for i in range(8)] + [2**-0.5, 2**-1.5, 2**-2.5, 2**-3.5]),
    ],
)
def test_alibi_slopes_match_the_paper(n, expected):
    np.testing.assert_allclose(alibi_slopes(n), expected, rtol=1e-12)


def test_alibi_bias_and_masks_against_loops():
    n = 6
    b = alibi_bias(n, 0.5, causal=False)
    c = alibi_bias(n, 0.5)
    w = local_window_mask(n, 2, causal=True)
    for i in range(n):
        for j in range(n):
            assert b[i, j] == -0.5 * abs(i - j)
            assert c[i, j] == (-0.5 * (i - j) if j <= i else -np.inf)
            assert causal_mask(n)[i, j] == (j <= i)
            assert w[i, j] == (abs(i - j) <= 2 and j <= i)


def hf_bucket(rel, bidirectional=True, num_buckets=32, max_distance=128):
    """Hugging Face's T5 bucketing, transliterated element by element."""
    bucket = 0
    if bidirectional:
        num_buckets //= 2
        bucket += num_buckets if rel > 0 else 0
        rel = abs(rel)
    else:
        rel = -min(rel, 0)
    max_exact = num_buckets // 2
    if rel < max_exact:
        return bucket + rel
    large = max_exact + int(
        math.log(rel / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    )
    return bucket + min(large, num_buckets - 1)


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_buckets_match_reference(bidirectional):
    rel = np.array([-1000, -200, -128, -127, -64, -20, -9, -8, -7, -1, 0, 1, 7, 8, 9, 20, 64, 127, 128, 1000])
    got = t5_relative_position_bucket(rel, bidirectional=bidirectional)
    np.testing.assert_array_equal(got, [hf_bucket(int(r), bidirectional) for r in rel])


def test_t5_bucket_edges():
    # bidirectional, 32 buckets: 16 per direction, offsets 0..7 exact, the top bucket from 128 on.
    assert list(t5_relative_position_bucket(np.arange(0, -9, -1))) == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    assert t5_relative_position_bucket(np.array([-128]))[0] == 15
    assert t5_relative_position_bucket(np.array([5000]))[0] == 31


def test_t5_bias_indexes_bucket_values():
    values = np.arange(32.0)
    b = t5_bias(5, values)
    for i in range(5):
        for j in range(5):
            assert b[i, j] == hf_bucket(j - i)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: local_window_mask(4, -1), "window must be >= 0"),
        (lambda: alibi_slopes(0), "n_heads must be >= 1"),
        (lambda: t5_relative_position_bucket(np.array([1]), num_buckets=31), "num_buckets must be even"),
        (lambda: t5_bias(4, np.zeros(8)), "bucket_values must have shape"),
        (lambda: alibi_bias(3, -1.0), "slope must be"),
        (lambda: causal_mask(0), "n must be >= 1"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_profiles_are_distributions_with_the_expected_shapes():
    p = weight_profiles(0.5)
    assert set(p.content) == set(VARIANTS) == set(p.position)
    for w in (*p.content.values(), *p.position.values()):
        assert math.isclose(w.sum(), 1.0) and np.all(w >= 0)
    pos = p.position
    np.testing.assert_allclose(pos["dot-product"], 1 / 32)
    assert np.all(pos["local window"][:-5] == 0) and np.allclose(pos["local window"][-5:], 0.2)
    assert np.all(np.diff(pos["ALiBi"]) > 0)  # decays with distance
    assert np.all(np.diff(pos["T5 bias"]) >= 0)
    ratio = pos["ALiBi"][-1] / pos["ALiBi"][-2]
    assert ratio == pytest.approx(math.exp(0.25))


def test_content_profile_sharpens_as_tau_falls():
    sharp, flat = weight_profiles(0.05), weight_profiles(5.0)
    assert sharp.content["dot-product"][-1] > flat.content["dot-product"][-1]
    assert np.argmax(sharp.content["dot-product"]) == len(sharp.similarity) - 1


def test_content_profiles_are_the_tau_dependent_part_of_weight_profiles():
    from attnmath.variants import content_profiles

    full = weight_profiles(0.3)
    similarity, content = content_profiles(0.3)
    np.testing.assert_array_equal(similarity, full.similarity)
    for name in VARIANTS:
        np.testing.assert_array_equal(content[name], full.content[name])
    with pytest.raises(ValueError, match="tau must be finite and > 0"):
        content_profiles(0.0)
