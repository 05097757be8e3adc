"""The accessibility statement as a conformance report (``conformance.html``): WCAG 2.2 AA, 1.2.7, 1.2.8.

Each criterion that applies to the package names how the package meets it
and the package's files that show it. The files are given as patterns
matched against what the SCORM zip holds (:func:`production.publish.course.scorm.package_files`):
a pattern that matches nothing is left out, so the report names only files
that exist. A criterion's first pattern is the file it cannot be met without:
where it is missing (the described lecture of a folder built without
``--described``), the report says the criterion is not supported.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from production.publish.page import environment

__all__ = ["CONFORMANCE", "Criterion", "CRITERIA", "evidence", "supported", "conformance_report"]

CONFORMANCE = "conformance.html"
TEMPLATES = Path(__file__).resolve().parent / "templates"
PAGE = ("index.html",)
CAPTIONS = ("lecture.vtt", "lecture.srt", "[0-9][0-9]-*.srt")
DESCRIBED = ("lecture-described.mp4", "*.described.mp4", "*.descriptions.vtt")
TEXT = ("transcript.html", "notes.html", "transcript.md")


@dataclass(frozen=True)
class Criterion:
    """A WCAG success criterion, how the package meets it, and the patterns of the files that show it.

    The first pattern names the file the criterion cannot be met without (:func:`supported`).
    """

    number: str
    name: str
    level: str
    how: str
    files: tuple[str, ...]


CRITERIA = (
    Criterion(
        "1.1.1",
        "Non-text content",
        "A",
        "Every storyboard thumbnail's alternative text is its beat's narration; each Explore figure "
        "has a text name and readout.",
        ("index.html", "storyboard/*"),
    ),
    Criterion(
        "1.2.2",
        "Captions (prerecorded)",
        "A",
        "Every clip and the whole lecture carry captions made from the narration script, shown by default.",
        CAPTIONS,
    ),
    Criterion(
        "1.2.3",
        "Audio description or media alternative (prerecorded)",
        "A",
        "The descriptive transcript gives, beat by beat, the speech, what the picture shows and each "
        "equation as MathML.",
        ("transcript.html", *DESCRIBED),
    ),
    Criterion(
        "1.2.5",
        "Audio description (prerecorded)",
        "AA",
        "The audio-described lecture and clips speak each picture's description; the player switches "
        "to them at the same moment.",
        DESCRIBED,
    ),
    Criterion(
        "1.2.7",
        "Extended audio description (prerecorded)",
        "AAA",
        "In the described videos the picture holds while its description is spoken, where the "
        "narration leaves no pause for it.",
        ("lecture-described.mp4", "*.described.mp4", "chapters-described.vtt"),
    ),
    Criterion(
        "1.2.8",
        "Media alternative (prerecorded)",
        "AAA",
        "The descriptive transcript and the lecture notes carry everything the video says and shows, "
        "in order.",
        TEXT,
    ),
    Criterion(
        "1.3.1",
        "Info and relationships",
        "A",
        "Sections are headed, storyboards are lists, questions are groups labelled by their prompt.",
        PAGE,
    ),
    Criterion(
        "1.3.2",
        "Meaningful sequence",
        "A",
        "The reading order is the lecture's order: section, video, storyboard, figure, questions.",
        PAGE,
    ),
    Criterion(
        "1.4.1",
        "Use of color",
        "A",
        "Feedback to an answer says Right or Not, in words; the figures name their series in text.",
        PAGE,
    ),
    Criterion(
        "1.4.2", "Audio control", "A", "No video plays on its own; every player has its own controls.", PAGE
    ),
    Criterion(
        "1.4.3",
        "Contrast (minimum)",
        "AA",
        "Text meets 4.5:1 on the page's dark theme; axe-core checks it with a question open.",
        PAGE,
    ),
    Criterion(
        "1.4.4",
        "Resize text",
        "AA",
        "Text is sized in relative units and the page reflows when zoomed to 200%.",
        PAGE,
    ),
    Criterion(
        "1.4.10",
        "Reflow",
        "AA",
        "One column with a viewport meta tag; the players shrink to the width.",
        PAGE,
    ),
    Criterion(
        "1.4.11", "Non-text contrast", "AA", "Buttons and focus outlines contrast with the background.", PAGE
    ),
    Criterion(
        "2.1.1",
        "Keyboard",
        "A",
        "Players, storyboard beats, questions and the description switch are buttons; Escape skips a "
        "question.",
        PAGE,
    ),
    Criterion(
        "2.1.2", "No keyboard trap", "A", "A question holds focus only until it is answered or skipped.", PAGE
    ),
    Criterion(
        "2.2.1", "Timing adjustable", "A", "A question waits for the student; nothing times out.", PAGE
    ),
    Criterion("2.2.2", "Pause, stop, hide", "A", "Every video is started and stopped by the student.", PAGE),
    Criterion(
        "2.4.2",
        "Page titled",
        "A",
        "Each page is titled with the lecture's title.",
        ("index.html", "notes.html", "transcript.html"),
    ),
    Criterion(
        "2.4.3",
        "Focus order",
        "A",
        "When a question opens, focus moves to it; after it, back to its video.",
        PAGE,
    ),
    Criterion(
        "2.4.4",
        "Link purpose (in context)",
        "A",
        "Links name what they open (lecture notes, descriptive transcript).",
        PAGE,
    ),
    Criterion(
        "2.4.6",
        "Headings and labels",
        "AA",
        "Each section has a heading with its number and title; each control is labelled.",
        PAGE,
    ),
    Criterion(
        "2.4.7", "Focus visible", "AA", "Focused controls show the browser's outline, not removed.", PAGE
    ),
    Criterion(
        "2.4.11",
        "Focus not obscured (minimum)",
        "AA",
        "Nothing overlays the page: the question opens below its video.",
        PAGE,
    ),
    Criterion("2.5.8", "Target size (minimum)", "AA", "Buttons are at least 24 by 24 CSS pixels.", PAGE),
    Criterion(
        "3.1.1",
        "Language of page",
        "A",
        'Every page declares lang="en"; the tracks declare srclang="en".',
        PAGE,
    ),
    Criterion("3.2.1", "On focus", "A", "Focus never starts playback or moves the page.", PAGE),
    Criterion(
        "3.2.2",
        "On input",
        "A",
        "Choosing an option shows feedback; the video goes on only on Play the answer.",
        PAGE,
    ),
    Criterion(
        "3.3.2",
        "Labels or instructions",
        "A",
        "The setting that turns the questions off is a labelled checkbox.",
        PAGE,
    ),
    Criterion(
        "4.1.2",
        "Name, role, value",
        "A",
        "Native buttons, checkbox and video elements; a chosen option is aria-pressed.",
        PAGE,
    ),
    Criterion(
        "4.1.3",
        "Status messages",
        "AA",
        "An opened question is announced by a live region, feedback by role=status.",
        PAGE,
    ),
)


def evidence(criterion: Criterion, files: Sequence[str]) -> list[str]:
    """The package's files that match ``criterion``'s patterns, in the package's order."""
    return [f for f in files if any(fnmatch.fnmatchcase(f, p) for p in criterion.files)]


def supported(criterion: Criterion, files: Sequence[str]) -> bool:
    """The package holds the file ``criterion`` needs (its first pattern).

    >>> needs = CRITERIA[[c.number for c in CRITERIA].index("1.2.5")]
    >>> supported(needs, ["index.html", "01-A.descriptions.vtt"]), supported(needs, ["lecture-described.mp4"])
    (False, True)
    """
    return any(fnmatch.fnmatchcase(f, criterion.files[0]) for f in files)


def conformance_report(title: str, files: Sequence[str]) -> str:
    """The report's HTML for the package that holds ``files`` (paths inside the SCORM zip)."""
    rows = [(c, evidence(c, files), supported(c, files)) for c in CRITERIA]
    return environment(TEMPLATES).get_template("conformance.html.j2").render(title=title, rows=rows)
