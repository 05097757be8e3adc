"""Manim's own floor for ``make bench``: a scene that only holds one still frame for 60 seconds.

It draws a panel like the lecture's (bars, a title, a readout) once and waits,
so its render time is what manim's pipeline costs per second of video when
no frame has to be drawn anew: writing frames and encoding them. It is plain
manim: the lecture's own faster handling of held frames
(``manim_patches``) is not installed here, so this is manim's floor.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, UP, Scene

from drawing.readouts import Readout
from drawing.widgets import BarPanel, label

SECONDS = 60.0


class HoldStill(Scene):
    """One still frame, held."""

    def construct(self) -> None:
        panel = BarPanel(np.linspace(0.1, 0.9, 12), width=6.0, height=2.5, title=label("a still frame"))
        readout = Readout(r"H(a) =", 1.234, decimals=3, widest=9.0).next_to(panel, DOWN, buff=0.6)
        self.add(panel.shift(0.5 * UP), readout)
        self.wait(SECONDS)
