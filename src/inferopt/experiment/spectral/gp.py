"""The deciding code of the GP hyperparameter claims (D5, Fig. 3): SGD (stochastic Chebyshev gradients) against
LANCZOS, on the paper's axis (test RMSE against time), over independent seeds.

Every claim compares TWO methods, SGD and one LANCZOS, on a table of that comparison alone
(:func:`gp_comparison`): its targets and its reference are set by the compared methods' runs only, so a third
method (the other LANCZOS construction, or any other) cannot move the verdict between the two. A run's row
(:func:`gp_run_table`): ``dataset, method, seed``, its time and its matrix-vector products to each target (``inf``:
not reached before the run ended), its final and best test RMSE, its total time and products, and its late gain
(:func:`late_gain`: how much it still improved in the last quarter of its run). Targets (:func:`gp_targets`) are
shares of the way from the common start's RMSE to the reference, the best final RMSE of the compared runs (the
level the model attains here: the paper's RMSE 0.0375 is a level of its own sound subset). Support: bootstrap over
seeds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import as_finite_array, check_callable, check_choice, check_int, check_protocol, check_real, check_table
from ..claims import check_statistic
from .targets import time_to

#: the units in which a speed is read: CPU seconds and matrix-vector products (the hardware-neutral work)
UNITS = {"seconds": ("time", "total time"), "matvecs": ("matvecs", "total matvecs")}
#: the last part of a run in which :func:`late_gain` looks for progress
TAIL = 0.25
#: the least number of SKI grid spacings a start's lengthscale spans (:func:`grid_start`)
RESOLVE = 2.0
#: a run whose best test RMSE gains less than this (relative) in its last quarter has levelled off (:func:`late_gain`)
PLATEAU = 0.005
#: a run's final lengthscale within this (relative) of one grid spacing, or below, sits at the SKI grid's limit (:func:`grid_limited`):
#: the b654e69 paper run's humidity runs ended at 1.00-1.01 spacings, the default scale's at most 1.06; an interior one (sound's) at 1.7-1.9
GRID_BAND = 0.1
#: D5.3's tie (ours): a LANCZOS / SGD cost ratio within this (relative) above 1 is a tie, SGD not faster there
#: (:func:`d53_test`); the seeds' spread of one method's cost to a target is of this order
TIE = 0.05


def grid_start(theta0, spacing: float, spacings: float = RESOLVE) -> np.ndarray:
    """The start ``theta0 = (noise std, signal std, lengthscale)`` on a SKI grid of ``spacing`` (units of x): its lengthscale
    raised to at least ``spacings`` grid spacings, the rest kept. SKI (Wilson & Nickisch 2015) evaluates the RBF kernel
    ``k(τ) = σ² exp(-τ²/2ℓ²)`` only between grid points, ``τ = h, 2h, ...``: at ``ℓ`` far below the spacing ``h`` the kernel
    between neighbours, ``exp(-h²/2ℓ²)``, and its derivative in ``ℓ``, ``k(h) h²/ℓ³``, vanish (at ``ℓ = 2`` samples on sound's
    11.9-sample grid: ``2e-8`` of the diagonal), so the lengthscale gradient is 0 and ``ℓ`` never moves from its start. At
    ``ℓ = 2h`` the neighbours' kernel is ``exp(-1/8) = 0.88`` of the diagonal."""
    theta0 = as_finite_array("theta0", theta0, ndim=1)
    if theta0.shape != (3,) or np.any(theta0 <= 0):
        raise ValueError(f"theta0 must be 3 positive hyperparameters (noise std, signal std, lengthscale); got {theta0!r}")
    spacing = check_real("spacing", spacing, low=0.0, low_open=True)
    spacings = check_real("spacings", spacings, low=0.0)
    return np.r_[theta0[:2], max(float(theta0[2]), spacings * spacing)]


def grid_limited(spacings, band: float = GRID_BAND) -> bool:
    """Is the lengthscale GRID-LIMITED: does no run of ``spacings`` (each run's final lengthscale in spacings of its own SKI grid,
    ``ℓ / h``) end at an interior lengthscale, every one at most ``1 + band`` spacings? Below about one spacing the grid cannot
    resolve the kernel (:func:`grid_start`: the kernel between grid neighbours, ``exp(-h²/2ℓ²)``, and its lengthscale gradient
    vanish), so a run that ends there was stopped by the grid, not by the likelihood: where every run does, the lengthscale the
    likelihood would choose may lie below what the grid resolves, and the runs' optimum is the grid's limit, not an interior
    optimum of the model. One run ending above ``1 + band`` spacings (an interior lengthscale) makes it False."""
    if isinstance(spacings, str | bytes | dict) or not hasattr(spacings, "__iter__"):
        raise TypeError(f"spacings must be a list of final lengthscales in grid spacings; got {spacings!r}")
    spacings = as_finite_array("spacings", list(spacings), ndim=1, nonempty=True)
    if np.any(spacings <= 0):
        raise ValueError(f"spacings must be positive lengthscales in grid spacings; got {spacings.tolist()}")
    band = check_real("band", band, low=0.0, high=1.0, high_open=True)
    return bool(np.all(spacings <= 1.0 + band))


def nominal_matvecs(result, probes: int) -> np.ndarray:
    """SGD's ``matvecs`` trace at the NOMINAL count of its stochastic Chebyshev gradient, ``n`` products per probe at the degree
    ``n`` drawn (the ``n - 1`` forward products with ``A`` and one for the derivative contraction), beside the calibrated
    :data:`~inferopt.spectral.gp.SGD_PRODUCTS_PER_DEGREE` ``× n`` (its measured CPU cost) that the trace counts: each record's
    count less ``(1.2 - 1) × probes × `` the degrees drawn in the steps before it (``result.info["degrees"]``, one per step;
    ``result.iterations``: the steps done at each record). The other products (CG for ``α``, the spectral interval) are kept."""
    from ...spectral.gp import SGD_PRODUCTS_PER_DEGREE
    check_protocol("result", result, "matvecs", "iterations", "info", what="an SGD SpectralSolveResult")
    probes = check_int("probes", probes, low=1)
    degrees = (result.info or {}).get("degrees")
    if degrees is None:
        raise ValueError("result must record the degree drawn at each step (info['degrees']: an SGD run)")
    degrees = np.asarray(degrees, dtype=float)
    steps = np.asarray(result.iterations, dtype=int)
    work = np.asarray(result.matvecs, dtype=float)
    if work.size != steps.size or (steps.size and steps.max() > degrees.size):
        raise ValueError("result's matvecs and iterations traces must match, each record at most as many steps as degrees drawn")
    done = np.r_[0.0, np.cumsum(degrees)][steps]
    return work - (SGD_PRODUCTS_PER_DEGREE - 1.0) * probes * done


