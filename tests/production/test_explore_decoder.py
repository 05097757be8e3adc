"""Section 5's decoder view: SmolLM2-135M-Instruct's 270 heads, every number read back against attnmath.

The page is the synthetic lecture of ``conftest.py`` (its lecture file sets
section 5's random tokens: 12, seed 3), driven by the mouse and the keyboard in Chromium. The expected
scores are computed here from :func:`attnmath.decoder.forward`'s attention by a
naive loop over heads and positions, not by :func:`attnmath.decoder_probes.head_scores`.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest

from attnmath.decoder import forward, token_texts
from attnmath.decoder_probes import repeated_random_tokens
from lecture.clips import find_clip
from tests.production.browser import assert_no_axe_violations
from tests.production.test_explore import assert_shown
from tests.production.test_explore_model import view

# tests that share this module's fixtures run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("explore-decoder")

FIG = "#explore-s5"
MODEL = "SmolLM2-135M-Instruct"
GRID = f"{FIG} [data-pane='decoder']"


def naive_scores(a: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """Each head's induction, previous-token and first-token scores, weight by weight (a: L, H, 2n, 2n)."""
    layers, heads = a.shape[:2]
    scores = {name: np.zeros((layers, heads)) for name in ("induction", "previous", "sink")}
    for la in range(layers):
        for h in range(heads):
            w = a[la, h]
            scores["induction"][la, h] = sum(w[t, t - n + 1] for t in range(n, 2 * n)) / n
            scores["previous"][la, h] = sum(w[t, t - 1] for t in range(1, 2 * n)) / (2 * n - 1)
            scores["sink"][la, h] = sum(w[t, 0] for t in range(1, 2 * n)) / (2 * n - 1)
    return scores


@pytest.fixture(scope="module")
def expected(lecture) -> SimpleNamespace:
    """The lecture's repeated tokens through the decoder, and every head's scores by a naive loop."""
    p = lecture["config"].parameters["HeadRouting"]
    n = p.induction_tokens
    ids = repeated_random_tokens(n, p.induction_seed)
    a = forward(ids).attention
    scores = naive_scores(a, n)
    best = {k: np.unravel_index(np.argmax(scores[k]), scores[k].shape) for k in ("induction", "previous")}
    return SimpleNamespace(
        n=n,
        tokens=token_texts(ids),
        attention=a,
        best={k: (int(v[0]), int(v[1])) for k, v in best.items()},
        **scores,
    )


@pytest.fixture
def decoder_view(opened):
    """The figure switched to its decoder view, and back to the stylised one afterwards."""
    with view(opened.page, "decoder") as page:
        yield page


def check_head(page, expected, layer: int, head: int) -> None:
    """The page shows head (layer, head), 0-based: its label, its pressed map and its three scores."""
    label = f"measured: {MODEL}, layer {layer + 1}, head {head + 1}"
    assert page.locator(f"{GRID} [data-readout='decoder-label']").text_content() == label
    pressed = page.locator(f"{GRID} button[data-decoder-map][aria-pressed='true']")
    assert pressed.count() == 1 and pressed.get_attribute("data-decoder-map") == f"{layer}-{head}"
    assert f"layer {layer + 1}, head {head + 1};" in page.get_attribute(
        f"{GRID} canvas.decoder-large", "aria-label"
    )
    summary = page.locator(f"{GRID} [data-readout='decoder-summary']")
    assert summary.get_attribute("aria-live") == "polite"
    text = summary.text_content()
    shown = re.fullmatch(
        rf"measured, layer {layer + 1}, head {head + 1}: induction score (\d\.\d{{3}}), previous-token score "
        r"(\d\.\d{3}), first-token \(sink\) score (\d\.\d{3})(.*)",
        text,
    )
    assert shown, text
    for k, name in enumerate(("induction", "previous", "sink"), start=1):
        assert_shown(shown.group(k), expected.__dict__[name][layer, head], 3)
    marks = [
        f"the best {kind} head of 270"
        for kind, key in (("induction", "induction"), ("previous-token", "previous"))
        if expected.best[key] == (layer, head)
    ]
    assert shown.group(4) == (f"; {' and '.join(marks)}." if marks else "."), text


def drawn(page, selector: str, size: int) -> np.ndarray:
    """(T, T) the weights a head's map canvas draws: each cell's opacity at its centre (future keys 0)."""
    alpha = page.locator(selector).evaluate(
        """(c, n) => { const t = c.width / n, ctx = c.getContext("2d"), out = [];
          for (let i = 0; i < n; i++) for (let j = 0; j < n; j++)
            out.push(ctx.getImageData(Math.floor((j + 0.5) * t), Math.floor((i + 0.5) * t), 1, 1).data[3]);
          return out; }""",
        size,
    )
    return np.array(alpha).reshape(size, size) / 255


