"""A whole lecture published from small synthetic clips (no manim render), and the page open in Chromium.

Every scene of the lecture gets a 3-second clip with three 1-second beats; a
coloured square sits in a different place each second, so a thumbnail shows
which moment it was taken from. The first second of every clip shows its square
only until 0.67 s: that beat ends blank. The lecture file overrides the data
of sections 2, 3, 5 and 6, so the figures must show the lecturer's data, and adds
the lecturer's own questions to sections 5 and 7 (:data:`LECTURER_QUESTIONS`).

Beats 1 and 3 of every clip have an audio description (a 0.6-second tone is its
voice), beat 2's narration describes its picture (``said``); beats 1 and 2 show
equations. The lecture is published with its described version.
"""

from __future__ import annotations

import json
from pathlib import Path

import av
import numpy as np
import pytest

from drawing import theme
from lecture.clips import LECTURE
from lecture.config import load_config
from production.media.captions import Cue, to_srt
from production.options import RenderOptions, RenderResult
from production.publish.assemble import publish_lecture
from tests.production.browser import chromium, open_page
from tests.scenes.conftest import media_dir, scene_run_for_render  # noqa: F401  (a scene run in-process, for test_render)

FPS, SIZE, SECONDS = 15, (320, 180), 3
PLAYERS = 2 * len(LECTURE) + 2
"""Videos on the built page: each clip, plain and described, the lecture and the described lecture."""
SQUARE = 40
TITLE = "Attention <week 5> & more"
LECTURE_TOML = """\
title = "Attention <week 5> & more"
voice = "none"

[KernelRegressionCollapse]
n_points = 12
seed = 3
query = 0.6

[TemperatureSweep]
scores = [0.5, 2.0, 1.0, 3.0, 0.2, -1.0]

[HeadRouting]
sentence = { tokens = [
    { text = "Dogs", pos = "NOUN", phrase = 0 },
    { text = "chase", pos = "VERB", subject = 0 },
    { text = "a", pos = "DET", phrase = 1 },
    { text = "red", pos = "ADJ", phrase = 1 },
    { text = "ball", pos = "NOUN", phrase = 1 },
] }
induction_tokens = 12
induction_seed = 3

[[HeadRouting.questions]]
stem = "Which head lets a model copy a token it saw <earlier>?"
options = ["A previous-token head", "An induction head", "A sink head"]
right = "B"
feedback = { A = "It looks one token back.", C = "It parks its weight on the first token." }

[[AdaptiveSufficiency.questions]]
stem = "Can one fixed-size summary serve every future query?"
options = ["Yes", "No"]
right = "b"
feedback = { A = "A summary keeps what one query needs; a later query may need what it dropped." }
answer = "No: the cache keeps every key and value because a later query may need any of them."

[KVCacheGrowth]
words = ["A", "</script>", "ran", "to", "the", "park"]
n_prompt = 2
"""


LECTURER_QUESTIONS = {"HeadRouting": 1, "AdaptiveSufficiency": 1}
"""How many questions of their own the lecture file adds to each section."""


def square_x(second: int) -> int:
    """Left edge of the square during ``second``."""
    return 30 + 100 * second


