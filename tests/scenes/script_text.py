"""The lecture's script as the scenes speak it, for tests of what is said.

The beats come from the scene runs (``tests/scenes/conftest.py``): one render of each scene serves the
tests of its pictures and of its words, so a module that reads the script is in their xdist group,
"scene-runs". The command line's own script (``production.publish.script``) is tested in tests/production.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from functools import cache

from lecture.clips import LECTURE
from narration.beats import Beat
from tests.scenes.conftest import cached_run

NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)x?(?!\w|\.\d)")
"""A number as the narration writes it: digits, maybe a decimal point, maybe ``x`` (times); not inside
a word such as T5, and never the front part of a longer number."""


@cache
def script() -> dict[str, list[Beat]]:
    """Scene name -> its beats (id, text, cues, description, ...) as the default lecture speaks them."""
    return {clip.scene: list(cached_run(clip).scene.beats) for clip in LECTURE}


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
