"""The lecture file the build sends to workers on other machines: any title survives the trip."""

from __future__ import annotations

import tomllib

from hypothesis import given
from hypothesis import strategies as st

from production.render.jobs import portable_toml

TEXT = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=80)
"""Any Unicode text (no lone surrogates, which no file can hold): emoji, mathematical letters, controls."""


@given(title=TEXT, word=TEXT)
def test_any_unicode_title_and_word_round_trip(title: str, word: str) -> None:
    raw = {"KVCacheGrowth": {"words": [word, "b"], "n_prompt": 1}, "TemperatureSweep": {"scores": [1, 2.5]}}
    back = tomllib.loads(portable_toml(title, ["LectureTitle", "KVCacheGrowth"], "draft", raw))
    assert back == {"title": title, "scenes": ["LectureTitle", "KVCacheGrowth"], "voice": "draft", **raw}


def test_an_emoji_title_is_written_as_itself() -> None:
    title = "Attention \N{GRINNING FACE} \N{MATHEMATICAL DOUBLE-STRUCK CAPITAL E}"
    text = portable_toml(title, ["A"], "none", {})
    assert "\N{GRINNING FACE}" in text and "\\ud83d" not in text
    assert tomllib.loads(text)["title"].endswith("\N{MATHEMATICAL DOUBLE-STRUCK CAPITAL E}")
