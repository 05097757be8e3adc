"""Shared fixtures for scene tests: an in-process low-quality render of each scene, checked as it plays."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from manim import MathTex, Mobject, SingleStringMathTex, Text, tempconfig
from manim import config as manim_config

from atomic_files.shared import TYPESET
from drawing import theme
from drawing.readouts import LabelSwitch, Readout
from lecture.clips import LECTURE
from lecture.section import Section
from scenes import load_scene
from scenes.onscreen import uncovered
from tests.scenes.frame_audit import FrameCheck, fresh_drawing, visible_difference
from tests.scenes.roles import role_problems
from tests.scenes.sweep_readings import sweep_reading

REFERENCE_DIR = Path(__file__).parent / "reference"


def visible_texts(scene) -> list[tuple[str, Mobject]]:
    """(name, mobject) of each visible top-level text mobject: texts, equations, readouts, labels."""
    found: list[tuple[str, Mobject]] = []

    def visit(mob: Mobject) -> None:
        if isinstance(mob, LabelSwitch):
            if mob.current:
                found.append((mob.text, mob))
            return
        if isinstance(mob, Readout):
            found.append((f"{mob.label.tex_string} {mob.shown}", mob))
            return
        if isinstance(mob, (Text, MathTex, SingleStringMathTex)):
            if mob.has_points() or mob.submobjects:
                opacity = max((m.get_fill_opacity() for m in mob.family_members_with_points()), default=0)
                if opacity > 0.05:
                    name = getattr(mob, "text", None) or getattr(mob, "tex_string", type(mob).__name__)
                    found.append((str(name), mob))
            return
        for sub in mob.submobjects:
            visit(sub)

    for mob in uncovered(scene):  # a curtain (drawing.predict.Curtain) hides everything drawn before it
        visit(mob)
    return found


Texts = list[tuple[str, Mobject]]
"""(name, mobject) of each visible text, as :func:`visible_texts` finds them."""


def text_boxes(scene, texts: Texts | None = None) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(name, lower-left, upper-right) of each visible top-level text (``texts``, if found already)."""
    texts = visible_texts(scene) if texts is None else texts
    return [(name, mob.get_corner([-1, -1, 0]), mob.get_corner([1, 1, 0])) for name, mob in texts]


def size_problems(scene, step: str, texts: Texts | None = None) -> list[str]:
    """Visible text smaller than it may be at the 640-pixel embed size (docs/visual.md).

    Nothing under ``theme.SMALL_SIZE``; text not marked small by the kit
    (``least_size``), i.e. names, labels, body text, equations and readouts,
    not under ``theme.LABEL_SIZE``. Sizes are measured as shown, after any
    scaling.
    """
    problems = []
    for name, mob in visible_texts(scene) if texts is None else texts:
        size = float(mob.font_size)
        least = max(getattr(mob, "least_size", theme.LABEL_SIZE), theme.SMALL_SIZE)
        if size < least - 0.5:
            problems.append(f"{step}: {name!r} at font size {size:.1f} (at least {least})")
    return problems


def drawn_twice(scene, step: str) -> list[str]:
    """Mobjects that are on the scene's top level and inside another top-level mobject as well.

    Manim's ``remove`` takes out what it is given, not the family: such a mobject outlives the group
    it was put in when the group fades (a stray line left on screen, as section 5's stripe once was).
    """
    tops = {id(m) for m in scene.mobjects}
    return [
        f"{step}: a {type(m).__name__} is drawn on its own and inside a {type(top).__name__}"
        for top in scene.mobjects
        for m in top.get_family()[1:]
        if id(m) in tops
    ]


def layout_problems(scene, step: str, texts: Texts | None = None) -> list[str]:
    """Text outside the safe area, or two texts overlapping, after one step."""
    problems = []
    boxes = text_boxes(scene, texts)
    eps = 0.02
    for name, lo, hi in boxes:
        if (
            lo[0] < theme.SAFE_LEFT - eps
            or hi[0] > theme.SAFE_RIGHT + eps
            or lo[1] < theme.SAFE_BOTTOM - eps
            or hi[1] > theme.SAFE_TOP + eps
        ):
            problems.append(f"{step}: {name!r} leaves the safe area ({lo[:2]} .. {hi[:2]})")
    for i, (n1, lo1, hi1) in enumerate(boxes):
        for n2, lo2, hi2 in boxes[i + 1 :]:
            overlap = np.minimum(hi1, hi2)[:2] - np.maximum(lo1, lo2)[:2]
            if np.all(overlap > 0.03):
                problems.append(f"{step}: {n1!r} overlaps {n2!r}")
    return problems


