"""Gradients of the stochastic Chebyshev estimators: recursion (6), the adjoint/amortised form for
θθᵀ + εI, finite differences of the same estimator, and -- in expectation -- the exact gradient
U f'(Λ) Uᵀ from an eigen-decomposition (Lemma 1, Eq. 8)."""

import numpy as np
import pytest

from inferopt.spectral import (
    ChebyshevSeries,
    LowRankShiftOperator,
    chebyshev_moments,
    derivative_moments,
    exact_grad_lowrank,
    exact_matrix_gradient,
    grad_lowrank,
    grad_recursion,
    lowrank_derivatives,
    make_degree_rule,
    matrix_gradient,
    quadratic_forms,
    rademacher,
    replicated_grad_estimates,
    spectral_bounds,
    spectral_sum_grad,
    spectral_sum_grad_lowrank,
)


def problem(seed, d=9, r=3, eps=0.2):
    rng = np.random.default_rng(seed)
    theta = rng.uniform(0, 1, (d, r))
    A = theta @ theta.T + eps * np.eye(d)
    a, b = spectral_bounds(A, lower=eps, rng=seed)
    return theta, eps, A, a, b


@pytest.mark.parametrize("f", ["sqrt", "log", "exp"])
@pytest.mark.parametrize("n", [1, 2, 5, 13])
def test_amortised_gradient_equals_recursion_6(f, n):
    theta, eps, A, a, b = problem(n)
    weights = ChebyshevSeries(f, a, b).coefficients(n)
    V = rademacher(n, A.shape[0], 4)
    general = grad_recursion(A, lowrank_derivatives(theta), V, weights, a, b).reshape(theta.shape)
    amortised = grad_lowrank(theta, eps, V, weights, a, b)
    np.testing.assert_allclose(amortised, general, rtol=1e-10, atol=1e-12 * np.abs(general).max())


@pytest.mark.parametrize("n", [1, 3, 9])
@pytest.mark.parametrize("seed", [0, 1])
def test_gradients_match_finite_differences_of_the_same_estimator(n, seed):
    theta, eps, A, a, b = problem(seed)
    rng = np.random.default_rng(seed)
    weights = rng.standard_normal(n + 1)
    V = rademacher(rng, A.shape[0], 3)

    def y(t):
        return quadratic_forms(t @ t.T + eps * np.eye(t.shape[0]), V, weights, a, b).mean()

    g = grad_lowrank(theta, eps, V, weights, a, b)
    for _ in range(4):  # random directions
        D = rng.standard_normal(theta.shape)
        h = 1e-5
        fd = (y(theta + h * D) - y(theta - h * D)) / (2 * h)
        assert np.sum(g * D) == pytest.approx(fd, rel=1e-6, abs=1e-7 * np.linalg.norm(g) * np.linalg.norm(D))
    # general recursion (6) for a non-low-rank A(θ) = B0 + Σ θ_i B_i
    Bs = [rng.standard_normal((8, 8)) for _ in range(3)]
    Bs = [0.05 * (B + B.T) for B in Bs]
    B0 = 2.0 * np.eye(8)
    th = np.array([0.3, -0.2, 0.5])

    def Aof(t):
        return B0 + sum(ti * Bi for ti, Bi in zip(t, Bs))

    W8 = rademacher(rng, 8, 3)
    g6 = grad_recursion(Aof(th), Bs, W8, weights, 1.0, 3.0)
    for i in range(3):
        e = np.eye(3)[i] * 1e-5
        fd = (quadratic_forms(Aof(th + e), W8, weights, 1.0, 3.0).mean()
              - quadratic_forms(Aof(th - e), W8, weights, 1.0, 3.0).mean()) / 2e-5
        assert g6[i] == pytest.approx(fd, rel=1e-6, abs=1e-8)
    # the dense matrix gradient: directional derivative along a symmetric E
    E = rng.standard_normal((9, 9))
    E = E + E.T
    G = matrix_gradient(A, V, weights, a, b)
    fd = (quadratic_forms(A + 1e-6 * E, V, weights, a, b).mean() - quadratic_forms(A - 1e-6 * E, V, weights, a, b).mean()) / 2e-6
    assert np.sum(G * E) == pytest.approx(fd, rel=1e-6, abs=1e-8)


