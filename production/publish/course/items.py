"""The lecture's questions as a course exports them: each with its section, clip and the time that answers it.

A section's first question is the one its pause-and-predict beat asks
(:mod:`production.publish.page.asking`). Every section question has options, one
right and a reason for each wrong one, so every export carries it as multiple
choice; a question without options (none of the lecture's today) would go into
the banks as an essay with its answer for the grader. A lecturer's own questions
(``lecture.toml``, :mod:`lecture.lecturer_questions`) follow, multiple choice,
with no time in a clip.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lecture.clips import find_clip
from lecture.config import LectureConfig
from lecture.questions import LETTERS, Question
from lecture.section import section_heading
from production.publish.page.asking import ANSWER_BEAT

__all__ = ["CourseQuestion", "course_questions"]


@dataclass(frozen=True)
class CourseQuestion:
    """One question of the lecture, placed: which section asks it, and where its clip shows the answer."""

    ident: str  # unique, no spaces: ``<Scene>-q<k>`` (an XML id and a SCORM interaction id)
    scene: str
    heading: str  # the section's heading, e.g. "3. Softmax and temperature"
    question: Question
    clip: str  # the clip's file in the built folder
    at: float  # seconds into the clip where its answer is shown (the answer beat), 0 without one

    @property
    def choice(self) -> bool:
        """The question has options (one right): multiple choice."""
        return bool(self.question.options)

    @property
    def right_letter(self) -> str:
        """The right option's letter ("" without options)."""
        return LETTERS[self.question.right] if self.choice else ""


def _answer_at(clip: Mapping[str, Any]) -> float:
    """Where ``clip``'s answer beat starts (0 when it has none)."""
    return next((float(b["start"]) for b in clip["beats"] if b["id"].endswith(ANSWER_BEAT)), 0.0)


def course_questions(manifest: Mapping[str, Any], config: LectureConfig) -> list[CourseQuestion]:
    """Every question of the manifest's sections, in lecture order, computed with ``config``'s data.

    A section's own questions come first, then the lecturer's (:meth:`LectureConfig.questions_for`).
    """
    found = []
    for clip in manifest["clips"]:
        section = find_clip(clip["scene"])
        video_asks = bool(section.ask(config.parameters_of(section)))  # its first; not a lecturer's own
        for k, question in enumerate(config.questions_for(section)):
            found.append(
                CourseQuestion(
                    ident=f"{section.scene}-q{k + 1}",
                    scene=section.scene,
                    heading=section_heading(clip["section"], clip["title"]),
                    question=question,
                    clip=clip["file"],
                    at=_answer_at(clip) if k == 0 and video_asks and question.options else 0.0,
                )
            )
    return found
