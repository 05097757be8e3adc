"""Numbers AdaptiveSufficiency's descriptions speak, recomputed with scipy from section 3's scores."""

from __future__ import annotations

import numpy as np
from scipy.special import softmax
from scipy.stats import entropy

from lecture.sections.s3_softmax_temperature import TemperatureParameters
from scenes.s7_adaptive_sufficiency import AdaptiveSufficiency

SCORES = np.asarray(TemperatureParameters().scores)  # section 3's scores, as the recap reads them
TAU = AdaptiveSufficiency.recap_tau  # the recap's temperature (the scene's data)


def entropy_card() -> list[str]:
    """Where softmax(s / tau) peaks (1-based), tau, and H(a) in nats, by scipy."""
    a = softmax(SCORES / TAU)
    return [str(int(np.argmax(a)) + 1), f"{TAU:g}", f"{entropy(a):.2f}"]


EXPECTED = {
    # the regression card's points: the scene draws noisy_sine(10, noise=0.25, seed=3), a count typed there
    "regression.description": lambda: ["10"],
    "entropy.description": entropy_card,
}