def test_exact_gradients_match_finite_differences():
    theta, eps, A, _, _ = problem(3)
    rng = np.random.default_rng(0)
    for f, fun in [("log", np.log), ("sqrt", np.sqrt)]:
        g = exact_grad_lowrank(theta, eps, f)
        D = rng.standard_normal(theta.shape)

        def F(t):
            return np.sum(fun(np.linalg.eigvalsh(t @ t.T + eps * np.eye(t.shape[0]))))

        fd = (F(theta + 1e-6 * D) - F(theta - 1e-6 * D)) / 2e-6
        assert np.sum(g * D) == pytest.approx(fd, rel=1e-6)
    # a user function: derivative from its Chebyshev series
    user = exact_matrix_gradient(A, lambda x: np.log(x))
    np.testing.assert_allclose(user, exact_matrix_gradient(A, "log"), rtol=1e-8, atol=1e-10)


def replicate_matrix_gradients(A, rule, a, b, directions, *, R, M, seed):
    rng = np.random.default_rng(seed)
    out = np.empty((R, len(directions)))
    E = np.stack(directions)
    for r in range(R):
        G = matrix_gradient(A, rademacher(rng, A.shape[0], M), rule.draw(rng), a, b)
        out[r] = np.einsum("kij,ij->k", E, G)
    return out


