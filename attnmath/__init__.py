"""Every quantity the lecture "Attention" shows, in plain numpy and scipy.

This package never imports manim: scenes draw what it computes.
"""

from attnmath.retrieval import (
    REGIMES,
    SweepResult,
    classify_regime,
    optimal_objective,
    retrieval_objective,
    solve_retrieval,
    temperature_sweep,
)
from attnmath.softmax import check_distribution, effective_k, entropy, softmax

__all__ = [
    "softmax",
    "entropy",
    "effective_k",
    "check_distribution",
    "retrieval_objective",
    "optimal_objective",
    "solve_retrieval",
    "temperature_sweep",
    "SweepResult",
    "classify_regime",
    "REGIMES",
]
