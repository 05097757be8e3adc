"""The course package (issue 52): one command writes it, and each file reads back as its importer reads it.

The package is written once, by ``attention-lecture package``, from a copy of the synthetic lecture
(tests/production/conftest.py). The SCORM zip is then used as a platform uses it: unzipped, served over
HTTP, its start page opened in a frame of a page where scorm-again's SCORM 1.2 run-time is ``window.API``.
"""

from __future__ import annotations

import contextlib
import html
import io
import os
import re
import shutil
import sqlite3
import zipfile
from xml.etree import ElementTree as ET

import pytest

from lecture.clips import LECTURE
from production import cli
from production.cli import main
from production.publish.course import ANKI_DECK, CONFORMANCE, MOODLE_XML, QTI_ZIP, SCORM_ZIP
from production.publish.course.anki import DECK_ID, MODEL_ID, card_fields
from production.publish.course.conformance import CRITERIA
from production.publish.course.items import course_questions
from production.publish.page.asking import asked_questions
from tests.production.browser import assert_no_axe_violations
from tests.production.conftest import PLAYERS
from tests.production.course_platform import platform, scorm12_schema

pytestmark = pytest.mark.xdist_group("course")  # one worker makes the package and the platform
CP = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
ADLCP = "{http://www.adlnet.org/xsd/adlcp_rootv1p2}"
QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
QTI_CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"


@pytest.fixture(scope="session")
def course(lecture, tmp_path_factory) -> dict:
    """``attention-lecture package`` run on a copy of the synthetic lecture; the SCORM zip unzipped."""
    media = tmp_path_factory.mktemp("course")
    folder = media / "lecture" / "480p15"
    shutil.copytree(lecture["out"], folder, copy_function=os.link)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        argv = [
            "--config",
            str(lecture["config"].path),
            "package",
            "--quality",
            "l",
            "--media-dir",
            str(media),
        ]
        assert main(argv) == 0
    unzipped = media / "unzipped"
    with zipfile.ZipFile(folder / "course" / SCORM_ZIP) as z:
        z.extractall(unzipped)
        names = z.namelist()
    questions = course_questions(lecture["manifest"], lecture["config"])
    return {
        "folder": folder,
        "course": folder / "course",
        "out": out.getvalue(),
        "unzipped": unzipped,
        "names": names,
        "questions": questions,
        "manifest": lecture["manifest"],
        "config": lecture["config"],
    }


def test_one_command_writes_the_course_folder_whole(course):
    assert sorted(p.name for p in course["course"].iterdir()) == sorted(
        [SCORM_ZIP, QTI_ZIP, MOODLE_XML, ANKI_DECK, CONFORMANCE]
    )
    assert not [p for p in course["folder"].iterdir() if p.name.startswith(".")]  # no temporary folder left
    assert "course: SCORM 1.2 package" in course["out"] and f"{SCORM_ZIP}  " in course["out"]


def test_the_scorm_manifest_validates_against_adls_schema_files(course):
    from lxml import etree

    with zipfile.ZipFile(course["course"] / SCORM_ZIP) as z:
        manifest = etree.fromstring(z.read("imsmanifest.xml"))
    schema = scorm12_schema()
    assert schema.validate(manifest), schema.error_log
    manifest.remove(manifest[1])  # a manifest without organizations is refused: the check is real
    assert not schema.validate(manifest)


