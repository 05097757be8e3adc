"""Numbers TemperatureSweep speaks, computed from the scores with scipy, not with the scene or attnmath."""

from __future__ import annotations

import numpy as np
from scipy.special import softmax
from scipy.stats import entropy

from attnmath.datasets import RETRIEVAL_SCORES

SCORES = np.asarray(RETRIEVAL_SCORES)
HOT = 100.0  # the sweep's last stop
WARM = 0.6  # the stop where the effective number of items is read out


def effective_k(tau: float) -> float:
    """e to the entropy of softmax(s / tau), by scipy."""
    return float(np.exp(entropy(softmax(SCORES / tau))))


def objective(tau: float) -> float:
    """E_a[s] + tau H(a) at a = softmax(s / tau), summed naively."""
    a = softmax(SCORES / tau)
    return float(sum(ai * si for ai, si in zip(a, SCORES, strict=True)) + tau * entropy(a))


EXPECTED = {
    "retrieval": lambda: [str(len(SCORES))],
    "argmax": lambda: [f"{max(SCORES):g}"],
    "predict-answer": lambda: [f"{sum(SCORES) / len(SCORES):.2f}"],
    "intermediate": lambda: [f"{effective_k(WARM):.2f}"],
    "uniform": lambda: [f"{effective_k(HOT):.0f}", f"{objective(HOT):.0f}"],
}
