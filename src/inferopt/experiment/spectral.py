"""Helpers of the spectral-optimisation experiments (D3): time to a target quality and speed-ups."""

from __future__ import annotations

import numpy as np


def time_to(result, target: float, missing: float = float("nan")) -> float:
    """Wall time at which ``result.metric`` (a :class:`~inferopt.spectral.SpectralSolveResult`
    with ``metric`` and ``times`` recorded at the same iterations) first reaches ``<= target``;
    ``missing`` (default NaN) if it never does."""
    hit = np.flatnonzero(np.asarray(result.metric) <= target)
    return float(result.times[hit[0]]) if hit.size else float(missing)


def faster(fast: float, slow: float, factor: float = 1.0):
    """Did the method that took ``fast`` seconds reach the target at least ``factor`` times
    sooner than the one that took ``slow`` (NaN: never reached)? ``None`` if neither reached it."""
    if np.isnan(fast) and np.isnan(slow):
        return None
    if np.isnan(fast):
        return False
    return bool(np.isnan(slow) or slow / fast >= factor)
