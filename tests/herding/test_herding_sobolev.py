"""Sobolev kernels, trigonometric densities and mean elements against independent truth:
explicit Bernoulli polynomials, truncated Fourier series, scipy quadrature."""

from fractions import Fraction

import numpy as np
import pytest
from scipy.integrate import quad

from inferopt.herding import (
    SobolevTarget,
    TrigDensity,
    bernoulli_polynomial,
    mmd2,
    mmd2_uniform_prefix,
    sobolev_kernel,
    sobolev_kernel_fourier,
)

U = np.linspace(0.0, 1.0, 11)


def test_bernoulli_polynomials_match_the_notes():
    np.testing.assert_allclose(bernoulli_polynomial(2, U), U**2 - U + 1 / 6, atol=1e-15)
    np.testing.assert_allclose(bernoulli_polynomial(4, U), U**4 - 2 * U**3 + U**2 - 1 / 30, atol=1e-15)
    B6 = U**6 - 3 * U**5 + 2.5 * U**4 - 0.5 * U**2 + 1 / 42
    np.testing.assert_allclose(bernoulli_polynomial(6, U), B6, atol=1e-15)


def test_bernoulli_numbers_are_exact():
    # B_n(0) = B_n to the last bit (scipy.special.bernoulli's B_4 is 5.7e-14 off, an absolute error the test above
    # cannot see at its default rtol); and the order-2 kernel's diagonal 1/720 (B_4 / 4!) to round-off
    for n, exact in [(2, Fraction(1, 6)), (4, Fraction(-1, 30)), (6, Fraction(1, 42)), (8, Fraction(-1, 30)),
                     (12, Fraction(-691, 2730))]:
        assert bernoulli_polynomial(n, 0.0) == float(exact)
    np.testing.assert_allclose(sobolev_kernel([0.25], [0.25], 2), 1 / 720, rtol=4e-16, atol=0)


@pytest.mark.parametrize("s", [1, 2, 3, 4])
def test_bernoulli_and_fourier_forms_agree(s):
    rng = np.random.default_rng(s)
    x, y = rng.uniform(size=9), rng.uniform(size=7)
    M = 20_000
    tail = 2 * (2 * np.pi) ** (-2 * s) * M ** (1 - 2 * s) / (2 * s - 1)   # bound on the truncated sum
    np.testing.assert_allclose(sobolev_kernel(x, y, s), sobolev_kernel_fourier(x, y, s, M), atol=tail + 1e-15)
    K = sobolev_kernel(U, U, s)
    assert np.linalg.eigvalsh(K).min() > -1e-14 and np.allclose(K, K.T)


@pytest.fixture(params=[0, 1])
def density(request):
    return TrigDensity.random(np.random.default_rng(10 + request.param), degree=2 + request.param)


def test_density_is_a_density_with_the_stated_moments(density):
    assert quad(density.pdf, 0, 1, epsabs=1e-13)[0] == pytest.approx(1.0, abs=1e-12)
    assert density.pdf(np.linspace(0, 1, 2001)).min() >= -1e-14
    for k, m in enumerate(density.m):
        c = quad(lambda x: density.pdf(x) * np.cos(2 * np.pi * m * x), 0, 1, epsabs=1e-13, limit=200)[0]
        s = quad(lambda x: density.pdf(x) * np.sin(2 * np.pi * m * x), 0, 1, epsabs=1e-13, limit=200)[0]
        assert (c, s) == pytest.approx((density.cos_moments[k], density.sin_moments[k]), abs=1e-11)
    for x in (0.13, 0.5, 0.91):
        assert density.cdf(x) == pytest.approx(quad(density.pdf, 0, x, epsabs=1e-13)[0], abs=1e-11)
    u = np.array([0.01, 0.3, 0.77, 0.999])
    np.testing.assert_allclose(density.cdf(density.ppf(u)), u, atol=1e-12)


@pytest.mark.parametrize("s", [1, 2])
def test_mean_element_and_its_norm_by_quadrature(density, s):
    target = SobolevTarget(s, density)
    ys = np.array([0.05, 0.4, 0.83])

    def inner(y):  # E_{x~p} k(x, y) by quadrature (kink at x = y for s = 1)
        f = lambda x: density.pdf(x) * sobolev_kernel([x], [y], s)[0, 0]  # noqa: E731
        return quad(f, 0, 1, points=[y], epsabs=1e-13, limit=200)[0]

    np.testing.assert_allclose(target.mean(ys), [inner(y) for y in ys], atol=1e-11)
    # ||mu||^2 = E_{y~p} mu(y), with mu checked pointwise above
    norm2 = quad(lambda y: density.pdf(y) * target.mean(np.atleast_1d(y))[0], 0, 1, epsabs=1e-14, limit=200)[0]
    assert target.mean_sqnorm == pytest.approx(norm2, abs=1e-12)


def test_uniform_density_has_zero_mean_element():
    target = SobolevTarget(1, TrigDensity.uniform())
    assert target.mean_sqnorm == 0.0 and np.all(target.mean(U) == 0.0)
    # ||mu - mu_hat||^2 of n equispaced points (weights 1/n) is sum_{m: n | m} 2 / (2 pi m)^2 = 1 / (12 n^2)
    for n in (1, 4, 10):
        assert mmd2(target, np.arange(n) / n) == pytest.approx(1 / (12 * n**2), rel=1e-12)


@pytest.mark.parametrize("s", [1, 2])
def test_mmd2_equals_its_fourier_series(density, s):
    rng = np.random.default_rng(5)
    x, w = rng.uniform(size=15), rng.dirichlet(np.ones(15))
    target = SobolevTarget(s, density)
    # ||mu - mu_hat||^2 = sum_m 2 |P_m - sum_i w_i e^{-2 pi i m x_i}|^2 / (2 pi m)^(2s)
    M = 50_000 if s == 1 else 5_000
    m = np.arange(1, M + 1)
    P = np.zeros(M, dtype=complex)
    P[: len(density.m)] = density.coef[1:]
    emp = np.exp(-2j * np.pi * np.outer(m, x)) @ w
    series = np.sum(2 * np.abs(P - emp) ** 2 / (2 * np.pi * m) ** (2 * s))
    assert mmd2(target, x, w) == pytest.approx(series, rel=1e-4 if s == 1 else 1e-10)
    # all prefixes at once = one at a time
    prefix = mmd2_uniform_prefix(target, x)
    np.testing.assert_allclose(prefix, [mmd2(target, x[:t]) for t in range(1, 16)], rtol=1e-10, atol=1e-15)
