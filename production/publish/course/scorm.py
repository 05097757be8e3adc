"""The SCORM 1.2 package: the built lecture, its page reporting to the platform, and ``imsmanifest.xml``.

A platform (Moodle, Canvas, Blackboard, Brightspace) unzips the package,
reads ``imsmanifest.xml`` (ADL SCORM 1.2 content packaging: one
organization, one item, one resource of ``adlcp:scormtype="sco"`` listing
every file) and opens the resource's start page in a frame beside its
run-time, the ``API`` object. The package's copy of ``index.html`` carries
``scorm.js`` (``assets/scorm.js``), which finds that object and reports: the
section being played (``cmi.core.lesson_location``), ``completed`` once every
section has been watched, the score and one interaction per answer, and what
a second launch needs to resume (``cmi.suspend_data``).
"""

from __future__ import annotations

import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from lecture.section import section_heading
from production.publish.course.conformance import CONFORMANCE, conformance_report
from production.publish.page import inline_json
from production.publish.page.switch import clip_player, described_clips, described_player

__all__ = [
    "SCORM_ZIP",
    "START",
    "package_files",
    "course_data",
    "scorm_page",
    "scorm_manifest",
    "write_scorm",
]

SCORM_ZIP = "attention-scorm12.zip"
START = "index.html"
"""The start page: the resource's ``href``."""
HERE = Path(__file__).resolve().parent
ADAPTER = "scorm.js"
CP = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
ADLCP = "http://www.adlnet.org/xsd/adlcp_rootv1p2"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMAS = (
    f"{CP} imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd "
    f"{ADLCP} adlcp_rootv1p2.xsd"
)
LEFT_OUT = (".inputs", ".beats.json", "manifest.json")
"""Build records (up-to-date hashes, the beats and the manifest the page was made from, with the build
machine's paths): the page has what it needs of them inlined, and students never open them."""
STORED = (".mp4", ".webm", ".png", ".jpg")
"""Files already compressed: stored in the zip, not deflated again."""


def package_files(folder: Path) -> list[str]:
    """The built folder's files a student's page uses, as posix paths relative to ``folder``, sorted.

    Everything but hidden files, build records (:data:`LEFT_OUT`) and the course folder itself.
    """
    found = []
    for path in folder.rglob("*"):
        rel = path.relative_to(folder)
        if (
            path.is_file()
            and rel.parts[0] != "course"
            and not any(part.startswith(".") for part in rel.parts)
            and not path.name.endswith(LEFT_OUT)
        ):
            found.append(rel.as_posix())
    return sorted(found)


def _span(clip: Mapping[str, Any], offset: float) -> list[float]:
    """[start, end] of ``clip``'s beats in a video where the clip starts at ``offset``."""
    return [round(offset, 3), round(offset + float(clip["beats"][-1]["end"]), 3)]


def course_data(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """What ``scorm.js`` needs: each section's id, and where it starts and ends in each player.

    A section has been watched when a player reaches the end of its last beat:
    in its own clip (``clip-NN``) or its described clip, in the whole lecture or in the described one.
    """
    described = described_clips(manifest)
    sections = []
    for i, clip in enumerate(manifest["clips"]):
        own = clip_player(i)
        videos = {own: _span(clip, 0.0), "lecture": _span(clip, float(clip["start"]))}
        if clip["scene"] in described:
            other = described[clip["scene"]]
            videos[described_player(own)] = _span(other, 0.0)
            videos["lecture-described"] = _span(other, float(other["start"]))
        sections.append(
            {
                "id": f"section-{clip['scene']}",
                "heading": section_heading(clip["section"], clip["title"]),
                "videos": videos,
            }
        )
    return {"sections": sections}


def scorm_page(page: str, manifest: Mapping[str, Any]) -> str:
    """The built page's HTML with the course data and the SCORM adapter before ``</body>``."""
    at = page.rfind("</body>")
    if at < 0:
        raise ValueError("the built index.html has no </body>: rebuild the lecture")
    added = (
        f'<script type="application/json" id="course-data">{inline_json(course_data(manifest))}</script>\n'
        f'<script src="{ADAPTER}"></script>\n'
    )
    return page[:at] + added + page[at:]


def scorm_manifest(title: str, files: Sequence[str]) -> bytes:
    """``imsmanifest.xml``: one organization, one item, one SCO resource listing ``files``."""
    ET.register_namespace("", CP)
    ET.register_namespace("adlcp", ADLCP)
    ET.register_namespace("xsi", XSI)
    root = ET.Element(
        f"{{{CP}}}manifest",
        {"identifier": "attention-lecture", "version": "1.0", f"{{{XSI}}}schemaLocation": SCHEMAS},
    )
    metadata = ET.SubElement(root, f"{{{CP}}}metadata")
    ET.SubElement(metadata, f"{{{CP}}}schema").text = "ADL SCORM"
    ET.SubElement(metadata, f"{{{CP}}}schemaversion").text = "1.2"
    organizations = ET.SubElement(root, f"{{{CP}}}organizations", {"default": "lecture"})
    organization = ET.SubElement(organizations, f"{{{CP}}}organization", {"identifier": "lecture"})
    ET.SubElement(organization, f"{{{CP}}}title").text = title
    item = ET.SubElement(
        organization, f"{{{CP}}}item", {"identifier": "item", "identifierref": "sco", "isvisible": "true"}
    )
    ET.SubElement(item, f"{{{CP}}}title").text = title
    resources = ET.SubElement(root, f"{{{CP}}}resources")
    resource = ET.SubElement(
        resources,
        f"{{{CP}}}resource",
        {"identifier": "sco", "type": "webcontent", f"{{{ADLCP}}}scormtype": "sco", "href": START},
    )
    for name in files:
        ET.SubElement(resource, f"{{{CP}}}file", {"href": name})
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def write_scorm(folder: Path, manifest: Mapping[str, Any], out: Path) -> list[str]:
    """Write the SCORM 1.2 zip of the built ``folder`` to ``out``; returns the files it packed.

    Besides the folder's files it holds the page with the adapter, the
    adapter, and the conformance report of what it holds.
    """
    files = sorted({*package_files(folder), ADAPTER, CONFORMANCE})
    made = {
        START: scorm_page((folder / START).read_text(), manifest),
        ADAPTER: (HERE / "assets" / ADAPTER).read_text(),
        CONFORMANCE: conformance_report(str(manifest["title"]), files),
    }
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("imsmanifest.xml", scorm_manifest(str(manifest["title"]), files))
        for name in files:
            if name in made:
                z.writestr(name, made[name])
            else:
                stored = name.endswith(STORED)
                z.write(folder / name, name, zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED)
    return files
