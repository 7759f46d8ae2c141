"""Helpers of the spectral-optimisation experiments (D3, D5): time to a target quality, speed-ups, and a run's
first iterations."""

from __future__ import annotations

import dataclasses
import numbers

import numpy as np

from ..._validation import as_finite_array, check_choice, check_int, check_protocol, check_real
from ..claims import DegenerateTest, check_statistic


def time_to(result, target: float, missing: float = float("nan"), *, trace: str = "metric") -> float:
    """Wall time at which ``result.metric`` (a :class:`~inferopt.spectral.SpectralSolveResult`
    with ``metric`` and ``times`` recorded at the same iterations) first reaches ``<= target``;
    ``missing`` (default NaN) if it never does. ``trace="objective"``: the exact objective instead."""
    check_protocol("result", result, "metric", "objective", "times", what="a SpectralSolveResult")
    target = check_real("target", target)
    check_choice("trace", trace, ("metric", "objective"))
    if isinstance(missing, bool | np.bool_) or not isinstance(missing, numbers.Real):
        raise TypeError(f"missing must be a real number (NaN by default); got {missing!r}")
    hit = np.flatnonzero(np.asarray(getattr(result, trace)) <= target)
    return float(result.times[hit[0]]) if hit.size else float(missing)


def _trace(name: str, value) -> np.ndarray:
    """A run's 1-d metric trace: real numbers, NaN or +inf allowed (a diverged run), -inf refused."""
    if isinstance(value, str | bytes):
        raise TypeError(f"{name} must be a numeric trace; got a string {value!r}")
    raw = np.asarray(value)
    if np.iscomplexobj(raw) or raw.dtype == bool or not np.issubdtype(raw.dtype, np.number):
        raise TypeError(f"{name} must be a real numeric trace; got dtype {raw.dtype}")
    arr = raw.astype(float)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-d trace; got shape {arr.shape}")
    if np.any(arr == -np.inf):
        raise ValueError(f"{name} must not contain -inf")
    return arr


def stays_below(metric, target: float, times=None, until: float = float("inf")):
    """The index of the first evaluation from which ``metric`` stays ``<= target`` through its last evaluation at or
    before ``until`` (``times``: the evaluations' times, needed with a finite ``until``); None if the last one is above
    the target. A dip below the target that rises above it again is not a time to the target: the run is there
    only once it stays there (within the budget it was read to)."""
    metric = _trace("metric", metric)
    target = check_real("target", target)
    end = metric.size
    if isinstance(until, bool | np.bool_) or not isinstance(until, numbers.Real) or np.isnan(until) or until < 0:
        raise ValueError(f"until must be a non-negative number of seconds or inf; got {until!r}")
    if np.isfinite(until):
        if times is None:
            raise ValueError("times must be given with a finite until")
        times = as_finite_array("times", times, ndim=1)
        if times.shape != metric.shape:
            raise ValueError(f"times must match metric's shape {metric.shape}; got {times.shape}")
        end = int(np.searchsorted(times, check_real("until", until, low=0.0), side="right"))
    if end == 0 or not metric[end - 1] <= target:
        return None
    above = np.flatnonzero(~(metric[:end] <= target))       # NaN counts as above
    return int(above[-1]) + 1 if above.size else 0


def time_to_stay(result, target: float, missing: float = float("nan"), *, until: float = float("inf")) -> float:
    """Time at which the test RMSE ``result.metric`` reaches ``target`` and stays at or below it through the run's
    last evaluation at or before ``until`` seconds (:func:`stays_below`); ``missing`` if it does not."""
    check_protocol("result", result, "metric", "times", what="a SpectralSolveResult")
    if isinstance(missing, bool | np.bool_) or not isinstance(missing, numbers.Real):
        raise TypeError(f"missing must be a real number (NaN by default); got {missing!r}")
    if isinstance(missing, float) and np.isneginf(missing):
        raise ValueError("missing must be NaN, inf or a time; got -inf")
    k = stays_below(result.metric, target, result.times, until)
    return float(missing) if k is None else float(np.asarray(result.times)[k])


