"""Symmetric matrices as block matrix-vector products (``||A||_mv`` of Han et al. 2018, Sec. 2).

Every estimator in :mod:`inferopt.spectral` touches ``A`` only through ``matmat(V)``,
the product of ``A`` with a ``d x m`` block ``V``: one matrix-matrix product per
Chebyshev step for all ``M`` probes at once. The protocol is

* ``shape`` -- ``(d, d)``;
* ``matmat(V)`` -- ``A @ V`` for a ``d x m`` array ``V``.

``as_operator`` accepts a dense array, a ``scipy.sparse`` matrix or anything that has
``shape`` and ``matmat`` (e.g. a ``scipy.sparse.linalg.LinearOperator``), and checks
that explicit matrices are symmetric.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import (as_finite_array, check_callable, check_flag, check_int, check_protocol, check_real,
                           check_returned)
from .._random import as_generator


class MatrixOperator:
    """A dense or sparse symmetric matrix as an operator."""

    def __init__(self, matrix, *, name: str = "matrix"):
        A = matrix
        if sp.issparse(A):
            if A.shape[0] != A.shape[1]:
                raise ValueError(f"{name} must be square; got shape {A.shape}")
            if np.iscomplexobj(A.data):
                raise TypeError(f"{name} must be real; got a complex sparse matrix (dtype {A.dtype}): complex Hermitian "
                                "matrices are not supported")
            if A.shape[0] == 0:
                raise ValueError(f"{name} must not be empty; got shape {A.shape}")
            if not np.all(np.isfinite(A.data)):
                raise ValueError(f"{name} must contain only finite values")
            A = sp.csr_matrix(A, dtype=float)
        else:
            A = as_finite_array(name, A, ndim=2, nonempty=True)
            if A.shape[0] != A.shape[1]:
                raise ValueError(f"{name} must be square; got shape {A.shape}")
        self.matrix = A
        self.shape = A.shape

    def matmat(self, V):
        return np.asarray(self.matrix @ V)

    def todense(self) -> np.ndarray:
        return self.matrix.toarray() if sp.issparse(self.matrix) else np.asarray(self.matrix)


class CallableOperator:
    """An operator from a function ``V -> A @ V`` (``V`` of shape ``(d, m)``)."""

    def __init__(self, matmat, d: int):
        self._matmat = check_callable("matmat", matmat)
        d = check_int("d", d, low=1)
        self.shape = (d, d)

    def matmat(self, V):
        """``A @ V``, the user's function's value checked (finite, of ``V``'s shape)."""
        return check_returned("matmat", self._matmat(V), shape=np.shape(V))


class ShiftedOperator:
    """``A + eps I``: enforces the lower spectral bound ``lambda_min >= eps`` for PSD ``A`` (Sec. 2.2)."""

    def __init__(self, op, eps: float):
        self.op = as_operator(op, name="op")
        self.eps = check_real("eps", eps)
        self.shape = self.op.shape

    def matmat(self, V):
        return self.op.matmat(V) + self.eps * V


class LowRankShiftOperator:
    """``A = theta theta^T + eps I`` for ``theta`` of shape ``(d, r)``; ``||A||_mv = O(dr)`` (Sec. 5.1)."""

    def __init__(self, theta, eps: float):
        self.theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
        self.eps = check_real("eps", eps, low=0.0)
        d = self.theta.shape[0]
        self.shape = (d, d)

    def matmat(self, V):
        return self.theta @ (self.theta.T @ V) + self.eps * V

    def todense(self) -> np.ndarray:
        return self.theta @ self.theta.T + self.eps * np.eye(self.shape[0])


def _symmetric_enough(matrix) -> bool:
    if sp.issparse(matrix):
        diff = abs(matrix - matrix.T)
        scale = abs(matrix).max() if matrix.nnz else 0.0
        return diff.nnz == 0 or diff.max() <= 1e-10 * max(scale, 1e-300) + 1e-300
    # np.allclose(A, A.T, ...) tile by tile over the upper triangle (tile (i, j) against tile (j, i)):
    # the same elementwise test in both directions, half the reads and no d x d temporaries (on the
    # whole matrix it took 0.22 CPU-s at d = 3,000, more than 15 products with a d x 10 block)
    scale = max(float(matrix.max(initial=0.0)), -float(matrix.min(initial=0.0)))  # max |A|
    atol = 1e-12 * max(1.0, scale)
    d, t = matrix.shape[0], 512
    for i in range(0, d, t):
        for j in range(i, d, t):
            upper, lower = matrix[i : i + t, j : j + t], matrix[j : j + t, i : i + t].T
            if not (np.allclose(upper, lower, rtol=1e-10, atol=atol) and np.allclose(lower, upper, rtol=1e-10, atol=atol)):
                return False
    return True


def as_operator(A, *, name: str = "A", check_symmetric: bool = True):
    """Wrap ``A`` (array, sparse matrix or object with ``shape``/``matmat``) as a square operator.

    Explicit matrices must be square, finite and (if ``check_symmetric``) symmetric:
    spectral sums and Chebyshev expansions are defined here for symmetric ``A`` only.
    """
    check_symmetric = check_flag("check_symmetric", check_symmetric)
    if hasattr(A, "matmat") and hasattr(A, "shape") and not isinstance(A, np.ndarray) and not sp.issparse(A):
        shape = tuple(A.shape)
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(f"{name} must be a square operator; got shape {shape}")
        return A
    op = MatrixOperator(A, name=name)
    A = op.matrix
    if check_symmetric and not _symmetric_enough(A):
        raise ValueError(f"{name} must be symmetric (spectral sums use its real eigenvalues); it is not")
    return op


def check_symmetric(op, *, rng=None, name: str = "A", rtol: float = 1e-8) -> None:
    """Randomised symmetry test of a matrix-free operator: ``xᵀ(Ay) = yᵀ(Ax)`` for random ``x, y``.

    Two products with ``A``; a ``ValueError`` if the two sides differ by more than ``rtol``
    relative to ``||x|| ||A y|| + ||y|| ||A x||``. Explicit matrices are checked exactly by :func:`as_operator`.
    """
    op = as_operator(op, name=name if name != "A" else "op (A)")
    rtol = check_real("rtol", rtol, low=0.0)
    rng = as_generator(rng)
    if isinstance(op, MatrixOperator):
        return
    X = rng.standard_normal((op.shape[0], 2))
    AX = np.asarray(op.matmat(X))
    if AX.shape != X.shape:
        raise ValueError(f"{name}.matmat must map a {X.shape} block to one of the same shape; got {AX.shape}")
    lhs, rhs = X[:, 0] @ AX[:, 1], X[:, 1] @ AX[:, 0]
    scale = np.linalg.norm(X[:, 0]) * np.linalg.norm(AX[:, 1]) + np.linalg.norm(X[:, 1]) * np.linalg.norm(AX[:, 0])
    if abs(lhs - rhs) > rtol * max(scale, 1e-300):
        raise ValueError(f"{name} must be symmetric: xᵀ(A y) = {lhs:.6g} but yᵀ(A x) = {rhs:.6g} for random x, y")


def dense_of(op) -> np.ndarray:
    """The dense matrix of an operator (``todense`` if it has one, else ``matmat(I)``); for tests/exact baselines."""
    check_protocol("op", op, "shape", "matmat", what="an operator")
    if hasattr(op, "todense"):
        return np.asarray(op.todense())
    return np.asarray(op.matmat(np.eye(op.shape[0])))
