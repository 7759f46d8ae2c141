"""Paper B's Fig. 5 (experiment B3, Bach, Lacoste-Julien & Obozinski 2012, Sec. 5.2): herding and line search on a
binary graphical model, read against the mean's distance from the marginal polytope's boundary, which the paper names
as the cause of line search's slowness.

* :func:`family_model`, :func:`family_run` -- one draw of a covariance family of B3.2's regime map (strength and rank
  of ``A``; ``random_correlation``'s family at strength 1, full rank) and one method's run on it (a task for
  :func:`~.parallel.run_tasks`);
* :func:`window_table`, :func:`regime_holds` -- B3.2 decided in the small-distance families (THE RULE, clause 2: a
  lost setting the paper's words describe, "a mean close to the boundary"): in every such family line search is
  slower than herding in more than half of the draws, at a reading [share of sizes, window of iterations shown];
* :func:`partial_rank_correlation`, :func:`log_log_slope` -- B3.4: Spearman's correlation of the distance bound ``r``
  and line search's rate ``c`` over every draw with the family partialled out, and the slope of ``log c`` on
  ``log r`` (Sec. 4.2's ``c ~ r^2``: 2) beside;
* :func:`before_end` / :func:`ratio_before_end` -- B3.1: min-norm-point against the others before it terminates;
* :func:`terminates_ahead` -- B3.3: min-norm-point reaches ``mu`` in finitely many steps while the others have not;
* :func:`slower_share` -- B3.2: the share of sizes where line search's error is above herding's, and at the last;
* :func:`rank_correlation`, :func:`within_rank_correlation` -- B3.4 (beside): Spearman's correlation, pooled and within
  each covariance family;
* :func:`overtakes_at`, :func:`overtakes_later`, :func:`overtaking_observed` -- B3.5 (an explanation check of Sec.
  5.2): where line search overtakes herding, later for a small distance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import as_finite_array, check_int, check_int_sequence, check_real, check_table
from .herding import ROUNDING_LEVEL, at_sizes, ratio_over_sizes


def family_model(d: int, strength: float, rank: int | None, draw: int, seed: int, n_sample: int):
    """Draw ``draw`` of the covariance family ``(strength, rank)`` at ``d`` binary variables, from its own seed
    ``[seed, d, 10 strength, rank or 0, draw]``: ``z ~ N(0, Sigma)``, ``Sigma`` the correlation of ``strength^2 A A' +
    I`` (``A`` a ``d x rank`` Gaussian matrix, ``rank`` ``d`` for None), and ``n_sample`` states ``sign(z)``. Returns
    ``(features of the sample, exact moments)``. A larger strength or a lower rank pushes the pairwise moments towards
    +-1: the mean moves towards the marginal polytope's boundary."""
    from ..herding import pairwise_features, sample_sign_gaussian, sign_gaussian_moments
    d, draw, n_sample = check_int("d", d, low=2), check_int("draw", draw, low=0), check_int("n_sample", n_sample, low=1)
    strength = check_real("strength", strength, low=0.0, low_open=True)
    r_ = np.random.default_rng([check_int("seed", seed, low=0), d, int(10 * strength), rank or 0, draw])
    A = r_.normal(size=(d, d if rank is None else check_int("rank", rank, low=1)))
    S = strength ** 2 * A @ A.T + np.eye(d)
    s_ = S / np.sqrt(np.outer(np.diag(S), np.diag(S)))
    return pairwise_features(sample_sign_gaussian(s_, n_sample, r_)), sign_gaussian_moments(s_)


def family_run(d: int, strength: float, rank: int | None, draw: int, seed: int, n_sample: int, n_points: int,
               step: str) -> tuple[np.ndarray, float]:
    """One run (``n_points`` iterations of the step rule ``step``) on :func:`family_model`'s draw: ``(squared moment
    error after every point, bound on the mean's distance from the sampled polytope's boundary)``."""
    from ..herding import FeatureTarget, boundary_distance_bound, herd
    F, mu = family_model(d, strength, rank, draw, seed, n_sample)
    return herd(FeatureTarget(mu), F, n_points, step).objective, float(boundary_distance_bound(F, mu, d))


def window_table(outcomes) -> pd.DataFrame:
    """B3.2's per-draw outcomes as a table of bootstrap units: ``outcomes`` rows ``{"family", "draw", "window",
    "fraction worse", "worse at the last"}`` (line search's share of the log-spaced sizes ``t <= window`` where its
    error is above herding's, and whether it is above at the last of them); a unit is one (family, draw)."""
    tab = pd.DataFrame(list(outcomes))
    check_table("outcomes", tab, ("family", "draw", "window", "fraction worse", "worse at the last"))
    return tab.assign(unit=[f"{f}#{r}" for f, r in zip(tab.family, tab.draw)])


def regime_holds(table: pd.DataFrame, reading) -> bool:
    """B3.2 in the small-distance families (THE RULE, clause 2) at ``reading = [share, window]``: in every family of
    ``table`` (:func:`window_table`, its families those of the regime), line search is worse in more than half of the
    draws, a draw counting where its error is above herding's at more than ``share`` of the log-spaced sizes ``t <=
    window`` and at the last of them. It fails where one family fails (a family absent from a bootstrap resample
    decides nothing)."""
    check_table("table", table, ("family", "draw", "window", "fraction worse", "worse at the last"))
    share, window = reading
    share = check_real("share", share, low=0.0, high=1.0)
    sub = table[table.window == check_int("window", window, low=1)]
    if sub.empty:
        raise ValueError(f"window {window} is not read in the table (windows: {sorted(table.window.unique())})")
    per_family = sub.assign(slower=(sub["fraction worse"] > share) & sub["worse at the last"].astype(bool)).groupby("family").slower.mean()
    return bool((per_family > 0.5).all())


