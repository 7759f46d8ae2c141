"""The deciding code of paper B's claims (Bach et al. 2012, B1-B6): each function turns the error
tables of :mod:`inferopt.experiment.herding` into the number or boolean a claim is decided on.

Tables are ``(t x method)`` errors (:func:`~inferopt.experiment.herding.error_table`), every method
read at the same sizes ``t``. Every function refuses a comparison it cannot make (a size without an
error, no size left) with a ValueError, so that a claim is never decided on nothing.

* :func:`dyadic` -- the sizes ``t = 2^k`` among some sizes (herding's and Sobol's evenly spaced sets);
* :func:`rate_near` -- B1.5, B1.6, B1.7, B6.3: a log-log slope fitted on given sizes, within ``tol`` of a rate;
* :func:`proj_gain_share` -- B1.3: the share of sizes where ``-proj`` divides the error by more than a cut,
  the sizes the claim excuses left out;
* :func:`share_below` -- B1.7: the share of sizes where one method's error is below another's;
* :func:`before_end` / :func:`ratio_before_end` -- B3.1: min-norm-point against the others before it terminates;
* :func:`terminates_ahead` -- B3.3: min-norm-point reaches ``mu`` in finitely many steps while the others have not;
* :func:`slower_share` -- B3.2: the share of sizes where line search's error is above herding's, and at the last;
* :func:`rank_correlation` -- B3.4: Spearman's correlation (the boundary distance against line search's advantage);
* :func:`same_points` -- B6.4, B6.5: two recursions choose the same points and give the same errors;
* :func:`entropy_tradeoff` -- B4.6: where a method is better at the moments, is it farther from the maximum entropy, with lower entropy?
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import as_finite_array, check_int, check_int_sequence, check_real, check_table
from .herding import ROUNDING_LEVEL, at_sizes, ratio_over_sizes, slopes_over_sizes


def dyadic(sizes, t_min: int = 8) -> list[int]:
    """The sizes ``t = 2^k >= t_min`` among ``sizes``."""
    sizes = check_int_sequence("sizes", sizes, low=1)
    t_min = check_int("t_min", t_min, low=1)
    return [int(t) for t in sizes if t >= t_min and t & (t - 1) == 0]


def rate_near(table: pd.DataFrame, method: str, sizes, rate: float, tol: float) -> tuple[bool, float]:
    """``(|slope - rate| <= tol, slope)``: the least-squares log-log slope of ``method``'s error fitted on ``sizes``."""
    rate, tol = check_real("rate", rate), check_real("tol", tol, low=0.0)
    slope = slopes_over_sizes(table, [method], sizes)[method]
    return bool(abs(slope - rate) <= tol), float(slope)


def proj_gain_share(table: pd.DataFrame, method: str, sizes, cut: float, excused=()) -> float:
    """B1.3: the share of ``sizes`` (those in ``excused`` left out) at which ``error / error-proj > cut``
    (both read at the same ``t``)."""
    cut = check_real("cut", cut, low=1.0)
    excused = set(check_int_sequence("excused", excused, low=1)) if len(excused) else set()
    kept = [t for t in check_int_sequence("sizes", sizes, low=1) if t not in excused]
    if not kept:
        raise ValueError("proj_gain_share: every size is excused; no size is left to read the gain at")
    rows = at_sizes(table, [method, method + "-proj"], kept)
    return float((rows[method] / rows[method + "-proj"] > cut).mean())


def share_below(table: pd.DataFrame, method: str, other: str, sizes) -> float:
    """The share of ``sizes`` at which ``method``'s error is strictly below ``other``'s (read at the same ``t``)."""
    rows = at_sizes(table, [method, other], sizes)
    return float((rows[method] < rows[other]).mean())


def before_end(table: pd.DataFrame, method: str, sizes) -> list[int]:
    """The ``sizes`` before ``method``'s curve reaches the rounding level (``ROUNDING_LEVEL`` times the table's
    largest error): min-norm-point's iterations before its finite termination, where its error is a measurement."""
    sizes = check_int_sequence("sizes", sizes, low=1)
    check_table("table", table, [method])
    floor = ROUNDING_LEVEL * float(np.nanmax(table.to_numpy(dtype=float)))
    reached = table.index[(table[method] <= floor).to_numpy()]
    end = int(reached.min()) if len(reached) else np.inf
    return [int(t) for t in sizes if t < end]


