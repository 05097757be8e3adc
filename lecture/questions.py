"""Check yourself: two or three questions per section, each with its answer, every number from attnmath.

Retrieval practice: a student predicts, then checks. The questions test
understanding (predict a limit, compare two kernels, say which head could fold
its cache), not recall of a sentence. :func:`questions_for` builds a section's
questions from the lecture's parameters (the lecturer's data where they set
it), so a changed score list or sentence changes the answers with it. The notes
and the page show each answer behind a ``<details>`` element, which opens
without JavaScript; each scene's pause-and-predict beat asks the first one
(:attr:`Question.spoken`, :attr:`Question.spoken_answer`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from attnmath import (
    kernel_weights,
    kv_cache_bytes,
    linear_state_bytes,
    local_window_mask,
    noisy_sine,
    raw_cache_overtakes,
    softmax,
    temperature_sweep,
)
from lecture.parameters import (
    FixedVsQueryParameters,
    KernelRegressionParameters,
    Parameters,
    TemperatureParameters,
)

__all__ = ["Question", "questions_for", "SCENES_WITH_QUESTIONS", "MODEL", "CONTEXT"]

MODEL = {"n_layers": 32, "n_kv_heads": 32, "head_dim": 128}
"""Section six's 7B-class model: full multi-head keys and values, one sequence, fp16."""
CONTEXT = 4096
"""Section six's context length."""


@dataclass(frozen=True)
class Question:
    """One question with its answer, as written for the page and as spoken in the video.

    ``prompt`` and ``answer`` are for reading; ``spoken`` and ``spoken_answer``
    say the same for the ear (no symbols, numbers rounded as a person says them).
    """

    prompt: str
    answer: str
    spoken: str
    spoken_answer: str


def _fixed_vs_query(p: FixedVsQueryParameters) -> list[Question]:
    n = p.n_points
    w = float(np.full(n, 1.0 / n)[0])
    return [
        Question(
            "If the query moves right, where do the kernel's and attention's weights go?",
            "They follow it: the Gaussian kernel's weight moves onto the points nearest the new query, and "
            "the learned similarity, fitted to this smooth curve, here favours nearby points too. Only the "
            "mean's weights, fixed at 1/N, stay put.",
            "Pause and predict: if the query moves right, where do the kernel's and attention's weights go?",
            "They follow it: the kernel's weight moves onto the points nearest the new query; attention's "
            "moves too, not always onto the nearest.",
        ),
        Question(
            f"The mean weighs each of the {n} points by 1/N. If the query moves, what weight does each "
            "point get?",
            f"Still 1/{n} = {w:.2f}: the mean's weights never look at the query. Only the kernel and "
            "attention move their weights with it.",
            "",
            "",
        ),
        Question(
            "The learned similarity beat the Gaussian on the points it was tuned on, and lost on fresh "
            "ones. What does that gap say?",
            "It fitted the noise of its few tuning points: more free numbers than the data can pin down. "
            "More data, or inputs no fixed kernel can compare, is where learning the similarity pays.",
            "",
            "",
        ),
    ]


def _kernel_regression(p: KernelRegressionParameters) -> list[Question]:
    x, y = noisy_sine(p.n_points, noise=p.noise, seed=p.seed)
    wide = kernel_weights(np.array([p.query]), x, p.sigma_range[1])[0]  # (N,)
    narrow = kernel_weights(np.array([p.query]), x, p.sigma_range[0])[0]  # (N,)
    k_wide = float(np.exp(-np.sum(wide * np.log(wide))))
    nearest = int(np.argmax(narrow))
    return [
        Question(
            "At the widest bandwidth, what does the estimate become?",
            f"A flat line at the samples' mean, {float(y.mean()):.2f}: every sample then weighs the same.",
            "Pause and predict: at the widest bandwidth, what does the estimate become?",
            "A flat line at the samples' mean: every sample then weighs the same.",
        ),
        Question(
            f"As the bandwidth \u03c3 grows without bound, what does k_eff approach for these {x.size} "
            "samples, and what does the estimate become?",
            f"k_eff \u2192 N = {x.size} (at \u03c3 = {p.sigma_range[1]:g} it reads {k_wide:.1f}): every "
            "sample weighs the same.",
            "",
            "",
        ),
        Question(
            f"As \u03c3 shrinks toward 0, which sample takes all the weight at the query q = {p.query:g}?",
            f"The nearest one, at x = {float(x[nearest]):.2f}: its weight tends to 1 and k_eff to 1.",
            "",
            "",
        ),
    ]


