"""The descriptive transcript (``transcript.html``): per beat, its time, speech, picture, equations and words.

WCAG 2.2's media alternative for prerecorded video (1.2.8): everything the
lecture gives, as text, in order. Each beat has the time it starts in the
whole lecture, what the voice says, what the picture shows that the voice
does not (the beat's audio description, or a note that the speech describes
it), and every equation that comes on screen in it, as MathML a screen reader
speaks (:mod:`production.publish.page.mathml`), and the other words on screen
(labels, names, notes). An equation or a word still on screen from the beat
before is not listed again, nor one that comes back from under a pause and
predict's curtain. The page is one file (its CSS inlined) that
works offline and prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from lecture.section import section_heading
from narration.written import written
from production.publish.page.asking import OPTIONS_BEAT, QUESTION_BEAT
from production.publish.page.mathml import mathml

__all__ = ["transcript_sections"]

SAID = "The picture shows what the speech says."
"""What the transcript gives for a beat whose narration describes its picture."""


def _equations(tex: list[str], before: set[str]) -> list[Markup]:
    return [mathml(t) for t in tex if t not in before]


def transcript_sections(manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each section's heading, start and beats (time, speech, picture, new equations as MathML, new words)."""
    sections = []
    for clip in manifest["clips"]:
        before: set[str] = set()
        words_before: set[str] = set()
        beats = []
        for beat in clip["beats"]:
            equations, words = list(beat.get("equations", [])), list(beat.get("words", []))
            picture = SAID if beat.get("said") else beat.get("description", "")
            beats.append(
                {
                    "id": beat["id"],
                    "at": clip["start"] + beat["start"],
                    "text": written(beat["text"]),  # as the captions write it
                    "picture": picture,
                    "equations": _equations(equations, before),
                    "words": [w for w in words if w not in words_before],
                }
            )
            if beat["id"].endswith((QUESTION_BEAT, OPTIONS_BEAT)):  # the picture waits under the curtain
                before, words_before = before | set(equations), words_before | set(words)
            else:
                before, words_before = set(equations), set(words)
        heading = section_heading(clip["section"], clip["title"])  # as the page and the notes head it
        sections.append({"scene": clip["scene"], "heading": heading, "start": clip["start"], "beats": beats})
    return sections
