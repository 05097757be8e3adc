"""Section 4, linear attention: N x N weights against a d x d summary, and the regrouping between them.

Softmax's Q K^T is N x N before it meets V (a local window keeps a band of
it); linear attention's feature map factors the kernel, so phi(K)^T V is
summed once into a d x d matrix that phi(Q) multiplies. Mixed into section 4's
scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from manim import (
    DOWN,
    DR,
    RIGHT,
    UL,
    UP,
    BackgroundRectangle,
    Brace,
    Circumscribe,
    Create,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowFromCenter,
    Indicate,
    Mobject,
    Polygon,
    TransformFromCopy,
    VGroup,
)

from drawing import theme
from drawing.blocks import matrix_block
from drawing.widgets import label, math
from lecture.sections.s4_kernel_variants import KernelVariantsParameters
from scenes.base import Mixin

__all__ = ["LinearAttention", "window_band"]

LINEAR_ROLES = {"q": theme.QUERY, "k_i": theme.KEY, "v_i": theme.VALUE}


def window_band(box: Mobject, share: float) -> Polygon:
    """The entries a window of ``share`` of the keys keeps in an N x N block: a band left of the diagonal.

    Rows are queries (top first), columns keys (left first); query row v keeps keys from v - share to v.
    """
    (left, top), (right, bottom) = box.get_corner(UL)[:2], box.get_corner(DR)[:2]

    def at(u: float, v: float) -> np.ndarray:
        return np.array([left + u * (right - left), top + v * (bottom - top), 0.0])

    band = Polygon(at(0, 0), at(1, 1), at(1 - share, 1), at(0, share))
    band.set_stroke(theme.WEIGHT, width=2).set_fill(theme.WEIGHT, opacity=0.45)
    return band.set_z_index(-1)  # under the block's name


class LinearAttention(Mixin[KernelVariantsParameters]):
    """Mixin for section 4's scene: the three beats on linear attention's cost and its regrouping."""

    if TYPE_CHECKING:  # provided by the scene that mixes this in

        @property
        def grid(self) -> VGroup:
            """The first half's picture (section 4's profile panels)."""
            ...

    # --- linear attention -------------------------------------------------------
    def factor(self, identity: VGroup) -> None:
        """The sum of kernel times value, then its two parts drawn out of it as the words name them.

        The kernel phi(q)^T phi(k_i) is ringed; phi(q)^T moves out of the sum (the query part), and
        the sum of phi(k_i) v_i^T gathers in the bracket (the key part).
        """
        left = identity[:4]
        self.play(FadeIn(left), run_time=1.0)
        self.when_said("factors", Circumscribe(VGroup(identity[1], identity[2]), color=theme.WEIGHT))
        query = TransformFromCopy(identity[1], identity[5])
        self.when_said("a query part", FadeIn(identity[4]), query, run_time=1.2)
        keys = FadeTransform(VGroup(identity[0], identity[2], identity[3]).copy(), identity[6])  # gathered
        self.when_said("a key part", keys, run_time=1.2)
        self.remove(left, *identity[4:])
        self.add(identity)  # one equation again, as the next beats and the exit take it

    def cost_rows(self) -> tuple[VGroup, VGroup]:
        """Softmax: Q K^T is N x N, then times V; linear: phi(K)^T V is d x d, then phi(Q) times it."""
        big, small = 1.7, 0.6
        softmax_row = VGroup(
            label("softmax"),
            matrix_block(small, big, r"Q", theme.QUERY),
            math(r"\cdot"),
            matrix_block(big, small, r"K^\top", theme.KEY),
            math(r"\to"),
            matrix_block(big, big, r"N \times N", theme.WEIGHT),
            math(r"\cdot"),
            matrix_block(small, big, r"V", theme.VALUE),
            math(r"O(N^2)", color=theme.WARNING),
        ).arrange(RIGHT, buff=0.3)
        linear_row = VGroup(
            label("linear"),
            matrix_block(big, 0.8, r"\phi(K)^\top", theme.KEY),
            math(r"\cdot"),
            matrix_block(small, big, r"V", theme.VALUE),
            math(r"\to"),
            matrix_block(small, small, r"S", theme.VALUE),
            math(r";\;"),
            matrix_block(1.1, big, r"\phi(Q)", theme.QUERY),
            math(r"\cdot"),
            matrix_block(small, small, r"S", theme.VALUE),
            math(r"O(N)", color=theme.VALUE),
        ).arrange(RIGHT, buff=0.3)
        for row, y in ((softmax_row, 2.35), (linear_row, -2.1)):
            row.move_to([0, y, 0])
            row[-1].shift(0.3 * RIGHT)
        return softmax_row, linear_row

    def show_linear_rearrangement(self) -> None:
        """(N x N) weights against a (d x d) pre-aggregated summary; the regrouping identity between them."""
        softmax_row, linear_row = self.cost_rows()
        identity = math(
            r"\sum_i",
            r"\phi(q)^\top",
            r"\phi(k_i)",
            r"\, v_i^\top",
            r"\;=\;",
            r"\phi(q)^\top",
            r"\Big(\sum_i \phi(k_i)\, v_i^\top\Big)",
            size=48,
            colors=LINEAR_ROLES,
        ).move_to(0.65 * UP)
        brace = Brace(identity[6], DOWN, buff=0.1, color=theme.VALUE)
        brace_tag = math(
            r"S:\; d \times d,\;\; z = \textstyle\sum_i \phi(k_i)", color=theme.VALUE, colors=LINEAR_ROLES
        )
        brace_tag.next_to(brace, DOWN, buff=0.1)
        with self.beat(
            "linear-quadratic",
            "Softmax attention builds all N by N weights: its cost grows with N squared; "
            "a window of w keys costs N times w.",
            shows="N by N square, times V; a diagonal band, the window: O of N w.",
        ):
            self.play(FadeOut(self.grid), run_time=0.8)
            square = softmax_row[5]
            self.when_said("Softmax attention", FadeIn(VGroup(*softmax_row[:5])), run_time=1.0)
            self.when_said("N by N", GrowFromCenter(square), run_time=1.0)
            self.when_said("N squared", FadeIn(VGroup(*softmax_row[6:])), run_time=1.0)
            band = window_band(square[0], 0.25)
            halo = BackgroundRectangle(square[1], color=theme.BACKGROUND, fill_opacity=0.85, buff=0.08)
            square[1].set_z_index(1)  # the block's name reads over the band, on its own dark ground
            window = math(r"O(N w)", color=theme.WEIGHT)  # the band's cost, in the band's colour
            window.next_to(softmax_row[-1], DOWN, buff=0.25)
            softmax_row.add(band, halo, window)
            self.when_said("a window", Create(band), FadeIn(halo), run_time=1.2)
            self.when_said("N times w", FadeIn(window, shift=0.1 * DOWN), run_time=0.8)
        with self.beat(
            "linear-factor",
            "Linear attention's feature map, phi, factors the kernel into a query part and a key part.",
            shows="An identity pulls phi q out of the sum of phi k i v i.",
        ):
            self.factor(identity)
        with self.beat(
            "linear-summary",
            "Keys and values pre-aggregate into one d by d sum, d the key width; a normaliser sums phi of k: "
            "linear cost.",
            shows="The sum is S: phi K transpose times V makes it; phi Q multiplies it.",
        ):
            self.play(GrowFromCenter(brace), FadeIn(brace_tag), run_time=1.0)
            self.when_said("d the key width", Indicate(brace_tag, color=theme.TEXT), run_time=1.2)
            self.fade_in(linear_row)  # its cost with it, to be read before the plot takes its place
            self.when_said("linear cost", Indicate(linear_row[-1], color=theme.TEXT), run_time=1.0)
        self.leaving = VGroup(identity, brace, brace_tag, softmax_row, linear_row)
