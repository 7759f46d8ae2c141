"""Laplace approximation: the damped Newton mode against a converged reference (the gradient's
root from scipy's trust-exact mode) and trust-exact itself (warm and cold starts, weights with
zeros), its optimality certificate and failures, stationarity, agreement with BFGS, recovery of
the true parameter, covariance against a finite-difference Hessian, sampler and bad input."""

import numpy as np
import pytest
from scipy.optimize import minimize, root
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


@pytest.mark.parametrize("method", ["newton", "trust-exact", "Newton-CG"])
@pytest.mark.parametrize("make", [_synthetic_logistic, _synthetic_poisson])
def test_map_is_stationary_and_matches_bfgs(make, method):
    m, rng = make(300, 1)
    w = rng.random(m.n) * 3
    la = laplace_approximation(m, w, method=method)
    assert la.result.converged
    assert np.linalg.norm(m.grad_log_joint(la.mean, w)) < 1e-5
    bfgs = minimize(lambda t: -m.log_joint(t, w), np.ones(m.D) * 0.1, method="BFGS", options={"gtol": 1e-9})
    np.testing.assert_allclose(la.mean, bfgs.x, atol=1e-4)


def _coreset_weights(m, rng):
    """Weights as a coreset's: about 40 % zeros, the rest spread over [0.5, 20]."""
    return rng.uniform(0.5, 20.0, m.n) * (rng.random(m.n) < 0.6)


def _reference_mode(m, w):
    """The root of the gradient by MINPACK's hybrid method (``scipy.optimize.root``, no line
    search, no Cholesky) from scipy's trust-exact mode (the solver before issue 27), certified
    by the model's own gradient."""
    start = laplace_approximation(m, w, method="trust-exact", gtol=1e-8).mean
    sol = root(lambda t: m.grad_log_joint(t, w), start, jac=lambda t: m.hess_log_joint(t, w), method="hybr",
               options={"xtol": 1e-15})
    assert np.linalg.norm(m.grad_log_joint(sol.x, w)) <= 1e-12 * max(1.0, abs(m.log_joint(sol.x, w)))
    return sol.x


@pytest.mark.parametrize("start", ["cold", "warm"])
@pytest.mark.parametrize("seed", [11, 12, 13])
@pytest.mark.parametrize("make", [_synthetic_logistic, _synthetic_poisson])
def test_newton_mode_matches_a_converged_reference_and_trust_exact(make, seed, start):
    m, rng = make(150, seed)
    w = _coreset_weights(m, rng)
    ref = _reference_mode(m, w)
    x0 = None if start == "cold" else ref + 1e-2 * rng.standard_normal(m.D)   # warm: as SparseVI's steps
    la = laplace_approximation(m, w, x0=x0)
    assert la.result.converged and la.result.info["method"] == "newton"
    assert la.result.n_iter <= (4 if start == "warm" else 12)
    np.testing.assert_allclose(la.mean, ref, rtol=1e-8, atol=1e-8 * np.abs(ref).max())
    np.testing.assert_allclose(la.precision, -m.hess_log_joint(ref, w), rtol=1e-8, atol=1e-8)
    old = laplace_approximation(m, w, x0=x0, method="trust-exact", gtol=1e-8)   # the defaults before issue 27
    np.testing.assert_allclose(la.mean, old.mean, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("gtol", [1e-6, 1e-10, 1e-13])
@pytest.mark.parametrize("make", [_synthetic_logistic, _synthetic_poisson])
def test_newton_mode_carries_its_optimality_certificate(make, gtol):
    """At the returned mode the model's own (checked) gradient meets the stopping rule
    ``‖∇‖ <= gtol · max(1, |f|)``, the result reports that norm, and the objective decreased."""
    m, rng = make(200, 21)
    w = _coreset_weights(m, rng)
    la = laplace_approximation(m, w, x0=rng.standard_normal(m.D), gtol=gtol)
    f = -m.log_joint(la.mean, w)
    gnorm = np.linalg.norm(m.grad_log_joint(la.mean, w))
    assert gnorm <= gtol * max(1.0, abs(f))
    assert la.result.info["grad_norm"] == pytest.approx(gnorm, rel=1e-6, abs=1e-3 * gtol * max(1.0, abs(f)))
    assert la.result.objective[1] == pytest.approx(f, rel=1e-13) and la.result.objective[1] <= la.result.objective[0]
    np.testing.assert_allclose(la.precision, -m.hess_log_joint(la.mean, w), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("make", [_synthetic_logistic, _synthetic_poisson])
def test_zero_weights_fit_as_the_support_alone(make):
    """Fitting on the support only (as GLMCoresetProblem.weighted_laplace does) gives the mode of
    the full model with zero weights elsewhere."""
    m, rng = make(120, 31)
    w = _coreset_weights(m, rng)
    supp = np.flatnonzero(w)
    sub = type(m)(m.Z[supp], m.y[supp], prior_var=m.prior_var)
    np.testing.assert_allclose(laplace_approximation(sub, w[supp]).mean, laplace_approximation(m, w).mean,
                               rtol=1e-10, atol=1e-10)


class _WrongGradient(LogisticRegression):
    """A broken model whose gradient points uphill: Newton's direction never decreases f."""

    def neg_log_joint_fns(self, w=None):
        f, g, h = super().neg_log_joint_fns(w)
        return f, lambda t: -g(t), h


def test_newton_failures_are_named():
    m, _ = _synthetic_logistic(100, 7)
    with pytest.raises(ValueError, match=r"did not converge in max_iter = 1 steps: ‖∇f‖ = .* \(raise max_iter or gtol\)"):
        laplace_approximation(m, x0=np.full(m.D, 5.0), max_iter=1)
    with pytest.raises(ValueError, match="found no decrease .* gradient and Hessian disagree"):
        laplace_approximation(_WrongGradient(m.Z, m.y), x0=np.ones(m.D))
    with pytest.raises(ValueError, match="at the start x0 is not positive definite"):
        laplace_approximation(_NotConcave(m.Z, m.y))


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
    """A deliberately broken model: the Hessian of the log joint it hands the optimiser is +I
    (not a maximum)."""

    def neg_log_joint_fns(self, w=None):
        f, g, _ = super().neg_log_joint_fns(w)
        return f, g, lambda t: -np.eye(self.D)


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


def test_kl_from_precision_factors_is_the_gaussian_kl_of_the_covariances():
    """``LaplaceApprox.kl`` (fixed order, no covariance formed) against ``gaussian_kl`` of the covariances;
    zero between an approximation and itself; refuses another type or dimension by name."""
    from inferopt.coresets import gaussian_kl

    m, _ = _synthetic_poisson(300, 7)
    full = laplace_approximation(m)
    part = laplace_approximation(m, np.r_[np.full(30, 10.0), np.zeros(270)])
    for a, b in ((full, part), (part, full)):
        assert a.kl(b) == pytest.approx(gaussian_kl(a.mean, a.cov, b.mean, b.cov), rel=1e-9)
    assert abs(full.kl(full)) < 1e-14
    with pytest.raises(TypeError, match="other must be a LaplaceApprox"):
        full.kl(np.eye(2))
    with pytest.raises(ValueError, match="other must have the dimension"):
        full.kl(LaplaceApprox(mean=np.zeros(3), prec_chol=np.eye(3)))
