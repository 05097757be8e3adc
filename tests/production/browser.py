"""Debian's headless Chromium driven by Playwright (no browser download): open a page, record its requests.

:func:`assert_no_axe_violations` runs axe-core on an open page, the copy of axe that the
``axe-playwright-python`` package ships (no network), with WCAG 2.x's A and AA rules.
"""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium tries Google's hosts at start-up (closed network here).
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]
NETWORK = re.compile(r"^(https?|wss?|ftp)://")
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
"""axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA."""


@dataclass
class OpenPage:
    """A loaded page and what happened while it was open."""

    page: object  # playwright.sync_api.Page
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)


@contextmanager
def chromium() -> Iterator[object]:
    """A headless Chromium browser (Debian's), or a skip saying how to get one."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' (playwright)")
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        pytest.fail("chromium is missing: run `make setup` (the Makefile installs Debian's chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def in_own_thread(fn: Callable[[], None]) -> None:
    """Run ``fn`` in a new thread and re-raise what it raised.

    Playwright's sync API refuses to run in a thread where an asyncio loop is
    running, and a test that runs after others (dask's client, for one) may
    find such a loop left in the main thread; a new thread has none.
    """
    errors: list[BaseException] = []

    def run() -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test's thread
            errors.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if errors:
        raise errors[0]


def open_page(browser, url: str, *, width: int = 1280) -> OpenPage:
    """Open ``url``: every request recorded, any network request aborted, console errors kept."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    opened = OpenPage(page)
    page.on("request", lambda r: opened.requests.append(r.url))
    page.on("console", lambda m: opened.console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: opened.console.append(f"uncaught: {e}"))

    def block(route) -> None:
        opened.blocked.append(route.request.url)
        route.abort()

    page.route(NETWORK, block)
    page.goto(url)
    return opened


def axe_violations(page) -> list[dict]:
    """axe-core's violations of :data:`AXE_TAGS` on ``page`` as it is now."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.fail("axe-playwright-python is missing: run `make setup` (pip install -e '.[test]')")
    options = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]}
    return list(Axe().run(page, options=options).response["violations"])


def assert_no_axe_violations(page, where: str) -> None:
    """Fail with each violation's rule, impact and the elements it found, when axe finds any."""
    violations = axe_violations(page)
    report = [
        f"{v['id']} ({v['impact']}): {v['help']}; "
        + ", ".join(" ".join(n["target"]) for n in v["nodes"][:10])
        for v in violations
    ]
    assert not violations, f"{where}: axe found {len(violations)} violations:\n" + "\n".join(report)
