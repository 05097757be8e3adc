"""Every clip's voice at 15 fps ships under -1 dBTP at -16 LUFS, mastered from the scene runs' beats.

The other frame rates are planned in ``tests/production/test_voice_every_quality.py``; at 15 fps (l)
the scene runs (``tests/scenes/conftest.py``) already hold every beat, so this rate's tracks are
mastered from them, on their xdist worker, rather than planned again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lecture.clips import LECTURE
from narration.beats import BeatsRecord
from tests.production.test_voice_every_quality import LOW_RATE, ships
from tests.scenes.conftest import cached_run

pytestmark = [pytest.mark.render, pytest.mark.xdist_group("scene-runs")]


def test_every_clips_voice_ships_under_the_ceiling_at_15_fps(tmp_path: Path):
    """The l rate from the scene runs: each is the default lecture's scene rendered at 15 fps."""
    report = []
    for clip in LECTURE:
        run = cached_run(clip)
        assert run.frame_rate == LOW_RATE
        record = BeatsRecord(clip.scene, run.duration, tuple(run.scene.beats))
        report.append(ships(clip.scene, record, run.duration, tmp_path / f"{clip.scene}.m4a", "l"))
    print("\n".join(report))