def _ranks(v) -> np.ndarray:
    return pd.Series(v).rank().to_numpy()


def partial_rank_correlation(x, y, groups) -> float:
    """B3.4: Spearman's correlation of ``x`` and ``y`` over every pair, with the groups (B3.2's covariance families)
    partialled out: the ranks of ``x`` and of ``y`` over all pairs, each less its group's mean rank (a group's level,
    which strength and rank of ``A`` set, is not read), then Pearson's correlation of what remains. Unlike the mean of
    within-group correlations, every pair's spread within its group counts. ValueError where nothing varies within
    the groups."""
    x, y = as_finite_array("x", x, ndim=1), as_finite_array("y", y, ndim=1)
    g = pd.Series(np.asarray(groups, dtype=object)).astype(str).to_numpy()
    if len(x) != len(y) or len(x) != len(g) or len(x) < 3:
        raise ValueError(f"x, y and groups must be of one length, 3 or more; got {len(x)}, {len(y)} and {len(g)}")
    rx, ry = _ranks(x), _ranks(y)
    rx = rx - pd.Series(rx).groupby(g).transform("mean").to_numpy()
    ry = ry - pd.Series(ry).groupby(g).transform("mean").to_numpy()
    if np.ptp(rx) == 0 or np.ptp(ry) == 0:
        raise ValueError("partial_rank_correlation: x or y does not vary within any group")
    return float(np.corrcoef(rx, ry)[0, 1])


def log_log_slope(r, c) -> float:
    """B3.4 (beside): the least-squares slope of ``log c`` on ``log r`` over the pairs with both positive (Sec. 4.2's
    bound ``exp(-c r^2 t / R^2)``: a rate ``c ~ r^2`` has slope 2); ``nan`` with fewer than 3 such pairs."""
    r, c = as_finite_array("r", r, ndim=1), as_finite_array("c", c, ndim=1)
    if len(r) != len(c):
        raise ValueError(f"r and c must be of one length; got {len(r)} and {len(c)}")
    ok = (r > 0) & (c > 0)
    if ok.sum() < 3 or np.ptp(np.log(r[ok])) == 0:
        return float("nan")
    return float(np.polyfit(np.log(r[ok]), np.log(c[ok]), 1)[0])


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


def overtakes_at(table: pd.DataFrame, method: str, other: str, sizes) -> int | None:
    """B6.1 (Sec. 5.2): the first size from which ``method``'s error stays below ``other``'s at every later size
    (``None`` if it is not below at the last size: no overtaking within the budget)."""
    sizes = sorted(check_int_sequence("sizes", sizes, low=1))
    rows = at_sizes(table, [method, other], sizes)
    below = (rows[method].to_numpy() < rows[other].to_numpy())
    if not below[-1]:
        return None
    k = len(below)
    while k > 0 and below[k - 1]:
        k -= 1
    return int(sizes[k])


def overtaking_observed(sizes) -> bool:
    """B3.5: is the median overtaking size of a family (:func:`overtakes_at` per draw; ``None``, no overtaking within
    the run) observed, i.e. do at least half of its draws overtake within the run? Where not, the median lies beyond the
    run: a lower bound, which shows that line search's linear rate is not seen within the run, never that it is seen
    "for larger numbers of iterations"."""
    sizes = list(sizes)
    if not sizes:
        raise ValueError("sizes must hold one overtaking size (or None) per draw; got none")
    return bool(2 * sum(t is not None for t in sizes) >= len(sizes))


def overtakes_later(small, large, budget: int, factor: float) -> tuple[bool, float, float]:
    """B3.5 (Sec. 5.2): ``(holds, median small, median large)``: line search's overtaking sizes (:func:`overtakes_at`,
    one per draw; ``None``, no overtaking within the run, read as ``budget + 1``) in the small-distance regime
    (``small``) have a median at least ``factor`` times the median in the large-distance family (``large``): its
    linear rate appears only later."""
    budget, factor = check_int("budget", budget, low=1), check_real("factor", factor, low=1.0)
    med = []
    for name, ts in (("small", small), ("large", large)):
        ts = list(ts)
        if not ts:
            raise ValueError(f"{name} must hold one overtaking size (or None) per draw; got none")
        med.append(float(np.median([budget + 1 if t is None else check_int(name, t, low=1) for t in ts])))
    return bool(med[0] >= factor * med[1]), med[0], med[1]


def within_rank_correlation(x, y, groups, min_size: int = 3) -> float:
    """B3.4 (an explanation check): Spearman's correlation of ``x`` and ``y`` read within each group (a covariance family of
    B3.2's map: families that differ in strength and rank would confound ``x`` with them if pooled), averaged over the
    groups with at least ``min_size`` pairs where both vary (:func:`rank_correlation`). ValueError where no group
    qualifies."""
    x, y = as_finite_array("x", x, ndim=1), as_finite_array("y", y, ndim=1)
    groups = np.asarray(groups, dtype=object)
    if len(x) != len(y) or len(x) != len(groups):
        raise ValueError(f"x, y and groups must be of one length; got {len(x)}, {len(y)} and {len(groups)}")
    min_size = check_int("min_size", min_size, low=3)
    rhos = []
    for g in pd.unique(pd.Series(groups)):
        at = np.array([v == g for v in groups])
        if at.sum() >= min_size and np.ptp(x[at]) > 0 and np.ptp(y[at]) > 0:
            rhos.append(rank_correlation(x[at], y[at]))
    if not rhos:
        raise ValueError(f"within_rank_correlation: no group has {min_size} or more pairs where x and y both vary")
    return float(np.mean(rhos))
