"""Lecturer text at the longest lengths lecture.toml accepts stays in the frame at a readable size."""

from __future__ import annotations

import pytest

from attnmath.decoder import tokenize
from lecture.clips import find_clip
from lecture.config import load_config
from lecture.parameters import MAX_TEXT, MAX_TEXT_WORD, MAX_WORD, ConfigError
from lecture.sections.s6_real import MAX_DECODED
from lecture.settings import ENV, SceneSettings
from tests.scenes.conftest import SceneRun

# 80 characters: the longest title and subtitle accepted, one with a 24-character word.
TITLE = "Attention in practice: kernels, temperatures, heads, caches and everything else!"
SUBTITLE = "weights that depend on the query, explained slowly with counterrevolutionaryisms"
# 12 words of 12 letters, each one of the decoder's tokens: section 6 also decodes them (at most 12 tokens).
WORDS = "Additionally architecture accompanying achievements accumulating acknowledged acquaintance \
administered advancements agricultural alphabetical alternatives".split()


def lecture_file(tmp_path, monkeypatch) -> None:
    words = ", ".join(f'"{w}"' for w in WORDS)
    path = tmp_path / "lecture.toml"
    path.write_text(
        f'title = "{TITLE}"\n[LectureTitle]\nsubtitle = "{SUBTITLE}"\n[KVCacheGrowth]\nwords = [{words}]\n'
    )
    monkeypatch.setenv(ENV, SceneSettings(config=path).env()[ENV])
    load_config(path)  # the file is accepted


def test_the_examples_are_the_longest_accepted():
    assert len(TITLE) == MAX_TEXT and len(SUBTITLE) == MAX_TEXT
    assert max(len(w) for w in SUBTITLE.split()) == MAX_TEXT_WORD
    assert all(len(w) == MAX_WORD for w in WORDS) and len(WORDS) == 12
    assert len(tokenize(" ".join(WORDS))) <= MAX_DECODED  # the most the decoding beat lays out


@pytest.mark.parametrize("scene", ["LectureTitle", "KVCacheGrowth"])
def test_longest_lecturer_text_fits_at_a_readable_size(scene, tmp_path, monkeypatch):
    lecture_file(tmp_path, monkeypatch)
    run = SceneRun(find_clip(scene), tmp_path, frames=False)
    assert run.problems == []
    assert run.size_problems == []


@pytest.mark.parametrize(
    ("line", "match"),
    [
        (f'title = "{"x" * (MAX_TEXT_WORD + 1)}"', "longer than 24 characters; break it"),
        ('[KVCacheGrowth]\nwords = ["a", "abcdefghijklm"]', "at most 12 characters"),
        (f"[KVCacheGrowth]\nwords = {['xylophonexyz'] * 12}", f"section 6 lays out at most {MAX_DECODED}"),
    ],
)
def test_longer_text_is_refused_with_one_line(tmp_path, line, match):
    path = tmp_path / "lecture.toml"
    path.write_text(line + "\n")
    with pytest.raises(ConfigError, match=match):
        load_config(path)


def test_a_long_sentence_token_is_refused(tmp_path):
    path = tmp_path / "lecture.toml"
    path.write_text(
        '[HeadRouting]\nsentence = { tokens = [{ text = "Dogs", pos = "NOUN" }, '
        '{ text = "barkbarkbarkbark", pos = "VERB", subject = 0 }] }\n'
    )
    with pytest.raises(ConfigError, match="'barkbarkbarkbark' is longer than 12 characters"):
        load_config(path)
