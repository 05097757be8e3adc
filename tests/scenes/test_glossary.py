"""No term is spoken before the beat that glosses it (section title beats name topics and are left out)."""

from __future__ import annotations

import re

import pytest

from lecture.clips import LECTURE
from tests.scenes.script_text import script, slug

# the script is read off the scene runs: these tests run on their xdist worker (tests/scenes/script_text.py)
pytestmark = pytest.mark.xdist_group("scene-runs")

GLOSSARY = {
    r"temperature": "LectureTitle.weights",
    r"embedding": "LectureTitle.projections",
    r"sufficient statistic": "FixedVsQueryWeights.mean",
    r"Nadaraya": "KernelRegressionCollapse.estimate",
    r"bandwidth": "KernelRegressionCollapse.bandwidth",
    r"entropy": "KernelRegressionCollapse.tiny-bandwidth",
    r"k effective|k eff": "KernelRegressionCollapse.huge-bandwidth",
    r"softmax": "KernelRegressionCollapse.softmax-form",
    r"retrieval": "TemperatureSweep.retrieval",
    r"Lagrange multiplier": "TemperatureSweep.lagrangian",
    r"prior": "TemperatureSweep.prior",
    r"(?-i:KL|K L)": "TemperatureSweep.prior",
    r"linear attention": "KernelVariants.content-linear",
    r"feature maps?": "KernelVariants.content-linear",
    r"window": "KernelVariants.position-priors",
    r"ALiBi": "KernelVariants.position-priors",
    r"T5": "KernelVariants.position-t5",
    r"d by d": "KernelVariants.linear-summary",
    r"normaliser": "KernelVariants.linear-summary",
    r"multi-head": "HeadRouting.sentence",
    r"induction heads?": "HeadRouting.decoder-best",
    r"W O": "HeadRouting.concatenate",
    r"autoregressive": "KVCacheGrowth.autoregressive",
    r"attention sink": "HeadRouting.trained-sink",
    r"causal mask": "KVCacheGrowth.autoregressive",
    r"bias": "KernelRegressionCollapse.steps",
    r"variance": "LectureTitle.variance",
    r"cosine similarity": "KernelVariants.content-row",
    r"(?-i:CLS|C L S)": "HeadRouting.trained-sink",
    r"decoders?": "HeadRouting.decoder",
    r"induction head": "HeadRouting.decoder-best",
    r"perplexity": "KVCacheGrowth.window",
}
"""Term (a regular expression, matched as whole words, case-insensitive) -> the beat that glosses it."""


def lecture_beats() -> list[tuple[str, str]]:
    """(``Scene.slug``, text) of every beat but the section titles, in lecture order."""
    return [
        (f"{clip.scene}.{slug(b.id)}", b.text)
        for clip in LECTURE
        for b in script()[clip.scene]
        if slug(b.id) != "title"
    ]


@pytest.mark.parametrize("term", sorted(GLOSSARY))
def test_no_term_before_its_gloss(term):
    pattern = re.compile(rf"\b(?:{term})\b", re.IGNORECASE)
    beats = lecture_beats()
    names = [name for name, _ in beats]
    defining = GLOSSARY[term]
    assert defining in names, f"{defining} is not a beat of the lecture"
    first = next(name for name, text in beats if pattern.search(text))
    assert first == defining, f"{term!r} is spoken in {first}, before its gloss in {defining}"
