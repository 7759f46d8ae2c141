"""The herding experiments (B1-B6): error curves and fitted rates behind Figs. 3-7 and Sec. 4.2 of Bach et al. (2012).

* :func:`sobolev_curves` -- every method of Fig. 3 on one (kernel, density) panel, as a tidy table;
* :func:`finite_sample_curves` -- Fig. 4: fit the empirical mean of a sample, test against the exact one;
* :func:`state_curves` -- Figs. 6-7: herding's distribution over the states against the max-entropy one;
* :func:`bit_means` -- the three kinds of mean vectors of Fig. 6;
* :func:`moment_error_floor` -- the moment error below which a herding run over the states cannot tell atoms apart;
* :func:`floored_summary` -- one setting's runs over the states (herding, line search, ...) summarised into one table,
  each run's moment error read at 0 below that setting's floor;
* :func:`log_slope`, :func:`exp_rate` -- fitted rates (Sec. 4.2: ``O(t^-a)`` against ``exp(-c t)``);
* :func:`error_table`, :func:`at_sizes`, :func:`ratio_over_sizes`, :func:`slopes_over_sizes` -- the claims'
  comparisons, every method read at the same sizes ``t`` (never one side at ``t = 2^k`` and the other at every ``t``).

Method names follow the paper's legends: ``cg-1/(t+1)`` (herding), ``cg-l.search``,
``min-norm-point``, ``random``, ``sobol``, and ``<name>-proj`` (optimal simplex re-weighting
of the first ``t`` points, :func:`~inferopt.herding.herding.projected_errors`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from .._selection import TIE_RTOL
from .._validation import (as_finite_array, check_callable, check_choice, check_flag, check_in_hull, check_int,
                           check_int_sequence, check_probabilities, check_real, check_size, check_table)
from ..herding.baselines import sobol_points
from ..herding.densities import TrigDensity, check_density
from ..herding.herding import herd, projected_errors
from ..herding.maxent import entropy
from ..herding.targets import EmpiricalTarget, FeatureTarget, KernelTarget, check_points, mmd2_uniform_prefix
from .._random import as_generator

#: Fig. 3 legend name -> :func:`~inferopt.herding.herd` step rule.
CG_METHODS = {"cg-1/(t+1)": "1/(t+1)", "cg-l.search": "line_search", "min-norm-point": "mnp"}
MEAN_KINDS = ("random", "rational ratios", "rational")


def _rows(method: str, error, t=None, rep: int = 0, **extra) -> pd.DataFrame:
    error = np.asarray(error, dtype=float)
    t = np.arange(1, len(error) + 1) if t is None else np.asarray(t)
    return pd.DataFrame({"method": method, "t": t, "error": error, "rep": rep, **extra})


def sobolev_curves(target: KernelTarget, density: TrigDensity, grid, n_points: int, proj_sizes, n_rep: int,
                   rng, progress: bool = False, *, methods: dict = CG_METHODS, snap_sobol: bool = False) -> pd.DataFrame:
    """``||mu - mu_hat_t||^2`` of every Fig. 3 method, ``t = 1..n_points`` (``-proj``: ``t`` in ``proj_sizes``).

    The conditional-gradient methods (``methods``: name -> step of :func:`~inferopt.herding.herd`, e.g. a
    registered step rule beside the paper's; they draw nothing) search ``grid`` exhaustively; ``random``
    draws ``n_rep`` i.i.d. samples of ``density`` with ``rng``; ``sobol`` is the unscrambled Sobol
    sequence through ``density.ppf``, each point moved to its nearest candidate of ``grid`` (on the circle
    ``[0, 1)``, :func:`snap_to_grid`) when ``snap_sobol``: then Sobol's points are confined to the grid as the
    searched methods' are.  Columns: ``method, t, error, rep, x`` (``x``: the point added at step ``t`` by a
    method whose points have uniform weights, herding's ``cg-1/(t+1)`` and ``sobol``; NaN elsewhere).
    ``min-norm-point`` may stop early (finite termination): its curve is then shorter.
    """
    n_points = check_size("n_points", n_points, low=2, item_bytes=8 * 4, item="point")
    n_rep = check_size("n_rep", n_rep, item_bytes=8 * n_points, item="replication (a curve of n_points errors)")
    check_density(density)
    sizes = sorted(set(check_int_sequence("proj_sizes", proj_sizes, low=1, high=n_points)))
    rng = as_generator(rng)
    grid = check_points(target, "grid", grid)
    snap_sobol = check_flag("snap_sobol", snap_sobol)
    frames = []
    steps = tqdm(total=len(methods) + 2 + n_rep, disable=not check_flag("progress", progress), desc="Fig. 3 panel",
                 leave=False)
    for name, step in methods.items():
        res = herd(target, grid, n_points, step)
        frames.append(_rows(name, res.objective, x=grid[res.order] if step == "1/(t+1)" else np.nan))
        if step != "mnp":
            frames.append(_rows(name + "-proj", projected_errors(target, grid[res.order], sizes), sizes))
        steps.update()
    sobol = sobol_points(density, n_points)
    sobol = snap_to_grid(sobol, grid) if snap_sobol else sobol
    frames += [_rows("sobol", mmd2_uniform_prefix(target, sobol), x=sobol),
               _rows("sobol-proj", projected_errors(target, sobol, sizes), sizes)]
    steps.update(2)
    for rep in range(n_rep):
        pts = density.sample(n_points, rng)
        frames += [_rows("random", mmd2_uniform_prefix(target, pts), rep=rep),
                   _rows("random-proj", projected_errors(target, pts, sizes), sizes, rep=rep)]
        steps.update()
    steps.close()
    return pd.concat(frames, ignore_index=True)


def snap_to_grid(points, grid) -> np.ndarray:
    """Each of ``points`` (in ``[0, 1)``) replaced by its nearest point of ``grid`` on the circle ``[0, 1)`` (the
    Sobolev kernels are periodic; ties go to the lower grid point)."""
    x = as_finite_array("points", points, ndim=1, nonempty=True)
    g = np.sort(as_finite_array("grid", grid, ndim=1, nonempty=True))
    if x.min() < 0 or x.max() >= 1 or g[0] < 0 or g[-1] >= 1:
        raise ValueError("points and grid must lie in [0, 1)")
    ext = np.concatenate([[g[-1] - 1.0], g, [g[0] + 1.0]])
    j = np.clip(np.searchsorted(ext, x), 1, len(ext) - 1)
    lower = (x - ext[j - 1]) <= (ext[j] - x)
    return g[(np.where(lower, j - 1, j) - 1) % len(g)]


def finite_sample_curves(target: KernelTarget, sample, n_points: int, progress: bool = False, *,
                         methods: dict = CG_METHODS) -> pd.DataFrame:
    """Fig. 4: herding-type methods fit the empirical mean of ``sample`` (search over the sample).

    Columns ``method, t, train, test``: ``train = ||mu_n - mu_hat_t||^2`` (``mu_n`` the sample's
    mean element) and ``test = ||mu - mu_hat_t||^2`` against the exact ``target``. ``methods``:
    name -> step rule of :func:`~inferopt.herding.herd` (default the paper's :data:`CG_METHODS`).
    """
    sample = check_points(target, "sample", sample)
    train = EmpiricalTarget(target, sample)
    frames = []
    for name, step in tqdm(methods.items(), disable=not check_flag("progress", progress), desc="Fig. 4", leave=False):
        res = herd(train, sample, n_points, step, test_target=target)
        frames.append(pd.DataFrame({"method": name, "t": np.arange(1, len(res.objective) + 1),
                                    "train": res.objective, "test": res.test_objective}))
    return pd.concat(frames, ignore_index=True)


def bit_means(kind: str, d: int, rng, denominator: int = 10) -> np.ndarray:
    """The mean vectors of Fig. 6 in (-1, 1)^d, drawn with ``rng``.

    ``'random'``: i.i.d. uniform on (-1, 1); ``'rational'``: ``k / denominator`` with ``k``
    uniform on ``{-(denominator-1), .., denominator-1}``; ``'rational ratios'``: ``sqrt(2)/2`` times
    such rationals (irrational means whose ratios are rational).
    """
    check_choice("kind", kind, MEAN_KINDS)
    d, q = check_size("d", d, item_bytes=8 * 2, item="bit"), check_int("denominator", denominator, low=2)
    rng = as_generator(rng)
    if kind == "random":
        return rng.uniform(-1.0, 1.0, size=d)
    rational = rng.integers(-(q - 1), q, size=d) / q
    return rational if kind == "rational" else np.sqrt(2.0) / 2.0 * rational


def state_curves(features, mu, p_star, n_points: int, step: str, checkpoints) -> pd.DataFrame:
    """Figs. 6-7: herd over all states (rows of ``features``) towards the moments ``mu``.

    At each ``t`` in ``checkpoints`` (number of points), the weights ``p_t`` over the states
    give ``dist = ||p_t - p_star||_2`` (top panels), ``mean_error = ||F' p_t - mu||_2`` (bottom
    panels), the ``entropy`` of ``p_t`` (nats) and ``support99``, the fewest states that carry 99% of
    its mass (line search leaves many tiny weights, so a count of positive weights says little).
    """
    return _state_run(features, mu, p_star, n_points, step, checkpoints)[0]


def herding_record(features, mu, p_star, n_points: int, checkpoints) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Herding (step ``1/(t+1)``): :func:`state_curves`' table and, from the same run, Fig. 6's two axes after every
    number of points ``t = 1 .. n_points``: ``t``, ``mean_error = ||F' p_t - mu||_2`` and ``dist = ||p_t - p_star||_2``.

    Herding's weights after ``t`` points are uniform, ``p_t = c_t / t`` with ``c_t`` the counts of the states picked
    (Eq. 4's ``x_1 .. x_t``): ``F' p_t`` is their running mean, so an exact return to the means reads as 0 up to the
    rounding of ``mu`` itself (about 1e-16, where the square root of the objective's expansion would leave about 1e-8),
    and ``||p_t - p*||^2 = ||c_t||^2 / t^2 - 2 c_t'p* / t + ||p*||^2`` with ``||c_t||^2`` (integers) and ``c_t'p*``
    updated by one state per point."""
    F, mu, p_star = _states(features, mu, p_star)
    table, res = _state_run(F, mu, p_star, n_points, "1/(t+1)", checkpoints)
    order = res.order
    t = np.arange(1, len(order) + 1)
    running = np.cumsum(F[order], axis=0) / t[:, None]
    by_state = np.argsort(order, kind="stable")          # earlier picks of the same state: its count before this point
    before = np.empty(len(order), dtype=np.int64)
    sorted_states = order[by_state]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_states)) + 1]
    before[by_state] = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    sq = np.cumsum(2 * before + 1)                       # ||c_t||^2
    dot = np.cumsum(p_star[order])                       # c_t' p*
    dist2 = sq / t**2 - 2 * dot / t + float(p_star @ p_star)
    return table, pd.DataFrame({"t": t, "mean_error": np.linalg.norm(running - mu, axis=1), "dist": np.sqrt(np.maximum(dist2, 0.0))})


