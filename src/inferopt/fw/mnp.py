"""Wolfe's minimum-norm-point algorithm (Wolfe 1976) for ``min ||b - V alpha||^2`` over the simplex.

The fully corrective conditional gradient of Bach et al. 2012 ("min-norm-point", Sec. 3.2
and 5; Bach 2011, Sec. 6): the points ``p_i = v_i - b`` and the nearest point to the
origin in their convex hull.  Each *major cycle* adds the LMO's atom to the corral ``S``;
*minor cycles* move to the affine minimiser of the corral,
``min_beta ||P_S beta||^2`` s.t. ``sum beta = 1``, and, when it leaves the simplex, go as far
towards it as the simplex allows and drop the atoms whose weight vanished.  On a polytope it
terminates after finitely many steps at the exact minimiser (up to rounding).

The affine minimiser comes from Wolfe's (1976) bordered factorisation:
``M_SS = kappa 11' + P_S'P_S`` is positive definite exactly when the corral is affinely
independent (true in exact arithmetic), and ``beta = u / 1'u`` with ``u = M_SS^{-1} 1``.
``P'P = G - c1' - 1c' + ||b||^2`` needs kernel values only; ``kappa > 0`` (the largest
``||p_i||^2``; Wolfe takes 1) only scales the border.  An upper-triangular ``R`` with ``R'R = M_SS``
(:class:`CorralFactor`) is *updated*: an entering atom appends a column (one triangular
solve, O(k^2)), a leaving atom is deleted by Givens rotations (O(k^2)), and every minor
cycle is two triangular solves -- no O(k^3) refactorisation per step.  Breakdown guard: an
appended pivot ``rho^2`` (the squared distance of ``(sqrt(kappa), p_s)`` from the span of the
corral's ``(sqrt(kappa), p_i)``) at or below ``UPDATE_RTOL * M_ss`` carries the rounding accumulated
over all earlier updates, amplified by ``M_ss / rho^2``, so ``R`` is recomputed from ``M_SS``
(O(k^3), rare; the reason is recorded in ``info['refactor']``).  If the fresh pivot is still at
rounding level (``<= k eps``), the atom is affinely dependent on the corral to working precision and
the algorithm stops.  That stop is *not* a certificate: it says only that the working precision of
the Gram matrix cannot resolve further progress (with a near-degenerate point cloud the duality gap
may still be well above rounding), so it is reported with ``converged=False`` and its reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import scipy.linalg

from .._clock import clock
from .._selection import tie_tolerance
from .._validation import check_callable, check_int, check_real
from .active_set import ActiveSet
from .quadratic import QuadraticHull
from .result import FWResult

#: an appended pivot with ``rho^2 / M_ss`` at or below this triggers a fresh factorisation.
UPDATE_RTOL = 1e-10
_EPS = np.finfo(float).eps
#: the least scale of ``M`` (:func:`min_norm_point`) whose inverse's square stays finite, with a margin
_SMALLEST_SCALE = 2.0 ** -1000


class CorralFactor:
    """Upper-triangular ``R`` (k x k) with ``R'R = M`` for Wolfe's corral matrix ``M`` (module docstring).

    ``append`` and ``delete`` keep ``R'R = M`` as the corral changes in O(k^2);
    ``affine_minimiser`` is ``u / 1'u``, ``u = M^{-1} 1``, by two triangular solves.
    """

    def __init__(self, R: np.ndarray) -> None:
        self.R = R

    def __len__(self) -> int:
        return len(self.R)

    @classmethod
    def fresh(cls, M: np.ndarray) -> tuple[CorralFactor | None, float]:
        """Cholesky factor of ``M`` from scratch (O(k^3)) and its smallest relative pivot
        ``min_i R_ii^2 / M_ii``; ``None`` if ``M`` is singular to working precision (a pivot
        at or below ``k eps``: the corral is affinely dependent)."""
        try:
            R = scipy.linalg.cholesky(M, lower=False, check_finite=False)
        except np.linalg.LinAlgError:
            return None, 0.0
        rel = float(np.min(np.diag(R) ** 2 / np.diag(M)))
        return (cls(R) if rel > len(M) * _EPS else None), rel

    def append(self, m_col: np.ndarray, m_diag: float) -> float:
        """Add an atom with ``M[S, s] = m_col`` and ``M_ss = m_diag``: ``R <- [[R, r], [0, rho]]``
        with ``R'r = m_col``, ``rho^2 = m_diag - r'r``.  Returns ``rho^2 / m_diag``; the column
        is appended only if that exceeds :data:`UPDATE_RTOL` (otherwise ``R`` is unchanged)."""
        k = len(self.R)
        r = scipy.linalg.solve_triangular(self.R, m_col, trans="T", check_finite=False) if k else np.zeros(0)
        rel = (m_diag - float(r @ r)) / m_diag
        if rel > UPDATE_RTOL:
            R = np.zeros((k + 1, k + 1))
            R[:k, :k], R[:k, k], R[k, k] = self.R, r, np.sqrt(rel * m_diag)
            self.R = R
        return rel

    def delete(self, j: int) -> None:
        """Remove atom ``j``: ``R`` without column ``j`` is upper Hessenberg from column ``j`` on;
        Givens rotations of rows ``j..k-1`` re-triangularise it (LAPACK via
        :func:`scipy.linalg.qr_delete` on the QR factorisation ``R = I R``), and its last
        row, now zero, is dropped.  O(k^2)."""
        k = len(self.R)
        _, R = scipy.linalg.qr_delete(np.eye(k), self.R, j, which="col", overwrite_qr=True, check_finite=False)
        self.R = np.ascontiguousarray(R[: k - 1])

    def affine_minimiser(self) -> np.ndarray:
        """``beta = u / 1'u`` with ``R'y = 1``, ``R u = y`` (so ``1'u = y'y``)."""
        y = scipy.linalg.solve_triangular(self.R, np.ones(len(self.R)), trans="T", check_finite=False)
        return scipy.linalg.solve_triangular(self.R, y, check_finite=False) / float(y @ y)


class _Columns:
    """``G[:, corral]`` kept as the rows of a growing buffer (amortised O(N) per added atom)."""

    def __init__(self, block: np.ndarray) -> None:
        self.k = block.shape[1]
        self.buf = np.empty((max(16, self.k), block.shape[0]))
        self.buf[: self.k] = block.T

    @property
    def block(self) -> np.ndarray:
        """The ``(N, k)`` block ``G[:, corral]`` (a view)."""
        return self.buf[: self.k].T

    def append(self, col: np.ndarray) -> None:
        if self.k == len(self.buf):
            self.buf = np.concatenate([self.buf, np.empty_like(self.buf)])
        self.buf[self.k] = col
        self.k += 1

    def keep(self, mask: np.ndarray) -> None:
        kept = self.buf[: self.k][mask]
        self.k = len(kept)
        self.buf[: self.k] = kept


def _start_corral(G_SS: np.ndarray, c_S: np.ndarray, border: float) -> tuple[CorralFactor, np.ndarray]:
    """Factor of the starting corral and which of its atoms it keeps: all of them if ``M_SS`` is
    positive definite to working precision, otherwise (a warm start with affinely dependent
    atoms) each atom in turn unless it is affinely dependent on those kept before it."""
    M = G_SS - c_S[:, None] - c_S + border
    M = 0.5 * (M + M.T)
    factor = CorralFactor.fresh(M)[0]
    keep = np.ones(len(M), dtype=bool)
    if factor is None:
        factor, keep[:] = CorralFactor(np.zeros((0, 0))), False
        for i in range(len(M)):
            keep[i] = factor.append(M[keep, i], M[i, i]) > UPDATE_RTOL
    return factor, keep


def _minor_cycles(factor: CorralFactor, cols: _Columns, ids: np.ndarray,
                  lam: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """From the feasible weights ``lam`` on the corral ``ids`` to the corral's affine minimiser:
    while it leaves the simplex, move towards it up to the boundary and drop the atoms whose
    weight vanished (Givens deletions from ``factor``).  Returns ``(ids, lam, n_minor)``."""
    n_minor = 0
    while True:
        beta = factor.affine_minimiser()
        if np.all(beta > 0):
            return ids, beta, n_minor
        neg = beta <= 0                      # move from lam towards beta, stop on the simplex boundary
        with np.errstate(invalid="ignore", divide="ignore"):
            ratios = np.where(lam[neg] > 0, lam[neg] / (lam[neg] - beta[neg]), 0.0)
        step = float(ratios.min())
        lam = lam + step * (beta - lam)
        # every atom that reaches the boundary at this step leaves, those tied with the first up to round-off too
        # (inferopt._selection): none stays at the round-off of its weight, on one BLAS kernel and not another
        lam[np.flatnonzero(neg)[ratios <= step + tie_tolerance(ratios)]] = 0.0
        keep = lam > 0
        for j in np.flatnonzero(~keep)[::-1]:
            factor.delete(int(j))
        ids, lam = ids[keep], lam[keep]
        cols.keep(keep)
        n_minor += 1


def _start_atoms(problem: QuadraticHull, init) -> np.ndarray:
    """``init`` as distinct atom ids: ``None`` -> ``[argmax c]`` (the LMO at ``alpha = 0``), an id, or ids."""
    if init is None:
        return np.array([problem.lmo(ActiveSet())[0]])
    ids = [check_int("init", i, low=0, high=problem.n_atoms - 1) for i in np.atleast_1d(init)]
    if not ids or len(set(ids)) != len(ids):
        raise ValueError(f"init must be an atom id or a non-empty sequence of distinct atom ids; got {init!r}")
    return np.array(ids, dtype=np.intp)


def min_norm_point(problem: QuadraticHull, *, max_iter: int = 1000, tol: float = 1e-12,
                   init: int | Sequence[int] | None = None,
                   callback: Callable[[int, ActiveSet], None] | None = None) -> FWResult:
    """Wolfe's algorithm on a :class:`QuadraticHull`; ``max_iter`` bounds the major cycles.

    ``init``: the first atom (default ``argmax c``), or several atom ids, a warm start: the
    corral starts from them (leaving out any affinely dependent on earlier ones) with uniform
    weights, and minor cycles take it to its affine minimiser before the first major cycle
    (``info['n_minor_start']`` counts those drops).

    ``converged`` is ``True`` exactly when the run stopped because the FW duality gap at the corral's
    minimiser is ``<= tol`` (a certificate: ``objective - optimum <= gap``).  The other stops end the
    run with ``converged=False``, the gap in ``message``, and ``info['stop']`` naming the reason:
    ``'max_iter'``; ``'in_corral'`` (the LMO returns an atom already in the corral);
    ``'dependent'`` (the LMO's atom is affinely dependent on the corral to working precision);
    ``'no_decrease'`` (a major cycle did not decrease the objective). The last three mean no
    further progress is possible in floating point; the reached gap says how good the point is.
    ``info['stop']`` is ``'gap'`` for a converged run.
    ``info['n_minor']`` counts the minor cycles (drops) of each major cycle;
    ``info['refactor']`` is ``''`` when the corral's factor was updated in that major cycle and
    otherwise the reason it was recomputed from scratch (module docstring).
    ``callback(t, active)`` as in :func:`~inferopt.fw.frank_wolfe`.
    """
    if not isinstance(problem, QuadraticHull):
        raise ValueError(f"problem must be a QuadraticHull; got {type(problem).__name__}")
    max_iter = check_int("max_iter", max_iter, low=1)
    tol = check_real("tol", tol, low=0.0)
    if callback is not None:
        check_callable("callback", callback)
    t0 = clock()
    problem.start()
    c, border = problem.c, problem.b_sqnorm
    h_max = float(np.max(problem.diag - 2.0 * c)) + border    # max_i ||v_i - b||^2
    border += h_max if h_max > 0 else 1.0                     # ||b||^2 + kappa: M = G - c1' - 1c' + border
    if border < _SMALLEST_SCALE:    # issue 47: the corral's solves divide by M's scale and overflowed
        raise ValueError(f"the problem is too small for the min-norm-point arithmetic: ||b||^2 + max ||v_i - b||^2 = "
                         f"{border:.3g} (from gram, c and b_sqnorm, or V and b), and the corral's solves divide by it "
                         "(overflowing float64); multiply the problem by one constant (the weights do not change)")
    start = _start_atoms(problem, init)
    block = problem.column_block(start)
    factor, keep = _start_corral(block[start], c[start], border)
    start = start[keep]
    cols = _Columns(block[:, keep])     # G[:, corral]
    ids, lam, n_minor_start = _minor_cycles(factor, cols, start, np.full(len(start), 1.0 / len(start)))
    active = ActiveSet()
    active.assign(ids, lam)
    problem.set_iterate(active, cols.block)
    objective, times, gaps = [problem.objective(active)], [clock() - t0], []
    if callback is not None:
        callback(0, active)
    trace = {key: [] for key in ("gamma", "step_type", "drop", "atom", "n_active", "n_minor", "refactor")}
    converged, stop, message, t = False, "max_iter", f"reached max_iter = {max_iter}", 0
    while True:
        s, grad_s = problem.lmo(active)
        gaps.append(float(active.weights @ problem.grad_active(active)) - grad_s)
        if gaps[-1] <= tol:
            converged, stop, message = True, "gap", f"duality gap {gaps[-1]:.3g} <= tol = {tol:g}"
            break
        if s in active:
            stop, message = "in_corral", f"LMO atom already in the corral: no progress in floating point (gap {gaps[-1]:.3g} > tol = {tol:g})"
            break
        if t == max_iter:
            break
        col = problem.column_block([s])[:, 0]
        ids = np.append(active.ids, s)
        cols.append(col)
        rel = factor.append(col[active.ids] - c[active.ids] + (border - c[s]), col[s] - 2.0 * c[s] + border)
        refactor = ""
        if rel <= UPDATE_RTOL:
            M = cols.block[ids] - c[ids, None] - c[ids] + border
            fresh, rel_fresh = CorralFactor.fresh(0.5 * (M + M.T))
            if fresh is None:
                stop = "dependent"
                message = (f"LMO atom {s} is affinely dependent on the corral to working precision (fresh "
                           f"Cholesky pivot rho^2/M_ss = {rel_fresh:.2g} <= k eps; gap {gaps[-1]:.3g} > tol = {tol:g})")
                break
            factor = fresh
            refactor = (f"appended pivot rho^2/M_ss = {rel:.2g} <= UPDATE_RTOL = {UPDATE_RTOL:g}: fresh "
                        f"Cholesky (smallest pivot {rel_fresh:.2g})")
        t += 1
        ids, lam, n_minor = _minor_cycles(factor, cols, ids, np.append(active.weights, 0.0))
        active.assign(ids, lam)
        problem.set_iterate(active, cols.block)
        objective.append(problem.objective(active))
        times.append(clock() - t0)
        if callback is not None:
            callback(t, active)
        for key, val in zip(trace, (np.nan, "mnp", n_minor > 0, s, len(active), n_minor, refactor)):
            trace[key].append(val)
        if objective[-1] >= objective[-2]:
            gaps.append(float(active.weights @ problem.grad_active(active)) - problem.lmo(active)[1])
            stop, message = "no_decrease", f"no decrease in a major cycle (rounding level; gap {gaps[-1]:.3g})"
            converged = gaps[-1] <= tol
            if converged:
                stop = "gap"
            break
    return FWResult.from_run(active, objective=objective, gaps=gaps, trace=trace, n_iter=t, converged=converged,
                             message=message, times=times, n_minor_start=n_minor_start, stop=stop)
