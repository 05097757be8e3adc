"""The entropy-regularised retrieval objective, its closed-form optimum and the solver."""

import math

import numpy as np
import pytest
import scipy.special
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnmath import (
    classify_regime,
    entropy,
    optimal_objective,
    retrieval_objective,
    softmax,
    solve_retrieval,
    temperature_sweep,
)

pytestmark = pytest.mark.filterwarnings("error")

S = np.array([1.2, 0.4, 2.6, 1.9, 0.8, 3.0, 1.5, 0.3, 2.2, 1.0, 2.8, 0.6])
PRIOR = np.exp(-0.25 * np.arange(12))


def naive_objective(a, s, tau, prior=None):
    total = sum(ai * si for ai, si in zip(a, s, strict=True))
    if prior is None:
        return total - tau * sum(ai * math.log(ai) for ai in a if ai > 0)
    r = [p / sum(prior) for p in prior]
    kl = sum(ai * math.log(ai / ri) for ai, ri in zip(a, r, strict=True) if ai > 0)
    return total - tau * kl


def test_objective_matches_naive_loop():
    rng = np.random.default_rng(2)
    a = rng.dirichlet(np.ones(12))
    assert math.isclose(retrieval_objective(a, S, 0.7), naive_objective(a, S, 0.7), rel_tol=1e-12)
    got = retrieval_objective(a, S, 0.7, prior=PRIOR)
    assert math.isclose(got, naive_objective(a, S, 0.7, PRIOR), rel_tol=1e-12)


def test_objective_ignores_masked_items_with_zero_weight():
    s = np.array([1.0, -np.inf, 2.0])
    assert retrieval_objective([0.5, 0.0, 0.5], s, 1.0) == pytest.approx(1.5 + math.log(2))


@pytest.mark.parametrize("tau", [0.05, 0.5, 1.0, 4.0, 30.0])
def test_optimal_objective_is_tau_logsumexp(tau):
    expected = tau * math.log(sum(math.exp(x / tau) for x in S))
    assert math.isclose(optimal_objective(S, tau), expected, rel_tol=1e-12)
    assert math.isclose(optimal_objective(S, tau), tau * scipy.special.logsumexp(S / tau))


def test_optimal_objective_with_prior_matches_closed_form():
    r = PRIOR / PRIOR.sum()
    expected = 0.8 * math.log(sum(ri * math.exp(x / 0.8) for x, ri in zip(S, r, strict=True)))
    assert math.isclose(optimal_objective(S, 0.8, prior=PRIOR), expected, rel_tol=1e-12)


def test_optimal_objective_limits():
    assert optimal_objective(S, 0.0) == S.max()
    assert math.isclose(optimal_objective(S, 1e-9), S.max(), rel_tol=1e-12)
    assert optimal_objective(S, np.inf) == np.inf
    r = PRIOR / PRIOR.sum()
    assert math.isclose(optimal_objective(S, np.inf, prior=PRIOR), float(r @ S), rel_tol=1e-12)
    assert math.isclose(optimal_objective(S, 1e9, prior=PRIOR), float(r @ S), rel_tol=1e-6)


def test_optimal_objective_is_stable_at_extremes():
    s = np.array([1e300, -1e300, 0.0])
    for tau in (0.0, 1e-12, 1.0, 1e12):
        assert optimal_objective(s, tau) == pytest.approx(1e300)


@pytest.mark.parametrize("tau", [0.01, 0.3, 1.0, 10.0])
def test_softmax_attains_the_closed_form_optimum(tau):
    for prior in (None, PRIOR):
        got = retrieval_objective(softmax(S, tau, prior=prior), S, tau, prior=prior)
        assert math.isclose(got, optimal_objective(S, tau, prior=prior), rel_tol=1e-12)


@settings(max_examples=100, deadline=None)
@given(
    arrays(np.float64, st.integers(2, 10), elements=st.floats(-5, 5)),
    st.floats(0.01, 20),
    st.integers(0, 2**32 - 1),
)
def test_optimum_beats_random_points_of_the_simplex(s, tau, seed):
    best = optimal_objective(s, tau)
    points = np.random.default_rng(seed).dirichlet(np.ones(s.size), size=50)
    assert np.all(retrieval_objective(points, s, tau) <= best + 1e-9 * (1 + abs(best)))


@pytest.mark.parametrize("tau", [0.005, 0.05, 0.3, 1.0, 10.0, 100.0])
def test_solver_lands_on_softmax(tau):
    np.testing.assert_allclose(solve_retrieval(S, tau), softmax(S, tau), atol=1e-9)
    np.testing.assert_allclose(solve_retrieval(S, tau, prior=PRIOR), softmax(S, tau, prior=PRIOR), atol=1e-9)


