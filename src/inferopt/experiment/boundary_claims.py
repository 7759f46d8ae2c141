"""Paper B's Fig. 5 (experiment B3, Bach, Lacoste-Julien & Obozinski 2012, Sec. 5.2): herding and line search on a
binary graphical model, read against the mean's distance from the marginal polytope's boundary, which the paper names
as the cause of line search's slowness.

* :func:`family_model`, :func:`family_run` -- one draw of a cell of B3.2's map (a covariance family, strength and rank
  of ``A``, at ``d`` binary variables and a sample size) and one method's run on it (a task for
  :func:`~.parallel.run_tasks`), from the draw's random first point (:func:`family_first_point`, Sec. 4: "this is the
  scheme we used") or from ``g_0 = 0``; :func:`run_from` -- one run from a given first point;
* :func:`decided_in_regime` -- B3.2 (THE RULE, clause 2): in the regime when the explanation's own checks (B3.4, B3.5)
  hold, read at each value of the lost d and combined by :func:`~.verdict_map.lost_setting_verdict`, over the whole
  map (clause 3) when one fails, else undecided unless both places agree;
  :func:`regime_by_bound` -- the regime's cells, fixed once per cell by the median bound on the mean's distance
  from the boundary over the polytope's radius R (:func:`feature_radius`; Sec. 4.2's rates rest on r / R) below a cut
  (review 211); :func:`mean_in_hull`, :func:`family_in_hull` --
  a draw whose mean lies outside its sampled hull is not read; :func:`crossover_t` -- where line search overtakes;
* :func:`interior_radius` -- B3.4: a lower bound on the mean's distance from the sampled polytope's boundary (linear
  programmes), bracketing it with :func:`~inferopt.herding.boundary_distance_bound`'s upper bound;
* :func:`linear_onset`, :func:`tail_rate` -- B3.4, B3.5: the onset of line search's linear phase (one detector on
  every run) and its rate ``c`` fitted on the tail of that phase (none where the run is not in it);
* :func:`rank_correlation`, :func:`partial_rank_correlation`, :func:`log_log_slope` -- B3.4: Spearman's correlation
  of ``r / R`` and ``c`` pooled (the decider; :func:`feature_radius`), of the absolute ``r`` and ``c`` with the cell
  partialled out and the slope of ``log c`` on ``log (r / R)`` (Sec. 4.2's ``c ~ r^2``: 2) beside;
* :func:`censored_median`, :func:`onset_later`, :func:`agreeing_test` -- B3.5: the Kaplan-Meier median of the
  onsets, censored at the run's end (a median not reached lies beyond the budget), in the small-distance regime against
  the large-distance family, three-valued (a comparison the censoring leaves open is undecided, and a resample left
  undecided never agrees with a decisive verdict);
* :func:`before_end` / :func:`ratio_before_end` -- B3.1: min-norm-point against the others before it terminates;
* :func:`terminates_ahead` -- B3.3: min-norm-point reaches ``mu`` in finitely many steps while the others have not;
* :func:`slower_share` -- B3.2: the share of sizes where line search's error is above herding's, and at the last.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import as_finite_array, check_int, check_int_sequence, check_real, check_table
from .herding import ROUNDING_LEVEL, at_sizes, ratio_over_sizes
from .support import agreeing_test  # noqa: F401  (B3.5's bootstrap test, shared with D4: re-exported)


def _draw_seed(seed: int, d: int, strength: float, rank: int | None, n_sample: int, draw: int) -> list[int]:
    """The seed of :func:`family_model`'s draw: ``[seed, d, 10 strength, rank or 0, n_sample, draw]``."""
    return [check_int("seed", seed, low=0), d, int(10 * strength), rank or 0, n_sample, draw]


def family_model(d: int, strength: float, rank: int | None, draw: int, seed: int, n_sample: int):
    """Draw ``draw`` of the covariance family ``(strength, rank)`` at ``d`` binary variables, from its own seed
    ``[seed, d, 10 strength, rank or 0, n_sample, draw]`` (each sample size its own covariances, not a nested
    sample of another cell's): ``z ~ N(0, Sigma)``, ``Sigma`` the correlation of ``strength^2 A A' +
    I`` (``A`` a ``d x rank`` Gaussian matrix, ``rank`` ``d`` for None), and ``n_sample`` states ``sign(z)``. Returns
    ``(features of the sample, exact moments)``. A larger strength or a lower rank pushes the pairwise moments towards
    +-1: the mean moves towards the marginal polytope's boundary."""
    from ..herding import pairwise_features, sample_sign_gaussian, sign_gaussian_moments
    d, draw, n_sample = check_int("d", d, low=2), check_int("draw", draw, low=0), check_int("n_sample", n_sample, low=1)
    strength = check_real("strength", strength, low=0.0, low_open=True)
    r_ = np.random.default_rng(_draw_seed(seed, d, strength, rank, n_sample, draw))
    A = r_.normal(size=(d, d if rank is None else check_int("rank", rank, low=1)))
    S = strength ** 2 * A @ A.T + np.eye(d)
    s_ = S / np.sqrt(np.outer(np.diag(S), np.diag(S)))
    return pairwise_features(sample_sign_gaussian(s_, n_sample, r_)), sign_gaussian_moments(s_)