def gp_targets(results: dict, shares) -> dict:
    """``{share: target RMSE}`` for one dataset's runs (``{key: result}``, all from the same start): ``share`` of
    the way from the start's RMSE to the best final RMSE of the runs given (pass the compared methods' runs only)."""
    if not isinstance(results, dict) or not results:
        raise ValueError("results must be a non-empty mapping key -> result")
    runs = list(results.values())
    for r in runs:
        check_protocol("results (a value of)", r, "metric", "times", what="a SpectralSolveResult")
    start = check_statistic("start RMSE", runs[0].metric[0])
    best = check_statistic("best final RMSE", min(float(r.metric[-1]) for r in runs))
    if not best < start:
        raise ValueError(f"no run improves on the start's RMSE {start:.6g}: there is no target")
    return {float(s): start - check_real("share", s, low=0.0, low_open=True, high=1.0) * (start - best) for s in shares}


def work_to(result, target: float) -> float:
    """Matrix-vector products ``result`` had spent (its ``matvecs`` trace) when its test RMSE first reached
    ``<= target``; ``inf`` if it never did."""
    check_protocol("result", result, "metric", "matvecs", what="a SpectralSolveResult")
    target = check_real("target", target)
    work = np.asarray(result.matvecs, dtype=float)
    if work.size != np.size(result.metric) or not np.all(np.isfinite(work)):
        raise ValueError("result must trace a finite matvecs count at every entry of its metric (a problem that counts them)")
    hit = np.flatnonzero(np.asarray(result.metric) <= target)
    return float(work[hit[0]]) if hit.size else float("inf")


def late_gain(result, tail: float = TAIL) -> float:
    """The relative improvement of ``result``'s best test RMSE in the last ``tail`` of its trace entries,
    ``(best before the tail - best overall) / best overall``: near 0 for a run that has levelled off."""
    check_protocol("result", result, "metric", what="a SpectralSolveResult")
    tail = check_real("tail", tail, low=0.0, low_open=True, high=1.0, high_open=True)
    m = np.asarray(result.metric, dtype=float)
    if m.size < 2:
        raise ValueError(f"result must record at least two entries; got {m.size}")
    k = int(np.floor((1.0 - tail) * (m.size - 1)))
    best = check_statistic("best RMSE", float(np.min(m)))
    return float((np.min(m[: k + 1]) - best) / best)


def iterations_per_record(result) -> float:
    """How many of its iterations ``result``'s run made between two recorded entries (the median step of its ``iterations``
    trace): 1 where every iterate the method returns is recorded (a step loop recording at every step; a line search
    recording every ACCEPTED iterate, Dong et al.'s LANCZOS: the trial points inside its line searches are evaluations, not
    iterates it returns, and their cost is counted in the accepted iterate's). At 1 the recorded iterate that first meets a
    target is the first iterate that does, its cost exact; above 1 an unrecorded iterate before it may have met it
    (:func:`coarse_record`). The work within an iterate is counted in products (the ``matvecs`` trace, :func:`work_to`) by the
    rule of each method's gradient: the products it makes. SGD's stochastic Chebyshev gradient (:meth:`~inferopt.spectral.gp.SKIGaussianProcess.spectral_grad`):
    ``1.2n`` per probe at the degree ``n`` drawn (:data:`~inferopt.spectral.gp.SGD_PRODUCTS_PER_DEGREE`), its cost as measured in
    CPU time, not the nominal ``n`` (the ``n - 1`` products with ``A`` of its forward recursion and one for its derivative
    contraction, a frequency-domain cross-correlation of the kept transforms: measured at d = 35,000, r = 2,980, one thread,
    0.1n to 0.13n products' CPU time per probe, the whole gradient 1.1n to 1.3n, n = 15 to 60), not the ``2n``
    kernel-sandwich products it replaces (counted before, ``3n - 1``). LANCZOS: its CG / Lanczos products with ``A`` and
    one product with each of the two sandwiches ``∂A/∂θ₂``, ``∂A/∂θ₃`` per probe (and per ``α``), each made as a product,
    over every evaluation of a line search."""
    check_protocol("result", result, "iterations", what="a SpectralSolveResult")
    steps = np.diff(np.asarray(result.iterations, dtype=float))
    return float(np.median(steps)) if steps.size else 1.0


def gp_run_table(results: dict, targets: dict, nll: dict | None = None, nominal: dict | None = None) -> pd.DataFrame:
    """One row per run: ``results`` maps ``(dataset, method, seed)`` to a result; ``targets`` ``{dataset: {share:
    target}}``. Columns ``dataset, method, seed``, ``time to <share>``, ``matvecs to <share>`` and ``records to <share>`` (the index of
    the first recorded entry at or below the target, the start being 0; ``inf``: not reached), ``final RMSE``, ``best RMSE``, ``total time``,
    ``total matvecs``, ``late gain``, ``iterations per record`` (:func:`iterations_per_record`); with ``nll`` (``{(dataset,
    method, seed): the negative log likelihood at the run's end point}``, :func:`accurate_nll`), ``final NLL``; with ``nominal``
    (``{key: a matvecs trace at the nominal count}``, :func:`nominal_matvecs`, SGD's runs), ``nominal matvecs to <share>`` and
    ``total nominal matvecs`` (a run not in ``nominal`` counts as its ``matvecs`` trace: LANCZOS counts the products it makes)."""
    if not isinstance(results, dict) or not results:
        raise ValueError("results must be a non-empty mapping (dataset, method, seed) -> result")
    if not isinstance(targets, dict):
        raise TypeError(f"targets must be a mapping dataset -> {{share: target}}; got {type(targets).__name__}")
    if nll is not None and (not isinstance(nll, dict) or set(results) - set(nll)):
        raise ValueError("nll must map every run's key (dataset, method, seed) to its final negative log likelihood")
    if nominal is not None and not isinstance(nominal, dict):
        raise TypeError(f"nominal must be a mapping (dataset, method, seed) -> matvecs trace; got {type(nominal).__name__}")
    rows = []
    for (name, method, seed), res in results.items():
        row = {"dataset": name, "method": method, "seed": seed, "final RMSE": float(res.metric[-1]),
               "best RMSE": float(np.nanmin(res.metric)), "total time": float(res.times[-1]),
               "total matvecs": float(np.asarray(res.matvecs, dtype=float)[-1]), "late gain": late_gain(res),
               "iterations per record": iterations_per_record(res)}
        if nll is not None:
            row["final NLL"] = check_statistic("final NLL", nll[(name, method, seed)])
        for share, target in targets[name].items():
            row[f"time to {share:g}"] = time_to(res, target, missing=np.inf)
            row[f"matvecs to {share:g}"] = work_to(res, target)
            hit = np.flatnonzero(np.asarray(res.metric) <= target)
            row[f"records to {share:g}"] = float(hit[0]) if hit.size else float("inf")
        if nominal is not None:
            work = np.asarray(nominal.get((name, method, seed), res.matvecs), dtype=float)
            if work.shape != np.shape(res.metric):
                raise ValueError(f"nominal[{(name, method, seed)!r}] must trace a count at every entry of the run's metric")
            row["total nominal matvecs"] = float(work[-1])
            for share, target in targets[name].items():
                hit = np.flatnonzero(np.asarray(res.metric) <= target)
                row[f"nominal matvecs to {share:g}"] = float(work[hit[0]]) if hit.size else float("inf")
        rows.append(row)
    return pd.DataFrame(rows)