def test_solver_on_random_problems():
    rng = np.random.default_rng(3)
    for _ in range(20):
        s = rng.normal(size=8) * rng.uniform(0.1, 5)
        tau = float(10 ** rng.uniform(-2, 2))
        np.testing.assert_allclose(solve_retrieval(s, tau), softmax(s, tau), atol=1e-8)


@pytest.mark.parametrize("tau", [0.3, 0.5, 3.0])
def test_optimiser_alone_lands_on_softmax(tau):
    """The lecture's check: SLSQP without the KKT polish, which would solve the derivation's own equation."""
    a = solve_retrieval(S, tau, polish=False)
    reference = np.exp(S / tau - np.max(S / tau))
    np.testing.assert_allclose(a, reference / reference.sum(), atol=1e-6)
    assert np.max(np.abs(a - reference / reference.sum())) > 0  # an optimiser's answer, not a copy of softmax


def test_solver_at_tau_zero_is_an_argmax_vertex():
    a = solve_retrieval(S, 0.0)
    assert a[np.argmax(S)] == pytest.approx(1.0)
    assert retrieval_objective(a, S, 0.0) == pytest.approx(S.max())


def test_solver_respects_zero_prior():
    prior = np.ones(12)
    prior[np.argmax(S)] = 0.0
    a = solve_retrieval(S, 0.2, prior=prior)
    assert a[np.argmax(S)] == 0.0
    np.testing.assert_allclose(a, softmax(S, 0.2, prior=prior), atol=1e-9)


def test_sweep_equals_loop_over_temperatures():
    taus = np.array([0.0, 0.01, 0.3, 1.0, 10.0, np.inf])
    sweep = temperature_sweep(S, taus)
    assert sweep.weights.shape == (6, 12)
    for i, tau in enumerate(taus):
        w = softmax(S, tau)
        np.testing.assert_allclose(sweep.weights[i], w)
        assert sweep.entropy[i] == pytest.approx(entropy(w))
        assert sweep.effective_k[i] == pytest.approx(math.exp(entropy(w)))
        assert sweep.expected_score[i] == pytest.approx(float(w @ S))
    np.testing.assert_allclose(sweep.objective[:-1], optimal_objective(S, taus[:-1]), rtol=1e-12)
    assert sweep.objective[-1] == np.inf


def test_sweep_regimes_and_monotone_effective_k():
    sweep = temperature_sweep(S, np.geomspace(0.01, 100, 200))
    assert np.all(np.diff(sweep.effective_k) > -1e-12)
    assert sweep.effective_k[0] == pytest.approx(1.0, abs=1e-6)
    assert sweep.effective_k[-1] == pytest.approx(12.0, abs=0.01)
    assert sweep.expected_score[0] == pytest.approx(S.max())
    assert sweep.expected_score[-1] == pytest.approx(S.mean(), abs=0.01)


def test_sweep_result_is_frozen():
    sweep = temperature_sweep(S, [1.0])
    with pytest.raises(AttributeError):
        sweep.taus = None  # type: ignore[misc]


def test_classify_regime():
    assert classify_regime(1.0, 12) == "argmax"
    assert classify_regime(1.1, 12) == "argmax"
    assert classify_regime(5.0, 12) == "intermediate"
    assert classify_regime(11.9, 12) == "uniform"
    with pytest.raises(ValueError, match="effective_k must lie"):
        classify_regime(13.0, 12)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: retrieval_objective([0.5, 0.5], [1.0, 2.0], -1.0), ValueError, "tau must be >= 0"),
        (
            lambda: retrieval_objective([0.5, 0.6], [1.0, 2.0], 1.0),
            ValueError,
            "weights must sum to 1",
        ),
        (lambda: optimal_objective([1.0, 2.0], float("nan")), ValueError, "tau must be >= 0"),
        (lambda: optimal_objective([1.0, 2.0], 1.0, prior=[1.0]), ValueError, "prior must have 2"),
        (
            lambda: optimal_objective([1.0, 2.0], 1.0, prior=[-1.0, 2.0]),
            ValueError,
            "prior must be",
        ),
        (lambda: solve_retrieval([1.0, 2.0], np.inf), ValueError, "tau must be finite"),
        (lambda: solve_retrieval([[1.0, 2.0]], 1.0), ValueError, "finite 1-D"),
        (lambda: temperature_sweep([1.0, 2.0], []), ValueError, "taus must be a non-empty"),
        (lambda: temperature_sweep([1.0, 2.0], [-0.5]), ValueError, "taus must be >= 0"),
        (lambda: temperature_sweep([[1.0, 2.0]], [1.0]), ValueError, "scores must be 1-D"),
        (lambda: temperature_sweep(["a"], [1.0]), TypeError, "scores must be a real numeric"),
    ],
)
def test_bad_input_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()
