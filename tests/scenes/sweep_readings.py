"""What the temperature sweep's readouts spell while its knob moves, read from the drawn paths alone."""

from __future__ import annotations

import numpy as np

from drawing.readouts import Readout

__all__ = ["read_readout", "slider_tau", "sweep_reading"]

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


def sweep_reading(scene) -> tuple[float, dict[str, str]] | None:
    """While the sweep runs: the knob's temperature and what each readout spells; None at other times."""
    if getattr(scene, "regimes_on", False) and id(scene.dashboard) in scene.live_drivers:
        printed = {n: read_readout(r) for n, r in zip(NAMES, scene.readouts, strict=True)}
        return slider_tau(scene), printed
    return None
