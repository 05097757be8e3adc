"""The lecture's scenes in order: adding a scene to the lecture is one entry here."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["Clip", "LECTURE", "find_clip", "section_heading", "UnknownScene", "SCENES_DIR"]

SCENES_DIR = Path(__file__).resolve().parents[1] / "scenes"


@dataclass(frozen=True)
class Clip:
    """One scene of the lecture.

    Attributes
    ----------
    scene : str
        Scene class name (what ``manim`` is told to render).
    module : str
        Module file stem under ``scenes/``.
    section : str
        Section number in the lecture text ("0" for the title).
    title : str
        Human title, shown in listings and the manifest.
    seconds : float
        Length of the narrated clip with the draft voice (for listings and planning).
    reads : tuple of str
        Other scenes whose lecturer data this clip shows too (the recap shows section 3's scores), so
        that an override of theirs makes this clip out of date as well.
    """

    scene: str
    module: str
    section: str
    title: str
    seconds: float = 45.0
    reads: tuple[str, ...] = ()

    @property
    def path(self) -> Path:
        """The scene's source file."""
        return SCENES_DIR / f"{self.module}.py"


LECTURE: tuple[Clip, ...] = (
    Clip("LectureTitle", "s0_title", "0", "Attention: title and outline", 59.0),
    Clip("FixedVsQueryWeights", "s1_fixed_vs_query", "1", "Fixed and query-dependent weights", 86.0),
    Clip("KernelRegressionCollapse", "s2_kernel_regression", "2", "Attention as kernel regression", 101.0),
    Clip("TemperatureSweep", "s3_softmax_temperature", "3", "Softmax is the entropy-regularised rule", 168.0),
    Clip("KernelVariants", "s4_kernel_variants", "4", "Kernel variants", 118.0),
    Clip("HeadRouting", "s5_multihead", "5", "Multi-head: many statistics at once", 99.0),
    Clip("KVCacheGrowth", "s6_kv_cache", "6", "Causal masking and the KV cache", 108.0),
    Clip(
        "AdaptiveSufficiency",
        "s7_adaptive_sufficiency",
        "7",
        "Adaptive sufficiency",
        45.0,
        ("TemperatureSweep",),
    ),
)


def section_heading(section: str, title: str) -> str:
    """A section's heading in chapters, pages and transcripts: its number and title (title section: title).

    >>> section_heading("3", "Softmax"), section_heading("0", "Attention")
    ('3. Softmax', 'Attention')
    """
    return title if section == "0" else f"{section}. {title}"


class UnknownScene(KeyError):
    """A scene name the lecture does not have (the message lists the ones it has)."""

    def __str__(self) -> str:
        return str(self.args[0])


def find_clip(name: str) -> Clip:
    """The clip whose scene is called ``name``; a clear error listing the names otherwise."""
    for clip in LECTURE:
        if clip.scene == name:
            return clip
    names = ", ".join(c.scene for c in LECTURE)
    raise UnknownScene(f"unknown scene {name!r}; the lecture has: {names}")