def family_first_point(d: int, strength: float, rank: int | None, draw: int, seed: int, n_sample: int) -> int:
    """The random first point of :func:`family_model`'s draw (Sec. 4's scheme, "the first point is chosen randomly from
    the extreme points of M -- this is the scheme we used"): a state of the draw's sample, drawn uniformly over its
    ``n_sample`` rows (:func:`~.herding_fig3.random_first_points`) from the draw's seed followed by 1, so that every
    method run on the draw starts from the same point (equal inputs)."""
    from .herding_fig3 import random_first_points
    d, draw, n_sample = check_int("d", d, low=2), check_int("draw", draw, low=0), check_int("n_sample", n_sample, low=1)
    strength = check_real("strength", strength, low=0.0, low_open=True)
    return random_first_points(n_sample, 1, np.random.default_rng([*_draw_seed(seed, d, strength, rank, n_sample, draw), 1]))[0]


def run_from(F, mu, n_points: int, step: str, first: int | None = None) -> np.ndarray:
    """The squared moment error after every point of ``n_points`` iterations of the step rule ``step`` (the paper's
    ``'1/(t+1)'``, ``'line_search'``, ``'mnp'``, or one :func:`~inferopt.herding.herd` knows) over the rows of ``F``
    fitting the exact moments ``mu`` (Eq. 4), started at the row ``first`` (weight 1: ``rho_0 = 1``, Sec. 4's random
    first point when ``first`` is drawn at random), or with ``first`` None at :func:`~inferopt.herding.herd`'s
    ``argmax_j mu(x_j)`` (``g_0 = 0``, Chen et al. 2010). Min-norm-point's errors end where it terminates."""
    from ..fw import frank_wolfe, min_norm_point
    from ..herding import FeatureTarget, herd, hull_problem
    if first is None:
        return herd(FeatureTarget(mu), F, n_points, step).objective
    n_points = check_int("n_points", n_points, low=2)
    problem = hull_problem(FeatureTarget(mu), F)
    first = check_int("first", first, low=0, high=problem.n_atoms - 1)
    if step == "mnp":
        return min_norm_point(problem, max_iter=n_points - 1, tol=0.0, init=first).objective
    return frank_wolfe(problem, variant="fw", step=step, max_iter=n_points - 1, tol=None, init=first).objective


def family_run(d: int, strength: float, rank: int | None, draw: int, seed: int, n_sample: int, n_points: int,
               step: str, below: bool = False, first_point: bool = False) -> tuple[np.ndarray, float, float]:
    """One run (``n_points`` iterations of the step rule ``step``) on :func:`family_model`'s draw, from its random first
    point (:func:`family_first_point`, Sec. 4's scheme) with ``first_point``, else from ``g_0 = 0``
    (:func:`run_from`): ``(squared moment error after every point, upper bound on the mean's distance from the sampled
    polytope's boundary, lower bound (:func:`interior_radius`; ``nan`` unless ``below``))``."""
    from ..herding import boundary_distance_bound
    F, mu = family_model(d, strength, rank, draw, seed, n_sample)
    first = family_first_point(d, strength, rank, draw, seed, n_sample) if first_point else None
    return (run_from(F, mu, n_points, step, first), float(boundary_distance_bound(F, mu, d)),
            interior_radius(F, mu) if below else float("nan"))


