"""D3's steps, tuned on the validation split as a practitioner would (Sec. 5.1 of the paper gives no step).

The paper runs GD, SGD, SVRG and SGD-DET on MovieLens without stating their steps. Every arm's initial step is
``c / L`` (:func:`~.completion.lipschitz_step`), ``c`` chosen by one rule for all: a pilot run per factor on the
validation split of the training ratings (:func:`pilot_runs`), the factor of least validation RMSE at the pilot's end
(:func:`~.completion.choose_steps`); where the chosen factor sits at an edge of the arm's grid, the grid is extended
by ``step_ratio`` beyond it, up to ``rounds`` times (:func:`tune_steps`), an edge left flagged
(:func:`~.completion.grid_edge`). The test ratings never enter the choice.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_callable, check_choices, check_int, check_real
from .completion import METHODS, choose_steps, completion_calls, completion_problem, grid_edge, lipschitz_step


def scaled_budget(seconds, share: float):
    """A budget of ``seconds`` CPU seconds on the whole matrix, times the ``share`` of the matrix a subsample holds
    (D3.4's sizes run each method for its share of the whole matrix's budget); None (iteration budgets) stays None."""
    share = check_real("share", share, low=0.0, low_open=True, high=1.0)
    if seconds is None:
        return None
    return check_real("seconds", seconds, low=0.0, low_open=True) * share


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
               sgd_decay: float, M: int, N: int, svrg_inner: int, eval_every: int, n_jobs: int = 1,
               progress: bool = False) -> pd.DataFrame:
    """One pilot run per arm and factor of ``grid`` (``{arm: [factor, ...]}``) on the validation split of ``data``
    (:func:`~.regime.hold_out`; the validation ratings take the test ratings' place) at ``(eps, lam)``: initial step
    ``factor / L`` (:func:`~.completion.lipschitz_step`), ``budget`` CPU seconds (None: ``iters`` steps), each its own
    stream (experiment ``"D3 tune <label> <factor>"``, seed ``seed``), as the main runs
    (:func:`~.completion.completion_calls`: ``sgd_decay``, ``M`` probes, mean degree ``N``, SVRG's epochs
    ``svrg_inner``, an evaluation every ``eval_every`` steps). Returns one row per pilot: ``dataset`` (``name``), ``arm``,
    ``factor`` and its ``validation RMSE`` at its end, what :func:`~.completion.choose_steps` reads."""
    from ..parallel import run_calls

    if not isinstance(data, dict) or not {"rows", "cols", "values", "shape", "validation"} <= set(data):
        raise TypeError("data must be a ratings dict with rows, cols, values, shape and validation (hold_out)")
    if not isinstance(name, str) or not isinstance(label, str):
        raise TypeError(f"name and label must be strings; got {name!r}, {label!r}")
    grid = _grid(grid)
    iters = check_int("iters", iters, low=1)
    step = lipschitz_step(lam, eps)
    val = {**data, "test": data["validation"]}
    calls = {}
    for m, fs in grid.items():
        for f_ in fs:
            calls |= {(m, f_): c for (_, _m, _k), c in completion_calls(
                partial(completion_problem, val, eps, lam), np.zeros(data["shape"]), name=name, experiment=f"D3 tune {label} {f_:g}",
                seed=seed, n_seeds=1, methods=(m,), step=f_ * step, sgd_decay=sgd_decay, M=M, N=N, svrg_inner=svrg_inner,
                max_iter=iters, gd_iter=iters, max_time=budget, eval_every=eval_every).items()}
    done = run_calls(calls, n_jobs=n_jobs, progress=f"step tuning {label}" if progress else False)
    return pd.DataFrame([{"dataset": name, "arm": m, "factor": f_, "validation RMSE": float(r.metric[-1])} for (m, f_), r in done.items()])


def tune_steps(pilots, grid: dict, *, rounds: int, step_ratio: float) -> tuple:
    """Each arm's step factor tuned on the validation split: ``pilots(grid)`` runs one pilot per arm and factor of a
    grid ``{arm: [factor, ...]}`` and returns their table (:func:`pilot_runs`); each arm takes the factor of least
    validation RMSE (:func:`~.completion.choose_steps`). Where an arm's chosen factor sits at an edge of the factors it
    tried (:func:`~.completion.grid_edge`), its grid is extended by ``step_ratio`` beyond that edge (one more pilot),
    up to ``rounds`` times; an edge left after them is flagged.

    Decides each arm's step: bracketed (its edge None) when its best factor lies inside what it tried, else at the
    ``"low"`` or ``"high"`` edge. Returns ``(pilots' table, {arm: factor}, {arm: edge or None})``."""
    check_callable("pilots", pilots)
    grid = _grid(grid)
    rounds = check_int("rounds", rounds, low=0)
    step_ratio = check_real("step_ratio", step_ratio, low=1.0, low_open=True)
    tb = pilots(grid)
    for _ in range(rounds):
        chosen = choose_steps(tb)
        edge = grid_edge(tb, chosen)
        more = {m: [chosen[m] / step_ratio if side == "low" else chosen[m] * step_ratio] for m, side in edge.items() if side}
        if not more:
            break
        tb = pd.concat([tb, pilots(more)], ignore_index=True)
    chosen = choose_steps(tb)
    return tb, chosen, grid_edge(tb, chosen)


def around(factors: dict, step_ratio: float, methods=METHODS) -> dict:
    """The grid a verdict-map cell re-tunes each arm's step on: its main ``factors[arm]`` divided by ``step_ratio``,
    times one and times ``step_ratio`` (``{arm: [f / r, f, f r]}`` for every arm of ``methods``)."""
    if not isinstance(factors, dict):
        raise TypeError(f"factors must be a mapping arm -> step factor; got {type(factors).__name__}")
    methods = check_choices("methods", methods, set(factors))
    step_ratio = check_real("step_ratio", step_ratio, low=1.0, low_open=True)
    return {m: [factors[m] / step_ratio, factors[m], factors[m] * step_ratio] for m in methods}
