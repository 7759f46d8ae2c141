"""D1 pieces against independent truth: closed-form Chebyshev coefficients, exact sums of
the degree distributions, Lemma 2 against direct quadrature, Theorem 3 against a
numerical solution of the relaxed problem (10)."""

import numpy as np
import pytest

from inferopt.spectral import (
    NegativeBinomialDegrees,
    OptimalDegrees,
    PoissonDegrees,
    bernstein_rho,
    chebyshev_coefficients,
    chebyshev_eval,
    chebyshev_weighted_variance,
    fit_decay,
    get_function,
    make_degree_distribution,
)

FUNCS = [("log", 0.05, 0.95), ("sqrt", 0.05, 0.95), ("exp", -1.0, 1.0)]


@pytest.mark.parametrize("name,a,b", FUNCS)
def test_coefficients_reproduce_f_on_a_grid(name, a, b):
    f, _ = get_function(name)
    coeffs = chebyshev_coefficients(f, a, b)
    x = np.linspace(a, b, 2001)
    assert np.max(np.abs(chebyshev_eval(coeffs, x, a, b) - f(x))) < 1e-12


def test_user_function_and_fixed_degree():
    f = lambda x: 1.0 / (2.0 + x)  # noqa: E731 - analytic on [-1, 1], pole at -2
    coeffs = chebyshev_coefficients(f, -1.0, 1.0)
    x = np.linspace(-1, 1, 501)
    assert np.max(np.abs(chebyshev_eval(coeffs, x, -1, 1) - f(x))) < 1e-12
    assert chebyshev_coefficients(f, -1.0, 1.0, degree=5).shape == (6,)
    padded = chebyshev_coefficients(np.exp, -1.0, 1.0, degree=200)
    assert padded.shape == (201,) and np.all(padded[30:] == 0)


