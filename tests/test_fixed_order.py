"""The fixed-order arithmetic of :mod:`inferopt._fixed_order` computes what its BLAS/LAPACK
counterparts compute, up to rounding (that it returns the same bits under two BLAS kernels is
shown in ``tests/test_blas_kernels.py``)."""

import numpy as np
import pytest
from scipy.linalg import solve_triangular as scipy_solve_triangular

from inferopt import _fixed_order as fixed


def spd(D: int, seed: int = 0) -> np.ndarray:
    B = np.random.default_rng(seed).standard_normal((D + 3, D))
    return B.T @ B + 0.1 * np.eye(D)


@pytest.mark.parametrize("D", [1, 2, 9, 69])
def test_cholesky_is_the_lapack_factor_up_to_rounding(D):
    A = spd(D)
    L = fixed.cholesky(A)
    assert np.array_equal(L, np.tril(L))
    np.testing.assert_allclose(L, np.linalg.cholesky(A), rtol=1e-10, atol=1e-12 * np.abs(A).max())


def test_cholesky_reads_the_lower_triangle_only_and_leaves_its_input():
    A = spd(5)
    upper_garbage = A + np.triu(np.full_like(A, 7.0), 1)
    before = upper_garbage.copy()
    assert np.array_equal(fixed.cholesky(upper_garbage), fixed.cholesky(A))
    assert np.array_equal(upper_garbage, before)


@pytest.mark.parametrize("A", [np.array([[1.0, 2.0], [2.0, 1.0]]), np.zeros((3, 3)), np.array([[np.nan]])])
def test_cholesky_refuses_a_matrix_that_is_not_positive_definite(A):
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        fixed.cholesky(A)


@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("shape", [(9,), (9, 4)])
def test_solve_triangular_is_scipys_up_to_rounding(trans, shape):
    L = np.linalg.cholesky(spd(9, seed=1))
    B = np.random.default_rng(2).standard_normal(shape)
    X = fixed.solve_triangular(L, B, trans=trans)
    assert X.shape == B.shape
    np.testing.assert_allclose(X, scipy_solve_triangular(L, B, lower=True, trans="T" if trans else "N"), rtol=1e-10)
    np.testing.assert_allclose((L.T if trans else L) @ X, B, atol=1e-12)


def test_products_are_numpys_up_to_rounding():
    rng = np.random.default_rng(3)
    A, B, x = rng.standard_normal((7, 5)), rng.standard_normal((5, 4)), rng.standard_normal(5)
    np.testing.assert_allclose(fixed.matmul(A, B), A @ B, rtol=1e-13)
    np.testing.assert_allclose(fixed.matmul(A.T, A), A.T @ A, rtol=1e-13)   # strided operands
    np.testing.assert_allclose(fixed.matvec(A, x), A @ x, rtol=1e-13)
    assert fixed.dot(x, x) == pytest.approx(x @ x, rel=1e-14)
    assert fixed.norm(x) == pytest.approx(np.linalg.norm(x), rel=1e-14)
