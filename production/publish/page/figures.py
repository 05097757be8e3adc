"""The data of the page's Explore figures, computed by attnmath from the lecture's own examples.

Each figure belongs to one scene. Its parameters are the scene's model in
:mod:`lecture.parameters`, with the lecturer's ``lecture.toml`` values in place,
the same values the scene renders with, so the figure shows the data the clip shows.
Sections 5 and 6 (discrete choices) embed
every number the figure prints (section 5 also the 72 heads of a trained model,
all-MiniLM-L6-v2, measured on the sentence by :mod:`attnmath`); sections 2 to 4 (continuous sliders) embed the
data and the few numbers a slider does not change, and the page computes the
rest with the port in ``assets/explore/ports.js`` (tested against attnmath).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from attnmath import (
    HEAD_NAMES,
    STYLISED_SCORES,
    VARIANTS,
    KVCache,
    Sentence,
    causal_mask,
    effective_k,
    loo_cv_error,
    noisy_sine,
    previous_token_projections,
    real_heads,
    stylized_heads,
    weight_profiles,
)
from lecture.parameters import Parameters, parameters_of

__all__ = ["FIGURES", "figure_data", "decode_weights", "trained_heads", "MODEL_PLACES"]

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


MODEL_PLACES = {
    "cls": "[CLS]",
    "sep": "[SEP]",
    "itself": "the token itself",
    "previous": "the previous token",
    "next": "the next token",
}
"""The :class:`attnmath.HeadScores` fields the trained view's readout compares, and how it names them."""

_SCORE_LABELS = {
    "previous": "previous-token score",
    "syntax": "weight on the annotated subject or verb",
    "decay": "overlap with the distance-decay profile",
    "modifiers": "weight on the noun's determiners and adjectives",
}
_UNMEASURED = {
    "syntax": "the sentence annotates no verb's subject and no preposition's verb",
    "modifiers": "the sentence annotates no noun phrase with a determiner or adjective",
}


def trained_heads(sentence: Sentence) -> dict[str, Any]:
    """Section 5's trained-model view: all-MiniLM-L6-v2's 72 heads on the sentence, measured by attnmath.

    ``weights`` (L, H, W, K) are :attr:`attnmath.RealHeads.words` (word pieces pooled;
    keys [CLS], the words, [SEP]) rounded to the 2 decimals the table prints; ``scores``
    are the :class:`attnmath.HeadScores` the readout prints; ``matches`` and ``sink``
    are :func:`attnmath.match_stylised`'s and :func:`attnmath.attention_sink`'s.
    """
    found = real_heads(sentence)
    words = found.words
    by_name = {m.stylised: m for m in found.matches}
    matches: list[dict[str, Any]] = []
    for h, field in enumerate(STYLISED_SCORES):
        m = by_name.get(f"H{h + 1}")
        entry: dict[str, Any] = {
            "stylised": f"H{h + 1}",
            "name": HEAD_NAMES[h],
            "score_label": _SCORE_LABELS[field],
        }
        if m is None:
            entry.update(measured=False, why=_UNMEASURED[field])
        else:
            entry.update(
                measured=True,
                layer=m.layer,
                head=m.head,
                score=m.score,
                threshold=m.threshold,
                matched=m.matched,
                previous=m.previous,
                just_under=not m.matched and round(m.score, 3) >= m.threshold,
                adjacent=m.matched and field != "previous" and m.previous >= m.threshold,
            )
        matches.append(entry)
    first = next((m for m in found.matches if m.matched), None)
    sink = found.sink
    n_layers, n_heads = found.scores.cls.shape
    return {
        "name": "all-MiniLM-L6-v2",
        "layers": int(n_layers),
        "heads": int(n_heads),
        "queries": list(words.queries),
        "keys": list(words.keys),
        "weights": _floats(np.round(words.weights, 2)),
        "scores": {name: _floats(getattr(found.scores, name)) for name in MODEL_PLACES},
        "places": MODEL_PLACES,
        "chosen": [first.layer, first.head] if first is not None else [0, 0],
        "matches": matches,
        "sink": {
            "token": sink.token,
            "layer": sink.layer,
            "head": sink.head,
            "weight": sink.weight,
            "mean_weight": sink.mean_weight,
            "threshold": sink.threshold,
            "is_sink": sink.is_sink,
        },
    }


def heads(p: Params) -> dict[str, Any]:
    """Section 5: the sentence, the stylised heads' causal weights (4, T, T), the trained model's heads."""
    sentence = p["sentence"]
    result = stylized_heads(sentence, causal=True)
    return {
        "words": list(sentence.texts),
        "names": list(result.names),
        "weights": _floats(result.weights),
        "head": 0,
        "query": len(sentence) - 1,
        "model": trained_heads(sentence),
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
