"""D4's deciding code (inferopt.experiment.spectral.completion_degrees): the panel step tuning with its grid extended
past an edge, SGD-DET's exact bias and fixed point, D4.2 read on the runs' levels (D4.3: test_degree_claims.py); each decision holds and fails on constructed inputs, and bad arguments are refused by name."""

import numpy as np
import pandas as pd
import pytest

from inferopt.experiment.spectral.completion import completion_problem
from inferopt.experiment.spectral.completion_degrees import (det_fixed_point, det_gradient_bias, det_own_fixed_point,
                                                             run_levels, truncated_gradient, tune_panel_steps)
from inferopt.spectral import ChebyshevSeries, SpectralSolveResult
from inferopt.spectral.completion import reference_solution
from inferopt.spectral.gradients import grad_lowrank

PANELS = {"c": ["optimal", "poisson"], "d": ["SGD N=10", "SGD-DET N=10"]}


def pilots_best_at(best, calls=None):
    """Pilots whose validation RMSE is least at the factor ``best[panel]`` for every arm of that panel."""
    of = {a: best[pn] for pn, arms in PANELS.items() for a in arms}

    def pilots(grid):
        if calls is not None:
            calls.append(grid)
        return pd.DataFrame([{"arm": a, "factor": f, "validation RMSE": 1.0 + np.log(f / of[a]) ** 2} for a, fs in grid.items() for f in fs])
    return pilots


GRID = [0.25, 0.5, 1.0, 2.0, 4.0]


def test_tune_panel_steps_extends_the_grid_past_an_edge():
    calls = []
    tb, chosen, edges = tune_panel_steps(pilots_best_at({"c": 1.0, "d": 16.0}, calls), PANELS, GRID, rounds=3, step_ratio=2.0)
    # panel c bracketed at once; panel d's best (16) is two doublings past the grid's top: extended to 8, 16, 32, then bracketed
    assert chosen == {"optimal": 1.0, "poisson": 1.0, "SGD N=10": 16.0, "SGD-DET N=10": 16.0}
    assert edges == {"c": None, "d": None}
    assert calls[1] == {"SGD N=10": [8.0], "SGD-DET N=10": [8.0]} and len(calls) == 4 and len(tb) == 4 * 5 + 2 * 3
    # too few rounds: the edge is left and flagged
    _, chosen, edges = tune_panel_steps(pilots_best_at({"c": 1.0, "d": 16.0}), PANELS, GRID, rounds=1, step_ratio=2.0)
    assert chosen["SGD N=10"] == 8.0 and edges == {"c": None, "d": "high"}
    # the low edge: extended downwards
    _, chosen, edges = tune_panel_steps(pilots_best_at({"c": 0.125, "d": 1.0}), PANELS, GRID, rounds=2, step_ratio=2.0)
    assert chosen["optimal"] == 0.125 and edges == {"c": None, "d": None}
    _, chosen, edges = tune_panel_steps(pilots_best_at({"c": 0.125, "d": 1.0}), PANELS, GRID, rounds=0, step_ratio=2.0)
    assert chosen["optimal"] == 0.25 and edges["c"] == "low"


def test_tune_panel_steps_refuses_bad_arguments():
    pilots = pilots_best_at({"c": 1.0, "d": 1.0})
    with pytest.raises(TypeError, match="pilots"):
        tune_panel_steps("pilots", PANELS, GRID, rounds=1, step_ratio=2.0)
    with pytest.raises(TypeError, match="panels"):
        tune_panel_steps(pilots, {}, GRID, rounds=1, step_ratio=2.0)
    with pytest.raises(ValueError, match="factors"):
        tune_panel_steps(pilots, PANELS, [0.0, 1.0], rounds=1, step_ratio=2.0)
    with pytest.raises(ValueError, match="rounds"):
        tune_panel_steps(pilots, PANELS, GRID, rounds=-1, step_ratio=2.0)
    with pytest.raises(ValueError, match="step_ratio"):
        tune_panel_steps(pilots, PANELS, GRID, rounds=1, step_ratio=1.0)


# ----------------------------------------------------------------------------- exact gradients, SGD-DET's bias


