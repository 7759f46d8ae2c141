"""The deciding code of the matrix-completion claims (D3, Fig. 2(a)-(b); D4, Fig. 2(c)-(d)), on the paper's axis:
the test RMSE.

Every randomised arm runs over several independent seeds; the claims are functions of a tidy table with one row
per run (:func:`run_table`: ``dataset, method, seed``, the time to each RMSE target, the RMSE at the end of the
common budget, the RMSE averaged over the run), so that their support is the bootstrap over seeds
(:func:`~inferopt.experiment.support.bootstrap_support` with ``by="seed"``). A deterministic method (GD) has one
run, repeated in the table under every seed so that every resample holds it.

Targets (:func:`rmse_target`) are anchored to the paper's: RMSE 1.5 on MovieLens 1M is 85 % of the way from the
RMSE of θ = 0 (the runs' start, ≈ 3.75 there) to that of the training mean (≈ 1.117), and RMSE 1.8 on 10M is 72 %
(start ≈ 3.67, mean ≈ 1.06). A time to a target that a run never reaches within its budget is censored: ``inf``.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..._validation import as_finite_array, check_choice, check_choices, check_int, check_protocol, check_real, check_table
from ..claims import check_statistic
from ..timing import MetricOnly
from .streams import run_stream
from .targets import stays_below

#: the optimisers of Fig. 2(a)-(b); GD is deterministic (one run), the others run over seeds
METHODS = ("GD", "SGD", "SVRG", "SGD-DET")

#: MovieLens 1M, the paper's smaller set: (items, users, ratings); and MovieLens 100K's (items, users), our stand-in
ML_1M = (3706, 6040, 1000209)
ML_100K = (1682, 943)

#: the paper's targets as shares of the way from the start RMSE to the training mean's (see the module docstring)
PAPER_SHARES = {"MovieLens 1M (RMSE 1.5)": 0.85, "MovieLens 10M (RMSE 1.8)": 0.72}


def completion_problem(data: dict, eps: float, lam: float, rng=None):
    """The problem of Sec. 5.1 on the training ratings of ``data`` (``rows, cols, values, shape, test``), the test
    ratings held out for the metric; ``rng`` seeds its spectral bounds. The box is ``[0, 5]`` (the paper's) unless
    ``data`` carries ``low`` and ``high`` (:func:`centred_ratings`)."""
    from ...spectral import MatrixCompletion

    return MatrixCompletion(data["rows"], data["cols"], data["values"], data["shape"], lam=lam, eps=eps,
                            low=data.get("low", 0.0), high=data.get("high", 5.0), test=data["test"], rng=rng)


def centred_ratings(data: dict) -> dict:
    """``data`` with every rating (training, ``test``, ``validation``) less the training mean ``μ`` and the box
    ``[-μ, 5 - μ]``: the model of Sec. 5.1 on the ratings' deviations from their mean (its ``θ = 0`` is the
    training-mean predictor; RMSEs are unchanged by the shift). The smoothed nuclear norm then acts on the
    deviations, whose spectrum is far narrower than the ratings' (whose top singular value is the mean's)."""
    if not isinstance(data, dict) or not {"rows", "cols", "values", "shape", "test"} <= set(data):
        raise TypeError("data must be a ratings dict with rows, cols, values, shape and test")
    mu = float(as_finite_array("data['values']", data["values"], ndim=1, nonempty=True).mean())
    out = {**data, "values": data["values"] - mu, "test": (*data["test"][:2], data["test"][2] - mu),
           "low": -mu, "high": 5.0 - mu, "mean": mu}
    if "validation" in data:
        out["validation"] = (*data["validation"][:2], data["validation"][2] - mu)
    return out


def share_key(share: float) -> str:
    """The name of the target at ``share`` in the tables (``"0.85"``)."""
    return f"{check_real('share', share, low=0.0, low_open=True):g}"


def lipschitz_step(lam: float, eps: float) -> float:
    """The constant step ``1 / L`` with ``L = 2λ + 1/√ε``, a bound of the Lipschitz constant of the objective's
    gradient (data term: ``2λ`` on the observed entries; ``tr((θθᵀ + εI)^{1/2})``: its Hessian is at most
    ``ε^{-1/2}``): the step of GD and SVRG, and SGD's initial one, as a practitioner sets it without tuning."""
    lam = check_real("lam", lam, low=0.0, low_open=True)
    eps = check_real("eps", eps, low=0.0, low_open=True)
    return 1.0 / (2.0 * lam + 1.0 / np.sqrt(eps))