def gp_comparison(results: dict, methods, shares, nll: dict | None = None, nominal: dict | None = None) -> pd.DataFrame:
    """The table of ONE comparison (:func:`gp_run_table`, with each run's final likelihood from ``nll`` where given): the
    runs of ``methods`` (two names) in ``results`` (``{(dataset, method, seed): result}``), with each dataset's targets
    (:func:`gp_targets`) set by those runs alone. Runs of other methods in ``results`` are left out and set nothing."""
    if isinstance(methods, str) or not hasattr(methods, "__iter__"):
        raise TypeError(f"methods must be two method names; got {methods!r}")
    methods = list(methods)
    if len(methods) != 2 or methods[0] == methods[1]:
        raise ValueError(f"methods must be two different method names; got {methods!r}")
    if not isinstance(results, dict) or not results:
        raise ValueError("results must be a non-empty mapping (dataset, method, seed) -> result")
    if isinstance(shares, str) or not hasattr(shares, "__iter__") or len(list(shares)) == 0:
        raise TypeError(f"shares must be a non-empty list of shares in (0, 1]; got {shares!r}")
    shares = [check_real(f"shares[{i}]", s_, low=0.0, low_open=True, high=1.0) for i, s_ in enumerate(shares)]
    sub = {k: r for k, r in results.items() if k[1] in methods}
    for m in methods:
        if not any(k[1] == m for k in sub):
            raise ValueError(f"results hold no run of {m!r}")
    names = list(dict.fromkeys(k[0] for k in sub))
    targets = {n: gp_targets({k: r for k, r in sub.items() if k[0] == n}, shares) for n in names}
    table = gp_run_table(sub, targets, None if nll is None else {k: v for k, v in nll.items() if k in sub},
                         None if nominal is None else {k: v for k, v in nominal.items() if k in sub})
    table.attrs["targets"] = targets
    return table


def _runs(table, name, sgd, lanczos):
    """A table of one comparison on ``name``: exactly the methods ``sgd`` and ``lanczos`` (its reference and targets
    must not come from a third method: build it with :func:`gp_comparison`)."""
    present = _pair(table, name)
    check_choice("sgd", sgd, present)
    check_choice("lanczos", lanczos, [m for m in present if m != sgd])
    return table


def _share(table, share) -> float:
    share = check_real("share", share, low=0.0, low_open=True, high=1.0)
    if f"time to {share:g}" not in table.columns:
        raise ValueError(f"share must be one of the table's targets; got {share:g}")
    return share


def _shares(shares) -> list[float]:
    """``shares``, a non-empty list of target shares in (0, 1], checked one by one (the message names ``shares[i]``)."""
    if isinstance(shares, str) or not hasattr(shares, "__iter__") or not list(shares):
        raise TypeError(f"shares must be a non-empty list of the table's targets; got {shares!r}")
    return [check_real(f"shares[{i}]", s_, low=0.0, low_open=True, high=1.0) for i, s_ in enumerate(shares)]


def _amounts(table, name, method, share, unit):
    to, total = UNITS[unit]
    v = table.loc[(table.dataset == name) & (table.method == method)]
    return v[f"{to} to {share:g}"].to_numpy(float), v[total].to_numpy(float)


def reached(table: pd.DataFrame, name: str, method: str, share: float, unit: str = "seconds") -> tuple:
    """``(k, n)``: ``method`` reached the target ``share`` on ``name`` in ``k`` of its ``n`` runs."""
    check_choice("unit", unit, tuple(UNITS))
    check_choice("method", method, _pair(table, name))
    t, _ = _amounts(table, name, method, _share(table, share), unit)
    return int(np.sum(np.isfinite(t))), int(t.size)


def _cost(table, name, method, share, unit) -> float:
    """``method``'s median cost to the target on ``name`` in ``unit``, a run that never reached it counting with its whole
    run (what it spent before its budget ended: a lower bound on its cost to the target); ``inf`` where ``method`` never
    gets there and the other method does (:func:`never_reaches`)."""
    if never_reaches(table, name, method, share):
        return float("inf")
    t, total = _amounts(table, name, method, share, unit)
    return float(np.median(np.where(np.isinf(t), np.maximum(total, 0.0), t)))


def capped(table: pd.DataFrame, name: str, method: str, share: float, unit: str = "seconds") -> bool:
    """Is ``method``'s median cost to the target ``share`` on ``name`` (in ``unit``) bounded by its budget? Its runs that
    never reached the target count with their whole run (:func:`time_ratio`), a LOWER bound on what they would need: the
    median is capped when it would change were those runs given a longer budget (counted as never arriving, ``inf``)."""
    check_choice("unit", unit, tuple(UNITS))
    check_choice("method", method, _pair(table, name))
    t, _ = _amounts(table, name, method, _share(table, share), unit)
    return bool(np.median(t) != _cost(table, name, method, share, unit))


def time_ratio(table: pd.DataFrame, name: str, lanczos: str, share: float, sgd: str = "SGD", unit: str = "seconds"):
    """LANCZOS's median cost to the target over SGD's on ``name``, in ``unit`` (``seconds`` or ``matvecs``, the
    matrix-vector products). A run that never reaches the target counts with its whole run, a lower bound on its cost;
    where that decides a median (:func:`capped`) the ratio is a bound, read by :func:`ratio_bound` (a capped LANCZOS: a
    lower bound; a capped SGD: an upper bound). A method that never gets to a target the other reaches (:func:`never_reaches`)
    costs ``inf`` there: the ratio is ``inf`` (LANCZOS never gets there: SGD wins) or 0 (SGD never does: LANCZOS wins). ``None``
    only where SGD's cost is 0 (no ratio, never written as 0)."""
    check_choice("unit", unit, tuple(UNITS))
    _share(_runs(table, name, sgd, lanczos), share)
    den = _cost(table, name, sgd, share, unit)
    if np.isinf(den):
        return 0.0
    return None if den <= 0 else _cost(table, name, lanczos, share, unit) / den


def nominal_ratio(table: pd.DataFrame, name: str, lanczos: str, share: float, sgd: str = "SGD"):
    """LANCZOS's median products to the target ``share`` on ``name`` over SGD's at its NOMINAL count (``n`` per probe at the
    degree drawn, :func:`nominal_matvecs`; the table's ``nominal matvecs to <share>``), a run that never reached it counting
    with its whole run (as :func:`time_ratio`): read beside the ratio at SGD's calibrated count (``1.2n``), deciding nothing.
    ``None`` where SGD's count is 0 or a method never gets there (:func:`never_reaches`)."""
    share = _share(_runs(table, name, sgd, lanczos), share)
    if f"nominal matvecs to {share:g}" not in table.columns:
        raise ValueError("table must hold 'nominal matvecs to <share>' (gp_comparison(..., nominal=))")
    if never_reaches(table, name, lanczos, share) or never_reaches(table, name, sgd, share):
        return None
    cost = lambda m, to, total: float(np.median(np.where(np.isinf(v := table.loc[(table.dataset == name) & (table.method == m), to].to_numpy(float)),
                                                         table.loc[(table.dataset == name) & (table.method == m), total].to_numpy(float), v)))
    den = cost(sgd, f"nominal matvecs to {share:g}", "total nominal matvecs")
    return None if den <= 0 else cost(lanczos, f"nominal matvecs to {share:g}", "total nominal matvecs") / den