def test_the_scorm_manifest_has_what_a_platform_requires_and_lists_every_file(course):
    with zipfile.ZipFile(course["course"] / SCORM_ZIP) as z:
        root = ET.fromstring(z.read("imsmanifest.xml"))
    assert root.tag == f"{CP}manifest" and root.get("identifier")
    assert root.findtext(f"{CP}metadata/{CP}schema") == "ADL SCORM"
    assert root.findtext(f"{CP}metadata/{CP}schemaversion") == "1.2"
    organizations = root.find(f"{CP}organizations")
    (organization,) = organizations.findall(f"{CP}organization")
    assert organizations.get("default") == organization.get("identifier") and organization.findtext(
        f"{CP}title"
    )
    (item,) = organization.findall(f"{CP}item")
    (resource,) = root.findall(f"{CP}resources/{CP}resource")
    assert item.get("identifierref") == resource.get("identifier") and item.findtext(f"{CP}title")
    assert resource.get(f"{ADLCP}scormtype") == "sco" and resource.get("type") == "webcontent"
    listed = [f.get("href") for f in resource.findall(f"{CP}file")]
    assert resource.get("href") == "index.html" and "index.html" in listed
    assert sorted(listed) == sorted(set(course["names"]) - {"imsmanifest.xml"})  # every file, and only those
    stems = [f"{i:02d}-{c.scene}" for i, c in enumerate(LECTURE)]
    for stem in stems:  # clips, captions, description tracks and the described clips
        for suffix in (".mp4", ".vtt", ".srt", ".descriptions.vtt", ".described.mp4", ".png"):
            assert stem + suffix in listed
    for name in (
        "lecture.mp4",
        "lecture-described.mp4",
        "transcript.html",
        "notes.html",
        "scorm.js",
        CONFORMANCE,
    ):
        assert name in listed
    assert not [n for n in listed if n.endswith((".inputs", ".beats.json", "manifest.json"))]  # build records


def test_only_the_packages_page_carries_the_adapter(course):
    packed = (course["unzipped"] / "index.html").read_text()
    assert '<script src="scorm.js"></script>' in packed and 'id="course-data"' in packed
    assert "scorm.js" not in (course["folder"] / "index.html").read_text()


def test_the_qti_bank_reads_back_with_each_right_option_and_its_feedback(course):
    questions = course["questions"]
    with zipfile.ZipFile(course["course"] / QTI_ZIP) as z:
        manifest = ET.fromstring(z.read("imsmanifest.xml"))
        resources = manifest.findall(f"{QTI_CP}resources/{QTI_CP}resource")
        assert {r.get("type") for r in resources} == {"imsqti_item_xmlv2p1"}
        assert sorted(r.get("href") for r in resources) == sorted(
            n for n in z.namelist() if n != "imsmanifest.xml"
        )
        items = {r.get("href"): ET.fromstring(z.read(r.get("href"))) for r in resources}
    assert len(items) == len(questions)
    for q in questions:
        item = items[f"items/{q.ident}.xml"]
        assert item.tag == f"{QTI}assessmentItem" and item.get("identifier") == q.ident
        feedback = {f.get("identifier"): f.text for f in item.findall(f"{QTI}modalFeedback")}
        if not q.choice:
            assert item.find(f".//{QTI}extendedTextInteraction/{QTI}prompt").text == q.question.prompt
            assert feedback == {"ANSWER": q.question.answer}
            continue
        interaction = item.find(f"{QTI}itemBody/{QTI}choiceInteraction")
        assert (
            interaction.get("maxChoices") == "1" and interaction.findtext(f"{QTI}prompt") == q.question.prompt
        )
        choices = interaction.findall(f"{QTI}simpleChoice")
        assert [c.text for c in choices] == [o.text for o in q.question.options]
        right = item.findtext(f"{QTI}responseDeclaration/{QTI}correctResponse/{QTI}value")
        assert right == choices[q.question.right].get("identifier")
        for choice, option in zip(choices, q.question.options, strict=True):
            assert (option.why_not or q.question.answer) in feedback[choice.get("identifier")]


def test_the_moodle_xml_reads_back(course):
    root = ET.parse(course["course"] / MOODLE_XML).getroot()
    assert root.tag == "quiz" and root[0].get("type") == "category"
    read = root.findall("question")[1:]
    assert len(read) == len(course["questions"])
    for q, el in zip(course["questions"], read, strict=True):
        assert html.unescape(el.findtext("questiontext/text")) == q.question.prompt
        if not q.choice:
            assert (
                el.get("type") == "essay"
                and html.unescape(el.findtext("graderinfo/text")) == q.question.answer
            )
            continue
        assert el.get("type") == "multichoice" and el.findtext("single") == "true"
        answers = el.findall("answer")
        assert [html.unescape(a.findtext("text")) for a in answers] == [o.text for o in q.question.options]
        assert [a.get("fraction") for a in answers] == ["100" if o.right else "0" for o in q.question.options]
        for a, option in zip(answers, q.question.options, strict=True):
            if option.why_not:
                assert html.unescape(a.findtext("feedback/text")) == option.why_not


