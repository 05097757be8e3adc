"""Numbers TemperatureSweep speaks, computed from the scores with scipy, not with the scene or attnmath.

The one exception is the optimiser's gap from softmax: the optimiser (``attnmath.solve_retrieval``) has no
closed form to check it against, so it is run here and compared with scipy's softmax.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp, rel_entr, softmax
from scipy.stats import entropy

from attnmath import solve_retrieval
from attnmath.datasets import RETRIEVAL_SCORES, SCORE_HEAD
from scenes.s3_softmax_temperature import TemperatureSweep

SCORES = np.asarray(RETRIEVAL_SCORES)
COLD, WARM, HOT = (tau for _slug, tau, _seconds in TemperatureSweep.stops)  # the sweep's stops
CHECK = TemperatureSweep.check_tau  # where the optimiser is checked
CODA = TemperatureSweep.coda_tau  # the prior coda's temperature


def effective_k(tau: float) -> float:
    """e to the entropy of softmax(s / tau), by scipy."""
    return float(np.exp(entropy(softmax(SCORES / tau))))


def objective(tau: float) -> float:
    """E_a[s] + tau H(a) at a = softmax(s / tau), summed naively."""
    a = softmax(SCORES / tau)
    return float(sum(ai * si for ai, si in zip(a, SCORES, strict=True)) + tau * entropy(a))


def items(values) -> list[str]:
    """The three largest, as the screen numbers items (from 1), by a plain sort."""
    return [str(i + 1) for i in sorted(range(len(values)), key=lambda i: -values[i])[:3]]


def prior(strength: float) -> np.ndarray:
    """The coda's position prior, by hand: r_i proportional to e to the minus strength times the scene's
    decay times the distance from the last item."""
    r = np.array(
        [np.exp(-strength * TemperatureSweep.prior_decay * (SCORES.size - 1 - i)) for i in range(SCORES.size)]
    )
    return r / r.sum()


def with_prior(strength: float) -> tuple[int, float, float]:
    """(top item, k effective, J) of a_i proportional to r_i e^(s_i / tau) at the coda's temperature; J is
    E_a[s] - tau KL(a || r), summed naively, and must equal its closed form tau log sum r_i e^(s_i / tau)."""
    r = prior(strength)
    a = r * np.exp(SCORES / CODA)
    a = a / a.sum()
    j = float(sum(a * SCORES) - CODA * sum(rel_entr(a, r)))
    assert np.isclose(j, CODA * logsumexp(SCORES / CODA, b=r))
    return int(np.argmax(a)) + 1, float(np.exp(entropy(a))), j


def optimiser_gap() -> list[str]:
    """The optimiser's largest gap from scipy's softmax, as the label prints it (``2e-10``) and the ear
    hears it ("2 times 10 to the minus 10"): mantissa, then ten and the exponent's size."""
    gap = float(np.max(np.abs(solve_retrieval(SCORES, CHECK, polish=False) - softmax(SCORES / CHECK))))
    assert gap < 1e-6  # it did land on the softmax
    mantissa, exponent = f"{gap:.0e}".split("e")
    return [mantissa, "10", str(abs(int(exponent)))]


def prior_drop() -> list[str]:
    """The coda's temperature (a constant), and the drop of J under a uniform prior, which must be
    tau log N."""
    before, after = objective(CODA), with_prior(0.0)[2]
    assert np.isclose(before - after, CODA * np.log(SCORES.size))
    return [f"{CODA:.2f}", str(SCORES.size), f"{before - after:.2f}"]  # and the prior's bars, one an item


def prior_leans() -> list[str]:
    """The leaning prior's new top item, which outgrows the old one, and its k effective."""
    top, k, _j = with_prior(1.0)
    return [str(top), str(with_prior(0.0)[0]), f"{k:.2f}"]


def summary() -> list[str]:
    """Each chart's temperature (the scene's constants)."""
    return [f"{tau:g}" for tau in TemperatureSweep.summary_taus]


EXPECTED = {
    "retrieval": lambda: [str(len(SCORES)), "2"],  # the model's name, SmolLM2, said "Smol L M 2"
    "retrieval.description": lambda: [str(n) for n in SCORE_HEAD],  # tests/attnmath/test_decoder.py checks it
    "argmax": lambda: [f"{max(SCORES):g}"],
    "predict-answer": lambda: [f"{sum(SCORES) / len(SCORES):.3f}"],
    "intermediate": lambda: [f"{effective_k(WARM):.2f}"],
    "uniform": lambda: [f"{effective_k(HOT):.0f}", f"{objective(HOT):.0f}"],
    # N numbered bars (a count), then the three highest scores' items (each named by its word too)
    "scores.description": lambda: [str(SCORES.size), *items(SCORES)],
    # the check temperature (a constant), then the optimiser's gap
    "weights": lambda: [f"{CHECK:g}"],  # the optimiser's temperature, said
    "weights.description": lambda: [f"{CHECK:.2f}", *optimiser_gap()],
    "argmax.description": lambda: [
        f"{COLD:g}",  # the stop's temperature, a constant
        str(int(np.argmax(softmax(SCORES / COLD))) + 1),
        str(int(np.argsort(SCORES)[-2]) + 1),  # the runner-up, lifted past the top score
    ],
    "intermediate.description": lambda: [
        f"{WARM:g}",  # the stop's temperature, a constant
        *items(softmax(SCORES / WARM)),
        f"{entropy(softmax(SCORES / WARM)):.3f}",
    ],
    # the stop's temperature (a constant), all N bars (the count), the average score there by scipy
    "predict-answer.description": lambda: [
        f"{HOT:g}",
        str(SCORES.size),
        f"{float(softmax(SCORES / HOT) @ SCORES):.3f}",
    ],
    "uniform.description": lambda: [f"{entropy(softmax(SCORES / HOT)):.3f}", str(SCORES.size)],  # log N
    "prior.description": prior_drop,
    "prior-leans.description": prior_leans,
    "summary.description": summary,
}
