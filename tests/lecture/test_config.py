"""lecture.toml: validation, and overrides reaching the scenes."""

from __future__ import annotations

import numpy as np
import pytest

from lecture.clips import LECTURE, find_clip
from lecture.config import ConfigError, load_config
from lecture.settings import ENV, SceneSettings
from tests.scenes.conftest import SceneRun

LECTURER = """
title = "Week 5"
scenes = ["LectureTitle", "TemperatureSweep", "HeadRouting"]

[TemperatureSweep]
scores = [0.5, 2.0, 1.0, 3.0, -0.7]

[HeadRouting]
sentence = { tokens = [
  { text = "Dogs", pos = "NOUN", phrase = 0 },
  { text = "bark", pos = "VERB", subject = 0 },
  { text = "at", pos = "PREP", head = 1 },
  { text = "night", pos = "NOUN", phrase = 1 },
] }
"""


@pytest.fixture
def lecturer_file(tmp_path, monkeypatch):
    path = tmp_path / "lecture.toml"
    path.write_text(LECTURER)
    monkeypatch.setenv(ENV, SceneSettings(config=path).env()[ENV])
    return path


def test_defaults_without_a_file():
    config = load_config(None)
    assert config.clips == LECTURE and config.title == "Attention" and config.parameters == {}


@pytest.fixture
def recordings_home(tmp_path, monkeypatch):
    """The defaults' recordings folders moved under ``tmp_path`` (the old one and the new)."""
    from lecture import config

    monkeypatch.setattr(config, "RECORDINGS", tmp_path / "recordings")
    monkeypatch.setattr(config, "OLD_RECORDINGS", tmp_path / "narration")
    config.default_recordings.cache_clear()
    yield tmp_path
    config.default_recordings.cache_clear()


def test_recordings_default_to_a_folder_outside_the_code(recordings_home, capsys):
    assert load_config(None).narration == recordings_home / "recordings"
    assert capsys.readouterr().err == ""


def test_recordings_left_in_the_old_folder_are_still_used_with_one_line(recordings_home, capsys):
    old = recordings_home / "narration" / "LectureTitle"
    old.mkdir(parents=True)
    (old / "LectureTitle.01-title.wav").write_bytes(b"RIFF")
    assert load_config(None).narration == recordings_home / "narration"
    assert load_config(None).narration == recordings_home / "narration"  # said once, not per use
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "move them to" in err[0] and str(recordings_home / "recordings") in err[0]


def test_file_chooses_orders_and_overrides(lecturer_file):
    config = load_config(lecturer_file)
    assert [c.scene for c in config.clips] == ["LectureTitle", "TemperatureSweep", "HeadRouting"]
    assert config.parameters["TemperatureSweep"].scores == (0.5, 2.0, 1.0, 3.0, -0.7)
    assert config.fingerprint(find_clip("TemperatureSweep")) != load_config(None).fingerprint(
        find_clip("TemperatureSweep")
    )
    assert config.fingerprint(find_clip("KVCacheGrowth")) == load_config(None).fingerprint(
        find_clip("KVCacheGrowth")
    )


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[KVCacheGrowth]\nn_prompt = 11\n", "n_prompt must be smaller"),
        (  # 12 words the tokenizer splits into many pieces: more rows than section 6 lays out
            '[KVCacheGrowth]\nwords = ["Xylophonists", "quixotically", "juxtapose", "zygomorphic", '
            '"phlogiston", "quasars", "with", "kaleidoscope", "syzygies", "and", "flummoxed", "gnus"]\n',
            r"\[KVCacheGrowth\] words make \d+ of SmolLM2-135M-Instruct's tokens, "
            "and section 6 lays out at most 12",
        ),
        ("[TemperatureSweep]\nscores = [1]\n", "scores must be a list of 2 to 16"),
        ("[TemperatureSweep]\nspeed = 2\n", r"unknown key\(s\) \['speed'\]"),
        ("scenes = []\n", "non-empty list"),
        ('scenes = ["TemperatureSweep", "TemperatureSweep"]\n', "twice"),
        ("[FixedVsQueryWeights]\nn_points = true\n", "n_points must be an integer"),
        (
            "[HeadRouting]\ninduction_tokens = 30\n",
            r"\[HeadRouting\] induction_tokens must be an integer from 4 to 20",
        ),
    ],
)
def test_invalid_files_are_rejected(tmp_path, text, match):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=match):
        load_config(path)


def test_overrides_reach_the_scenes_and_still_lay_out_cleanly(lecturer_file, tmp_path):
    sweep = SceneRun(find_clip("TemperatureSweep"), tmp_path, frames=False)
    np.testing.assert_array_equal(sweep.scene.s, [0.5, 2.0, 1.0, 3.0, -0.7])
    assert sweep.problems == []
    heads = SceneRun(find_clip("HeadRouting"), tmp_path, frames=False)
    assert heads.scene.heads.sentence.texts == ("Dogs", "bark", "at", "night")
    assert heads.problems == []
    title = SceneRun(find_clip("LectureTitle"), tmp_path, frames=False)
    assert title.scene.lecture_title == "Week 5"
    assert len(title.scene.outline) == 2 and title.problems == []
