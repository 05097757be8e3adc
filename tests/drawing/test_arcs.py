"""A sentence's arcs: one per word, as wide as its weight, never higher than asked; words on one baseline."""

from __future__ import annotations

import numpy as np
from manim import RIGHT, VGroup

from drawing.arcs import mix_arcs, on_baseline
from drawing.flow import baseline_of
from drawing.widgets import label


def _row(words):
    return on_baseline(VGroup(*(label(w) for w in words)).arrange(RIGHT, buff=0.4))


def test_words_sit_on_one_baseline():
    row = _row(["she", "took", "a", "loan", "from", "the", "bank"])
    lines = [baseline_of(w) for w in row]
    assert max(lines) - min(lines) < 1e-6


def test_long_arcs_rise_no_higher_than_asked_and_width_follows_weight():
    row = _row(["[CLS]", "she", "took", "a", "loan", "from", "the", "bank", "[SEP]"])
    weights = np.array([0.12, 0.02, 0.06, 0.03, 0.57, 0.02, 0.04, 0.06, 0.08])
    arcs = mix_arcs(row, 7, weights, rise=0.9)
    top = max(w.get_top()[1] for w in row) + 0.1
    assert len(arcs) == len(row)
    for j, arc in enumerate(arcs):
        if j != 7:  # the loop over the word itself is a small circle
            assert arc.get_top()[1] <= top + 0.9 + 1e-6, j
    widths = [arc.get_stroke_width() for arc in arcs]
    assert int(np.argmax(widths)) == 4  # "loan", the largest weight, has the widest arc
