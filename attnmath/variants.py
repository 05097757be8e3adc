r"""Weight profiles of the kernel variants of section 4, in two coordinate systems.

For one query, the weight it puts on keys as a function of their content
similarity (keys at one position, cosines from -1 to 1) and as a function of
their position offset (keys with equal content, offsets -(P-1)..0 in a causal
decoder). Every profile comes from the real functions: :func:`attention` with
a mask or bias, and :func:`linear_attention_weights`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attnmath._validate import FloatArray, check_int
from attnmath.attention import attention, linear_attention_weights
from attnmath.positions import (
    alibi_bias,
    local_window_mask,
    stylized_t5_bucket_values,
    t5_bias,
)

__all__ = ["VARIANTS", "WeightProfiles", "weight_profiles", "content_profiles", "unit_keys"]

VARIANTS = ("dot-product", "linear (elu+1)", "local window", "ALiBi", "T5 bias")


@dataclass(frozen=True)
class WeightProfiles:
    """Weights of one query over a row of keys, per variant.

    Attributes
    ----------
    tau : float
        Temperature of the content scores.
    similarity : ndarray, shape (S,)
        Cosine similarity of each key to the query (content profile).
    offsets : ndarray, shape (P,)
        Key position minus query position (position profile), -(P-1)..0.
    content : dict of str to ndarray (S,)
        Weights over keys at those similarities, all at the query's position.
    position : dict of str to ndarray (P,)
        Weights over keys at those offsets, all with equal content.
    """

    tau: float
    similarity: FloatArray
    offsets: FloatArray
    content: dict[str, FloatArray]
    position: dict[str, FloatArray]


def unit_keys(similarity: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Query (1, 2) and unit keys (S, 2) whose cosine with the query is ``similarity``."""
    s = np.clip(similarity, -1.0, 1.0)
    keys = np.stack([s, np.sqrt(1.0 - s**2)], axis=-1)  # (S, 2)
    return np.array([[1.0, 0.0]]), keys


def weight_profiles(
    tau: float,
    *,
    n_similarity: int = 61,
    n_positions: int = 32,
    window: int = 4,
    alibi_slope: float = 0.25,
    t5_strength: float = 1.0,
) -> WeightProfiles:
    r"""Content and position weight profiles of the five kernel variants.

    Parameters
    ----------
    tau : float
        Temperature of the content scores :math:`q \cdot k / \tau` (> 0).
        Linear attention sees :math:`q/\sqrt\tau, k/\sqrt\tau`, the analogous scaling.
        Position biases are added after the scaling, so they do not change with tau.
    n_similarity, n_positions : int
        Number of keys in each profile.
    window : int
        Local window half-width.
    alibi_slope : float
        ALiBi slope m (bias :math:`-m\,|i - j|`).
    t5_strength : float
        Scale of :func:`stylized_t5_bucket_values`.

    Returns
    -------
    WeightProfiles
    """
    n_positions = check_int(n_positions, "n_positions", minimum=2)
    similarity, content = content_profiles(tau, n_similarity=n_similarity)
    return WeightProfiles(
        float(tau),
        similarity,
        np.arange(-(n_positions - 1), 1.0),
        content,
        _position_profiles(n_positions, window, alibi_slope, t5_strength),
    )


def content_profiles(tau: float, *, n_similarity: int = 61) -> tuple[FloatArray, dict[str, FloatArray]]:
    """The similarities and each variant's weights over them: the part of the profiles that moves with tau.

    A temperature sweep recomputes only this; the position profiles do not depend on tau.
    """
    if not (np.isfinite(tau) and tau > 0):
        raise ValueError(f"tau must be finite and > 0, got {tau}")
    n_similarity = check_int(n_similarity, "n_similarity", minimum=2)
    similarity = np.linspace(-1.0, 1.0, n_similarity)
    q, keys = unit_keys(similarity)
    values = np.zeros((n_similarity, 1))
    softmax_row = attention(q, keys, values, tau=tau).weights[0]
    linear_row = linear_attention_weights(q / np.sqrt(tau), keys / np.sqrt(tau))[0]
    # Keys at the query's own position: masks and biases are constant, so equal to softmax.
    content = {
        "dot-product": softmax_row,
        "linear (elu+1)": linear_row,
        "local window": softmax_row,
        "ALiBi": softmax_row,
        "T5 bias": softmax_row,
    }
    return similarity, content


def _position_profiles(p: int, window: int, slope: float, strength: float) -> dict[str, FloatArray]:
    """Last query's weights over keys 0..p-1 with identical content."""
    q = np.ones((p, 1))
    k = np.ones((p, 1))
    v = np.zeros((p, 1))
    last = slice(p - 1, p)

    def row(**kw: Any) -> FloatArray:
        return attention(q[last], k, v, tau=1.0, **kw).weights[0]

    t5 = t5_bias(p, stylized_t5_bucket_values(strength=strength, bidirectional=False), bidirectional=False)
    return {
        "dot-product": row(),
        "linear (elu+1)": linear_attention_weights(q[last], k)[0],
        "local window": row(mask=local_window_mask(p, window, causal=True)[last]),
        "ALiBi": row(bias=alibi_bias(p, slope)[last]),
        "T5 bias": row(bias=t5[last]),
    }
