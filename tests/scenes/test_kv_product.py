"""The per-token cache product written over the memory plot multiplies out to what it says."""

from __future__ import annotations

import math
import re

from scenes.s6_why_raw import per_token_product


def test_the_per_token_product_multiplies_out_to_the_kib_it_shows():
    left, right = (part.tex_string for part in per_token_product().submobjects)
    factors = [int(n) for n in re.findall(r"\d+", left)]
    assert factors == [32, 32, 128, 2, 2]  # layers, KV heads, head dim, k and v, fp16 bytes
    shown = int(re.search(r"= (\d+)", right).group(1))
    # the published figure for a 7B-class fp16 model (Llama 2 7B): half a mebibyte per token
    assert math.prod(factors) == shown * 1024 == 2**19


def test_smollm2s_product_multiplies_out_to_the_kib_it_shows():
    left, right = (part.tex_string for part in per_token_product(30, 3, 64).submobjects)
    factors = [int(n) for n in re.findall(r"\d+", left)]
    assert factors == [30, 3, 64, 2, 2]  # layers, KV heads, head dim, k and v, fp16 bytes
    assert re.search(r"= ([\d.]+)", right).group(1) == "22.5"
    assert math.prod(factors) == 22.5 * 1024 == 23_040