def interior_radius(F, mu) -> float:
    """B3.4: a lower bound on the distance of ``mu`` from the boundary of the hull of the rows of ``F`` (the sampled
    polytope): for each coordinate direction ``+-e_i`` the largest step ``s_i`` with ``mu + s_i e_i`` in the hull (one
    linear programme over the distinct rows), then ``min_i s_i / sqrt(D)``: the cross-polytope with these vertices lies
    in the hull and holds the ball of that radius about ``mu``. 0 where ``mu`` is not inside the hull (a step is
    infeasible or zero); with :func:`~inferopt.herding.boundary_distance_bound` above it, the distance is bracketed."""
    from scipy.optimize import linprog
    F = np.unique(as_finite_array("F", F, ndim=2), axis=0)
    mu = as_finite_array("mu", mu, ndim=1)
    m, D = F.shape
    if len(mu) != D:
        raise ValueError(f"mu must have one entry per column of F ({D}); got {len(mu)}")
    A_eq = np.zeros((D + 1, m + 1))
    A_eq[:D, :m], A_eq[D, :m] = F.T, 1.0
    b_eq = np.append(mu, 1.0)
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    steps = []
    for i in range(D):
        for sign in (1.0, -1.0):
            A_eq[:D, m] = 0.0
            A_eq[i, m] = -sign
            res = linprog(cost, A_eq=A_eq, b_eq=b_eq, bounds=(0, None), method="highs-ds",
                          options={"presolve": False})
            if res.status != 0:
                return 0.0
            steps.append(float(res.x[-1]))
    return float(max(min(steps), 0.0) / np.sqrt(D))


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


def linear_onset(t, error, slope: float = -3.0, start: int = 2, floor: float | None = None) -> int | None:
    """B3.4, B3.5: the onset of a run's linear phase (an error ``~ exp(-k t)``, whose log-log slope ``-k t`` steepens
    without bound, unlike herding's or a sublinear rate's fixed slope): the first ``a`` of the doubling windows ``[a,
    2a)``, ``a = start, 2 start, ...`` (the last window up to the run's end), from which the least-squares slope of ``log
    error`` on ``log t`` over every window is at most ``slope``; ``None`` where the last window's is not (the phase not
    reached within the run: censored). Errors at or below ``floor`` (default ``ROUNDING_LEVEL`` times the largest) are
    the run's end at the rounding level: a window with fewer than 3 errors above it counts as steep."""
    t, e = as_finite_array("t", t, ndim=1), as_finite_array("error", error, ndim=1)
    if len(t) != len(e) or len(t) < 3:
        raise ValueError(f"t and error must be of one length, 3 or more; got {len(t)} and {len(e)}")
    slope = check_real("slope", slope, high=0.0, high_open=True)
    start = check_int("start", start, low=1)
    floor = ROUNDING_LEVEL * float(np.max(e)) if floor is None else check_real("floor", floor, low=0.0)
    edges = [start]
    while 2 * edges[-1] <= t.max():
        edges.append(2 * edges[-1])
    steep = []
    for k, a in enumerate(edges):
        b = edges[k + 1] if k + 1 < len(edges) else np.inf
        at = (t >= a) & (t < b) & (e > floor)
        if b == np.inf:
            at |= (t == t.max()) & (e > floor)
        steep.append(bool(at.sum() < 3 or np.polyfit(np.log(t[at]), np.log(e[at]), 1)[0] <= slope))
    if not steep[-1]:
        return None
    k = len(steep)
    while k > 0 and steep[k - 1]:
        k -= 1
    return int(edges[k])


def tail_rate(t, error, onset: int | None, floor: float | None = None) -> float | None:
    """B3.4: line search's linear-rate constant ``c`` (``log error = a - c t``, :func:`~.herding.exp_rate`) fitted on
    the tail of its linear phase: the errors above ``floor`` (default ``ROUNDING_LEVEL`` times the largest) from
    ``max(onset, half the last such t)``; ``None`` where the run is not in its linear phase (``onset`` None, from
    :func:`linear_onset`) or fewer than 3 errors are left."""
    from .herding import exp_rate
    t, e = as_finite_array("t", t, ndim=1), as_finite_array("error", error, ndim=1)
    if onset is None:
        return None
    floor = ROUNDING_LEVEL * float(np.max(e)) if floor is None else check_real("floor", floor, low=0.0)
    above = e > floor
    if above.sum() < 3:
        return None
    at = above & (t >= max(int(onset), t[above].max() / 2))
    if at.sum() < 3:
        return None
    return float(exp_rate(t[at], e[at], t_min=1)[0])


