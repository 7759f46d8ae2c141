"""Paper B's Fig. 7 (experiment B5, Bach, Lacoste-Julien & Obozinski 2012, Sec. 5.3): "the moment error goes to 0"
read where the run ends, over its last decade, not over an early plateau:

* :func:`moments_vanish_late` -- B5.1, B5.2: the moment error has fallen and still falls over the last decade (or
  sits at the means);
* :func:`moments_not_maxent_late` -- B5.1, B5.2 on one run: the moments match while the distance to the
  maximum-entropy distribution does not converge.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_real


def moments_vanish_late(drop: float, late_slope: float, final_error: float, min_drop: float = 20.0,
                        max_slope: float = -0.5) -> bool:
    """B5.1, B5.2's "moment error -> 0" read where the run ends, not over its early plateau: the error has fallen by
    ``min_drop`` or more from ``t = 10`` (``drop``), and over the last decade of the run it still falls, its log-log
    ``late_slope`` below ``max_slope`` -- or it sits at the means there (``final_error`` 0: below the LMO's resolution,
    read as 0). ``nan`` (fewer than two positive errors to fit) with a positive final error shows no fall."""
    drop, final_error = check_real("drop", drop, low=0.0), check_real("final_error", final_error, low=0.0)
    min_drop, max_slope = check_real("min_drop", min_drop, low=1.0), check_real("max_slope", max_slope)
    late_slope = float(late_slope)
    return bool(drop >= min_drop and (final_error == 0.0 or (np.isfinite(late_slope) and late_slope < max_slope)))


def moments_not_maxent_late(drop: float, late_slope: float, final_error: float, final_dist: float, dist_slope: float,
                            tol: float, max_slope: float = -0.5) -> bool:
    """B5.1, B5.2 on one run: the moment error goes to 0 over the last decade (:func:`moments_vanish_late`) while the
    distance to the maximum-entropy distribution does not converge (the negation of B4.1's
    :func:`~.herding_claims.converges` at ``tol``)."""
    from .herding_claims import converges
    return moments_vanish_late(drop, late_slope, final_error, max_slope=max_slope) and not converges(final_dist, dist_slope, tol)


def outperforms_while_running(challenger, reference, floor: float, min_share: float = 0.5) -> bool:
    """B5.6: a run that stops early (min-norm-point's finite termination) against ``reference`` compared only while
    both run: ``challenger`` and ``reference`` read at the same sizes ``t`` (from ``t = 10`` to the challenger's stop,
    at equal ``t``), the challenger's error strictly below the reference's at more than ``min_share`` of them (both
    read at 0 below ``floor``, the LMO's resolution: a tie at 0 is no win). Nothing held after the stop is read."""
    from .herding_claims import below_share
    min_share = check_real("min_share", min_share, low=0.0, high=1.0)
    return bool(below_share(challenger, reference, floor) > min_share)


def points_to_reach(errors, target: float, floor: float = 0.0) -> int | None:
    """B5.6 (shown beside): the number of points (``t``, the errors read after ``1 .. T`` points) a run needs to bring
    its moment error to ``target`` or below (errors below ``floor`` read as 0); ``None`` if it never does."""
    e = np.asarray(errors, dtype=float)
    if e.ndim != 1 or e.size == 0 or not np.isfinite(e).all():
        raise ValueError("errors must be a non-empty 1-d finite array")
    target, floor = check_real("target", target, low=0.0), check_real("floor", floor, low=0.0)
    e = np.where(e > floor, e, 0.0)
    hit = np.flatnonzero(e <= target)
    return int(hit[0]) + 1 if hit.size else None