def test_the_anki_deck_reads_back_from_its_sqlite_collection(course, tmp_path):
    with zipfile.ZipFile(course["course"] / ANKI_DECK) as z:
        name = next(n for n in z.namelist() if n in ("collection.anki21", "collection.anki2"))
        z.extract(name, tmp_path)
    with contextlib.closing(sqlite3.connect(tmp_path / name)) as db:
        notes = db.execute("SELECT mid, flds FROM notes ORDER BY id").fetchall()
        models, decks = db.execute("SELECT models, decks FROM col").fetchone()
    assert str(MODEL_ID) in models and str(DECK_ID) in decks
    assert {mid for mid, _ in notes} == {MODEL_ID}
    assert sorted(f.split("\x1f") for _, f in notes) == sorted(card_fields(q) for q in course["questions"])
    asked = next(q for q in course["questions"] if q.choice)
    link = re.search(r'href="([^"]+)"', card_fields(asked)[2])[1]
    assert link == f"{asked.clip}#t={asked.at:g}" and asked.at == 2.0  # the answer beat of the synthetic clip
    assert link.split("#")[0] in course["names"]


def test_the_conformance_report_names_only_files_in_the_package(course):
    report = (course["course"] / CONFORMANCE).read_text()
    assert report == (course["unzipped"] / CONFORMANCE).read_text()
    named = re.findall(r'<code class="file">([^<]+)</code>', report)
    assert named and set(named) <= set(course["names"])
    for criterion in CRITERIA:
        assert f'id="sc-{criterion.number}"' in report
    assert {"1.2.5", "1.2.7", "1.2.8"} <= {c.number for c in CRITERIA} and "Does not support" not in report


def test_package_builds_the_lecture_first_where_it_is_not_built(tmp_path, monkeypatch, capsys):
    asked = []
    monkeypatch.setattr(cli, "cmd_render", lambda args, config, build: asked.append((args, build)))
    assert main(["package", "--media-dir", str(tmp_path)]) == 2  # the stand-in build wrote nothing
    ((args, build),) = asked
    assert build and args.described and args.quality == "m" and args.media_dir == tmp_path
    out, err = capsys.readouterr()
    assert "building it first (attention-lecture build --quality m --described)" in out
    assert len(err.strip().splitlines()) == 1 and "has no manifest.json" in err


