"""Section 0, the title: the lecture's name, subtitle, defining formula and outline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from lecture.parameters import Parameters, Text, lecturer
from lecture.section import Section
from lecture.sections import s5_multihead

__all__ = ["TitleParameters", "SECTION"]


@dataclass(frozen=True)
class TitleParameters(Parameters):
    """The title card's subtitle."""

    scene: ClassVar[str] = "LectureTitle"
    subtitle: str = lecturer("weights that depend on the query", Text())


SECTION = Section(
    scene=TitleParameters.scene,
    module="s0_title",
    number="0",
    title="Attention: title and outline",
    seconds=59.0,
    parameters=TitleParameters,
    equations=(
        r"\operatorname{Attn}(q, K, V) = \sum_i \alpha_i(q)\, v_i",
        r"\alpha_i(q) = \frac{\exp(q \cdot k_i / \tau)}{\sum_j \exp(q \cdot k_j / \tau)}"
        r"\;\propto\; \exp(q \cdot k_i / \tau)",
        r"q = W_Q\, x, \qquad k_i = W_K\, x_i, \qquad v_i = W_V\, x_i, \qquad \tau = \sqrt{d_k}",
    ),
    reads_outline=True,
    reads=(s5_multihead.SECTION,),  # the outline ends on section 5's sentence, the running example
)
