"""Section 4, measured cost: wall time of softmax and linear attention against N, log-log.

The timings are stored in ``scenes/data/attention_cost.json`` (plain numpy,
all N x N weights built), with the exponents fitted to them. Mixed into
section 4's scene.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    DR,
    LEFT,
    RIGHT,
    UL,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    VGroup,
    VMobject,
)

from drawing import theme
from drawing.plots import axis_labels, band, curve, quiet_axes, to_scene
from drawing.widgets import label, math
from lecture.sections.s4_kernel_variants import KernelVariantsParameters
from scenes.base import Mixin

__all__ = ["MeasuredCost", "COST_DATA"]

COST_DATA = Path(__file__).resolve().parent / "data" / "attention_cost.json"

DECADES = {-4: "0.1 ms", -2: "10 ms", 0: "1 s", 2: "100 s"}  # every other decade: ticks that read at 30


class MeasuredCost(Mixin[KernelVariantsParameters]):
    """Mixin for section 4's scene: the two beats of the log-log timing plot."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in
        leaving: VGroup

    # --- measured cost ------------------------------------------------------------
    def show_cost(self) -> None:
        """Measured wall time against N, log-log, with the fitted exponents: softmax first, then linear."""
        data = json.loads(COST_DATA.read_text())
        frame, soft, lin, gap = self.cost_plot(data)
        n_last, speedup = data["n"][-1], data["softmax_seconds"][-1] / data["linear_seconds"][-1]
        faster = VGroup(
            label(f"{speedup:.0f}\u00d7 faster"),
            label(f"at N = {n_last:,}"),
            label("for blunter weights", color=theme.WARNING),
        )
        axes = frame[0]  # the note sits in the plot's empty upper left, clear of both lines
        faster.arrange(DOWN, buff=0.1, aligned_edge=LEFT).next_to(axes.get_corner(UL), DR, buff=0.2)
        with self.beat(
            "cost-softmax",
            "At large N, softmax's time grows about as N squared: "
            f"on log-log axes, slope {data['softmax_exponent']:.1f};",
            shows=f"Log-log numpy timings against N, key width {data['d']}: "
            "softmax starts shallow, then climbs steeply.",
        ):
            self.play(FadeOut(self.leaving), run_time=0.6)
            self.play(Create(frame[0]), FadeIn(frame[1:]), run_time=0.8)
            self.play(Create(soft[0]), FadeIn(soft[1]), run_time=1.6)
            self.when_said("slope", Indicate(soft[1], color=theme.WEIGHT, scale_factor=1.15), run_time=1.2)
        with self.beat(
            "cost-linear",
            f"linear attention's about as N, slope {data['linear_exponent']:.1f}: at about "
            f"{n_last / 1000:.0f} thousand tokens, {speedup:.0f} times faster on our machine, "
            "computing blunter weights.",
            shows="The linear line climbs gently below softmax's; the shaded gap between widens with N.",
        ):
            self.play(Create(lin[0]), FadeIn(lin[1]), run_time=2.5)
            self.until_said("at about")
            self.fade_in(faster[:2], run_time=1.0)
            self.when_said("times faster", FadeIn(gap), run_time=1.2)
            self.when_said("blunter", FadeIn(faster[2], shift=0.2 * UP), run_time=1.0)
            self.hold(0.8)  # the note's last line is read before the plot leaves
        self.leaving = VGroup(frame, soft, lin, faster, gap)

    def cost_plot(self, data: dict) -> tuple[VGroup, VGroup, VGroup, VMobject]:
        """(axes with ticks, titles and source; softmax line and tag; linear line and tag; the gap), log-log.

        The gap between the lines is shaded: on log axes its height is the speed-up's factor.
        """
        n = np.log10(np.array(data["n"], dtype=float))
        soft = np.log10(np.array(data["softmax_seconds"]))
        lin = np.log10(np.array(data["linear_seconds"]))
        lo, hi = float(np.floor(min(soft.min(), lin.min()))), float(np.ceil(max(soft.max(), lin.max())))
        # Data are plotted relative to (1, lo) so that both axes sit at the plot's lower-left corner.
        n, soft, lin = n - 1.0, soft - lo, lin - lo
        axes = quiet_axes((0.0, 3.5), (0.0, hi - lo), width=7.8, height=4.4).move_to([-1.2, 0.3, 0])
        decades = [e for e in DECADES if lo < e <= hi]
        titles = VGroup(
            axis_labels(
                axes,
                "sequence length N (log scale)",
                x_ticks=(0.0, 1.0, 2.0, 3.0),
                tick_text=lambda v: f"{10 ** (v + 1):,.0f}",
            ),
            axis_labels(
                axes,
                None,
                "time per call (log scale)",
                y_ticks=[e - lo for e in decades],
                tick_text=lambda v: DECADES[round(v + lo)],
            ),
        )
        source = label(f"numpy timings, d = {data['d']}", small=True, color=theme.MUTED)
        source.move_to([theme.SAFE_RIGHT - source.width / 2, titles[1][-1].get_y(), 0])
        lines = []
        for ys, name, color in ((soft, "softmax", theme.WEIGHT), (lin, "linear", theme.TEXT)):
            line = curve(axes, n, ys, color=color, width=5)
            tag = math(rf"\text{{{name}: }} N^{{{data[name + '_exponent']:.1f}}}", color=color).next_to(
                to_scene(axes, n[-1], ys[-1])[0], RIGHT, buff=0.2
            )
            lines.append(VGroup(line, tag))
        gap = band(axes, n, lin, soft, color=theme.MUTED, opacity=0.3).set_z_index(-1)
        return VGroup(axes, titles, source), lines[0], lines[1], gap
