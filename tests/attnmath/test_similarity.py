"""Dot-product attention with projections, and the learned similarity of section 1."""

import math

import numpy as np
import pytest

from attnmath import (
    attention_weights,
    fit_similarity,
    gaussian_as_dot_product,
    kernel_weights,
    loo_cv_error,
    noisy_sine,
    position_features,
    weight_parameters,
)

pytestmark = pytest.mark.filterwarnings("error")

RNG = np.random.default_rng(11)
X = np.sort(RNG.uniform(0, 1, 14))
Y = np.sin(2 * np.pi * X) + 0.15 * RNG.normal(size=14)


def test_attention_weights_match_naive_loop():
    q = RNG.normal(size=(3, 4))
    k = RNG.normal(size=(5, 4))
    w_q = RNG.normal(size=(4, 2))
    w_k = RNG.normal(size=(4, 2))
    got = attention_weights(q, k, w_q, w_k)
    for j in range(3):
        scores = [float((q[j] @ w_q) @ (k[i] @ w_k)) / math.sqrt(2) for i in range(5)]
        e = [math.exp(s) for s in scores]
        np.testing.assert_allclose(got[j], [v / sum(e) for v in e], rtol=1e-12)


def test_gaussian_kernel_is_a_dot_product_attention():
    w_q, w_k = gaussian_as_dot_product(0.12)
    queries = np.linspace(0, 1, 9)
    got = attention_weights(position_features(queries), position_features(X), w_q, w_k, tau=1.0)
    np.testing.assert_allclose(got, kernel_weights(queries, X, 0.12), atol=1e-12)


def test_learned_similarity_beats_the_best_gaussian_bandwidth():
    fit = fit_similarity(X, Y, seed=0)
    best_gaussian = float(np.min(loo_cv_error(X, Y, np.geomspace(1e-3, 10, 200))))
    assert fit.loss < fit.initial_loss
    assert fit.loss <= best_gaussian * (1 + 1e-6)


def test_fit_reports_the_loss_of_its_own_weights():
    fit = fit_similarity(X, Y, seed=1)
    w = fit.weights(X, X)
    np.fill_diagonal(w, 0.0)
    w = w / w.sum(axis=1, keepdims=True)
    assert float(np.mean((w @ Y - Y) ** 2)) == pytest.approx(fit.loss, rel=1e-6)


def test_fit_is_reproducible_for_a_seed():
    a, b = fit_similarity(X, Y, seed=3), fit_similarity(X, Y, seed=3)
    np.testing.assert_array_equal(a.w_q, b.w_q)


def test_position_features():
    np.testing.assert_array_equal(position_features([1.0, -2.0]), [[1, 1, 1], [-2, 4, 1]])


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: attention_weights([[1.0, 2.0]], [[1.0, 2.0]], np.ones((3, 2)), np.ones((2, 2))),
            "do not chain",
        ),
        (lambda: fit_similarity([1.0, 2.0], [1.0, 2.0]), "length >= 3"),
        (lambda: fit_similarity(X, Y[:-1]), "equal length"),
        (lambda: fit_similarity(X, Y, rank=0), "rank must be >= 1"),
        (lambda: position_features([[1.0]]), "x must be finite scalars"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_the_key_constant_features_column_never_moves_the_weights():
    """Softmax cancels the score term that the key's constant feature meets: only 6 of 12 numbers count."""
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, 8)
    feats = position_features(x)
    w_q, w_k = rng.normal(size=(3, 2)), rng.normal(size=(3, 2))
    before = attention_weights(feats, feats, w_q, w_k, tau=1.0)
    moved = w_k.copy()
    moved[2] += rng.normal(size=2)  # the row that multiplies the key's constant feature
    assert np.allclose(attention_weights(feats, feats, w_q, moved, tau=1.0), before, atol=1e-12)
    other = w_k.copy()
    other[0] += 0.1  # a row that meets the key's position
    assert not np.allclose(attention_weights(feats, feats, w_q, other, tau=1.0), before, atol=1e-6)
    assert weight_parameters(w_q, w_k) == 6 and w_q.size + w_k.size == 12


def test_leave_one_out_predictions_are_each_point_from_the_others_and_give_the_fitted_loss():
    """Against a loop that drops each point and predicts it from the rest with the fitted weights."""
    x, y = noisy_sine(10, noise=0.25, seed=3)
    fit = fit_similarity(x, y)
    loo = fit.leave_one_out(x, y)
    for i in range(x.size):
        rest = np.arange(x.size) != i
        assert loo[i] == pytest.approx(float(fit.weights(x[i : i + 1], x[rest])[0] @ y[rest]), rel=1e-12)
    assert float(np.mean((loo - y) ** 2)) == pytest.approx(fit.loss, rel=1e-6)