@pytest.mark.parametrize("a,b", [(0.05, 0.95), (0.5, 3.0), (1e-3, 1.0)])
def test_log_coefficients_match_closed_form(a, b):
    # log(x) with x = (b-a)/2 (t + s), s = (rho + 1/rho)/2:  b_j = 2 (-1)^(j+1) / (j rho^j), j >= 1
    coeffs = chebyshev_coefficients(np.log, a, b)
    rho = bernstein_rho(a, b, 0.0)
    j = np.arange(1, min(coeffs.size, 40))
    exact = 2.0 * (-1.0) ** (j + 1) / (j * rho**j)
    np.testing.assert_allclose(coeffs[j], exact, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(coeffs[0], np.log((b - a) / 2) + np.log(rho / 2), rtol=1e-12)


def test_decay_fit_recovers_a_known_rate():
    j = np.arange(60)
    c, rho, r2 = fit_decay(0.3 * 1.7 ** (-j.astype(float)))
    assert rho == pytest.approx(1.7, rel=1e-9) and c == pytest.approx(0.09, rel=1e-6) and r2 > 0.999999


DISTS = [
    lambda N: OptimalDegrees(N, 1.6),
    lambda N: OptimalDegrees(N, 12.0),
    lambda N: PoissonDegrees(N),
    lambda N: NegativeBinomialDegrees(N, 0.5),
    lambda N: NegativeBinomialDegrees(N, 0.2),
]


@pytest.mark.parametrize("make", DISTS)
@pytest.mark.parametrize("N", [1, 5, 15, 60])
def test_distributions_sum_to_one_with_mean_N(make, N):
    dist = make(N)
    i = np.arange(4000)
    q = dist.pmf(i)
    assert np.all(q >= 0)
    assert q.sum() == pytest.approx(1.0, abs=1e-12)
    assert (i * q).sum() == pytest.approx(N, rel=1e-10)
    # head/tail are the partial sums of the pmf
    np.testing.assert_allclose(dist.head(i[:200]), np.concatenate([[0.0], np.cumsum(q[:199])]), atol=1e-12)
    np.testing.assert_allclose(dist.tail(i[:200]) + dist.head(i[:200]), 1.0, atol=1e-12)


@pytest.mark.parametrize("make", DISTS)
def test_samplers_have_mean_N(make):
    N = 15
    draws = make(N).sample(np.random.default_rng(1), 200_000)
    se = draws.std(ddof=1) / np.sqrt(draws.size)
    assert abs(draws.mean() - N) < 4 * se


def test_optimal_distribution_matches_theorem_3():
    N, rho = 10, 1.6
    d = OptimalDegrees(N, rho)
    K = N - int(np.floor(rho / (rho - 1)))  # 10 - 2
    assert d.K == K
    assert d.pmf(K) == pytest.approx(1 - (N - K) * (rho - 1) / rho)
    assert d.pmf(K + 3) == pytest.approx((N - K) * (rho - 1) ** 2 * rho ** (-3 - 1))
    assert np.all(d.pmf(np.arange(K)) == 0)


def _relaxed_objective(tail, rho):
    """Objective (10) written in the tails S_j = P(n >= j), j = 1..J: sum rho^-2j (1 - S_j) / S_j."""
    j = np.arange(1, tail.size + 1)
    return np.sum(rho ** (-2.0 * j) * (1.0 - tail) / tail)


@pytest.mark.parametrize("N,rho", [(3, 1.6), (6, 2.5), (4, 1.5)])
def test_theorem_3_solves_the_relaxed_problem(N, rho):
    # Independent solution of (10) in the tails S_j = P(n >= j): minimise sum_j a_j (1 - S_j) / S_j, a_j = rho^-2j,
    # over 0 < S_j <= 1 with sum_j S_j = N. For a multiplier mu the Lagrangian is minimised by S_j = min(1, sqrt(a_j / mu)),
    # which is non-increasing in j because a_j is, so the ordering constraints are inactive; mu is found by bisection so
    # that the tails sum to N (a convex problem: this KKT point is its minimum). A numerical solver (SLSQP) was used
    # here before and returned points off its constraints under some BLAS kernels.
    J = N + 80
    a = rho ** (-2.0 * np.arange(1, J + 1))
    tails = lambda log_mu: np.minimum(1.0, np.sqrt(a / np.exp(log_mu)))
    lo, hi = np.log(a.min()) - 10.0, np.log(a.max()) + 10.0   # sum(tails) is J at lo and < 1 at hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if tails(mid).sum() > N else (lo, mid)
    reference = tails(0.5 * (lo + hi))
    assert reference.sum() == pytest.approx(N, rel=1e-9) and np.all(np.diff(reference) <= 0) and reference.max() <= 1.0
    optimal_tail = OptimalDegrees(N, rho).tail(np.arange(1, J + 1))
    assert optimal_tail.sum() == pytest.approx(N, rel=1e-6)  # feasible (the tail beyond J is negligible)
    assert _relaxed_objective(optimal_tail, rho) == pytest.approx(_relaxed_objective(reference, rho), rel=1e-6)
    # and no perturbation that keeps the constraints improves on it
    rng = np.random.default_rng(0)
    for _ in range(20):
        moved = np.minimum.accumulate(np.clip(optimal_tail * np.exp(0.05 * rng.standard_normal(J)), 1e-12, 1.0))
        free = moved < 1.0
        moved[free] *= (N - np.count_nonzero(~free)) / moved[free].sum()
        if moved.max() <= 1.0 and np.all(np.diff(moved) <= 1e-15):
            assert _relaxed_objective(optimal_tail, rho) <= _relaxed_objective(moved, rho) * (1 + 1e-9)


def _direct_variance(coeffs, dist, n_nodes=400):
    """E_n ||p̂_n - f||_C^2 by Gauss-Chebyshev quadrature (exact for these polynomials), f = the series."""
    theta = np.pi * (np.arange(n_nodes) + 0.5) / n_nodes
    T = np.cos(np.outer(np.arange(coeffs.size), theta))  # T_j at the nodes
    f = coeffs @ T
    w = dist.reweight(coeffs)
    J = coeffs.size - 1
    total = 0.0
    for r in range(J + 1):  # degrees r >= J all give p̂_J
        prob = dist.pmf(r) if r < J else dist.tail(J)
        p_hat = w[: r + 1] @ T[: r + 1]
        total += prob * np.pi / n_nodes * np.sum((p_hat - f) ** 2)
    return total


@pytest.mark.parametrize("name,a,b", FUNCS)
@pytest.mark.parametrize("dist_name", ["optimal", "poisson", "negative binomial"])
def test_lemma_2_agrees_with_direct_quadrature(name, a, b, dist_name):
    f, _ = get_function(name)
    coeffs = chebyshev_coefficients(f, a, b)[:25]  # a polynomial: its variance is finite for every distribution
    dist = make_degree_distribution(dist_name, 8, rho=1.6)
    closed = chebyshev_weighted_variance(coeffs, dist)
    assert closed > 0
    assert closed == pytest.approx(_direct_variance(coeffs, dist), rel=1e-8)


def test_optimal_has_smaller_variance_than_poisson_for_log():
    coeffs = chebyshev_coefficients(np.log, 0.05, 0.95)
    rho = bernstein_rho(0.05, 0.95, 0.0)
    for N in (5, 20, 40):
        opt = chebyshev_weighted_variance(coeffs, OptimalDegrees(N, rho))
        assert opt < chebyshev_weighted_variance(coeffs, PoissonDegrees(N))
        assert opt < chebyshev_weighted_variance(coeffs, NegativeBinomialDegrees(N))


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: OptimalDegrees(-1, 1.5), "N"),
        (lambda: OptimalDegrees(2.5, 1.5), "integer"),
        (lambda: OptimalDegrees(5, 1.0), "rho"),
        (lambda: PoissonDegrees(-0.5), "N"),
        (lambda: NegativeBinomialDegrees(5, 1.0), "p"),
        (lambda: chebyshev_coefficients(np.log, 0.5, 0.5), "a < b"),
        (lambda: chebyshev_coefficients(np.log, 1.0, 0.5), "a < b"),
        (lambda: chebyshev_coefficients(np.log, -0.5, 0.5), "finite"),
        (lambda: chebyshev_coefficients(np.abs, -1.0, 1.0), "converge"),
        (lambda: chebyshev_coefficients("log", 0.1, 1.0), "callable"),
        (lambda: bernstein_rho(0.05, 0.95, 0.5), "inside"),
        (lambda: make_degree_distribution("uniform", 5), "one of"),
        (lambda: make_degree_distribution("optimal", 5), "rho"),
        (lambda: get_function("tan"), "unknown function"),
    ],
)
def test_invalid_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()