def _temperature(p: TemperatureParameters) -> list[Question]:
    s = np.asarray(p.scores, dtype=float)
    hot, cold, coda = temperature_sweep(s, [p.tau_range[1], p.tau_range[0], 0.6]).objective
    e_hot = float(temperature_sweep(s, [p.tau_range[1]]).expected_score[0])
    uniform = np.full(s.size, 1.0 / s.size)
    with_prior = float(temperature_sweep(s, [0.6], prior=uniform).objective[0])
    return [
        Question(
            "As \u03c4 grows without bound, what does the average score E_a[s] approach?",
            f"The plain mean of the scores, {float(s.mean()):.3f}: the weights become uniform, so they "
            f"average the scores (at \u03c4 = {p.tau_range[1]:g} E_a[s] reads {e_hot:.3f}).",
            "Pause and predict: as tau grows without bound, what does the average score approach?",
            f"The plain mean of the scores, {float(s.mean()):.3f}: equal weights average them.",
        ),
        Question(
            "As \u03c4 \u2192 0, what does the best value J* = \u03c4 log \u03a3 e^{s_i/\u03c4} approach?",
            f"The top score, max s_i = {float(s.max()):g} (at \u03c4 = {p.tau_range[0]:g} J* = "
            f"{float(cold):.2f}); at large \u03c4 it grows like \u03c4 log N ({float(hot):.0f} at "
            f"\u03c4 = {p.tau_range[1]:g}).",
            "",
            "",
        ),
        Question(
            "Add a uniform prior. Do the weights change? What happens to J at \u03c4 = 0.6?",
            f"The weights stay put; J drops by \u03c4 log N = {0.6 * np.log(s.size):.2f}, from "
            f"{float(coda):.2f} to {with_prior:.2f}.",
            "",
            "",
        ),
    ]


def _kernel_variants(_p: Parameters | None) -> list[Question]:
    n, w = 1000, 5  # w keys kept, the query's own included: the narration's and the picture's w
    window = int(local_window_mask(n, w - 1, causal=True).sum())
    full = int(np.tril(np.ones((n, n), dtype=bool)).sum())
    return [
        Question(
            "Set every position bias to zero. What do the weights become?",
            "The content weights alone: a flat prior, r_i = 1/N, changes nothing (section three's "
            "uniform prior).",
            "Pause and predict: set every position bias to zero. What do the weights become?",
            "The content weights alone: a flat prior changes nothing.",
        ),
        Question(
            "Which of these can decode with a fixed-size state instead of every past key and value: "
            "softmax, linear attention, a local window, ALiBi, T5?",
            "Linear attention (one d\u00d7d state and a normaliser) and the window (its last w entries). "
            "Softmax, ALiBi and T5 all weigh every past key with e^{q\u00b7k/\u03c4}, so they keep them all.",
            "",
            "",
        ),
        Question(
            f"A causal window keeps each query's last w = {w} keys, its own included. How many "
            f"query\u2013key scores does a sequence of N = {n:,} tokens need, against full causal attention?",
            f"{window:,} against {full:,}: about N\u00b7w instead of N\u00b2/2.",
            "",
            "",
        ),
    ]


def _head_routing(_p: Parameters | None) -> list[Question]:
    return [
        Question(
            "Which of the four stylised heads could replace all past keys and values by one fixed-size "
            "summary while decoding?",
            "Head one, ideally: it needs only the previous value, a one-slot window. And head three: "
            "its geometric decay folds into a running sum, shrunk by the same factor each step. And head "
            "four: a noun's determiners and adjectives come before it in its phrase, so a sum reset at "
            "each phrase holds them. The syntax head's "
            "target is known only when its query arrives, so it needs every past key and value.",
            "Pause and predict: which of these heads could replace all past keys and values by one "
            "fixed-size summary?",
            "All but the syntax head, ideally: one keeps the previous value; three's decay, a running sum; "
            "four, its noun phrase's sum.",
        ),
        Question(
            "Two heads read the same words. Why can their outputs differ?",
            "Each head has its own query, key and value matrices: it weighs the words its own way and reads "
            "its own projection of them, a different summary of the same words.",
            "",
            "",
        ),
    ]