def _at_least(r, factor, strict=False) -> bool:
    """A ratio passes a bar; no ratio (SGD's cost 0) never passes. Whether a pass or a miss is decided: :func:`informative`."""
    return bool(r is not None and (r > factor if strict else r >= factor))


def d51_test(table: pd.DataFrame, lanczos: str, share: float, factor: float = 1.5, unit: str = "seconds") -> bool:
    """D5.1 ("it runs 2 times faster to achieve RMSE 0.0375 under sound"): on sound, LANCZOS's median cost to the
    target is at least ``factor`` times SGD's (:func:`time_ratio`, in ``unit``)."""
    factor = check_real("factor", factor, low=0.0, low_open=True)
    return _at_least(time_ratio(table, "sound", lanczos, share, unit=unit), factor)


def _pair(table, name) -> list[str]:
    """The two methods of a comparison's table on ``name`` (:func:`gp_comparison`)."""
    check_table("table", table, ("dataset", "method", "seed", "final RMSE", "total time", "late gain"))
    check_choice("name", name, {str(v) for v in pd.unique(table.dataset)})
    present = sorted(str(v) for v in pd.unique(table.loc[table.dataset == name, "method"]))
    if len(present) != 2:
        raise ValueError(f"table must hold the runs of exactly two compared methods on {name} (build it with gp_comparison); "
                         f"got {present}")
    return present


def reference_rmse(table: pd.DataFrame, name: str) -> float:
    """The reference of one comparison on ``name``: the best final test RMSE of the compared methods' runs."""
    _pair(table, name)
    return check_statistic("reference RMSE", float(table.loc[table.dataset == name, "final RMSE"].min()))


def stuck_share(table: pd.DataFrame, name: str, method: str, margin: float, plateau: float = PLATEAU, likelihood: bool = True) -> float:
    """The share of ``method``'s runs on ``name`` stuck at a local optimum. A run is stuck when (i) its final RMSE is at
    least ``margin`` (relative) above the comparison's reference (:func:`reference_rmse`), (ii) it has levelled off: its
    :func:`late_gain` is below ``plateau`` (a run still descending is unconverged, not stuck), and (iii) it found no better
    optimum: its final negative log marginal likelihood (column ``final NLL``, the objective both methods minimise, read on
    the same probes for every run: :func:`accurate_nll`) is above the OTHER compared method's median final one. A run that
    ends at a better likelihood with a worse test RMSE has converged to a better optimum of the objective, not been stuck
    at a local one (where the likelihood and the test RMSE disagree, the regime decides, not the optimiser).
    ``likelihood=False``: (i) and (ii) alone (the reading by the test RMSE only, shown beside)."""
    margin = check_real("margin", margin, low=0.0)
    plateau = check_real("plateau", plateau, low=0.0)
    if not isinstance(likelihood, bool | np.bool_):
        raise TypeError(f"likelihood must be True or False; got {likelihood!r}")
    pair = _pair(table, name)
    check_choice("method", method, pair)
    ref = reference_rmse(table, name)
    v = table.loc[(table.dataset == name) & (table.method == method)]
    stuck = (v["final RMSE"].to_numpy() >= (1.0 + margin) * ref) & (v["late gain"].to_numpy() < plateau)
    if likelihood:
        if "final NLL" not in table.columns:
            raise ValueError("table must hold each run's 'final NLL' (the accurate likelihood at its end point) to read stuck runs")
        other = table.loc[(table.dataset == name) & (table.method == next(m for m in pair if m != method)), "final NLL"].to_numpy(float)
        nll = v["final NLL"].to_numpy(float)
        if not (np.all(np.isfinite(nll)) and np.all(np.isfinite(other))):
            raise ValueError(f"table's 'final NLL' must be finite for every run on {name}")
        stuck &= nll > float(np.median(other))
    return float(np.mean(stuck))


def d52_test(table: pd.DataFrame, lanczos: str, margin: float = 0.02, plateau: float = PLATEAU) -> bool:
    """D5.2 ("under humid dataset LANCZOS can be often stuck at a local optimum, while SGD avoids it"): on humidity
    at least half of LANCZOS's runs are stuck (:func:`stuck_share`: levelled off ``margin`` above the comparison's
    reference at a worse likelihood than SGD's median) and a smaller share of SGD's (the same reading, against LANCZOS's)."""
    _runs(table, "humidity", "SGD", lanczos)
    lan = stuck_share(table, "humidity", lanczos, margin, plateau)
    return bool(lan >= 0.5 and stuck_share(table, "humidity", "SGD", margin, plateau) < lan)


def _tie_bar(tie) -> float:
    """D5.3's bar on the LANCZOS / SGD ratio: ``1 + tie`` (a ratio up to it is a tie, not a faster SGD)."""
    return 1.0 + check_real("tie", tie, low=0.0, high=1.0)


def d53_test(table: pd.DataFrame, lanczos: str, share: float, unit: str = "seconds", tie: float = TIE) -> bool:
    """D5.3 ("SGD converges faster than LANCZOS for both datasets"): LANCZOS's median cost to the target (in
    ``unit``) exceeds SGD's by more than a ``tie`` (relative) on sound and on humidity: a ratio in ``(1, 1 + tie]`` is a
    tie, SGD not shown faster there."""
    bar = _tie_bar(tie)
    return bool(all(_at_least(time_ratio(table, n, lanczos, share, unit=unit), bar, strict=True) for n in ("sound", "humidity")))


def d54_test(table: pd.DataFrame, lanczos: str, shares, factor: float = 6.0, unit: str = "seconds") -> bool:
    """D5.4 ("under Szeged humid dataset, our generic method runs up to six times faster than the state-of-art
    method [7]"): the largest LANCZOS / SGD cost ratio (in ``unit``) on humidity over the targets ``shares`` reaches
    ``factor``."""
    factor = check_real("factor", factor, low=0.0, low_open=True)
    _runs(table, "humidity", "SGD", lanczos)
    shares = [_share(table, s_) for s_ in _shares(shares)]
    return bool(any(_at_least(time_ratio(table, "humidity", lanczos, s, unit=unit), factor) for s in shares))