def small_problem(seed=0, d=12, r=9):
    rng = np.random.default_rng(seed)
    truth = rng.normal(size=(d, 2)) @ rng.normal(size=(2, r))
    idx = rng.permutation(d * r)
    rows, cols = np.divmod(idx, r)
    train, test = idx[: d * r * 2 // 3], idx[d * r * 2 // 3:]
    data = {"rows": rows[: train.size], "cols": cols[: train.size], "values": truth.ravel()[train], "shape": (d, r),
            "test": (rows[train.size:], cols[train.size:], truth.ravel()[test]), "low": -6.0, "high": 6.0}
    return completion_problem(data, eps=0.5, lam=1.0, rng=seed)


def test_truncated_gradient_is_the_mean_of_the_probe_estimator():
    rng = np.random.default_rng(1)
    theta = rng.normal(size=(7, 5))
    a, b = 0.3, 0.3 + 1.1 * np.linalg.norm(theta, 2) ** 2
    coeffs = ChebyshevSeries("sqrt", a, b).coefficients(6)
    # the d basis vectors as probes: the estimator's (1/M) sum over probes is the exact trace's gradient / d
    exact = truncated_gradient(theta, 0.3, coeffs, a, b)
    assert np.allclose(7 * grad_lowrank(theta, 0.3, np.eye(7), coeffs, a, b), exact, rtol=1e-9, atol=1e-12)
    # the same with theta wide (the other Gram side)
    assert np.allclose(5 * grad_lowrank(theta.T, 0.3, np.eye(5), coeffs, a, b), truncated_gradient(theta.T, 0.3, coeffs, a, b))


def test_det_gradient_bias_falls_with_the_degree_and_vanishes_with_the_whole_series():
    rng = np.random.default_rng(2)
    theta = rng.normal(size=(8, 6))
    a, b = 0.2, 0.2 + 1.1 * np.linalg.norm(theta, 2) ** 2
    series = ChebyshevSeries("sqrt", a, b)
    bias = [det_gradient_bias(theta, 0.2, series.coeffs, a, b, n)["relative"] for n in (3, 10, series.coeffs.size)]
    assert bias[0] > bias[1] > bias[2] and bias[2] < 1e-8
    with pytest.raises(ValueError, match="degree"):
        det_gradient_bias(theta, 0.2, series.coeffs, a, b, -1)
    with pytest.raises(ValueError, match="a < b"):
        det_gradient_bias(theta, 0.2, series.coeffs, b, a, 3)


def test_det_fixed_point_is_the_optimum_with_the_whole_series_and_moves_with_a_low_degree():
    problem = small_problem()
    star, _ = reference_solution(problem, max_iter=500)
    full, info = det_fixed_point(problem, star, 200, max_iter=300)
    assert abs(info["test RMSE"] - problem.metric(star)) < 1e-4
    low, info_low = det_fixed_point(problem, star, 2, max_iter=300)
    assert np.linalg.norm(low - star) > 10 * np.linalg.norm(full - star)
    assert info_low["objective"] >= problem.objective(star) - 1e-6   # the exact objective is least at the optimum
    with pytest.raises(ValueError, match="theta_star"):
        det_fixed_point(problem, star[:-1], 3)


def test_det_own_fixed_point_is_where_the_arms_own_map_stays():
    """Session 41: SGD-DET takes its interval at every iterate, so its fixed point is a point whose own interval built the
    truncated objective it minimises. det_fixed_point on the optimum's interval is not one (its point's interval differs, and
    the arm's mean-gradient step moves it); det_own_fixed_point's is (the step leaves it), and a cycle of intervals is flagged."""
    problem = small_problem()
    star, _ = reference_solution(problem, max_iter=500)

    def moved(theta, degree=3):       # how far one projected step of the arm's mean gradient, interval taken at theta, moves it
        a, b = problem.interval(theta)
        grad = truncated_gradient(theta, problem.eps, ChebyshevSeries("sqrt", a, b).coefficients(degree), a, b) + problem.g_grad(theta)
        return float(np.max(np.abs(problem.project(theta - 0.1 * grad) - theta)))

    old, info_old = det_fixed_point(problem, star, 3, max_iter=300)
    own, info = det_own_fixed_point(problem, star, 3, max_iter=300)
    assert problem.interval(old) != (info_old["a"], info_old["b"])              # the optimum's interval is not the point's own
    assert info["self-consistent"] and problem.interval(own) == info["intervals"][-1] and info["alternations"] > 1
    assert info["intervals"][0] == (info_old["a"], info_old["b"])               # its first alternation is det_fixed_point's
    assert moved(own) < 1e-3 * moved(old)
    assert abs(info["test RMSE"] - info_old["test RMSE"]) > 1e-3                 # the floor moves with it
    _, cycle = det_own_fixed_point(problem, star, 2, max_iter=300)               # degree 2: the intervals come back, no fixed point
    assert not cycle["self-consistent"]
    with pytest.raises(ValueError, match="alternations"):
        det_own_fixed_point(problem, star, 3, alternations=0)
    with pytest.raises(TypeError, match="problem"):
        det_own_fixed_point("problem", star, 3)


def test_det_fixed_point_runs_rounds_until_converged():
    """Session 32: D3's fixed point did not converge within one L-BFGS-B run; ``rounds`` restarts it from the last point
    until L-BFGS-B's own test is met (one round, the default, is D4's single run). Converged: the truncated objective's
    projected gradient at the point is far below the one-round point's."""
    from inferopt.experiment.spectral.completion_degrees import _apply, _eig_side, _series_derivative

    problem = small_problem()
    star, _ = reference_solution(problem, max_iter=500)
    start = star + 0.5                                        # away from the fixed point, so that three steps do not reach it

    def projected(theta, info, degree=3):                     # the truncated objective's projected gradient (its first-order test)
        coeffs = ChebyshevSeries("sqrt", info["a"], info["b"]).coefficients(degree)
        lam, U, small_right = _eig_side(theta)
        grad = _apply(theta, 2.0 * _series_derivative(coeffs, info["a"], info["b"], lam + problem.eps), lam, U, small_right) \
            + problem.g_grad(theta)
        return float(np.max(np.abs(problem.project(theta - grad) - theta)))

    one, info1 = det_fixed_point(problem, start, 3, max_iter=3, interval=problem.interval(star))
    many, info = det_fixed_point(problem, start, 3, max_iter=3, interval=problem.interval(star), rounds=500)
    assert not info1["converged"] and info1["rounds"] == 1 and info1["n_iter"] <= 3
    assert info["converged"] and 1 < info["rounds"] <= 500 and info["n_iter"] > 3
    assert projected(many, info) < 1e-3 * projected(one, info1)
    same, info_same = det_fixed_point(problem, start, 3, max_iter=300, interval=problem.interval(star), rounds=5)
    assert info_same["rounds"] == 1 and info_same["converged"]  # converged in its first round: no other round runs
    with pytest.raises(ValueError, match="rounds"):
        det_fixed_point(problem, start, 3, rounds=0)
    with pytest.raises(TypeError, match="problem"):
        det_fixed_point("problem", star, 3)


# ----------------------------------------------------------------------------- D4.2 on the levels


def curve(level, rate=0.0, n=21):
    """A run's trace: ``level`` plus an exponential transient of rate ``rate`` (0: flat at ``level``)."""
    it = np.arange(n) * 10
    rmse = level + (0.3 * np.exp(-rate * it) if rate else 0.0) + 0 * it
    return SpectralSolveResult(x=np.zeros(1), objective=np.full(n, np.nan), n_iter=int(it[-1]), converged=False, message="",
                               times=it.astype(float), iterations=it, metric=rmse)


def level_table(det_lo, det_hi, sgd_lo, sgd_hi, rate=0.0, seeds=5, jitter=0.002):
    runs = {}
    for s in range(seeds):
        e = jitter * (s - (seeds - 1) / 2)
        runs |= {("d", "SGD-DET N=10", s): curve(det_lo + e, rate), ("d", "SGD-DET N=30", s): curve(det_hi + e, rate),
                 ("d", "SGD N=10", s): curve(sgd_lo + e, rate), ("d", "SGD N=30", s): curve(sgd_hi + e, rate)}
    return run_levels(runs, 0.5)


def test_run_levels_reads_the_window_and_its_drift():
    tb = run_levels({("d", "m", 0): curve(1.0), ("d", "m", 1): curve(1.0, rate=0.005)}, 0.5)
    assert tb.loc[0, "level"] == pytest.approx(1.0) and tb.loc[0, "drift"] == pytest.approx(0.0)
    assert tb.loc[1, "drift"] > 0.01 and tb.loc[1, "points"] == 11
    with pytest.raises(ValueError, match="window"):
        run_levels({("d", "m", 0): curve(1.0)}, 0.1)
    with pytest.raises(ValueError, match="window"):
        run_levels({("d", "m", 0): curve(1.0)}, 1.5)
