"""Optimisers for ``min_{θ ∈ C} Σ_f(A(θ)) + g(θ)`` (Han et al. 2018, problem (4), Sec. 4).

* :func:`sgd`     -- projected SGD with unbiased stochastic Chebyshev gradients (Algorithm 1, Eq. 12);
* :func:`sgd_det` -- the same with a fixed degree (biased, "SGD-DET" of Sec. 5.1);
* :func:`svrg`    -- Algorithm 2: exact gradient at a snapshot, control variate ``ψ(θ) - ψ(θ̃) + μ̃``
  with the same probes and degree at ``θ`` and ``θ̃``;
* :func:`gd`      -- projected gradient descent with exact gradients (eigen-decomposition);
* :func:`lanczos_gd` -- gradient descent with the LANCZOS baseline gradient (CG + Hutchinson, Dong et al. 2017);
* :func:`lanczos_lbfgs` -- the LANCZOS baseline as Dong et al. ran it: fixed probes, Lanczos quadrature, a
  line-search optimiser in ``log θ`` (GPML's ``minimize``, :func:`minimize_cg`, or scipy's L-BFGS-B);
* :func:`minimize_cg` -- Rasmussen's ``minimize.m`` (GPML): Polak-Ribière conjugate gradients with its
  cubic-extrapolation / interpolation line search under the Wolfe-Powell conditions.

A *problem* is any object with

* ``f`` -- the spectral function (name or callable), ``dim`` -- the size ``d`` of ``A``;
* ``interval(theta) -> (a, b)`` -- bounds containing the spectrum of ``A(θ)``;
* ``spectral_grad(theta, V, weights, a, b)`` -- gradient of the estimator with probes ``V`` and Chebyshev weights;
* ``exact_spectral_grad(theta)`` -- the exact ``∇ Σ_f(A(θ))`` (GD, SVRG snapshots);
* ``g_grad(theta)`` -- ``∇ g``; ``project(theta)`` -- the projection ``Π_C``;
* optional ``descent_step(theta, eta, direction)`` -- ``Π_C(θ - η (direction + ∇g(θ)))`` computed in the storage
  of ``direction``, which the optimisers hand over (a fresh array built from the problem's own gradients): a problem
  with a sparse ``∇g`` and a box ``C`` saves the ``d x r`` temporaries of the generic step (issue 27);
* optional ``frozen_iterates = True``: :func:`gd` and :func:`svrg` then hand the problem read-only iterates (GD's
  iterates, SVRG's snapshots; arrays owning their data, writeable again in the result), so that it may keep work
  done at one array for later calls with the same array (:class:`.completion.MatrixCompletion` keeps the Gram
  matrix and eigenvalues of an exact gradient: GD's objective at ``θ_t`` and SVRG's ``ψ(θ̃)`` reuse them), and
  :func:`gd` evaluates the objective at ``θ_t`` after the gradient at ``θ_t`` (outside the timed region, as every
  evaluation) instead of before it (issue 27);
* optional ``objective(theta)`` (exact objective) and ``metric(theta)`` (e.g. test RMSE) for the traces;
* optional ``lanczos_spectral_grad(theta, Z)`` for :func:`lanczos_gd`.

Every optimiser returns a :class:`SpectralSolveResult`: objective and metric traces at the
evaluated iterations, with the cumulative CPU time (:mod:`inferopt._clock`) spent *optimising* (evaluation excluded),
and a CRC-32 of the iterate's bits there (``checksums``: a repeat of a seeded run is checked against them).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import numpy as np

from .._clock import clock
from .._result import SolveResult
from .._progress import Progress
from .._validation import (as_finite_array, check_callable, check_choice, check_int, check_protocol, check_real,
                           check_returned, check_size)
from .estimators import ChebyshevSeries, make_degree_rule, rademacher
from .._random import as_generator


@dataclass(repr=False)  # keep SolveResult's short repr
class SpectralSolveResult(SolveResult):
    """:class:`SolveResult` plus ``iterations`` (the iteration of each trace entry), ``metric`` (test metric trace)
    and ``checksums`` (CRC-32 of the iterate's bytes at each trace entry: equal iterates, equal checksums),
    ``matvecs`` (the problem's count of products with ``A`` at each trace entry, when it keeps one: ``matvecs``)."""

    iterations: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    metric: np.ndarray = field(default_factory=lambda: np.zeros(0))
    checksums: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint32))
    matvecs: np.ndarray = field(default_factory=lambda: np.zeros(0))


# ----------------------------------------------------------------------------- steps and projection


def constant_step(eta):
    """``η_t = η``."""
    eta = check_real("eta (step size)", eta, low=0.0, low_open=True)
    return lambda t: eta