def _kv_cache(_p: Parameters | None) -> list[Question]:
    long = kv_cache_bytes(**MODEL, seq_len=2 * CONTEXT) / 2**30
    grouped = kv_cache_bytes(MODEL["n_layers"], 8, MODEL["head_dim"], CONTEXT) / 2**30
    state = linear_state_bytes(**MODEL)
    return [
        Question(
            f"The section's model takes {kv_cache_bytes(**MODEL, seq_len=1) // 1024} KiB of raw cache a "
            f"token. How much at {2 * CONTEXT:,} tokens?",
            f"{long:.0f} GiB: the raw cache grows linearly, twice the {CONTEXT:,}-token figure.",
            f"Pause and predict: at {2 * CONTEXT} tokens, how big is the raw cache?",
            f"{long:.0f} gibibytes: twice the figure at {CONTEXT}, because it grows linearly.",
        ),
        Question(
            "With grouped-query attention, 8 key-value heads shared by the 32 query heads, how big is the "
            f"cache at {CONTEXT:,} tokens?",
            f"{grouped:.1f} GiB: a quarter of the full multi-head cache.",
            "",
            "",
        ),
        Question(
            f"Linear attention's states and normalisers take {state / 2**20:.2f} MiB at any length. "
            "After how many tokens does the raw cache take more?",
            f"From {raw_cache_overtakes(**MODEL)} tokens on: {raw_cache_overtakes(**MODEL) - 1} tokens take "
            f"{(raw_cache_overtakes(**MODEL) - 1) * kv_cache_bytes(**MODEL, seq_len=1) / 2**20:.2f} MiB, "
            "just under.",
            "",
            "",
        ),
    ]


def _adaptive(_p: Parameters | None) -> list[Question]:
    a = softmax(np.array([2.0, 0.0, 0.0]), 1.0)
    b = softmax(np.array([0.0, 0.0, 2.0]), 1.0)
    return [
        Question(
            "Which section's argument explains why a decoder keeps every raw key and value?",
            "Section six's: e^{q\u00b7k/\u03c4} has no exact finite split into a query part and a "
            "key part, so no fixed-size summary serves every future query.",
            "Pause and predict: which section's argument explains why a decoder keeps every raw key "
            "and value?",
            "Section six's: softmax's kernel has no exact finite split, so the cache keeps them all.",
        ),
        Question(
            "Two queries over the same three words score them (2, 0, 0) and (0, 0, 2). At \u03c4 = 1, "
            "what weight does each put on the first word?",
            f"{float(a[0]):.2f} and {float(b[0]):.2f}: the same words, two summaries, one per query.",
            "",
            "",
        ),
    ]


SECTIONS: dict[str, Callable[..., list[Question]]] = {
    "FixedVsQueryWeights": _fixed_vs_query,
    "KernelRegressionCollapse": _kernel_regression,
    "TemperatureSweep": _temperature,
    "KernelVariants": _kernel_variants,
    "HeadRouting": _head_routing,
    "KVCacheGrowth": _kv_cache,
    "AdaptiveSufficiency": _adaptive,
}
SCENES_WITH_QUESTIONS = tuple(SECTIONS)
"""Every section but the title has questions."""

_MODELS: dict[str, type[Parameters]] = {
    "FixedVsQueryWeights": FixedVsQueryParameters,
    "KernelRegressionCollapse": KernelRegressionParameters,
    "TemperatureSweep": TemperatureParameters,
}


def questions_for(scene: str, params: Parameters | None = None) -> list[Question]:
    """The questions of ``scene``'s section, computed from ``params`` (the defaults when None).

    >>> [q.prompt[:32] for q in questions_for("TemperatureSweep")][:1]
    ['As τ grows without bound, what d']
    >>> questions_for("LectureTitle")
    []
    """
    build = SECTIONS.get(scene)
    if build is None:
        return []
    model = _MODELS.get(scene)
    if model is not None and not isinstance(params, model):
        params = model()
    return build(params)
