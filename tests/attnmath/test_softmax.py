"""softmax, entropy and effective_k against scipy, closed forms and naive loops."""

import math

import numpy as np
import pytest
import scipy.special
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnmath import effective_k, entropy, softmax

pytestmark = pytest.mark.filterwarnings("error")

finite_scores = arrays(
    np.float64,
    st.integers(1, 20),
    elements=st.floats(-50, 50, allow_nan=False, allow_infinity=False),
)
positive_tau = st.floats(1e-3, 1e3)


def naive_softmax(s, tau, prior=None):
    prior = [1.0] * len(s) if prior is None else prior
    e = [r * math.exp(x / tau) for x, r in zip(s, prior, strict=True)]
    return np.array([v / sum(e) for v in e])


def test_matches_scipy_for_random_scores():
    rng = np.random.default_rng(0)
    s = rng.normal(size=(5, 9))
    for tau in (0.1, 0.7, 3.0):
        np.testing.assert_allclose(softmax(s, tau), scipy.special.softmax(s / tau, axis=-1), rtol=1e-12)


def test_matches_naive_loop_with_prior():
    s = [0.3, -1.2, 2.0, 0.5]
    r = [0.1, 0.4, 0.2, 0.3]
    np.testing.assert_allclose(softmax(s, 0.8, prior=r), naive_softmax(s, 0.8, r), rtol=1e-12)


def test_axis_argument():
    s = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(softmax(s, 2.0, axis=0), scipy.special.softmax(s / 2.0, axis=0))


def test_tau_zero_is_argmax_with_ties_shared():
    np.testing.assert_array_equal(softmax([1.0, 3.0, 3.0, 2.0], 0.0), [0, 0.5, 0.5, 0])


def test_tau_zero_ties_follow_prior():
    np.testing.assert_allclose(softmax([3.0, 3.0, 1.0], 0.0, prior=[1.0, 3.0, 5.0]), [0.25, 0.75, 0])


def test_tau_inf_is_uniform_or_prior():
    np.testing.assert_array_equal(softmax([1.0, 5.0, -2.0, 0.0], np.inf), [0.25] * 4)
    np.testing.assert_allclose(softmax([1.0, 5.0, -2.0], np.inf, prior=[1, 1, 2]), [0.25, 0.25, 0.5])


def test_limits_are_continuous():
    s = np.array([0.2, 1.5, 1.1, -0.4])
    np.testing.assert_allclose(softmax(s, 1e-6), softmax(s, 0.0), atol=1e-12)
    np.testing.assert_allclose(softmax(s, 1e9), softmax(s, np.inf), atol=1e-8)


def test_minus_inf_scores_get_exact_zero():
    for tau in (0.0, 0.5, np.inf):
        w = softmax([1.0, -np.inf, 0.0], tau)
        assert w[1] == 0.0
        assert math.isclose(w.sum(), 1.0)


def test_zero_prior_masks_entry():
    assert softmax([5.0, 1.0], 1.0, prior=[0.0, 1.0])[0] == 0.0


@pytest.mark.parametrize("tau", [0.0, 1e-12, 1.0, 1e12, np.inf])
def test_extreme_scores_are_stable(tau):
    w = softmax([1e300, -1e300, 0.0, -1e300], tau)
    assert np.all(np.isfinite(w))
    assert math.isclose(w.sum(), 1.0)


def test_extreme_scores_give_the_right_limits():
    np.testing.assert_array_equal(softmax([1e300, -1e300, 0.0], 1e-12), [1, 0, 0])
    np.testing.assert_array_equal(softmax([1e300, -1e300, 0.0], 1e12), [1, 0, 0])
    np.testing.assert_allclose(softmax([1.0, 2.0], 1e12), [0.5, 0.5])


def test_whole_sweep_in_one_call_equals_loop():
    s = np.array([0.1, 2.0, 1.3])
    taus = np.array([0.0, 0.01, 1.0, 50.0, np.inf])
    sweep = softmax(s, taus[:, None])
    assert sweep.shape == (5, 3)
    for row, tau in zip(sweep, taus, strict=True):
        np.testing.assert_array_equal(row, softmax(s, tau))


@settings(max_examples=200, deadline=None)
@given(finite_scores, positive_tau)
def test_rows_sum_to_one(s, tau):
    w = softmax(s, tau)
    assert np.all(w >= 0)
    assert math.isclose(w.sum(), 1.0, rel_tol=1e-12)


@settings(max_examples=200, deadline=None)
@given(finite_scores, positive_tau, st.floats(-1e3, 1e3))
def test_invariant_to_adding_a_constant(s, tau, c):
    np.testing.assert_allclose(softmax(s + c, tau), softmax(s, tau), atol=1e-9)