def inverse_time_step(eta0, decay=1.0):
    """``η_t = η_0 / (1 + decay · t)`` (the ``1/(αt)`` schedule of Theorem 5 for ``decay = 1``, large ``t``)."""
    eta0 = check_real("eta0 (initial step size)", eta0, low=0.0, low_open=True)
    decay = check_real("decay", decay, low=0.0)
    return lambda t: eta0 / (1.0 + decay * t)


def make_step(step):
    """A schedule ``t -> η_t`` from a positive number (constant) or a callable; a callable's
    every value is checked (finite, ``> 0``: a negative step would run ascent)."""
    if callable(step):
        return lambda t: float(check_returned("step", step(t), shape=(), low=0.0, low_open=True))
    return constant_step(step)


def project_box(x, low, high):
    """Euclidean projection onto the box ``{low <= x <= high}`` (elementwise; bounds may be arrays)."""
    x = as_finite_array("x", x)
    low, high = _check_box(low, high)
    return np.clip(x, low, high)


def box_projection(low, high):
    """The projection onto ``[low, high]`` as a callable; ``low <= high`` required."""
    low, high = _check_box(low, high)
    return lambda x: project_box(x, low, high)


def _check_box(low, high):
    """Bounds (numbers or arrays, ``-inf``/``inf`` allowed for an open side) with ``low <= high``."""
    low, high = (np.asarray(v) for v in (low, high))
    for name, v in (("low", low), ("high", high)):
        if v.dtype.kind not in "iuf":
            raise TypeError(f"{name} must be real numbers; got {v.dtype} {v!r}")
        if np.any(np.isnan(v)):
            raise ValueError(f"{name} must not be NaN")
    if np.any(low > high) or np.any(low == np.inf) or np.any(high == -np.inf):
        raise ValueError(f"low and high must satisfy low < inf, high > -inf and low <= high; got low={low}, high={high}")
    return low.astype(float), high.astype(float)


# ----------------------------------------------------------------------------- shared machinery


class _SeriesCache:
    """Chebyshev series of ``problem.f`` per interval (problems round intervals so that they repeat)."""

    def __init__(self, f):
        self.f = f
        self._cache = {}

    def __call__(self, a, b) -> ChebyshevSeries:
        key = (float(a), float(b))
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = ChebyshevSeries(self.f, a, b)
        return self._cache[key]


class _Trace:
    """The traces of a run. ``defer``: the objective and metric of a recorded iterate are evaluated after the next
    timed step (:meth:`stop`) rather than at once, so that a problem with ``frozen_iterates`` can reuse the work of
    the gradient at that iterate (GD); the values are those of the same iterate either way. ``counter``: the object
    whose ``matvecs`` (the work done so far) is traced beside the time (default ``problem``; NaN without one)."""

    def __init__(self, problem, eval_every: int, defer: bool = False, counter=None):
        self.problem, self.eval_every, self.defer = problem, eval_every, defer
        self.counter = problem if counter is None else counter
        self.iterations, self.objective, self.metric, self.times, self.checksums = [], [], [], [], []
        self.matvecs = []
        self.clock = 0.0
        self._t0 = None
        self._pending = []   # (trace index, iterate) not evaluated yet

    def start(self):
        self._t0 = clock()

    def stop(self):
        self.clock += clock() - self._t0
        self.flush()

    def record(self, it: int, theta, force: bool = False):
        if not (force or it % self.eval_every == 0):
            return
        self.iterations.append(it)
        self.objective.append(np.nan)
        self.metric.append(np.nan)
        self.times.append(self.clock)
        self.matvecs.append(float(getattr(self.counter, "matvecs", np.nan)))
        self.checksums.append(zlib.crc32(np.ascontiguousarray(theta, dtype=float).data))
        self._pending.append((len(self.iterations) - 1, theta))
        if not self.defer:
            self.flush()

    def flush(self):
        """Evaluate the objective and metric of the recorded iterates not evaluated yet."""
        obj = getattr(self.problem, "objective", None)
        met = getattr(self.problem, "metric", None)
        for i, theta in self._pending:
            self.objective[i] = obj(theta) if obj is not None else np.nan
            self.metric[i] = met(theta) if met is not None else np.nan
        self._pending.clear()

    def result(self, theta, n_iter, message, **info) -> SpectralSolveResult:
        if not self.iterations or self.iterations[-1] != n_iter:
            self.record(n_iter, theta, force=True)
        self.flush()
        return SpectralSolveResult(
            x=theta,
            objective=np.asarray(self.objective, dtype=float),
            n_iter=n_iter,
            converged=False,
            message=message,
            times=np.asarray(self.times, dtype=float),
            info=info,
            iterations=np.asarray(self.iterations, dtype=int),
            metric=np.asarray(self.metric, dtype=float),
            checksums=np.asarray(self.checksums, dtype=np.uint32),
            matvecs=np.asarray(self.matvecs, dtype=float),
        )


