"""The data of the page's Explore figures, computed by attnmath from the lecture's own examples.

Each figure belongs to one scene. Its parameters are the scene's model in
:mod:`lecture.parameters`, with the lecturer's ``lecture.toml`` values in place,
the same values the scene renders with, so the figure shows the data the clip shows.
Sections 5 and 6 (discrete choices) embed
every number the figure prints; sections 2 to 4 (continuous sliders) embed the
data and the few numbers a slider does not change, and the page computes the
rest with the port in ``assets/explore/ports.js`` (tested against attnmath).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from attnmath import (
    VARIANTS,
    KVCache,
    causal_mask,
    effective_k,
    loo_cv_error,
    noisy_sine,
    previous_token_projections,
    stylized_heads,
    weight_profiles,
)
from lecture.parameters import Parameters, parameters_of

__all__ = ["FIGURES", "figure_data", "decode_weights"]

Params = dict[str, Any]


def _floats(a: Any) -> list:
    """A numpy array (or number sequence) as nested lists of Python floats (exact in JSON)."""
    return np.asarray(a, dtype=float).tolist()


def kernel_regression(p: Params) -> dict[str, Any]:
    """Section 2: the samples, the query, the bandwidth range and attnmath's leave-one-out minimum."""
    x, y = noisy_sine(p["n_points"], noise=p["noise"], seed=p["seed"])
    lo, hi = p["sigma_range"]
    sigmas = np.geomspace(lo, hi, p["grid_size"])
    loo = loo_cv_error(x, y, sigmas)
    best = int(np.argmin(loo))
    return {
        "x": _floats(x),
        "y": _floats(y),
        "query": float(p["query"]),
        "sigma_range": _floats(p["sigma_range"]),
        "grid_size": int(p["grid_size"]),
        "sigma_best": float(sigmas[best]),
        "loo_best": float(loo[best]),
        "curve_points": 240,
    }


def temperature(p: Params) -> dict[str, Any]:
    """Section 3: the memory items' scores and the temperature range."""
    lo, hi = p["tau_range"]
    return {"scores": _floats(p["scores"]), "tau_range": [float(lo), float(hi)], "tau": min(max(1.0, lo), hi)}


def kernel_variants(p: Params) -> dict[str, Any]:
    """Section 4: similarities, offsets and the position profiles, which no temperature changes."""
    lo, hi = p["tau_range"]
    tau = float(p["tau_path"][-1])
    profiles = weight_profiles(tau)
    return {
        "variants": list(VARIANTS),
        "kinds": {name: "linear" if name.startswith("linear") else "softmax" for name in VARIANTS},
        "similarity": _floats(profiles.similarity),
        "offsets": _floats(profiles.offsets),
        "position": {name: _floats(profiles.position[name]) for name in VARIANTS},
        "position_keff": {name: float(effective_k(profiles.position[name])) for name in VARIANTS},
        "tau_range": [float(lo), float(hi)],
        "tau": tau,
    }


def heads(p: Params) -> dict[str, Any]:
    """Section 5: the sentence and every head's causal weights (4, T, T)."""
    sentence = p["sentence"]
    result = stylized_heads(sentence, causal=True)
    return {
        "words": list(sentence.texts),
        "names": list(result.names),
        "weights": _floats(result.weights),
        "head": 0,
        "query": len(sentence) - 1,
    }


def decode_weights(words: tuple[str, ...], strength: float, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Both heads' weights for each decoding step, through two real caches (as ``KVCacheGrowth`` decodes)."""
    n = len(words)
    values = np.random.default_rng(seed).normal(size=(n, 2))
    w_q, w_k = previous_token_projections(n, strength)
    uniform, pointer = KVCache(n, 2), KVCache(n, 2)
    steps = []
    for t in range(n):
        e = np.eye(n)[t]
        uniform.append(e @ w_k, values[t])
        pointer.append(e @ w_k, values[t])
        steps.append((uniform.attend(np.zeros(n)).weights, pointer.attend(e @ w_q).weights))
    return steps


def kv_cache(p: Params) -> dict[str, Any]:
    """Section 6: the words, the prompt length, the causal mask and both heads' weights at every step."""
    words = tuple(p["words"])
    steps = decode_weights(words, p["strength"], p["seed"])
    return {
        "words": list(words),
        "n_prompt": int(p["n_prompt"]),
        "mask": causal_mask(len(words)).tolist(),
        "heads": ["uniform head", "previous-token head"],
        "weights": [[_floats(u), _floats(v)] for u, v in steps],
    }


# scene -> (figure id, what computes its data from the scene's parameters)
FIGURES: dict[str, tuple[str, Callable[[Params], dict[str, Any]]]] = {
    "KernelRegressionCollapse": ("s2", kernel_regression),
    "TemperatureSweep": ("s3", temperature),
    "KernelVariants": ("s4", kernel_variants),
    "HeadRouting": ("s5", heads),
    "KVCacheGrowth": ("s6", kv_cache),
}


def figure_data(scene: str, params: Parameters | None = None) -> tuple[str, dict[str, Any]] | None:
    """(figure id, data) of ``scene``'s Explore figure from its parameters (default: the model's own).

    None when the scene has no figure.
    """
    if scene not in FIGURES:
        return None
    key, compute = FIGURES[scene]
    chosen = params if params is not None else parameters_of(scene)
    assert chosen is not None, f"{scene} has a figure but no parameters model"
    return key, compute(chosen.values())