def accurate_nll(gp, theta, Z, n_steps: int) -> float:
    """The negative log marginal likelihood of ``gp`` (a :class:`~inferopt.spectral.SKIGaussianProcess`) at ``theta``,
    read beside the test RMSE: ``½ yᵀα + ½ log det A + (d/2) log 2π`` with ``α`` by CG to ``gp.cg_tol`` and ``log det A``
    by stochastic Lanczos quadrature on the probes ``Z`` with ``n_steps`` steps (accurate with many probes and steps;
    exact in the limit, tested against the dense Cholesky value). An evaluation: ``gp``'s work count is left as it was."""
    check_protocol("gp", gp, "dong_value_and_grad", "cg_tol", "matvecs", "dim", what="an SKIGaussianProcess")
    theta = as_finite_array("theta", theta, ndim=1)
    if theta.shape != (3,) or np.any(theta <= 0):
        raise ValueError(f"theta must be 3 positive hyperparameters (noise std, signal std, lengthscale); got {theta!r}")
    Z = as_finite_array("Z", Z, ndim=2)
    if Z.shape[0] != gp.dim or Z.shape[1] < 1:
        raise ValueError(f"Z must hold probes of length {gp.dim} in its columns; got shape {Z.shape}")
    n_steps = check_int("n_steps", n_steps, low=1)
    before = gp.matvecs
    try:
        return check_statistic("negative log likelihood", gp.dong_value_and_grad(theta, Z, n_steps, cg_tol=gp.cg_tol)[0])
    finally:
        gp.matvecs = before


def objective_agrees(table: pd.DataFrame, name: str, agree: float = 0.02):
    """Humidity's split rule (:func:`choose_split`) read on EVERY arm of the runs of ``name``: does each method end its runs at a
    test RMSE within ``agree`` (relative) of the best along their paths (median of ``final RMSE / best RMSE``)? The REGIME (does
    the likelihood optimum predict: the paper's axis and the objective agree) is decided by the method nearest the optimum (the
    least median ``final NLL``): where it fails, a speed to a test RMSE target decides nothing. An arm that fails the rule while
    another is nearer the optimum has not reached that optimum in its budget: its own convergence, named per arm, not the
    regime. Returns ``(regime agrees, {method: {"final / best": median ratio, "agrees": bool, "final NLL": median,
    "nearest": is it the method nearest the optimum}})``."""
    check_table("table", table, ("dataset", "method", "final RMSE", "best RMSE", "final NLL"))
    check_choice("name", name, {str(v) for v in pd.unique(table.dataset)})
    agree = check_real("agree", agree, low=0.0)
    v = table.loc[table.dataset == name]
    nll = {str(m): float(g["final NLL"].median()) for m, g in v.groupby("method")}
    nearest = min(nll, key=nll.get)
    arms = {}
    for m, g in v.groupby("method"):
        r = float(np.median(g["final RMSE"].to_numpy(float) / g["best RMSE"].to_numpy(float)))
        arms[str(m)] = {"final / best": r, "agrees": bool(r <= 1.0 + agree), "final NLL": nll[str(m)], "nearest": str(m) == nearest}
    return arms[nearest]["agrees"], arms


def choose_split(fits: dict, agree: float = 0.02, beat: float = 0.9):
    """The held-out split of a series chosen on a VALIDATION split (the test split is never read): ``fits`` maps each
    candidate gap length to ``{"path": the validation RMSE along a likelihood fit on the rest of the training data (its
    start first, its optimum last), "mean": the validation RMSE of the training mean}``. A gap is *meaningful* when the
    likelihood optimum predicts there: its final validation RMSE is within ``agree`` (relative) of the least along
    its path (the likelihood and the RMSE agree) and at most ``beat`` times the training mean's. The rule: the longest
    meaningful gap; none meaningful: the shortest gap. Returns ``(gap, {gap: meaningful})``."""
    if not isinstance(fits, dict) or not fits:
        raise ValueError("fits must be a non-empty mapping gap -> {'path', 'mean'}")
    agree = check_real("agree", agree, low=0.0)
    beat = check_real("beat", beat, low=0.0, low_open=True)
    ok = {}
    for gap, fit in fits.items():
        if not isinstance(fit, dict) or not {"path", "mean"} <= set(fit):
            raise ValueError(f"fits[{gap!r}] must be a mapping with 'path' and 'mean'; got {fit!r}")
        path = np.asarray(fit["path"], dtype=float)
        if path.ndim != 1 or path.size < 2 or not np.all(np.isfinite(path)):
            raise ValueError(f"fits[{gap!r}]['path'] must hold at least two finite validation RMSEs; got {fit['path']!r}")
        mean = check_statistic("training mean's validation RMSE", fit["mean"])
        ok[gap] = bool(path[-1] <= (1.0 + agree) * path.min() and path[-1] <= beat * mean)
    good = [g for g, v in ok.items() if v]
    return (max(good) if good else min(fits)), ok


def d55_test(exponents: dict, keys, cut: float) -> bool:
    """D5.5, an implementation check recorded in the metrics, not a claim (one stochastic gradient costs ``O(MN(d + r²))``, an upper bound): the measured CPU-seconds exponents of
    one gradient named by ``keys`` (in ``d`` with ``r`` fixed, in ``M``, in ``N``: :func:`~.theory.cost_exponent`) are
    each at most ``1 + cut``."""
    cut = check_real("cut", cut, low=0.0)
    if not isinstance(exponents, dict):
        raise TypeError(f"exponents must be a mapping name -> exponent; got {type(exponents).__name__}")
    if isinstance(keys, str) or not hasattr(keys, "__iter__") or not list(keys):
        raise TypeError(f"keys must be a non-empty list of exponent names; got {keys!r}")
    return bool(all(check_statistic(f"exponent of {k}", exponents[check_choice("keys (an entry of)", k, tuple(exponents))]) <= 1.0 + cut
                    for k in keys))


def coarse_record(table: pd.DataFrame, name: str, method: str, share: float) -> bool:
    """Is ``method``'s cost to the target ``share`` on ``name`` an UPPER bound: on at least half its runs it meets the target
    at a record coarser than its iterations (``iterations per record`` > 1, :func:`iterations_per_record`), where an
    unrecorded iterate between that record and the one before may have met it first (at any record, the first or a later
    one)? Where every iterate the method returns is recorded (a record at every step, or at every accepted iterate of a
    line search) the recorded iterate that first meets the target is observed and its cost exact, whether it is the first
    accepted iterate or a later one: the first point a method returns has an exact cost."""
    check_choice("method", method, _pair(table, name))
    share = _share(table, share)
    for col in (f"records to {share:g}", "iterations per record"):
        if col not in table.columns:
            raise ValueError(f"table must hold '{col}' (build it with gp_comparison)")
    v = table.loc[(table.dataset == name) & (table.method == method)]
    return bool(np.mean(np.isfinite(v[f"records to {share:g}"].to_numpy(float)) & (v["iterations per record"].to_numpy(float) > 1)) >= 0.5)


def levels_above(table: pd.DataFrame, name: str, method: str, share: float, plateau: float = PLATEAU) -> bool:
    """Does ``method``'s converged level lie above the target ``share`` on ``name``: on at least half its runs it never
    reaches the target AND has levelled off (:func:`late_gain` below ``plateau``)? A longer budget would not reach it: its
    whole run is no lower bound on a cost (as :func:`capped` reads for a run still descending), it never gets there."""
    check_choice("method", method, _pair(table, name))
    share = _share(table, share)
    plateau = check_real("plateau", plateau, low=0.0)
    v = table.loc[(table.dataset == name) & (table.method == method)]
    return bool(np.mean(np.isinf(v[f"time to {share:g}"].to_numpy(float)) & (v["late gain"].to_numpy(float) < plateau)) >= 0.5)