def check_start(problem, theta0, *attributes: str) -> np.ndarray:
    """``problem`` has ``project``, ``g_grad`` and ``attributes`` (module docstring); ``theta0`` is a finite,
    non-empty array."""
    check_protocol("problem", problem, "project", "g_grad", *attributes,
                   what="an optimisation problem (see inferopt.spectral.optim)")
    theta0 = as_finite_array("theta0", theta0, nonempty=True)
    shape = getattr(problem, "shape", None)
    if shape is not None and theta0.shape != tuple(shape):
        raise ValueError(f"theta0 must have the problem's shape {tuple(shape)}; got {theta0.shape}")
    return theta0


def _check_common(M, n_iter, eval_every, dim: int):
    """The probe count (``dim``-long probes), the iteration budget (a degree and an interval kept per
    iteration) and the evaluation interval, each within what this machine holds."""
    return (
        check_size("M (number of probe vectors)", M, item_bytes=9 * dim, item="probe of length d"),
        check_size("max_iter", n_iter, low=0, item_bytes=8 * 3, item="iteration (its degree and interval)"),
        check_int("eval_every", eval_every, low=1),
    )


def check_time_budget(max_time):
    """A time budget: ``None`` (none) or positive CPU seconds of the optimisation's own clock."""
    return None if max_time is None else check_real("max_time (CPU seconds)", max_time, low=0.0, low_open=True)


def _stop_message(n_done: int, n_iter: int) -> str:
    return "iteration budget reached" if n_done >= n_iter else "time budget reached"


def _descent(problem):
    """``(θ, η, direction) -> Π_C(θ − η (direction + ∇g(θ)))``: the problem's ``descent_step`` (in place in
    ``direction``) if it has one, else ``project`` and ``g_grad``."""
    step = getattr(problem, "descent_step", None)
    if step is not None:
        return step
    return lambda theta, eta, direction: problem.project(theta - eta * (direction + problem.g_grad(theta)))


def _freeze(theta, on: bool = True):
    """``theta`` read-only (if ``on`` and it owns its data): see ``frozen_iterates`` in the module docstring."""
    if on and theta.flags.owndata:
        theta.flags.writeable = False
    return theta


def _thaw(theta):
    """``theta`` writeable again (the result handed to the caller)."""
    if not theta.flags.writeable and theta.flags.owndata:
        theta.flags.writeable = True
    return theta


def _projected_descent(problem, theta0, *, n_iter, step, eval_every, progress, desc, spectral_grad, callback=None,
                       share=False, max_time=None, cap=None):
    """The loop every optimiser here shares: ``θ ← Π_C(θ − η_t (spectral_grad(t, θ) + ∇g(θ)))``, timed
    (evaluations excluded) and traced every ``eval_every`` steps. ``spectral_grad`` returns a fresh array
    (handed to ``descent_step``). ``share`` (GD) with a problem's ``frozen_iterates``: read-only iterates, each
    evaluated after the gradient at it. ``max_time``: stop after the step at which the optimisation's clock reaches
    it (a time budget; ``n_iter`` still caps the steps). ``cap``: a callable ``cap(done) -> int`` asked after each step
    (``done`` steps made; ``max_time`` first): the step cap from then on, at least ``done`` (``n_iter`` the first). Nothing a
    step does reads the cap, so a run whose cap moves is the run made with its last cap as ``n_iter``. Returns ``(θ, trace,
    steps done, last cap)``; ``θ`` writeable."""
    schedule = make_step(step)
    descend = _descent(problem)
    share = bool(share and getattr(problem, "frozen_iterates", False))
    if callback is not None:
        check_callable("callback", callback)
    if cap is not None:
        check_callable("cap", cap)
    bar = Progress(desc, n_iter, progress, size="max_iter", seconds=max_time)
    theta = _freeze(problem.project(np.array(theta0, dtype=float)), share)
    trace = _Trace(problem, eval_every, defer=share)
    trace.record(0, theta)
    done = 0
    while done < n_iter:
        t = done
        trace.start()
        theta = _freeze(descend(theta, schedule(t), spectral_grad(t, theta)), share)
        trace.stop()
        done = t + 1
        trace.record(done, theta)
        if callback is not None:
            callback(t, theta)
        bar.update()
        if max_time is not None and trace.clock >= max_time:
            break
        if cap is not None:
            n_iter = check_size("cap (its value)", cap(done), low=done, item_bytes=8 * 3, item="iteration (its degree and interval)")
    bar.close()
    trace.flush()
    return _thaw(theta), trace, done, n_iter


