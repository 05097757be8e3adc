"""The qualities are manim's own table, read from its source; a manim without it stops with one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from production.options import QUALITIES, _manims_qualities


def test_the_qualities_are_manims_table():
    from manim.constants import QUALITIES as MANIMS

    for name, q in MANIMS.items():
        if q["flag"] in QUALITIES:
            ours = QUALITIES[q["flag"]]
            assert (ours.name, ours.width, ours.height, ours.frame_rate) == (
                name,
                q["pixel_width"],
                q["pixel_height"],
                q["frame_rate"],
            )
    assert set(QUALITIES) == {"l", "m", "h", "p", "k"}


@pytest.mark.parametrize(
    "source",
    ["QUALITY = {}\n", "QUALITIES = make_table()\n", "QUALITIES = {'low': 480}\n", "QUALITIES = {\n"],
)
def test_a_manim_without_the_table_is_refused_in_one_line(tmp_path: Path, source: str):
    constants = tmp_path / "constants.py"
    constants.write_text(source)
    with pytest.raises(SystemExit) as refused:
        _manims_qualities(constants)
    message = str(refused.value)
    assert "\n" not in message and message.startswith("error: no QUALITIES table")
    assert str(constants) in message and "manim 0.22" in message
