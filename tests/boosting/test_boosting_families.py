"""Base families: densities against scipy.stats, entropies (closed form vs scipy and Monte
Carlo), Monte-Carlo KL between Gaussians against the exact value, and bad input."""

import numpy as np
import pytest
from scipy import stats

from inferopt.boosting import Component, Gaussian, GaussianMixtureTarget, Laplace, get_family, kl

SCIPY = {"gaussian": stats.norm, "laplace": stats.laplace}


@pytest.mark.parametrize("name", ["gaussian", "laplace"])
def test_log_density_matches_scipy(name):
    rng = np.random.default_rng(0)
    fam = get_family(name)
    loc, log_scale = rng.normal(size=4), rng.normal(size=4) * 0.5
    x = rng.normal(size=(30, 4)) * 2
    ref = SCIPY[name].logpdf(x, loc=loc, scale=np.exp(log_scale)).sum(axis=1)
    np.testing.assert_allclose(fam.log_density(x, loc, log_scale), ref, rtol=1e-12)
    # (S, K) form: every sample under every component
    locs, lss = rng.normal(size=(3, 4)), rng.normal(size=(3, 4)) * 0.3
    ref2 = SCIPY[name].logpdf(x[:, None, :], loc=locs[None], scale=np.exp(lss)[None]).sum(axis=2)
    np.testing.assert_allclose(fam.log_density(x, locs, lss), ref2, rtol=1e-12)


@pytest.mark.parametrize("name", ["gaussian", "laplace"])
def test_entropy_closed_form_vs_scipy_and_monte_carlo(name):
    rng = np.random.default_rng(1)
    fam = get_family(name)
    loc, log_scale = rng.normal(size=3), rng.normal(size=3) * 0.5
    exact = SCIPY[name].entropy(scale=np.exp(log_scale)).sum()
    np.testing.assert_allclose(fam.entropy(log_scale), exact, rtol=1e-12)
    x, _ = fam.sample(loc, log_scale, 20000, rng)
    v = -fam.log_density(x, loc, log_scale)
    assert abs(v.mean() - exact) < 4 * v.std() / np.sqrt(v.size)


def test_laplace_minus_gaussian_entropy():
    log_scale = np.array([0.3, -1.0, 2.0])
    diff = Laplace().entropy(log_scale) - Gaussian().entropy(log_scale)
    np.testing.assert_allclose(diff, 3 * (1 + np.log(2) - 0.5 * np.log(2 * np.pi * np.e)), rtol=1e-12)


@pytest.mark.parametrize("name", ["gaussian", "laplace"])
def test_reparameterised_samples(name):
    rng = np.random.default_rng(2)
    fam = get_family(name)
    loc, log_scale = np.array([1.0, -2.0]), np.array([0.0, np.log(0.5)])
    x, eps = fam.sample(loc, log_scale, 50000, rng)
    np.testing.assert_allclose(x, loc + np.exp(log_scale) * eps)
    var = fam.variance_per_dim() * np.exp(2 * log_scale)
    assert np.all(np.abs(x.mean(axis=0) - loc) < 4 * np.sqrt(var / x.shape[0]))
    np.testing.assert_allclose(x.var(axis=0), var, rtol=0.05)
    s = Component(name, loc, log_scale)
    a = s.sample(5, np.random.default_rng(3))
    b = s.sample(5, np.random.default_rng(3))
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["gaussian", "laplace"])
def test_grad_x_log_density_matches_finite_differences(name):
    rng = np.random.default_rng(4)
    s = Component(name, rng.normal(size=3), rng.normal(size=3) * 0.3)
    x = rng.normal(size=(6, 3))
    g = s.grad_x_log_density(x)
    h = 1e-6
    fd = np.stack([(s.log_density(x + h * e) - s.log_density(x - h * e)) / (2 * h) for e in np.eye(3)], axis=1)
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-6)


def test_monte_carlo_kl_between_gaussians_matches_exact():
    rng = np.random.default_rng(5)
    m1, s1 = np.array([0.5, -1.0, 2.0]), np.array([0.7, 1.5, 1.0])
    m2, s2 = np.array([0.0, 0.0, 1.0]), np.array([1.0, 1.0, 2.0])
    q = Component.from_scale("gaussian", m1, s1)
    p = GaussianMixtureTarget.single(m2, s2)
    exact = np.sum(np.log(s2 / s1) + (s1**2 + (m1 - m2) ** 2) / (2 * s2**2) - 0.5)
    est, se = kl(p, q, n_samples=20000, rng=rng, stderr=True)
    assert abs(est - exact) < 4 * se
    assert se < 0.05 * exact          # the test has power


def test_monte_carlo_kl_laplace_to_gaussian_matches_quadrature():
    # KL(Laplace(0, b) || N(0, 1)) per dim = -H(Laplace) + 0.5 log 2pi + E[x^2]/2, E x^2 = 2 b^2
    b = np.array([0.5, 1.2])
    q = Component.from_scale("laplace", np.zeros(2), b)
    p = GaussianMixtureTarget.single(np.zeros(2), np.ones(2))
    exact = np.sum(-(1 + np.log(2 * b)) + 0.5 * np.log(2 * np.pi) + b**2)
    est, se = kl(p, q, n_samples=20000, rng=np.random.default_rng(6), stderr=True)
    assert abs(est - exact) < 4 * se


def test_bad_input_raises():
    with pytest.raises(ValueError, match="scale must be strictly positive"):
        Component.from_scale("gaussian", [0.0, 1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="same shape"):
        Component("laplace", [0.0, 1.0], [0.0])
    with pytest.raises(ValueError, match="finite"):
        Component("laplace", [np.nan, 1.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="family"):
        get_family("student")
    s = Component("gaussian", [0.0, 1.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="D = 2 columns"):
        s.log_density(np.zeros((3, 3)))
    with pytest.raises(TypeError, match="Generator"):
        s.sample(3, rng=4.2)
    with pytest.raises(ValueError, match="strictly positive"):
        GaussianMixtureTarget([[0.0]], [[-1.0]])