def never_reaches(table: pd.DataFrame, name: str, method: str, share: float) -> bool:
    """Does ``method`` miss the target ``share`` on ``name`` for good where the OTHER compared method reaches it: ``method``'s
    runs level off above it (:func:`levels_above`) while the other's median cost to it is finite (at least half its runs
    reach it)? Its cost to the target is then infinite, a miss, and the other method wins at that target; a target BOTH
    methods level off above, or that the other misses too, is no target for either (:func:`ratio_bound`: ``None``)."""
    pair = _pair(table, name)
    if not levels_above(table, name, method, share):
        return False
    other = next(m for m in pair if m != check_choice("method", method, pair))
    return bool(np.isfinite(np.median(_amounts(table, name, other, share, "seconds")[0])))


def ratio_bound(table: pd.DataFrame, name: str, lanczos: str, share: float, sgd: str = "SGD"):
    """What the LANCZOS / SGD cost ratio at ``share`` on ``name`` (:func:`time_ratio`) is: ``"exact"``, ``"upper"`` or
    ``"lower"`` (a bound from above or from below), or ``None`` (it bounds nothing). Each method's median cost is exact,
    an UPPER bound where it meets the target at a record coarser than its iterations (:func:`coarse_record`), or
    a LOWER bound where its budget caps it (:func:`capped`, in seconds or in products: runs still descending that never
    reached the target count with their whole run). A method whose runs level off above a target the other reaches
    (:func:`never_reaches`) never gets there: its cost is infinite and the ratio exact (``inf`` or 0: the other wins there,
    however its own finite cost is bounded); a target neither reaches, one levelling off above it, bounds nothing. The
    ratio is an upper bound when LANCZOS's cost is one or SGD's is a lower one, a lower bound in the converse; bounds
    pulling both ways, or a method bounded both ways, bound nothing. A bound decides a claim only in its direction
    (:func:`informative`): a LANCZOS capped by its budget can show SGD faster by a factor, never that it is not; an SGD
    capped by its budget the converse."""
    _runs(table, name, sgd, lanczos)
    if never_reaches(table, name, lanczos, share) or never_reaches(table, name, sgd, share):
        return "exact"

    def side(method):
        if levels_above(table, name, method, share):
            return None
        up, low = coarse_record(table, name, method, share), any(capped(table, name, method, share, u) for u in UNITS)
        return None if (up and low) else "upper" if up else "lower" if low else "exact"

    lan, sg = side(lanczos), side(sgd)
    if lan is None or sg is None:
        return None
    up, low = lan == "upper" or sg == "lower", lan == "lower" or sg == "upper"
    return None if (up and low) else "upper" if up else "lower" if low else "exact"


def informative(table: pd.DataFrame, passes: dict, lanczos: str, share: float, need: str = "all") -> bool:
    """Is a speed claim decided, one-sidedly, on this comparison's table at ``share``? ``passes`` maps each dataset read
    to whether its LANCZOS / SGD ratio passes the claim's bar (a ratio at least some factor: passing says SGD is faster).
    A bar is decided by a ratio that is exact, or bounded the deciding way (:func:`ratio_bound`): a pass by an exact or a
    lower bound, a miss by an exact or an upper bound. ``need="all"``: the claim holds when every dataset passes, so it is
    decided when every pass is and no miss is, or when one miss is; ``need="any"``: the converse (one decided pass
    decides; a miss decides only when every miss is)."""
    check_choice("need", need, ("all", "any"))
    if not isinstance(passes, dict) or not passes:
        raise ValueError("passes must be a non-empty mapping dataset -> bool")
    ok = {}
    for name, p in passes.items():
        bound = ratio_bound(table, name, lanczos, share)
        ok[name] = bound == "exact" or (bound == "lower" and bool(p)) or (bound == "upper" and not bool(p))
    deciding = (lambda v: not v) if need == "all" else bool
    hit = [n for n, p in passes.items() if deciding(p)]
    return bool(any(ok[n] for n in hit)) if hit else bool(all(ok.values()))


def readable_shares(table: pd.DataFrame, name: str, lanczos: str, shares) -> list:
    """The targets of ``shares`` at which a LANCZOS / SGD ratio on ``name`` bounds anything (:func:`ratio_bound` not
    ``None``): a target both methods meet at records coarser than their iterations, or neither reaches (one levelling off above it, the
    other missing it too) is dropped, not the claim; a target one method reaches and the other levels off above is read,
    a miss for the other (:func:`never_reaches`)."""
    return [s_ for s_ in _shares(shares) if ratio_bound(table, name, lanczos, s_) is not None]


def _passes(table, name, lanczos, share, factor, strict=False) -> bool:
    """Does the LANCZOS / SGD ratio on ``name`` at ``share`` reach ``factor`` (exceed it: ``strict``) in CPU seconds AND products?"""
    return bool(all(_at_least(time_ratio(table, name, lanczos, share, unit=u), factor, strict) for u in UNITS))


def d51_informative(table: pd.DataFrame, lanczos: str, share: float, factor: float = 1.5) -> bool:
    """Is D5.1 (:func:`d51_test` in seconds and products) decided at ``share``, one-sidedly (:func:`informative`)?"""
    factor = check_real("factor", factor, low=0.0, low_open=True)
    return informative(table, {"sound": _passes(table, "sound", lanczos, share, factor)}, lanczos, share)


def d53_informative(table: pd.DataFrame, lanczos: str, share: float, tie: float = TIE) -> bool:
    """Is D5.3 (:func:`d53_test` in seconds and products, with its ``tie``) decided at ``share``, one-sidedly (:func:`informative`)?"""
    bar = _tie_bar(tie)
    return informative(table, {n: _passes(table, n, lanczos, share, bar, strict=True) for n in ("sound", "humidity")}, lanczos, share)


def d54_informative(table: pd.DataFrame, lanczos: str, shares, factor: float = 6.0) -> bool:
    """Is D5.4 (:func:`d54_test` over the :func:`readable_shares` of ``shares``, in seconds and products) decided? A
    decided pass at one readable target decides it holds; it fails when every readable target is a decided miss."""
    factor = check_real("factor", factor, low=0.0, low_open=True)
    read = readable_shares(table, "humidity", lanczos, shares)
    if not read:
        return False
    ok = {s_: _passes(table, "humidity", lanczos, s_, factor) for s_ in read}
    if any(ok.values()):
        return any(informative(table, {"humidity": True}, lanczos, s_) for s_, p in ok.items() if p)
    return all(informative(table, {"humidity": False}, lanczos, s_) for s_ in read)


def d51_reading(table: pd.DataFrame, lanczos: str, share: float, factor: float = 1.5):
    """D5.1 at one reading ``(share, factor)``: ``None`` where that reading is undecided (:func:`d51_informative`: a
    pass resting on an upper bound is undecided at EVERY reading, a decided miss decides), else :func:`d51_test` in CPU
    seconds and products."""
    if not d51_informative(table, lanczos, share, factor):
        return None
    return bool(all(d51_test(table, lanczos, share, factor, unit=u) for u in UNITS))