#: multiples of the LMO's tie tolerance at which :func:`moment_error_floor` reads a moment error as 0
MOMENT_FLOOR_FACTOR = 10.0


def moment_error_floor(features, mu) -> float:
    """The moment error ``||F'p - mu||_2`` below which a herding run over the states (rows of ``features``; the
    :func:`state_curves` of Figs. 6-7) stops measuring: ``MOMENT_FLOOR_FACTOR · τ`` with
    ``τ = 4 · TIE_RTOL · max_j |<Φ(x_j), mu>|``, the tie tolerance of the linear minimisation near the target.

    The LMO (Eq. 4's ``argmin_j <g_t - mu, Φ(x_j)>``, as :class:`~inferopt.fw.QuadraticHull` computes it: gradients
    ``2((Gα)_j - c_j)``, ``c_j = <Φ(x_j), mu>``) treats atoms whose gradients differ by at most ``TIE_RTOL`` times
    ``2(|(Gα)_j| + |c_j|)`` as tied and takes the lowest index (:mod:`inferopt._selection`); at ``g_t ≈ mu`` that
    tolerance is ``τ``. Once the gradients lie within it the step can no longer descend and the moment error stalls:
    measured on pairwise features (d = 3 .. 8, pair weights 0.2 and 0.5), at 0.3 to 2 ``τ`` (at ``TIE_RTOL = 1e-13``
    it stalls 100 times lower), at a level whose last bits come from the BLAS kernel (issue 40: B5's line search
    stalls at 8.5e-11 under OpenBLAS's Haswell kernel, at 8.9e-11 under Sandybridge and SkylakeX, d = 6). A moment
    error below the floor is that stall, not a measurement."""
    F = as_finite_array("features", features, ndim=2, nonempty=True)
    mu = as_finite_array("mu", mu, ndim=1)
    if len(mu) != F.shape[1]:
        raise ValueError(f"mu must have length features.shape[1] = {F.shape[1]}; got {len(mu)}")
    c = (F * mu).sum(axis=1)   # numpy's own summation, not a BLAS product: the same bits under every kernel
    return MOMENT_FLOOR_FACTOR * 4.0 * TIE_RTOL * float(np.abs(c).max())


