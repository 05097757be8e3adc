"""What the temperature sweep's readouts spell while its knob moves, read from the drawn paths alone."""

from __future__ import annotations

import numpy as np

from drawing.readouts import Readout

__all__ = ["bar_values", "read_readout", "slider_tau", "sweep_reading"]

NAMES = ("tau", "H", "k_eff", "E", "J")
"""The sweep's readouts, top to bottom."""


def read_readout(readout: Readout) -> str:
    """The text a readout's number path spells, read glyph by glyph from its points alone."""
    points, text = readout.number.points, ""
    templates = {c: g.mob.points - g.mob.get_center() for c, g in readout.glyphs.items()}
    while len(points):
        for char, ref in templates.items():
            block = points[: len(ref)]
            centre = (block.min(axis=0) + block.max(axis=0)) / 2
            if len(block) == len(ref) and np.allclose(block - centre, ref, atol=1e-6):
                text, points = text + char, points[len(ref) :]
                break
        else:
            return text + "?"
    return text


def slider_tau(scene) -> float:
    """The temperature where the slider's knob stands, read from its position on the line."""
    slider = scene.slider
    start, end = slider.line.get_start()[0], slider.line.get_end()[0]
    frac = (slider.knob.get_x() - start) / (end - start)
    return float(10 ** (slider.log_lo + frac * (slider.log_hi - slider.log_lo)))


def bar_values(panel) -> np.ndarray:
    """The values a bar panel's bars stand at, read back from where each bar's far end is drawn."""
    bottom, top = panel.box.get_bottom()[1], panel.box.get_top()[1]
    lo, hi = panel.y_range
    zero = bottom + (np.clip(0.0, lo, hi) - lo) / (hi - lo) * (top - bottom)
    ends = [
        bar.points[:, 1].max() if bar.points[:, 1].max() > zero + 1e-9 else bar.points[:, 1].min()
        for bar in panel.bars
    ]
    return lo + (np.array(ends) - bottom) / (top - bottom) * (hi - lo)


def sweep_reading(scene) -> tuple[float, dict[str, str], np.ndarray] | None:
    """While the sweep runs: the knob's temperature, what each readout spells and the scores the score
    bars stand at (section 3 lifts one in its near tie); None at other times."""
    if getattr(scene, "regimes_on", False) and id(scene.dashboard) in scene.live_drivers:
        printed = {n: read_readout(r) for n, r in zip(NAMES, scene.readouts, strict=True)}
        return slider_tau(scene), printed, bar_values(scene.score_panel)
    return None
