"""Role colours in TeX never split a TeX command (the stray "q" of \\neq coloured as the query)."""

from __future__ import annotations

import pytest

from drawing import theme
from drawing.widgets import math


@pytest.mark.parametrize("tex", [r"e^{q} \neq f(q)", r"\sqrt{q}", r"a \quad q"])
def test_a_colour_that_would_split_a_command_is_a_bug_named_in_one_line(tex):
    with pytest.raises(ValueError, match=r"bug: colouring 'q' would split the TeX command"):
        math(tex, colors={"q": theme.QUERY})


def test_a_colour_on_whole_symbols_is_kept():
    mob = math(r"e^{q} \ne f(q)", colors={"q": theme.QUERY})
    glyphs = [g.get_color().to_hex().upper() for g in mob.family_members_with_points()]
    assert glyphs.count(theme.QUERY) == 2  # the two q's, and nothing else (no stray q from \neq)
    assert len(glyphs) == 8  # e q = f ( q ): one glyph each, and no glyph more
