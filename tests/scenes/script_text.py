"""The lecture's script as the scenes speak it (a dry run, no frames or audio), for tests of what is said."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from functools import cache
from typing import Any

from lecture.clips import LECTURE
from lecture.config import LectureConfig
from production.script import scene_beats

NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)x?(?!\w|\.\d)")
"""A number as the narration writes it: digits, maybe a decimal point, maybe ``x`` (times); not inside
a word such as T5, and never the front part of a longer number."""


@cache
def script() -> dict[str, list[dict[str, Any]]]:
    """Scene name -> its beats (id, text, cues, ...) from a dry run of the default lecture."""
    config = LectureConfig()
    return {clip.scene: scene_beats(clip, config) for clip in LECTURE}


def slug(beat_id: str) -> str:
    """``"TemperatureSweep.04-argmax"`` -> ``"argmax"``."""
    return beat_id.split(".", 1)[1].split("-", 1)[1]


def numbers_in(text: str) -> list[str]:
    """The numbers written in ``text``, in order."""
    return NUMBER.findall(text)


def expected_numbers(module: str) -> dict[str, Callable[[], list[str]]]:
    """``EXPECTED`` of ``tests/scenes/spoken/<module>.py`` (empty when the scene speaks no numbers)."""
    try:
        return importlib.import_module(f"tests.scenes.spoken.{module}").EXPECTED
    except ModuleNotFoundError:
        return {}