def d53_reading(table: pd.DataFrame, lanczos: str, share: float, tie: float = TIE):
    """D5.3 at the reading ``(share, tie)``: ``None`` where undecided (:func:`d53_informative`), else :func:`d53_test` in CPU
    seconds and products."""
    if not d53_informative(table, lanczos, share, tie):
        return None
    return bool(all(d53_test(table, lanczos, share, unit=u, tie=tie) for u in UNITS))


def d54_reading(table: pd.DataFrame, lanczos: str, shares, factor: float = 6.0):
    """D5.4 at the reading ``factor`` over the :func:`readable_shares` of ``shares``: ``None`` where undecided
    (:func:`d54_informative`), else :func:`d54_test` in CPU seconds and products."""
    if not d54_informative(table, lanczos, shares, factor):
        return None
    read = readable_shares(table, "humidity", lanczos, shares)
    return bool(all(d54_test(table, lanczos, read, factor, unit=u) for u in UNITS))


def decided_share(reading, shares, chosen: float):
    """The target share a claim is judged at: ``chosen`` when its reading there is decided (``reading(share)`` not
    ``None``), else the smallest share of ``shares`` above ``chosen`` that is (a target whose ratio a budget cap or a record
    coarser than the iterations leaves undecided is read further along the way, never nearer the start); ``None`` when
    none is. The walk ends wherever a reading is decided, in a pass or in a miss."""
    check_callable("reading", reading)
    chosen = check_real("chosen", chosen, low=0.0, low_open=True, high=1.0)
    for s_ in [chosen] + sorted(v for v in _shares(shares) if v > chosen):
        r = reading(s_)
        if r is not None and not isinstance(r, bool | np.bool_):
            raise TypeError(f"reading must return True, False or None (undecided); got {r!r}")
        if r is not None:
            return s_
    return None


def choose_eta0(pilot: dict):
    """SGD's step ``eta0`` chosen as a practitioner tunes it, on the likelihood (the objective; the test RMSE is never
    read): ``pilot`` maps each candidate ``eta0`` to the accurate negative log likelihoods (:func:`accurate_nll`) its
    pilot runs reach at the end of the run's budget; the candidate whose WORST pilot run is least wins (a step that
    wanders on one seed is rejected; ties: the smaller eta0). Returns ``(eta0, {eta0: worst likelihood})``."""
    if not isinstance(pilot, dict) or not pilot:
        raise ValueError("pilot must be a non-empty mapping eta0 -> likelihoods of its pilot runs")
    worst = {}
    for e, v in pilot.items():
        e = check_real("pilot (a key of)", e, low=0.0, low_open=True)
        v = as_finite_array(f"pilot[{e:g}]", v, ndim=1, nonempty=True)
        worst[e] = float(np.max(v))
    return min(sorted(worst), key=lambda e: worst[e]), worst


def _map_cells(name: str, cells) -> list:
    """``cells`` as a list of verdict-map cells (:func:`~..verdict_map.cell`: each a mapping with a ``setting`` mapping), or a
    TypeError naming argument ``name``."""
    if isinstance(cells, str | dict) or not hasattr(cells, "__iter__"):
        raise TypeError(f"{name} must be a list of verdict-map cells; got {type(cells).__name__}")
    cells = list(cells)
    for i, c in enumerate(cells):
        if not isinstance(c, dict) or not isinstance(c.get("setting"), dict):
            raise TypeError(f"{name}[{i}] must be a verdict-map cell {{'setting': {{...}}, 'verdict': ...}}; got {c!r}")
    return cells


def size_held(cells, headline="paper's") -> list:
    """The cells of a verdict map (:func:`~..verdict_map.cell`, settings ``{"setting": label, "d": size}``) whose holding
    cannot be told from their data SIZE's: cells that hold decisively at a size other than the ``headline`` one where the
    main setting (label ``"main"``) of the same construction does not fail decisively (it holds there too, or is undecided:
    that size cell among them). A change of the data size is not an open choice of the paper: such a cell rescues
    nothing; a cell holding where the main setting at its size fails decisively is its setting's."""
    from ..verdict_map import decisive
    cells = _map_cells("cells", cells)
    holds = lambda c: c.get("verdict") == "holds" and decisive(c)
    sizes = {(c.get("construction"), c["setting"].get("d")) for c in cells
             if c["setting"].get("setting") == "main" and c["setting"].get("d") != headline and not (c.get("verdict") == "fails" and decisive(c))}
    return [c for c in cells if holds(c) and (c.get("construction"), c["setting"].get("d")) in sizes]


def deciding_numbers(table: pd.DataFrame, lanczos: str, claim: str, shares=None) -> dict:
    """The numbers that decide ``claim`` (``"D5.1"`` to ``"D5.4"``) on ONE comparison's table (:func:`gp_comparison`: SGD
    against ``lanczos``), each named with the target share it is read at, so that a text quoting a cell quotes the share that
    decides it there: D5.1 the sound LANCZOS / SGD cost ratio (:func:`time_ratio`) at ``shares[0]`` (its judged share), D5.3 both
    datasets' at ``shares[0]``, in CPU seconds and products; D5.4 the largest humidity ratio over ``shares`` (its read
    targets, :func:`readable_shares`) per unit and the share where it is reached; D5.2 the humidity stuck shares
    (:func:`stuck_share`, margin 0.02; it reads no share: ``shares`` must be None). ``None`` for a ratio that does not exist (SGD's
    cost 0)."""
    check_choice("claim", claim, ("D5.1", "D5.2", "D5.3", "D5.4"))
    _runs(table, "humidity" if claim in ("D5.2", "D5.4") else "sound", "SGD", lanczos)
    if claim == "D5.2":
        if shares is not None:
            raise ValueError(f"shares must be None for D5.2 (it reads no target share); got {shares!r}")
        return {f"humidity: {m} stuck share": stuck_share(table, "humidity", m, 0.02) for m in ("SGD", lanczos)}
    shares = [_share(table, s_) for s_ in _shares(shares)]
    if claim in ("D5.1", "D5.3"):
        names = ("sound",) if claim == "D5.1" else ("sound", "humidity")
        return {f"{n}: LANCZOS / SGD {u} at share {shares[0]:g}": time_ratio(table, n, lanczos, shares[0], unit=u) for n in names for u in UNITS}
    out = {}
    for u in UNITS:
        got = {s_: time_ratio(table, "humidity", lanczos, s_, unit=u) for s_ in shares}
        got = {s_: r for s_, r in got.items() if r is not None}
        if got:
            top = max(got, key=got.get)
            out[f"humidity: largest LANCZOS / SGD {u} (at share {top:g})"] = got[top]
    return out


