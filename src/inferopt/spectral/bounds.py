"""Eigenvalue bounds ``[a, b]`` for the Chebyshev expansion (Han et al. 2018, Sec. 2.2).

The expansion of ``f`` on ``[a, b]`` is only valid for ``A`` whose spectrum lies in
``[a, b]``. The paper bounds the top of the spectrum by a power method and enforces the
bottom by substituting ``A + eps I``. Here a few Lanczos steps (with full
re-orthogonalisation; a power method that keeps its whole Krylov basis) give Ritz values
``theta_min <= ... <= theta_max`` and residuals ``beta_k |s_{k,i}|``; every Ritz value lies
inside ``[lambda_min, lambda_max]`` and some eigenvalue lies within its residual, so

    b = theta_max + res_max + margin * width,      a = lower  (e.g. eps)  or  theta_min - res_min - margin * width

with ``width`` the estimated spread. ``cap`` clips ``b`` by a rigorous (but loose) upper
bound when one is known (e.g. ``||theta||_F^2 + eps`` for ``theta theta^T + eps I``).

``check_bounds`` is the converse test: a Ritz value outside ``[a, b]`` proves that the
spectrum is not contained in ``[a, b]``, and a clear ``ValueError`` says so.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, check_int, check_real
from .chebyshev import check_interval
from .operators import as_operator
from .._random import as_generator


def lanczos_tridiagonal(A, v0, n_steps: int):
    """``n_steps`` Lanczos steps from ``v0`` with full re-orthogonalisation.

    Returns ``(alpha, beta, Q)``: the diagonal and off-diagonal of ``T = Q^T A Q`` and the
    orthonormal basis ``Q`` (``d x k``, ``k <= n_steps``; fewer on an invariant subspace). The
    trailing ``beta[k-1]`` is the residual norm ``||A q_k - alpha_k q_k - beta_{k-1} q_{k-1}||``.
    """
    op = as_operator(A)
    d = op.shape[0]
    n_steps = check_int("n_steps", n_steps, low=1)
    k_max = min(n_steps, d)
    Q = np.zeros((k_max, d))  # rows: contiguous basis vectors
    alpha = np.zeros(k_max)
    beta = np.zeros(k_max)
    q = as_finite_array("v0", v0, ndim=1)
    if q.shape[0] != d or not np.any(q):
        raise ValueError(f"v0 must be a non-zero vector of length d = {d}; got shape {q.shape}")
    q = q / np.linalg.norm(q)
    for k in range(k_max):
        Q[k] = q
        w = op.matmat(q[:, None])[:, 0]
        alpha[k] = q @ w
        w -= (Q[: k + 1] @ w) @ Q[: k + 1]
        w -= (Q[: k + 1] @ w) @ Q[: k + 1]  # twice is enough
        beta[k] = np.linalg.norm(w)
        if beta[k] <= 1e-12 * max(abs(alpha[: k + 1]).max(), 1e-300) or k == k_max - 1:
            return alpha[: k + 1], beta[: k + 1], Q[: k + 1].T
        q = w / beta[k]
    return alpha, beta, Q  # pragma: no cover


def ritz_values(A, *, n_steps: int = 20, rng=None):
    """Ritz values of ``A`` after ``n_steps`` Lanczos steps from a random start and their residual bounds."""
    op = as_operator(A)
    v0 = as_generator(rng).standard_normal(op.shape[0])
    alpha, beta, _ = lanczos_tridiagonal(op, v0, n_steps)
    T = np.diag(alpha) + np.diag(beta[:-1], 1) + np.diag(beta[:-1], -1)
    theta, S = np.linalg.eigh(T)
    return theta, np.abs(beta[-1] * S[-1, :])


def spectral_bounds(A, *, n_steps: int = 20, margin: float = 0.05, lower=None, cap=None, rng=None):
    """Bounds ``(a, b)`` containing the spectrum of symmetric ``A``, by Lanczos with a safety margin.

    Parameters
    ----------
    A : symmetric matrix or operator with ``matmat``.
    n_steps : Lanczos steps (each one product with ``A``).
    margin : relative safety margin added beyond the Ritz estimates (as a fraction of the spread).
    lower : a known lower bound (e.g. ``eps`` for ``A = B + eps I``, ``B`` PSD); used as ``a`` as is.
    cap : a known rigorous upper bound; ``b`` is clipped to it.
    rng : ``numpy.random.Generator`` or seed for the Lanczos start vector.
    """
    margin = check_real("margin", margin, low=0.0)
    theta, res = ritz_values(A, n_steps=n_steps, rng=rng)
    top = theta[-1] + res[-1]
    bottom = theta[0] - res[0]
    width = max(top - bottom, 1e-12 * max(abs(top), 1.0))
    b = top + margin * width
    # a Ritz value is a weighted average of eigenvalues: theta[-1] <= lambda_max, theta[0] >= lambda_min
    # (up to rounding: e.g. lower = eps is exactly lambda_min of theta theta^T + eps I)
    slack = 1e-10 * max(abs(theta[0]), abs(theta[-1]), 1.0)
    if cap is not None:
        cap = check_real("cap", cap)
        if cap < theta[-1] - slack:
            raise ValueError(f"cap = {cap:.6g} is below the spectrum of A: it has an eigenvalue >= {theta[-1]:.6g} "
                             "(a Ritz value); cap must be an upper bound of the spectrum")
        b = min(b, cap)
    if lower is not None:
        a = check_real("lower", lower)
        if a > theta[0] + slack:
            raise ValueError(f"lower = {a:.6g} is above the bottom of the spectrum of A: it has an eigenvalue "
                             f"<= {theta[0]:.6g} (a Ritz value); lower must be a lower bound of the spectrum")
    else:
        a = bottom - margin * width
    if not a < b:
        raise ValueError(f"could not form bounds with a < b (a={a}, b={b}): check lower/cap")
    return float(a), float(b)


def check_bounds(A, a, b, *, n_steps: int = 12, rng=None, rtol: float = 1e-10) -> None:
    """Raise ``ValueError`` if ``[a, b]`` provably does not contain the spectrum of ``A``.

    A Ritz value (a weighted average of eigenvalues) outside ``[a, b]`` proves an eigenvalue
    outside it. Small matrices (``d <= n_steps``) are checked exactly. The test is one-sided:
    passing it does not prove containment.
    """
    a, b = check_interval(a, b)
    op = as_operator(A)
    d = op.shape[0]
    n_steps = check_int("n_steps", n_steps, low=1)
    rtol = check_real("rtol", rtol, low=0.0)
    rng = as_generator(rng)
    if d <= n_steps:
        from .operators import dense_of

        lam = np.linalg.eigvalsh(dense_of(op))
    else:
        lam, _ = ritz_values(op, n_steps=n_steps, rng=rng)
    tol = rtol * max(abs(a), abs(b), 1.0)
    if lam[0] < a - tol or lam[-1] > b + tol:
        raise ValueError(
            f"bounds [a, b] = [{a:.6g}, {b:.6g}] do not contain the spectrum of A: it has eigenvalues "
            f"down to <= {lam[0]:.6g} and up to >= {lam[-1]:.6g}; widen the bounds (see spectral_bounds)"
        )
