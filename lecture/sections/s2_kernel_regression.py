"""Section 2: attention as kernel regression, and its collapse at the bandwidth's extremes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from attnmath import loo_cv_error, noisy_sine
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
    """The widest bandwidth's estimate, what doubled heights do, and which bandwidth varies most."""
    return [_widest_bandwidth(p), _doubled_heights(p), _fresh_samples(p)]


def _widest_bandwidth(p: KernelRegressionParameters) -> Question:
    """The asked question: the widest bandwidth's estimate."""
    x, y = noisy_sine(p.n_points, noise=p.noise, seed=p.seed)
    return Question(
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
    )


def _doubled_heights(_p: KernelRegressionParameters) -> Question:
    """Doubled heights double the estimate: weights read positions only."""
    return Question(
        "Double every sample's height y, keeping their positions. What happens to the estimate at each "
        "query?",
        "It doubles: the weights depend only on the positions, so the same weights now average doubled "
        "heights.",
        "",
        "",
        (
            Option("It doubles"),
            Option(
                "It stays the same",
                "The weights stay, but they now average heights that are twice as large.",
            ),
            Option(
                "Its weight moves to the tallest samples",
                "Kernel weights look only at positions, never at the heights they average.",
            ),
        ),
    )


def _fresh_samples(_p: KernelRegressionParameters) -> Question:
    """Which bandwidth's estimate fresh noise moves most."""
    return Question(
        "Draw fresh noisy samples of the same curve and fit again. Whose estimate changes most?",
        "The tiniest bandwidth's: it copies the nearest sample, noise and all (high variance). The "
        "widest averages every sample, so fresh noise mostly cancels (low variance, high bias).",
        "",
        "",
        (
            Option(
                "The widest bandwidth's",
                "It averages every sample, so fresh noise mostly cancels and its curve barely moves.",
            ),
            Option("The tiniest bandwidth's"),
            Option(
                "Every bandwidth's equally",
                "Wider kernels average more samples and cancel more noise; the tiniest copies one sample.",
            ),
        ),
    )


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