def construction_holds(main: dict, readings) -> bool:
    """Does the OTHER construction's claim hold, so that this construction's failure earns ``construction`` (rubric 7:
    the authors' variant gives a different verdict)? Its ``main`` cell at the headline sizes (:func:`~..verdict_map.cell`)
    holds decisively (:func:`~..verdict_map.decisive`: a bootstrap support, the verdict ``inconclusive`` below 90 %) and it
    holds at every reading of its cut-off (``readings``: :func:`~..claims.readings`' list on that construction's table).
    A variant holding at one reading and failing at another is inconclusive itself: it gives no different verdict."""
    from ..verdict_map import decisive
    if not isinstance(main, dict) or not isinstance(main.get("setting"), dict):
        raise TypeError(f"main must be a verdict-map cell {{'setting': {{...}}, 'verdict': ...}}; got {main!r}")
    if isinstance(readings, str | dict) or not hasattr(readings, "__iter__"):
        raise TypeError(f"readings must be a list of {{'value', 'verdict'}}; got {readings!r}")
    readings = list(readings)
    for i, r in enumerate(readings):
        if not isinstance(r, dict) or "verdict" not in r:
            raise TypeError(f"readings[{i}] must be {{'value', 'verdict'}}; got {r!r}")
    if not readings:
        raise ValueError("readings must hold the chosen reading at least")
    return bool(main.get("verdict") == "holds" and decisive(main) and all(r["verdict"] == "holds" for r in readings))


def _labelled(cells, labels) -> list:
    """The cells of ``cells`` whose setting label starts with one of ``labels``."""
    return [c for c in cells if any(str(c["setting"].get("setting", "")).startswith(v) for v in labels)]


#: a verdict-map cell's key: its verdict at the claim's chosen reading alone, kept where the readings turn it (the cell's own
#: verdict is then ``inconclusive``, :func:`~..verdict_map.cell`)
CHOSEN_READING = "at the chosen reading"


def _holds_at_chosen(c: dict) -> bool:
    """Does a cell hold decisively at the claim's chosen reading (:data:`CHOSEN_READING`, else its verdict)?"""
    from ..verdict_map import decisive
    return c.get(CHOSEN_READING, c.get("verdict")) == "holds" and decisive(c)


def own_map_diagnosis(own, other, text: str, headline="paper's", vary=(), unequal=()):
    """A failing claim's diagnosis from its verdict map, where only ``own`` construction's cells can rescue it, and no cell
    by its data size alone (:func:`size_held`: such cells are kept in the evidence, marked ``size`` and without their
    support, so they neither name a ``setting`` nor let ``paper`` through), nor by unequal inputs: a holding cell of
    ``unequal`` (setting labels, matched by their start: cells that give one compared method more work than the main
    cells do, as more probes or Lanczos steps for the baseline only) is kept, marked ``unequal`` and without its support
    (rubric 7: a `setting` rescues on equal inputs). ``None`` when ``own``'s main cell at the
    ``headline`` sizes (setting ``"main"``) holds decisively at the claim's chosen reading (:data:`CHOSEN_READING`, kept
    where its verdict turns within the readings): the claim holds at its chosen setting, there is no failure for
    a map to explain, and a verdict that turns only within the readings of a cut-off is the readings' (the record's
    ``reading``), never a ``setting``. ``setting`` when one of ``own`` other cells holds decisively
    (:func:`~..verdict_map.map_diagnosis`); when only ``unequal`` cells hold, :class:`~..claims.Unearned` naming them;
    when only ``other`` cells hold, :class:`~..claims.Unearned` naming them (a cell
    of the other construction says nothing of this one's setting); when only size cells hold, :class:`~..claims.Unearned`
    naming them; each with what would decide it (those cells at the headline sizes); when none holds,
    :func:`~..verdict_map.map_diagnosis` of both (``paper`` if the map earns it), except that ``paper`` needs every open
    choice of ``vary`` (setting labels, matched by their start) varied in a decisive cell at the ``headline`` sizes: a map
    that leaves out, at the sizes the claim is read at, a choice its verdict depends on earns no ``paper``
    (:class:`~..claims.Unearned` naming what it lacks)."""
    from ..claims import Unearned, setting_text
    from ..verdict_map import decisive, map_diagnosis
    for name, labels in (("vary", vary), ("unequal", unequal)):
        if isinstance(labels, str) or not hasattr(labels, "__iter__") or not all(isinstance(v, str) and v for v in labels):
            raise TypeError(f"{name} must be a list of setting labels; got {labels!r}")
    own, other = list(own), list(other)
    sized = size_held(own + other, headline)
    holds = lambda cells: [c for c in cells if c.get("verdict") == "holds" and decisive(c)]
    if any(c["setting"].get("setting") == "main" and c["setting"].get("d") == headline and _holds_at_chosen(c) for c in own):
        return None
    uneven = [c for c in holds(_labelled(own + other, unequal)) if not any(c is s_ for s_ in sized)]
    notes = {"size": "the main setting does not fail at this size: the size's, not an open choice's",
             "unequal": "one compared method does more work here than in the main cells: unequal inputs, no setting"}
    mark = lambda c: next(({k: v for k, v in c.items() if k != "support"} | {key: notes[key]}
                           for key, group in (("size", sized), ("unequal", uneven)) if any(c is s_ for s_ in group)), c)
    own, other = [mark(c) for c in own], [mark(c) for c in other]
    where = lambda cells: "; ".join(setting_text(c["setting"]) for c in cells)
    decide = ("What would decide it: those cells at the headline sizes (d = 35,000 and 16,930): holding decisively there earns "
              "{earns}; failing there leaves no cell holding, `paper` if every cell is decisive")
    if not holds(own) and any("unequal" in c for c in own):
        return Unearned(f"{text} It holds only where one compared method does more work than in the main cells "
                        f"({where([c for c in own if 'unequal' in c])}): unequal inputs, which rescue nothing (a `setting` needs equal "
                        "inputs). What would decide it: a cell varying an open choice on equal work that holds decisively (`setting`), "
                        "or every cell failing decisively (`paper`)", {"sweep": own + other})
    if not holds(own) and holds(other):
        return Unearned(f"{text} It holds at no setting of this construction's map; it holds only with the other LANCZOS ({where(holds(other))}), "
                        "which cannot rescue this one. " + decide.format(earns="`construction` (both reported)"), {"sweep": own + other})
    if not holds(own) and sized:
        return Unearned(f"{text} It holds only on the map's smaller data ({where(sized)}), where its main setting does not fail "
                        "decisively either: the data size, not an open choice of the paper, may rescue it, and a size is no setting. "
                        + decide.format(earns="`setting` for a cell that holds where the main setting fails"), {"sweep": own + other})
    found = map_diagnosis(own + other, text, no_authors_construction=None)
    at_headline = [str(c["setting"].get("setting", "")) for c in own + other if c["setting"].get("d") == headline and decisive(c)]
    lacks = [v for v in vary if not any(label.startswith(v) for label in at_headline)]
    if isinstance(found, dict) and found["kind"] == "paper" and lacks:
        return Unearned(f"{text} It fails in every cell of the map, but the map does not vary, at the headline sizes (d = {headline}), "
                        f"what the verdict depends on: {'; '.join(lacks)}. What would decide it: cells varying it there, each decisive "
                        "(failing in every one earns `paper`, holding in one `setting`)", {"sweep": own + other})
    return found