@settings(max_examples=100, deadline=None)
@given(finite_scores, positive_tau, st.floats(0.1, 10))
def test_scaling_scores_and_tau_together_changes_nothing(s, tau, c):
    np.testing.assert_allclose(softmax(c * s, c * tau), softmax(s, tau), atol=1e-9)


@settings(max_examples=200, deadline=None)
@given(finite_scores, positive_tau)
def test_entropy_bounds(s, tau):
    h = entropy(softmax(s, tau))
    assert -1e-12 <= h <= math.log(s.size) + 1e-12


def test_entropy_matches_scipy_and_naive_loop():
    rng = np.random.default_rng(1)
    w = rng.dirichlet(np.ones(7), size=4)
    np.testing.assert_allclose(entropy(w), scipy.stats.entropy(w, axis=-1), rtol=1e-12)
    naive = -sum(p * math.log(p) for p in w[0] if p > 0)
    assert math.isclose(entropy(w[0]), naive, rel_tol=1e-12)


def test_entropy_zero_log_zero():
    assert entropy([1.0, 0.0, 0.0]) == 0.0
    assert math.isclose(entropy([0.5, 0.0, 0.5]), math.log(2))


def test_effective_k_endpoints():
    assert math.isclose(effective_k([0.0, 1.0, 0.0]), 1.0)
    assert math.isclose(effective_k(np.full(12, 1 / 12)), 12.0)
    assert math.isclose(effective_k([0.5, 0.5, 0.0]), 2.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"scores": [1.0, 2.0], "tau": -1.0}, ValueError, "tau must be >= 0, got -1.0"),
        ({"scores": [1.0, 2.0], "tau": float("nan")}, ValueError, "tau must be >= 0, got NaN"),
        ({"scores": [], "tau": 1.0}, ValueError, "scores must not be empty"),
        ({"scores": [-np.inf, -np.inf], "tau": 1.0}, ValueError, "all entries are masked"),
        ({"scores": [1.0, np.nan], "tau": 1.0}, ValueError, "scores must not contain NaN"),
        ({"scores": [1.0, np.inf], "tau": 1.0}, ValueError, r"\+inf"),
        ({"scores": ["a", "b"], "tau": 1.0}, TypeError, "scores must be a real numeric array"),
        ({"scores": [1.0, 2.0], "tau": "hot"}, TypeError, "tau must be a real numeric array"),
        ({"scores": [1.0, 2.0], "prior": [1.0, -1.0]}, ValueError, "prior must be >= 0"),
        ({"scores": [1.0, 2.0], "prior": [1.0, 1.0, 1.0]}, ValueError, "prior with shape"),
        ({"scores": [1.0, 2.0], "prior": [0.0, 0.0]}, ValueError, "positive prior"),
        ({"scores": [1.0, 2.0], "tau": [1.0, 2.0]}, ValueError, "size 1 along the item axis"),
        ({"scores": [1.0, 2.0], "tau": [[1.0], [2.0]], "axis": 3}, ValueError, "axis=3"),
        ({"scores": 3.0, "tau": 1.0}, ValueError, "scores must have at least 1 dimension"),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        softmax(**kwargs)


@pytest.mark.parametrize(
    ("weights", "match"),
    [
        ([0.5, 0.6], "must sum to 1"),
        ([1.5, -0.5], ">= 0"),
        ([], "must not be empty"),
        (["x"], "numeric"),
    ],
)
def test_entropy_rejects_non_distributions(weights, match):
    with pytest.raises((ValueError, TypeError), match=match):
        entropy(weights)


def test_the_entropy_term_its_slope_and_its_bend_against_finite_differences():
    from attnmath import entropy_term

    xs = np.linspace(0.05, 0.95, 19)
    term, slope = entropy_term(xs)
    assert np.allclose(term, [-x * math.log(x) for x in xs])
    h = 1e-6
    up, _ = entropy_term(xs + h)
    down, _ = entropy_term(xs - h)
    assert np.allclose(slope, (up - down) / (2 * h), atol=1e-6)  # the stationary beat's -log a - 1
    h = 1e-4
    up, _ = entropy_term(xs + h)
    down, _ = entropy_term(xs - h)
    assert np.allclose((up - 2 * term + down) / h**2, -1 / xs, rtol=1e-5)  # the curvature beat's -1/x
    _, at_zero = entropy_term([0.0])
    assert at_zero[0] == np.inf  # the positivity beat's infinite slope
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        entropy_term([1.5])