class SceneRun:
    """A finished in-process low-quality render of one scene, with what was checked along the way.

    One real render serves every test of the scene: after each ``play()`` its
    text is checked for layout and size; every :data:`AUDIT_EVERY` seconds the
    frame handed to the video writer is compared with a fresh drawing of the
    scene (``tests/scenes/frame_audit.py``) and :data:`SAMPLERS` read what the
    scene shows; the beats it speaks are the script's (``tests/scenes/script_text.py``).
    Only those audited frames of an animation are drawn and written (a held
    frame is drawn once, as manim does): the animations still step every
    frame, on the renderer's own clock, but drawing and encoding the frames
    between were two thirds of the run's time and no test reads them. The
    build's tests (``tests/production``) render and read every frame.
    With ``frames=False`` it is a dry run instead (no frames drawn, none audited):
    the layout and size checks of a lecturer's data, in a third of the time.
    """

    def __init__(self, clip: Section, media_dir: Path, *, frames: bool = True) -> None:
        base = load_scene(clip)
        run, steps, due = self, [0], [0.0]
        self.problems: list[str] = []
        self.size_problems: list[str] = []
        self.role_problems: list[str] = []
        self.drawn_twice: list[str] = []
        self.drawn_texts: set[str] = set()  # every text seen on screen after a play
        self.checks: list[FrameCheck] = []
        self.readings: list[Any] = []
        self.sounds: list[tuple[str, float]] = []  # (file, start in s): each voice given to manim to mix
        sampler = SAMPLERS.get(clip.scene)

        class Checked(base):  # type: ignore[misc, valid-type]
            def setup(self) -> None:
                super().setup()
                renderer = self.renderer
                write, draw = renderer.add_frame, renderer.render

                def add_frame(frame: np.ndarray, num_frames: int = 1) -> None:
                    t = renderer.time
                    if t + 1e-9 >= due[0]:
                        run.sample(self, frame, t, sampler)
                        while due[0] <= t + 1e-9:
                            due[0] += AUDIT_EVERY
                    write(frame, num_frames)

                def render(scene: Any, time: float, moving: Any = None) -> None:
                    """An animation's frame: drawn and written when first or audited, else only timed."""
                    if renderer.skip_animations or time == 0 or renderer.time + 1e-9 >= due[0]:
                        draw(scene, time, moving)
                    else:
                        renderer.time += 1 / renderer.camera.frame_rate  # as manim's add_frame counts it

                renderer.add_frame, renderer.render = add_frame, render

            def add_sound(self, sound_file: str, time_offset: float = 0, gain: float | None = None, **_):
                """Noted, not mixed: no test hears a scene run's movie; mixing was a quarter of its time."""
                run.sounds.append((sound_file, self.renderer.time + time_offset))

            def play(self, *args, **kwargs):
                super().play(*args, **kwargs)
                steps[0] += 1
                texts = visible_texts(self)  # found once, read by the layout, size and words checks
                run.problems.extend(layout_problems(self, f"{clip.scene} play #{steps[0]}", texts))
                run.size_problems.extend(size_problems(self, f"{clip.scene} play #{steps[0]}", texts))
                run.role_problems.extend(role_problems(self, f"{clip.scene} play #{steps[0]}"))
                run.drawn_twice.extend(drawn_twice(self, f"{clip.scene} play #{steps[0]}"))
                run.drawn_texts.update(name for name, _ in texts)

        Checked.__name__ = clip.scene
        config = {"disable_caching": True, "quality": "low_quality", "media_dir": str(media_dir)}
        with tempconfig({**config, "dry_run": not frames, "progress_bar": "none", "verbosity": "ERROR"}):
            caches = {kind: Path(manim_config.get_dir(key)) for kind, key in CACHE_DIRS.items()}
            for kind, folder in caches.items():  # typeset before, for any media folder (as a build does)
                TYPESET[kind].fill(folder)
            self.scene = Checked(skip_animations=not frames)
            self.scene.render()
            for kind, folder in caches.items():
                TYPESET[kind].add(folder)
            self.video = Path(self.scene.renderer.file_writer.movie_file_path) if frames else None
            self.frame_rate = float(manim_config.frame_rate)
            self.scene.renderer.update_frame(self.scene)
            self.last_frame = np.array(self.scene.renderer.get_frame())[..., :3]
        self.duration = float(self.scene.time)

    def sample(self, scene, frame: np.ndarray, time: float, sampler) -> None:
        """Compare ``frame`` with a fresh drawing of ``scene``, and note what ``sampler`` reads off it."""
        bad, box = visible_difference(frame, fresh_drawing(scene))
        self.checks.append(FrameCheck(time, bad, box))
        if sampler is not None and (reading := sampler(scene)) is not None:
            self.readings.append(reading)


CACHE_DIRS = {"Tex": "tex_dir", "texts": "text_dir"}
"""manim's setting for the folder of each shared kind (atomic_files.shared.TYPESET)."""
AUDIT_EVERY = 0.5
"""Seconds of video between audited frames."""
SAMPLERS = {"TemperatureSweep": sweep_reading}
"""Per scene, what to read off each audited frame (kept in the run's ``readings`` when not None)."""


@cache
def shared_media() -> Path:
    """This test process's media folder for scene runs (removed when the process exits)."""
    folder = Path(tempfile.mkdtemp(prefix="scene-runs-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@pytest.fixture(scope="session")
def media_dir() -> Path:
    return shared_media()


_runs: dict[str, SceneRun] = {}


def cached_run(clip: Section, media_dir: Path | None = None) -> SceneRun:
    """One render per scene per test process (tests that share it are one xdist group: "scene-runs")."""
    if clip.scene not in _runs:
        _runs[clip.scene] = SceneRun(clip, media_dir or shared_media())
    return _runs[clip.scene]


@pytest.fixture(params=LECTURE, ids=[c.scene for c in LECTURE])
def scene_run(request, media_dir) -> SceneRun:
    return cached_run(request.param, media_dir)


@pytest.fixture
def scene_run_for_render(media_dir) -> SceneRun:
    """A dry run of the scene that the render tests render (their worker renders no scene runs)."""
    from lecture.clips import find_clip

    return SceneRun(find_clip("LectureTitle"), media_dir, frames=False)