def sym_directions(d, k, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(k):
        E = rng.standard_normal((d, d))
        out.append((E + E.T) / 2)
    return out


@pytest.mark.parametrize("name", ["log", "sqrt"])
@pytest.mark.parametrize("distribution,N", [("optimal", 4), ("negative binomial", 6)])
def test_randomised_matrix_gradient_is_unbiased(name, distribution, N, spd_matrix):
    A = spd_matrix(12, np.linspace(0.08, 0.9, 12), 7)
    a, b = 0.05, 0.95
    dirs = sym_directions(12, 3, seed=1)
    exact = np.array([np.sum(exact_matrix_gradient(A, name) * E) for E in dirs])
    rule = make_degree_rule(ChebyshevSeries(name, a, b), N=N, distribution=distribution)
    est = replicate_matrix_gradients(A, rule, a, b, dirs, R=3000, M=2, seed=N)
    se = est.std(axis=0, ddof=1) / np.sqrt(est.shape[0])
    assert np.all(np.abs(est.mean(axis=0) - exact) < 4 * se), (est.mean(axis=0), exact, se)
    # the fixed-degree (biased) gradient at a small degree misses, detectably
    fixed = replicate_matrix_gradients(A, make_degree_rule(ChebyshevSeries(name, a, b), degree=2), a, b, dirs,
                                       R=1500, M=2, seed=N + 1)
    se_f = fixed.std(axis=0, ddof=1) / np.sqrt(fixed.shape[0])
    assert np.any(np.abs(fixed.mean(axis=0) - exact) > 4 * se_f)


@pytest.mark.parametrize("name", ["log", "sqrt"])
def test_randomised_lowrank_gradient_is_unbiased(name):
    theta, eps, A, a, b = problem(11, d=10, r=3, eps=0.1)
    exact = exact_grad_lowrank(theta, eps, name)
    rng = np.random.default_rng(5)
    dirs = rng.standard_normal((3,) + theta.shape)
    R = 2500
    est = np.empty((R, 3))
    for r in range(R):
        g, _ = spectral_sum_grad_lowrank(theta, eps, name, a, b, M=2, N=6, rng=rng)
        est[r] = np.einsum("kij,ij->k", dirs, g)
    target = np.einsum("kij,ij->k", dirs, exact)
    se = est.std(axis=0, ddof=1) / np.sqrt(R)
    assert np.all(np.abs(est.mean(axis=0) - target) < 4 * se), (est.mean(axis=0), target, se)


def test_spectral_sum_grad_front_end():
    theta, eps, A, a, b = problem(2, d=6, r=2)
    dA = lowrank_derivatives(theta)
    g1, n1 = spectral_sum_grad(A, dA, "sqrt", a, b, M=3, degree=7, rng=4)
    g2, n2 = spectral_sum_grad_lowrank(theta, eps, "sqrt", a, b, M=3, degree=7, rng=4)
    assert n1 == n2 == 7
    np.testing.assert_allclose(g1.reshape(theta.shape), g2, rtol=1e-10)
    assert LowRankShiftOperator(theta, eps).matmat(np.eye(6)) == pytest.approx(A)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: spectral_sum_grad(np.triu(np.ones((4, 4))), [np.eye(4)], "log", 0.1, 5, N=3), "symmetric"),
        (lambda: spectral_sum_grad(np.eye(4), [np.triu(np.ones((4, 4)))], "log", 0.1, 5, N=3, rng=0), "dA\\[0\\].*symmetric"),
        (lambda: spectral_sum_grad(np.eye(4), [np.eye(4)], "log", 0.1, 5, M=0, N=3), "M"),
        (lambda: spectral_sum_grad_lowrank(np.ones((4, 2)), 0.1, "sqrt", 0.1, 9.0, N=-3), "N"),
        (lambda: spectral_sum_grad_lowrank(np.ones((4, 2)), -0.1, "sqrt", 0.1, 9.0, N=3), "eps"),
        (lambda: spectral_sum_grad_lowrank(np.ones(4), 0.1, "sqrt", 0.1, 9.0, N=3), "theta"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_lowrank_front_end_checks_the_bounds():
    theta = np.full((5, 2), 2.0)  # λ_max(θθᵀ) = 40
    with pytest.raises(ValueError, match="do not contain the spectrum"):
        spectral_sum_grad_lowrank(theta, 0.1, "sqrt", 0.1, 20.0, N=3, rng=0)
    g, _ = spectral_sum_grad_lowrank(theta, 0.1, "sqrt", 0.1, 45.0, N=3, rng=0)
    assert g.shape == theta.shape


def test_derivative_moments_match_finite_differences_of_the_moments(spd_matrix):
    # nu[j, i, k] = d/dt v_kᵀ T_j(Ã(A + t E_i)) v_k, against central differences of chebyshev_moments
    rng = np.random.default_rng(3)
    A = spd_matrix(10, np.linspace(0.2, 0.8, 10), rng)
    dirs = sym_directions(10, 2, seed=4)
    V = rademacher(rng, 10, 3)
    nu = derivative_moments(A, dirs, V, 8, 0.05, 0.95)
    h = 1e-6
    for i, E in enumerate(dirs):
        fd = (chebyshev_moments(A + h * E, V, 8, 0.05, 0.95) - chebyshev_moments(A - h * E, V, 8, 0.05, 0.95)) / (2 * h)
        np.testing.assert_allclose(nu[:, i, :], fd, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["log", "sqrt"])
def test_replicated_recursion_gradients_are_unbiased_and_fixed_degree_is_not(name, spd_matrix):
    # Lemma 1 (Eq. 8) for the recursion (6): mean of R estimates of <∇ tr f(A), E> within 4 SE of the exact value
    rng = np.random.default_rng(11)
    A = spd_matrix(12, np.geomspace(0.06, 0.9, 12), rng)
    a, b = 0.05, 0.95
    dirs = sym_directions(12, 2, seed=2)
    exact = np.array([np.sum(exact_matrix_gradient(A, name) * E) for E in dirs])
    series = ChebyshevSeries(name, a, b)
    est = replicated_grad_estimates(A, dirs, make_degree_rule(series, N=5), a, b, R=3000, M=2, rng=1)
    se = est.std(axis=0, ddof=1) / np.sqrt(est.shape[0])
    assert np.all(np.abs(est.mean(axis=0) - exact) < 4 * se), (est.mean(axis=0), exact, se)
    fixed = replicated_grad_estimates(A, dirs, make_degree_rule(series, degree=2), a, b, R=1500, M=2, rng=2)
    se_f = fixed.std(axis=0, ddof=1) / np.sqrt(fixed.shape[0])
    assert np.any(np.abs(fixed.mean(axis=0) - exact) > 4 * se_f)


def test_lowrank_derivatives_are_the_finite_differences_of_theta_theta_t():
    rng = np.random.default_rng(3)
    theta = rng.standard_normal((4, 3))
    dA = lowrank_derivatives(theta)
    assert dA.shape == (12, 4, 4)
    h = 1e-6
    for i, (p, q) in enumerate(np.ndindex(4, 3)):
        step = np.zeros_like(theta)
        step[p, q] = h
        fd = ((theta + step) @ (theta + step).T - (theta - step) @ (theta - step).T) / (2 * h)
        np.testing.assert_allclose(dA[i], fd, atol=1e-8)
    with pytest.raises(ValueError, match="theta"):
        lowrank_derivatives(np.ones(3))
