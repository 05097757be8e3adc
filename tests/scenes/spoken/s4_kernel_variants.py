"""Numbers KernelVariants speaks: from attnmath's profiles and a fresh fit of the stored timings.

Its descriptions' numbers are recomputed here by closed forms, scipy and naive loops over the scene's
data (the temperatures), not with the scene's code or attnmath's kernels.
"""

from __future__ import annotations

import inspect
import json
import math
from pathlib import Path

import numpy as np
from scipy.special import softmax

from attnmath import weight_profiles
from lecture.sections.s4_kernel_variants import KernelVariantsParameters

DATA = Path(__file__).resolve().parents[3] / "scenes" / "data" / "attention_cost.json"
COST = json.loads(DATA.read_text())

P = KernelVariantsParameters()  # the scene's data parameters: tau_path
PROFILE = {k: v.default for k, v in inspect.signature(weight_profiles).parameters.items() if k != "tau"}
"""The profiles' settings as the scene takes them (the defaults): n_similarity, n_positions, window, ..."""
COSINES = np.linspace(-1.0, 1.0, PROFILE["n_similarity"])  # the content panel's cosines
ALIBI_SLOPE = 0.25  # the scene's prior row: alibi_bias(n, 0.25), titled "ALiBi prior (−0.25 per token back)"


def exponent(name: str) -> float:
    """Slope of log time against log N over the larger half of the sizes (as the benchmark fits it)."""
    n, t = np.array(COST["n"], dtype=float), np.array(COST[f"{name}_seconds"])
    half = len(n) // 2
    slope, _ = np.polyfit(np.log(n[half:]), np.log(t[half:]), 1)
    return float(slope)


def cost_softmax() -> list[str]:
    assert round(exponent("softmax")) == 2  # "about as N squared"
    return [f"{exponent('softmax'):.1f}"]


def cost_linear() -> list[str]:
    assert round(exponent("linear")) == 1  # "about as N"
    n = COST["n"][-1]
    ratio = COST["softmax_seconds"][-1] / COST["linear_seconds"][-1]
    return [f"{exponent('linear'):.1f}", str(round(n / 1000)), str(round(ratio))]


def softmax_peak(tau: float) -> str:
    """The cosine where softmax(cos / tau) over the panel's cosines peaks, by scipy."""
    return f"{COSINES[int(np.argmax(softmax(COSINES / tau)))]:g}"


def content_row() -> list[str]:
    return [softmax_peak(P.tau_path[0])]


def content_linear() -> list[str]:
    """elu+1 linear attention on q = (1, 0), k = (c, sqrt(1 - c^2)), both over sqrt(tau), in closed form.

    phi(q) = (a, 1) with a = 1 / sqrt(tau) + 1, so the kernel is
    a phi(c / sqrt(tau)) + sqrt(1 - c^2) / sqrt(tau) + 1: at c = -1 it is a e^(-1 / sqrt(tau)) + 1; for c > 0
    its maximum is at c = a / sqrt(1 + a^2), where it is a + 1 + sqrt(1 + a^2) / sqrt(tau).
    """
    r = 1.0 / math.sqrt(P.tau_path[0])
    a = r + 1.0
    top = a / math.sqrt(1.0 + a * a)  # below 1 for every tau: "topping near cosine ..."
    return [f"{top:.1f}"]


def position_row_description() -> list[str]:
    """Slots back to the oldest key and keys in all: equal scores give softmax's 1/N to each, by scipy."""
    n = PROFILE["n_positions"]
    assert np.allclose(softmax(np.zeros(n)), 1.0 / n)  # "equal weight each"
    return [str(n - 1), str(n)]


def position_priors() -> list[str]:
    """Slots a causal window of half-width w keeps: the query's own and the w before it, counted."""
    return [str(sum(1 for back in range(PROFILE["n_positions"]) if back <= PROFILE["window"]))]


def position_t5() -> list[str]:
    """Weight one token back over the query's own: e^(b(1) - b(0)), b(d) = -strength log(1 + d).

    Distance 1 has its own T5 bucket, so its stylised value is that of d = 1 itself.
    """
    return [f"{math.exp(-PROFILE['t5_strength'] * math.log(2.0)):.1f}"]


def sharpen() -> list[str]:
    return [f"{tau:.2f}" for tau in P.tau_path]  # the readout's two decimals: start, cold, warm


EXPECTED = {
    "position-row": lambda: [str(len(weight_profiles(1.0).offsets) - 1)],
    "cost-softmax": cost_softmax,
    "cost-linear": cost_linear,
    "position-row.description": position_row_description,
    "content-row.description": content_row,
    "content-linear.description": content_linear,
    "position-priors.description": position_priors,
    "position-t5.description": position_t5,
    "sharpen.description": sharpen,
    "cost-softmax.description": lambda: [str(COST["d"])],  # the timings' head width, from the data file
}
