"""Selections that do not depend on the last bits of their scores: the one tie rule of every
greedy step (argmax / argmin) and hard threshold (top ``k``) in the library.

A computed score carries round-off of the order of ``n·eps`` times the magnitudes of the terms
that produced it, and its last bits depend on the BLAS kernel (``OPENBLAS_CORETYPE``, chosen
per processor model), on the number of BLAS threads and on the summation order. Scores that are
equal in exact arithmetic -- duplicated data points, states of a symmetric model, moments on a
rational grid, a coordinate whose value is a sum that cancels -- then come out ordered by those
bits, and ``np.argmax`` or ``np.argpartition`` picks a different point on another processor
(issue 40: IHT's coreset differed in 30 of 100 points between two OpenBLAS kernels).

The rule (:data:`TIE_RTOL`): two scores are *tied* when they differ by at most
``TIE_RTOL · scale``, and among tied scores the **lowest index wins** -- numpy's own rule for
exactly equal scores, so inputs without near-ties select exactly
what ``np.argmax`` / a full sort select. ``TIE_RTOL = 1e-11`` is about 100 times the
summation-order error bound ``γ_n = n·eps`` of a product over ``n ≤ 500`` terms (``1e-13``:
the ``S`` projections of a coreset's ``Φᵀr``) and the drift :class:`inferopt.fw.QuadraticHull`
lets its incremental ``Gα`` carry (``REFRESH_RTOL = 1e-13``), and small enough that treating
such scores as equal changes what is minimised by at most a relative ``1e-11`` (an atom that
improves on another by ``1e-10``, as in the Frank-Wolfe tests, is still told apart). The rule
removes the dependence on the last bits wherever the compared scores are equal in exact
arithmetic; scores that differ by about ``TIE_RTOL · scale`` exactly are as fragile as before
(a set of measure zero).

``scale`` is the size of the terms a score was computed from, as its round-off is relative to
them: by default the largest magnitude among the finite scores; a number; or one magnitude per
score (e.g. ``|(Gα)_i| + |c_i|`` for a gradient ``2((Gα)_i − c_i)`` that cancels), two scores
then being tied within ``TIE_RTOL`` times the larger of their two magnitudes.
"""

from __future__ import annotations

import numpy as np

#: scores within ``TIE_RTOL`` times their scale are tied (module docstring)
TIE_RTOL = 1e-11

__all__ = ["TIE_RTOL", "tie_tolerance", "tied_argmax", "tied_argmin", "tied_top_k"]


def tie_tolerance(values: np.ndarray, scale=None, rtol: float = TIE_RTOL, against: int | None = None):
    """The tie tolerance of ``values`` (module docstring): ``rtol · scale``, ``scale`` (default) the
    largest magnitude among the finite ``values`` (0 when there is none) or a number; for one
    magnitude per entry (an array), the tolerance of each entry against entry ``against``."""
    if scale is None:
        finite = np.abs(values[np.isfinite(values)])
        return rtol * (float(finite.max()) if finite.size else 0.0)
    if np.ndim(scale) == 0:
        return rtol * float(scale)
    return rtol * np.maximum(scale, scale[against])


def tied_argmax(values: np.ndarray, *, scale=None, rtol: float = TIE_RTOL) -> int:
    """The lowest index among the entries tied with the largest entry of ``values`` (a 1-d float
    array; ``-inf`` marks an entry that may not be chosen, and is returned only when every entry is
    ``-inf``, as index 0). ``scale``: see the module docstring. O(n)."""
    best = int(np.argmax(values))
    if not np.isfinite(values[best]):
        return best
    tol = tie_tolerance(values, scale, rtol, against=best)
    return int(np.flatnonzero(values >= values[best] - tol)[0])


def tied_argmin(values: np.ndarray, *, scale=None, rtol: float = TIE_RTOL) -> int:
    """:func:`tied_argmax` of ``-values``: the lowest index among the entries tied with the smallest."""
    return tied_argmax(-values, scale=scale, rtol=rtol)


def tied_top_k(values: np.ndarray, k: int, *, scale=None, rtol: float = TIE_RTOL) -> np.ndarray:
    """Sorted indices of the ``k`` largest entries of ``values`` (finite, 1-d), O(n).

    With ``v`` the ``k``-th largest value and ``τ`` the tie tolerance (against ``v``'s entry), every
    entry above ``v + τ`` is kept, and the rest of the ``k`` are the lowest indices among the
    entries within ``τ`` of ``v`` (the tied boundary); entries below ``v − τ`` are never kept.
    """
    n = values.shape[0]
    if k >= n:
        return np.arange(n)
    if k <= 0:
        return np.zeros(0, dtype=np.intp)
    at = int(np.argpartition(values, n - k)[n - k])
    kth = values[at]
    tol = tie_tolerance(values, scale, rtol, against=at)
    sure = np.flatnonzero(values > kth + tol)          # at most k - 1 entries exceed the k-th largest
    tied = np.flatnonzero(np.abs(values - kth) <= tol)  # ascending indices: the lowest win
    return np.sort(np.concatenate([sure, tied[: k - sure.size]]))
