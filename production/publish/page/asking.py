"""Where the page's players stop to ask: each pause-and-predict beat's question, and its time in each video.

A section's pause-and-predict beat reads its question's options, then holds
a few seconds of silence before the answer (:meth:`scenes.base.LectureScene.pause_and_predict`).
The page's players pause there, when the options have been read, and ask:
the student picks an option, reads why a wrong one is wrong, and then the
video plays the beat that shows the answer (``assets/questions.js``). The
same stops are found in a section's clip, in the whole lecture (the clip's
start added) and in the audio-described lecture (its own timing).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from lecture.clips import find_clip
from lecture.config import LectureConfig
from lecture.questions import ANSWER_BEAT as ANSWER
from lecture.questions import ASK_BEAT, PREDICT_BEAT, Question
from production.publish.page.switch import described_clips, described_player

__all__ = ["QUESTION_BEAT", "OPTIONS_BEAT", "ANSWER_BEAT", "asked_questions", "stops"]

QUESTION_BEAT = f"-{ASK_BEAT}"
"""The beat that asks: the picture is under a curtain (drawing.predict.Curtain) until the answer."""
OPTIONS_BEAT = f"-{PREDICT_BEAT}"
"""The beat whose end of speech is where a player stops: its options have just been read."""
ANSWER_BEAT = f"-{ANSWER}"
"""The beat that shows the answer: where a player goes on once the student has chosen."""


def _question(scene: str, config: LectureConfig) -> Question | None:
    """The pause-and-predict question of ``scene``'s section, if it asks one with options."""
    section = find_clip(scene)
    asked = section.ask(config.parameters_of(section))
    return asked[0] if asked and asked[0].options else None


def asked_questions(clips: Sequence[Mapping[str, Any]], config: LectureConfig) -> dict[str, dict[str, Any]]:
    """Scene -> its pause-and-predict question as the player shows it (prompt, options, right, answer)."""
    found = {}
    for clip in clips:
        question = _question(clip["scene"], config)
        if question is None:
            continue
        found[clip["scene"]] = {
            "prompt": question.prompt,
            "options": [{"text": o.text, "why_not": o.why_not} for o in question.options],
            "right": question.right,
            "answer": question.answer,
        }
    return found


def _clip_stops(clip: Mapping[str, Any], offset: float) -> Iterator[tuple[float, float]]:
    """(stop, resume) in a video where ``clip`` starts at ``offset``: options read, answer begun."""
    beats = clip["beats"]
    for k, beat in enumerate(beats):
        if (
            beat["id"].endswith(OPTIONS_BEAT)
            and k + 1 < len(beats)
            and beats[k + 1]["id"].endswith(ANSWER_BEAT)
        ):
            yield offset + float(beat["speech_end"]), offset + float(beats[k + 1]["start"])


def stops(
    manifest: Mapping[str, Any], asked: Mapping[str, Any], clip_ids: Sequence[str]
) -> list[dict[str, Any]]:
    """Every player's stops: ``{"video", "scene", "at", "resume"}``, in each video's time.

    ``clip_ids`` are the section players' element ids, in the manifest's clip
    order; the whole lecture is ``lecture`` and the described one
    ``lecture-described``.
    """
    found: list[dict[str, Any]] = []

    def add(video: str, clip: Mapping[str, Any], offset: float) -> None:
        if clip["scene"] in asked:
            for at, resume in _clip_stops(clip, offset):
                found.append({"video": video, "scene": clip["scene"], "at": round(at, 3), "resume": resume})

    described = described_clips(manifest)
    for clip, clip_id in zip(manifest["clips"], clip_ids, strict=True):
        add(clip_id, clip, 0.0)
        add("lecture", clip, float(clip["start"]))
        if clip["scene"] in described:
            add(described_player(clip_id), described[clip["scene"]], 0.0)
    for clip in described.values():
        add("lecture-described", clip, float(clip["start"]))
    return found
