"""Frame truth: compare frames handed to manim's file writer with a fresh drawing of the scene.

During ``play()`` manim's Cairo renderer draws a static background captured when
the animation began plus the families of the moving mobjects flattened at that
moment, so a frame can show things the scene no longer holds (ghost digits) or
miss things it now holds. :class:`AuditedRender` renders a scene for real, and
at sampled frames redraws the scene's current mobjects from a reset camera and
compares the two pictures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from manim import Scene, tempconfig
from manim.utils.iterables import list_update

from lecture.clips import Clip
from scenes import load_scene

__all__ = ["FrameCheck", "AuditedRender", "fresh_drawing", "visible_difference"]

# A pixel differs visibly when a channel moves by more than this (anti-aliasing
# of the same shape drawn in another order moves edges by far less).
LEVEL = 48


@dataclass(frozen=True)
class FrameCheck:
    """One sampled frame: when, how many pixels differ visibly, and where the worst one is."""

    time: float
    bad_pixels: int
    box: tuple[int, int, int, int] | None  # rows and columns spanning the differing pixels


def fresh_drawing(scene: Scene) -> np.ndarray:
    """The scene's current mobjects drawn by its camera after a reset (camera pixels restored)."""
    camera = scene.renderer.camera
    saved = camera.pixel_array.copy()
    camera.reset()
    camera.capture_mobjects(list_update(scene.mobjects, scene.foreground_mobjects))
    fresh = camera.pixel_array[..., :3].copy()
    camera.pixel_array = saved
    return fresh


def visible_difference(a: np.ndarray, b: np.ndarray) -> tuple[int, tuple[int, int, int, int] | None]:
    """Number of pixels whose colour differs visibly, and the box around them."""
    diff = np.abs(a[..., :3].astype(np.int16) - b[..., :3].astype(np.int16)).max(axis=-1) > LEVEL
    rows, cols = np.nonzero(diff)
    if rows.size == 0:
        return 0, None
    return int(rows.size), (int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max()))


@dataclass
class AuditedRender:
    """A real low-quality render of ``clip`` with every ``every`` seconds of frames audited.

    ``on_sample(scene, frame, time)`` runs at each sampled frame too, for tests that
    read other facts off the same instant.
    """

    clip: Clip
    media_dir: Path
    every: float = 0.5
    on_sample: Callable[[Scene, np.ndarray, float], None] | None = None
    checks: list[FrameCheck] = field(default_factory=list)
    video: Path | None = None

    def run(self) -> AuditedRender:
        """Render the scene once, auditing as it goes."""
        audit = self
        base = load_scene(self.clip)

        class Audited(base):  # type: ignore[misc, valid-type]
            def setup(self) -> None:
                super().setup()
                write = self.renderer.add_frame
                due = [0.0]

                def add_frame(frame: np.ndarray, num_frames: int = 1) -> None:
                    t = self.renderer.time
                    if t + 1e-9 >= due[0]:
                        audit.sample(self, frame, t)
                        while due[0] <= t + 1e-9:
                            due[0] += audit.every
                    write(frame, num_frames)

                self.renderer.add_frame = add_frame

        Audited.__name__ = self.clip.scene
        config = {"quality": "low_quality", "disable_caching": True, "media_dir": str(self.media_dir)}
        with tempconfig(config):
            scene = Audited()
            scene.render()
            self.video = Path(scene.renderer.file_writer.movie_file_path)
        return self

    def sample(self, scene: Scene, frame: np.ndarray, time: float) -> None:
        """Compare ``frame`` with a fresh drawing of ``scene`` and record the result."""
        bad, box = visible_difference(frame, fresh_drawing(scene))
        self.checks.append(FrameCheck(time, bad, box))
        if self.on_sample is not None:
            self.on_sample(scene, frame, time)
