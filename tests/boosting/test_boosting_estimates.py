"""Monte-Carlo estimates for the step rules: KL/ELBO, <grad f(q), s - v>, per-component
inner products, against exact or independently computed values."""

import numpy as np
import pytest
from scipy import stats
from scipy.integrate import quad

from inferopt.boosting import (
    Component,
    GaussianMixtureTarget,
    Mixture,
    directional_derivative,
    elbo,
    grad_inner,
    grad_inner_components,
    kl,
)


def _setup():
    target = GaussianMixtureTarget([[-2.0], [2.0]], [[0.7], [1.0]], [0.4, 0.6])
    q = Mixture("gaussian", [[-1.5], [1.0]], [[0.0], [np.log(0.8)]], [0.5, 0.5])
    s = Component("gaussian", [2.5], [0.0])
    return target, q, s


def _pdf_target(x):
    return 0.4 * stats.norm.pdf(x, -2, 0.7) + 0.6 * stats.norm.pdf(x, 2, 1.0)


def _pdf_q(x):
    return 0.5 * stats.norm.pdf(x, -1.5, 1.0) + 0.5 * stats.norm.pdf(x, 1.0, 0.8)


def test_kl_and_elbo_of_a_mixture_match_quadrature():
    target, q, _ = _setup()
    exact = quad(lambda x: _pdf_q(x) * (np.log(_pdf_q(x)) - np.log(_pdf_target(x))), -15, 15)[0]
    est, se = kl(target, q, n_samples=20000, rng=np.random.default_rng(0), stderr=True)
    assert abs(est - exact) < 4 * se and se < 0.1 * exact
    e, se2 = elbo(target, q, n_samples=20000, rng=np.random.default_rng(1), stderr=True)
    assert abs(e + exact) < 4 * se2          # log Z = 0: ELBO = -KL
    # an unnormalised target shifts the ELBO by log Z and kl() by the log_z passed
    assert kl(target, q, rng=np.random.default_rng(2), log_z=3.0) == pytest.approx(
        kl(target, q, rng=np.random.default_rng(2)) + 3.0
    )


def test_directional_derivative_matches_quadrature():
    target, q, s = _setup()
    resid = lambda x: np.log(_pdf_q(x)) - np.log(_pdf_target(x))  # noqa: E731
    e_s = quad(lambda x: stats.norm.pdf(x, 2.5, 1.0) * resid(x), -15, 15)[0]
    e_q = quad(lambda x: _pdf_q(x) * resid(x), -15, 15)[0]
    g, se = grad_inner(target, q, s, n_samples=20000, rng=np.random.default_rng(3), stderr=True)
    assert abs(g - e_s) < 4 * se
    d, se = directional_derivative(target, q, s, n_samples=20000, rng=np.random.default_rng(4), stderr=True)
    assert abs(d - (e_s - e_q)) < 4 * se
    assert d < 0          # moving towards the under-covered mode decreases KL
    # numerical check of the same quantity: d/dgamma KL((1-gamma) q + gamma s) at 0
    h = 1e-4
    kl_at = lambda g_: quad(  # noqa: E731
        lambda x: ((1 - g_) * _pdf_q(x) + g_ * stats.norm.pdf(x, 2.5, 1.0))
        * np.log(((1 - g_) * _pdf_q(x) + g_ * stats.norm.pdf(x, 2.5, 1.0)) / _pdf_target(x)),
        -15, 15,
    )[0]
    np.testing.assert_allclose((kl_at(h) - kl_at(0.0)) / h, e_s - e_q, rtol=1e-2)


def test_directional_derivative_towards_self_is_zero():
    target, q, _ = _setup()
    d, se = directional_derivative(target, q, q.component(0), v=q.component(0), n_samples=5000,
                                   rng=np.random.default_rng(5), stderr=True)
    assert abs(d) < 4 * se


def test_grad_inner_components_agrees_with_per_component_estimates():
    target, q, _ = _setup()
    allk = grad_inner_components(target, q, n_samples=20000, rng=np.random.default_rng(6))
    assert allk.shape == (2,)
    for k in range(2):
        g, se = grad_inner(target, q, q.component(k), n_samples=20000, rng=np.random.default_rng(7 + k), stderr=True)
        assert abs(allk[k] - g) < 5 * se


def test_bad_input_raises():
    target, q, s = _setup()
    with pytest.raises(TypeError, match="Generator"):
        kl(target, q, rng=1.0)
    with pytest.raises(ValueError, match="dimension D = 1"):
        grad_inner(target, q, Component("gaussian", [0.0, 0.0], [0.0, 0.0]), rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="Component or a Mixture"):
        elbo(target, "q", rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="n_samples"):
        kl(target, q, n_samples=0, rng=np.random.default_rng(0))
