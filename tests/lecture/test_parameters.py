"""Scene parameters: one model per scene, which the lecture file, scenes, page and README follow."""

from __future__ import annotations

import math
from dataclasses import fields
from pathlib import Path

import pytest

from lecture.clips import LECTURE, find_clip, models
from lecture.config import LectureConfig, load_config
from lecture.lecturer_questions import FIELDS
from lecture.parameters import ConfigError, Parameters, keys_table
from lecture.sections.s6_kv_cache import KVCacheParameters
from lecture.settings import ENV, SceneSettings
from scenes import load_scene

REPO = Path(__file__).resolve().parents[2]


def test_every_model_names_its_own_sections_scene():
    for section in LECTURE:
        assert section.parameters.scene == (section.scene if section.parameters is not Parameters else "")
    assert set(models()) == {s.scene for s in LECTURE if s.parameters is not Parameters}


@pytest.mark.parametrize("scene", [c.scene for c in LECTURE])
def test_a_scene_names_its_sections_model_and_holds_no_values_of_its_own(scene):
    cls = load_scene(find_clip(scene))
    assert cls.parameters_model() is find_clip(scene).parameters
    for f in fields(cls.parameters_model()):
        assert not any(f.name in vars(k) for k in cls.__mro__), f"{scene} holds a value of {f.name}"


def test_the_readme_table_of_keys_is_the_models():
    lines = (REPO / "README.md").read_text().splitlines()
    readme = [line for line in lines if line.startswith("| `[") and not line.startswith("| `[[")]
    assert readme == keys_table(s.parameters for s in LECTURE)  # `[[<Scene>.questions]]`: any section's


def test_the_readme_documents_each_field_of_a_lecturers_question():
    row = next(
        line for line in (REPO / "README.md").read_text().splitlines() if line.startswith("| `[[<Scene>")
    )
    assert all(f"`{name}`" in row for name in FIELDS)


def test_a_scene_gets_the_lecturers_values_and_the_defaults_of_the_rest(tmp_path, monkeypatch):
    path = tmp_path / "lecture.toml"
    path.write_text('[KVCacheGrowth]\nwords = ["a", "b", "c"]\nn_prompt = 2\n')
    monkeypatch.setenv(ENV, SceneSettings(config=path).env()[ENV])  # as the build gives a manim process
    scene = load_scene(find_clip("KVCacheGrowth"))()
    scene.setup()
    assert (scene.params.words, scene.params.n_prompt) == (("a", "b", "c"), 2)
    assert (scene.params.strength, scene.params.seed) == (KVCacheParameters.strength, KVCacheParameters.seed)
    assert scene.lecture.path == path


def test_a_scene_naming_another_scenes_model_is_a_bug():
    from lecture.sections.s0_title import TitleParameters
    from scenes.base import LectureScene

    class KVCacheGrowth(LectureScene[TitleParameters]):
        def construct(self) -> None:
            pass

    with pytest.raises(TypeError, match="bug: KVCacheGrowth names TitleParameters, but its data is a KVCach"):
        KVCacheGrowth().setup()


def test_the_lecture_file_is_checked_by_the_models(tmp_path):
    path = tmp_path / "lecture.toml"
    path.write_text('[KVCacheGrowth]\nn_prompt = 10\nwords = ["a", "b"]\n')
    with pytest.raises(ConfigError, match=r"n_prompt must be smaller than the number of words \(2\)"):
        load_config(path)
    path.write_text("[KVCacheGrowth]\nstrength = 3.0\n")  # fixed data, not a lecturer's key
    refused = r"unknown key\(s\) \['strength'\]; allowed: \['n_prompt', 'words'\]"
    with pytest.raises(ConfigError, match=refused):
        load_config(path)


def test_the_defaults_are_what_a_default_lecture_uses():
    config = LectureConfig()
    for section in LECTURE:
        assert config.parameters_of(section) == section.parameters()
        if section.parameters is not Parameters:
            assert config.parameters_for(section.scene) == section.parameters()
    assert config.parameters_for("AdaptiveSufficiency") is None


def test_a_section_given_another_sections_data_is_a_bug():
    with pytest.raises(TypeError, match="bug: KVCacheGrowth takes KVCacheParameters, got a TitleParameters"):
        find_clip("KVCacheGrowth").ask(find_clip("LectureTitle").parameters())


def test_another_section_reads_the_lecturers_parameters_as_their_own_type(tmp_path):
    """Sections 0, 4 and 7 read sections 5's, 3's and 1's parameters: the lecturer's, typed, else a bug."""
    from lecture.sections.s3_softmax_temperature import TemperatureParameters

    path = tmp_path / "lecture.toml"
    path.write_text("[TemperatureSweep]\nscores = [0.5, 2.0, 1.0, 3.0, -0.7]\n")
    config, section3 = load_config(path), find_clip("TemperatureSweep")
    read = config.parameters_as(section3, TemperatureParameters)
    assert isinstance(read, TemperatureParameters) and list(read.scores) == [0.5, 2.0, 1.0, 3.0, -0.7]
    assert LectureConfig().parameters_as(section3, TemperatureParameters) == TemperatureParameters()
    with pytest.raises(
        TypeError, match="bug: TemperatureSweep's parameters are a TemperatureParameters, not"
    ):
        config.parameters_as(section3, KVCacheParameters)


def test_the_recap_shows_the_lecturers_section_three_scores(tmp_path, monkeypatch):
    """Section 7 recaps section 3's picture: with the lecturer's scores, and out of date when they change."""
    path = tmp_path / "lecture.toml"
    path.write_text("[TemperatureSweep]\nscores = [0.5, 2.0, 1.0, 3.0, -0.7]\n")
    monkeypatch.setenv(ENV, SceneSettings(config=path).env()[ENV])
    scene = load_scene(find_clip("AdaptiveSufficiency"))()
    scene.setup()
    s, a = scene.recap_weights()
    assert s.tolist() == [0.5, 2.0, 1.0, 3.0, -0.7]
    e = [math.exp(x / scene.recap_tau) for x in s]  # softmax by hand
    assert a.tolist() == pytest.approx([x / sum(e) for x in e], rel=1e-12)
    recap = find_clip("AdaptiveSufficiency")
    other = tmp_path / "other.toml"
    other.write_text("[TemperatureSweep]\nscores = [1.0, 2.0]\n")
    assert load_config(path).fingerprint(recap) != load_config(other).fingerprint(recap)


def test_the_title_is_out_of_date_when_section_fives_sentence_changes(tmp_path):
    """The title's outline ends on section 5's sentence: a lecturer's new one must re-render the title."""
    path = tmp_path / "lecture.toml"
    path.write_text(
        '[HeadRouting]\nsentence = { tokens = [{ text = "Dogs", pos = "NOUN" }, '
        '{ text = "bark", pos = "VERB", subject = 0 }] }\n'
    )
    title = find_clip("LectureTitle")
    assert load_config(path).fingerprint(title) != load_config(None).fingerprint(title)