def write_clip(path: Path) -> None:
    """A silent H.264 clip: the background colour, and a yellow square that moves each second."""
    background = np.array([int(theme.BACKGROUND[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = *SIZE, "yuv420p"
        for i in range(SECONDS * FPS):
            second = i // FPS
            img = np.tile(background, (SIZE[1], SIZE[0], 1))
            if second > 0 or i < 10:  # the first beat ends blank: its square leaves at 0.67 s
                img[70 : 70 + SQUARE, square_x(second) : square_x(second) + SQUARE] = (240, 228, 66)
            for packet in stream.encode(av.VideoFrame.from_ndarray(img, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


DESCRIPTION_SECONDS = 0.6
RULE = r"\alpha_i \propto \exp(s_i / \tau)"
EQUATIONS = ([RULE], [RULE, r"H(a) = 0.04"], [])
WORDS = (["scores", "weights"], ["weights", "k eff: 1.04"], ["scores", "the answer"])
"""Each synthetic beat's words on screen: beat 2 keeps "weights" and adds one; beat 3, the answer, shows
"scores" again, as a picture comes back from under a question's curtain, and adds one."""


def description_text(scene: str, k: int) -> str:
    """The audio description of beat ``k`` (from 0) of ``scene``'s synthetic clip; beat 1 (k=1) is said."""
    return f"{scene}, picture {k + 1}: the yellow square sits {square_x(k)} pixels from the left."


def write_tone(path: Path) -> Path:
    """A 0.6-second 440 Hz tone at a quarter of full scale: a description's voice."""
    import wave

    t = np.arange(round(DESCRIPTION_SECONDS * 22050)) / 22050
    samples = (0.25 * 32767 * np.sin(2 * np.pi * 440 * t)).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(22050)
        w.writeframes(samples.tobytes())
    return path


def _description(scene: str, k: int, tone: Path) -> dict:
    if k == 1:
        return {"text": "", "said": True, "duration": 0.0, "audio": [], "cues": []}
    text = description_text(scene, k)
    return {
        "text": text,
        "said": False,
        "duration": DESCRIPTION_SECONDS,
        "audio": [[str(tone), 0.0]],
        "cues": [[text, 0.0, DESCRIPTION_SECONDS]],
    }


BEAT_NAMES = ("beat", "predict", "predict-answer")
"""The synthetic beats' names: the second reads a question's options, the third shows its answer, so the
page's players stop at 1.9 s (the second beat's caption ends) and go on from 2.0 s."""


def write_beats(stem: Path, scene: str, tone: Path) -> None:
    """The beats record a render writes, and the clip's SRT: one beat and one cue per second."""
    beats = [
        {
            "id": f"{scene}.{k + 1:02d}-{BEAT_NAMES[k]}",
            "text": f"{scene}, beat {k + 1}: what the viewer sees now.",
            "start": float(k),
            "end": float(k + 1),
            "voice": "none",
            "engine": "none",
            "audio": [],
            "cues": [[f"Beat {k + 1} of {scene}", float(k), 0.9]],
            "description": _description(scene, k, tone),
            "equations": EQUATIONS[k],
            "words": WORDS[k],
        }
        for k in range(SECONDS)
    ]
    record = {"scene": scene, "duration": float(SECONDS), "beats": beats}
    Path(f"{stem}.beats.json").write_text(json.dumps(record))
    stem.with_suffix(".srt").write_text(
        to_srt([Cue(float(k), k + 0.9, f"Beat {k + 1} of {scene}") for k in range(3)])
    )


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """test_build.py's tests that read its two-scene build are one xdist group: the build is made once."""
    for item in items:
        if item.path.name == "test_build.py" and "build" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("build"))


@pytest.fixture(scope="session")
def lecture(tmp_path_factory) -> dict:
    """Publish the synthetic lecture; returns its folder, manifest and lecture file."""
    out = tmp_path_factory.mktemp("page") / "480p15"
    out.mkdir()
    toml = out.parent / "lecture.toml"
    toml.write_text(LECTURE_TOML)
    config = load_config(toml)
    tone = write_tone(out.parent / "description.wav")
    results = []
    for i, clip in enumerate(LECTURE):
        stem = out / f"{i:02d}-{clip.scene}"
        write_clip(stem.with_suffix(".mp4"))
        write_beats(stem, clip.scene, tone)
        beats = Path(f"{stem}.beats.json")
        results.append(
            RenderResult(clip, stem.with_suffix(".mp4"), stem.with_suffix(".srt"), True, 0.0, beats)
        )
    page = publish_lecture(results, RenderOptions("l"), out, config.title, config, described=True)
    manifest = json.loads((out / "manifest.json").read_text())
    return {"out": out, "page": page, "manifest": manifest, "config": config, "results": results}


@pytest.fixture(scope="session")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="session")
def opened(lecture, browser):
    """The published page, open at 1280 pixels wide, every figure started and every video loaded."""
    page = open_page(browser, lecture["page"].as_uri())
    page.page.wait_for_function(f"document.body.dataset.videosLoaded === '{PLAYERS}'", timeout=20000)
    page.page.wait_for_function("document.querySelectorAll('[data-explore][data-ready]').length === 5")
    yield page
    page.page.close()
