"""Hutchinson-Chebyshev estimators of tr f(A) (Eqs. 3, 7, Lemma 1) against independent truth:
numpy's Chebyshev class on the eigenvalues, exact eigen-decompositions, and statistics over
many independent replications."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.polynomial import Chebyshev
from scipy.sparse.linalg import aslinearoperator

from inferopt.spectral import (
    CallableOperator,
    ChebyshevSeries,
    ShiftedOperator,
    chebyshev_moments,
    check_bounds,
    exact_spectral_sum,
    make_degree_rule,
    quadratic_forms,
    rademacher,
    replicated_estimates,
    spectral_bounds,
    spectral_sum,
)


def spectrum_between(d, lo, hi):
    """Sorted uniform eigenvalues in [lo, hi] that reach both ends (a function of the generator)."""
    def draw(rng):
        lam = np.sort(rng.uniform(lo, hi, d))
        lam[0], lam[-1] = lo, hi
        return lam
    return draw


def random_spd(spd_matrix, d, lo, hi, seed):
    """A random SPD matrix with spectrum in [lo, hi] (both ends included) and its eigenvalues."""
    A = spd_matrix(d, spectrum_between(d, lo, hi), seed)
    return A, np.linalg.eigvalsh(A)


@pytest.mark.parametrize("kind", ["dense", "sparse", "linear_operator"])
@pytest.mark.parametrize("n", [0, 1, 2, 7, 20])
def test_recursion_matches_numpy_chebyshev_class(kind, n, spd_matrix):
    A, _ = random_spd(spd_matrix, 15, 0.2, 3.0, seed=n)
    a, b = 0.1, 3.5
    rng = np.random.default_rng(100 + n)
    V = rademacher(rng, 15, 3)
    coeffs = rng.standard_normal(n + 1)
    mat = {"dense": A, "sparse": sp.csr_matrix(A), "linear_operator": aslinearoperator(A)}[kind]
    got = quadratic_forms(mat, V, coeffs, a, b)
    # independent: p(A) = U p(Λ) Uᵀ with p evaluated by numpy's Chebyshev class on domain [a, b]
    lam, U = np.linalg.eigh(A)
    pA = (U * Chebyshev(coeffs, domain=[a, b])(lam)) @ U.T
    np.testing.assert_allclose(got, np.einsum("ik,ij,jk->k", V, pA, V), rtol=1e-10, atol=1e-10)


def test_moments_are_the_chebyshev_basis(spd_matrix):
    A, _ = random_spd(spd_matrix, 10, 0.3, 0.9, seed=3)
    V = rademacher(4, 10, 2)
    mu = chebyshev_moments(A, V, 6, 0.05, 0.95)
    lam, U = np.linalg.eigh(A)
    for j in range(7):
        Tj = (U * Chebyshev.basis(j, domain=[0.05, 0.95])(lam)) @ U.T
        np.testing.assert_allclose(mu[j], np.einsum("ik,ij,jk->k", V, Tj, V), rtol=1e-11, atol=1e-11)


def test_rademacher_probes():
    V = rademacher(np.random.default_rng(0), 400, 50)
    assert V.shape == (400, 50) and set(np.unique(V)) == {-1.0, 1.0}
    assert abs(V.mean()) < 4 / np.sqrt(V.size)
    np.testing.assert_array_equal(V, rademacher(np.random.default_rng(0), 400, 50))


def replicate_estimates(A, rule, a, b, *, R, M, seed):
    return replicated_estimates(A, rule, a, b, R=R, M=M, rng=seed)


CASES = [("log", 0.05, 0.95, 0.1, 0.9), ("sqrt", 0.05, 0.95, 0.1, 0.9), ("log", 0.5, 20.0, 0.6, 18.0)]


@pytest.mark.parametrize("name,a,b,lo,hi", CASES)
@pytest.mark.parametrize("distribution,N", [("optimal", 4), ("optimal", 10), ("poisson", 6), ("negative binomial", 6)])
def test_randomised_estimator_is_unbiased(name, a, b, lo, hi, distribution, N, spd_matrix):
    A, lam = random_spd(spd_matrix, 20, lo, hi, seed=int(10 * hi) + N)
    exact = exact_spectral_sum(A, name)
    assert exact == pytest.approx(np.sum(getattr(np, name)(lam)), rel=1e-10)
    rule = make_degree_rule(ChebyshevSeries(name, a, b), N=N, distribution=distribution)
    est = replicate_estimates(A, rule, a, b, R=4000, M=2, seed=N)
    se = est.std(ddof=1) / np.sqrt(est.size)
    assert abs(est.mean() - exact) < 4 * se, (est.mean(), exact, se)


@pytest.mark.parametrize("name,a,b,lo,hi", CASES)
def test_fixed_degree_estimator_bias_is_detected(name, a, b, lo, hi, spd_matrix):
    # a spectrum crowded at the singular end of [a, b], where the truncation error is largest
    A, _ = random_spd(spd_matrix, 20, a, a + 0.15 * (b - a), seed=5)
    exact = exact_spectral_sum(A, name)
    series = ChebyshevSeries(name, a, b)
    est = replicate_estimates(A, make_degree_rule(series, degree=2), a, b, R=2000, M=2, seed=1)
    se = est.std(ddof=1) / np.sqrt(est.size)
    assert abs(est.mean() - exact) > 4 * se
    # ... and it is the bias of the truncated polynomial: tr p_2(A) within 4 SE
    lam = np.linalg.eigvalsh(A)
    assert abs(est.mean() - np.sum(Chebyshev(series.coefficients(2), domain=[a, b])(lam))) < 4 * se
    # at a high degree the truncation error is negligible next to the probe noise
    est_hi = replicate_estimates(A, make_degree_rule(series, degree=60), a, b, R=2000, M=2, seed=2)
    assert abs(est_hi.mean() - exact) < 4 * est_hi.std(ddof=1) / np.sqrt(est_hi.size)


def test_spectral_sum_front_end_and_user_function(spd_matrix):
    A, lam = random_spd(spd_matrix, 30, 0.5, 2.0, seed=9)
    f = lambda x: x * np.exp(-x)  # noqa: E731 - entire, no named singularity
    exact = np.sum(f(lam))
    est = spectral_sum(A, f, 0.4, 2.1, M=400, degree=30, rng=0)
    assert est.samples.shape == (400,) and est.degree == 30
    assert abs(est.value - exact) < 5 * est.stderr
    est = spectral_sum(ShiftedOperator(A - 0.25 * np.eye(30), 0.25), "exp", 0.4, 2.1, M=400, N=8, rng=1)
    assert abs(est.value - np.sum(np.exp(lam))) < 5 * est.stderr


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_spectral_bounds_contain_the_spectrum(seed, spd_matrix):
    A, lam = random_spd(spd_matrix, 200, 0.01, 7.0, seed=seed)
    a, b = spectral_bounds(A, n_steps=20, margin=0.05, rng=seed)
    assert a <= lam[0] and b >= lam[-1]
    assert b < 1.2 * lam[-1]
    a, b = spectral_bounds(A, lower=1e-3, rng=seed)
    assert a == 1e-3
    check_bounds(A, a, b, rng=seed)


@pytest.mark.parametrize("d", [8, 100])
def test_check_bounds_detects_a_missed_spectrum(d, spd_matrix):
    A, lam = random_spd(spd_matrix, d, 0.2, 3.0, seed=d)
    with pytest.raises(ValueError, match="do not contain the spectrum"):
        check_bounds(A, 0.1, 2.5, rng=0)
    with pytest.raises(ValueError, match="do not contain the spectrum"):
        spectral_sum(A, "log", 0.1, 2.5, M=5, N=5, rng=0)
    check_bounds(A, 0.1, 3.1, rng=0)


def not_symmetric():
    A = np.eye(5)
    A[0, 1] = 0.5
    return A


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: spectral_sum(not_symmetric(), "log", 0.1, 2.0, N=5), "symmetric"),
        (lambda: spectral_sum(sp.csr_matrix(not_symmetric()), "log", 0.1, 2.0, N=5), "symmetric"),
        (lambda: spectral_sum(np.ones((3, 4)), "log", 0.1, 2.0, N=5), "square"),
        (lambda: spectral_sum(CallableOperator(lambda V: not_symmetric() @ V, 5), "log", 0.1, 2.0, N=5), "symmetric"),
        (lambda: spectral_sum(aslinearoperator(not_symmetric()), "log", 0.1, 2.0, N=5), "symmetric"),
        (lambda: spectral_sum(np.eye(4), "log", 0.1, 2.0, M=0, N=5), "M"),
        (lambda: spectral_sum(np.eye(4), "log", 0.1, 2.0, N=-1), "N"),
        (lambda: spectral_sum(np.eye(4), "log", 0.1, 2.0, degree=-2), "degree"),
        (lambda: spectral_sum(np.eye(4), "log", 0.1, 2.0), "degree .* or N"),
        (lambda: spectral_sum(np.eye(4), "log", 0.1, 2.0, degree=3, N=3), "not both"),
        (lambda: spectral_sum(np.eye(4), "log", -1.0, 2.0, N=5), "finite"),
        (lambda: spectral_sum(np.eye(4), np.abs, -1.0, 2.0, N=5), "analytic"),
        (lambda: spectral_sum(np.eye(4), "tan", 0.1, 2.0, N=5), "unknown function"),
        (lambda: spectral_sum(np.eye(4), "log", 2.0, 0.1, N=5), "a < b"),
        (lambda: spectral_sum(np.eye(4) * 3, "log", 0.1, 2.0, N=5), "do not contain"),
        (lambda: spectral_sum(np.eye(4) * np.nan, "log", 0.1, 2.0, N=5), "finite"),
        (lambda: spectral_sum(np.eye(4), "log", 0.1, 2.0, N=5, distribution="uniform"), "one of"),
        (lambda: rademacher(0, 5, 0), "M"),
        (lambda: spectral_bounds(np.eye(4), margin=-1.0), "margin"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_very_wide_interval_falls_back_to_a_fixed_expansion():
    # b/a = 3e8 (smoothed nuclear norm of a MovieLens-size matrix): rho - 1 ~ 1e-4, beyond the adaptive
    # expansion's 2^16 points; a fixed 2^20-point expansion still reproduces sqrt
    series = ChebyshevSeries("sqrt", 1.0, 3e8)
    assert not series.converged and series.rho == pytest.approx(1 + 2 / np.sqrt(3e8), rel=1e-3)
    x = np.geomspace(1.0, 3e8, 50)
    err = Chebyshev(series.coeffs, domain=[1.0, 3e8])(x) - np.sqrt(x)
    assert np.max(np.abs(err)) < 1e-6
    assert ChebyshevSeries("sqrt", 1.0, 1e4).converged


@pytest.mark.parametrize("name,a,b", [("log", 0.05, 0.95), ("sqrt", 0.05, 0.95), ("exp", -1.0, 1.0)])
@pytest.mark.parametrize("distribution,N", [("optimal", 3), ("optimal", 12), ("poisson", 8), ("negative binomial", 8)])
def test_expectation_over_the_degree_is_exact(name, a, b, distribution, N):
    # Lemma 1 without probe noise: Σ_r P(n = r) tr p̂_r(A) = tr f(A), summed exactly over the degrees
    lam = np.linspace(a, b, 9)
    series = ChebyshevSeries(name, a, b)
    dist = make_degree_rule(series, N=N, distribution=distribution).distribution
    J = 300
    weights = dist.reweight(series.coefficients(J))
    T = np.cos(np.outer(np.arange(J + 1), np.arccos(np.clip((2 * lam - a - b) / (b - a), -1, 1))))
    partial = np.cumsum(weights * T.sum(axis=1))  # tr p̂_r(A) for r = 0..J
    q = dist.pmf(np.arange(J + 1))
    expectation = np.sum(q * partial) + dist.tail(J + 1) * partial[-1]
    assert expectation == pytest.approx(np.sum(series.f(lam)), rel=1e-11, abs=1e-11)
    # while a fixed truncation at the mean degree is off (exp converges too fast to tell at N >= 8)
    truncated = np.sum(series.coefficients(N) * T[: N + 1].sum(axis=1))
    assert abs(truncated - np.sum(series.f(lam))) > 1e-6 or (name == "exp" and N >= 8)


@pytest.mark.parametrize("rows", [1, 5, 4096])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 8, 11])
def test_sparse_moments_by_slabs_and_doubling_are_the_chebyshev_basis(rows, n, spd_matrix):
    """``chebyshev_moments`` on a sparse matrix (slab-by-slab products, ``⌈n/2⌉`` of them, moments by
    doubling) against ``v_kᵀ T_j(Ã) v_k`` from an eigendecomposition."""
    from inferopt.spectral._csr_block import chebyshev_products_csr

    A, _ = random_spd(spd_matrix, 23, 0.2, 3.0, seed=n)
    A[np.abs(A) < 0.05] = 0.0                             # a sparse pattern, still symmetric
    a, b = np.linalg.eigvalsh(A)[[0, -1]] + np.array([-0.1, 0.1])
    V = rademacher(7, 23, 3)
    s, c = 2.0 / (b - a), (b + a) / (b - a)
    J = (n + 1) // 2
    sq, cross = chebyshev_products_csr(sp.csr_matrix(A), V, J, s, c, rows=rows)
    mu = chebyshev_moments(sp.csr_matrix(A), V, n, a, b)
    lam, U = np.linalg.eigh(A)
    for j in range(n + 1):
        Tj = (U * Chebyshev.basis(j, domain=[a, b])(lam)) @ U.T
        np.testing.assert_allclose(mu[j], np.einsum("ik,ij,jk->k", V, Tj, V), rtol=1e-10, atol=1e-10)
    for j in range(1, J + 1):                            # the products themselves: w_j = T_j(Ã) v
        W = (U * Chebyshev.basis(j, domain=[a, b])(lam)) @ U.T @ V
        Wp = (U * Chebyshev.basis(j - 1, domain=[a, b])(lam)) @ U.T @ V
        np.testing.assert_allclose(sq[j], np.einsum("ij,ij->j", W, W), rtol=1e-10)
        np.testing.assert_allclose(cross[j], np.einsum("ij,ij->j", W, Wp), rtol=1e-10, atol=1e-10)
