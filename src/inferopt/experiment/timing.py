"""Repeated timings of seeded runs, for timing claims that a loaded machine does not flip (issue 14).

A seeded solver makes the same iterates whenever it runs; only its clock (CPU seconds of the
process, :mod:`inferopt._clock`) moves with the load, through the caches and the memory
bandwidth it shares with other processes. D3's SGD on MovieLens 100K took 11.7 and 15.8 CPU
seconds to the same target in two paper-scale runs with identical iterates, and GD 12.1 and
12.8: the two runs disagreed on which was faster.

So a timing claim is computed on *rounds*: round 0 is the run with its evaluations; rounds
``1 … R−1`` run the same calls again with the evaluations switched off (:func:`without_evaluations`:
the optimisation's clock excludes the evaluations anyway, and the repeats then cost no
evaluation, and they stop at the iteration where round 0 reached the target: later iterations
time nothing, :func:`repeat_horizon`); :func:`retimed` gives round ``r``'s times to round 0's result. A method's time
is its minimum over the rounds (the least loaded), and the claim's support is the bootstrap
over rounds (:func:`~.support.bootstrap_support` with ``by="round"``).
"""

from __future__ import annotations

import dataclasses
from functools import partial

import numpy as np

from .._validation import check_choice, check_int, check_protocol, check_real


class TimingOnly:
    """A problem whose evaluations are switched off: ``objective`` and ``metric`` return NaN,
    every other attribute is the wrapped problem's. A solver run on it makes the same iterates
    at the same cost, and its trace records the same iterations and times."""

    def __init__(self, problem):
        check_protocol("problem", problem, "objective", "metric", what="a problem with objective and metric")
        self.problem = problem

    def __getattr__(self, name):
        # only reached for attributes this object lacks; never for ``problem`` itself or dunders
        # (pickling looks them up on an object whose ``problem`` is not set yet)
        if name == "problem" or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.problem, name)

    def objective(self, theta) -> float:
        return float("nan")

    def metric(self, theta) -> float:
        return float("nan")


class MetricOnly(TimingOnly):
    """A problem whose exact objective is switched off in the traces (NaN) while its metric (the test RMSE) is kept:
    the claims read the metric at every evaluation, and the objective (an eigen-decomposition of a Gram matrix, 5 s
    at the paper's 3,706 x 6,040) is computed once at the end of a run instead."""

    def metric(self, theta) -> float:
        return self.problem.metric(theta)


def hit_iteration(result, target: float, *, trace: str = "metric"):
    """The recorded iteration at which ``result.metric`` (``trace="objective"``: the exact objective) first
    reaches ``<= target`` (``None`` if never): where a repeat that only times the run to ``target`` may stop
    (:func:`without_evaluations`)."""
    check_protocol("result", result, "metric", "objective", "iterations", what="a SpectralSolveResult")
    target = check_real("target", target)
    check_choice("trace", trace, ("metric", "objective"))
    hit = np.flatnonzero(np.asarray(getattr(result, trace)) <= target)
    return int(result.iterations[hit[0]]) if hit.size else None


def repeat_horizon(result, targets) -> int:
    """Where a timing repeat of ``result`` may stop when the rounds time it to ``targets``, pairs
    ``(trace, target)`` (``trace`` ``"metric"`` or ``"objective"``, as in :func:`hit_iteration`): the latest
    of the iterations at which ``result`` (round 0) first reached them, over the targets it reached.

    A target round 0 never reached has no time in any round (the same seeded iterates never reach it: NaN
    in every round), so it keeps no iterations; if round 0 reached none of them the horizon is 0 and the
    repeat records its start only (issue 27: at D3's paper scale GD on the synthetic matrix misses its
    test-RMSE target and meets its objective target at about half its budget; SGD meets neither)."""
    hits = [hit_iteration(result, target, trace=trace) for trace, target in targets]
    if not hits:
        raise ValueError("targets must name at least one (trace, target) pair")
    reached = [h for h in hits if h is not None]
    return max(reached) if reached else 0


def without_evaluations(call: partial, until=None) -> partial:
    """``call`` -- ``partial(solver, problem, …)`` -- with its problem wrapped in :class:`TimingOnly`.

    ``until``: an iteration (e.g. the one where round 0 reached the target, :func:`hit_iteration`)
    after which the repeat may stop: ``max_iter = until`` (GD, SGD, SGD-DET; SVRG stops inside its
    epoch). A seeded run's first
    ``until`` iterations do not depend on its budget, so the repeat makes the same iterates up to there;
    ``None`` keeps the whole budget. A call with a time budget (``max_time``) needs ``until``: the repeat runs
    without it (it would stop at another iteration) and stops at ``until``."""
    if not isinstance(call, partial) or not call.args:
        raise TypeError(f"call must be a functools.partial(solver, problem, ...); got {call!r}")
    keywords = dict(call.keywords)
    if keywords.get("max_time") is not None:   # a time budget would stop the repeat at another iteration
        if until is None:
            raise ValueError("a call with a time budget (max_time) needs until: the iteration its repeat stops at")
        keywords["max_time"] = None
    if until is not None:
        until = check_int("until (iteration)", until, low=0)
        if "n_outer" in keywords and "n_inner" in keywords:     # SVRG: its budget is n_outer · n_inner
            budget = keywords["n_outer"] * keywords["n_inner"]
        elif "max_iter" in keywords:
            budget = keywords["max_iter"]
        else:
            raise TypeError("until needs a call with max_iter, or n_outer and n_inner, among its keywords")
        keywords["max_iter"] = min(until, budget)
        if until > budget:
            raise ValueError(f"until={until} is past the call's budget of {budget} iterations")
    return partial(call.func, TimingOnly(call.args[0]), *call.args[1:], **keywords)


def retimed(result, repeat):
    """``result`` with the times of ``repeat``, a run of the same call without evaluations.

    The repeat may have stopped early (``without_evaluations(…, until=…)``): it must record a prefix of
    ``result``'s iterations, with the same iterates there bit for bit (the ``checksums`` of the traces;
    and the same final point when it ran the whole budget). Entries past the repeat's last one get the
    time NaN (not re-timed). Raises ``ValueError`` otherwise (a seed handed to the call as a generator
    object would be consumed by the first run, not replayed)."""
    for name, r in (("result", result), ("repeat", repeat)):
        check_protocol(name, r, "x", "iterations", "times", "checksums", what="a SpectralSolveResult")
    k = len(repeat.iterations)
    if not (0 < k <= len(result.iterations) and np.array_equal(result.iterations[:k], repeat.iterations)):
        raise ValueError("repeat must record the iterations of result (or their first ones); got "
                         f"{len(repeat.iterations)} entries against {len(result.iterations)}")
    same = np.array_equal(result.checksums[:k], repeat.checksums)
    if k == len(result.iterations):
        same = same and np.array_equal(np.asarray(result.x), np.asarray(repeat.x))
    if not same:
        raise ValueError("repeat must make result's iterates (the same seeded iterates); it does not")
    times = np.full(len(result.iterations), np.nan)
    times[:k] = repeat.times
    return dataclasses.replace(result, times=times)