#: a summary statistic of magnitude at most this reads as 0 in :func:`floored_summary` (a slope fitted on a plateau,
#: a distance's lower digits: rounding, whose last bits come from the BLAS kernel)
SUMMARY_ZERO = 1e-12


def floored_summary(runs: dict, floor: float, summarise) -> pd.DataFrame:
    """One setting's runs over the states (``runs``: method name -> its :func:`state_curves` table, or
    :func:`~.moment_claims.tie_curves`', each with a ``mean_error`` column: B5's run pair of herding and line search in one
    cell of its map) summarised into one table, one row per method: each run's moment error read at 0 at or below the
    setting's ``floor`` (:func:`moment_error_floor`: the LMO's resolution, below which the error is the stall, not a
    measurement), then ``summarise(run, floor)`` (its statistics, a mapping or ``pandas.Series`` of real numbers; NaN
    where a statistic has nothing to fit, e.g. a slope of an error at the means), statistics of magnitude at most
    :data:`SUMMARY_ZERO` read as 0 (NaN kept). Raises ``ValueError`` / ``TypeError`` naming the bad argument: a run
    without ``mean_error``, a negative ``floor``, a ``summarise`` that is not callable, returns non-real values or no
    finite statistic."""
    if not isinstance(runs, dict) or not runs:
        raise ValueError(f"runs must map method names to run tables; got {runs!r}")
    for name, run in runs.items():
        check_table(f"runs[{name!r}]", run, ("mean_error",))
    floor = check_real("floor", floor, low=0.0)
    check_callable("summarise", summarise)
    rows = {}
    for name, run in runs.items():
        stats = pd.Series(summarise(run.assign(mean_error=run.mean_error.where(run.mean_error > floor, 0.0)), floor))
        if stats.empty or stats.dtype.kind not in "fiub":
            raise TypeError(f"summarise must return real numbers; got {stats.dtype} for {name!r}")
        if not np.isfinite(stats.to_numpy(dtype=float)).any():
            raise ValueError(f"summarise returned no finite statistic for {name!r}")
        rows[name] = stats.astype(float)
    table = pd.DataFrame(rows).T
    return table.where((table.abs() > SUMMARY_ZERO) | table.isna(), 0.0)