def ratio_before_end(table: pd.DataFrame, method: str, others, sizes) -> float:
    """B3.1: the geometric mean, over the ``sizes`` before ``method`` reaches the rounding level, of its error over
    the best of ``others`` (no floored value enters)."""
    kept = before_end(table, method, sizes)
    if not kept:
        raise ValueError(f"ratio_before_end: {method!r} is at the rounding level at every size; nothing to compare")
    return ratio_over_sizes(table, method, list(others), kept)


def terminates_ahead(table: pd.DataFrame, method: str, others, margin: float = 1e3) -> tuple[bool, int | None]:
    """B3.3: ``(holds, t_end)``: ``method`` reaches the rounding level (``ROUNDING_LEVEL`` times the table's largest
    error) at some size ``t_end`` of the table (finite termination), while every one of ``others`` is still above
    ``margin`` times that level at ``t_end``."""
    margin = check_real("margin", margin, low=1.0)
    check_table("table", table, [method, *others])
    floor = ROUNDING_LEVEL * float(np.nanmax(table.to_numpy(dtype=float)))
    reached = table.index[(table[method] <= floor).to_numpy()]
    if not len(reached):
        return False, None
    t_end = int(reached.min())
    return bool(all(float(table.loc[t_end, m]) > margin * floor for m in others)), t_end


def slower_share(table: pd.DataFrame, slow: str, fast: str, sizes) -> tuple[float, bool, float]:
    """B3.2: ``(share, last, final ratio)``: the share of ``sizes`` at which ``slow``'s error is above ``fast``'s,
    whether it is above at the last size, and the ratio ``slow / fast`` there."""
    rows = at_sizes(table, [slow, fast], sizes)
    worse = rows[slow] > rows[fast]
    return float(worse.mean()), bool(worse.iloc[-1]), float(rows[slow].iloc[-1] / rows[fast].iloc[-1])


def rank_correlation(x, y) -> float:
    """Spearman's rank correlation of ``x`` and ``y`` (average ranks for ties); NaN-free, at least three pairs."""
    x, y = as_finite_array("x", x, ndim=1), as_finite_array("y", y, ndim=1)
    if len(x) != len(y) or len(x) < 3:
        raise ValueError(f"x and y must be of one length of at least 3; got {len(x)} and {len(y)}")
    rx, ry = pd.Series(x).rank().to_numpy(), pd.Series(y).rank().to_numpy()
    if rx.std() == 0 or ry.std() == 0:
        raise ValueError("rank_correlation: x or y is constant; a correlation needs both to vary")
    return float(np.corrcoef(rx, ry)[0, 1])


def same_points(points_a, points_b, errors_a, errors_b, rtol: float = 1e-8) -> tuple[float, float]:
    """B6.4, B6.5: ``(share of steps with the same point, largest relative error difference)`` of two runs:
    ``points_*`` the chosen points (rows: their features or coordinates), ``errors_*`` the errors after each step."""
    a, b = np.asarray(points_a, dtype=float), np.asarray(points_b, dtype=float)
    ea, eb = as_finite_array("errors_a", errors_a, ndim=1), as_finite_array("errors_b", errors_b, ndim=1)
    if a.shape != b.shape or len(ea) != len(eb) or len(ea) != len(a):
        raise ValueError(f"the two runs must have the same number of steps; got {a.shape}, {b.shape}, {len(ea)}, {len(eb)}")
    rtol = check_real("rtol", rtol, low=0.0)
    same = np.all(np.isclose(a.reshape(len(a), -1), b.reshape(len(b), -1), rtol=0.0, atol=1e-12), axis=1)
    scale = np.maximum(np.abs(ea), np.abs(eb)).max()
    return float(same.mean()), float(np.max(np.abs(ea - eb)) / scale) if scale > 0 else 0.0


def entropy_tradeoff(better: dict, worse: dict, factor: float = 10.0) -> bool | None:
    """B4.6: where the method ``better`` is more efficient at the moments (its final moment error below ``worse``'s by
    more than ``factor``; ``{"mean_error", "dist", "entropy"}`` at the end of a run), is it farther from the
    maximum-entropy distribution, with a lower entropy (the trade-off of Sec. 6)? ``None`` where it is not more
    efficient (the claim's premise does not apply: e.g. herding matches rational means exactly)."""
    factor = check_real("factor", factor, low=1.0)
    for name, d in (("better", better), ("worse", worse)):
        missing = {"mean_error", "dist", "entropy"} - set(d)
        if missing:
            raise ValueError(f"{name} must give mean_error, dist and entropy; missing {sorted(missing)}")
    if not factor * better["mean_error"] < worse["mean_error"]:
        return None
    return bool(better["dist"] > worse["dist"] and better["entropy"] < worse["entropy"])
