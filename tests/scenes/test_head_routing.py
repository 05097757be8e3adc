"""HeadRouting's sentence: large by default; in the frame at 30 or more at the longest accepted."""

from __future__ import annotations

import numpy as np
import pytest

from attnmath import DEFAULT_SENTENCE
from drawing import theme
from drawing.sentence import WordRows
from lecture.clips import find_clip
from lecture.config import load_config
from lecture.parameters import MAX_WORD
from lecture.settings import ENV, SceneSettings
from tests.scenes.conftest import SceneRun

# 14 tokens (the most lecture.toml accepts), each MAX_WORD characters long, annotated for every head.
ROLES = [
    ("The", "DET", {"phrase": 0}),
    ("small", "ADJ", {"phrase": 0}),
    ("dog", "NOUN", {"phrase": 0}),
    ("chased", "VERB", {"subject": 2}),
    ("a", "DET", {"phrase": 1}),
    ("cat", "NOUN", {"phrase": 1}),
    ("across", "PREP", {"head": 3}),
    ("the", "DET", {"phrase": 2}),
    ("old", "ADJ", {"phrase": 2}),
    ("garden", "NOUN", {"phrase": 2}),
    ("and", "CONJ", {}),
    ("then", "ADV", {}),
    ("slept", "VERB", {"subject": 2}),
    ("soundly", "ADV", {}),
]
LONGEST = [f"{w:x<{MAX_WORD}}" for w, _, _ in ROLES]
# Real words of the same length, wide letters included.
WIDE = ["Wholehearted", "Housewarming", "Mountaineers", "Thanksgiving", "Wonderworker", "Breakthrough"] * 2
WIDE += ["Consequently", "Misdemeanour"]
REGION = {"top": 2.75, "bottom": -2.35, "size": 56}  # as HeadRouting.show_sentence lays the words out


def toml_sentence() -> str:
    tokens = []
    for text, (_, pos, extra) in zip(LONGEST, ROLES, strict=True):
        fields = [f'text = "{text}"', f'pos = "{pos}"', *(f"{k} = {v}" for k, v in extra.items())]
        tokens.append("{ " + ", ".join(fields) + " }")
    return "[HeadRouting]\nsentence = { tokens = [\n  " + ",\n  ".join(tokens) + "\n] }\n"


@pytest.fixture
def longest_lecture(tmp_path, monkeypatch):
    path = tmp_path / "lecture.toml"
    path.write_text(toml_sentence())
    monkeypatch.setenv(ENV, SceneSettings(config=path).env()[ENV])
    return load_config(path)  # accepted: this is the longest sentence the file allows


def test_default_sentence_is_large():
    rows = WordRows(DEFAULT_SENTENCE.texts, **REGION)
    assert rows.font_size() >= theme.LABEL_SIZE and not rows.scaled
    assert rows.n_rows <= 2


def test_longest_sentence_is_accepted(longest_lecture):
    sentence = longest_lecture.parameters["HeadRouting"].sentence
    assert len(sentence) == 14 and all(len(w) == MAX_WORD for w in sentence.texts)


def test_longest_sentence_lays_out_in_the_frame_at_a_readable_size(longest_lecture, tmp_path):
    run = SceneRun(find_clip("HeadRouting"), tmp_path, frames=False)
    assert run.scene.words.words == tuple(LONGEST)
    assert run.scene.words.font_size() >= theme.SMALL_SIZE and not run.scene.words.scaled
    assert run.problems == []
    assert run.size_problems == []


@pytest.mark.parametrize("words", [LONGEST, WIDE], ids=["padded", "wide-letters"])
def test_rows_and_the_room_above_them_stay_in_the_sentence_region(words):
    rows = WordRows(words, **REGION)
    assert rows.font_size() >= theme.SMALL_SIZE and not rows.scaled
    boxes = [word[0] for word in rows.boxes]
    assert min(b.get_left()[0] for b in boxes) >= theme.SAFE_LEFT - 1e-6
    assert max(b.get_right()[0] for b in boxes) <= theme.SAFE_RIGHT + 1e-6
    for a, b in ((a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]):
        gap = np.maximum(a.get_corner([-1, -1, 0]), b.get_corner([-1, -1, 0])) - np.minimum(
            a.get_corner([1, 1, 0]), b.get_corner([1, 1, 0])
        )
        assert gap[:2].max() > 0, "two word boxes overlap"
    assert max(b.get_top()[1] for b in boxes) + rows.arc_room <= REGION["top"] + 1e-6  # the room above
    assert min(b.get_bottom()[1] for b in boxes) >= REGION["bottom"] - 1e-6


@pytest.mark.parametrize(
    "words", [DEFAULT_SENTENCE.texts, LONGEST, WIDE], ids=["default", "padded", "wide-letters"]
)
def test_routing_columns_stay_in_the_frame_with_rows_apart(words):
    from scenes.s5_multihead import RoutingColumns

    cols = RoutingColumns(words)
    n = len(words)
    every = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    cols.add(cols.lines(every), cols.percents(every[-1], range(n)))
    assert cols.get_left()[0] >= theme.SAFE_LEFT - 1e-6 and cols.get_right()[0] <= theme.SAFE_RIGHT + 1e-6
    assert cols.get_top()[1] <= theme.SAFE_TOP and cols.get_bottom()[1] >= theme.SAFE_BOTTOM
    assert min(q.font_size for q in cols.queries) >= theme.SMALL_SIZE - 1e-6
    for column in (cols.queries, cols.keys):
        for upper, lower in zip(column, column[1:], strict=False):
            assert upper.get_bottom()[1] > lower.get_top()[1] - 0.05, "two words in a column overlap"
