"""Laplace approximation: stationarity, agreement with BFGS, recovery of the true parameter,
covariance against a finite-difference Hessian, sampler and bad input."""

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import expit
from scipy.stats import multivariate_normal

from inferopt.models import LaplaceApprox, LogisticRegression, PoissonRegression, laplace_approximation


def _synthetic_logistic(n, seed, theta=(3.0, 3.0, 0.0)):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    Z = np.column_stack([X, np.ones(n)])
    y = np.where(rng.random(n) < expit(Z @ np.asarray(theta)), 1.0, -1.0)
    return LogisticRegression(Z, y), rng


def _synthetic_poisson(n, seed, theta=(1.0, 0.5)):
    rng = np.random.default_rng(seed)
    Z = np.column_stack([rng.normal(size=n), np.ones(n)])
    y = rng.poisson(np.log1p(np.exp(Z @ np.asarray(theta)))).astype(float)
    return PoissonRegression(Z, y), rng


@pytest.mark.parametrize("method", ["trust-exact", "Newton-CG"])
@pytest.mark.parametrize("make", [_synthetic_logistic, _synthetic_poisson])
def test_map_is_stationary_and_matches_bfgs(make, method):
    m, rng = make(300, 1)
    w = rng.random(m.n) * 3
    la = laplace_approximation(m, w, method=method)
    assert la.result.converged
    assert np.linalg.norm(m.grad_log_joint(la.mean, w)) < 1e-5
    bfgs = minimize(lambda t: -m.log_joint(t, w), np.ones(m.D) * 0.1, method="BFGS", options={"gtol": 1e-9})
    np.testing.assert_allclose(la.mean, bfgs.x, atol=1e-4)


def test_laplace_mean_recovers_true_parameter_on_large_synthetic_data():
    m, _ = _synthetic_logistic(20000, 2)
    la = laplace_approximation(m)
    sd = np.sqrt(np.diag(la.cov))
    assert np.all(np.abs(la.mean - np.array([3.0, 3.0, 0.0])) < 5 * sd + 0.05)
    assert np.all(sd < 0.1)


def test_covariance_is_inverse_of_finite_difference_hessian():
    m, rng = _synthetic_logistic(200, 3)
    w = rng.random(m.n) * 2
    la = laplace_approximation(m, w)
    h = 1e-5
    f = lambda t: m.log_joint(t, w)  # noqa: E731
    D = m.D
    H = np.zeros((D, D))
    E = np.eye(D) * h
    for i in range(D):
        for j in range(D):
            H[i, j] = (f(la.mean + E[i] + E[j]) - f(la.mean + E[i] - E[j]) - f(la.mean - E[i] + E[j]) + f(la.mean - E[i] - E[j])) / (4 * h * h)
    cov_fd = np.linalg.inv(-0.5 * (H + H.T))
    np.testing.assert_allclose(la.cov, cov_fd, rtol=2e-3, atol=1e-6)
    np.testing.assert_allclose(la.cov_chol @ la.cov_chol.T, la.cov, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(la.precision @ la.cov, np.eye(D), atol=1e-8)


def test_sampler_and_logpdf():
    m, _ = _synthetic_logistic(200, 4)
    la = laplace_approximation(m)
    x = la.sample(40000, np.random.default_rng(5))
    assert x.shape == (40000, m.D)
    np.testing.assert_allclose(x.mean(axis=0), la.mean, atol=4 * np.sqrt(np.diag(la.cov) / 40000).max())
    np.testing.assert_allclose(np.cov(x.T), la.cov, rtol=0.05, atol=0.02 * np.abs(la.cov).max())
    ref = multivariate_normal(la.mean, la.cov).logpdf(x[:5])
    np.testing.assert_allclose(la.logpdf(x[:5]), ref, rtol=1e-9)
    a = la.sample(3, np.random.default_rng(9))
    b = la.sample(3, np.random.default_rng(9))
    np.testing.assert_array_equal(a, b)


class _NotConcave(LogisticRegression):
    """A deliberately broken model: its Hessian is +I (not a maximum)."""

    def hess_log_joint(self, theta, w=None):
        return np.eye(self.D)


def test_bad_input_and_indefinite_hessian_raise():
    m, _ = _synthetic_logistic(50, 6)
    with pytest.raises(ValueError, match="method"):
        laplace_approximation(m, method="BFGS")
    with pytest.raises(ValueError, match="w must be non-negative"):
        laplace_approximation(m, -np.ones(m.n))
    with pytest.raises(ValueError, match="x0 must have length"):
        laplace_approximation(m, x0=np.zeros(2))
    bad = _NotConcave(m.Z, m.y)
    with pytest.raises(ValueError, match="not positive definite"):
        laplace_approximation(bad, max_iter=5)
    la = LaplaceApprox(mean=np.zeros(2), prec_chol=np.eye(2))
    with pytest.raises(TypeError, match="Generator"):
        la.sample(3, "0")
