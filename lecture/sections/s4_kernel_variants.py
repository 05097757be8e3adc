"""Section 4: kernel variants (linear attention, local windows, ALiBi, T5) and position as a prior."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from attnmath import VARIANTS, effective_k, local_window_mask, weight_profiles
from lecture.parameters import Parameters
from lecture.questions import Option, Question
from lecture.section import Figure, Section, floats

__all__ = ["KernelVariantsParameters", "SECTION"]


@dataclass(frozen=True)
class KernelVariantsParameters(Parameters):
    """The temperatures the variants are compared at (fixed example data)."""

    scene: ClassVar[str] = "KernelVariants"
    tau_range: tuple[float, float] = (0.05, 5.0)
    tau_path: tuple[float, ...] = (1.0, 0.05, 0.5)


def questions(p: KernelVariantsParameters) -> list[Question]:
    """A zero bias, ALiBi's weight ratio for a key further back, and a window's count of scores."""
    return [_zero_bias(p), _alibi_ratio(p), _window_count(p)]


def _zero_bias(_p: KernelVariantsParameters) -> Question:
    """The asked question: a zero position bias."""
    return Question(
        "Set every position bias to zero. What do the weights become?",
        "The content weights alone: a flat prior, r_i = 1/N, changes nothing (section three's "
        "uniform prior).",
        "Pause and predict: set every position bias to zero. What do the weights become?",
        "The content weights alone: a flat prior changes nothing.",
        (
            Option("The content weights alone"),
            Option(
                "Uniform over every position",
                "The content scores still differ, and softmax keeps their differences.",
            ),
            Option(
                "All on the nearest key",
                "Favouring near keys takes a bias that falls with distance; a zero bias favours none.",
            ),
        ),
    )


ALIBI_SLOPE = 0.25
"""The ALiBi prior's penalty per token of distance, as the section draws it ("-0.25 per token back")."""


def _alibi_ratio(_p: KernelVariantsParameters) -> Question:
    """Two keys alike in content, one 4 tokens further back: ALiBi's weight ratio at tau 1."""
    back = 4
    ratio = float(np.exp(-ALIBI_SLOPE * back))
    return Question(
        f"Under ALiBi with a penalty of {ALIBI_SLOPE:g} a token of distance, at \u03c4 = 1, two keys have "
        "the same content and one "
        f"lies {back} tokens further back. What fraction of the nearer key's weight does it get?",
        f"About {ratio:.2f}, e^{{\u22121}}: ALiBi takes {ALIBI_SLOPE:g} a token off the score, "
        f"{ALIBI_SLOPE * back:g} in all over {back} tokens, and softmax turns a score gap of "
        f"{ALIBI_SLOPE * back:g} into a weight ratio of e^{{\u2212{ALIBI_SLOPE * back:g}}}.",
        "",
        "",
        (
            Option(
                f"About {np.exp(-ALIBI_SLOPE):.2f}",
                f"That charges the penalty once; it grows with distance, {ALIBI_SLOPE:g} a token, "
                f"{ALIBI_SLOPE * back:g} over {back} tokens.",
            ),
            Option(
                "None: it is masked out",
                "ALiBi only lowers a score, and the exponential of a finite score is never zero.",
            ),
            Option(f"About {ratio:.2f}"),
        ),
    )


def _window_count(_p: KernelVariantsParameters) -> Question:
    """A window's count of scores against full attention's, each query scoring only keys up to its own."""
    n, w = 1000, 5  # w keys kept, the query's own included: the narration's and the picture's w
    window = int(local_window_mask(n, w - 1, causal=True).sum())
    full = int(np.tril(np.ones((n, n), dtype=bool)).sum())
    return Question(
        f"Each query scores only keys up to its own. A window keeps its last w = {w} keys, its own included. "
        f"How many query\u2013key scores does N = {n:,} tokens need, against every earlier key?",
        f"{window:,} against {full:,}: about N\u00b7w instead of N\u00b2/2.",
        "",
        "",
        (
            Option("About N\u00b7w instead of about half of N\u00b2"),
            Option(
                "The same: every query still scores every key",
                "Each query scores only the keys inside its window, at most w of them.",
            ),
            Option(
                "About w\u00b2, whatever N is",
                "Every one of the N queries scores up to w keys, so the count grows with N.",
            ),
        ),
    )


def figure(p: KernelVariantsParameters) -> dict[str, Any]:
    """Similarities, offsets and the position profiles, which no temperature changes."""
    lo, hi = p.tau_range
    tau = float(p.tau_path[-1])
    profiles = weight_profiles(tau)
    return {
        "variants": list(VARIANTS),
        "kinds": {name: "linear" if name.startswith("linear") else "softmax" for name in VARIANTS},
        "similarity": floats(profiles.similarity),
        "offsets": floats(profiles.offsets),
        "position": {name: floats(profiles.position[name]) for name in VARIANTS},
        "position_keff": {name: float(effective_k(profiles.position[name])) for name in VARIANTS},
        "tau_range": [float(lo), float(hi)],
        "tau": tau,
    }


SECTION = Section(
    scene=KernelVariantsParameters.scene,
    module="s4_kernel_variants",
    number="4",
    title="Kernel variants",
    seconds=118.0,
    parameters=KernelVariantsParameters,
    questions=questions,
    figure=Figure(figure),
    equations=(
        r"\sum_i \phi(q)^\top \phi(k_i)\, v_i^\top"
        r" = \phi(q)^\top \Big(\sum_i \phi(k_i)\, v_i^\top\Big)"
        r"\qquad O(N^2) \to O(N)",
        r"a_i \propto r_i \exp(s_i / \tau) = \exp\!\big((s_i + \tau \log r_i) / \tau\big)"
        r"\quad\text{maximises}\quad \mathbb{E}_a[s] - \tau\, \mathrm{KL}(a \,\|\, r)",
    ),
)
