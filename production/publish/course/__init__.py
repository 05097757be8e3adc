"""The course package: the built lecture as learning platforms import it, written by one command.

``attention-lecture package`` writes ``media/lecture/<quality>/course/`` from the
built lecture folder at that quality (:func:`write_course`):

- ``attention-scorm12.zip``: the page, clips, captions, description tracks,
  described clips, transcript and notes as a SCORM 1.2 package whose page
  reports progress, completion, score and answers to the platform (:mod:`.scorm`);
- ``attention-qti21.zip``: every question as a QTI 2.1 bank (:mod:`.qti`);
- ``attention-moodle.xml``: the same bank as Moodle XML (:mod:`.moodle`);
- ``attention.apkg``: an Anki deck of the questions (:mod:`.anki`);
- ``conformance.html``: the accessibility conformance report (:mod:`.conformance`).

The folder is written whole beside its place and renamed into it
(:func:`atomic_files.replacing_folder`): a reader never finds half a package.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from atomic_files import replacing_folder
from lecture.config import LectureConfig
from production.publish.course.anki import ANKI_DECK, write_deck
from production.publish.course.conformance import CONFORMANCE, conformance_report
from production.publish.course.items import CourseQuestion, course_questions
from production.publish.course.moodle import MOODLE_XML, moodle_xml
from production.publish.course.qti import QTI_ZIP, write_qti
from production.publish.course.scorm import SCORM_ZIP, START, write_scorm

__all__ = [
    "COURSE",
    "CourseError",
    "CourseQuestion",
    "SCORM_ZIP",
    "QTI_ZIP",
    "MOODLE_XML",
    "ANKI_DECK",
    "CONFORMANCE",
    "built",
    "write_course",
]

COURSE = "course"
"""The package's folder, inside the built lecture folder."""


class CourseError(ValueError):
    """The built lecture folder cannot be packaged: the message says why and what to run."""


def built(folder: Path) -> bool:
    """``folder`` holds a published lecture with its described version (what a package needs)."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return False
    return (folder / START).exists() and bool(manifest.get("described"))


def _manifest(folder: Path) -> dict[str, Any]:
    """The built folder's manifest, or a CourseError naming the folder and the command that builds it."""
    try:
        manifest: dict[str, Any] = json.loads((folder / "manifest.json").read_text())
    except FileNotFoundError:
        raise CourseError(
            f"{folder} has no manifest.json: build the lecture first (attention-lecture build)"
        ) from None
    except ValueError as exc:
        raise CourseError(
            f"{folder / 'manifest.json'} is not valid JSON ({exc}): rebuild the lecture"
        ) from None
    if not (folder / START).exists():
        raise CourseError(f"{folder} has no {START}: rebuild the lecture (attention-lecture build)")
    return manifest


def write_course(folder: Path, config: LectureConfig, progress: Callable[[str], None] = print) -> Path:
    """Write the course package of the lecture built in ``folder`` to ``folder/course``; returns it."""
    manifest = _manifest(folder)
    questions = course_questions(manifest, config)
    title = str(manifest["title"])
    with replacing_folder(folder / COURSE) as out:
        progress(f"course: SCORM 1.2 package {SCORM_ZIP}")
        files = write_scorm(folder, manifest, out / SCORM_ZIP)
        progress(f"course: {len(questions)} questions as QTI 2.1 ({QTI_ZIP}), Moodle XML and an Anki deck")
        write_qti(questions, out / QTI_ZIP)
        (out / MOODLE_XML).write_bytes(moodle_xml(questions, title))
        write_deck(questions, title, out / ANKI_DECK)
        (out / CONFORMANCE).write_text(conformance_report(title, files))
    return folder / COURSE
