"""Greedy step: RELBO gradients against finite differences, target gradients, recovery of a
Gaussian target, Adam on a quadratic, and bad input."""

import numpy as np
import pytest
from scipy.special import expit

from inferopt.boosting import (
    Adam,
    Component,
    GaussianMixtureTarget,
    LogisticTarget,
    Mixture,
    adam_minimize,
    greedy_step,
    kl,
    relbo_and_grad,
    relbo_lambda,
)
from inferopt.models import LogisticRegression


def _logistic_target(n=60, seed=0):
    rng = np.random.default_rng(seed)
    Z = np.column_stack([rng.normal(size=(n, 2)), np.ones(n)])
    y = np.where(rng.random(n) < expit(Z @ np.array([1.0, -1.0, 0.5])), 1.0, -1.0)
    return LogisticTarget(Z, y), rng


def _fd(f, x, h=1e-6):
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(x.size)])


@pytest.mark.parametrize("make", ["logistic", "gmm"])
def test_target_gradients_match_finite_differences(make):
    if make == "logistic":
        target, rng = _logistic_target()
    else:
        rng = np.random.default_rng(1)
        target = GaussianMixtureTarget(rng.normal(size=(3, 3)), np.exp(rng.normal(size=(3, 3)) * 0.3), [0.2, 0.3, 0.5])
    x = rng.normal(size=(5, target.dim))
    G = target.grad_log_density(x)
    fd = np.stack([_fd(lambda u: target.log_density(u[None])[0], xi) for xi in x])
    np.testing.assert_allclose(G, fd, rtol=1e-5, atol=1e-6)


def test_logistic_target_is_the_model_log_joint():
    target, rng = _logistic_target()
    m = target.model
    th = rng.normal(size=(4, 3))
    direct = -np.logaddexp(0, -m.y[None] * (th @ m.Z.T)).sum(axis=1) - 0.5 * (th**2).sum(1) - 1.5 * np.log(2 * np.pi)
    np.testing.assert_allclose(target.log_density(th), direct, rtol=1e-12)
    assert LogisticTarget(model=m).dim == 3


