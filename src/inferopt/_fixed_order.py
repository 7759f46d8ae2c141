"""Products, a Cholesky factor and triangular solves whose rounding does not depend on the BLAS
kernel (issue 40).

OpenBLAS picks its kernel per processor model (``OPENBLAS_CORETYPE`` forces one), and its
``dot``, ``gemv``, ``gemm``, ``potrf`` and ``trsm`` sum in the kernel's order (blocking, FMA): the
last bits of ``A @ x``, ``np.linalg.cholesky`` and ``scipy.linalg.solve_triangular`` differ
between, e.g., the Haswell and the Sandybridge kernel on one machine (measured:
``tests/test_fixed_order.py``). Where those bits decide which points a coreset keeps -- IHT's
iterates amplify them (:mod:`inferopt.coresets.iht`), and ``Φ`` of a GLM is built from a Newton
search, a Cholesky factor and draws (:class:`inferopt.coresets.glm_problem.GLMCoresetProblem`) --
the arithmetic is done here instead:

* the products (:func:`dot`, :func:`matvec`, :func:`matmul`) are ``np.einsum`` without
  ``optimize`` (numpy's own loops, never BLAS), summed in the order numpy's build fixes;
* :func:`cholesky` and :func:`solve_triangular` are the textbook column algorithms
  (Golub & Van Loan 2013, Alg. 4.2.2, the outer-product Cholesky, and Alg. 3.1.3/3.1.4,
  column-oriented substitution) in elementwise numpy operations only: every entry is a sequence
  of IEEE multiplications, subtractions, divisions and square roots in a fixed order, the same
  bits on every processor.

Costs: a product about 3x a BLAS call; the factor and the solves are ``D`` numpy steps each
(about 50 µs at ``D = 16`` against 8 µs for LAPACK), meant for the small ``D x D`` systems of
a GLM's Laplace approximation.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["cholesky", "dot", "matmul", "matvec", "norm", "solve_triangular"]


def dot(a: np.ndarray, b: np.ndarray) -> float:
    """``a @ b`` for 1-d ``a``, ``b``, in numpy's fixed order."""
    return float(np.einsum("i,i->", a, b))


def norm(a: np.ndarray) -> float:
    """``‖a‖`` (1-d), in numpy's fixed order."""
    return float(np.sqrt(dot(a, a)))


def matvec(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``A @ x`` for a 2-d ``A`` and a 1-d ``x``, in numpy's fixed order."""
    return np.einsum("ij,j->i", A, x)


def matmul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``A @ B`` for 2-d ``A``, ``B``, in numpy's fixed order."""
    return np.einsum("ij,jk->ik", A, B)


def cholesky(A: np.ndarray) -> np.ndarray:
    """The lower Cholesky factor ``L`` of a symmetric positive definite ``A`` (``A = L Lᵀ``; only
    the lower triangle of ``A`` is read), by outer-product updates (Golub & Van Loan 2013,
    Alg. 4.2.2): column ``j`` of ``L`` is column ``j`` of the updated ``A`` over the square root of
    its pivot, then ``A[j+1:, j+1:] -= l lᵀ``. Raises ``np.linalg.LinAlgError`` (as
    ``np.linalg.cholesky``) when a pivot is not positive."""
    L = np.array(A, dtype=float)   # a copy, updated in place; its upper triangle (never read) is zeroed at the end
    for j in range(L.shape[0]):
        pivot = float(L[j, j])
        if not pivot > 0.0:
            raise np.linalg.LinAlgError("Matrix is not positive definite")
        col = L[j:, j]
        col /= math.sqrt(pivot)
        below = col[1:]
        L[j + 1:, j + 1:] -= np.multiply.outer(below, below)
    return np.tril(L)


def solve_triangular(L: np.ndarray, B: np.ndarray, *, trans: bool = False) -> np.ndarray:
    """``X`` with ``L X = B`` (``trans``: ``Lᵀ X = B``) for a lower-triangular ``L`` with a non-zero
    diagonal and ``B`` of shape ``(D,)`` or ``(D, m)``, by column-oriented forward (back)
    substitution (Golub & Van Loan 2013, Alg. 3.1.3 and 3.1.4): ``x_j = b_j / l_jj``, then
    ``b`` loses ``x_j`` times column ``j`` of ``L`` (row ``j`` for ``Lᵀ``) below (above) ``j``."""
    X = np.array(B, dtype=float)   # a copy, solved in place
    D = L.shape[0]
    vector = X.ndim == 1
    for j in (range(D - 1, -1, -1) if trans else range(D)):
        X[j] /= L[j, j]
        rest = slice(0, j) if trans else slice(j + 1, D)
        coef = L[j, rest] if trans else L[rest, j]
        X[rest] -= coef * X[j] if vector else np.multiply.outer(coef, X[j])
    return X