def _state_run(features, mu, p_star, n_points, step, checkpoints):
    """(the checkpoints' table of :func:`state_curves`, the herding result)."""
    F, mu, p_star = _states(features, mu, p_star)
    n_points = check_int("n_points", n_points, low=2)
    ts = sorted(set(check_int_sequence("checkpoints", checkpoints, low=1, high=n_points)))
    res = herd(FeatureTarget(mu), F, n_points, step, snapshots=ts)
    rows = [{"t": t, "dist": float(np.linalg.norm(p - p_star)), "mean_error": float(np.linalg.norm(F.T @ p - mu)),
             "entropy": entropy(p), "support99": states_holding(p, 0.99)}
            for t, p in sorted(res.snapshots.items())]
    return pd.DataFrame(rows), res


def _states(features, mu, p_star):
    """``(features, mu, p_star)`` checked: one probability per state, ``mu`` in the states' hull."""
    F = as_finite_array("features", features, ndim=2, nonempty=True)
    p_star = as_finite_array("p_star", p_star, ndim=1)
    if len(p_star) != len(F):
        raise ValueError(f"p_star must have one entry per state ({len(F)}); got {len(p_star)}")
    p_star = check_probabilities("p_star", p_star)
    mu = as_finite_array("mu", mu, ndim=1)
    if len(mu) != F.shape[1]:
        raise ValueError(f"mu must have length features.shape[1] = {F.shape[1]}; got {len(mu)}")
    check_in_hull("mu", mu, F, what="the convex hull of the states' features (herding cannot reach it)")
    return F, mu, p_star


