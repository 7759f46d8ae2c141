"""converged_vi (plain VI to convergence) and elbo_gain (paired ELBO differences)."""

import numpy as np
import pytest

from inferopt.boosting import (Component, GaussianMixtureTarget, LogisticTarget, Mixture, boost, converged_vi, elbo,
                               elbo_gain, greedy_step)


def _gaussian_target(D=4, seed=0):
    rng = np.random.default_rng(seed)
    return GaussianMixtureTarget(rng.normal(size=(1, D)), np.exp(rng.normal(size=(1, D)) * 0.5), np.ones(1))


def test_converged_vi_matches_closed_form_on_a_gaussian_target():
    target = _gaussian_target()
    res = converged_vi(target, "gaussian", rng=np.random.default_rng(1), n_samples=2000)
    s = res.component
    assert res.converged
    # mirrored draws: the location is exact; the scale is sd / sqrt(mean eps^2), within a few per cent at 4000 draws
    np.testing.assert_allclose(s.loc, target.mixture.locs[0], atol=1e-6)
    np.testing.assert_allclose(s.scale, target.mixture.component(0).scale, rtol=0.05)
    # its ELBO is log Z (= 0, KL = 0) up to the scale's error
    assert abs(elbo(target, s, n_samples=4000, rng=np.random.default_rng(2))) < 0.01


def test_converged_vi_beats_the_authors_plain_vi_on_logistic_regression():
    rng = np.random.default_rng(3)
    Z = rng.normal(size=(200, 5))
    y = np.where(Z @ rng.normal(size=5) + rng.normal(size=200) > 0, 1.0, -1.0)
    target = LogisticTarget(Z, y)
    conv = converged_vi(target, "laplace", rng=np.random.default_rng(4), n_samples=500).component
    authors = greedy_step(target, "laplace", rng=np.random.default_rng(5), max_iter=200, n_samples=1, lr=0.1,
                          start="random", scale_param="softplus", stored_scale="stddev").component
    gain, se = elbo_gain(target, Mixture.from_component(conv), authors, n_samples=4000, rng=np.random.default_rng(6))
    assert gain > 2 * se > 0


def test_elbo_gain_is_paired_and_exact_for_the_same_component():
    target = _gaussian_target()
    q0 = Component("gaussian", np.zeros(4), np.zeros(4))
    gain, se = elbo_gain(target, Mixture.from_component(q0), q0, n_samples=100, rng=np.random.default_rng(0))
    assert gain == 0.0 and se == 0.0
    # a mixture that keeps q0 at weight 0.99: the pairing makes its SE far below the unpaired estimates'
    q = Mixture.from_component(q0).add(Component("gaussian", np.ones(4), np.zeros(4)), 0.01)
    g, s = elbo_gain(target, q, q0, n_samples=2000, rng=np.random.default_rng(1))
    unpaired = elbo(target, q0, n_samples=2000, rng=np.random.default_rng(1), stderr=True)[1]
    assert s < unpaired / 3
    exact = elbo(target, q, n_samples=200000, rng=np.random.default_rng(2)) - elbo(target, q0, n_samples=200000,
                                                                                   rng=np.random.default_rng(3))
    assert abs(g - exact) < 4 * s + 0.02


def test_boost_starts_from_the_given_component():
    target = _gaussian_target()
    q0 = converged_vi(target, "gaussian", rng=np.random.default_rng(1), n_samples=200).component
    res = boost(target, "predefined", rng=np.random.default_rng(0), max_iter=1, family="gaussian", start=q0,
                greedy={"max_iter": 20})
    np.testing.assert_array_equal(res.problem.components[0].loc, q0.loc)
    with pytest.raises(TypeError, match="start"):
        boost(target, "predefined", rng=np.random.default_rng(0), max_iter=1, family="laplace", start=q0)
