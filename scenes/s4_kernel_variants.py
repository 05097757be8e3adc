"""Section 4: kernel variants — how retrieval weight falls off with similarity and with position.

Render with ``manim -qh scenes/s4_kernel_variants.py KernelVariants``.

The storyboard is here; its beats live beside it, one module an idea:
:mod:`scenes.s4_profiles` (weight against content and against position),
:mod:`scenes.s4_linear` (linear attention's regrouping), :mod:`scenes.s4_cost`
(measured wall time) and :mod:`scenes.s4_position` (position bias as a prior).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from lecture.sections.s4_kernel_variants import KernelVariantsParameters
from scenes.base import LectureScene
from scenes.s4_cost import MeasuredCost
from scenes.s4_linear import LinearAttention
from scenes.s4_position import PositionPrior
from scenes.s4_profiles import ProfilePanels

__all__ = ["KernelVariants"]


class KernelVariants(
    ProfilePanels, LinearAttention, MeasuredCost, PositionPrior, LectureScene[KernelVariantsParameters]
):
    """Five kernels seen by content and by position, one temperature slider; then cost and priors."""

    prior_tau: ClassVar[float] = 1.0

    def construct(self) -> None:
        """Storyboard of the section: one beat per idea, each with its narration."""
        self.title_beat()
        self.build_profiles()
        self.show_content()
        self.show_positions()
        self.sweep_temperature()
        self.show_linear_rearrangement()
        self.show_cost()
        self.show_position_prior()
        self.pause_and_predict(
            self.question(),
            self.flatten_prior,
            shows="The prior flattens; the weights take the content bars' exact shape.",
            ends_section=True,
        )

    def paced_sweep(self, target: float) -> None:
        """Move the slider to ``target`` over most of the narration still to come (5 to 9 seconds)."""
        seconds = min(max(self.speech_left() - 0.5, 5.0), 9.0)
        self.sweep_to(self.tau, np.log10(target), seconds)

    def sweep_temperature(self) -> None:
        """Move the slider: the content curves sharpen and flatten; the position profile stays put."""
        cold, warm = self.params.tau_path[1:]
        start, low, high = (
            self.readout.text_for(tau) for tau in self.params.tau_path
        )  # as the readout prints them
        with self.beat(
            "sharpen",
            "Lower the content's temperature: softmax sharpens onto the most similar keys, linear "
            "attention far less; the position priors, held fixed here, stay put.",
            shows=f"A tau slider falls from {start} to {low}, softmax a spike, then rises to {high}.",
        ):
            self.go_live(self.live, self.refresh)
            self.sweep_to(self.tau, np.log10(cold), 4.0)
            self.until_said("position priors")
            self.sweep_to(self.tau, np.log10(warm), max(2.0, self.speech_left() - 0.3))
        self.stop_live(self.live)