@pytest.mark.parametrize("name", ["gaussian", "laplace"])
@pytest.mark.parametrize("with_q", [False, True])
def test_relbo_gradient_matches_finite_differences(name, with_q):
    target, rng = _logistic_target()
    q = None
    if with_q:
        q = Mixture(name, rng.normal(size=(2, 3)), rng.normal(size=(2, 3)) * 0.3 - 1, [0.4, 0.6])
    eps = rng.standard_normal((30, 3)) if name == "gaussian" else rng.laplace(size=(30, 3))
    loc, rho = rng.normal(size=3) * 0.5, rng.normal(size=3) * 0.2 - 1
    lam = 0.6
    _, g_loc, g_rho = relbo_and_grad(target, name, loc, rho, eps, q, lam)
    f_loc = _fd(lambda u: relbo_and_grad(target, name, u, rho, eps, q, lam)[0], loc)
    f_rho = _fd(lambda u: relbo_and_grad(target, name, loc, u, eps, q, lam)[0], rho)
    np.testing.assert_allclose(g_loc, f_loc, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(g_rho, f_rho, rtol=1e-5, atol=1e-5)


def test_relbo_value_is_the_monte_carlo_formula():
    target, rng = _logistic_target()
    q = Mixture("laplace", rng.normal(size=(2, 3)), np.zeros((2, 3)) - 1, [0.5, 0.5])
    eps = rng.laplace(size=(50, 3))
    loc, rho = np.array([0.5, -0.5, 0.2]), np.array([-1.0, -1.2, -0.8])
    x = loc + np.exp(rho) * eps
    s = Component("laplace", loc, rho)
    lam = relbo_lambda(3)
    assert lam == 0.5
    # E_s[log p] - lam E_s[log s] - E_s[log q] with the entropy by Monte Carlo: same mean, so
    # agree up to the MC error of the entropy term only
    mc = np.mean(target.log_density(x) - lam * s.log_density(x) - q.log_density(x))
    val = relbo_and_grad(target, "laplace", loc, rho, eps, q, lam)[0]
    resid = -lam * s.log_density(x) - lam * s.entropy()
    assert abs(val - mc) <= 4 * resid.std() / np.sqrt(50) + 1e-12
    assert abs(val - mc) == pytest.approx(abs(np.mean(resid)), abs=1e-9)


@pytest.mark.parametrize("name", ["gaussian", "laplace"])
def test_greedy_first_step_recovers_target_of_the_base_family(name):
    rng = np.random.default_rng(3)
    mean, scale = np.array([1.0, -2.0, 0.5]), np.array([0.5, 2.0, 1.0])
    if name == "gaussian":
        target = GaussianMixtureTarget.single(mean, scale)
    else:
        # a Laplace target: the mixture class with one component (normalised, exact gradient a.e.)
        lt = Mixture("laplace", mean[None], np.log(scale)[None], [1.0])

        class _T:
            dim = 3
            log_normalizer = 0.0
            log_density = staticmethod(lt.log_density)
            grad_log_density = staticmethod(lt.grad_x_log_density)

        target = _T()
    res = greedy_step(target, name, rng=rng, max_iter=1500, n_samples=50, lr=0.03, average=0.3)
    s = res.component
    assert res.info["first"] and res.info["lam"] == 1.0
    np.testing.assert_allclose(s.loc, mean, atol=0.05)
    np.testing.assert_allclose(s.scale, scale, rtol=0.05)
    assert np.mean(res.objective[-50:]) > np.mean(res.objective[:5]) + 0.5    # ELBO went up
    assert kl(target, s, n_samples=20000, rng=rng) < 0.01                   # KL(s || p) ~ 0


def test_greedy_step_with_mixture_moves_to_the_unexplained_mode():
    target = GaussianMixtureTarget([[-3.0, 0.0], [3.0, 0.0]], [[0.5, 0.5], [0.5, 0.5]])
    q = Mixture.from_component(target.component(0))
    res = greedy_step(
        target, "gaussian", q, rng=np.random.default_rng(4), max_iter=800, lr=0.05,
        init=Component("gaussian", [1.0, 0.0], [0.0, 0.0]),
    )
    assert res.info["lam"] == pytest.approx(1 / np.sqrt(2))
    assert res.component.loc[0] > 2.0


def test_adam_minimises_a_quadratic():
    rng = np.random.default_rng(5)
    A = np.diag([1.0, 10.0, 0.3])
    c = rng.normal(size=3)
    res = adam_minimize(lambda x: (0.5 * (x - c) @ A @ (x - c), A @ (x - c)), np.zeros(3), max_iter=3000, lr=0.05)
    np.testing.assert_allclose(res.x, c, atol=1e-3)
    assert res.objective[-1] < 1e-6 < res.objective[0]
    # the first Adam step has length lr in every coordinate (bias-corrected m/sqrt(v) = sign(g))
    opt = Adam(lr=0.1)
    x1 = opt.step(np.zeros(3), np.array([5.0, -0.01, 2.0]))
    np.testing.assert_allclose(x1, [-0.1, 0.1, -0.1], rtol=1e-6)


def test_bad_input_raises():
    target, rng = _logistic_target()
    eps = rng.standard_normal((5, 3))
    with pytest.raises(ValueError, match="target's dimension"):
        relbo_and_grad(target, "gaussian", np.zeros(2), np.zeros(2), eps[:, :2])
    with pytest.raises(ValueError, match="eps must have D = 3"):
        relbo_and_grad(target, "gaussian", np.zeros(3), np.zeros(3), eps[:, :2])
    with pytest.raises(ValueError, match="q must have dimension"):
        greedy_step(target, "gaussian", Mixture("gaussian", np.zeros((1, 2)), np.zeros((1, 2)), [1.0]), rng=rng)
    with pytest.raises(TypeError, match="Generator"):
        greedy_step(target, "gaussian", rng="0")
    with pytest.raises(ValueError, match="lr"):
        Adam(lr=0.0)
    with pytest.raises(ValueError, match="grad must have the shape"):
        Adam().step(np.zeros(2), np.zeros(3))
    with pytest.raises(ValueError, match="model must be a LogisticRegression"):
        LogisticTarget(model=object())
    m = LogisticRegression(np.ones((2, 1)), [1.0, -1.0])
    with pytest.raises(ValueError, match="D = 1 columns"):
        LogisticTarget(model=m).log_density(np.zeros((2, 2)))


def test_log_scale_bounds_keep_the_greedy_step_well_posed():
    target, rng = _logistic_target(n=200, seed=7)
    # a narrow Gaussian q under a N(0, 1) prior: log p - log q -> +inf in the tails, so the
    # unconstrained RELBO pushes the new scale up without bound
    q = Mixture("gaussian", [[1.0, -1.0, 0.5]], np.full((1, 3), -2.5), [1.0])
    init = Component("gaussian", [1.2, -0.8, 0.4], np.full(3, -2.0))
    free = greedy_step(target, "gaussian", q, rng=np.random.default_rng(8), max_iter=300, lr=0.05, init=init).component
    boxed = greedy_step(target, "gaussian", q, rng=np.random.default_rng(8), max_iter=300, lr=0.05, init=init,
                           log_scale_bounds=(-5.0, -1.0)).component
    assert np.all(boxed.log_scale <= -1.0) and np.all(boxed.log_scale >= -5.0)
    assert free.log_scale.max() > 2.0        # the pathology the bound prevents
    with pytest.raises(ValueError, match="low < high"):
        greedy_step(target, "gaussian", q, rng=rng, max_iter=1, log_scale_bounds=(1.0, -1.0))
