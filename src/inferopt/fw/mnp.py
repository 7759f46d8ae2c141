"""Wolfe's minimum-norm-point algorithm (Wolfe 1976) for ``min ||b - V alpha||^2`` over the simplex.

The fully corrective conditional gradient of Bach et al. 2012 ("min-norm-point", Sec. 3.2
and 5; Bach 2011, Sec. 6): the points ``p_i = v_i - b`` and the nearest point to the
origin in their convex hull.  Each *major cycle* adds the LMO's atom to the corral;
*minor cycles* move to the affine minimiser of the corral,
``min_beta beta' G_SS beta - 2 c_S' beta`` s.t. ``sum beta = 1`` (a bordered linear
system), and, when it leaves the simplex, go as far towards it as the simplex allows and
drop the atoms whose weight vanished.  On a polytope it terminates after finitely many
steps at the exact minimiser (up to rounding).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable

import numpy as np
import scipy.linalg

from .._validation import check_int, check_real
from .active_set import ActiveSet
from .quadratic import QuadraticHull
from .result import FWResult


def _affine_minimiser(G_SS: np.ndarray, c_S: np.ndarray) -> np.ndarray:
    """``argmin beta' G beta - 2 c' beta`` on the affine plane ``sum beta = 1`` (symmetric KKT system)."""
    k = len(c_S)
    kkt = np.zeros((k + 1, k + 1))
    kkt[:k, :k] = G_SS
    kkt[:k, k] = kkt[k, :k] = 1.0
    rhs = np.append(c_S, 1.0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
            sol = scipy.linalg.solve(kkt, rhs, assume_a="sym", check_finite=False)
    except (np.linalg.LinAlgError, scipy.linalg.LinAlgError, scipy.linalg.LinAlgWarning):
        sol = np.linalg.lstsq(kkt, rhs, rcond=None)[0]  # (near-)singular corral: least-squares solution
    return sol[:k]


class _Columns:
    """``G[:, corral]`` kept as the rows of a growing buffer (amortised O(N) per added atom)."""

    def __init__(self, first: np.ndarray) -> None:
        self.buf, self.k = np.empty((16, len(first))), 1
        self.buf[0] = first

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


def min_norm_point(problem: QuadraticHull, *, max_iter: int = 1000, tol: float = 1e-12,
                   init: int | None = None, callback: Callable[[int, ActiveSet], None] | None = None) -> FWResult:
    """Wolfe's algorithm on a :class:`QuadraticHull`; ``max_iter`` bounds the major cycles.

    Stops when the FW gap at the corral's minimiser is ``<= tol``, or (optimal up to
    rounding) when the LMO returns an atom already in the corral or a major cycle does
    not decrease the objective.  ``info['n_minor']`` counts
    the minor cycles (drops) of each major cycle.  ``callback(t, active)`` as in
    :func:`~inferopt.fw.frank_wolfe`.
    """
    if not isinstance(problem, QuadraticHull):
        raise ValueError(f"problem must be a QuadraticHull; got {type(problem).__name__}")
    max_iter = check_int("max_iter", max_iter, low=1)
    tol = check_real("tol", tol, low=0.0)
    t0 = time.perf_counter()
    problem.start()
    active = ActiveSet()
    s = problem.lmo(active)[0] if init is None else check_int("init", init, low=0, high=problem.n_atoms - 1)
    cols = _Columns(problem.column_block([s])[:, 0])     # G[:, corral]
    active.assign([s], [1.0])
    problem.set_iterate(active, cols.block)
    objective, times, gaps = [problem.objective(active)], [time.perf_counter() - t0], []
    if callback is not None:
        callback(0, active)
    trace = {key: [] for key in ("gamma", "step_type", "drop", "atom", "n_active", "n_minor")}
    converged, message, t = False, f"reached max_iter = {max_iter}", 0
    while True:
        s, grad_s = problem.lmo(active)
        gaps.append(float(active.weights @ problem.grad_active(active)) - grad_s)
        if gaps[-1] <= tol:
            converged, message = True, f"duality gap {gaps[-1]:.3g} <= tol = {tol:g}"
            break
        if s in active:
            converged, message = True, f"LMO atom already in the corral (gap {gaps[-1]:.3g}, rounding level)"
            break
        if t == max_iter:
            break
        t += 1
        ids = np.append(active.ids, s)
        lam = np.append(active.weights, 0.0)
        cols.append(problem.column_block([s])[:, 0])
        n_minor = 0
        while True:
            beta = _affine_minimiser(cols.block[ids], problem.c[ids])
            if np.all(beta > 0):
                lam = beta
                break
            neg = beta <= 0                      # move from lam towards beta, stop on the simplex boundary
            with np.errstate(invalid="ignore", divide="ignore"):
                ratios = np.where(lam[neg] > 0, lam[neg] / (lam[neg] - beta[neg]), 0.0)
            theta = float(ratios.min())
            lam = lam + theta * (beta - lam)
            lam[np.flatnonzero(neg)[np.argmin(ratios)]] = 0.0
            keep = lam > 0
            ids, lam = ids[keep], lam[keep]
            cols.keep(keep)
            n_minor += 1
        active.assign(ids, lam)
        problem.set_iterate(active, cols.block)
        objective.append(problem.objective(active))
        times.append(time.perf_counter() - t0)
        if callback is not None:
            callback(t, active)
        for key, val in zip(trace, (np.nan, "mnp", n_minor > 0, s, len(active), n_minor)):
            trace[key].append(val)
        if objective[-1] >= objective[-2]:
            gaps.append(float(active.weights @ problem.grad_active(active)) - problem.lmo(active)[1])
            converged, message = True, f"no decrease in a major cycle (rounding level; gap {gaps[-1]:.3g})"
            break
    info = {key: np.asarray(val) for key, val in trace.items()}
    info["gap"] = np.asarray(gaps)
    return FWResult(x=active.weights.copy(), objective=np.asarray(objective), n_iter=t,
                    converged=converged, message=message, times=np.asarray(times), info=info,
                    atoms=active.ids.copy())
