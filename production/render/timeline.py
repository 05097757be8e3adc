"""A scene's plan, the record the plan's manim child writes and the build reads: one module for both.

The child (:mod:`production.render.manim_entry`) dry-runs a scene and prints its
:class:`Timeline` as one line, ``PLAN <json>`` (:meth:`Timeline.line`), among
manim's own output; the build reads every such line of the child's log back
(:func:`read_lines`). The JSON names every field, so the two sides cannot
disagree on a position, and a kept plan (:mod:`production.render.plans`) is the same JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from narration.beats import Beat

__all__ = ["Timeline", "PREFIX", "read_lines"]

PREFIX = "PLAN "
"""What starts a plan's line in the child's output."""


@dataclass(frozen=True)
class Timeline:
    """A scene's animations as a render numbers them: (frames, frozen) each, and the clip's length.

    >>> beats, clocks = (("S.01-a", 0, 1),), ((1.0, "ab"), (1.0, ""))
    >>> t = Timeline("S", 15.0, 2.0, ((15, False), (15, True)), beats, (), clocks)
    >>> Timeline.from_json(json.loads(t.line()[len(PREFIX):])) == t
    True
    >>> list(read_lines(["INFO something", t.line()])) == [t]
    True
    """

    scene: str
    frame_rate: float
    duration: float
    animations: tuple[tuple[int, bool], ...]
    beats: tuple[tuple[str, int, int], ...] = ()  # (beat id, its first and last animation)
    record: tuple[Beat, ...] = ()  # the beats as the dry run timed them
    clocks: tuple[tuple[float, str], ...] = ()  # each animation's run time and the state it starts from

    def to_json(self) -> dict[str, Any]:
        """The plan as JSON, every field named."""
        clocks = self.clocks or tuple((0.0, "") for _ in self.animations)
        return {
            "scene": self.scene,
            "frame_rate": self.frame_rate,
            "duration": self.duration,
            "animations": [
                {"frames": frames, "frozen": frozen, "seconds": seconds, "state": state}
                for (frames, frozen), (seconds, state) in zip(self.animations, clocks, strict=True)
            ],
            "clocks": bool(self.clocks),
            "beats": [{"id": beat, "first": first, "last": last} for beat, first, last in self.beats],
            "record": [beat.to_json() for beat in self.record],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Timeline:
        """Read :meth:`to_json`'s JSON back."""
        animations = tuple((int(a["frames"]), bool(a["frozen"])) for a in data["animations"])
        clocks = tuple((float(a["seconds"]), str(a["state"])) for a in data["animations"])
        beats = tuple((str(b["id"]), int(b["first"]), int(b["last"])) for b in data["beats"])
        record = tuple(Beat.from_json(b) for b in data["record"])
        scene, rate, duration = str(data["scene"]), float(data["frame_rate"]), float(data["duration"])
        return cls(scene, rate, duration, animations, beats, record, clocks if data["clocks"] else ())

    def line(self) -> str:
        """The plan as the child prints it: one line."""
        return PREFIX + json.dumps(self.to_json())


def read_lines(lines: Iterable[str]) -> Iterable[Timeline]:
    """The plans among a child's output ``lines``, in order."""
    for line in lines:
        if line.startswith(PREFIX):
            yield Timeline.from_json(json.loads(line[len(PREFIX) :]))
