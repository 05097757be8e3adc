"""The page's Explore figures: the numbers they print are attnmath's, for the lecturer's data, at any setting.

Each figure is driven through its controls (sliders, typed values, radios,
buttons, the keyboard, a drag) and every printed number is read back and
compared with attnmath to its printed precision. The JavaScript port behind the
live figures is compared with attnmath directly, to 1e-9.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest

from attnmath import (
    VARIANTS,
    classify_regime,
    content_profiles,
    effective_k,
    entropy,
    kernel_profile,
    kernel_weights,
    loo_cv_error,
    nadaraya_watson,
    noisy_sine,
    stylized_heads,
    temperature_sweep,
    weight_profiles,
)
from lecture.clips import find_clip
from lecture.sections.s6_kv_cache import decode_weights

ATOL = 1e-9


def assert_shown(text: str | None, value: float, digits: int) -> None:
    """``text`` prints ``value`` with exactly ``digits`` decimals, correctly rounded."""
    assert text is not None and re.fullmatch(rf"-?\d+\.\d{{{digits}}}", text), text
    assert abs(float(text) - value) <= 0.5 * 10.0**-digits + 1e-9, (text, value)


def readout(page, fig: str, name: str) -> str | None:
    return page.locator(f"#explore-{fig} [data-readout='{name}']").text_content()


def last_number(text: str | None) -> str:
    assert text is not None
    return text.split()[-1]


# --- the port, function by function --------------------------------------------------------------


def js(page, name: str, *args):
    return page.evaluate("([f, args]) => AttnMath[f](...args)", [name, list(args)])


def test_port_kernel_regression_equals_attnmath(opened):
    page, rng = opened.page, np.random.default_rng(7)
    for n in (2, 12, 60):
        x, y = np.sort(rng.uniform(0, 1, n)), rng.normal(size=n)
        grid = np.linspace(0, 1, 37)
        for sigma in (0.002, 0.031, 0.4, 5.0):
            q = float(rng.uniform())
            np.testing.assert_allclose(
                js(page, "kernelWeights", q, x.tolist(), sigma),
                kernel_weights([q], x, sigma)[0],
                rtol=0,
                atol=ATOL,
            )
            np.testing.assert_allclose(
                js(page, "nadarayaWatson", grid.tolist(), x.tolist(), y.tolist(), sigma),
                nadaraya_watson(grid, x, y, sigma),
                rtol=0,
                atol=ATOL,
            )
            np.testing.assert_allclose(
                js(page, "kernelProfile", grid.tolist(), q, sigma),
                kernel_profile(grid, q, sigma),
                rtol=0,
                atol=ATOL,
            )
            assert js(page, "looError", x.tolist(), y.tolist(), sigma) == pytest.approx(
                loo_cv_error(x, y, [sigma])[0], rel=0, abs=ATOL
            )


def test_port_softmax_statistics_equal_attnmath(opened):
    page, rng = opened.page, np.random.default_rng(3)
    for scale in (1.0, 50.0, 1e6):
        s = rng.normal(scale=scale, size=int(rng.integers(2, 17)))
        for tau in (0.01, 0.2, 1.0, 7.5, 100.0):
            got, want = js(page, "temperatureSweep", s.tolist(), tau), temperature_sweep(s, [tau])
            np.testing.assert_allclose(got["weights"], want.weights[0], rtol=0, atol=ATOL)
            for key, field in (
                ("entropy", "entropy"),
                ("effectiveK", "effective_k"),
                ("expectedScore", "expected_score"),
                ("objective", "objective"),
            ):
                assert got[key] == pytest.approx(float(getattr(want, field)[0]), rel=1e-12, abs=ATOL), key
            w = want.weights[0]
            assert js(page, "entropy", w.tolist()) == pytest.approx(float(entropy(w)), rel=0, abs=ATOL)
    for k in np.linspace(1.0, 12.0, 45):
        assert js(page, "classifyRegime", float(k), 12) == classify_regime(float(k), 12)


def test_port_content_profiles_equal_attnmath(opened, lecture):
    data = find_clip("KernelVariants").figure_data()
    for tau in (0.05, 0.13, 1.0, 5.0):
        got = js(opened.page, "contentProfiles", data["similarity"], tau)
        _, want = content_profiles(tau)
        for name in VARIANTS:
            np.testing.assert_allclose(got[data["kinds"][name]], want[name], rtol=0, atol=ATOL)


# --- section 2 ---------------------------------------------------------------------------------


def check_s2(page, x, y, sigma: float, q: float) -> None:
    w = kernel_weights([q], x, sigma)[0]
    k = float(effective_k(w))
    assert_shown(readout(page, "s2", "sigma"), sigma, 3)
    assert_shown(readout(page, "s2", "query"), q, 3)
    assert_shown(readout(page, "s2", "estimate"), float(nadaraya_watson([q], x, y, sigma)[0]), 3)
    assert_shown(readout(page, "s2", "entropy"), float(entropy(w)), 3)
    assert_shown(readout(page, "s2", "keff"), k, 2)
    assert_shown(readout(page, "s2", "loo"), float(loo_cv_error(x, y, [sigma])[0]), 4)
    assert_shown(last_number(readout(page, "s2", "max-weight")), float(w.max()), 3)
    assert readout(page, "s2", "regime").startswith(classify_regime(k, x.size) + ":")


def test_s2_shows_attnmath_for_any_bandwidth_and_query(opened, lecture):
    page = opened.page
    x, y = noisy_sine(12, noise=0.25, seed=3)  # the lecture file's n_points and seed
    params = lecture["config"].parameters_for("KernelRegressionCollapse")
    sigma_best = find_clip("KernelRegressionCollapse").figure_data(params)["sigma_best"]
    check_s2(page, x, y, sigma_best, 0.6)  # as the page opens: the lecture's query, the best bandwidth
    assert_shown(last_number(readout(page, "s2", "sigma-best")), sigma_best, 3)
    for sigma, q in ((0.002, 0.05), (0.3, 0.6), (5.0, 0.999)):
        page.fill("#explore-s2 [data-control='sigma']", str(sigma))
        page.fill("#explore-s2 [data-control='query-value']", str(q))
        check_s2(page, x, y, sigma, q)
    for log_sigma, q in (("-1.7", "0.25"), ("0.5", "0.8125")):
        page.fill("#explore-s2 [data-control='log-sigma']", log_sigma)
        page.fill("#explore-s2 [data-control='query']", q)
        check_s2(page, x, y, 10 ** float(log_sigma), float(q))


def test_s2_keyboard_and_drag(opened):
    page = opened.page
    x, y = noisy_sine(12, noise=0.25, seed=3)
    slider = page.locator("#explore-s2 [data-control='log-sigma']")
    slider.fill("-1.0")
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    moved = float(slider.input_value())
    assert moved > -1.0
    page.locator("#explore-s2 svg").scroll_into_view_if_needed()
    svg = page.locator("#explore-s2 svg").bounding_box()
    to_screen = lambda vx, vy: (svg["x"] + svg["width"] * vx / 960, svg["y"] + svg["height"] * vy / 400)  # noqa: E731
    page.mouse.move(*to_screen(70 + 530 * 0.2, 150))
    page.mouse.down()
    page.mouse.move(*to_screen(70 + 530 * 0.7, 160), steps=5)
    page.mouse.up()
    q = float(page.locator("#explore-s2 [data-control='query']").input_value())
    assert q == pytest.approx(0.7, abs=0.01)
    check_s2(page, x, y, 10**moved, q)


# --- section 3 ---------------------------------------------------------------------------------


def check_s3(page, scores: list[float], tau: float) -> None:
    sweep = temperature_sweep(scores, [tau])
    bars = page.locator("#explore-s3 text[data-weight]").all_text_contents()
    assert len(bars) == len(scores)
    for text, w in zip(bars, sweep.weights[0], strict=True):
        assert_shown(text, float(w), 3)
    assert_shown(readout(page, "s3", "tau"), tau, 3)
    assert_shown(readout(page, "s3", "entropy"), float(sweep.entropy[0]), 3)
    assert_shown(readout(page, "s3", "keff"), float(sweep.effective_k[0]), 2)
    assert_shown(readout(page, "s3", "expected"), float(sweep.expected_score[0]), 3)
    assert_shown(readout(page, "s3", "objective"), float(sweep.objective[0]), 3)
    regime = classify_regime(float(sweep.effective_k[0]), len(scores))
    assert readout(page, "s3", "regime").startswith(regime + ":")


def test_s3_shows_attnmath_for_any_temperature_and_scores(opened):
    page = opened.page
    scores = [0.5, 2.0, 1.0, 3.0, 0.2, -1.0]  # the lecture file's
    check_s3(page, scores, 1.0)
    for tau in ("0.01", "0.3", "100"):
        page.fill("#explore-s3 [data-control='tau']", tau)
        check_s3(page, scores, float(tau))
    page.fill("#explore-s3 [data-score='1']", "4.5")
    page.fill("#explore-s3 [data-score='5']", "-20")
    scores[1], scores[5] = 4.5, -20.0
    for log_tau in ("-1.5", "0.25", "2"):
        page.fill("#explore-s3 [data-control='log-tau']", log_tau)
        check_s3(page, scores, 10 ** float(log_tau))
    page.fill("#explore-s3 [data-score='0']", "")  # an unfinished entry changes nothing
    assert page.get_attribute("#explore-s3 [data-score='0']", "aria-invalid") == "true"
    check_s3(page, scores, 100.0)
    page.click("#explore-s3 [data-control='reset']")
    check_s3(page, [0.5, 2.0, 1.0, 3.0, 0.2, -1.0], 100.0)


# --- section 4 ---------------------------------------------------------------------------------


def test_s4_shows_attnmath_for_any_temperature(opened):
    page = opened.page
    position = weight_profiles(1.0).position
    for j, name in enumerate(VARIANTS):
        assert_shown(
            last_number(readout(page, "s4", f"position-keff-{j}")), float(effective_k(position[name])), 2
        )
        assert_shown(last_number(readout(page, "s4", f"position-peak-{j}")), float(position[name].max()), 3)
    for tau, how in (("0.05", "tau"), ("0.3", "tau"), ("0.2", "log-tau"), ("5", "tau")):
        page.fill(f"#explore-s4 [data-control='{how}']", tau)
        value = float(tau) if how == "tau" else 10 ** float(tau)
        _, content = content_profiles(value)
        assert_shown(readout(page, "s4", "tau"), value, 3)
        for j, name in enumerate(VARIANTS):
            w = content[name]
            assert_shown(last_number(readout(page, "s4", f"content-keff-{j}")), float(effective_k(w)), 2)
            assert_shown(last_number(readout(page, "s4", f"content-peak-{j}")), float(w.max()), 3)


# --- section 5 ---------------------------------------------------------------------------------


def test_s5_shows_each_heads_weights_for_each_query_word(opened, lecture):
    page = opened.page
    sentence = lecture["config"].parameters["HeadRouting"].sentence
    weights = stylized_heads(sentence, causal=True).weights
    words = list(sentence.texts)
    assert page.locator("#explore-s5 [data-query]").count() == len(words)
    for h, i in ((0, 4), (1, 1), (2, 2), (3, 4), (3, 0)):
        page.check(f"#explore-s5 [data-head='{h}']")
        page.check(f"#explore-s5 [data-query='{i}']")
        shown = page.locator("#explore-s5 text[data-weight]").all_text_contents()
        for j, text in enumerate(shown):
            if j > i:
                assert text == "masked"
            else:
                assert_shown(text, float(weights[h, i, j]), 3)
        best = int(np.argmax(weights[h, i]))
        summary = readout(page, "s5", "summary")
        assert summary.startswith(f'H{h + 1} from "{words[i]}": largest weight {weights[h, i, best]:.3f}')
    page.focus("#explore-s5 [data-head='3']")
    page.keyboard.press("ArrowLeft")  # radios: the arrow keys move the choice
    assert page.is_checked("#explore-s5 [data-head='2']")


# --- section 6 ---------------------------------------------------------------------------------


def check_s6(page, steps, words, t: int) -> None:
    assert readout(page, "s6", "step").startswith(f"t = {t}: ")
    for h in (0, 1):
        shown = page.locator(f"#explore-s6 text[data-head='{h}'][data-weight]").all_text_contents()
        for j, w in enumerate(steps[t][h]):
            assert_shown(shown[j], float(w), 3)
    tokens = page.locator("#explore-s6 svg > g[visibility='visible'] > text").all_text_contents()
    assert words[t] in tokens


def test_s6_steps_through_decoding(opened, lecture):
    page = opened.page
    words = lecture["config"].parameters["KVCacheGrowth"].words
    steps = decode_weights(words, 6.0, 6)
    check_s6(page, steps, words, 1)  # the end of the 2-token prompt
    page.click("#explore-s6 [data-control='next']")
    check_s6(page, steps, words, 2)
    page.fill("#explore-s6 [data-control='step']", "5")
    check_s6(page, steps, words, 5)
    assert page.get_attribute("#explore-s6 [data-control='next']", "aria-disabled") == "true"
    page.focus("#explore-s6 [data-control='next']")
    page.keyboard.press("Enter")  # already at the end: nothing moves, and the focus stays
    check_s6(page, steps, words, 5)
    assert page.evaluate("document.activeElement.dataset.control") == "next"
    page.focus("#explore-s6 [data-control='step']")
    page.keyboard.press("ArrowLeft")
    check_s6(page, steps, words, 4)


def test_s6_data_are_the_scenes_own_decoding():
    from lecture.sections.s6_kv_cache import KVCacheParameters
    from scenes.s6_kv_cache import KVCacheGrowth

    p = KVCacheParameters()
    stub = SimpleNamespace(params=p)  # what the scene is given in setup
    KVCacheGrowth.decode(stub)  # the scene's own method, on the scene's own parameters
    ours = decode_weights(p.words, p.strength, p.seed)
    for (u, p), (u2, p2) in zip(stub.weights, ours, strict=True):
        np.testing.assert_array_equal(u, u2)
        np.testing.assert_array_equal(p, p2)


def test_s2_data_are_the_scenes_own_samples():
    from lecture.sections.s2_kernel_regression import KernelRegressionParameters
    from scenes.s2_kernel_regression import KernelRegressionCollapse as S

    params = KernelRegressionParameters()
    stub = SimpleNamespace(params=params)  # what the scene is given in setup
    S.compute(stub)
    data = find_clip("KernelRegressionCollapse").figure_data()
    assert data["x"] == stub.x.tolist() and data["y"] == stub.y.tolist()
    assert data["sigma_best"] == float(stub.sigmas[stub.best]) and data["query"] == params.query
