"""Numbers LectureTitle speaks: how many sections the outline lists, counted from the lecture's clip list."""

from __future__ import annotations

from lecture.clips import LECTURE

EXPECTED = {
    "outline": lambda: [str(sum(1 for clip in LECTURE if clip.number != "0"))],
    "scaled.description": lambda: ["4", "16", "64"],  # the key widths drawn (constants of the picture)
    "variance.description": lambda: ["1"],  # each product's variance: 1 x 1, the assumption's
}
