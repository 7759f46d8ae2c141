"""SparseVI's Monte-Carlo gradient for the GLMs (``GLMCoresetProblem.sparsevi_tangent``) and the pieces made
faster in issue 46 -- the in-place centring (``tangent.centre_in_place``) and the Poisson log-likelihood without
full-size ``where`` passes -- against plain implementations: scalar formulas (to 1e-12) and the written-out numpy
expressions of the same IEEE operations (bit for bit: SparseVI's greedy steps amplify any last-bit change)."""

import math

import numpy as np
import pytest
from scipy.special import gammaln

from inferopt.coresets.glm_problem import GLMCoresetProblem
from inferopt.coresets.tangent import centre_in_place, tangent_from_loglik
from inferopt.models import LogisticRegression, PoissonRegression
from inferopt.models.glm import _softplus


def _model(kind, n=60, seed=0):
    rng = np.random.default_rng(seed)
    Z = np.column_stack([rng.normal(size=(n, 2)), np.ones(n)])
    if kind == "logistic":
        return LogisticRegression(Z, rng.choice([-1.0, 1.0], size=n))
    return PoissonRegression(Z, np.where(rng.random(n) < 0.3, 0.0, rng.poisson(3.0, n)).astype(float))   # zero counts too


def _scalar_loglik(kind, eta, y):
    """``log p(y | η)`` of one datum, from the model's definition in ``math``'s scalar functions."""
    if kind == "logistic":
        return -math.log1p(math.exp(-y * eta)) if y * eta > -30 else y * eta - math.log1p(math.exp(y * eta))
    lam = math.log1p(math.exp(eta)) if eta < 30 else eta + math.log1p(math.exp(-eta))
    log_lam = math.log(lam) if eta > -30 else eta   # log(log(1 + e^η)) = η + O(e^η) below -30
    return y * log_lam - lam - math.lgamma(y + 1.0)


def _plain_centred(L):
    """Sec. 2's ``Φ``: each column minus its mean over the samples, over ``√S``."""
    return (L - L.mean(axis=0, keepdims=True)) / np.sqrt(L.shape[0])


def test_poisson_loglik_equals_the_formula_written_out():
    """``y log λ − λ − log y!`` as the library computes it in place: the bits of the expression
    ``y * where(small, η, log(where(small, 1, λ))) − λ − gammaln(y + 1)``, and the scalar formula to 1e-12,
    over a paper-size batch with zero counts, large counts and both tails of ``η``."""
    rng = np.random.default_rng(4)
    eta = np.concatenate([rng.normal(0.0, 4.0, (300, 500)), np.tile([-800.0, -40.0, -30.0, -29.5, 0.0, 35.0, 800.0], (300, 1))],
                         axis=1)
    y = np.where(rng.random(eta.shape[1]) < 0.3, 0.0, rng.poisson(4.0, eta.shape[1])).astype(float)[None, :]
    lam, small = _softplus(eta)
    expected = y * np.where(small, eta, np.log(np.where(small, 1.0, lam))) - lam - gammaln(y + 1.0)
    m = PoissonRegression(np.ones((y.shape[1], 1)), y[0])
    got = m._ll(eta.copy(), y)
    np.testing.assert_array_equal(got, expected)
    assert np.array_equal(np.signbit(got), np.signbit(expected))
    ll, _ = m._ll_and_dll(eta, y)   # the rate is reused for the derivative: the in-place log must not touch it
    np.testing.assert_array_equal(ll, expected)
    scalar = np.array([[_scalar_loglik("poisson", e, yy) for e, yy in zip(row, y[0])] for row in eta[:5]])
    np.testing.assert_allclose(got[:5], scalar, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("order", ["C", "F"])
def test_tangent_from_loglik_centres_in_the_layout_of_its_input(order):
    """The column means sum in the input's own layout (a C-ordered copy of an F-ordered matrix sums them in
    another order: other last bits, and Φ of a GLM problem is F-ordered log-likelihoods); the input is untouched."""
    L = np.asarray(np.random.default_rng(1).normal(-2.0, 3.0, (500, 300)), order=order)
    before = L.copy()
    np.testing.assert_array_equal(tangent_from_loglik(L), _plain_centred(L))
    np.testing.assert_array_equal(L, before)
    own = L.copy(order="K")
    assert centre_in_place(own) is own
    np.testing.assert_array_equal(own, _plain_centred(L))


@pytest.mark.parametrize("kind", ["logistic", "poisson"])
def test_sparsevi_tangent_equals_the_plain_monte_carlo_gradient(kind):
    """Each call: the Laplace fit of ``π_w`` from the previous mode, ``S`` draws of it from the same stream, the
    log-likelihoods of every datum, centred and scaled -- bit for bit against the plain centring of the model's
    log-likelihoods, and to 1e-12 (of the largest entry) against the scalar formulas."""
    model = _model(kind)
    problem = GLMCoresetProblem(model, 40, np.random.default_rng(2))
    tangent = problem.sparsevi_tangent(30, np.random.default_rng(7))
    rng, mode = np.random.default_rng(7), None
    for support in ([3], [3, 17], [3, 17, 41, 58]):
        w = np.zeros(model.n)
        w[support] = np.linspace(5.0, 20.0, len(support))
        got = tangent(w)
        lap = problem.weighted_laplace(w, x0=mode)
        mode = lap.mean
        thetas = lap.sample(30, rng)
        np.testing.assert_array_equal(got, _plain_centred(model.loglik(thetas)))
        eta = thetas @ model.Z.T
        scalar = np.array([[_scalar_loglik(kind, e, yy) for e, yy in zip(row, model.y)] for row in eta])
        np.testing.assert_allclose(got, _plain_centred(scalar), rtol=0, atol=1e-12 * np.abs(got).max())
