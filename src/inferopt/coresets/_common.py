"""Shared pieces of the coreset solvers: the result type, argument checks, the k grid
and the per-iteration trace.

Every solver takes ``(Phi, y, k, ...)`` with ``Phi`` of shape ``(S, n)`` (column ``i``
is the finite representation ``ĝ_i`` of the centred log-likelihood of datum ``i``),
``y = Σ_i ĝ_i`` and the sparsity ``k``, and returns a :class:`CoresetResult`.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import numbers
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from .._clock import clock
from .._result import SolveResult
from .._validation import as_finite_array, check_choice, check_int, check_nonneg, check_real

#: the stopping rule of Zhang et al. (2021), Sec. 5: ``‖w_t − w_{t−1}‖ ≤ tol ‖w_t‖``.
DEFAULT_TOL = 1e-5
#: the iteration budget of Zhang et al. (2021), Sec. 5 (500 for the large-scale runs).
DEFAULT_MAX_ITER = 300


@dataclass(repr=False)
class CoresetResult(SolveResult):
    """A :class:`~inferopt._result.SolveResult` for coreset construction.

    ``x`` are the weights (length ``n``, at most ``k`` non-zeros, all ``>= 0``) for the
    largest requested size. ``objective[t]`` is ``f(w_t) = ‖y − Φ w_t‖²`` after ``t``
    iterations (``objective[0] = ‖y‖²`` at ``w = 0``), ``times[t]`` the cumulative CPU time (:mod:`inferopt._clock`).

    Greedy solvers asked for a grid of sizes record the weights at each of them in one
    pass: ``ks`` are the sizes (sorted, unique) and ``path_weights[j]`` the weights for
    ``ks[j]``. Single-``k`` solvers fill ``ks = [k]`` and ``path_weights = x[None]``.
    """

    ks: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    path_weights: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    def weights_at(self, k: int) -> np.ndarray:
        """The weights recorded for size ``k`` (one of :attr:`ks`)."""
        hit = np.flatnonzero(self.ks == k)
        if hit.size == 0:
            raise ValueError(f"k must be one of the recorded sizes {self.ks.tolist()}; got {k!r}")
        return self.path_weights[hit[0]]


def check_problem(Phi, y) -> tuple[np.ndarray, np.ndarray]:
    """Validate ``Phi`` (S × n, finite) and ``y`` (length S, finite). ``Phi`` keeps its layout if
    contiguous in either order (the problem builders store it column by column)."""
    Phi = as_finite_array("Phi", Phi, ndim=2)
    y = as_finite_array("y", y, ndim=1)
    if y.shape[0] != Phi.shape[0]:
        raise ValueError(
            f"y must have length Phi.shape[0] = {Phi.shape[0]} (one entry per row of Phi); "
            f"got length {y.shape[0]}"
        )
    if Phi.shape[1] < 1 or Phi.shape[0] < 1:
        raise ValueError(f"Phi must have at least one row and one column (one per data point); got shape {Phi.shape}")
    if not np.any(Phi):
        raise ValueError("Phi must have a non-zero entry; got all zeros (every weight vector is then optimal: "
                         "no data point carries information)")
    return (Phi if Phi.flags.f_contiguous else np.ascontiguousarray(Phi)), y


#: the binary exponents of ``max |Phi|`` a solver works at as given; outside them :func:`scale_free`
#: multiplies the problem by a power of two (exact), so no product of the solvers under- or overflows
SAFE_EXPONENTS = (-64, 64)


def scale_free(*, arguments=None, info=None):
    """Make a coreset solver ``solver(Phi, y, k, ...)`` independent of the problem's scale (issue 47:
    ``a_iht_ii`` returned ``w = 0`` for ``(c Phi, c y)`` at ``c = 1e160`` and ``1e-310``, ``giga`` other
    weights at ``1e-200``). The weights of ``(c Phi, c y)`` are those of ``(Phi, y)`` (``min ||y - Phi w||^2``
    is homogeneous), so a problem whose ``max |Phi|`` lies outside ``2**SAFE_EXPONENTS`` is solved as
    ``(2^-e Phi, 2^-e y)`` with ``2^e`` its magnitude -- a power of two: exact, and the same arithmetic as
    the problem at scale 1 -- and the result is given back in the caller's units: ``objective`` times
    ``4^e`` (beyond float64's range: ``inf`` or ``0``, the weights unaffected). ``arguments``:
    ``{name: p}``, a numeric argument in the problem's units, multiplied by ``2^(p e)`` (a fixed step
    size, ``p = 2``); ``info``: ``{key: p}``, a result's ``info`` entry multiplied by ``2^(p e)``."""
    arguments, info = dict(arguments or {}), dict(info or {})

    def wrap(solver):
        signature = inspect.signature(solver)

        @functools.wraps(solver)
        def run(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            Phi, y = check_problem(bound.arguments["Phi"], bound.arguments["y"])
            e = int(np.frexp(np.max(np.abs(Phi)))[1])
            if SAFE_EXPONENTS[0] <= e <= SAFE_EXPONENTS[1]:
                bound.arguments.update(Phi=Phi, y=y)
                return solver(*bound.args, **bound.kwargs)
            scaled_y = np.ldexp(y, -e)
            if not np.all(np.isfinite(scaled_y)):
                raise ValueError(f"y is too large for Phi: max |y| = {np.max(np.abs(y)):.3g} is more than 1e308 times "
                                 f"max |Phi| = {np.max(np.abs(Phi)):.3g}, so the weights overflow float64")
            bound.arguments.update(Phi=np.ldexp(Phi, -e), y=scaled_y)
            for name, power in arguments.items():
                value = bound.arguments.get(name)
                if isinstance(value, numbers.Real) and not isinstance(value, bool):
                    bound.arguments[name] = float(np.ldexp(float(value), power * e))
            return _in_callers_units(solver(*bound.args, **bound.kwargs), e, info)
        return run
    return wrap


def _in_callers_units(result, e: int, info: dict):
    """``result`` of the problem scaled by ``2^-e`` in the caller's units (:func:`scale_free`)."""
    if not isinstance(result, CoresetResult):
        return result               # weights: the same at every scale
    with np.errstate(over="ignore", under="ignore"):
        back = {key: np.ldexp(np.asarray(result.info[key], dtype=float), power * e) for key, power in info.items()
                if key in result.info}
        objective = np.ldexp(np.asarray(result.objective, dtype=float), 2 * e)
    return dataclasses.replace(result, objective=objective, info={**result.info, **{
        key: (float(v) if np.ndim(v) == 0 else v) for key, v in back.items()}})


def check_k(k, n: int, name: str = "k") -> int:
    """``1 <= k <= n``."""
    return check_int(name, k, low=1, high=n)


def check_k_grid(k, n: int, name: str = "k") -> np.ndarray:
    """An int or an iterable of ints, each in ``[1, n]``; returned sorted and unique."""
    if isinstance(k, Iterable) and not isinstance(k, str | bytes):
        ks = [check_int(name, kk, low=1, high=n) for kk in k]
        if not ks:
            raise ValueError(f"{name} must be a positive integer or a non-empty sequence of them")
        return np.unique(np.asarray(ks, dtype=int))
    return np.asarray([check_k(k, n, name)], dtype=int)


def check_stopping(tol, max_iter) -> tuple[float, int]:
    return check_real("tol", tol, low=0.0), check_int("max_iter", max_iter, low=1)


def check_weights(name: str, w, n: int) -> np.ndarray:
    """Coreset weights: a finite, non-negative vector of length ``n``."""
    w = check_nonneg(name, as_finite_array(name, w, ndim=1))
    if w.shape[0] != n:
        raise ValueError(f"{name} must have length n = {n} (one weight per column of Phi); got {w.shape[0]}")
    return w


def objective(Phi: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """``f(w) = ‖y − Φ w‖²`` (Zhang et al. 2021, eq. 3), using only the support of ``w``."""
    Phi, y = check_problem(Phi, y)
    return support_objective(Phi, y, check_weights("w", w, Phi.shape[1]))


def support_objective(Phi: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """:func:`objective` without the argument checks (for the solvers' inner loops)."""
    idx = np.flatnonzero(w)
    r = y - Phi[:, idx] @ w[idx] if idx.size else y
    return float(r @ r)


class Trace:
    """Objective and cumulative time per iteration (index 0 = the starting point)."""

    def __init__(self, f0: float):
        self._t0 = clock()
        self.objective = [float(f0)]
        self.times = [0.0]

    def record(self, f: float) -> None:
        self.objective.append(float(f))
        self.times.append(clock() - self._t0)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(self.objective), np.asarray(self.times)


#: what a size ``k`` means for a greedy method: ``"iterations"`` -- ``k`` greedy steps
#: (draws for Uniform), so at most ``k`` points, as in the peer library and the authors'
#: experiment scripts (one ``build`` step per size); ``"support"`` -- keep going until
#: the coreset has ``k`` distinct points (re-selections do not count).
SIZE_RULES = ("iterations", "support")


class GridRecorder:
    """Records the weights of a greedy method at each size of a sorted grid ``ks`` in one
    pass. ``until="iterations"``: the weights after iteration ``k``; ``until="support"``:
    the weights of the last iterate whose support had at most ``k`` points."""

    def __init__(self, ks: np.ndarray, n: int, until: str = "iterations"):
        check_choice("until", until, SIZE_RULES)
        self.ks = ks
        self.until = until
        self.weights = np.zeros((ks.size, n))
        self.iters = np.zeros(ks.size, dtype=int)   # iteration that produced each row
        self._j = 0
        self._last = np.zeros(n)
        self._last_it = 0
        self._calls = 0

    @property
    def done(self) -> bool:
        return self._j >= self.ks.size

    def overshoots(self, w: np.ndarray) -> bool:
        """(``until="support"``) whether ``w`` has more points than the largest size."""
        return self.until == "support" and np.count_nonzero(w) > self.ks[-1]

    def update(self, w: np.ndarray) -> None:
        """Offer the weights after an iteration."""
        self._calls += 1
        if self.until == "iterations":
            while self._j < self.ks.size and self._calls >= self.ks[self._j]:
                self.weights[self._j] = w
                self.iters[self._j] = self._calls
                self._j += 1
        else:
            nnz = np.count_nonzero(w)
            while self._j < self.ks.size and nnz > self.ks[self._j]:
                self.weights[self._j] = self._last
                self.iters[self._j] = self._last_it
                self._j += 1
        self._last = w.copy()
        self._last_it = self._calls

    def finish(self) -> np.ndarray:
        """Fill the sizes not reached with the last weights; return the weight stack."""
        while self._j < self.ks.size:
            self.weights[self._j] = self._last
            self.iters[self._j] = self._last_it
            self._j += 1
        return self.weights


def greedy_result(rec: GridRecorder, trace: Trace, n_iter: int, converged: bool, message: str, info: dict):
    W = rec.finish()
    obj, times = trace.arrays()
    info = dict(info, iter_at_size=rec.iters.copy())
    return CoresetResult(
        x=W[-1].copy(), objective=obj, n_iter=n_iter, converged=converged, message=message,
        times=times, info=info, ks=rec.ks.copy(), path_weights=W,
    )
