"""The switch between the lecture and its audio-described version that keeps the student's place.

The described lecture is the same beats with the picture held while each
description is spoken, so a moment of one video is the same beat, the same
time after its start, in the other (clamped to the beat's end). The page gets
each player's beats in its own time; ``assets/switch.js`` maps the moment
and moves the student to the other player there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["PLAYERS", "timeline"]

PLAYERS = ("lecture", "lecture-described")
"""The two players' element ids on the page: the lecture and the described lecture."""


def _beats(clips: list[Mapping[str, Any]]) -> list[list[Any]]:
    """[beat id, start, end] of every beat of ``clips``, in the time of the video they are joined into."""
    return [
        [
            beat["id"],
            round(float(c["start"]) + float(beat["start"]), 3),
            round(float(c["start"]) + float(beat["end"]), 3),
        ]
        for c in clips
        for beat in c["beats"]
    ]


def timeline(manifest: Mapping[str, Any]) -> dict[str, list[list[Any]]]:
    """Each player's beats (:data:`PLAYERS`), or nothing when the lecture has no described version.

    >>> clip = {"start": 0.0, "beats": [{"id": "A.01-x", "start": 0.0, "end": 2.0}]}
    >>> slow = {"start": 0.0, "beats": [{"id": "A.01-x", "start": 0.0, "end": 3.5}]}
    >>> timeline({"clips": [clip], "described": {"clips": [slow]}})
    {'lecture': [['A.01-x', 0.0, 2.0]], 'lecture-described': [['A.01-x', 0.0, 3.5]]}
    """
    described = manifest.get("described")
    if not described:
        return {}
    return dict(zip(PLAYERS, (_beats(manifest["clips"]), _beats(described["clips"])), strict=True))
