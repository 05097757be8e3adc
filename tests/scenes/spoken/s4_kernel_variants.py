"""Numbers KernelVariants speaks: from attnmath's profiles and a fresh fit of the stored timings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from attnmath import weight_profiles

DATA = Path(__file__).resolve().parents[3] / "scenes" / "data" / "attention_cost.json"
COST = json.loads(DATA.read_text())


def exponent(name: str) -> float:
    """Slope of log time against log N over the larger half of the sizes (as the benchmark fits it)."""
    n, t = np.array(COST["n"], dtype=float), np.array(COST[f"{name}_seconds"])
    half = len(n) // 2
    slope, _ = np.polyfit(np.log(n[half:]), np.log(t[half:]), 1)
    return float(slope)


def cost_linear() -> list[str]:
    n = COST["n"][-1]
    ratio = COST["softmax_seconds"][-1] / COST["linear_seconds"][-1]
    return [f"{exponent('linear'):.1f}", str(round(n / 1000)), str(round(ratio))]


EXPECTED = {
    "position-row": lambda: [str(len(weight_profiles(1.0).offsets) - 1)],
    "cost-softmax": lambda: [f"{exponent('softmax'):.1f}"],
    "cost-linear": cost_linear,
}
