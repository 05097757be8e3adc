"""Section 2: attention as kernel regression, and its collapse at the bandwidth's extremes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from attnmath import kernel_weights, loo_cv_error, noisy_sine
from lecture.parameters import Integer, Number, Parameters, lecturer
from lecture.questions import Option, Question
from lecture.section import Figure, Section, floats

__all__ = ["KernelRegressionParameters", "SECTION"]


@dataclass(frozen=True)
class KernelRegressionParameters(Parameters):
    """The noisy samples, the query and the bandwidths the sweep covers."""

    scene: ClassVar[str] = "KernelRegressionCollapse"
    n_points: int = lecturer(20, Integer(4, 60))
    seed: int = lecturer(0, Integer(0, 2**31, shown=False))
    query: float = lecturer(0.37, Number(0.0, 1.0))
    noise: float = 0.25
    sigma_range: tuple[float, float] = (0.002, 5.0)
    grid_size: int = 300


def questions(p: KernelRegressionParameters) -> list[Question]:
    """The widest and narrowest bandwidths' estimates, with k_eff at each."""
    x, y = noisy_sine(p.n_points, noise=p.noise, seed=p.seed)
    wide = kernel_weights(np.array([p.query]), x, p.sigma_range[1])[0]  # (N,)
    narrow = kernel_weights(np.array([p.query]), x, p.sigma_range[0])[0]  # (N,)
    k_wide = float(np.exp(-np.sum(wide * np.log(wide))))
    nearest = int(np.argmax(narrow))
    return [
        Question(
            "Open the bandwidth all the way. What does the estimate become?",
            f"A flat line at the samples' mean, {float(y.mean()):.2f}: every sample then weighs the same.",
            "Pause and predict: open the bandwidth all the way. What does the estimate become?",
            "A flat line at the samples' mean: every sample then weighs the same.",
            (
                Option("A flat line at the samples' mean"),
                Option(
                    "A curve through every sample",
                    "That is the narrowest bandwidth, where each query copies its nearest sample.",
                ),
                Option(
                    "A straight line along the trend",
                    "Equal weights give the same average at every query, so no slope is left.",
                ),
            ),
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


def figure(p: KernelRegressionParameters) -> dict[str, Any]:
    """The samples, the query, the bandwidth range and attnmath's leave-one-out minimum."""
    x, y = noisy_sine(p.n_points, noise=p.noise, seed=p.seed)
    lo, hi = p.sigma_range
    sigmas = np.geomspace(lo, hi, p.grid_size)
    loo = loo_cv_error(x, y, sigmas)
    best = int(np.argmin(loo))
    return {
        "x": floats(x),
        "y": floats(y),
        "query": float(p.query),
        "sigma_range": floats(p.sigma_range),
        "grid_size": int(p.grid_size),
        "sigma_best": float(sigmas[best]),
        "loo_best": float(loo[best]),
        "curve_points": 240,
    }


SECTION = Section(
    scene=KernelRegressionParameters.scene,
    module="s2_kernel_regression",
    number="2",
    title="Attention as kernel regression",
    seconds=101.0,
    parameters=KernelRegressionParameters,
    questions=questions,
    figure=Figure(figure),
    equations=(
        r"\hat f(q) = \frac{\sum_i K(q, x_i)\, y_i}{\sum_j K(q, x_j)}",
        r"K(q, x) = \exp\!\left(-\frac{\|q - x\|^2}{2\sigma^2}\right)",
        r"w_i = \operatorname{softmax}_i\!\left(-\frac{\|q - x_i\|^2}{2\sigma^2}\right)"
        r" = \operatorname{softmax}_i\!\left(\frac{q\, x_i}{\sigma^2} - \frac{x_i^2}{2\sigma^2}\right)",
    ),
)
