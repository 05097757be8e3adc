"""Section 6's decoder view: SmolLM2-135M-Instruct's cache and its loss under three caches, read back naively.

The page is the synthetic lecture of ``conftest.py``, driven by the keyboard in Chromium. The
expected losses are :mod:`tests.naive_decoder`'s: log-softmax of the decoder's logits under
masks built by a loop, and trailing means by a loop over the runs; the bytes a token are
written-out products, and the sink heads a loop over the attention.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator
from types import SimpleNamespace

import numpy as np
import pytest

from tests import naive_decoder
from tests.production.browser import assert_no_axe_violations
from tests.production.test_explore import assert_shown

# tests that share this module's fixtures run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("explore-decoder")

FIG = "#explore-s6"
PANE = f"{FIG} [data-pane='decoder']"
WIDTH = 16  # the page's trailing mean: the last 16 predictions
NUMBER = r"(\d+\.\d{3})"


@pytest.fixture(scope="module")
def expected() -> SimpleNamespace:
    tokens, start, rows = naive_decoder.token_nlls()
    count, heads, share = naive_decoder.sink_heads()
    return SimpleNamespace(
        tokens=tokens,
        start=start,
        rows=rows,
        trailing=[naive_decoder.trailing(row, WIDTH) for row in rows],
        means=[float(row[start:].mean()) for row in rows],
        sink_heads=count,
        heads=heads,
        share=share,
    )


@pytest.fixture
def eviction(opened) -> Iterator:
    """Section 6's figure switched to its decoder view, and back to the stylised one afterwards."""
    page = opened.page
    page.check(f"{FIG} [data-view='decoder']")
    shown = page.locator(f"{FIG} [data-pane]").evaluate_all(
        "els => els.filter((p) => !p.hidden).map((p) => p.dataset.pane)"
    )
    assert shown == ["decoder"] and page.is_visible(f"{PANE} svg.eviction-plot path[data-curve='window']")
    if os.environ.get("SHOT_DIR"):  # a picture to look at by hand
        page.locator(FIG).screenshot(path=f"{os.environ['SHOT_DIR']}/s6-decoder.png")
    yield page
    page.check(f"{FIG} [data-view='stylised']")
    assert page.is_visible(f"{FIG} [data-pane='stylised'] svg")


def text(page, selector: str) -> str:
    return re.sub(r"\s+", " ", page.locator(selector).text_content() or "").strip()


def check_readout(page, expected, i: int) -> None:
    """The readout names prediction i (after token i + 1) and prints its three losses and trailing means."""
    shown = text(page, f"{PANE} [data-readout='position']")
    found = re.fullmatch(
        rf'after token {i + 1}, predicting token {i + 2}, ".*": loss {NUMBER}, {NUMBER}, {NUMBER} nats '
        r"\(full cache, window, sinks \+ window\)"
        rf"(?:; mean of the last {WIDTH}: {NUMBER}, {NUMBER}, {NUMBER})?\.",
        shown,
    )
    assert found, shown
    for k in range(3):
        assert_shown(found.group(k + 1), expected.rows[k][i], 3)
        if i >= WIDTH - 1:
            assert_shown(found.group(k + 4), expected.trailing[k][i - WIDTH + 1], 3)
        else:
            assert found.group(k + 4) is None
    assert page.get_attribute(f"{PANE} [data-control='position']", "aria-valuetext").startswith(
        f"after token {i + 1}, predicting "
    )


def test_the_view_states_the_cache_bytes_and_the_sink_heads(eviction, expected):
    intro = text(eviction, f"{PANE} > p:first-child")
    assert f"keeps {30 * 2 * 3 * 64 * 2:,} bytes a token" in intro  # layers, k and v, KV heads, width, fp16
    assert f"it would keep {30 * 2 * 9 * 64 * 2:,} bytes." in intro
    assert f"{expected.sink_heads} of its {expected.heads} heads average over half" in intro
    assert f"the means skip the first {expected.start} predictions" in text(eviction, "#s6-decoder-help")
    assert f"a passage of {expected.tokens} tokens" in text(eviction, "#s6-decoder-help")


