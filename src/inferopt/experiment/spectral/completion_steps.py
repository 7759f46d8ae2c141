"""D3's steps, tuned on the validation split as a practitioner would (Sec. 5.1 of the paper gives no step).

The paper runs GD, SGD, SVRG and SGD-DET on MovieLens without stating their steps. Every arm's initial step is
``c / L`` (:func:`~.completion.lipschitz_step`: ``L = 2 lambda + eps^{-1/2}`` bounds the curvature of the objective),
``c`` chosen by one rule for all: a pilot run per factor on the validation split of the training ratings
(:func:`pilot_runs`), the factor of least *late* validation RMSE (the mean over the last quarter of the pilot's records,
:func:`late_rmse`; session 45: one end-point of a noisy run chose SVRG's unstable 1.9/L at the paper scale) among the
pilots that did not diverge
(:func:`choose_stable`: a pilot whose objective ends above its own start's is rejected; one that ends above ``far`` times
the model optimum's is flagged *far*, a slow or noisy run, not a divergent one); every factor
is capped strictly below the stability limit ``c < 2`` (:data:`STABLE_LIMIT`, :func:`step_cap`); where the chosen
factor sits at an edge of the arm's grid, the grid is extended by ``step_ratio`` beyond it, up to ``rounds`` times, never
past the cap (:func:`tune_steps`), an edge left flagged. The test ratings never enter the choice.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_callable, check_choices, check_int, check_protocol, check_real, check_table
from .completion import DECAYING, METHODS, completion_calls, completion_problem, grid_edge, lipschitz_step

#: the stability limit of a constant step on an L-smooth objective in units of 1/L: gradient descent decreases the objective
#: for every step eta < 2 / L and may diverge beyond (the descent lemma, f(x - eta g) <= f(x) - eta (1 - eta L / 2) |g|^2;
#: Nesterov 2004, Thm. 2.1.14; Bottou, Curtis & Nocedal 2018, Sec. 4.1): with L :func:`~.completion.lipschitz_step`'s bound
#: of the objective's curvature, c = eta L < 2 keeps GD's and SVRG's constant steps, and SGD's initial ones, stable
STABLE_LIMIT = 2.0

#: the largest factor tried: this share of :data:`STABLE_LIMIT` (strictly below it: at the limit GD oscillates without decay)
STABLE_SHARE = 0.95

#: a pilot whose objective on the fit ratings ends above this many times the model optimum's is *far* from it (flagged,
#: not rejected: at the paper scale SGD's pilots start at 11-19x the optimum's objective and end at 2.4-5.1x, slow and noisy
#: but descending; session 38). Divergence is read against the run's own start (:func:`choose_stable`): session 28's
#: box-pinned c = 4 ended at 40x, above its start
FAR_OBJECTIVE = 2.0

#: the share of a pilot's records (its last ones) its score averages (session 45, the review of D3.3): at the paper scale
#: SVRG's pilot at 1.9/L ended at validation RMSE 0.991 against 0.996 at 1.0/L, yet its objective stood 1.24x the optimum's
#: against 1.004x and its main runs went backwards over their second half: one end-point of a run that oscillates reads
#: where the last oscillation happened to land; the mean over the last quarter reads where the run stays
LATE_SHARE = 0.25


def late_rmse(result, work: float | None = None, share: float = LATE_SHARE) -> float:
    """The *late* RMSE of ``result`` (a :class:`~inferopt.spectral.SpectralSolveResult`): the mean of ``result.metric``
    over the last ``share`` of its records (at least one), of those at or before ``work`` on its time axis where given
    (a run on the work axis, :func:`on_work`, read at its budget); NaN where no record lies within ``work``. The score
    :func:`choose_stable` and :func:`tuned_decays` read (:data:`LATE_SHARE`): a step that oscillates is scored where it
    stays, not where its last record happened to land."""
    check_protocol("result", result, "metric", "times", what="a SpectralSolveResult")
    share = check_real("share", share, low=0.0, low_open=True, high=1.0)
    metric = np.asarray(result.metric, dtype=float)
    if work is not None:
        work = check_real("work", work, low=0.0)
        metric = metric[np.asarray(result.times, dtype=float) <= work]
    if metric.size == 0:
        return float("nan")
    k = max(1, int(np.ceil(round(share * metric.size, 9))))
    return float(np.mean(metric[-k:]))


def step_cap(share: float = STABLE_SHARE) -> float:
    """The largest step factor ``c`` (of ``c / L``) the tuner tries: ``share`` of :data:`STABLE_LIMIT`, ``0 < share < 1``."""
    share = check_real("share", share, low=0.0, low_open=True, high=1.0)
    if share >= 1.0:
        raise ValueError(f"share must lie strictly below 1 (the stability limit itself is not stable); got {share}")
    return share * STABLE_LIMIT


def capped(grid: dict, cap: float) -> dict:
    """``grid`` (``{arm: [factor, ...]}``) with every factor above ``cap`` replaced by ``cap`` (duplicates dropped, order kept)."""
    grid = _grid(grid)
    cap = check_real("cap", cap, low=0.0, low_open=True)
    return {m: list(dict.fromkeys(min(float(f_), cap) for f_ in fs)) for m, fs in grid.items()}


def choose_stable(table: pd.DataFrame) -> tuple:
    """Each arm's step factor from its pilots (``table``: one row per pilot, columns ``arm, factor, validation RMSE,
    late validation RMSE, objective / optimum, start / optimum``, the last the objective of the pilot's start over the
    model optimum's): a pilot that diverged (:func:`diverged`: its objective ends above its own start's, or its validation
    RMSE or objective is not finite; the box alone kept it finite) is rejected; of the others the factor of least *late*
    validation RMSE (a tie: the smaller factor): the mean over the last quarter of the pilot's records (:func:`late_rmse`,
    session 45: scored on its end-point alone, a noisy unstable step whose last record happened to dip, SVRG's 1.9/L at the
    paper scale, beat a stable one that stayed lower). Where every pilot of an arm is rejected it takes the factor of least objective and is flagged.
    A pilot still far from the optimum at its end is a slow run, not a rejected one (:func:`far_from_optimum` flags it
    beside): the rule picks among what the budget reached. Returns ``({arm: factor},
    {arm: True where every pilot was rejected})``."""
    check_table("table", table, ("arm", "factor", "validation RMSE", "late validation RMSE", "objective / optimum", "start / optimum"))
    if len(table) == 0:
        raise ValueError("table must hold at least one pilot run")
    bad = diverged(table)
    chosen, all_rejected = {}, {}
    for arm, rows in table.groupby("arm", sort=False):
        rmse, ratio = rows["late validation RMSE"].to_numpy(float), rows["objective / optimum"].to_numpy(float)
        factor = rows["factor"].to_numpy(float)
        ok = ~bad[rows.index].to_numpy(bool)
        if ok.any():
            score = np.where(ok, np.nan_to_num(rmse, nan=np.inf), np.inf)
        else:
            score = np.nan_to_num(ratio, nan=np.inf)
        best = np.flatnonzero(score == score.min())
        chosen[str(arm)] = float(factor[best].min())
        all_rejected[str(arm)] = not bool(ok.any())
    return chosen, all_rejected


def diverged(table: pd.DataFrame) -> pd.Series:
    """Per pilot of ``table`` (:func:`choose_stable`'s columns), whether it diverged: its objective on the fit ratings
    ends above its own start's (``objective / optimum > start / optimum``: a descent method that ends above where it
    began has not descended), or its validation RMSE or objective is not finite."""
    check_table("table", table, ("validation RMSE", "objective / optimum", "start / optimum"))
    ratio, start = table["objective / optimum"].to_numpy(float), table["start / optimum"].to_numpy(float)
    ok = np.isfinite(table["validation RMSE"].to_numpy(float)) & np.isfinite(ratio) & (ratio <= start)
    return pd.Series(~ok, index=table.index)


def far_from_optimum(table: pd.DataFrame, far: float = FAR_OBJECTIVE) -> pd.Series:
    """Per pilot of ``table``, whether its objective ends above ``far`` times the model optimum's (a flag beside the
    choice, :data:`FAR_OBJECTIVE`; a pilot that is not finite is far)."""
    check_table("table", table, ("objective / optimum",))
    far = check_real("far", far, low=1.0, low_open=True)
    ratio = table["objective / optimum"].to_numpy(float)
    return pd.Series(~(np.isfinite(ratio) & (ratio <= far)), index=table.index)


def _grid(grid) -> dict:
    """``grid`` checked: ``{arm: [factor, ...]}``, every arm one of :data:`~.completion.METHODS`, every factor > 0."""
    if not isinstance(grid, dict) or not grid:
        raise TypeError(f"grid must be a non-empty mapping arm -> list of step factors; got {grid!r}")
    check_choices("grid's arms", list(grid), METHODS)
    for m, fs in grid.items():
        if isinstance(fs, str | bytes) or not hasattr(fs, "__iter__") or not list(fs):
            raise ValueError(f"grid[{m!r}] must be a non-empty list of step factors; got {fs!r}")
        for f_ in fs:
            check_real(f"grid[{m!r}] (an entry of)", f_, low=0.0, low_open=True)
    return grid


def pilot_runs(data: dict, eps: float, lam: float, grid: dict, *, name: str, label: str, budget, iters: int, seed: int,
               sgd_decay, M: int, N: int, svrg_inner: int, eval_every: int, optimum: float, n_jobs: int = 1,
               progress: bool = False, work=None, r=None, decays=None) -> pd.DataFrame:
    """One pilot run per arm and factor of ``grid`` (``{arm: [factor, ...]}``) on the validation split of ``data``
    (:func:`~.regime.hold_out`; the validation ratings take the test ratings' place) at ``(eps, lam)``: initial step
    ``factor / L`` (:func:`~.completion.lipschitz_step`), ``budget`` CPU seconds (None: ``iters`` steps), each its own
    stream (experiment ``"D3 tune <label> <factor>"``, seed ``seed``), as the main runs
    (:func:`~.completion.completion_calls`: ``sgd_decay``, ``M`` probes, mean degree ``N``, SVRG's epochs
    ``svrg_inner``, an evaluation every ``eval_every`` steps). Returns one row per pilot: ``dataset`` (``name``), ``arm``,
    ``factor``, its ``validation RMSE`` at its end and its ``late validation RMSE`` (:func:`late_rmse`: the mean over its last
    quarter of records, the score :func:`choose_stable` reads), its ``objective`` on the fit ratings at its end and that over ``optimum``
    (the model optimum's objective there: ``objective / optimum``), and its start's (``start / optimum``, every pilot
    starts at zero), what :func:`choose_stable` reads. With ``work`` (and
    ``r``, a stochastic gradient's cost in exact gradients at this size) the pilots run under a budget of ``work`` units
    (:func:`work_calls`) instead of ``budget`` CPU seconds, each read at ``work``. With ``decays`` (session 41: a competent
    user tunes the decay with the step) the decaying arms (SGD, SGD-DET: :data:`~.completion.DECAYING`) run one pilot per factor
    and decay of ``decays``, the others one per factor; a row's ``decay`` is its pilot's (NaN for a constant step), read by
    :func:`tuned_decays`."""
    from .completion import rmse_at
    from ..parallel import run_calls

    if not isinstance(data, dict) or not {"rows", "cols", "values", "shape", "validation"} <= set(data):
        raise TypeError("data must be a ratings dict with rows, cols, values, shape and validation (hold_out)")
    if not isinstance(name, str) or not isinstance(label, str):
        raise TypeError(f"name and label must be strings; got {name!r}, {label!r}")
    grid = _grid(grid)
    iters = check_int("iters", iters, low=1)
    optimum = check_real("optimum", optimum, low=0.0, low_open=True)
    if decays is not None:
        if isinstance(decays, str) or not hasattr(decays, "__iter__") or not list(decays):
            raise TypeError(f"decays must be a non-empty list of step decays; got {decays!r}")
        decays = [check_real("decays (an entry of)", g, low=0.0) for g in decays]
    step = lipschitz_step(lam, eps)
    val = {**data, "test": data["validation"]}
    calls = {}
    for m, fs in grid.items():
        for f_ in fs:
            for g in ([None] if decays is None or m not in DECAYING else decays):
                exp_ = f"D3 tune {label} {f_:g}" + ("" if g is None else f" decay {g:g}")
                decay = sgd_decay if g is None else g
                if work is not None:
                    calls |= {(m, f_, g): c for (_, _m, _k), c in work_calls(
                        partial(completion_problem, val, eps, lam), np.zeros(data["shape"]), work=work, r=r, methods=(m,), svrg_inner=svrg_inner,
                        M=M, N=N, name=name, experiment=exp_, seed=seed, n_seeds=1, step=f_ * step, sgd_decay=decay,
                        eval_every=eval_every).items()}
                    continue
                calls |= {(m, f_, g): c for (_, _m, _k), c in completion_calls(
                    partial(completion_problem, val, eps, lam), np.zeros(data["shape"]), name=name, experiment=exp_,
                    seed=seed, n_seeds=1, methods=(m,), step=f_ * step, sgd_decay=decay, M=M, N=N, svrg_inner=svrg_inner,
                    max_iter=iters, gd_iter=iters, max_time=budget, eval_every=eval_every).items()}
    done = run_calls(calls, n_jobs=n_jobs, progress=f"step tuning {label}" if progress else False)
    fit = completion_problem(val, eps, lam)
    start = float(fit.objective(np.zeros(data["shape"]))) / optimum
    rows = []
    for (m, f_, g), res in done.items():
        obj = float(fit.objective(res.x))
        rows.append({"dataset": name, "arm": m, "factor": f_} | ({} if decays is None else {"decay": np.nan if g is None else g})
                    | {"validation RMSE": float(res.metric[-1]) if work is None else rmse_at(res, work),
                       "late validation RMSE": late_rmse(res, work),
                       "objective": obj, "objective / optimum": obj / optimum, "start / optimum": start})
    return pd.DataFrame(rows)


def tuned_decays(table: pd.DataFrame, chosen: dict) -> dict:
    """Each decaying arm's step decay (session 41), tuned with its step: of its pilots at its ``chosen`` factor
    (:func:`tune_steps`), those that did not diverge (:func:`diverged`), the decay of least late validation RMSE
    (:func:`late_rmse`, as :func:`choose_stable` scores a step: where the run stays, not where its last record landed; a
    tie: the smaller); where all diverged, the one of least objective. ``table``: :func:`pilot_runs`'s with ``decays`` (its
    ``decay`` column). Returns ``{arm: decay}`` for the arms of ``chosen`` whose pilots carry a decay."""
    check_table("table", table, ("arm", "factor", "decay", "late validation RMSE", "objective / optimum", "start / optimum"))
    if not isinstance(chosen, dict) or not chosen:
        raise TypeError("chosen must be a non-empty mapping arm -> factor (tune_steps)")
    bad = diverged(table)
    out = {}
    for arm, f_ in chosen.items():
        rows = table[(table["arm"] == arm) & np.isclose(table["factor"].to_numpy(float), float(f_), rtol=1e-12)
                     & np.isfinite(table["decay"].to_numpy(float))]
        if rows.empty:
            continue
        ok = ~bad[rows.index].to_numpy(bool)
        score = np.where(ok, np.nan_to_num(rows["late validation RMSE"].to_numpy(float), nan=np.inf), np.inf) if ok.any() else \
            np.nan_to_num(rows["objective / optimum"].to_numpy(float), nan=np.inf)
        out[str(arm)] = float(rows["decay"].to_numpy(float)[score == score.min()].min())
    return out


def tune_steps(pilots, grid: dict, *, rounds: int, step_ratio: float, cap: float | None = None, far: float = FAR_OBJECTIVE) -> tuple:
    """Each arm's step factor tuned on the validation split: ``pilots(grid)`` runs one pilot per arm and factor of a
    grid ``{arm: [factor, ...]}`` and returns their table (:func:`pilot_runs`); each arm takes the factor of least late
    validation RMSE among its pilots that did not diverge (:func:`choose_stable`; ``far`` flags). Every factor is capped at
    ``cap`` (None: :func:`step_cap`, strictly below the stability limit ``c < 2`` of :data:`STABLE_LIMIT`). Where an arm's
    chosen factor sits at an edge of the factors it tried (:func:`~.completion.grid_edge`), its grid is extended by
    ``step_ratio`` beyond that edge (one more pilot, capped), up to ``rounds`` times; an edge left after them is flagged,
    ``"cap"`` where the chosen factor is the cap itself (no larger stable step to try).

    Decides each arm's step: bracketed (its edge None) when its best factor lies inside what it tried, else at the
    ``"low"`` or ``"high"`` edge or the ``"cap"``. Returns ``(pilots' table with columns ``rejected`` (it diverged,
    :func:`diverged`) and ``far`` (:func:`far_from_optimum`), {arm: factor}, {arm: edge or None})``."""
    check_callable("pilots", pilots)
    grid = _grid(grid)
    rounds = check_int("rounds", rounds, low=0)
    step_ratio = check_real("step_ratio", step_ratio, low=1.0, low_open=True)
    cap = step_cap() if cap is None else check_real("cap", cap, low=0.0, low_open=True, high=STABLE_LIMIT)
    if cap >= STABLE_LIMIT:
        raise ValueError(f"cap must lie strictly below the stability limit {STABLE_LIMIT:g}; got {cap}")
    far = check_real("far", far, low=1.0, low_open=True)
    tb = pilots(capped(grid, cap))
    for _ in range(rounds):
        chosen, _ = choose_stable(tb)
        edge = grid_edge(tb, chosen)
        more = {}
        for m, side in edge.items():
            nxt = chosen[m] / step_ratio if side == "low" else min(chosen[m] * step_ratio, cap) if side == "high" else None
            if nxt is not None and not np.isclose(tb.loc[tb["arm"] == m, "factor"].to_numpy(float), nxt, rtol=1e-12).any():
                more[m] = [nxt]
        if not more:
            break
        tb = pd.concat([tb, pilots(more)], ignore_index=True)
    chosen, _ = choose_stable(tb)
    edges = {m: "cap" if np.isclose(chosen[m], cap, rtol=1e-12) else e for m, e in grid_edge(tb, chosen).items()}
    return tb.assign(rejected=diverged(tb).to_numpy(), far=far_from_optimum(tb, far).to_numpy()), chosen, edges


def all_rejected(table: pd.DataFrame) -> dict:
    """``{arm: True where every pilot of that arm was rejected}`` (it diverged: :func:`choose_stable`'s flag, kept in
    :func:`tune_steps`' column ``rejected``): the arm's step is then the factor of least objective, not of least validation
    RMSE, and nothing its runs show is that of a step the rule chose (helper-278's review of D3.2)."""
    check_table("table", table, ("arm", "rejected"))
    return {str(m): bool(v) for m, v in table.groupby("arm", sort=False)["rejected"].all().items()}


def around(factors: dict, step_ratio: float, methods=METHODS, cap: float | None = None) -> dict:
    """The grid a verdict-map cell re-tunes each arm's step on: its main ``factors[arm]`` divided by ``step_ratio``,
    times one and times ``step_ratio`` (``{arm: [f / r, f, f r]}`` for every arm of ``methods``), capped at ``cap``
    (None: :func:`step_cap`; :func:`capped`)."""
    if not isinstance(factors, dict):
        raise TypeError(f"factors must be a mapping arm -> step factor; got {type(factors).__name__}")
    methods = check_choices("methods", methods, set(factors))
    step_ratio = check_real("step_ratio", step_ratio, low=1.0, low_open=True)
    return capped({m: [factors[m] / step_ratio, factors[m], factors[m] * step_ratio] for m in methods}, step_cap() if cap is None else cap)
# ----------------------------------------------------------------------------- budgets in hardware-neutral work (issue 41)

#: how far past its expected work a stochastic run's step cap lies (its degrees are drawn: the cap must not bind before the
#: work budget does); the run is read at the work budget, so the slack costs time, not fairness
WORK_SLACK = 1.1

#: mat-vecs of one spectral interval (:meth:`~inferopt.spectral.MatrixCompletion.interval`: its Lanczos ``bound_steps``, 10 by
#: default), which every drawn step (SGD, SGD-DET, an SVRG inner step and its snapshot) takes before its stochastic gradient;
#: counted in the work since session 27 (about 10 / (M N) = 7 % of a stochastic gradient at M 10, N 15)
INTERVAL_MATVECS = 10


def work_caps(work: float, r: float, *, svrg_inner: int, slack: float = WORK_SLACK) -> dict:
    """Step caps that spend ``work`` units (one unit: one exact gradient at the matrix's size) per method, with ``r`` a
    stochastic gradient's cost in exact gradients (``M`` probes at the mean degree ``N``) at that size: GD one unit a step
    (``ceil(work)`` steps, no slack: nothing is drawn), SGD and SGD-DET ``r`` a step, SVRG ``2 r`` a step (its control
    variate) plus its snapshot's exact gradient once an epoch of ``svrg_inner`` steps; the drawn methods' caps ``slack``
    times their expected steps."""
    work = check_real("work", work, low=0.0, low_open=True)
    r = check_real("r", r, low=0.0, low_open=True)
    svrg_inner = check_int("svrg_inner", svrg_inner, low=1)
    slack = check_real("slack", slack, low=1.0)
    def up(x):   # ceil, round-off aside (1.1 x 100 / 0.25 is 440.00000000000006)
        return max(1, int(np.ceil(round(x, 9))))

    return {"GD": up(work), "SGD": up(slack * work / r), "SGD-DET": up(slack * work / r),
            "SVRG": up(slack * work / (2.0 * r + 1.0 / svrg_inner))}


def work_axis(result, *, M: int, N: int, r: float, lanczos: int = INTERVAL_MATVECS) -> np.ndarray:
    """The work done by ``result`` at each of its evaluations, in exact gradients at its size: ``exact gradients +
    (mat-vecs / (M N)) r`` (:func:`~.work.cumulative_work`; ``r`` a stochastic gradient's cost, ``M`` probes, mean degree ``N``),
    the mat-vecs with ``lanczos`` for every spectral interval a drawn method takes (one a step, SVRG's snapshots one more;
    :data:`INTERVAL_MATVECS`; GD takes none)."""
    from .work import cumulative_work

    M, N = check_int("M", M, low=1), check_int("N", N, low=1)
    r = check_real("r", r, low=0.0, low_open=True)
    lanczos = check_int("lanczos", lanczos, low=0)
    exact, matvecs = cumulative_work(result, M)
    info = result.info or {}
    if "degrees" in info:
        matvecs = matvecs + lanczos * (np.arange(exact.size) + (exact if "n_inner" in info else 0.0))
    its = np.asarray(result.iterations, dtype=int)
    return exact[its] + matvecs[its] / (M * N) * r


def on_work(result, *, M: int, N: int, r: float, lanczos: int = INTERVAL_MATVECS):
    """``result`` on the work axis: its ``times`` replaced by :func:`work_axis` (every budget, target time and reading
    of D3 reads them), its CPU seconds kept beside in ``info["seconds"]``."""
    from dataclasses import replace

    w = work_axis(result, M=M, N=N, r=r, lanczos=lanczos)
    return replace(result, times=w, info={**(result.info or {}), "seconds": np.asarray(result.times, dtype=float)})


class WorkCall:
    """A run (a call of :func:`~.completion.completion_calls`) whose result comes back on the work axis (:func:`on_work`):
    picklable, for :func:`~inferopt.experiment.parallel.run_calls`."""

    def __init__(self, call, *, M: int, N: int, r: float, lanczos: int = INTERVAL_MATVECS):
        self.call, self.M, self.N, self.r, self.lanczos = check_callable("call", call), M, N, r, lanczos

    def __call__(self):
        return on_work(self.call(), M=self.M, N=self.N, r=self.r, lanczos=self.lanczos)


def work_calls(make_problem, theta0, *, work: float, r: float, methods, svrg_inner: int, M: int, N: int, **kw) -> dict:
    """:func:`~.completion.completion_calls` under a budget of ``work`` units (exact gradients at the matrix's size) for
    every method: each method's step cap from :func:`work_caps` (``r``: a stochastic gradient's cost in exact gradients
    there), no CPU-second limit, every result on the work axis (:class:`WorkCall`); a run is read at ``work``
    (:func:`~.completion.run_table`'s budget), what it did past it (its cap's slack) ignored."""
    caps = work_caps(work, r * (1.0 + INTERVAL_MATVECS / (M * N)), svrg_inner=svrg_inner)   # a drawn step with its interval
    out = {}
    for m in methods:
        out |= {k: WorkCall(c, M=M, N=N, r=r) for k, c in completion_calls(
            make_problem, theta0, methods=(m,), svrg_inner=svrg_inner, M=M, N=N, max_iter=caps[m], gd_iter=caps[m], max_time=None,
            **kw).items()}
    return out


def seconds_at(result, work: float) -> float:
    """The CPU seconds ``result`` (on the work axis, :func:`on_work`) had spent at its last evaluation at or before ``work``
    (``inf`` for ``work`` inf: a target not reached): the seconds beside the work."""
    if not np.isfinite(work):
        return float("inf")
    k = np.flatnonzero(np.asarray(result.times) <= work)
    return float(np.asarray(result.info["seconds"])[k[-1]]) if k.size else float("nan")


def budget_calls(make_problem, theta0, *, work, r: float, methods, svrg_inner: int, M: int, N: int, max_iter: int, gd_iter: int,
                 **kw) -> dict:
    """D3's runs, every result on the work axis (:class:`WorkCall`): under a budget of ``work`` units (:func:`work_calls`),
    or with ``work`` None under iteration budgets (``max_iter`` steps, GD ``gd_iter``: :func:`~.completion.completion_calls`)."""
    if work is not None:
        return work_calls(make_problem, theta0, work=work, r=r, methods=methods, svrg_inner=svrg_inner, M=M, N=N, **kw)
    return {k: WorkCall(c, M=M, N=N, r=r) for k, c in completion_calls(
        make_problem, theta0, methods=methods, svrg_inner=svrg_inner, M=M, N=N, max_iter=max_iter, gd_iter=gd_iter, max_time=None,
        **kw).items()}


def random_subset(data: dict, n_rows: int, n_cols: int, rng) -> dict:
    """``data`` (a ratings dict: ``rows, cols, values, shape, test``) restricted to ``n_rows`` rows and ``n_cols`` columns drawn
    uniformly at random without replacement (``rng``: a seed or generator from params), renumbered ``0..n-1`` in their order:
    a subsample whose density is the whole matrix's in expectation (D3.4's sizes, issue 41: the most-rated block is denser than
    the whole, so size and density moved together)."""
    from ..._random import as_generator

    if not isinstance(data, dict) or not {"rows", "cols", "values", "shape", "test"} <= set(data):
        raise TypeError("data must be a ratings dict with rows, cols, values, shape and test")
    d, r = data["shape"]
    n_rows, n_cols = check_int("n_rows", n_rows, low=1, high=d), check_int("n_cols", n_cols, low=1, high=r)
    rng = as_generator(rng)
    kr, kc = np.sort(rng.choice(d, n_rows, replace=False)), np.sort(rng.choice(r, n_cols, replace=False))
    mr, mc = np.full(d, -1), np.full(r, -1)
    mr[kr], mc[kc] = np.arange(n_rows), np.arange(n_cols)

    def sub(rows, cols, values):
        rows, cols = np.asarray(rows), np.asarray(cols)
        m = (mr[rows] >= 0) & (mc[cols] >= 0)
        return mr[rows[m]], mc[cols[m]], np.asarray(values)[m]

    rows, cols, values = sub(data["rows"], data["cols"], data["values"])
    return {"rows": rows, "cols": cols, "values": values, "shape": (n_rows, n_cols), "test": sub(*data["test"])}


def density(data: dict) -> float:
    """The share of a ratings matrix's entries that are rated (training, validation where held out, and test ratings)."""
    d, r = data["shape"]
    held = np.size(data["validation"][2]) if "validation" in data else 0
    return float((np.size(data["values"]) + held + np.size(data["test"][2])) / (d * r))


def converged_optimum(problem, theta0=None, *, tol: float, max_iter: int, rounds: int = 20):
    """The model optimum of ``problem`` (a :class:`~inferopt.spectral.MatrixCompletion`) converged to a stated tolerance
    (session 27: the regime's 120 L-BFGS-B steps left the paper-scale optimum that anchors the targets unconverged): L-BFGS-B
    (:func:`~inferopt.spectral.completion.reference_solution`) from ``theta0`` (None: θ = 0) in rounds of at most
    ``max_iter`` steps, each restarted from the last (a fresh memory), until the projected gradient's inf-norm
    (:func:`~.regime.projected_gradient`, zero exactly at the box-constrained minimiser of this convex problem) is at most
    ``tol``, or ``rounds`` rounds ran, or a round made no progress. Returns ``(θ, info)``, ``info`` with ``"projected
    gradient"``, ``"tolerance"``, ``"met"`` (whether it is within ``tol``), ``"iterations"`` (all rounds'), ``"rounds"`` and
    ``"objective"``."""
    from ...spectral import MatrixCompletion
    from ...spectral.completion import reference_solution
    from .regime import projected_gradient

    if not isinstance(problem, MatrixCompletion):
        raise TypeError(f"problem must be a MatrixCompletion; got {type(problem).__name__}")
    tol = check_real("tol", tol, low=0.0, low_open=True)
    max_iter = check_int("max_iter", max_iter, low=1)
    rounds = check_int("rounds", rounds, low=1)
    theta = np.zeros(problem.shape) if theta0 is None else problem.project(np.asarray(theta0, dtype=float))
    if theta.shape != problem.shape:
        raise ValueError(f"theta0 must have the problem's shape {problem.shape}; got {theta.shape}")
    pg, total, done = projected_gradient(problem, theta), 0, 0
    while pg > tol and done < rounds:
        theta_new, info = reference_solution(problem, max_iter=max_iter, gtol=tol / 10.0, theta0=theta)
        pg_new = projected_gradient(problem, theta_new)
        done += 1
        total += int(info["n_iter"])
        if int(info["n_iter"]) == 0:   # no step taken: no progress left to this solver
            break
        theta, pg = theta_new, pg_new
    return theta, {"projected gradient": float(pg), "tolerance": tol, "met": bool(pg <= tol), "iterations": total, "rounds": done,
                   "objective": float(problem.objective(theta))}
