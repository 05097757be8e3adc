"""A deck of any length: manim-slides joins every partial file of a scene that plays over 100 animations."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from production.media.video import count_frames
from tests.production.shard_helpers import clean_env

REPO = Path(__file__).resolve().parents[2]
ANIMATIONS = 101
"""One more than manim's default ``max_files_cached`` (100): manim prunes the oldest partial files past it."""

STAND_IN = f"""
from manim import Dot, Scene
from production.publish.slides import deck_class


class ManyPlays(Scene):
    def construct(self):
        dot = Dot()
        self.add(dot)
        for k in range({ANIMATIONS}):
            if k == {ANIMATIONS} // 2:
                self.next_slide()
            self.play(dot.animate.shift([0.01, 0, 0]), run_time=1 / 15)


class ManyPlaysSlides(deck_class(ManyPlays)):  # defined here, where manim looks for it
    pass
"""


@pytest.mark.render
def test_a_deck_of_more_than_100_animations_keeps_every_partial_file(tmp_path: Path) -> None:
    (tmp_path / "many.py").write_text(STAND_IN)
    (tmp_path / "manim.cfg").write_text((REPO / "manim.cfg").read_text())
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "manim_slides",
            "render",
            "-ql",
            "--disable_caching",
            "many.py",
            "ManyPlaysSlides",
        ],
        cwd=tmp_path,
        env={**clean_env(), "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    deck = json.loads((tmp_path / "slides" / "ManyPlaysSlides.json").read_text())
    frames = [count_frames(tmp_path / slide["file"]) for slide in deck["slides"]]
    assert frames == [ANIMATIONS // 2, ANIMATIONS - ANIMATIONS // 2]  # one frame an animation, none lost