def censored_median(times, budget: int) -> float | None:
    """B3.5: the Kaplan-Meier median of event sizes censored at ``budget`` (``None``: no event within the run, known
    only to lie beyond it): with one budget for all, the survival is the share not yet reached, and the median is the
    first size at which more than half have reached it; ``None`` ("not reached") where half or fewer do."""
    times = list(times)
    budget = check_int("budget", budget, low=1)
    if not times:
        raise ValueError("times must hold one size (or None) per draw; got none")
    seen = sorted(check_int("times", v, low=1, high=budget) for v in times if v is not None)
    if 2 * len(seen) <= len(times):
        return None
    return float(seen[len(times) // 2])


def onset_later(small, large, small_budget: int, large_budget: int, factor: float) -> tuple[bool | None, float | None, float | None]:
    """B3.5 (Sec. 5.2): ``(holds, median small, median large)``: the censored median (:func:`censored_median`) of the
    onsets of line search's linear phase (:func:`linear_onset`, one per draw) in the small-distance regime is at least
    ``factor`` times the one in the large-distance family. A median that is not reached (``None``) is known to lie beyond
    its family's budget, and counts as such: a censored small median holds against a reached large one when
    ``small_budget >= factor * large``; a censored large median fails against a reached small one when ``small <
    factor * large_budget``. ``holds`` is ``None`` only where the censoring leaves the comparison open (both censored,
    or a bound that does not settle it)."""
    factor = check_real("factor", factor, low=1.0)
    ms, ml = censored_median(small, small_budget), censored_median(large, large_budget)
    if ms is not None and ml is not None:
        return bool(ms >= factor * ml), ms, ml
    if ms is None and ml is not None:
        return (True if small_budget >= factor * ml else None), ms, ml
    if ms is not None and ml is None:
        return (False if ms < factor * large_budget else None), ms, ml
    return None, ms, ml


def decided_in_regime(checks: dict, regime_cells, all_cells, lost: str | None = None) -> tuple[bool | None, str, list]:
    """B3.2 (THE RULE, clause 2, on a lost setting whose regime the paper's own explanation names): ``(holds, place,
    deciding cells)``, three-valued in the gate. ``checks`` maps each of the explanation's own checks (B3.4, B3.5,
    decided at the same scale) to its verdict. Where every one ``holds``, the claim is decided in ``regime_cells`` (the
    cells fixed in the regime, :func:`regime_by_bound`; ``place`` ``"regime"``); where one ``fails`` (a verdict, so
    decisively), over ``all_cells``, the whole map (clause 3; ``"axis"``), through THE RULE's lost-setting rule
    (:func:`~.verdict_map.lost_setting_verdict`, each cell a value of the lost settings): where decisive cells disagree
    the claim is undecided (None, ``"lost setting"``: inconclusive, never a ``setting`` failure); else (a check inconclusive or not measured,
    none failing) the gate is open: both places are read and the claim takes their verdict where they agree
    (``"agree"``, every cell deciding), else it is undecided (None, ``"undecided"``). Each place by
    :func:`~.herding_claims.map_holds` (every decisive deciding cell holds: True; one fails: False; else None).

    ``lost``: the key of a setting the paper gave and extraction lost that the regime spans (B3.2: ``"d"``, Fig. 5's
    number of variables; each regime cell's ``setting`` names its value). The regime is then read at each of its
    values by :func:`~.herding_claims.map_holds` and the values combined by
    :func:`~.verdict_map.lost_setting_verdict` (clause 3's last sentence, as B1.4 over s): where they disagree the
    claim is undecided in the regime (None, ``"regime lost setting"``: inconclusive, decided by a lost setting), where a
    value is undecided so is the regime."""
    from .herding_claims import map_holds
    from .verdict_map import lost_setting_verdict
    if not checks:
        raise ValueError("decided_in_regime needs the explanation's checks (their verdicts); got none")
    regime_cells, all_cells = list(regime_cells), list(all_cells)
    if not all_cells:
        raise ValueError("decided_in_regime needs cells on the map")
    if lost is not None and not all(lost in c.get("setting", {}) for c in regime_cells):
        raise ValueError(f"decided_in_regime: every regime cell must name its {lost!r} (the lost setting) in its setting")

    def in_regime():
        if lost is None:
            return map_holds(regime_cells)
        values = list(dict.fromkeys(c["setting"][lost] for c in regime_cells))
        return lost_setting_verdict({v: map_holds([c for c in regime_cells if c["setting"][lost] == v]) for v in values})

    said = list(checks.values())
    if all(v == "holds" for v in said):
        if not regime_cells:
            raise ValueError("decided_in_regime: the checks hold but no cell is in the regime")
        held = in_regime()
        return (None, "regime lost setting", regime_cells) if held == "lost setting" else (held, "regime", regime_cells)
    if any(v == "fails" for v in said):
        # clause 3 over the whole map, whose cells are values of the lost settings (covariance, d, sample size): where
        # they disagree the claim is inconclusive (lost setting), never a `setting` failure from a universal over them
        lost_all = lost_setting_verdict({i: map_holds([c]) for i, c in enumerate(all_cells)})
        if lost_all == "lost setting":
            return None, "lost setting", all_cells
        return map_holds(all_cells), "axis", all_cells
    held = in_regime() if regime_cells else None
    on_axis = map_holds(all_cells)
    if held in (True, False) and held == on_axis:
        return held, "agree", all_cells
    return None, "undecided", all_cells


def mean_in_hull(F, mu, tol: float = 1e-9) -> bool:
    """B3.2: whether ``mu`` lies in the hull of the rows of ``F`` (the sampled polytope): one feasibility linear
    programme (weights ``w >= 0``, ``sum w = 1``, ``F' w = mu``; scipy's HiGHS at tolerance ``tol``). A draw whose mean
    lies outside its sampled hull cannot be reached by any method over that sample: it is not read."""
    from scipy.optimize import linprog
    F = np.unique(as_finite_array("F", F, ndim=2), axis=0)
    mu = as_finite_array("mu", mu, ndim=1)
    m, D = F.shape
    if len(mu) != D:
        raise ValueError(f"mu must have one entry per column of F ({D}); got {len(mu)}")
    A_eq = np.vstack([F.T, np.ones((1, m))])
    res = linprog(np.zeros(m), A_eq=A_eq, b_eq=np.append(mu, 1.0), bounds=(0, None), method="highs",
                  options={"primal_feasibility_tolerance": tol})
    return bool(res.status == 0)


def family_in_hull(d: int, strength: float, rank: int | None, draw: int, seed: int, n_sample: int) -> bool:
    """:func:`mean_in_hull` on :func:`family_model`'s draw (a task for :func:`~.parallel.run_tasks`)."""
    return mean_in_hull(*family_model(d, strength, rank, draw, seed, n_sample))


def crossover_t(table: pd.DataFrame, slow: str, fast: str) -> int | None:
    """B3.2 (beside): the first ``t`` after which ``slow``'s error stays at or below ``fast``'s to the table's end (the
    size from which the line search overtakes herding for good); None where ``slow`` is still above at the last size."""
    check_table("table", table, [slow, fast])
    above = (table[slow] > table[fast]).to_numpy()
    if above[-1]:
        return None
    k = np.flatnonzero(above)
    return int(table.index[0] if not len(k) else table.index[k[-1] + 1])


def feature_radius(F) -> float:
    """``R`` of Sec. 4.2 (``||Phi(x)|| <= R``; the rates ``exp(-c r^2 t / R^2)`` and ``2 R^2 / (r t)`` rest on it): the
    largest norm of the rows of ``F``, the candidates' features (the vertices of the sampled polytope, on which
    :func:`~inferopt.herding.boundary_distance_bound` computes ``r``). For the +-1 pairwise features of ``d`` binary
    variables every state's norm is ``sqrt(d + d(d-1)/2)``."""
    F = as_finite_array("F", F, ndim=2, nonempty=True)
    return float(np.sqrt((F ** 2).sum(axis=1).max()))


def regime_by_bound(bounds: dict, radii: dict, cut: float) -> list:
    """B3.2's regime, a property of the cell fixed once before any verdict is read (review 211): the cells (keys of
    ``bounds``, each the median over the cell's draws of :func:`~inferopt.herding.boundary_distance_bound`, the upper
    bound on the mean's distance r from the sampled polytope's boundary) whose scale-free distance ``r / R`` lies below
    ``cut``, ``R`` the cell's radius in ``radii`` (:func:`feature_radius`, ``||Phi(x)|| <= R``), at every value of the
    lost settings (d among them: :func:`decided_in_regime` reads the regime at each d). Sec. 5.2 names the regime by r
    ("if this is too small"), and Sec. 4.2's rates depend on r only through ``r / R`` (line search ``exp(-c r^2 t /
    R^2)``, the 1/(t+1) rule ``2 R^2 / (r t)``): across d (``R = sqrt(d + d(d-1)/2)`` here) the absolute r is not the
    paper's quantity (the regime was on r before; session 29's review). Every window of iterations read reads the same
    set."""
    cut = check_real("cut", cut, low=0.0, low_open=True)
    if not isinstance(bounds, dict) or not isinstance(radii, dict):
        raise TypeError(f"bounds and radii must be dicts keyed by cell; got {type(bounds).__name__} and {type(radii).__name__}")
    missing = [k for k in bounds if k not in radii]
    if missing:
        raise ValueError(f"radii must give every cell of bounds its radius R; missing {missing}")
    ratio = {k: float(bounds[k]) / check_real("radii", radii[k], low=0.0, low_open=True) for k in bounds}
    return [k for k in bounds if ratio[k] < cut]
