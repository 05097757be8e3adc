"""The temperature sweep written the straightforward way, for ``make bench`` to compare against.

``always_redraw`` rebuilds a ``BarChart`` and a ``MathTex`` readout on every
frame. Not part of the lecture, and plain manim: it imports nothing of
``scenes`` (whose kit would install the lecture's encoder settings and SVG cache),
so it runs as a straightforward scene would.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, UP, BarChart, MathTex, Scene, ValueTracker, always_redraw, linear

from attnmath import entropy, softmax
from attnmath.datasets import RETRIEVAL_SCORES

SECONDS = 4.0


class NaiveTemperatureSweep(Scene):
    """Rebuilds everything every frame."""

    def construct(self) -> None:
        s = np.asarray(RETRIEVAL_SCORES)
        log_tau = ValueTracker(-2.0)

        def weights() -> np.ndarray:
            return softmax(s, 10 ** log_tau.get_value())

        chart = always_redraw(
            lambda: BarChart(list(weights()), y_range=[0, 1, 0.25], x_length=8, y_length=4).shift(0.5 * UP)
        )
        readout = always_redraw(
            lambda: MathTex(
                rf"\tau = {10 ** log_tau.get_value():.3f},\; H(a) = {entropy(weights()):.3f}"
            ).to_edge(DOWN)
        )
        self.add(chart, readout)
        self.play(log_tau.animate.set_value(2.0), run_time=SECONDS, rate_func=linear)
