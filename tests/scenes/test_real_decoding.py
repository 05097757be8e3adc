"""Section 6's decoding beat: what its picture prints, against a cache and a full pass run here.

The expected gap is the largest difference between the logits of
:class:`attnmath.decoder_cache.IncrementalDecoder`'s steps and :func:`attnmath.decoder.forward`'s
one pass, recomputed in the test; the cache's size is the written-out product.
"""

from __future__ import annotations

import numpy as np
import pytest

from attnmath.decoder import forward, tokenize
from attnmath.decoder_cache import IncrementalDecoder
from lecture.sections.s6_kv_cache import KVCacheParameters
from lecture.sections.s6_real import real_decoding, sentence_text
from scenes.s6_decoding import CachedDecoding, gap_text

# tests that share the loaded model run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("decoder")

PER_TOKEN = 30 * 2 * 3 * 64 * 2  # layers, k and v, KV heads, width, fp16 bytes


def texts(mob) -> list[str]:
    return [m.original_text for m in mob.get_family() if getattr(m, "original_text", "")]


def test_the_gap_prints_one_significant_digit():
    assert [gap_text(x) for x in (5.9e-5, 0.00041, 0.03, 2.0, 0.0)] == [
        "0.00006",
        "0.0004",
        "0.03",
        "2",
        "0.0",
    ]


def test_the_picture_prints_the_cache_size_and_the_gap_to_a_full_pass():
    text = sentence_text(KVCacheParameters().words)
    assert text == "The small cat chased the old dog across the garden."  # section 5's sentence, decoded
    ids = tokenize(text)
    cache = IncrementalDecoder()
    cached = np.stack([cache.append(int(i)).logits for i in ids])
    gap = float(np.abs(cached - forward(ids).logits).max())
    decoded = real_decoding(text)
    check = " ".join(texts(CachedDecoding.full_pass_check(decoded)))
    assert check == f"cached vs full pass: predictions differ by at most {gap_text(gap)}"
    for t in range(len(ids) + 1):
        size = f"{t * PER_TOKEN / 1024:g}"
        assert texts(CachedDecoding.cache_count(decoded, t)) == [
            "cache, all 30 layers:",
            f"{t} {'token' if t == 1 else 'tokens'} x 22.5 KiB",
            f"= {size} KiB",
        ]