# ----------------------------------------------------------------------------- Algorithm 1 and SGD-DET


def sgd(
    problem,
    theta0,
    *,
    max_iter: int,
    step,
    M: int = 10,
    N=15,
    distribution="optimal",
    degree=None,
    p: float = 0.5,
    rng=None,
    eval_every: int = 1,
    progress: bool = False,
    callback=None,
    max_time=None,
    cap=None,
) -> SpectralSolveResult:
    """Projected SGD, Algorithm 1: ``θ ← Π_C(θ - η_t (ψ + ∇g(θ)))`` with ``ψ`` the estimator (12).

    ``N``/``distribution`` choose the random degree (unbiased); ``degree`` a fixed one (SGD-DET, biased).
    ``step``: a positive number or a schedule ``t -> η_t``. ``callback(t, theta)`` after each step.
    ``info`` holds the degree and the interval ``[a, b]`` of every step: when ``b/a`` is huge, ``rho -> 1``
    and the optimal distribution (Theorem 3) puts almost all its mass on degree ``K = 0`` (a zero
    gradient) and the rest on very high degrees -- unbiased, but slow; check ``info["degrees"]``.
    ``max_time``: a time budget (CPU seconds of the optimisation; ``max_iter`` caps the steps as well).
    ``cap``: a callable ``cap(done) -> int`` asked after each step, the step cap from then on (``max_iter`` the first; the
    run ends at ``done`` steps when it returns ``done``): the run is the one made with its last cap as ``max_iter``.
    """
    theta0 = check_start(problem, theta0, "f", "dim", "interval", "spectral_grad")
    M, n_iter, eval_every = _check_common(M, max_iter, eval_every, problem.dim)
    max_time = check_time_budget(max_time)
    rng = as_generator(rng)
    series_of = _SeriesCache(problem.f)
    degrees, intervals = [], []     # step t's at index t (the cap may move: lists)

    def estimator(t, theta):
        series = series_of(*problem.interval(theta))
        rule = make_degree_rule(series, degree=degree, N=None if degree is not None else N, distribution=distribution, p=p)
        weights = rule.draw(rng)
        degrees.append(weights.size - 1)
        intervals.append((series.a, series.b))
        return problem.spectral_grad(theta, rademacher(rng, problem.dim, M), weights, series.a, series.b)

    theta, trace, done, n_iter = _projected_descent(
        problem, theta0, n_iter=n_iter, step=step, eval_every=eval_every, progress=progress,
        desc="SGD-DET" if degree is not None else "SGD", spectral_grad=estimator, callback=callback, max_time=max_time, cap=cap,
    )
    return trace.result(theta, done, _stop_message(done, n_iter), degrees=np.asarray(degrees, dtype=int),
                        intervals=np.asarray(intervals, dtype=float).reshape(-1, 2))


def sgd_det(problem, theta0, *, degree: int, **kwargs) -> SpectralSolveResult:
    """SGD-DET: :func:`sgd` with a fixed Chebyshev degree (biased gradients, Sec. 5.1)."""
    kwargs.pop("N", None)
    return sgd(problem, theta0, degree=check_int("degree", degree, low=0), **kwargs)


# ----------------------------------------------------------------------------- Algorithm 2