def states_holding(p: np.ndarray, mass: float) -> int:
    """The fewest entries of ``p`` whose sum reaches ``mass``."""
    return int(np.searchsorted(np.cumsum(np.sort(p)[::-1]), mass * p.sum() * (1 - 1e-12)) + 1)


def _fit(x, t, error, t_min, t_max, name: str, min_points: int) -> tuple[float, float]:
    """Least-squares line through ``(x, log error)`` over ``t_min <= t <= t_max`` (positive errors):
    ``(slope, R^2)``; ``x`` is ``t`` or (``None``) ``log t``."""
    t = as_finite_array("t", t, ndim=1, nonempty=True)
    e = as_finite_array("error", error, ndim=1)
    if e.shape != t.shape:
        raise ValueError(f"error must have the length of t ({t.shape[0]}); got {e.shape[0]}")
    if t.min() <= 0:
        raise ValueError(f"t must hold positive iteration counts; got a minimum of {t.min():g}")
    t_min = check_real("t_min", t_min)
    t_max = check_real("t_max", t_max) if t_max != np.inf else t_max
    x = np.log(t) if x is None else t
    keep = (t >= t_min) & (t <= t_max) & (e > 0)
    if keep.sum() < min_points:
        raise ValueError(f"{name} needs at least {'two' if min_points == 2 else 'three'} positive errors in [t_min, t_max]")
    x, y = x[keep], np.log(e[keep])
    slope, icept = np.polyfit(x, y, 1)
    ss = np.sum((y - y.mean()) ** 2)
    r2 = 1.0 - np.sum((y - slope * x - icept) ** 2) / ss if ss > 0 else 1.0
    return float(slope), float(r2)


def power_fit(t, error, t_min: float = 1, t_max: float = np.inf) -> tuple[float, float]:
    """Fit ``log error = a + slope log t`` (error ``O(t^slope)``): returns ``(slope, R^2)``."""
    return _fit(None, t, error, t_min, t_max, "power_fit", 3)


def log_slope(t, error, t_min: float = 1, t_max: float = np.inf) -> float:
    """Least-squares slope of ``log error`` against ``log t`` over ``t_min <= t <= t_max`` (positive errors only)."""
    return _fit(None, t, error, t_min, t_max, "log_slope", 2)[0]


def exp_rate(t, error, t_min: float = 1, t_max: float = np.inf) -> tuple[float, float]:
    """Fit ``log error = a - c t`` over ``t_min <= t <= t_max`` (positive errors): returns ``(c, R^2)``."""
    slope, r2 = _fit(t, t, error, t_min, t_max, "exp_rate", 3)   # x = t: a line in t
    return -slope, r2


#: how :func:`ratio_over_sizes` summarises a ratio over the sizes t
RATIO_SUMMARIES = ("gmean", "median")
#: the floor of a ratio in a geometric mean: an exact zero error (min-norm-point's finite termination) is the best there is
RATIO_FLOOR = 1e-300
#: errors below this fraction of a table's largest error are read at that level by :func:`ratio_over_sizes`: they are
#: the round-off of the expansion ``||mu||^2 - 2 c'alpha + alpha'G alpha`` the solvers evaluate (about eps ||mu||^2;
#: :class:`inferopt.fw.QuadraticHull` keeps its drift below ``REFRESH_RTOL = 1e-13``), not a measurement:
#: min-norm-point's error once it reaches ``mu`` is 1e-30 with one BLAS kernel and 1e-17 with another (issue 40)
ROUNDING_LEVEL = 1e-13


