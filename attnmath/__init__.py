"""Every quantity the lecture "Attention" shows, in plain numpy and scipy.

This package never imports manim: scenes draw what it computes.
"""

from attnmath.datasets import noisy_sine
from attnmath.kernels import (
    KERNELS,
    kernel_profile,
    kernel_weights,
    loo_cv_error,
    nadaraya_watson,
    squared_distances,
)
from attnmath.retrieval import (
    REGIMES,
    SweepResult,
    classify_regime,
    optimal_objective,
    retrieval_objective,
    solve_retrieval,
    temperature_sweep,
)
from attnmath.similarity import (
    SimilarityFit,
    attention_weights,
    fit_similarity,
    gaussian_as_dot_product,
    position_features,
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
    "KERNELS",
    "kernel_weights",
    "kernel_profile",
    "nadaraya_watson",
    "loo_cv_error",
    "squared_distances",
    "attention_weights",
    "fit_similarity",
    "SimilarityFit",
    "gaussian_as_dot_product",
    "position_features",
    "noisy_sine",
]