def test_the_grid_marks_the_best_heads_and_opens_on_the_induction_head(decoder_view, expected):
    page = decoder_view
    buttons = page.locator(f"{GRID} button[data-decoder-map]")
    assert buttons.count() == 270
    labels = buttons.evaluate_all("els => els.map((b) => b.getAttribute('aria-label'))")
    names = {
        expected.best["induction"]: "best induction head",
        expected.best["previous"]: "best previous-token head",
    }
    assert labels == [
        f"layer {la + 1}, head {h + 1}" + (f" ({names[la, h]})" if (la, h) in names else "")
        for la in range(30)
        for h in range(9)
    ]
    for kind, letter in (("induction", "I"), ("previous", "P")):
        marked = page.locator(f"{GRID} button.{kind}-mark")
        la, h = expected.best[kind]
        assert marked.count() == 1 and marked.get_attribute("data-decoder-map") == f"{la}-{h}"
        assert (
            marked.locator(".map-mark").text_content() == letter and marked.locator(".map-mark").is_visible()
        )
        assert marked.evaluate("b => getComputedStyle(b).outlineStyle") in ("solid", "dashed")
    check_head(page, expected, *expected.best["induction"])
    for selector in (f"{GRID} canvas.decoder-large", f"{GRID} button.induction-mark canvas"):
        # the weights to 2 decimals, then an 8-bit opacity
        want = expected.attention[expected.best["induction"]]
        np.testing.assert_allclose(drawn(page, selector, 2 * expected.n), want, atol=0.005 + 1 / 255)
    tokens = page.locator(f"{GRID} .token-list code").all_text_contents()
    assert tokens == list(expected.tokens[: expected.n]) and expected.n == 12  # the lecture file's
    assert "reads 12 random tokens twice (24 tokens)" in " ".join(page.locator(GRID).text_content().split())
    page.click(f"{GRID} [data-decoder-map='2-3']")
    check_head(page, expected, 2, 3)


def test_the_table_prints_every_heads_scores(decoder_view, expected):
    page = decoder_view
    header = page.locator(f"{GRID} table thead th[scope='col']").all_text_contents()
    assert header == ["head", "induction", "previous token", "first token (sink)", "mark"]
    rows = page.locator(f"{GRID} table tbody tr").evaluate_all(
        "rows => rows.map((r) => [...r.children].map((c) => c.textContent))"
    )
    assert len(rows) == 270
    names = {
        expected.best["induction"]: "best induction head",
        expected.best["previous"]: "best previous-token head",
    }
    for k, (head, *numbers, mark) in enumerate(rows):
        la, h = divmod(k, 9)
        assert head == f"layer {la + 1}, head {h + 1}"
        for text, name in zip(numbers, ("induction", "previous", "sink"), strict=True):
            assert_shown(text, expected.__dict__[name][la, h], 3)
        assert mark == names.get((la, h), "")
    caption = re.sub(r"\s+", " ", page.locator(f"{GRID} table caption").text_content())
    median = re.search(r"median head's induction score is (\d\.\d{3});", caption).group(1)
    assert_shown(median, float(np.median(expected.induction)), 3)
    assert f" {int((expected.sink > 0.5).sum())} of 270 heads put over half" in caption


def test_the_keyboard_moves_through_the_grid_and_chooses(decoder_view, opened, expected):
    page = decoder_view
    stops = page.locator(f"{GRID} button[data-decoder-map][tabindex='0']")
    assert stops.count() == 1  # one tab stop for the grid
    stops.focus()
    la, h = expected.best["induction"]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft" if h else "ArrowRight")
    to = (max(la - 1, 0), h - 1 if h else h + 1)
    assert page.evaluate("document.activeElement.dataset.decoderMap") == f"{to[0]}-{to[1]}"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")
    check_head(page, expected, *to)
    page.keyboard.press("End")
    page.keyboard.press(" ")
    check_head(page, expected, to[0], 8)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowUp")  # at layer 1 after enough presses; clamps at the edge
    for _ in range(30):
        page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    check_head(page, expected, 0, 0)
    page.keyboard.press("Tab")  # leaves the grid for the first shortcut
    assert page.evaluate("document.activeElement.dataset.decoderShow") == "-".join(
        map(str, expected.best["induction"])
    )
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the best previous-token head
    check_head(page, expected, *expected.best["previous"])
    assert page.evaluate("document.activeElement.dataset.decoderMap") == "-".join(
        map(str, expected.best["previous"])
    )
    assert opened.console == [] and not opened.blocked


def test_axe_finds_nothing_with_the_decoder_view_open(decoder_view):
    assert_no_axe_violations(decoder_view, "index.html with section 5's decoder view open")


def test_the_embedded_maps_are_attnmaths_to_the_printed_decimals(lecture, expected):
    params = lecture["config"].parameters["HeadRouting"]
    d = find_clip("HeadRouting").figure_data(params)["decoder"]
    rows, keys = np.tril_indices(2 * expected.n)
    want = np.rint(expected.attention[:, :, rows, keys] * 100)
    np.testing.assert_array_equal(np.array(d["maps"]), want)
    assert d["tokens"] == list(expected.tokens) and (d["layers"], d["heads"], d["n"]) == (30, 9, expected.n)
    assert [d["best_induction"], d["best_previous"]] == [
        list(expected.best[k]) for k in ("induction", "previous")
    ]