def test_a_bad_quality_is_one_line(capsys):
    assert main(["package", "--quality", "z"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "quality must be one of" in err[0]


@pytest.fixture(scope="module")
def served(course, tmp_path_factory):
    """The platform's base URL: its page, scorm-again's run-time and the unzipped package, over HTTP."""
    with platform(course["unzipped"], tmp_path_factory.mktemp("platform")) as url:
        yield url


LAUNCH = """saved => {
    window.API = new Scorm12API({autocommit: false, lmsCommitUrl: false, logLevel: 5});
    if (saved) API.loadFromFlattenedJSON(saved);
    const frame = document.createElement("iframe");
    Object.assign(frame, {src: "package/index.html", title: "Lecture", width: 1200, height: 800});
    document.querySelector("main").append(frame);
}"""
READ = """() => {
    const cmi = API.renderCMIToJSONObject().cmi;
    const interactions = Object.values(cmi.interactions || {}).filter(i => i && i.id);
    return {status: cmi.core.lesson_status, location: cmi.core.lesson_location, score: cmi.core.score,
            suspend: cmi.suspend_data, exit: cmi.core.exit, session: cmi.core.session_time, interactions,
            terminated: API.isTerminated()};
}"""


def launch(browser, url: str, saved: dict | None = None):
    """A platform page: a fresh run-time (started from ``saved``, a flattened CMI), the package framed."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(re.compile(r"^(https?|wss?|ftp)://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
    page.goto(f"{url}/platform.html")
    page.evaluate(LAUNCH, saved)
    page.wait_for_function(  # the package's page loaded in the frame (not the frame's first, blank document)
        "(f => f.contentWindow.location.href.endsWith('package/index.html')"
        " && f.contentDocument.readyState === 'complete')(document.querySelector('iframe'))"
    )
    frame = next(f for f in page.frames if f.url.endswith("package/index.html"))
    frame.wait_for_function(f"document.body.dataset.videosLoaded === '{PLAYERS}'", timeout=20000)
    return page, frame, errors


def clip_id(scene: str) -> str:
    return f"clip-{[c.scene for c in LECTURE].index(scene):02d}"


def ask(frame, scene: str) -> str:
    """Play ``scene``'s clip from just before its question until the player asks; returns the player's id."""
    video = clip_id(scene)
    frame.evaluate(f"v = document.getElementById('{video}'); v.muted = true; v.currentTime = 1.5; v.play()")
    frame.wait_for_selector(f"#ask-{video}:not([hidden])", timeout=15000)
    return video


def answer(frame, scene: str, option: int | None) -> None:
    """Answer ``scene``'s question with ``option`` (None: skip it), then let the answer play."""
    video = ask(frame, scene)
    if option is None:
        frame.locator(f"#ask-{video} .ask-skip").click()
    else:
        frame.locator(f"#ask-{video} .ask-option").nth(option).click()
        frame.locator(f"#ask-{video} .ask-play").click()


def right_option(course, scene: str) -> int:
    return next(q.question.right for q in course["questions"] if q.scene == scene and q.choice)


def test_a_platform_records_completion_score_and_answers_and_a_second_launch_resumes(course, served, browser):
    page, frame, errors = launch(browser, served)
    right = right_option(course, "TemperatureSweep")
    wrong = (right_option(course, "KernelVariants") + 1) % 3
    answer(frame, "TemperatureSweep", right)
    answer(frame, "KernelVariants", wrong)
    answer(frame, "HeadRouting", None)
    assert page.evaluate("API.cmi.core.lesson_status") == "incomplete"
    for k in range(len(LECTURE)):  # watch to the end: each clip sought past its last beat
        frame.evaluate(
            f"(v => {{ v.pause(); v.currentTime = v.duration; }})(document.getElementById('clip-{k:02d}'))"
        )
    page.wait_for_function("API.cmi.core.lesson_status === 'completed'", timeout=10000)
    frame.evaluate(  # leave in the whole lecture, in section 3 (9 s to 12 s), past its question
        "(async () => { const v = document.getElementById('lecture'); v.muted = true; v.currentTime = 11.2;"
        " await v.play(); v.pause(); })()"
    )
    page.evaluate("document.querySelector('iframe').src = 'about:blank'")  # pagehide: LMSFinish
    page.wait_for_function("API.isTerminated()")
    first = page.evaluate(READ)
    page.close()
    asked = asked_questions(course["manifest"]["clips"], course["config"])
    assert first["status"] == "completed" and first["location"] == "section-TemperatureSweep"
    assert first["terminated"] and first["exit"] == "suspend"  # LMSFinish, and the platform keeps the data
    assert re.fullmatch(r"\d{2,4}:\d\d:\d\d(\.\d+)?", first["session"]), first["session"]
    assert first["score"] == {"raw": "1", "min": "0", "max": str(len(asked))}
    assert [(i["id"], i["type"], i["student_response"], i["result"]) for i in first["interactions"]] == [
        ("TemperatureSweep-q1", "choice", "abcd"[right], "correct"),
        ("KernelVariants-q1", "choice", "abcd"[wrong], "wrong"),
        ("HeadRouting-q1", "choice", "", "neutral"),
    ]
    assert all(re.fullmatch(r"\d\d:\d\d:\d\d", i["time"]) for i in first["interactions"])
    saved = {
        "cmi.core.lesson_status": first["status"],
        "cmi.core.lesson_location": first["location"],
        "cmi.core.score.raw": first["score"]["raw"],
        "cmi.suspend_data": first["suspend"],
    }
    page, frame, errors2 = launch(browser, served, saved)
    assert frame.evaluate("document.body.dataset.resumed").startswith("lecture@11.")
    frame.wait_for_function("Math.abs(document.getElementById('lecture').currentTime - 11.2) < 0.3")
    answer(frame, "KVCacheGrowth", right_option(course, "KVCacheGrowth"))
    page.wait_for_function("API.cmi.core.score.raw === '2'")  # the first launch's answers were kept
    assert page.evaluate("API.cmi.core.lesson_status") == "completed"
    page.close()
    assert errors == errors2 == []


def test_axe_finds_nothing_on_the_packages_player_with_a_question_open(served, browser):
    page, frame, errors = launch(browser, served)
    ask(frame, "TemperatureSweep")
    assert_no_axe_violations(frame, "the package's index.html, in a platform's frame, with a question open")
    page.close()
    assert errors == []
