"""The LANCZOS baseline: stochastic Lanczos quadrature for log-det and CG-based log-det gradients.

* :func:`slq_logdet` -- Ubaru, Chen & Saad (2017): ``log det A = tr log A ≈ (1/M) Σ_k ||z_k||² e_1ᵀ log(T_k) e_1``
  with ``T_k`` the ``m x m`` Lanczos tridiagonal started at ``z_k / ||z_k||`` (Gauss quadrature
  of the spectral measure of ``z_k``). The ``M`` Lanczos runs advance together (one
  ``matmat`` with a ``d x M`` block per step, each column with its own coefficients and full
  re-orthogonalisation -- or, for large sparse matrices, the plain three-term recurrence), and the
  ``M`` tridiagonals are diagonalised as one batch.
* :func:`block_cg` -- conjugate gradients on all columns of a right-hand side block at once.
* :func:`cg_logdet_grad` -- Dong et al. (2017): ``∂/∂θ_i log det A = tr(A⁻¹ ∂A/∂θ_i) ≈ (1/M) Σ_k z_kᵀ A⁻¹ (∂A/∂θ_i) z_k``
  with ``A⁻¹ z_k`` by CG (biased only through the CG tolerance).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import as_finite_array, check_callable, check_int, check_real
from ._three_term import three_term_tridiagonals
from .estimators import check_probes, rademacher
from .._random import as_generator
from .operators import as_operator
from .._random import as_generator


def block_cg(A, B, *, tol: float = 1e-8, max_iter: int | None = None, x0=None):
    """Solve ``A X = B`` for SPD ``A``, column by column but vectorised over columns.

    Stops when every column has ``||r|| <= tol ||b||``. Returns ``(X, n_iter, rel_residuals)``.
    """
    op = as_operator(A)
    tol = check_real("tol", tol, low=0.0, low_open=True)
    B = as_finite_array("B", B, nonempty=True)
    if B.ndim not in (1, 2) or B.shape[0] != op.shape[0]:
        raise ValueError(f"B must have shape (d,) or (d, m) with d = {op.shape[0]}; got {B.shape}")
    squeeze = B.ndim == 1
    if squeeze:
        B = B[:, None]
        if x0 is not None and np.ndim(x0) == 1:
            x0 = np.asarray(x0)[:, None]
    max_iter = 10 * op.shape[0] if max_iter is None else check_int("max_iter", max_iter, low=1)
    if x0 is not None:
        x0 = as_finite_array("x0", x0)
        if x0.shape != B.shape:
            raise ValueError(f"x0 must have the shape of B {B.shape}; got {x0.shape}")
    X = np.zeros_like(B) if x0 is None else x0.copy()
    R = B - op.matmat(X) if x0 is not None else B.copy()
    P = R.copy()
    rr = np.einsum("ij,ij->j", R, R)
    bnorm = np.maximum(np.linalg.norm(B, axis=0), 1e-300)
    it = 0
    while it < max_iter and np.any(np.sqrt(rr) > tol * bnorm):
        active = np.sqrt(rr) > tol * bnorm
        AP = op.matmat(P)
        pAp = np.einsum("ij,ij->j", P, AP)
        alpha = np.where(active, rr / np.where(pAp > 0, pAp, 1.0), 0.0)
        if np.any(active & (pAp <= 0)):
            raise ValueError("A is not positive definite (CG found pᵀAp <= 0)")
        X += alpha * P
        R -= alpha * AP
        rr_new = np.einsum("ij,ij->j", R, R)
        beta = np.where(active, rr_new / np.maximum(rr, 1e-300), 0.0)
        P = R + beta * P
        rr = rr_new
        it += 1
    res = np.sqrt(rr) / bnorm
    return (X[:, 0] if squeeze else X), it, res


def _reorthogonalise(op, m: int) -> bool:
    """Whether full re-orthogonalisation is worth it: yes unless ``A`` is a sparse matrix whose
    product (``2·nnz`` flops a column) costs far less than re-orthogonalising against ``m``
    Lanczos vectors (``4·m·d`` flops a column, memory-bound). Gauss quadrature from the plain
    three-term recurrence stays accurate under the loss of orthogonality (Golub & Meurant,
    *Matrices, Moments and Quadrature*, 2010, Ch. 4; imate's SLQ default), so large sparse
    matrices skip it."""
    matrix = getattr(op, "matrix", None)
    return not (sp.issparse(matrix) and matrix.nnz < m * op.shape[0])


def _block_lanczos_tridiagonals(op, Z, m: int):
    """``M`` independent Lanczos runs (columns of ``Z``), ``m`` steps each. Returns ``alpha, beta`` of shape ``(M, m)``.

    The ``M`` runs advance as one ``d x M`` block (one ``matmat`` per step): with full
    re-orthogonalisation of each column against its own basis, or (large sparse ``A``, see
    :func:`_reorthogonalise`) by the slab-by-slab three-term recurrence of :mod:`._three_term`."""
    d, M = Z.shape
    m = min(m, d)
    if not _reorthogonalise(op, m):
        return (*three_term_tridiagonals(op.matrix, Z, m), m)
    Q = np.zeros((m, d, M))
    alpha = np.zeros((M, m))
    beta = np.zeros((M, m))
    q = Z / np.linalg.norm(Z, axis=0)
    alive = np.ones(M, dtype=bool)
    for k in range(m):
        Q[k] = q
        w = op.matmat(q)
        alpha[:, k] = np.einsum("ij,ij->j", q, w)
        for _ in range(2):  # full re-orthogonalisation, per column, vectorised
            coef = np.einsum("kij,ij->kj", Q[: k + 1], w)
            w -= np.einsum("kij,kj->ij", Q[: k + 1], coef)
        nb = np.linalg.norm(w, axis=0)
        alive &= nb > 1e-10 * np.maximum(np.abs(alpha[:, k]), 1e-300)
        beta[:, k] = np.where(alive, nb, 0.0)
        q = np.where(alive, w / np.where(nb > 0, nb, 1.0), 0.0)
    return alpha, beta, m


def slq_quadratic_forms(A, Z, f, n_steps: int = 30) -> np.ndarray:
    """Per-probe Lanczos quadrature ``||z||² e_1ᵀ f(T) e_1`` of ``zᵀ f(A) z``."""
    op = as_operator(A)
    Z = check_probes(Z, op.shape[0], "Z")
    check_callable("f", f)
    n_steps = check_int("n_steps (Lanczos steps)", n_steps, low=1)
    alpha, beta, m = _block_lanczos_tridiagonals(op, Z, n_steps)
    M = Z.shape[1]
    T = np.zeros((M, m, m))
    idx = np.arange(m)
    T[:, idx, idx] = alpha
    T[:, idx[:-1], idx[1:]] = beta[:, :-1]
    T[:, idx[1:], idx[:-1]] = beta[:, :-1]
    # a run that broke down has beta = 0 there: T is block diagonal and e_1 only sees the first block
    theta, S = np.linalg.eigh(T)
    with np.errstate(invalid="ignore", divide="ignore"):
        ftheta = np.asarray(f(theta))
    if np.iscomplexobj(ftheta):
        raise TypeError(f"f must be real-valued on the spectrum of A; it returned complex values (dtype {ftheta.dtype})")
    ftheta = np.asarray(ftheta, dtype=float)
    w2 = S[:, 0, :] ** 2
    ftheta = np.where(w2 > 0, ftheta, 0.0)  # eigenvalues of detached blocks carry no weight
    if not np.all(np.isfinite(ftheta)):
        raise ValueError("f returned non-finite values at Ritz values of A: f must be finite on the spectrum "
                         "of A (for log: A positive definite)")
    return np.einsum("ij,ij->i", w2, ftheta) * np.einsum("ij,ij->j", Z, Z)


def slq_logdet(A, *, M: int = 30, n_steps: int = 30, rng=None):
    """Stochastic Lanczos quadrature estimate of ``log det A`` (SPD ``A``). Returns ``(value, stderr)``."""
    M = check_int("M (number of probe vectors)", M, low=1)
    op = as_operator(A)
    Z = rademacher(as_generator(rng), op.shape[0], M)
    samples = slq_quadratic_forms(op, Z, np.log, n_steps)
    if not np.all(np.isfinite(samples)):
        raise ValueError("A is not positive definite (a Ritz value is <= 0)")
    return float(samples.mean()), float(samples.std(ddof=1) / np.sqrt(M)) if M > 1 else float("nan")


def cg_logdet_grad(A, dA, *, M: int = 10, tol: float = 1e-6, max_iter=None, rng=None, Z=None) -> np.ndarray:
    """Dong et al. (2017): ``∂ log det A/∂θ_i ≈ (1/M) Σ_k (A⁻¹ z_k)ᵀ (∂A_i z_k)``, ``A⁻¹ z_k`` by block CG."""
    op = as_operator(A)
    M = check_int("M (number of probe vectors)", M, low=1)
    rng = as_generator(rng)     # checked even when Z is given (then M and rng are unused)
    if Z is None:
        Z = rademacher(rng, op.shape[0], M)
    else:
        Z = check_probes(Z, op.shape[0], "Z")
    X, _, _ = block_cg(op, Z, tol=tol, max_iter=max_iter)
    out = np.empty(len(dA))
    for i, D in enumerate(dA):
        out[i] = np.einsum("ij,ij->", X, as_operator(D, name=f"dA[{i}]").matmat(Z)) / Z.shape[1]
    return out


def lanczos_logdet_solve(A, Z, n_steps: int):
    """Dong et al.'s log-det pieces from ONE run of ``n_steps`` Lanczos steps per probe (their ``ldB2_lanczos`` with
    ``lanczos_fast``: the plain three-term recurrence, no re-orthogonalisation, the ``M`` probes of ``Z`` advanced as
    one block). Per probe ``z``, with ``T`` the tridiagonal and ``Q`` the Lanczos basis started at ``z / ||z||``:

    * ``||z||² e_1ᵀ log(T) e_1``, the Gauss quadrature of ``zᵀ log(A) z`` (stochastic Lanczos quadrature);
    * ``x = ||z|| Q T⁻¹ e_1``, the Lanczos (= CG) approximation of ``A⁻¹ z`` after ``n_steps`` steps.

    Returns ``(quadratures (M,), X (d x M))``: ``mean(quadratures)`` estimates ``log det A`` and
    ``(1/M) Σ_k x_kᵀ (∂A) z_k`` its derivative along ``∂A``. A run that breaks down (``β <= 1e-10 |α|``) keeps the
    steps before it."""
    op = as_operator(A)
    Z = check_probes(Z, op.shape[0], "Z")
    n_steps = check_int("n_steps (Lanczos steps)", n_steps, low=1)
    d, M = Z.shape
    m = min(n_steps, d)
    norms = np.linalg.norm(Z, axis=0)
    Q = np.zeros((m, d, M))
    alpha = np.zeros((M, m))
    beta = np.zeros((M, m))
    q_prev = np.zeros_like(Z, dtype=float)
    q = Z / norms
    b_prev = np.zeros(M)
    steps = np.full(M, m)
    for k in range(m):
        Q[k] = q
        w = op.matmat(q) - b_prev * q_prev
        alpha[:, k] = np.einsum("ij,ij->j", q, w)
        w -= alpha[:, k] * q
        b = np.linalg.norm(w, axis=0)
        broke = (b <= 1e-10 * np.maximum(np.abs(alpha[:, k]), 1e-300)) & (steps == m)
        steps[broke] = k + 1
        beta[:, k] = b
        q_prev, q, b_prev = q, w / np.where(b > 0, b, 1.0), b
    quad = np.empty(M)
    X = np.empty((d, M))
    for j in range(M):
        k = steps[j]
        T = np.diag(alpha[j, :k]) + np.diag(beta[j, : k - 1], 1) + np.diag(beta[j, : k - 1], -1)
        ritz, S = np.linalg.eigh(T)
        if ritz.min() <= 0:
            raise ValueError("A is not positive definite (a Ritz value is <= 0)")
        quad[j] = norms[j] ** 2 * float(S[0] ** 2 @ np.log(ritz))
        y = S @ (S[0] / ritz)                      # T⁻¹ e_1
        X[:, j] = norms[j] * np.einsum("kd,k->d", Q[:k, :, j], y)
    return quad, X