def progress_target(results, share: float, *, trace: str = "metric") -> float:
    """The target of a time-to-target comparison of ``results`` (runs from the same start, each a
    :class:`~inferopt.spectral.SpectralSolveResult`): ``share`` of the way from the best value of ``trace`` at the
    first evaluation after the start to the best final value,

        target = e1 - share * (e1 - best),  e1 = min over runs of trace[1],  best = min over runs of trace[-1].

    Every run's first evaluation is at least ``e1`` > target, so no run meets it at the start or at its first
    evaluation, where a time would be the cost of one evaluation interval rather than a time to the target. Raises
    :class:`~.claims.DegenerateTest` when a value is not finite, when the runs make no progress after their first
    evaluation (``best >= e1``: nothing to time), or when a run starts at or below the target."""
    check_choice("trace", trace, ("metric", "objective"))
    share = check_real("share", share, low=0.0, high=1.0, low_open=True)
    runs = list(results.values()) if isinstance(results, dict) else list(results)
    if not runs:
        raise ValueError("results must hold at least one run")
    traces = []
    for r in runs:
        check_protocol("result", r, trace, what="a SpectralSolveResult")
        v = np.asarray(getattr(r, trace), dtype=float)
        if v.size < 3:
            raise ValueError(f"each run must record its start, a first evaluation and a later one; got {v.size} entries")
        traces.append(v)
    first = check_statistic(f"best {trace} at the first evaluation", min(v[1] for v in traces))
    best = check_statistic(f"best final {trace}", min(v[-1] for v in traces))
    if not best < first:
        raise DegenerateTest(f"no run improves its {trace} after the first evaluation (best there {first:.6g}, best "
                             f"final {best:.6g}): there is no target to time")
    target = first - share * (first - best)
    start = min(check_statistic(f"start {trace}", v[0]) for v in traces)
    if start <= target:
        raise DegenerateTest(f"the target {target:.6g} is met at the start ({start:.6g})")
    return target


def faster(fast: float, slow: float, factor: float = 1.0):
    """Did the method that took ``fast`` seconds reach the target at least ``factor`` times
    sooner than the one that took ``slow`` (NaN: never reached)? ``None`` if neither reached it."""
    fast, slow = _seconds("fast", fast), _seconds("slow", slow)
    factor = check_real("factor", factor, low=0.0, low_open=True)
    if np.isnan(fast) and np.isnan(slow):
        return None
    if np.isnan(fast):
        return False
    return bool(np.isnan(slow) or slow >= factor * fast)


def _seconds(name: str, value) -> float:
    """A time: a non-negative real number, or NaN for a target never reached."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_) and np.isnan(value):
        return float("nan")
    return check_real(name, value, low=0.0)


def truncated(result, until: int):
    """``result`` (a :class:`~inferopt.spectral.SpectralSolveResult`) read as the run of its first ``until``
    iterations: its trace entries (``iterations``, ``objective``, ``metric``, ``times``, ``checksums``) up to
    iteration ``until``, which must be a recorded one. A seeded run's first iterations do not depend on its budget
    (the step schedule is a function of the iteration), so this is the trace a run with ``max_iter = until`` records:
    a verdict map that runs its settings for ``until`` iterations compares them with the main runs read this way.
    ``x`` and ``info`` stay the whole run's (they are not traces)."""
    check_protocol("result", result, "iterations", "objective", "metric", "times", "checksums",
                   what="a SpectralSolveResult")
    until = check_int("until (iteration)", until, low=0)
    iterations = np.asarray(result.iterations)
    if until not in iterations:
        raise ValueError(f"until={until} must be a recorded iteration of result; recorded: {iterations.tolist()}")
    k = int(np.flatnonzero(iterations == until)[0]) + 1
    return dataclasses.replace(result, n_iter=until, iterations=iterations[:k], objective=np.asarray(result.objective)[:k],
                               metric=np.asarray(result.metric)[:k], times=np.asarray(result.times)[:k],
                               checksums=np.asarray(result.checksums)[:k], matvecs=np.asarray(result.matvecs)[:k])
