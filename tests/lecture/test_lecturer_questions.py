"""A lecturer's own questions in lecture.toml: read into the section's list, kept out of the video's hash,
and each malformation refused in one line naming the section and the field."""

from __future__ import annotations

import re

import pytest

from lecture.clips import find_clip
from lecture.config import ConfigError, load_config

GOOD = """\
[[HeadRouting.questions]]
stem = "Which head copies?"
options = ["Previous-token", "Induction", "Sink"]
right = "B"
feedback = { A = "It looks one token back.", C = "It parks its weight on the first token." }
"""

DATA = "[HeadRouting]\ninduction_tokens = 12\n"


def load(tmp_path, text: str):
    path = tmp_path / "lecture.toml"
    path.write_text(text)
    return load_config(path)


def test_a_question_follows_the_sections_own(tmp_path):
    config = load(tmp_path, GOOD)
    section = find_clip("HeadRouting")
    own = section.ask()
    questions = config.questions_for(section)
    assert questions[: len(own)] == own and len(questions) == len(own) + 1
    q = questions[-1]
    assert q.prompt == "Which head copies?" and q.right == 1 and q.answer == "Induction"
    assert [o.why_not for o in q.options] == [
        "It looks one token back.",
        None,
        "It parks its weight on the first token.",
    ]
    assert config.questions_for(find_clip("TemperatureSweep")) == find_clip("TemperatureSweep").ask()


def test_questions_leave_the_clips_fingerprints_and_data_alone(tmp_path):
    plain = load(tmp_path, DATA)
    asking = load(tmp_path, DATA + GOOD)
    for scene in ("HeadRouting", "AdaptiveSufficiency"):
        section = find_clip(scene)
        assert asking.fingerprint(section) == plain.fingerprint(section)
    assert asking.parameters == plain.parameters and asking.raw == plain.raw
    assert asking.parameters["HeadRouting"].induction_tokens == 12


def test_a_section_without_data_takes_questions_only(tmp_path):
    text = GOOD.replace("HeadRouting", "AdaptiveSufficiency")
    config = load(tmp_path, text)
    section = find_clip("AdaptiveSufficiency")
    assert config.questions_for(section)[-1].prompt == "Which head copies?"
    assert load(tmp_path, "").fingerprint(section) == config.fingerprint(section)
    with pytest.raises(ConfigError, match=r"\[AdaptiveSufficiency\] has no data to set; it takes only"):
        load(tmp_path, "[AdaptiveSufficiency]\nwords = 3\n")


def test_questions_that_are_not_blocks_are_one_line(tmp_path):
    with pytest.raises(
        ConfigError, match=r"\[HeadRouting\] questions must be \[\[HeadRouting.questions\]\] blocks"
    ):
        load(tmp_path, '[HeadRouting]\nquestions = "all"\n')


def test_two_options_and_an_explanation(tmp_path):
    text = GOOD.replace('["Previous-token", "Induction", "Sink"]', '["Yes", "No"]')
    text = text.replace('right = "B"', 'right = "a"').replace(
        'feedback = { A = "It looks one token back.", C = "It parks its weight on the first token." }',
        'feedback = { B = "It does." }\nanswer = "Yes: it reads the token after the copy."',
    )
    q = load(tmp_path, text).questions_for(find_clip("HeadRouting"))[-1]
    assert (
        q.right == 0
        and q.answer == "Yes: it reads the token after the copy."
        and q.options[1].why_not == "It does."
    )


WHERE = r"\[\[HeadRouting.questions\]\] question 1"
FEEDBACK = 'feedback = { A = "It looks one token back.", C = "It parks its weight on the first token." }'


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('stem = "Which head copies?"\n', "", f"{WHERE}: stem missing"),
        ('stem = "Which head copies?"', 'stem = "  "', f"{WHERE}: stem must be a non-empty string"),
        (
            '["Previous-token", "Induction", "Sink"]',
            '["Induction"]',
            f"{WHERE}: options must be a list of 2 to 4",
        ),
        (
            '["Previous-token", "Induction", "Sink"]',
            '"Induction"',
            f"{WHERE}: options must be a list of 2 to 4",
        ),
        ('["Previous-token", "Induction", "Sink"]', '["a", "b", "c", "d", "e"]', f"{WHERE}: options must be"),
        (
            'right = "B"',
            'right = "D"',
            f"{WHERE}: right must be the right option's letter, one of A, B, C, got 'D'",
        ),
        ('right = "B"', "right = 2", f"{WHERE}: right must be the right option's letter"),
        ('right = "B"\n', "", f"{WHERE}: right missing"),
        (
            ', C = "It parks its weight on the first token."',
            "",
            f"{WHERE}: feedback is missing for wrong option",
        ),
        (FEEDBACK, 'feedback = "no"', f"{WHERE}: feedback must be a table of one sentence per wrong option"),
        (
            "feedback = { A",
            'feedback = { B = "Right.", A',
            f"{WHERE}: feedback is for the wrong options \\(A, C\\) only",
        ),
        ('stem = "Which', 'hint = "Think."\nstem = "Which', f"{WHERE}: unknown field\\(s\\) \\['hint'\\]"),
    ],
)
def test_a_malformed_question_is_one_line_naming_the_section_and_the_field(tmp_path, old, new, message):
    assert old in GOOD
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, GOOD.replace(old, new, 1))
    text = str(caught.value)
    assert "\n" not in text and re.search(message, text), text
    assert text.startswith(str(tmp_path / "lecture.toml")) and "HeadRouting" in text
