"""Repeated timings of seeded runs, for timing claims that a loaded machine does not flip (issue 14).

A seeded solver makes the same iterates whenever it runs; only its clock (CPU seconds of the
process, :mod:`inferopt._clock`) moves with the load, through the caches and the memory
bandwidth it shares with other processes. D3's SGD on MovieLens 100K took 11.7 and 15.8 CPU
seconds to the same target in two paper-scale runs with identical iterates, and GD 12.1 and
12.8: the two runs disagreed on which was faster.

So a timing claim is computed on *rounds*: round 0 is the run with its evaluations; rounds
``1 … R−1`` run the same calls again with the evaluations switched off (:func:`without_evaluations`:
the optimisation's clock excludes the evaluations anyway, and the repeats then cost no
evaluation); :func:`retimed` gives round ``r``'s times to round 0's result. A method's time
is its minimum over the rounds (the least loaded), and the claim's support is the bootstrap
over rounds (:func:`~.support.bootstrap_support` with ``by="round"``).
"""

from __future__ import annotations

import dataclasses
from functools import partial

import numpy as np

from .._validation import check_protocol


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


def without_evaluations(call: partial) -> partial:
    """``call`` -- ``partial(solver, problem, …)`` -- with its problem wrapped in :class:`TimingOnly`."""
    if not isinstance(call, partial) or not call.args:
        raise TypeError(f"call must be a functools.partial(solver, problem, ...); got {call!r}")
    return partial(call.func, TimingOnly(call.args[0]), *call.args[1:], **call.keywords)


def retimed(result, repeat):
    """``result`` with the times of ``repeat``, a run of the same call without evaluations.

    Raises ``ValueError`` unless the two made the same iterates: the same recorded
    iterations and the same final point, bit for bit (a seed handed to the call as a
    generator object would be consumed by the first run, not replayed)."""
    for name, r in (("result", result), ("repeat", repeat)):
        check_protocol(name, r, "x", "iterations", "times", what="a SpectralSolveResult")
    if not np.array_equal(result.iterations, repeat.iterations):
        raise ValueError("repeat must record the iterations of result; got "
                         f"{len(repeat.iterations)} entries against {len(result.iterations)}")
    if not np.array_equal(np.asarray(result.x), np.asarray(repeat.x)):
        raise ValueError("repeat must end at result's point (the same seeded iterates); it does not")
    return dataclasses.replace(result, times=np.asarray(repeat.times, dtype=float).copy())