def completion_calls(make_problem, theta0, *, name: str, experiment: str, seed: int, n_seeds: int, methods=METHODS,
                     step, sgd_decay, M: int, N: int, svrg_inner: int,
                     max_iter: int, gd_iter: int | None = None, max_time=None, eval_every: int = 1) -> dict:
    """The runs of Fig. 2(a)-(b) on one dataset as calls ``{(name, method, seed index or None): call}``.

    ``make_problem(rng)`` builds the problem with ``rng`` for its spectral bounds (each run gets its own);
    every randomised run draws from its own stream (:func:`~.streams.run_stream` of ``seed``, ``experiment``,
    ``name``, the method and its index), GD (deterministic) runs once, every step of it recorded (``eval_every``
    applies to the others). The evaluations trace the test RMSE only
    (:class:`~inferopt.experiment.timing.MetricOnly`; the objective is computed at the end). ``step``: the initial
    step of every method, or a mapping ``{method: step}`` (each arm's own, e.g. tuned on validation by
    :func:`choose_steps`); GD and SVRG take it constant, SGD and SGD-DET ``step / (1 + sgd_decay t)`` (``sgd_decay`` one for
    both or a mapping ``{method: decay}`` with an entry for each of them run: each arm's own, tuned with its step since
    session 41, :func:`~.completion_steps.tuned_decays`); SGD-DET uses
    degree ``N``. Budget: ``max_time`` CPU seconds for every method (None: iteration budgets, ``max_iter``
    steps, GD ``gd_iter``), SVRG's epochs ``svrg_inner`` steps long."""
    from ...spectral import gd, inverse_time_step, sgd, sgd_det, svrg

    n_seeds = check_int("n_seeds", n_seeds, low=1)
    max_iter = check_int("max_iter", max_iter, low=1)
    gd_iter = max_iter if gd_iter is None else check_int("gd_iter", gd_iter, low=1)
    svrg_inner = check_int("svrg_inner", svrg_inner, low=1)
    for m in methods:
        check_choice("methods (an entry of)", m, METHODS)
    steps = _steps_of(step, methods)
    decays = _decays_of(sgd_decay, methods)
    budget = dict(max_time=max_time, eval_every=eval_every)
    calls = {}
    for method in methods:
        for k in ([None] if method == "GD" else range(n_seeds)):
            labels = (experiment, name, method) if k is None else (experiment, name, method, k)
            problem_rng, run_rng = run_stream(seed, *labels).spawn(2)
            problem = MetricOnly(make_problem(problem_rng))
            if method == "GD":   # every GD step recorded: at the paper's size one takes 15 s, a coarser trace reads
                call = partial(gd, problem, theta0, max_iter=gd_iter, step=steps[method], max_time=max_time, eval_every=1)   # it late
            elif method == "SGD":
                call = partial(sgd, problem, theta0, max_iter=max_iter, step=inverse_time_step(steps[method], decays[method]), M=M,
                               N=N, rng=run_rng, **budget)
            elif method == "SGD-DET":
                call = partial(sgd_det, problem, theta0, degree=N, max_iter=max_iter,
                               step=inverse_time_step(steps[method], decays[method]), M=M, rng=run_rng, **budget)
            else:
                call = partial(svrg, problem, theta0, n_outer=-(-max_iter // svrg_inner), n_inner=svrg_inner, step=steps[method],
                               M=M, N=N, rng=run_rng, max_iter=max_iter, **budget)
            calls[name, method, k] = call
    return calls


#: the arms whose step decays (``eta_0 / (1 + sgd_decay t)``): the others keep a constant step
DECAYING = ("SGD", "SGD-DET")


def _decays_of(sgd_decay, methods) -> dict:
    """``{method: sgd_decay}`` for the decaying arms of ``methods`` (:data:`DECAYING`) from one decay for all or a mapping
    with an entry for each of them."""
    drawn = [m for m in methods if m in DECAYING]
    if isinstance(sgd_decay, dict):
        if drawn:
            check_choices("sgd_decay's methods", drawn, set(sgd_decay))
        return {m: check_real(f"sgd_decay[{m!r}]", sgd_decay[m], low=0.0) for m in drawn}
    sgd_decay = check_real("sgd_decay", sgd_decay, low=0.0)
    return {m: sgd_decay for m in drawn}


def _steps_of(step, methods) -> dict:
    """``{method: initial step}`` from one step for all or a mapping with an entry for every method."""
    if isinstance(step, dict):
        check_choices("step's methods", list(methods), set(step))
        return {m: check_real(f"step[{m!r}]", step[m], low=0.0, low_open=True) for m in methods}
    step = check_real("step", step, low=0.0, low_open=True)
    return {m: step for m in methods}


def rmse_target(start: float, mean_rmse: float, share: float) -> float:
    """``start - share (start - mean_rmse)``: ``share`` of the way from the RMSE of the start to the training mean's."""
    start = check_real("start", start)
    mean_rmse = check_real("mean_rmse", mean_rmse, low=0.0)
    share = check_real("share", share, low=0.0, low_open=True, high=1.5)
    if not mean_rmse < start:
        raise ValueError(f"the start RMSE {start} must be above the training mean's {mean_rmse}")
    return start - share * (start - mean_rmse)


def rmse_at(result, seconds: float) -> float:
    """The test RMSE of ``result`` (a :class:`~inferopt.spectral.SpectralSolveResult`) at ``seconds`` of its
    optimisation: its last evaluation at or before then."""
    check_protocol("result", result, "metric", "times", what="a SpectralSolveResult")
    seconds = check_real("seconds", seconds, low=0.0)
    k = np.flatnonzero(np.asarray(result.times) <= seconds)
    return float(np.asarray(result.metric)[k[-1]]) if k.size else float("nan")


def run_table(results: dict, targets: dict, budget: dict, M: int | None = None, *, stay: bool = False) -> pd.DataFrame:
    """One row per run: ``results`` maps ``(dataset, method, seed)`` to a result (``seed`` None: a deterministic run,
    repeated under every seed of its dataset); ``targets`` ``{dataset: {reading: target RMSE}}``; ``budget``
    ``{dataset: seconds or None}``, the common time budget (None: each run read to its end, as under equal
    iteration budgets). Columns: ``dataset, method, seed``, ``time to <reading>`` (``inf``: not reached within the
    budget), ``final RMSE`` (at the budget), ``mean RMSE`` (the evaluations' mean over the budget: the area under
    the curve), ``half-time RMSE`` (at half the budget; under iteration budgets, at half the run's steps), ``iterations``,
    ``total time``. With ``M`` (the probes per stochastic gradient) the hardware-neutral
    work beside the seconds (:mod:`.work`): ``exact gradients`` and ``mat-vecs`` within the budget, the same ``to
    <reading>`` (``inf``: not reached) and ``zero-degree share`` (of the run's drawn degrees; NaN for GD). ``stay``:
    a time to a target is the first time after which the run stays at or below it through the budget
    (:func:`~.targets.stays_below`; a dip that rises again is not reached), else its first evaluation at or below it."""
    if not isinstance(results, dict) or not results:
        raise ValueError("results must be a non-empty mapping (dataset, method, seed) -> result")
    seeds = {}
    for (name, _, seed) in results:
        if seed is not None:
            seeds.setdefault(name, set()).add(seed)
    rows = []
    for (name, method, seed), res in results.items():
        limit = budget.get(name)
        limit = np.inf if limit is None else check_real(f"budget[{name!r}]", limit, low=0.0, low_open=True)
        times = np.asarray(res.times)
        within = times <= limit
        row = {"dataset": name, "method": method, "final RMSE": rmse_at(res, limit) if np.isfinite(limit) else float(res.metric[-1]),
               "mean RMSE": float(np.mean(np.asarray(res.metric)[within])), "iterations": int(np.asarray(res.iterations)[within][-1]),
               "total time": float(times[within][-1])}
        its = np.asarray(res.iterations)
        row["half-time RMSE"] = rmse_at(res, limit / 2.0) if np.isfinite(limit) else \
            float(np.asarray(res.metric)[np.flatnonzero(its <= its[-1] / 2.0)[-1]])
        hits = {reading: _hit(res, target, limit, stay) for reading, target in targets[name].items()}
        for reading, k in hits.items():
            row[f"time to {reading}"] = np.inf if k is None else float(times[k])
        if M is not None:
            row |= _work_columns(res, M, row["iterations"], hits)
        for s in (sorted(seeds.get(name, {0})) if seed is None else [seed]):
            rows.append({"seed": s, **row})
    return pd.DataFrame(rows)


def _hit(res, target: float, limit: float, stay: bool):
    """The index of the evaluation at which ``res`` reaches ``target`` within ``limit`` seconds (None: not reached):
    from which it stays at or below it (``stay``), else its first at or below it."""
    metric, times = np.asarray(res.metric, dtype=float), np.asarray(res.times, dtype=float)
    if stay:
        return stays_below(metric, target, times, limit)
    hit = np.flatnonzero((metric <= target) & (times <= limit))
    return int(hit[0]) if hit.size else None


def _work_columns(res, M: int, iterations: int, hits: dict) -> dict:
    """The work columns of :func:`run_table` for one run: ``hits`` ``{reading: evaluation index or None}``."""
    from .work import work_at, zero_degree_draws

    out = dict(zip(("exact gradients", "mat-vecs"), work_at(res, M, iterations)))
    its = np.asarray(res.iterations)
    for reading, k in hits.items():
        exact, matvecs = work_at(res, M, None if k is None else int(its[k]))
        out[f"exact gradients to {reading}"], out[f"mat-vecs to {reading}"] = exact, matvecs
    return out | {"zero-degree share": zero_degree_draws(res)}


def horizon(table: pd.DataFrame, name: str) -> float:
    """The longest run's time on ``name``: what a censored time is censored at under iteration budgets."""
    return float(table.loc[table.dataset == name, "total time"].max())


def _runs(table, *columns) -> pd.DataFrame:
    """A table of runs (:func:`run_table`) with ``columns``."""
    return check_table("table", table, ("dataset", "method", "seed", *columns))


def _reading(table, reading) -> str:
    """``reading`` names a target of ``table`` (its column ``time to <reading>``)."""
    readings_ = [c[len("time to "):] for c in table.columns if str(c).startswith("time to ")]
    return check_choice("reading", reading, readings_)


def _member(param: str, value, table, column: str) -> str:
    """``value`` is one of the entries of ``table[column]`` (a dataset or a method of the runs)."""
    return check_choice(param, value, {str(v) for v in pd.unique(table[column])})


def _budgets(budget) -> dict:
    if not isinstance(budget, dict):
        raise TypeError(f"budget must be a mapping dataset -> seconds or None; got {type(budget).__name__}")
    return budget


def _median(table, name, method, column) -> float:
    v = table.loc[(table.dataset == name) & (table.method == method), column]
    if v.empty:
        raise ValueError(f"the table has no run of {method} on {name}")
    return float(np.median(v))


def censored_ratio(slow: float, fast: float, budget: float) -> tuple[float, str]:
    """``slow / fast`` of two times to a target with ``inf`` for "not reached within ``budget``": the ratio
    (``"exact"``), a lower bound ``budget / fast`` when only the slow one never reached it (``"at least"``), ``0``
    when only the fast one never did (``"exact"``: it is not faster), NaN when neither did (``"neither"``)."""
    budget = check_real("budget", budget, low=0.0, low_open=True)
    slow = check_real("slow", slow, low=0.0) if not (isinstance(slow, float) and slow == np.inf) else np.inf
    fast = check_real("fast", fast, low=0.0) if not (isinstance(fast, float) and fast == np.inf) else np.inf
    if np.isinf(slow) and np.isinf(fast):
        return float("nan"), "neither"
    if np.isinf(fast):
        return 0.0, "exact"
    if np.isinf(slow):
        return budget / fast, "at least"
    return slow / fast, "exact"


def sgd_det_gap(table: pd.DataFrame, name: str) -> float:
    """D3.1's statistic on ``name``: SGD-DET's median final RMSE minus the larger of SGD's and SVRG's (> 0: SGD-DET
    ends worst of the stochastic methods)."""
    _member("name", name, _runs(table, "final RMSE"), "dataset")
    return _median(table, name, "SGD-DET", "final RMSE") - max(_median(table, name, m, "final RMSE") for m in ("SGD", "SVRG"))


def _spread(table, name, method, column="final RMSE") -> float:
    """The range (largest minus least) of ``column`` over the seeds of ``method`` on ``name``."""
    v = table.loc[(table.dataset == name) & (table.method == method), column].to_numpy(float)
    if v.size == 0:
        raise ValueError(f"the table has no run of {method} on {name}")
    return float(v.max() - v.min())


def d31_reading(table: pd.DataFrame, name: str, margin: float = 1.0) -> dict:
    """D3.1 ("SGD-DET performs badly due to its biased gradient estimators") on ``name`` at equal time, against the
    seed-to-seed spread: for each unbiased stochastic arm ``m`` (SGD, SVRG) the gap ``median final RMSE(SGD-DET) -
    median final RMSE(m)`` at the end of the common budget and the spread, the larger of the two arms' ranges of final
    test RMSE over their seeds. ``outcome``: True when every gap exceeds ``margin`` times its spread (SGD-DET ends
    behind both by more than their seeds differ), False when SGD-DET ends ahead of one by more than that, None when a
    gap lies within it (the seeds cannot tell). Returns ``{"outcome", "gap <m>", "spread <m>"}``."""
    _member("name", name, _runs(table, "final RMSE"), "dataset")
    margin = check_real("margin", margin, low=0.0)
    out, above, below = {}, [], []
    for m in ("SGD", "SVRG"):
        gap = _median(table, name, "SGD-DET", "final RMSE") - _median(table, name, m, "final RMSE")
        spread = max(_spread(table, name, "SGD-DET"), _spread(table, name, m))
        out |= {f"gap {m}": gap, f"spread {m}": spread}
        above.append(gap > margin * spread)
        below.append(gap < -margin * spread)
    return {"outcome": False if any(below) else True if all(above) else None} | out


def d31_test(table: pd.DataFrame, margin: float = 1.0):
    """D3.1 on every dataset of ``table`` (:func:`d31_reading`, combined by :func:`all_of`): True when SGD-DET ends the
    common budget behind SGD and SVRG by more than ``margin`` times the seed-to-seed spread everywhere, False when it
    ends ahead of one of them by more than that somewhere, None (undecided: within the seeds' spread) otherwise."""
    _runs(table, "final RMSE")
    return all_of(d31_reading(table, n, margin)["outcome"] for n in pd.unique(table.dataset))


def late_progress(table: pd.DataFrame, name: str, start: float, optimum: float) -> dict:
    """Where a biased estimator shows (D3.1's mechanism): per method on ``name``, the median share of the way from the
    ``start``'s test RMSE to the model ``optimum``'s that its runs make in the second half of the budget
    (``(half-time RMSE - final RMSE) / (start - optimum)``): near zero for a run that has levelled off (a biased
    method at its biased fixed point), positive for one that still improves."""
    _member("name", name, _runs(table, "final RMSE", "half-time RMSE"), "dataset")
    start, optimum = check_real("start", start), check_real("optimum", optimum, low=0.0)
    if not optimum < start:
        raise ValueError(f"the optimum's RMSE {optimum} must be below the start's {start}: the way has no length")
    rows = table[table.dataset == name]
    made = (rows["half-time RMSE"] - rows["final RMSE"]) / (start - optimum)
    return {str(m): float(v) for m, v in made.groupby(rows["method"]).median().items()}


def ahead(table: pd.DataFrame, name: str, fast: str, slow: str, reading: str):
    """Is ``fast`` ahead of ``slow`` on ``name``: its median time to the target ``reading`` is smaller (``inf``: not
    reached within the budget). None (not measured) when neither reaches it (:func:`ahead_on` then reads them at
    equal time) and when both reach it at the same time."""
    t_fast = _median(table, name, fast, f"time to {reading}")
    t_slow = _median(table, name, slow, f"time to {reading}")
    if (np.isinf(t_fast) and np.isinf(t_slow)) or t_fast == t_slow:
        return None
    return bool(t_fast < t_slow)


#: how a comparison of two methods is read: their times to the target, or their test RMSE at the common budget
BASES = ("time to target", "equal time")


def pair_basis(table: pd.DataFrame, name: str, fast: str, slow: str, reading: str) -> str:
    """How ``fast`` and ``slow`` are compared on ``name``: ``"time to target"`` when the median run of at least one of
    them reaches the target ``reading`` within the budget, else ``"equal time"`` (their median test RMSE at the end of
    the common budget, the paper's axis at the one time both have)."""
    _reading(_runs(table, "final RMSE"), reading)
    _member("name", name, table, "dataset")
    _member("fast", fast, table, "method")
    _member("slow", slow, table, "method")
    reached = any(np.isfinite(_median(table, name, m, f"time to {reading}")) for m in (fast, slow))
    return BASES[0] if reached else BASES[1]


def comparison_bases(table: pd.DataFrame, reading: str, pairs) -> dict:
    """``{(dataset, fast, slow): basis}`` (:func:`pair_basis`) for every dataset of ``table`` and every pair of
    ``pairs`` (``[(fast, slow), ...]``): fixed on the measured table, so that a bootstrap resample reads each
    comparison as the measured table does."""
    _reading(_runs(table, "final RMSE"), reading)
    if isinstance(pairs, str) or not isinstance(pairs, list | tuple) or not pairs or any(not isinstance(p, tuple | list) or len(p) != 2 for p in pairs):
        raise ValueError(f"pairs must be a non-empty list of (fast, slow) methods; got {pairs!r}")
    for fast, slow in pairs:
        _member("pairs (a method of)", fast, table, "method")
        _member("pairs (a method of)", slow, table, "method")
    return {(n, f, s): pair_basis(table, n, f, s, reading) for n in pd.unique(table.dataset) for f, s in pairs}


def ahead_on(table: pd.DataFrame, name: str, fast: str, slow: str, reading: str, basis: str):
    """Is ``fast`` ahead of ``slow`` on ``name`` read on ``basis`` (:data:`BASES`): by the time to the target
    (:func:`ahead`), or at equal time, its median test RMSE at the end of the common budget is lower (None on a
    tie)."""
    check_choice("basis", basis, BASES)
    _reading(_runs(table, "final RMSE"), reading)
    _member("name", name, table, "dataset")
    _member("fast", fast, table, "method")
    _member("slow", slow, table, "method")
    if basis == BASES[0]:
        return ahead(table, name, fast, slow, reading)
    f_, s_ = _median(table, name, fast, "final RMSE"), _median(table, name, slow, "final RMSE")
    return None if f_ == s_ else bool(f_ < s_)


def _bases(table, reading, pairs, bases) -> dict:
    """``bases`` checked, or :func:`comparison_bases` of ``table`` when None."""
    if bases is None:
        return comparison_bases(table, reading, pairs)
    if not isinstance(bases, dict):
        raise TypeError(f"bases must be a mapping (dataset, fast, slow) -> basis (comparison_bases); got {type(bases).__name__}")
    for n in pd.unique(table.dataset):
        for f, s in pairs:
            check_choice(f"bases[{(n, f, s)!r}]", bases.get((n, f, s)), BASES)
    return bases


#: D3.2's comparison and D3.3's
D32_PAIRS = [("SGD", "GD")]
D33_PAIRS = [("SVRG", "GD"), ("SVRG", "SGD")]


def all_of(outcomes):
    """The three-valued conjunction of ``outcomes`` (True, False or None: not measured): False if any is False, else
    None if any is None, else True."""
    if isinstance(outcomes, (str, bytes, dict)) or not hasattr(outcomes, "__iter__"):
        raise TypeError(f"outcomes must be an iterable of True, False or None; got {type(outcomes).__name__}")
    outcomes = [bool(o) if isinstance(o, np.bool_) else o for o in outcomes]
    if any(o is not None and not isinstance(o, bool) for o in outcomes):
        raise TypeError("outcomes must hold only True, False or None (not measured)")
    if any(o is False for o in outcomes):
        return False
    return None if any(o is None for o in outcomes) else True


def d32_test(table: pd.DataFrame, reading: str, bases: dict | None = None):
    """D3.2 ("SGD converges much faster and outperforms GD"): SGD ahead of GD on every dataset (:func:`ahead_on`), by
    the time to the target ``reading`` where one of them reaches it, else at equal time (``bases``: fixed readings,
    :func:`comparison_bases`; default those of ``table``); None on a tie (:func:`all_of` over the datasets)."""
    _reading(_runs(table, "final RMSE"), reading)
    bases = _bases(table, reading, D32_PAIRS, bases)
    return all_of(ahead_on(table, n, "SGD", "GD", reading, bases[n, "SGD", "GD"]) for n in pd.unique(table.dataset))


def deepest_reached(table: pd.DataFrame, name: str, readings_: list):
    """The first of ``readings_`` (targets, deepest first: e.g. the paper's 0.85 for 1M, then its 0.72 for 10M) that
    some method of ``table`` reaches on ``name`` (its median time to it finite); None if none is reached. A claim
    judged on what is reached: a target no method reaches within the budget ranks nothing."""
    _runs(table)
    _member("name", name, table, "dataset")
    if isinstance(readings_, str) or not list(readings_):
        raise ValueError(f"readings_ must be a non-empty list of readings; got {readings_!r}")
    known = [c[len("time to "):] for c in table.columns if str(c).startswith("time to ")]
    check_choices("readings_", list(readings_), known)
    for reading in readings_:
        if any(np.isfinite(_median(table, name, m, f"time to {reading}")) for m in pd.unique(table.method)):
            return reading
    return None


def speedup(table: pd.DataFrame, name: str, reading: str, budget: float, fast: str = "SVRG", slow: str = "GD"):
    """:func:`censored_ratio` of the median times of ``slow`` and ``fast`` to the target ``reading`` on ``name``."""
    _runs(table)
    _member("name", name, table, "dataset")
    _reading(table, reading)
    _member("fast", fast, table, "method")
    _member("slow", slow, table, "method")
    return censored_ratio(_median(table, name, slow, f"time to {reading}"), _median(table, name, fast, f"time to {reading}"),
                          budget)


def factor_reached(ratio: float, kind: str, factor: float):
    """Does a :func:`censored_ratio` reach ``factor``: an exact ratio decides; a lower bound (``"at least"``) decides
    only when it reaches the factor (below it: None, undecided); ``"neither"`` (with its NaN ratio): None."""
    check_choice("kind", kind, ("exact", "at least", "neither"))
    factor = check_real("factor", factor, low=0.0, low_open=True)
    if kind == "neither":        # no ratio: neither run reached the target (censored_ratio's NaN)
        if not (isinstance(ratio, float | np.floating) and np.isnan(ratio)):
            raise ValueError(f"ratio must be NaN with kind 'neither' (censored_ratio's no-ratio case); got {ratio!r}")
        return None
    ratio = check_real("ratio", ratio, low=0.0)
    if ratio >= factor:
        return True
    return False if kind == "exact" else None


def d33_test(table: pd.DataFrame, reading: str, budget: dict, factor: float = 1.5, bases: dict | None = None):
    """D3.3 ("SVRG is the fastest one, e.g., compared to GD, about 2 times faster"): on every dataset SVRG is ahead of
    GD and SGD (:func:`ahead_on`: by the time to the target ``reading`` where one of the two reaches it, else at equal
    time; ``bases`` as :func:`d32_test`), and where SVRG and GD are compared by their times, SVRG reaches the target at
    least ``factor`` times sooner than GD (:func:`factor_reached`; at equal time only the order is read). None (not
    measured) where a comparison cannot be decided: a tie, or a censored ratio that is a lower bound below the factor
    (:func:`all_of`)."""
    factor = check_real("factor", factor, low=1.0)
    _reading(_runs(table, "final RMSE", "total time"), reading)
    _budgets(budget)
    bases = _bases(table, reading, D33_PAIRS, bases)
    out = []
    for n in pd.unique(table.dataset):
        out += [ahead_on(table, n, "SVRG", m, reading, bases[n, "SVRG", m]) for m in ("GD", "SGD")]
        if bases[n, "SVRG", "GD"] == BASES[0]:
            out.append(factor_reached(*speedup(table, n, reading, budget.get(n) or horizon(table, n)), factor))
    return all_of(out)


def _both_reach(table, name, reading) -> bool:
    """Do the median runs of GD and SVRG on ``name`` both reach the target ``reading`` within the budget."""
    return all(np.isfinite(_median(table, name, m, f"time to {reading}")) for m in ("GD", "SVRG"))


def d34_test(table: pd.DataFrame, reading: str, small: str, large: str):
    """D3.4 ("the gap between SVRG and GD is expected to increase for larger datasets"): the GD / SVRG ratio of the
    median times to the target ``reading`` is larger on ``large`` than on ``small``. Measured only where both ratios are
    exact (GD and SVRG both reach the target on both sizes, within each size's budget), so that no budget decides it:
    None otherwise."""
    _reading(_runs(table, "total time"), reading)
    _member("small", small, table, "dataset")
    _member("large", large, table, "dataset")
    if not (_both_reach(table, small, reading) and _both_reach(table, large, reading)):
        return None
    ratio = {n: _median(table, n, "GD", f"time to {reading}") / _median(table, n, "SVRG", f"time to {reading}")
             for n in (small, large)}
    return bool(ratio[large] > ratio[small])


def d34_growth(table: pd.DataFrame, reading: str, sizes: list) -> tuple:
    """D3.4 as the paper states it ("the gap between SVRG and GD is expected to increase for larger datasets"): the
    direction of SVRG's speed-up over GD with the size, the GD / SVRG ratio of the median times to the target
    ``reading`` larger on the larger of every pair of ``sizes`` (smaller first; :func:`d34_test`) at both of which GD
    and SVRG both reach the target (exact ratios: no budget decides them). SVRG need not be ahead of GD at either size:
    a ratio below 1 that grows with the size is a gap moving in SVRG's favour, one that shrinks moves against it.
    Returns ``(outcome, reason)``: ``(None, reason)`` naming the sizes where GD and SVRG do not both reach the target
    when fewer than two sizes remain; else the outcomes of those pairs combined (:func:`all_of`) and no reason."""
    _reading(_runs(table, "total time"), reading)
    if not isinstance(sizes, (list, tuple)) or len(sizes) < 2:
        raise ValueError(f"sizes must list at least two datasets, smaller first; got {sizes!r}")
    for n in sizes:
        _member("sizes", n, table, "dataset")
    reached = [n for n in sizes if _both_reach(table, n, reading)]
    if len(reached) < 2:
        short = [n for n in sizes if n not in reached]
        return None, (f"GD and SVRG do not both reach the target within the size's budget at {', '.join(short)}: no exact "
                      f"speed-up there, and {'one size' if reached else 'no size'} left to compare")
    pairs = [(a, b) for i, a in enumerate(reached) for b in reached[i + 1:]]
    return all_of([d34_test(table, reading, small=a, large=b) for a, b in pairs]), None


def d35_test(exponents: dict, bounds: dict, cut: float) -> bool:
    """D3.5 (a stochastic gradient costs ``O(dM(N² + Nr))``): every measured growth exponent ``exponents[k]`` (of the
    counted work, multiply-adds, against ``k``, :func:`~.theory.cost_exponent`) is at most its order ``bounds[k]``
    plus ``cut`` (an upper bound, as ``O(·)`` is)."""
    if not isinstance(exponents, dict) or not isinstance(bounds, dict) or not bounds:
        raise TypeError("exponents and bounds must be mappings variable -> exponent, bounds non-empty")
    check_choices("bounds' variables", list(bounds), set(exponents))
    cut = check_real("cut", cut, low=0.0)
    return bool(all(check_statistic(f"exponent in {k}", exponents[k]) <= check_real(f"bounds[{k!r}]", b) + cut
                    for k, b in bounds.items()))


# ----------------------------------------------------------------------------- D4 (Fig. 2(c)-(d))


def choose_steps(table: pd.DataFrame) -> dict:
    """The step of every arm tuned on the validation split, one rule for all: ``table`` has one row per pilot run
    (columns ``arm, factor, validation RMSE``: the validation RMSE at the end of the pilot with initial step
    ``factor / L``); each arm takes the factor of least validation RMSE (a tie: the smaller factor, the safer step).
    Returns ``{arm: factor}``."""
    check_table("table", table, ("arm", "factor", "validation RMSE"))
    if len(table) == 0:
        raise ValueError("table must hold at least one pilot run")
    out = {}
    for arm, rows in table.groupby("arm", sort=False):
        rmse = as_finite_array(f"validation RMSE of {arm}", rows["validation RMSE"].to_numpy(float), ndim=1)
        factor = rows["factor"].to_numpy(float)
        best = np.flatnonzero(rmse == rmse.min())
        out[str(arm)] = float(factor[best].min())
    return out


def choose_panel_steps(table: pd.DataFrame, panels: dict) -> dict:
    """One step factor per panel, tuned on the validation split, so that a panel compares its arms, not their steps:
    ``table`` has one row per pilot run (columns ``arm, factor, validation RMSE``, as :func:`choose_steps`);
    ``panels`` maps a panel to its arms. Every arm of a panel takes the factor of least mean validation RMSE over
    the panel's arms (a tie: the smaller factor); an arm's non-finite pilot (a diverged run) makes that factor
    the worst. Returns ``{arm: factor}``."""
    check_table("table", table, ("arm", "factor", "validation RMSE"))
    if not isinstance(panels, dict) or not panels:
        raise TypeError("panels must be a non-empty mapping panel -> list of arms")
    out = {}
    for panel, arms in panels.items():
        arms = check_choices(f"panels[{panel!r}]", arms, {str(a) for a in table["arm"]})
        rows = table[table["arm"].isin(arms)]
        score = rows.assign(v=np.nan_to_num(rows["validation RMSE"].to_numpy(float), nan=np.inf, posinf=np.inf)
                            ).pivot_table(index="factor", columns="arm", values="v", aggfunc="mean")
        if score.shape[1] != len(set(arms)) or score.isna().any().any():
            raise ValueError(f"panel {panel!r}: every arm needs a pilot at every factor tried")
        mean = score.mean(axis=1)
        if not np.isfinite(mean.min()):
            raise ValueError(f"panel {panel!r}: every factor diverged on some arm")
        best = float(mean.index[mean.to_numpy() == mean.min()].min())
        out |= {str(a): best for a in arms}
    return out


def convergence_gate(table: pd.DataFrame, start: float, optimum: float, arms, share: float = 0.5) -> dict:
    """Whether the runs of ``arms`` in ``table`` (:func:`run_table`) got somewhere: a run passes if its final test
    RMSE is at least ``share`` of the way from the ``start``'s RMSE to the model's ``optimum``
    (``final <= start - share (start - optimum)``). Returns ``{"passed": every arm's median run passes (at least
    half its seeds), "made": {arm: the share of the way its median run made}, "reason": None or why not}``: a panel
    that does not pass is not measured, never decided on runs that are still at the start."""
    _runs(table, "final RMSE")
    start, optimum = check_real("start", start), check_real("optimum", optimum, low=0.0)
    share = check_real("share", share, low=0.0, low_open=True, high=1.0)
    if not optimum < start:
        raise ValueError(f"the optimum's RMSE {optimum} must be below the start's {start}: the way has no length")
    arms = check_choices("arms", arms, {str(m) for m in table["method"]})
    made = {a: (start - float(table.loc[table.method == a, "final RMSE"].median())) / (start - optimum) for a in arms}
    short = [a for a, m in made.items() if not m >= share]
    reason = None if not short else (f"{', '.join(f'{a} ({made[a]:.2f})' for a in short)} did not get {share:g} of the way "
                                     f"from the start's test RMSE {start:.4g} to the optimum's {optimum:.4g} (median run)")
    return {"passed": not short, "made": made, "reason": reason}


def grid_edge(table: pd.DataFrame, chosen: dict) -> dict:
    """Where each arm's ``chosen`` factor (:func:`choose_steps`) sits in the factors that arm's pilots tried
    (``table``: columns ``arm, factor``): ``"low"`` at the least, ``"high"`` at the largest, else None (inside the grid,
    the best step bracketed). An arm with a single factor is at both edges: ``"low"``."""
    check_table("table", table, ("arm", "factor"))
    if not isinstance(chosen, dict) or not chosen:
        raise TypeError("chosen must be a non-empty mapping arm -> factor (choose_steps)")
    out = {}
    for arm, f_ in chosen.items():
        tried = table.loc[table["arm"] == arm, "factor"].to_numpy(float)
        if tried.size == 0:
            raise ValueError(f"chosen names arm {arm!r}, which has no pilot run in table")
        f_ = check_real(f"chosen[{arm!r}]", f_, low=0.0, low_open=True)
        out[arm] = "low" if f_ <= tried.min() else "high" if f_ >= tried.max() else None
    return out


def optimal_shape(rho: float, N: int) -> dict:
    """What the optimal distribution of Theorem 3 (Eq. 11) looks like at ``rho`` and mean ``N``: its least degree
    ``K`` (the support is ``K, K+1, ...``), the mass ``q_K`` there (``q0``: the mass at degree 0, zero when
    ``K > 0``) and ``rho / (rho - 1)``. ``q0`` near one (huge ``b/a``, ``rho -> 1``) is the degenerate case: almost
    every draw is degree 0 (a zero spectral gradient), the rest very high degrees."""
    from ...spectral.degrees import OptimalDegrees

    dist = OptimalDegrees(check_int("N", N, low=0), check_real("rho", rho, low=1.0, low_open=True))
    return {"K": dist.K, "q_K": float(dist.q_K), "q0": float(dist.q_K) if dist.K == 0 else 0.0, "rho/(rho-1)": float(rho / (rho - 1.0))}


def convergence_gap(table: pd.DataFrame, optimum: float, trivial: float) -> pd.DataFrame:
    """Per method of ``table`` (:func:`run_table`): the median final test RMSE, its gap to the model's optimum
    ``optimum`` and that gap as a share of the optimum's lead over the trivial predictor (``trivial - optimum``):
    0 at the optimum, 1 no better than the training mean."""
    _runs(table, "final RMSE")
    optimum, trivial = check_real("optimum", optimum, low=0.0), check_real("trivial", trivial, low=0.0)
    if not optimum < trivial:
        raise ValueError(f"the optimum's RMSE {optimum} must beat the trivial predictor's {trivial}: the gap has no scale")
    final = table.groupby("method")["final RMSE"].median()
    return pd.DataFrame({"median final RMSE": final, "gap to the optimum": final - optimum,
                         "share of the lead": (final - optimum) / (trivial - optimum)})


def reach_text(table: pd.DataFrame, name: str, reading: str, optimum: float, trivial: float, budget: float | None) -> str:
    """Where each method of ``table`` (:func:`run_table`) stands on ``name`` against the target ``reading`` (a share of
    the way from the training mean's test RMSE ``trivial`` to the model optimum's ``optimum``, :func:`rmse_target`),
    in one clause: the reason a time-to-target claim there is not measured. A method whose median run reaches it
    within the common ``budget`` (D3's work units; None: the runs' iteration budgets) is named with its median time;
    the others with the share of the way their median final test RMSE lies at, ``1 -`` :func:`convergence_gap`'s
    share of the lead (with stays-below times, the deepest share a run is at when the budget ends)."""
    reading = _reading(_runs(table, "final RMSE"), reading)
    try:
        share = float(reading)
    except ValueError:
        raise ValueError(f"reading must name a share of the way to the optimum (e.g. '0.72'); got {reading!r}") from None
    _member("name", name, table, "dataset")
    gaps = convergence_gap(table[table.dataset == name], optimum, trivial)
    within = "within the runs' iteration budgets" if budget is None else \
        f"within {check_real('budget', budget, low=0.0, low_open=True):.3g} units of work"
    reached, short = [], []
    for m in pd.unique(table.loc[table.dataset == name, "method"]):
        t = _median(table, name, m, f"time to {reading}")
        (reached if np.isfinite(t) else short).append(
            f"{m} at {t:.3g} units" if np.isfinite(t) else f"{m} {1.0 - float(gaps.loc[m, 'share of the lead']):.2f}")
    head = f"{name}, {within}: " + (f"{', '.join(reached)} reach {share:g} of the way from the training mean's test RMSE "
                                      f"to the optimum's" if reached else f"no method reaches {share:g} of the way from the "
                                                                         f"training mean's test RMSE to the optimum's")
    return head + ("" if not short else f"; {'the others get' if reached else 'they get'} {', '.join(short)} of the way")


def d41_test(table: pd.DataFrame, column: str = "mean RMSE") -> bool:
    """D4.1 ("other distributions ... converge slower than the optimal distribution"): the optimal distribution's
    median ``column`` (default the RMSE averaged over the run, i.e. the area under its curve) is below Poisson's
    and negative binomial's."""
    check_choice("column", column, ("mean RMSE", "final RMSE"))
    name = pd.unique(_runs(table, column).dataset)[0]
    opt = _median(table, name, "optimal", column)
    return bool(all(opt < _median(table, name, m, column) for m in ("poisson", "negative binomial")))


def d42_parts(table: pd.DataFrame, low: int, high: int) -> tuple[float, float]:
    """(SGD-DET's gain in median final RMSE from degree ``low`` to ``high``, SGD's absolute change)."""
    name = pd.unique(_runs(table, "final RMSE").dataset)[0]
    low, high = check_int("low", low, low=0), check_int("high", high, low=0)
    for param, n in (("low", low), ("high", high)):
        check_choice(param, f"SGD-DET N={n}", set(table.method))
    gain = _median(table, name, f"SGD-DET N={low}", "final RMSE") - _median(table, name, f"SGD-DET N={high}", "final RMSE")
    change = abs(_median(table, name, f"SGD N={low}", "final RMSE") - _median(table, name, f"SGD N={high}", "final RMSE"))
    return gain, change


def d42_test(table: pd.DataFrame, low: int, high: int, share: float = 0.5) -> bool:
    """D4.2 ("a larger degree reduces the bias error in SGD-DET, while SGD achieves similar error regardless of the
    degree"): SGD-DET's final RMSE falls from ``low`` to ``high`` and SGD's changes by less than ``share`` of that."""
    share = check_real("share", share, low=0.0, low_open=True)
    gain, change = d42_parts(table, low, high)
    return bool(gain > 0 and change < share * gain)


def d43_test(table: pd.DataFrame) -> bool:
    """D4.3 (Fig. 2(c)'s mechanism, "other distributions have relatively large variances"), on Lemma 2's
    Chebyshev-weighted variance ``Var_C`` of each distribution on the spectrum's interval of each cell (``table``:
    columns ``cell, distribution, Var_C``; :func:`~inferopt.spectral.chebyshev_weighted_variance`): in every cell
    the optimal distribution's is finite and below Poisson's and negative binomial's. An infinite ``Var_C`` (a
    heavy-tailed estimator: the reweighted coefficients ``b_j / P(n >= j)`` grow faster than the tail shrinks) is
    larger than any finite one; the optimal one's being infinite or NaN leaves nothing to compare (an error)."""
    check_table("table", table, ("cell", "distribution", "Var_C"))
    out = True
    for cell_, rows in table.groupby("cell", sort=False):
        var = dict(zip(rows["distribution"], rows["Var_C"].astype(float)))
        check_choices(f"cell {cell_}'s distributions", ["optimal", "poisson", "negative binomial"], set(var))
        opt = check_statistic(f"{cell_}: Var_C optimal", var["optimal"])
        for m in ("poisson", "negative binomial"):
            if np.isnan(var[m]):
                raise ValueError(f"cell {cell_}: Var_C of {m} is NaN")
            out = out and bool(var[m] > opt)
    return bool(out)


def eigenpairs_needed(theta, eps: float, rtol: float = 1e-6) -> tuple[int, int]:
    """``(needed, total)``: how many eigenpairs of the smaller Gram matrix of ``theta`` the exact gradient
    ``θ (θᵀθ + εI)^{-1/2}`` needs to relative accuracy ``rtol``: those whose factor ``(λ + ε)^{-1/2}`` differs from the
    tail value ``ε^{-1/2}`` by more than ``rtol`` of it (the rest could be taken as one multiple of the identity). A
    partial (top-k) decomposition is exact to ``rtol`` only if ``needed`` is small."""
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    eps = check_real("eps", eps, low=0.0, low_open=True)
    rtol = check_real("rtol", rtol, low=0.0, low_open=True)
    sv = np.linalg.svd(theta, compute_uv=False)
    factor = (sv ** 2 + eps) ** -0.5
    return int(np.sum(np.abs(factor - eps ** -0.5) > rtol * eps ** -0.5)), int(sv.size)


def exact_gradient_profile(theta, eps: float) -> dict:
    """CPU seconds of the stages of one exact gradient ``(θθᵀ + εI)^{-1/2} θ`` (the smaller Gram side): the Gram
    matrix, its eigen-decomposition, the matrix function ``S = U (Λ + ε)^{-1/2} Uᵀ`` and the product with ``θ``."""
    import time

    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    eps = check_real("eps", eps, low=0.0, low_open=True)
    small_right = theta.shape[1] <= theta.shape[0]
    t = [time.process_time()]
    gram = theta.T @ theta if small_right else theta @ theta.T
    t.append(time.process_time())
    lam, U = np.linalg.eigh(gram)
    t.append(time.process_time())
    W = U * (np.maximum(lam, 0.0) + eps) ** -0.25
    S = W @ W.T
    t.append(time.process_time())
    _ = theta @ S if small_right else S @ theta
    t.append(time.process_time())
    return dict(zip(("Gram", "eigendecomposition", "matrix function", "product"), np.diff(t).tolist()))


#: the least seeds of every randomised arm a verdict-map cell needs to decide (rescue a claim or count in a sweep),
#: unless it has as many as the main runs
MIN_MAP_SEEDS = 5


def seeded_cell(setting: dict, holds=None, *, support: dict | None, seeds: int, main_seeds: int, min_seeds: int = MIN_MAP_SEEDS,
                construction: str | None = None, data: str | None = None) -> dict:
    """A verdict-map cell (:func:`~inferopt.experiment.verdict_map.cell`) that decides only on decisive seeds: its
    randomised arms ran at least ``min_seeds`` seeds, or as many as the main runs (``main_seeds``), and its bootstrap
    ``support`` agrees at 90 % (else :func:`~inferopt.experiment.verdict_map.cell` makes it ``inconclusive``); ``holds``: the
    measured outcome, None not measured. A cell
    with fewer seeds is shown undecided: verdict ``inconclusive`` and no ``support`` key
    (:func:`~inferopt.experiment.verdict_map.decisive` is false: it neither rescues nor counts in a sweep), what it
    measured kept under ``undecided``. Every cell records its ``seeds``."""
    from ..verdict_map import cell

    if holds is not None and not isinstance(holds, bool | np.bool_):
        raise TypeError(f"holds must be True, False or None (not measured); got {holds!r}")
    seeds = check_int("seeds", seeds, low=1)
    main_seeds = check_int("main_seeds", main_seeds, low=1)
    min_seeds = check_int("min_seeds", min_seeds, low=1)
    out = cell(setting, holds, support=support, construction=construction, data=data)
    if seeds >= min_seeds or seeds >= main_seeds:
        return out | {"seeds": seeds}
    measured = out["verdict"] + (f", bootstrap support {out['support']:.2f}" if "support" in out else "")
    return {k: v for k, v in out.items() if k != "support"} | {
        "verdict": "inconclusive" if out["verdict"] != "not measured" else "not measured", "seeds": seeds,
        "undecided": f"{seeds} seeds, fewer than {min(min_seeds, main_seeds)}: measured {measured}, decides nothing"}


def completion_diagnosis(cells, text: str, *, no_authors_construction: str, chosen: dict | None = None,
                         worse_than_mean=(), stand_in: dict | None = None):
    """The diagnosis of a D3 claim that does not hold, from its verdict map ``cells``
    (:func:`~inferopt.experiment.verdict_map.cell` with ``data``: ``stand-in`` for MovieLens 100K's settings,
    ``paper-shape`` for the matrix of the paper's size): ``setting`` when a MovieLens setting other than the
    ``chosen`` one holds, decisively, where the model means something (the chosen setting's cells, its replicates
    with other seeds among them, rescue nothing; a setting of ``worse_than_mean``, where the model's optimum predicts
    held-out ratings worse than the training mean, rescues nothing: the text names it); ``stand-in`` when only the
    matrix of the paper's size holds (the claim fails on the smaller stand-in only); else ``paper`` when the whole map,
    the chosen setting's cells included, earns it (:func:`~inferopt.experiment.claims.paper_rules`: every cell failing decisively, at
    least :data:`~inferopt.experiment.claims.MIN_SWEEP` distinct settings), else :class:`~inferopt.experiment.claims.Unearned` naming what the map lacks.

    ``stand_in`` (``{"text", "evidence"}``: the measured difference between the stand-in and the paper's data that
    could turn the claim, with the power of the test, e.g. the exact / stochastic gradient cost ratio against the size,
    :func:`~.work.gradient_seconds`): where nothing rescues the claim, a ``stand-in`` diagnosis resting on the chosen
    setting's cells failing decisively (:func:`~inferopt.experiment.verdict_map.decisive`, support of 90 %), that text
    and evidence beside the map; :class:`~inferopt.experiment.claims.Unearned` when the chosen setting does not fail
    decisively."""
    from ..claims import Unearned, UnearnedDiagnosis, paper_rules, setting_text
    from ..verdict_map import decisive

    cells = list(cells)
    worse = [dict(w) for w in worse_than_mean]
    others = [c for c in cells if chosen is None or c["setting"] != chosen]
    small_cells = [c for c in others if c.get("data") == "stand-in"]
    shaped = [c for c in others if c.get("data") == "paper-shape"]
    evidence = {"sweep": cells, "no_authors_construction": no_authors_construction}
    if not any(c["verdict"] == "holds" for c in small_cells) and any(c["verdict"] == "holds" and decisive(c) for c in shaped):
        return {"kind": "stand-in", "text": f"{text} It holds on the matrix of the paper's size and at none of the "
                f"{len(small_cells)} other MovieLens 100K settings of the verdict map: it fails on the smaller stand-in only.",
                "evidence": evidence}
    # a setting where the model's optimum predicts worse than the training mean rescues nothing: the model means nothing there
    meaningless = [c for c in small_cells if c["verdict"] == "holds" and c["setting"] in worse]
    note = "" if not meaningless else (
        f" It holds at {len(meaningless)} other setting(s) ({'; '.join(setting_text(c['setting']) for c in meaningless)}) where the "
        "model's optimum predicts the validation ratings worse than the training mean: no rescue, the model means nothing there.")
    rescue = [c for c in others if c not in meaningless and c["verdict"] == "holds" and decisive(c)]
    if rescue:
        return {"kind": "setting", "text": f"{text}{note} It holds at {len(rescue)} of {len(cells)} cells of the verdict map "
                f"({'; '.join(setting_text(c['setting']) for c in rescue)}).", "evidence": evidence}
    if stand_in is not None:
        if not isinstance(stand_in, dict) or not isinstance(stand_in.get("text"), str) or not stand_in["text"].strip() \
                or not isinstance(stand_in.get("evidence"), dict):
            raise TypeError("stand_in must be {'text': a sentence, 'evidence': a mapping} (the stand-in's measured difference)")
        own = [c for c in cells if chosen is not None and c["setting"] == chosen]
        if not own or not all(c["verdict"] == "fails" and decisive(c) for c in own):
            return Unearned(f"the chosen setting does not fail decisively on the stand-in ({len(own)} cell(s)): nothing to blame it "
                            f"on{note}", evidence)
        undecided = [c for c in others if not decisive(c) or c["verdict"] == "inconclusive"]
        return {"kind": "stand-in", "text": f"{text}{note} It fails, decisively, at the chosen setting; no other cell of the map "
                f"rescues it ({len(undecided)} of {len(others)} undecided). {stand_in['text']}",
                "evidence": evidence | {"stand_in": stand_in["evidence"]}}
    try:                                # a paper diagnosis must be earned by the whole map, the chosen setting's cells included
        paper_rules(evidence)
    except UnearnedDiagnosis as exc:
        return Unearned(str(exc) + note, evidence)
    return {"kind": "paper", "text": f"{text}{note} It fails, decisively, at every one of the {len(cells)} cells of the verdict map "
            f"({'; '.join(setting_text(c['setting']) for c in cells)}).", "evidence": evidence}