def error_table(curves: pd.DataFrame, carry=("min-norm-point",)) -> pd.DataFrame:
    """One panel's errors as a ``(t x method)`` table: the mean over the replications (``rep``) at each size ``t``.

    Every method is indexed by the same sizes; a method measured at some sizes only (the ``-proj``
    variants) stays NaN at the others (never carried to sizes it was not measured at); a method of
    ``carry`` that stopped early (min-norm-point's finite termination: ``mu`` reached) keeps its
    last error after its last size.
    """
    check_table("curves", curves, ("method", "t", "error"))
    table = curves.groupby(["t", "method"]).error.mean().unstack("method").sort_index()
    table.columns.name = None
    for m in carry:
        if m in table:
            last = table[m].last_valid_index()
            table.loc[table.index > last, m] = table.loc[last, m]
    return table


def at_sizes(table: pd.DataFrame, methods, sizes) -> pd.DataFrame:
    """The errors of ``methods`` at ``sizes``, every method read at the same ``t``.

    Raises ValueError naming the method and the sizes when one of them has no error there: a
    comparison reads both sides at the same sizes or not at all.
    """
    check_table("table", table, list(methods))
    sizes = check_int_sequence("sizes", sizes, low=1)
    missing = [t for t in sizes if t not in table.index]
    if missing:
        raise ValueError(f"sizes {missing[:5]} are not in the table (sizes {table.index.min()}..{table.index.max()})")
    rows = table.loc[sizes, list(methods)]
    for m in methods:
        gap = rows.index[rows[m].isna()].tolist()
        if gap:
            raise ValueError(f"method {m!r} has no error at sizes {gap[:5]}: compare methods at sizes where both are measured")
    return rows


def ratio_over_sizes(table: pd.DataFrame, num: str, den, sizes, how: str = "gmean") -> float:
    """``num / den`` at the same ``sizes`` (``den``: a method or a list of methods, their pointwise
    minimum: "the best other"), summarised over the sizes: geometric mean (``'gmean'``, ratios
    floored at :data:`RATIO_FLOOR`) or ``'median'``. Reading the ratio at many sizes, not one, keeps
    a coincidence at a single size (herding's evenly spaced points at ``t = 2^k`` on a dyadic grid)
    from deciding a comparison. Errors below :data:`ROUNDING_LEVEL` times the table's largest error
    are read at that level (round-off, whose value depends on the BLAS kernel, is not compared)."""
    check_choice("how", how, RATIO_SUMMARIES)
    den = [den] if isinstance(den, str) else list(den)
    rows = at_sizes(table, [num] + den, sizes)
    largest = np.nanmax(table.to_numpy(dtype=float)) if table.size else 0.0
    rows = rows.clip(lower=ROUNDING_LEVEL * largest) if np.isfinite(largest) and largest > 0 else rows
    ratio = (rows[num] / rows[den].min(axis=1)).to_numpy(dtype=float)
    if how == "median":
        return float(np.median(ratio))
    return float(np.exp(np.mean(np.log(np.maximum(ratio, RATIO_FLOOR)))))


def slopes_over_sizes(table: pd.DataFrame, methods, sizes) -> dict:
    """Least-squares log-log slope of each of ``methods`` fitted on the same ``sizes`` (every error
    there positive: ValueError otherwise, as a fit that dropped a zero would read one method at fewer sizes)."""
    rows = at_sizes(table, methods, sizes)
    if (rows.to_numpy(dtype=float) <= 0).any():
        raise ValueError("slopes_over_sizes needs positive errors of every method at every size (a zero error has no log)")
    return {m: log_slope(rows.index.to_numpy(dtype=float), rows[m].to_numpy(dtype=float)) for m in methods}
