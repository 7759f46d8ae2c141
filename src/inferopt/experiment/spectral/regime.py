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
                  max_iter: int = 3000, gtol: float = 1e-9) -> RegimeSelection:
    """Score the optimum of ``make_problem(eps, lam)`` (a :class:`~inferopt.spectral.MatrixCompletion` on the fit
    ratings) on the ``validation`` ratings ``(rows, cols, values)`` for every cell of ``eps_grid x lam_grid`` and
    choose one (:func:`choose`). Each ε's row is one task (``n_jobs`` workers), its λ solved in increasing order,
    each from the last one's optimum (the optimum does not depend on the start)."""
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
    return RegimeSelection(table=table, chosen=choose(table, rule), rule=rule, theta=thetas)


def choose(table: pd.DataFrame, rule: str = "one-se") -> dict:
    """The chosen ``{"eps", "lam"}`` of a grid ``table`` (columns ``eps, lam, validation RMSE, validation SE``):
    ``"best"`` the least validation RMSE; ``"one-se"`` the largest ε with a cell within one standard error of the
    best (``RMSE <= best RMSE + its SE``), and there the λ of least validation RMSE."""
    check_choice("rule", rule, RULES)
    check_table("table", table)
    missing = {"eps", "lam", "validation RMSE", "validation SE"} - set(table.columns)
    if missing or len(table) == 0:
        raise ValueError(f"table must be a non-empty grid with columns eps, lam, validation RMSE, validation SE; "
                         f"missing {sorted(missing)}")
    best = table.loc[table["validation RMSE"].idxmin()]
    if rule == "best":
        pick = best
    else:
        near = table[table["validation RMSE"] <= best["validation RMSE"] + best["validation SE"]]
        row = near[near["eps"] == near["eps"].max()]
        pick = row.loc[row["validation RMSE"].idxmin()]
    return {"eps": float(pick["eps"]), "lam": float(pick["lam"])}


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
