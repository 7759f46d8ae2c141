"""The regime of the matrix-completion experiments (D3, D4): ε and λ of Sec. 5.1 chosen as a practitioner
would, by the held-out RMSE of the model's own optimum on a validation split of the training ratings.

The paper publishes neither ε nor λ. Their choice decides whether the model means anything: with ε so large that
``d √ε`` is most of the objective, the optimum predicts held-out ratings worse than the training mean (issue 41).
So the training ratings are split once more (:func:`hold_out`): the optimum of the objective on the *fit* part
(:func:`~inferopt.spectral.completion.reference_solution`, L-BFGS-B, warm-started along each row of the grid) is
scored on the *validation* part for every ``(ε, λ)`` of a stated grid (:func:`select_regime`); the test ratings
are never looked at. The rule (:func:`choose`) is the one-standard-error rule (Hastie, Tibshirani & Friedman,
*Elements of Statistical Learning*, 2nd ed., Sec. 7.10): among the cells whose validation RMSE is within one
standard error of the best, the smoothest (largest ε: the smoothing parameter set as large as the accuracy
allows), then the best of its row; ``rule="best"`` takes the least validation RMSE.

Session 41 (the review of 4307295: the one-se rule picked ε 10, λ 0.2, where ``b/a`` at the optimum is ~1e6 and the optimal
degree distribution puts ``q0`` = 0.97 of its mass at degree 0 at ``N`` = 15, so SGD learnt nothing): with ``max_q0`` the rule
also asks that the paper's estimator can mean something at the run's mean degree (:func:`usable`, ours): a cell is eligible
only where ``q0`` at ``N`` (:func:`~.conditioning.zero_degree_share` of ``b/a`` at its optimum, Sec. 3.2's distribution (11))
is at most ``max_q0`` (:data:`USABLE_Q0`, readings :data:`USABLE_Q0_READINGS`) and its optimum beats the training mean on the
validation ratings; the rule picks among eligible cells only, and says so where there is none (``usable`` False: the claims
are then not decided, never judged at a meaningless cell).

Session 41 (the paper-scale pilot: on the raw ratings no cell is eligible, where ``q0`` is small the optimum loses to the
training mean): the ratings are part of the regime (:func:`select_ratings_regime`): the grid is run on the raw ratings (the
paper's box [0, 5]) and on the centred ones (:func:`~.completion.centred_ratings`), and :func:`choose_ratings` (ours) keeps
the raw ratings where any raw cell is eligible, else picks among the eligible centred cells by the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from ..._validation import as_finite_array, check_choice, check_int, check_real, check_table
from ...datasets.movielens import split_entries
from ..parallel import run_calls

#: the rules of :func:`choose`
RULES = ("one-se", "best")

#: the largest zero-degree share ``q0`` of the optimal degree distribution at the run's mean degree ``N`` at which a cell is
#: eligible (:func:`usable`; ours, session 41): at most half the draws of the paper's estimator (12) may be degree 0, which
#: holds for ``b/a`` below ~3e3 at ``N`` = 15 (``q0`` 0.46 at 3e3, 0.70 at 1e4, 0.97 at 1e6)
USABLE_Q0 = 0.5

#: the ratings a regime cell is fitted on, in the order :func:`choose_ratings` prefers them (session 41): the raw ones (the
#: paper's box [0, 5]), else the centred ones (the training mean subtracted, the box shifted alike)
RAW, CENTRED = "raw", "centred"
RATINGS_ORDER = (RAW, CENTRED)

#: the readings of :data:`USABLE_Q0` the choice is shown at (:func:`usable_readings`): a quarter to three quarters of draws wasted
USABLE_Q0_READINGS = (0.25, 0.5, 0.75)


def hold_out(data: dict, fraction: float, rng) -> dict:
    """``data`` (``rows, cols, values, shape, test``) with ``fraction`` of its training ratings moved to
    ``data["validation"] = (rows, cols, values)``; the test ratings are kept as they are."""
    if not isinstance(data, dict) or not {"rows", "cols", "values", "shape"} <= set(data):
        raise TypeError("data must be a ratings dict with rows, cols, values and shape (inferopt.datasets.movielens)")
    fraction = check_real("fraction", fraction, low=0.0, high=1.0, low_open=True, high_open=True)
    part = split_entries(data["rows"], data["cols"], data["values"], data["shape"], test_fraction=fraction, rng=rng)
    return {**data, "rows": part["rows"], "cols": part["cols"], "values": part["values"], "validation": part["test"]}


def mean_rmse(train_values, values) -> float:
    """RMSE of predicting every rating of ``values`` by the mean of ``train_values`` (the trivial predictor)."""
    train_values = as_finite_array("train_values", train_values, ndim=1, nonempty=True)
    values = as_finite_array("values", values, ndim=1, nonempty=True)
    return float(np.sqrt(np.mean((values - train_values.mean()) ** 2)))


def rmse_se(errors) -> float:
    """Standard error of the RMSE of the residuals ``errors`` (delta method: ``SD(e²) / (2 RMSE √n)``)."""
    e2 = as_finite_array("errors", errors, ndim=1, nonempty=True) ** 2
    if e2.size < 2:
        raise ValueError("errors must hold at least two residuals")
    rmse = np.sqrt(e2.mean())
    return float(e2.std(ddof=1) / (2.0 * max(rmse, 1e-300) * np.sqrt(e2.size)))


def _chain(make_problem, eps: float, lams, solver_options: dict):
    """The optima along one row of the grid (one ε, the λ in the given order), each warm-started from the last."""
    from ...spectral.completion import reference_solution

    from ...spectral import MatrixCompletion

    out, start = [], None
    for lam in lams:
        problem = make_problem(eps, lam)
        if not isinstance(problem, MatrixCompletion):
            raise TypeError(f"make_problem must return a MatrixCompletion; got {type(problem).__name__}")
        theta, info = reference_solution(problem, theta0=start, **solver_options)
        out.append((theta, info))
        start = theta
    return out


@dataclass
class RegimeSelection:
    """What :func:`select_regime` found: the grid's ``table`` (one row per ``(eps, lam)``: validation RMSE and its
    standard error, the optimum's objective, L-BFGS-B iterations, convergence), the ``chosen`` cell
    ``{"eps", "lam"}``, the ``rule`` and the optimum ``theta`` of every cell (keyed ``(eps, lam)``)."""

    table: pd.DataFrame
    chosen: dict
    rule: str
    theta: dict


def select_regime(make_problem, validation, eps_grid, lam_grid, *, rule: str = "one-se", n_jobs: int = 1,
                  max_iter: int = 3000, gtol: float = 1e-9, N: int | None = None, max_q0: float | None = None) -> RegimeSelection:
    """Score the optimum of ``make_problem(eps, lam)`` (a :class:`~inferopt.spectral.MatrixCompletion` on the fit
    ratings) on the ``validation`` ratings ``(rows, cols, values)`` for every cell of ``eps_grid x lam_grid`` and
    choose one (:func:`choose`). Each ε's row is one task (``n_jobs`` workers), its λ solved in increasing order,
    each from the last one's optimum (the optimum does not depend on the start). With the mean degree ``N`` the table
    also holds the training mean's validation RMSE, ``b/a`` at each optimum (:func:`~.conditioning.spectrum_ratio` on a
    fresh ``make_problem(eps, lam)``, whose seeded bounds make it reproducible) and ``q0`` at ``N``; with ``max_q0`` (needs
    ``N``) the choice is among the cells :func:`usable` at that cut."""
    eps_grid = sorted(check_real("eps_grid (an entry of)", e, low=0.0, low_open=True) for e in eps_grid)
    lam_grid = sorted(check_real("lam_grid (an entry of)", v, low=0.0, low_open=True) for v in lam_grid)
    if not eps_grid or not lam_grid:
        raise ValueError("eps_grid and lam_grid must each hold at least one value")
    if not callable(make_problem):
        raise TypeError("make_problem must be a callable (eps, lam) -> MatrixCompletion")
    if not isinstance(validation, tuple | list) or len(validation) != 3:
        raise TypeError("validation must be the triple (rows, cols, values) of the validation ratings")
    rows, cols, values = (np.asarray(v) for v in validation)
    values = as_finite_array("validation values", values, ndim=1, nonempty=True)
    if not (rows.shape == cols.shape == values.shape) or rows.dtype.kind not in "iu" or cols.dtype.kind not in "iu":
        raise ValueError("validation must hold integer rows and cols and the values, all of the same length")
    options = {"max_iter": check_int("max_iter", max_iter, low=1), "gtol": check_real("gtol", gtol, low=0.0, low_open=True)}
    if N is not None:
        N = check_int("N", N, low=0)
    if max_q0 is not None and N is None:
        raise ValueError("max_q0 needs N, the mean degree its q0 is read at")
    solved = run_calls({eps: partial(_chain, make_problem, eps, lam_grid, options) for eps in eps_grid}, n_jobs=n_jobs)
    records, thetas = [], {}
    for eps in eps_grid:
        for lam, (theta, info) in zip(lam_grid, solved[eps]):
            errors = theta[rows, cols] - values
            thetas[eps, lam] = theta
            records.append({"eps": eps, "lam": lam, "validation RMSE": float(np.sqrt(np.mean(errors ** 2))),
                            "validation SE": rmse_se(errors), "objective": info["objective"], "iterations": info["n_iter"],
                            "converged": info["converged"]})
    table = pd.DataFrame(records)
    if N is not None:
        from .conditioning import spectrum_ratio, zero_degree_share

        table["training-mean validation RMSE"] = mean_rmse(make_problem(eps_grid[0], lam_grid[0]).values, values)
        table["b/a at the optimum"] = [spectrum_ratio(make_problem(e_, l_), thetas[e_, l_]) for e_, l_ in zip(table.eps, table.lam)]
        table["q0 at N"] = [zero_degree_share(r_, N) for r_ in table["b/a at the optimum"]]
    return RegimeSelection(table=table, chosen=choose(table, rule, max_q0=max_q0), rule=rule, theta=thetas)


def usable(table: pd.DataFrame, max_q0: float) -> pd.Series:
    """Per cell of a grid ``table`` (:func:`select_regime`'s, with ``N``), whether the paper's estimator can mean something
    there (session 41, ours): the optimal degree distribution's zero-degree share ``q0 at N`` at most ``max_q0`` (at ``q0``
    near 1 almost every draw of the estimator (12) is degree 0, its gradient a rescaled constant term, and SGD learns
    nothing: 0.97 at the paper run's cell) and the optimum beating the training mean on the validation ratings."""
    check_table("table", table, ("validation RMSE", "training-mean validation RMSE", "q0 at N"))
    max_q0 = check_real("max_q0", max_q0, low=0.0, high=1.0)
    q0 = table["q0 at N"].to_numpy(float)
    better = table["validation RMSE"].to_numpy(float) < table["training-mean validation RMSE"].to_numpy(float)
    return pd.Series(np.isfinite(q0) & (q0 <= max_q0) & better, index=table.index)


def choose(table: pd.DataFrame, rule: str = "one-se", *, max_q0: float | None = None) -> dict:
    """The chosen ``{"eps", "lam"}`` of a grid ``table`` (columns ``eps, lam, validation RMSE, validation SE``):
    ``"best"`` the least validation RMSE; ``"one-se"`` the largest ε with a cell within one standard error of the
    best (``RMSE <= best RMSE + its SE``), and there the λ of least validation RMSE. With ``max_q0`` (session 41) the rule
    runs on the cells :func:`usable` at that cut only, and the result carries ``"usable"``: False where no cell is (the
    rule then runs on the whole grid, and the caller says the claims cannot be decided there)."""
    check_choice("rule", rule, RULES)
    check_table("table", table)
    missing = {"eps", "lam", "validation RMSE", "validation SE"} - set(table.columns)
    if missing or len(table) == 0:
        raise ValueError(f"table must be a non-empty grid with columns eps, lam, validation RMSE, validation SE; "
                         f"missing {sorted(missing)}")
    ok = None if max_q0 is None else usable(table, max_q0)
    pool = table if ok is None or not ok.any() else table[ok]
    best = pool.loc[pool["validation RMSE"].idxmin()]
    if rule == "best":
        pick = best
    else:
        near = pool[pool["validation RMSE"] <= best["validation RMSE"] + best["validation SE"]]
        row = near[near["eps"] == near["eps"].max()]
        pick = row.loc[row["validation RMSE"].idxmin()]
    out = {"eps": float(pick["eps"]), "lam": float(pick["lam"])}
    return out if ok is None else out | {"usable": bool(ok.any())}


def choose_ratings(table: pd.DataFrame, rule: str = "one-se", *, max_q0: float = USABLE_Q0) -> dict:
    """The chosen ``{"eps", "lam", "ratings", "usable"}`` of a grid ``table`` over the ratings too (a ``ratings`` column of
    :data:`RATINGS_ORDER`, :func:`select_ratings_regime`; session 41, ours): the cells :func:`usable` at ``max_q0`` are
    eligible; the raw ratings (the paper's box) are kept where any raw cell is eligible, else the centred ones where any
    centred cell is, and :func:`choose`'s ``rule`` picks among that side's eligible cells. Where no cell is eligible,
    ``usable`` is False and the cell is :func:`choose`'s on the raw ratings (named, never judged)."""
    check_table("table", table, ("ratings",))
    unknown = set(table["ratings"]) - set(RATINGS_ORDER)
    if unknown:
        raise ValueError(f"table's ratings must be among {RATINGS_ORDER}; got {sorted(map(str, unknown))}")
    sides = {r: table[table["ratings"] == r].reset_index(drop=True) for r in RATINGS_ORDER}
    for ratings, part in sides.items():
        if len(part) and usable(part, max_q0).any():
            return choose(part, rule, max_q0=max_q0) | {"ratings": ratings}
    fallback = next(r for r in RATINGS_ORDER if len(sides[r]))
    return choose(sides[fallback], rule) | {"ratings": fallback, "usable": False}


def select_ratings_regime(data: dict, eps_grid, lam_grid, *, N: int, rule: str = "one-se", max_q0: float = USABLE_Q0,
                          n_jobs: int = 1, max_iter: int = 3000) -> RegimeSelection:
    """:func:`select_regime` over the ratings too (session 41): the grid ``eps_grid x lam_grid`` on the raw ratings of ``data``
    (:func:`hold_out`'s, the paper's box [0, 5]) and on the centred ones (:func:`~.completion.centred_ratings`), each cell's
    ``b/a`` and ``q0`` at the mean degree ``N``; the table carries a ``ratings`` column, ``theta`` is keyed ``(eps, lam)`` on
    the raw ratings and ``(eps, lam, "centred")`` on the centred (:func:`~.completion_map.cell_key`'s keys), and the choice is
    :func:`choose_ratings`'s."""
    from .completion import centred_ratings, completion_problem

    if not isinstance(data, dict) or "validation" not in data:
        raise TypeError("data must be a ratings dict with its validation split (hold_out)")
    if "mean" in data:
        raise ValueError("data must be the raw ratings (the centred side is centred here); got centred ratings (their 'mean')")
    tables, thetas = [], {}
    for ratings in RATINGS_ORDER:
        D = data if ratings == RAW else centred_ratings(data)
        part = select_regime(partial(completion_problem, D, rng=0), D["validation"], eps_grid, lam_grid, rule=rule, n_jobs=n_jobs,
                             max_iter=max_iter, N=N)
        tables.append(part.table.assign(ratings=ratings))
        thetas |= {key if ratings == RAW else key + (ratings,): theta for key, theta in part.theta.items()}
    table = pd.concat(tables, ignore_index=True)
    return RegimeSelection(table=table, chosen=choose_ratings(table, rule, max_q0=max_q0), rule=rule, theta=thetas)


def usable_readings(table: pd.DataFrame, rule: str = "one-se", readings=USABLE_Q0_READINGS) -> dict:
    """The cell :func:`choose` picks at each cut ``max_q0`` of ``readings`` (:data:`USABLE_Q0_READINGS`): ``{cut: {"eps",
    "lam", "usable"}}``, how far the choice turns on our cut."""
    if isinstance(readings, str) or not hasattr(readings, "__iter__") or not list(readings):
        raise TypeError(f"readings must be a non-empty list of cuts on q0; got {readings!r}")
    cuts = [check_real("readings (an entry of)", q, low=0.0, high=1.0) for q in readings]
    return {q: choose(table, rule, max_q0=q) for q in cuts}


def projected_gradient(problem, theta) -> float:
    """``max |P(θ - ∇f(θ)) - θ|``: the projected gradient of the objective ``f`` of ``problem`` (a
    :class:`~inferopt.spectral.MatrixCompletion`, Sec. 5.1) over its box at ``theta``, zero exactly at a minimiser (the
    first-order condition of a convex problem on a box; what L-BFGS-B's ``gtol`` stops on): how converged an optimum
    of :func:`select_regime` is, read against its value at the start."""
    from ...spectral import MatrixCompletion

    if not isinstance(problem, MatrixCompletion):
        raise TypeError(f"problem must be a MatrixCompletion; got {type(problem).__name__}")
    theta = as_finite_array("theta", theta, ndim=2)
    _, grad = problem.value_and_grad(theta)
    return float(np.max(np.abs(problem.project(theta - grad) - theta)))