def test_the_tables_print_every_loss_and_the_three_means(eviction, expected):
    rows = eviction.locator(f"{PANE} table[data-table='means'] tbody tr")
    assert rows.count() == 3
    for k in range(3):
        cells = rows.nth(k).locator("td").all_text_contents()
        assert_shown(cells[0], expected.means[k], 3)
        assert cells[1] == f"{math.exp(expected.means[k]):.1f}"
    assert f"from token {expected.start + 1} on" in text(
        eviction, f"{PANE} table[data-table='means'] caption"
    )
    cells = eviction.locator(f"{PANE} table[data-table='losses'] tbody tr").evaluate_all(
        "rows => rows.map((r) => [...r.children].map((c) => c.textContent))"
    )
    assert len(cells) == expected.tokens - 1
    for i, row in enumerate(cells):
        assert row[0] == str(i + 1) and row[1].startswith('"') and row[1].endswith('"')
        for k in range(3):
            assert_shown(row[k + 2], expected.rows[k][i], 3)


def test_the_sink_grid_and_its_table_show_each_heads_share(eviction, expected):
    cells = eviction.locator(f"{PANE} svg.sink-grid rect.sink-cell").evaluate_all(
        "els => els.map((r) => "
        "[r.dataset.head, Number(r.getAttribute('fill-opacity')), r.classList.contains('sink')])"
    )
    assert len(cells) == 270
    for head, opacity, outlined in cells:
        layer, h = map(int, head.split("-"))
        assert opacity == pytest.approx(expected.share[layer, h], abs=5e-4)
        assert outlined == (expected.share[layer, h] > 0.5)
    rows = eviction.locator(f"{PANE} table[data-table='sinks'] tbody tr").evaluate_all(
        "rows => rows.map((r) => [...r.children].map((c) => c.textContent))"
    )
    assert len(rows) == 30
    for layer, row in enumerate(rows):
        assert row[0] == str(layer + 1) and row[-1] == str(int((expected.share[layer] > 0.5).sum()))
        for h in range(9):
            assert_shown(row[h + 1], expected.share[layer, h], 2)


def test_the_curves_draw_the_trailing_means(eviction, expected):
    """Each curve's points lie on one straight map from loss to height, up for more loss."""
    heights, values = [], []
    for k, cache in enumerate(("full", "window", "sinks_window")):
        d = eviction.get_attribute(f"{PANE} svg.eviction-plot path[data-curve='{cache}']", "d")
        points = np.array(re.findall(r"[ML](-?[\d.]+),(-?[\d.]+)", d), dtype=float)
        assert len(points) == expected.tokens - WIDTH  # one per run of 16 predictions
        assert (np.diff(points[:, 0]) > 0).all()
        heights.extend(points[:, 1])
        values.extend(expected.trailing[k])
    slope, offset = np.polyfit(values, heights, 1)
    assert slope < 0 and np.abs(np.polyval([slope, offset], values) - heights).max() < 0.02


def test_the_keyboard_steps_through_the_predictions(eviction, opened, expected):
    check_readout(eviction, expected, expected.start)
    slider = eviction.locator(f"{PANE} [data-control='position']")
    slider.focus()
    eviction.keyboard.press("ArrowRight")
    check_readout(eviction, expected, expected.start + 1)
    eviction.keyboard.press("Home")
    check_readout(eviction, expected, 0)
    assert eviction.get_attribute(f"{PANE} [data-control='earlier']", "aria-disabled") == "true"
    eviction.keyboard.press("End")
    check_readout(eviction, expected, expected.tokens - 2)
    eviction.click(f"{PANE} [data-control='earlier']")
    check_readout(eviction, expected, expected.tokens - 3)
    cursor = float(eviction.get_attribute(f"{PANE} svg.eviction-plot line.cursor-line", "x1"))
    dot = float(eviction.locator(f"{PANE} circle.value-dot").get_attribute("cx"))
    assert cursor == pytest.approx(dot)
    assert opened.console == [] and not opened.blocked


def test_axe_finds_nothing_with_the_eviction_view_open(eviction):
    assert_no_axe_violations(eviction, "index.html with section 6's decoder view open")
