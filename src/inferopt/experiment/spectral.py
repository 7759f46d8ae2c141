"""Helpers of the spectral-optimisation experiments (D3): time to a target quality and speed-ups."""

from __future__ import annotations

import numbers

import numpy as np

from .._validation import check_choice, check_protocol, check_real


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
