"""The lecture's sections in order: a new section is one module in ``lecture/sections`` and one line here.

Each entry is a :class:`lecture.section.Section`, declared in its own module;
a clip is the video a section's scene renders, so the build speaks of clips
where this module speaks of sections.
"""

from __future__ import annotations

from typing import Any

from lecture.parameters import Parameters
from lecture.section import Section
from lecture.sections import (
    s0_title,
    s1_fixed_vs_query,
    s2_kernel_regression,
    s3_softmax_temperature,
    s4_kernel_variants,
    s5_multihead,
    s6_kv_cache,
    s7_adaptive_sufficiency,
)

__all__ = ["LECTURE", "find_clip", "UnknownScene", "models"]

LECTURE: tuple[Section[Any], ...] = (
    s0_title.SECTION,
    s1_fixed_vs_query.SECTION,
    s2_kernel_regression.SECTION,
    s3_softmax_temperature.SECTION,
    s4_kernel_variants.SECTION,
    s5_multihead.SECTION,
    s6_kv_cache.SECTION,
    s7_adaptive_sufficiency.SECTION,
)


class UnknownScene(KeyError):
    """A scene name the lecture does not have (the message lists the ones it has)."""

    def __str__(self) -> str:
        return str(self.args[0])


def find_clip(name: str) -> Section[Any]:
    """The section whose scene is called ``name``; a clear error listing the names otherwise."""
    for section in LECTURE:
        if section.scene == name:
            return section
    names = ", ".join(s.scene for s in LECTURE)
    raise UnknownScene(f"unknown scene {name!r}; the lecture has: {names}")


def models() -> dict[str, type[Parameters]]:
    """Scene name -> its parameters' model, for the sections whose data the lecturer may set or read.

    These are the tables a ``lecture.toml`` may have (a section without data has the empty base model).
    """
    return {s.scene: s.parameters for s in LECTURE if s.parameters is not Parameters}
