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

__all__ = ["PLAYERS", "clip_player", "described_clips", "described_player", "timeline"]

PLAYERS = ("lecture", "lecture-described")
"""The two players' element ids on the page: the lecture and the described lecture."""


def clip_player(index: int) -> str:
    """The element id of the player of the manifest's clip ``index``: ``clip-NN``."""
    return f"clip-{index:02d}"


def described_player(player: str) -> str:
    """The element id of the described version of ``player`` (a clip's)."""
    return f"{player}-described"


def described_clips(manifest: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """Scene -> its described clip's manifest entry (none when the lecture has no described version)."""
    return {c["scene"]: c for c in (manifest.get("described") or {}).get("clips", [])}


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
    """Each player's beats, or nothing when the lecture has no described version.

    The players are the lecture and the described lecture (:data:`PLAYERS`),
    and each clip's player and its described one (:func:`clip_player`).

    >>> clip = {"scene": "A", "start": 5.0, "beats": [{"id": "A.01-x", "start": 0.0, "end": 2.0}]}
    >>> slow = {"scene": "A", "start": 6.0, "beats": [{"id": "A.01-x", "start": 0.0, "end": 3.5}]}
    >>> timeline({"clips": [clip], "described": {"clips": [slow]}})  # doctest: +NORMALIZE_WHITESPACE
    {'lecture': [['A.01-x', 5.0, 7.0]], 'lecture-described': [['A.01-x', 6.0, 9.5]],
     'clip-00': [['A.01-x', 0.0, 2.0]], 'clip-00-described': [['A.01-x', 0.0, 3.5]]}
    """
    described = manifest.get("described")
    if not described:
        return {}
    players = dict(zip(PLAYERS, (_beats(manifest["clips"]), _beats(described["clips"])), strict=True))
    others = described_clips(manifest)
    for i, clip in enumerate(manifest["clips"]):
        if clip["scene"] in others:
            own = clip_player(i)
            players[own] = _beats([{**clip, "start": 0.0}])
            players[described_player(own)] = _beats([{**others[clip["scene"]], "start": 0.0}])
    return players