def svrg(
    problem,
    theta0,
    *,
    n_outer: int,
    n_inner: int,
    step,
    M: int = 10,
    N=15,
    distribution="optimal",
    p: float = 0.5,
    snapshot: str = "average",
    rng=None,
    eval_every: int = 1,
    progress: bool = False,
    max_iter: int | None = None,
    max_time=None,
) -> SpectralSolveResult:
    """SVRG, Algorithm 2.

    For each of ``n_outer`` epochs: ``μ̃ = ∇Σ_f(A(θ̃))`` exactly; then ``n_inner`` steps
    ``θ ← Π_C(θ - η(ψ(θ) - ψ(θ̃) + μ̃ + ∇g(θ)))`` where ``ψ(θ)`` and ``ψ(θ̃)`` share probes and degree
    (and the interval, the union of both), so ``ψ(θ̃) - μ̃`` is a zero-mean control variate.
    The new snapshot is the average of the inner iterates (``snapshot="average"``, line 10) or the last one.
    Iterations count inner steps; the traces are recorded every ``eval_every`` inner steps; ``info`` holds
    ``n_full_gradients`` (the snapshots' exact gradients), ``n_inner`` and ``degrees`` (the degree drawn at each inner step).
    ``max_iter`` (default ``n_outer · n_inner``) stops the run after that many inner steps, inside an epoch if
    need be, and returns the last iterate: the same iterates as the whole run up to there (a timing
    repeat that only needs the time to a target stops where the target was reached). ``max_time``: a time budget
    (CPU seconds of the optimisation, the snapshots' exact gradients included): the run stops after the inner step at
    which the clock reaches it, and returns its last iterate.
    """
    theta0 = check_start(problem, theta0, "f", "dim", "interval", "spectral_grad", "exact_spectral_grad")
    M = check_size("M (number of probe vectors)", M, item_bytes=9 * problem.dim, item="probe of length d")
    n_outer = check_int("n_outer", n_outer, low=0)
    n_inner = check_int("n_inner", n_inner, low=1)
    eval_every = check_int("eval_every", eval_every, low=1)
    total = n_outer * n_inner if max_iter is None else min(check_int("max_iter", max_iter, low=0), n_outer * n_inner)
    check_choice("snapshot", snapshot, ("average", "last"))
    max_time = check_time_budget(max_time)
    eta = check_real("step", step, low=0.0, low_open=True) if not callable(step) else None
    schedule = make_step(step) if eta is None else constant_step(eta)
    rng = as_generator(rng)
    series_of = _SeriesCache(problem.f)
    in_place = getattr(problem, "descent_step", None) is not None
    descend = _descent(problem)
    frozen = bool(getattr(problem, "frozen_iterates", False))   # read-only snapshots (module docstring)
    snap = _freeze(problem.project(np.array(theta0, dtype=float)), frozen)
    trace = _Trace(problem, eval_every)
    trace.record(0, snap)
    it = 0
    degrees = []   # the degree drawn at each inner step (work counts; no effect on the run; grows with the run, not max_iter)
    bar = Progress("SVRG", total, progress, size="n_outer x n_inner" if max_iter is None else "max_iter",
                   seconds=max_time)
    for _ in range(-(-total // n_inner)):
        trace.start()
        mu = problem.exact_spectral_grad(snap)
        a_s, b_s = problem.interval(snap)
        theta = snap.copy()
        acc = np.zeros_like(theta)
        trace.stop()
        steps = min(n_inner, total - it)
        for _t in range(steps):
            trace.start()
            a, b = problem.interval(theta)
            series = series_of(min(a, a_s), max(b, b_s))
            weights = make_degree_rule(series, N=N, distribution=distribution, p=p).draw(rng)
            degrees.append(weights.size - 1)
            V = rademacher(rng, problem.dim, M)
            psi = problem.spectral_grad(theta, V, weights, series.a, series.b)
            psi_snap = problem.spectral_grad(snap, V, weights, series.a, series.b)
            if in_place:   # psi - psi_snap + mu in psi's storage (the same sums in the same order)
                psi -= psi_snap
                psi += mu
                direction = psi
            else:
                direction = psi - psi_snap + mu
            theta = descend(theta, schedule(it), direction)
            acc += theta
            it += 1
            trace.stop()
            trace.record(it, theta)
            bar.update()
            if max_time is not None and trace.clock >= max_time:
                break
        if it < total and max_time is not None and trace.clock >= max_time or steps < n_inner:
            snap = theta   # stopped by the time budget or inside an epoch (max_iter): the last iterate, no new snapshot
            break
        snap = _freeze(acc / n_inner if snapshot == "average" else theta, frozen)
    bar.close()
    out = trace.result(snap, it, _stop_message(it, total), n_full_gradients=-(-it // n_inner) if it else 0,
                       n_inner=n_inner, degrees=np.asarray(degrees[:it], dtype=int))
    _thaw(out.x)
    return out


# ----------------------------------------------------------------------------- exact and LANCZOS baselines


def gd(problem, theta0, *, max_iter: int, step, eval_every: int = 1, progress: bool = False,
       max_time=None) -> SpectralSolveResult:
    """Projected gradient descent with the exact gradient ``∇Σ_f(A(θ)) + ∇g(θ)`` (eigen-decomposition);
    ``max_time``: a time budget (CPU seconds), ``max_iter`` caps the steps as well."""
    theta0 = check_start(problem, theta0, "exact_spectral_grad")
    n_iter = check_int("max_iter", max_iter, low=0)
    eval_every = check_int("eval_every", eval_every, low=1)
    max_time = check_time_budget(max_time)
    theta, trace, done, _ = _projected_descent(
        problem, theta0, n_iter=n_iter, step=step, eval_every=eval_every, progress=progress, desc="GD",
        spectral_grad=lambda t, theta: problem.exact_spectral_grad(theta), share=True, max_time=max_time,
    )
    return trace.result(theta, done, _stop_message(done, n_iter))


def lanczos_gd(
    problem, theta0, *, max_iter: int, step, M: int = 10, rng=None, eval_every: int = 1, progress: bool = False,
    max_time=None, Z=None, cap=None,
) -> SpectralSolveResult:
    """The LANCZOS baseline: gradient steps with ``problem.lanczos_spectral_grad`` (CG + Hutchinson, Dong et al. 2017),
    fresh probes at every step, or the fixed probes ``Z`` (``d x M``) at every step (Dong et al.'s code draws its
    probes once); ``max_time``: a time budget (CPU seconds); ``cap``: the step cap after each step, as :func:`sgd`'s."""
    theta0 = check_start(problem, theta0, "dim", "lanczos_spectral_grad")
    M, n_iter, eval_every = _check_common(M, max_iter, eval_every, problem.dim)
    max_time = check_time_budget(max_time)
    rng = as_generator(rng)
    if Z is not None:
        Z = as_finite_array("Z", Z, ndim=2, nonempty=True)
        if Z.shape[0] != problem.dim:
            raise ValueError(f"Z must have the problem's {problem.dim} rows; got shape {Z.shape}")
    probes = (lambda: Z) if Z is not None else (lambda: rademacher(rng, problem.dim, M))
    theta, trace, done, n_iter = _projected_descent(
        problem, theta0, n_iter=n_iter, step=step, eval_every=eval_every, progress=progress, desc="LANCZOS",
        spectral_grad=lambda t, theta: problem.lanczos_spectral_grad(theta, probes()),
        max_time=max_time, cap=cap,
    )
    return trace.result(theta, done, _stop_message(done, n_iter))


def lanczos_lbfgs(
    problem, theta0, *, Z, n_steps: int = 25, cg_tol: float = 1e-2, max_evals: int = 50, bounded: bool = False,
    evaluator=None, progress: bool = False, optimiser: str = "L-BFGS-B",
) -> SpectralSolveResult:
    """The LANCZOS baseline as Dong et al. (2017) ran it for the paper's Fig. 3 (``kd383/GPML_SLD``,
    ``demo/sound/demo_sound.m``): the probes ``Z`` (their code: 5 Rademacher vectors) are drawn ONCE for the whole
    run, so the estimated objective is a deterministic function that a line search can work on; the objective and
    its gradient come from ``problem.dong_value_and_grad(θ, Z, n_steps, cg_tol)`` (``n_steps`` Lanczos steps, CG
    tolerance ``cg_tol`` for ``α``); the hyperparameters are optimised in ``log θ`` (GPML's parameterisation) by a
    line-search method for at most ``max_evals`` evaluations (their ``-50``): ``optimiser="minimize"``, theirs, GPML's
    ``minimize`` (:func:`minimize_cg`), or ``"L-BFGS-B"``, scipy's quasi-Newton method. ``bounded``: keep ``θ`` in
    the problem's box (their code has no bounds; L-BFGS-B projects; ``minimize`` has none: it works on
    ``φ ↦ L(exp(clip φ))``, whose gradient is 0 across a bound, so its line searches slide along the box). The trace is recorded at every accepted iterate with the CPU time
    spent in the evaluations so far; its objective and metric come from ``evaluator`` (default ``problem``), outside
    the timed region."""
    check_start(problem, theta0, "dong_value_and_grad", "dim", "low", "high")
    theta0 = problem.project(np.array(theta0, dtype=float))
    if np.any(theta0 <= 0):
        raise ValueError(f"theta0 must be positive (the optimisation runs in log θ); got {theta0}")
    n_steps = check_int("n_steps (Lanczos steps)", n_steps, low=1)
    max_evals = check_int("max_evals", max_evals, low=1)
    cg_tol = check_real("cg_tol", cg_tol, low=0.0, low_open=True)
    Z = as_finite_array("Z", Z, ndim=2, nonempty=True)
    if Z.shape[0] != problem.dim:
        raise ValueError(f"Z must have the problem's {problem.dim} rows; got shape {Z.shape}")
    if not isinstance(bounded, bool | np.bool_):
        raise TypeError(f"bounded must be True or False; got {bounded!r}")
    if evaluator is not None:
        check_protocol("evaluator", evaluator, "objective", "metric", what="a problem to evaluate the iterates")
    optimiser = check_choice("optimiser", optimiser, ("L-BFGS-B", "minimize"))
    import scipy.optimize

    trace = _Trace(problem if evaluator is None else evaluator, 1, counter=problem)
    trace.record(0, theta0)
    bar = Progress("LANCZOS (L-BFGS)", max_evals, progress)
    count = {"evals": 0, "iterations": 0, "failed": 0}

    def fun(phi):
        if count["evals"] >= max_evals:
            raise _EvaluationBudget      # scipy checks maxfun between iterations only: stop inside a line search too
        trace.start()
        theta = np.exp(clip(phi))
        try:
            value, grad = problem.dong_value_and_grad(theta, Z, n_steps, cg_tol)
            grad = np.where(clip(phi) == phi, grad * theta, 0.0)   # d/d log θ; 0 across a bound (minimize: L(clip φ))
        except (ValueError, FloatingPointError):
            # a step into numerically indefinite A (tiny noise, huge lengthscale): reported as +inf, so the line search
            # backs off, as GPML's minimize bisects a step whose evaluation fails
            value, grad = np.inf, np.full(theta.shape, np.nan)
            count["failed"] += 1
        trace.stop()
        count["evals"] += 1
        bar.update()
        return value, grad

    def record(phi):
        count["iterations"] += 1
        trace.record(count["iterations"], np.exp(clip(np.asarray(phi, dtype=float))))

    bounds = list(zip(np.log(problem.low), np.log(problem.high))) if bounded else None
    # minimize has no bounds: in the box it works on φ ↦ L(exp(clip φ)), flat across a bound, so a line search slides along it
    clip = (lambda phi: np.clip(phi, np.log(problem.low), np.log(problem.high))) if bounded and optimiser == "minimize" else (lambda phi: phi)
    last = {"phi": np.log(theta0)}

    def callback(phi):    # each accepted iterate is traced and kept (a stop inside a line search returns it)
        last["phi"] = np.array(phi, dtype=float)
        record(phi)

    try:
        if optimiser == "minimize":
            phi, _, _ = minimize_cg(fun, np.log(theta0), max_evals, callback=callback)
            message = f"GPML minimize: {count['evals']} evaluations"
        else:
            res = scipy.optimize.minimize(fun, np.log(theta0), jac=True, method="L-BFGS-B", bounds=bounds, callback=callback,
                                          options={"maxfun": max_evals, "maxiter": max_evals})
            phi, message = res.x, str(res.message)
    except _EvaluationBudget:
        phi, message = last["phi"], f"evaluation budget ({max_evals}) reached"
    bar.close()
    return trace.result(np.exp(clip(phi)), count["iterations"], message, n_evaluations=count["evals"],
                        failed_evaluations=count["failed"], optimiser=optimiser)


#: minimize.m's constants: INT, EXT (interpolation / extrapolation limits), MAX (evaluations per line search),
#: RATIO (largest slope ratio), SIG and RHO (the Wolfe-Powell conditions)
_INT, _EXT, _MAX, _RATIO, _SIG = 0.1, 3.0, 20, 10.0, 0.1
_RHO = _SIG / 2


def minimize_cg(fun, x0, max_evals: int, callback=None):
    """Rasmussen's ``minimize.m`` (GPML, ``util/minimize.m``; C. E. Rasmussen 2006), ported line by line:
    Polak-Ribière conjugate gradients, directions ``s ← (df₁ᵀdf₁ - df₀ᵀdf₁)/(df₀ᵀdf₀) s - df₁`` (reset to steepest
    descent when not a descent direction), each line search by cubic extrapolation then cubic / quadratic
    interpolation until the Wolfe-Powell conditions ``|f'(x₃)| ≤ -SIG f'(0)`` and ``f(x₃) ≤ f(0) + x₃ RHO f'(0)``
    hold; a failed evaluation (non-finite value or gradient) bisects the step. ``fun(x) -> (value, gradient)``; at
    most ``max_evals`` evaluations (minimize.m's ``length = -max_evals``, GPML's ``-50``; its other mode, a count of
    line searches, is not used by Dong et al.). ``callback(x)`` at each accepted iterate. Returns ``(x, values at the
    accepted iterates, evaluations)``."""
    check_callable("fun", fun)
    max_evals = check_int("max_evals", max_evals, low=1)
    X = as_finite_array("x0", x0, ndim=1, nonempty=True).copy()

    def call(x):     # a non-finite value or gradient is a failed evaluation; a complex or misshapen one is a wrong fun
        out = fun(x)
        if not isinstance(out, tuple) or len(out) != 2:
            raise TypeError(f"fun must return (value, gradient); got {type(out).__name__}")
        f, df = np.asarray(out[0]), np.asarray(out[1])
        if np.iscomplexobj(f) or np.iscomplexobj(df) or f.shape != () or df.shape != X.shape:
            raise TypeError(f"fun must return a real value and a real gradient of shape {X.shape}; got {f.dtype} {f.shape}, "
                            f"{df.dtype} {df.shape}")
        return float(f), df.astype(float)

    f0, df0 = call(X)
    if not (np.isfinite(f0) and np.all(np.isfinite(df0))):
        raise ValueError(f"fun must be finite at x0; got {f0}")
    fX = [f0]
    i = 1                                       # evaluations so far
    s = -df0
    d0 = -s @ s
    x3 = 1.0 / (1.0 - d0)                       # initial step: red / (1 - d0), red = 1
    ls_failed = False
    while i < max_evals:
        X0, F0, dF0 = X.copy(), f0, df0.copy()
        M = min(_MAX, max_evals - i)            # evaluations left to this line search
        while True:                             # extrapolate
            x2, f2, d2, f3, df3 = 0.0, f0, d0, f0, df0.copy()
            success = False
            while not success and M > 0:
                M -= 1
                i += 1
                f3, df3 = call(X + x3 * s)
                if np.isfinite(f3) and np.all(np.isfinite(df3)):
                    success = True
                else:
                    x3 = (x2 + x3) / 2          # a failed evaluation: bisect the step
            if not success:
                f3, df3 = f0, df0.copy()
            if f3 < F0:
                X0, F0, dF0 = X + x3 * s, f3, df3.copy()
            d3 = df3 @ s
            if d3 > _SIG * d0 or f3 > f0 + x3 * _RHO * d0 or M == 0:
                break
            x1, f1, d1 = x2, f2, d2
            x2, f2, d2 = x3, f3, d3
            A = 6 * (f1 - f2) + 3 * (d2 + d1) * (x2 - x1)
            B = 3 * (f2 - f1) - (2 * d1 + d2) * (x2 - x1)
            disc = B * B - A * d1 * (x2 - x1)
            with np.errstate(all="ignore"):
                x3 = x1 - d1 * (x2 - x1) ** 2 / (B + np.sqrt(disc)) if disc >= 0 else np.nan
            if not np.isfinite(x3) or x3 < 0:
                x3 = x2 * _EXT
            elif x3 > x2 * _EXT:
                x3 = x2 * _EXT
            elif x3 < x2 + _INT * (x2 - x1):
                x3 = x2 + _INT * (x2 - x1)
        x4, f4, d4 = x3, f3, d3
        while (abs(d3) > -_SIG * d0 or f3 > f0 + x3 * _RHO * d0) and M > 0:     # interpolate
            if d3 > 0 or f3 > f0 + x3 * _RHO * d0:
                x4, f4, d4 = x3, f3, d3
            else:
                x2, f2, d2 = x3, f3, d3
            with np.errstate(all="ignore"):
                if f4 > f0:
                    x3 = x2 - (0.5 * d2 * (x4 - x2) ** 2) / (f4 - f2 - d2 * (x4 - x2))
                else:
                    A = 6 * (f2 - f4) / (x4 - x2) + 3 * (d4 + d2)
                    B = 3 * (f4 - f2) - (2 * d2 + d4) * (x4 - x2)
                    x3 = x2 + (np.sqrt(B * B - A * d2 * (x4 - x2) ** 2) - B) / A
            if not np.isfinite(x3):
                x3 = (x2 + x4) / 2
            x3 = max(min(x3, x4 - _INT * (x4 - x2)), x2 + _INT * (x4 - x2))
            f3, df3 = call(X + x3 * s)
            if not (np.isfinite(f3) and np.all(np.isfinite(df3))):
                f3, df3 = np.inf, np.full_like(df0, np.nan)
            if f3 < F0:
                X0, F0, dF0 = X + x3 * s, f3, df3.copy()
            M -= 1
            i += 1
            d3 = df3 @ s if np.all(np.isfinite(df3)) else np.inf
        if abs(d3) < -_SIG * d0 and f3 < f0 + x3 * _RHO * d0:     # line search succeeded
            X = X + x3 * s
            f0 = f3
            fX.append(f0)
            if callback is not None:
                callback(X.copy())
            s = (df3 @ df3 - df0 @ df3) / (df0 @ df0) * s - df3    # Polak-Ribière
            df0 = df3
            d3, d0 = d0, df0 @ s
            if d0 > 0:
                s = -df0
                d0 = -s @ s
            x3 = x3 * min(_RATIO, d3 / (d0 - np.finfo(float).tiny))
            ls_failed = False
        else:                                   # back to the best point of the line search
            moved = F0 < f0
            X, f0, df0 = X0, F0, dF0
            if moved and callback is not None:
                fX.append(f0)
                callback(X.copy())
            if ls_failed or i > max_evals:
                break
            s = -df0
            d0 = -s @ s
            x3 = 1.0 / (1.0 - d0)
            ls_failed = True
    return X, np.asarray(fX), i


class _EvaluationBudget(Exception):
    """Raised by :func:`lanczos_lbfgs`'s objective when its evaluation budget is spent."""
