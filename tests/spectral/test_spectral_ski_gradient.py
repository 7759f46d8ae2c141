"""The SKI log-det gradient from one forward recursion (``_ski_gradient``) against the forward-mode
recursion (6) with explicit derivative operators, and its pieces against the adjoint recursion and
explicit Toeplitz matrices: the same polynomial estimator, so equal to rounding."""

import numpy as np
import scipy.sparse as sp
import pytest
from scipy.linalg import toeplitz

from inferopt.spectral import SKIGaussianProcess, rademacher
from inferopt.spectral._ski_gradient import adjoint_coefficients, toeplitz_lag_sums
from inferopt.spectral.gradients import adjoint_factors, grad_recursion
from inferopt.spectral.gp import SGD_PRODUCTS_PER_DEGREE


def small_gp(seed=0, n=150, r=60):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0, 30, n))
    return SKIGaussianProcess(x, np.sin(x / 3) + 0.1 * rng.standard_normal(n), r=r, rng=seed)


@pytest.mark.parametrize("theta", [(1.0, 0.5, 2.0), (0.3, 1.5, 7.0), (2.0, 0.1, 0.6)])
@pytest.mark.parametrize("degree", [0, 1, 2, 17])
def test_spectral_grad_equals_the_forward_recursion(theta, degree):
    gp = small_gp()
    theta = np.array(theta)
    rng = np.random.default_rng(degree)
    a, b = gp.interval(theta)
    V = rademacher(rng, gp.dim, 4)
    weights = rng.standard_normal(degree + 1)
    ref = 0.5 * grad_recursion(gp.operator(theta), gp.derivative_operators(theta), V, weights, a, b)
    got = gp.spectral_grad(theta, V, weights, a, b)
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12 * max(np.abs(ref).max(), 1.0))


class _CountingW(sp.csr_matrix):
    """An interpolation matrix that counts the columns it multiplies: every product with ``A`` or a kernel sandwich
    ``W T Wᵀ`` ends in one product with ``W``."""
    columns = 0

    def __matmul__(self, other):
        _CountingW.columns += 1 if np.ndim(other) == 1 else np.shape(other)[1]
        return super().__matmul__(other)


@pytest.mark.parametrize("degree", [0, 1, 17])
def test_the_work_count_is_the_products_made(degree):
    """The count matches the operations made: per probe the Chebyshev gradient makes its n - 1 products with A (counted
    through W) and applies no sandwich for its derivative contraction, a cross-correlation in the frequency domain (not the
    2n sandwich products it replaces), and counts SGD_PRODUCTS_PER_DEGREE x n, its measured cost; the LANCZOS gradient counts exactly its products with A and with
    each sandwich (CG steps and one per sandwich per probe)."""
    gp = small_gp()
    theta = np.array([1.0, 0.5, 2.0])
    a, b = gp.interval(theta)
    V = rademacher(np.random.default_rng(0), gp.dim, 3)
    gp.W = _CountingW(gp.W)
    made, before = _CountingW.columns, gp.matvecs
    gp.spectral_grad(theta, V, np.ones(degree + 1), a, b)
    assert _CountingW.columns - made == max(degree - 1, 0) * 3
    assert gp.matvecs - before == pytest.approx(SGD_PRODUCTS_PER_DEGREE * degree * 3)
    gp.lanczos_steps = 7
    made, before = _CountingW.columns, gp.matvecs
    gp.lanczos_spectral_grad(theta, V)
    assert gp.matvecs - before == _CountingW.columns - made == 7 * 3 + 2 * 3


@pytest.mark.parametrize("degree", [1, 2, 3, 8, 13])
def test_adjoint_vectors_are_combinations_of_the_forward_vectors(degree):
    """``X = Y C`` block by block, with ``X, Y`` from the backward/forward recursions."""
    rng = np.random.default_rng(degree)
    B = rng.standard_normal((30, 30))
    A = B @ B.T / 30 + np.eye(30)
    a, b = 0.5, 1.1 * np.linalg.eigvalsh(A)[-1]
    V = rademacher(rng, 30, 3)
    weights = rng.standard_normal(degree + 1)
    X, Y = adjoint_factors(A, V, weights, a, b)
    C = adjoint_coefficients(weights, 2.0 / (b - a))
    Yb = Y.reshape(30, degree, 3)
    np.testing.assert_allclose(np.einsum("ji,dip->djp", C, Yb).reshape(30, -1), X, rtol=1e-10,
                               atol=1e-12 * np.abs(X).max())


def test_lag_sums_give_every_toeplitz_bilinear_form():
    rng = np.random.default_rng(3)
    r, m, L = 40, 7, 96                                    # any L >= 2r - 1
    Pa, Pb = rng.standard_normal((r, m)), rng.standard_normal((r, m))
    spectrum = np.einsum("fp,fp->f", np.conj(np.fft.rfft(Pa, n=L, axis=0)), np.fft.rfft(Pb, n=L, axis=0))
    lags = toeplitz_lag_sums(spectrum, L, r)
    for _ in range(3):
        t = rng.standard_normal(r)
        assert t @ lags == pytest.approx(np.sum(Pa * (toeplitz(t) @ Pb)), rel=1e-11)
