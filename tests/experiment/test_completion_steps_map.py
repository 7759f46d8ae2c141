"""D3's step tuning (inferopt.experiment.spectral.completion_steps) and verdict map
(inferopt.experiment.spectral.completion_map): each deciding function holds and fails on constructed inputs, and
refuses bad arguments by name."""

import numpy as np
import pandas as pd
import pytest

from inferopt.datasets.movielens import synthetic_low_rank_ratings
from inferopt.experiment.spectral import centred_ratings, hold_out, run_table, select_regime
from inferopt.experiment.spectral.completion import completion_problem
from inferopt.experiment.spectral.completion_map import (CENTRED_CELL, MAP_CLAIMS, RAW_CELL, cell_data, cell_key, centred_diagnosis, claim_tests,
                                                         cell_budget, map_budgets, map_run_table, more_seeds, map_settings, on_centred, on_grid, optimum_quality,
                                                         split_by_quality, supported, verdict_map)
from inferopt.experiment.spectral.completion_steps import (LATE_SHARE, STABLE_LIMIT, all_rejected, around, capped, choose_stable, diverged,
                                                             tuned_decays, far_from_optimum, late_rmse, pilot_runs,
                                                             step_cap, tune_steps)
from completion_runs import OPT, START, falling, result  # this folder's constructed runs

TARGETS = {"0.72": 0.64, "0.85": 0.575, "1": 0.5}


def runs_of(curves, n_seeds=5, name="d"):
    """{(name, method, seed): result} from {method: curve or a list of per-seed curves}; GD deterministic."""
    out = {}
    for m, c in curves.items():
        if m == "GD":
            out[name, m, None] = result(c)
        else:
            out |= {(name, m, s): result(c[s] if isinstance(c, list) else c) for s in range(n_seeds)}
    return out


def table_of(curves, n_seeds=5, name="d"):
    return run_table(runs_of(curves, n_seeds, name), {name: TARGETS}, {name: None}, M=2, stay=True)


# SGD reaches 0.85 of the way (0.575) at 3 s, GD at 9 s, SVRG at 2 s: D3.2 and D3.3 hold; swapped, they fail
FAST = {"GD": falling(0.05), "SGD": falling(0.15), "SVRG": falling(0.25), "SGD-DET": falling(0.02, 0.8)}
SLOW = {"GD": falling(0.25), "SGD": falling(0.02, 0.8), "SVRG": falling(0.05), "SGD-DET": falling(0.02, 0.9)}


# ----------------------------------------------------------------------------- step tuning


def quadratic_pilots(best, calls=None):
    """Pilots whose validation RMSE is least at the factor ``best`` of every arm (a parabola in log f); none blows up."""
    def pilots(grid):
        if calls is not None:
            calls.append(grid)
        return pd.DataFrame([{"dataset": "d", "arm": m, "factor": f, "validation RMSE": 1.0 + np.log(f / best[m]) ** 2,
                              "late validation RMSE": 1.0 + np.log(f / best[m]) ** 2, "objective / optimum": 1.0, "start / optimum": 10.0} for m, fs in grid.items() for f in fs])
    return pilots


def test_tune_steps_brackets_the_best_step_or_flags_the_edge_left():
    calls = []
    tb, chosen, edges = tune_steps(quadratic_pilots({"GD": 0.25, "SGD": 0.0625}, calls), {"GD": [0.0625, 0.25, 1.0], "SGD": [0.0625, 0.25, 1.0]},
                                   rounds=2, step_ratio=4.0)
    # SGD's best sits at the grid's low edge: extended once to 1/64, where it is bracketed; GD's is inside from the start
    assert chosen == {"GD": 0.25, "SGD": 0.0625} and edges == {"GD": None, "SGD": None}
    assert calls[1] == {"SGD": [0.015625]} and len(calls) == 2 and len(tb) == 7 and not tb.rejected.any()
    # the best step 1/256 is two extensions below the grid: two rounds reach it but leave it at the edge (fails to bracket) ...
    _, chosen, edges = tune_steps(quadratic_pilots({"GD": 1 / 256}), {"GD": [0.0625, 0.25, 1.0]}, rounds=1, step_ratio=4.0)
    assert chosen == {"GD": 1 / 64} and edges == {"GD": "low"}
    _, chosen, edges = tune_steps(quadratic_pilots({"GD": 1 / 256}), {"GD": [0.0625, 0.25, 1.0]}, rounds=3, step_ratio=4.0)
    assert chosen == {"GD": 1 / 256} and edges == {"GD": None}
    # a best step beyond the stability limit: never tried, the cap (0.95 of the limit) taken and flagged
    calls = []
    _, chosen, edges = tune_steps(quadratic_pilots({"GD": 64.0}, calls), {"GD": [0.25, 1.0, 4.0]}, rounds=3, step_ratio=2.0)
    assert chosen == {"GD": step_cap()} and edges == {"GD": "cap"} and step_cap() == 0.95 * STABLE_LIMIT
    assert calls == [{"GD": [0.25, 1.0, step_cap()]}]      # 4 capped; no extension past the cap


def test_all_rejected_flags_an_arm_whose_every_pilot_diverged():
    """Session 36 (helper-278): tune_steps' table keeps which pilots diverged; an arm whose every pilot did is flagged (its
    factor is the least objective's, no step the rule chose), one with a surviving pilot is not. Session 38: a pilot far
    from the optimum but below its start is flagged far, not rejected."""
    def pilots(grid):
        return pd.DataFrame([{"dataset": "d", "arm": m, "factor": f, "validation RMSE": 1.0 + f, "late validation RMSE": 1.0 + f,
                              "objective / optimum": 3.0 + f if m == "SGD" else 1.0 + f, "start / optimum": 3.5}
                             for m, fs in grid.items() for f in fs])
    tb, chosen, _ = tune_steps(pilots, {"GD": [0.25, 1.0], "SGD": [0.25, 1.0]}, rounds=0, step_ratio=2.0)
    # SGD at 0.25 ends at 3.25x the optimum, below its start (3.5x): far, not diverged; at 1.0 at 4x, above it: diverged
    assert all_rejected(tb) == {"GD": False, "SGD": False} and chosen == {"GD": 0.25, "SGD": 0.25}
    assert tb.set_index(["arm", "factor"]).rejected.to_dict() == {("GD", 0.25): False, ("GD", 1.0): False,
                                                                  ("SGD", 0.25): False, ("SGD", 1.0): True}
    assert tb.set_index(["arm", "factor"]).far.to_dict() == {("GD", 0.25): False, ("GD", 1.0): False,
                                                             ("SGD", 0.25): True, ("SGD", 1.0): True}
    tb, chosen, _ = tune_steps(lambda g: pilots(g).assign(**{"start / optimum": 1.5}), {"GD": [0.25, 1.0], "SGD": [0.25, 1.0]},
                               rounds=0, step_ratio=2.0)
    assert all_rejected(tb) == {"GD": False, "SGD": True} and chosen == {"GD": 0.25, "SGD": 0.25}
    assert all_rejected(tb.assign(rejected=tb.arm == "SGD") ) == {"GD": False, "SGD": True}
    assert all_rejected(tb.assign(rejected=(tb.arm == "SGD") & (tb.factor == 1.0))) == {"GD": False, "SGD": False}
    with pytest.raises(ValueError, match="rejected"):
        all_rejected(tb.drop(columns="rejected"))


def gd_pilots(L, steps=60, optimum=0.0):
    """Pilots of GD on the quadratic f(x) = L x^2 / 2 + x^2 / 2 (curvature L + 1, known) from x = 1, the step factor in
    units of 1 / (L + 1): the objective at the end over the start's (a diverging run grows without bound), the
    "validation RMSE" |x| at the end, which a too-large step that happens to land near 0 can make small."""
    Lt = L + 1.0

    def pilots(grid):
        rows = []
        for m, fs in grid.items():
            for f in fs:
                x = (1.0 - f) ** steps          # x_k = (1 - eta Lt)^k x_0 with eta = f / Lt
                rmse = abs(x) if abs(f - 2.5) > 1e-9 else 0.0
                rows.append({"dataset": "d", "arm": m, "factor": f, "validation RMSE": rmse, "late validation RMSE": rmse,
                             "objective / optimum": (Lt * x * x / 2 + 1.0) / 1.0, "start / optimum": Lt / 2 + 1.0})
        return pd.DataFrame(rows)
    return pilots


def test_the_tuner_never_returns_an_unstable_step_on_a_quadratic_of_known_curvature():
    # brute force over grids, ratios and rounds: every chosen factor is below the stability limit c < 2 of GD on a quadratic
    # of curvature L (|1 - c| < 1), even when a pilot at c = 2.5 (unstable) is made to look best by its validation RMSE
    for L in (0.5, 2.0, 10.0):
        for grid in ([0.25, 1.0, 4.0], [0.5, 2.0, 2.5, 8.0], [1.0, 2.5], [0.125, 0.25]):
            for ratio in (2.0, 4.0):
                for rounds in (0, 1, 3):
                    tb, chosen, _ = tune_steps(gd_pilots(L), {"GD": grid}, rounds=rounds, step_ratio=ratio)
                    assert chosen["GD"] < STABLE_LIMIT and abs(1.0 - chosen["GD"]) < 1.0
                    assert (tb.factor < STABLE_LIMIT).all()
    assert capped({"GD": [1.0, 2.0, 4.0]}, 1.9) == {"GD": [1.0, 1.9]}
    with pytest.raises(ValueError, match="cap"):
        tune_steps(gd_pilots(1.0), {"GD": [1.0]}, rounds=0, step_ratio=2.0, cap=2.0)
    with pytest.raises(ValueError, match="share"):
        step_cap(1.0)


def test_choose_stable_rejects_a_diverging_pilot_and_can_fail_to():
    pilots = pd.DataFrame({"arm": ["GD"] * 3, "factor": [0.5, 1.0, 1.9], "validation RMSE": [1.05, 1.02, 0.99],
                           "late validation RMSE": [1.05, 1.02, 0.99],
                           "objective / optimum": [1.2, 1.1, 40.0], "start / optimum": 15.0})
    # the least validation RMSE belongs to a pilot whose objective ends 40x the optimum's, above its start's 15x: it
    # diverged (session 28's box-pinned c = 4), rejected, 1.0 taken
    assert choose_stable(pilots) == ({"GD": 1.0}, {"GD": False})
    # the same pilot from a start farther off (50x) descended: it is far, not divergent, and the rule takes it
    assert choose_stable(pilots.assign(**{"start / optimum": 50.0})) == ({"GD": 1.9}, {"GD": False})
    # session 38's SGD pilots: 2.4-5.1x the optimum at the end from 11-19x: all descended, the least RMSE taken
    sgd = pd.DataFrame({"arm": "SGD", "factor": [0.0625, 0.125, 0.25, 0.5], "validation RMSE": [3.15, 2.56, 2.07, 2.13],
                        "late validation RMSE": [3.15, 2.56, 2.07, 2.13],
                        "objective / optimum": [1.63, 2.39, 3.95, 4.07], "start / optimum": 11.0})
    assert choose_stable(sgd) == ({"SGD": 0.25}, {"SGD": False})
    assert far_from_optimum(sgd).tolist() == [False, True, True, True] and not diverged(sgd).any()
    # every pilot diverged: the least objective, flagged
    assert choose_stable(pilots.assign(**{"objective / optimum": [19.0, 16.0, 40.0]})) == ({"GD": 1.0}, {"GD": True})
    # a non-finite validation RMSE is rejected
    assert choose_stable(pilots.assign(**{"validation RMSE": [1.05, np.nan, 0.99], "objective / optimum": 1.0}))[0] == {"GD": 1.9}
    with pytest.raises(ValueError, match="far"):
        far_from_optimum(pilots, far=1.0)
    with pytest.raises(ValueError, match="table"):
        choose_stable(pilots.drop(columns="objective / optimum"))
    with pytest.raises(ValueError, match="start / optimum"):
        choose_stable(pilots.drop(columns="start / optimum"))


def test_the_step_is_scored_where_the_pilot_stays_not_where_its_last_record_lands():
    """Session 45 (the review of D3.3): the paper run's SVRG pilots ended at validation RMSE 0.991 at 1.9/L (an oscillating
    run, its objective 1.24x the optimum's) against 0.996 at 1.0/L (1.004x): on the end-point the unstable step won. Scored on
    the late validation RMSE (the mean over the last quarter of records, late_rmse) the stable one does; the old rule (the
    end-point column) picks 1.9 on this table, the new one 1.0."""
    stable = result(np.maximum(1.2 - 0.05 * np.arange(11.0), 0.996))                       # settles at 0.996
    unstable = result(np.where(np.arange(11) % 2 == 0, 0.991, 1.10))                       # jumps; its last record dips to 0.991
    assert late_rmse(stable) == pytest.approx(0.996) and late_rmse(unstable) > 1.02
    assert late_rmse(unstable, share=1 / 11) == pytest.approx(0.991) and LATE_SHARE == 0.25
    assert late_rmse(stable, work=2.0) == pytest.approx(1.1)                                 # the records at or before the work read
    table = pd.DataFrame({"arm": "SVRG", "factor": [1.0, 1.9], "validation RMSE": [float(stable.metric[-1]), float(unstable.metric[-1])],
                          "late validation RMSE": [late_rmse(stable), late_rmse(unstable)],
                          "objective / optimum": [1.004, 1.24], "start / optimum": 11.0})
    old = table["factor"][table["validation RMSE"].idxmin()]                                 # the old rule: the end-point
    assert old == 1.9 and choose_stable(table) == ({"SVRG": 1.0}, {"SVRG": False})
    decays = table.assign(arm="SGD", factor=0.5, decay=[0.0, 0.01])
    assert tuned_decays(decays, {"SGD": 0.5}) == {"SGD": 0.0}                                # the decay alike
    with pytest.raises(ValueError, match="late validation RMSE"):
        choose_stable(table.drop(columns="late validation RMSE"))
    with pytest.raises(ValueError, match="share"):
        late_rmse(stable, share=0.0)
    with pytest.raises(TypeError, match="result"):
        late_rmse(np.zeros(3))


def test_sgd_decay_is_tuned_with_the_step_and_reaches_the_runs():
    """Session 41: SGD's and SGD-DET's decay is tuned over a grid with the step (the review of 4307295: only the first step
    was); of the pilots at the chosen factor, the decay of least validation RMSE among those that did not diverge."""
    pilots = pd.DataFrame({"arm": ["SGD"] * 6 + ["GD"], "factor": [0.25, 0.25, 0.25, 0.5, 0.5, 0.5, 1.9],
                           "decay": [0.0, 0.01, 0.1, 0.0, 0.01, 0.1, np.nan],
                           "validation RMSE": [1.10, 1.05, 1.00, 1.20, 0.95, 1.30, 0.99],
                           "late validation RMSE": [1.10, 1.05, 1.00, 1.20, 0.95, 1.30, 0.99],
                           "objective / optimum": [3.0, 2.0, 30.0, 3.0, 2.0, 2.5, 1.1], "start / optimum": 15.0})
    chosen, _ = choose_stable(pilots)
    assert chosen == {"SGD": 0.5, "GD": 1.9}
    assert tuned_decays(pilots, chosen) == {"SGD": 0.01}                                # GD carries no decay
    assert tuned_decays(pilots, {"SGD": 0.25}) == {"SGD": 0.01}                         # 0.1's pilot diverged (30x > 15x)
    assert tuned_decays(pilots.assign(**{"late validation RMSE": 1.0}), {"SGD": 0.25}) == {"SGD": 0.0}   # a tie: the smaller
    with pytest.raises(ValueError, match="decay"):
        tuned_decays(pilots.drop(columns="decay"), chosen)
    # each decaying arm its own decay in the runs; a decay for an arm not run is not asked for
    from inferopt.experiment.spectral.completion import _decays_of
    assert _decays_of({"SGD": 0.1, "SGD-DET": 0.0}, ("GD", "SGD", "SGD-DET", "SVRG")) == {"SGD": 0.1, "SGD-DET": 0.0}
    assert _decays_of(0.01, ("GD", "SGD")) == {"SGD": 0.01} and _decays_of({"SGD": 0.1}, ("GD", "SVRG")) == {}
    with pytest.raises(ValueError, match="sgd_decay"):
        _decays_of({"SGD": 0.1}, ("SGD", "SGD-DET"))


def test_pilot_runs_try_every_decay_for_the_decaying_arms_only(raw):
    D = raw
    tb = pilot_runs(D, 10.0, 1.0, {"GD": [1.0], "SGD": [0.5]}, name="m", label="m", budget=None, iters=4, seed=0, sgd_decay=0.01, M=2,
                    N=3, svrg_inner=2, eval_every=2, optimum=1.0, decays=[0.0, 0.1])
    assert sorted(zip(tb.arm, tb.decay.fillna(-1))) == [("GD", -1.0), ("SGD", 0.0), ("SGD", 0.1)]
    assert tb.loc[tb.arm == "SGD", "validation RMSE"].nunique() == 2                  # the decay changes the run
    with pytest.raises(TypeError, match="decays"):
        pilot_runs(D, 10.0, 1.0, {"SGD": [0.5]}, name="m", label="m", budget=None, iters=2, seed=0, sgd_decay=0.01, M=2, N=3,
                   svrg_inner=2, eval_every=1, optimum=1.0, decays="0.1")


def test_tune_steps_and_around_refuse_bad_arguments():
    pilots = quadratic_pilots({"GD": 1.0})
    with pytest.raises(TypeError, match="pilots"):
        tune_steps("pilots", {"GD": [1.0]}, rounds=1, step_ratio=4.0)
    with pytest.raises(ValueError, match="grid's arms"):
        tune_steps(pilots, {"Adam": [1.0]}, rounds=1, step_ratio=4.0)
    with pytest.raises(ValueError, match=r"grid\['GD'\]"):
        tune_steps(pilots, {"GD": [0.0, 1.0]}, rounds=1, step_ratio=4.0)
    with pytest.raises(ValueError, match="rounds"):
        tune_steps(pilots, {"GD": [1.0]}, rounds=-1, step_ratio=4.0)
    with pytest.raises(ValueError, match="step_ratio"):
        tune_steps(pilots, {"GD": [1.0]}, rounds=1, step_ratio=1.0)
    assert around({"GD": 1.0, "SGD": 0.25}, 2.0, methods=("GD", "SGD")) == {"GD": [0.5, 1.0, 1.9], "SGD": [0.125, 0.25, 0.5]}
    with pytest.raises(ValueError, match="methods"):
        around({"GD": 1.0}, 4.0)
    with pytest.raises(TypeError, match="factors"):
        around([1.0], 4.0)


@pytest.fixture(scope="module")
def raw():
    D = synthetic_low_rank_ratings(30, 24, 2, 300, rng=5, test_fraction=0.2, noise=0.3)
    return hold_out(D, 0.2, 7)


@pytest.fixture(scope="module")
def small(raw):
    return centred_ratings(raw)


def test_pilot_runs_score_every_arm_and_factor_on_the_validation_split(small):
    common = dict(name="d", label="t", budget=None, iters=3, seed=0, sgd_decay=0.01, M=2, N=3, svrg_inner=2, eval_every=1, optimum=1.0)
    tb = pilot_runs(small, 10.0, 1.0, {"GD": [1.0, 4.0], "SGD": [1.0]}, **common)
    assert list(tb.columns) == ["dataset", "arm", "factor", "validation RMSE", "late validation RMSE", "objective", "objective / optimum",
                                "start / optimum"]
    assert (tb["objective"] > 0).all() and np.allclose(tb["objective / optimum"], tb["objective"])
    # from zero, GD at c = 1 and SGD descend; GD at c = 4, beyond the stability limit 2, ends above its start: diverged
    assert diverged(tb).tolist() == [(m, f) == ("GD", 4.0) for m, f in zip(tb.arm, tb.factor)]
    assert sorted(zip(tb.arm, tb.factor)) == [("GD", 1.0), ("GD", 4.0), ("SGD", 1.0)] and np.isfinite(tb["validation RMSE"]).all()
    again = pilot_runs(small, 10.0, 1.0, {"GD": [1.0, 4.0], "SGD": [1.0]}, **common)
    assert again["validation RMSE"].tolist() == tb["validation RMSE"].tolist()       # each pilot its own stream: reproducible
    with pytest.raises(TypeError, match="data"):
        pilot_runs({k: v for k, v in small.items() if k != "validation"}, 10.0, 1.0, {"GD": [1.0]}, **common)
    with pytest.raises(ValueError, match="iters"):
        pilot_runs(small, 10.0, 1.0, {"GD": [1.0]}, **(common | {"iters": 0}))
    with pytest.raises(ValueError, match="eps"):
        pilot_runs(small, -1.0, 1.0, {"GD": [1.0]}, **common)
    with pytest.raises(ValueError, match="optimum"):
        pilot_runs(small, 10.0, 1.0, {"GD": [1.0]}, **(common | {"optimum": 0.0}))


# ----------------------------------------------------------------------------- the verdict map's settings and budgets


def test_map_settings_land_on_the_regimes_grid():
    assert on_grid(100 * 0.1, [1.0, 10.0, 100.0]) == 10.0 and on_grid(100 * 0.1, [1.0]) == 100 * 0.1
    s = map_settings(100.0, 1.0, eps_factors=[0.1, 1000], lam_factors=[5, 0.2], eps_grid=[10.0, 100.0], lam_grid=[0.2, 1.0])
    assert s == {"eps x 0.1": {"eps": 10.0, "lam": 1.0}, "eps x 1000": {"eps": 1e5, "lam": 1.0},
                 "lam x 5": {"eps": 100.0, "lam": 5.0}, "lam x 0.2": {"eps": 100.0, "lam": 0.2}}
    with pytest.raises(TypeError, match="grid"):
        on_grid(1.0, "10")
    with pytest.raises(ValueError, match="eps_factors"):
        map_settings(100.0, 1.0, eps_factors=[0.0], lam_factors=[], eps_grid=[], lam_grid=[])
    with pytest.raises(ValueError, match="lam"):
        map_settings(100.0, -1.0, eps_factors=[], lam_factors=[], eps_grid=[], lam_grid=[])
    # the centred cell: the chosen eps and lam on the centred ratings, beside the others (off unless asked)
    both = map_settings(100.0, 1.0, eps_factors=[0.1], lam_factors=[], eps_grid=[10.0, 100.0], lam_grid=[1.0], beside=True)
    assert both == {"eps x 0.1": {"eps": 10.0, "lam": 1.0}, CENTRED_CELL: {"eps": 100.0, "lam": 1.0, "ratings": "centred"}}
    assert CENTRED_CELL not in map_settings(100.0, 1.0, eps_factors=[0.1], lam_factors=[], eps_grid=[], lam_grid=[])
    # session 41: chosen on the centred ratings, the cells around stay on them and the raw cell (the paper's box) is beside
    cen = map_settings(100.0, 1.0, eps_factors=[0.1], lam_factors=[], eps_grid=[10.0], lam_grid=[1.0], ratings="centred", beside=True)
    assert cen == {"eps x 0.1": {"eps": 10.0, "lam": 1.0, "ratings": "centred"}, RAW_CELL: {"eps": 100.0, "lam": 1.0}}
    with pytest.raises(TypeError, match="beside"):
        map_settings(100.0, 1.0, eps_factors=[], lam_factors=[], eps_grid=[], lam_grid=[], beside="yes")
    with pytest.raises(ValueError, match="ratings"):
        map_settings(100.0, 1.0, eps_factors=[], lam_factors=[], eps_grid=[], lam_grid=[], ratings="scaled")


def test_a_centred_cell_runs_on_the_centred_ratings_and_keeps_its_own_optimum(raw):
    centred = {"eps": 10.0, "lam": 1.0, "ratings": "centred"}
    assert on_centred(centred) and not on_centred({"eps": 10.0, "lam": 1.0})
    assert cell_key(centred) == (10.0, 1.0, "centred") and cell_key({"eps": 10.0, "lam": 1.0}) == (10.0, 1.0)
    assert cell_data(raw, {"eps": 10.0, "lam": 1.0}) is raw                       # a raw cell: the paper's box, as given
    D = cell_data(raw, centred)                                                  # the centred cell: ratings less the training mean
    mu = float(np.mean(raw["values"]))
    assert D["mean"] == pytest.approx(mu) and np.allclose(D["values"], raw["values"] - mu) and (D["low"], D["high"]) == (-mu, 5.0 - mu)
    assert np.allclose(D["validation"][2], raw["validation"][2] - mu) and np.allclose(D["test"][2], raw["test"][2] - mu)
    with pytest.raises(ValueError, match=r"setting\['ratings'\]"):
        cell_data(raw, centred | {"ratings": "scaled"})
    with pytest.raises(TypeError, match="setting"):
        cell_key({"eps": 10.0})
    with pytest.raises(ValueError, match=r"setting\['lam'\]"):
        cell_key({"eps": 10.0, "lam": 0.0, "ratings": "centred"})
    with pytest.raises(TypeError, match="data"):
        cell_data({"rows": []}, centred)
    with pytest.raises(ValueError, match="data"):                              # centred twice
        cell_data(D, centred)


def test_map_budgets_give_the_map_at_least_gds_own_time_to_the_target():
    reached = table_of(FAST)                                      # GD reaches 0.575 at 9 s, after 9 steps
    assert map_budgets(reached, "d", "0.85", budget=None, map_budget=None, map_iters=4, gd_iters=40, tune_budget=None) == \
        {"budget": None, "iters": 9, "tune": None}
    assert map_budgets(reached, "d", "0.85", budget=20.0, map_budget=2.0, map_iters=4, gd_iters=40, tune_budget=3.0) == \
        {"budget": 9.0, "iters": 9, "tune": 2.0}                   # raised to GD's 9 s; the pilots at most map_budget
    never = table_of(SLOW | {"GD": falling(0.01)})                 # GD never reaches it: the whole budget, gd_iters steps
    assert map_budgets(never, "d", "0.85", budget=20.0, map_budget=2.0, map_iters=4, gd_iters=40, tune_budget=30.0) == \
        {"budget": 20.0, "iters": 40, "tune": 2.0}
    with pytest.raises(ValueError, match="name"):
        map_budgets(reached, "e", "0.85", budget=None, map_budget=None, map_iters=4, gd_iters=40, tune_budget=None)
    with pytest.raises(ValueError, match="map_iters"):
        map_budgets(reached, "d", "0.85", budget=None, map_budget=None, map_iters=0, gd_iters=40, tune_budget=None)
    with pytest.raises(ValueError, match="columns"):
        map_budgets(reached, "d", "0.5", budget=None, map_budget=None, map_iters=4, gd_iters=40, tune_budget=None)


def test_optimum_quality_reads_the_regimes_optimum_or_solves_an_off_grid_cell(raw):
    from functools import partial

    from inferopt.spectral import rmse

    sel = select_regime(partial(completion_problem, raw), raw["validation"], [10.0], [1.0], max_iter=50)
    q = optimum_quality(sel, {"eps": 10.0, "lam": 1.0}, raw, N=5, max_iter=50)
    assert q["validation RMSE of the optimum"] == float(sel.table["validation RMSE"].iloc[0]) and len(sel.table) == 1
    assert set(q) == {"validation RMSE of the optimum", "training-mean validation RMSE", "b/a at the optimum", "q0 at N"}
    assert q["b/a at the optimum"] > 1 and 0 <= q["q0 at N"] <= 1
    off = optimum_quality(sel, {"eps": 1e4, "lam": 1.0}, raw, N=5, max_iter=50)   # off the grid: solved and added to the selection
    assert (1e4, 1.0) in sel.theta and len(sel.table) == 2 and np.isfinite(off["validation RMSE of the optimum"])
    # the centred cell at the chosen eps and lam: its own optimum on the centred ratings, kept apart from the regime's grid
    # (no row of it), its spectrum far narrower (the raw ratings' top singular value is the mean's)
    centred = {"eps": 10.0, "lam": 1.0, "ratings": "centred"}
    qc = optimum_quality(sel, centred, raw, N=5, max_iter=50)
    assert (10.0, 1.0, "centred") in sel.theta and len(sel.table) == 2
    assert not np.allclose(sel.theta[10.0, 1.0], sel.theta[10.0, 1.0, "centred"])
    assert qc["b/a at the optimum"] < q["b/a at the optimum"] / 2
    D = cell_data(raw, centred)
    assert qc["validation RMSE of the optimum"] == pytest.approx(rmse(sel.theta[cell_key(centred)], *D["validation"]))
    assert qc["training-mean validation RMSE"] == pytest.approx(q["training-mean validation RMSE"])   # the mean's RMSE: shift-free
    given = sel.theta[cell_key(centred)] * 0.5                                 # an optimum given beforehand is read, not solved
    sel.theta[cell_key(centred)] = given
    again = optimum_quality(sel, centred, raw, N=5, max_iter=50)
    assert sel.theta[cell_key(centred)] is given and again["validation RMSE of the optimum"] == pytest.approx(rmse(given, *D["validation"]))
    with pytest.raises(TypeError, match="selection"):
        optimum_quality({}, {"eps": 10.0, "lam": 1.0}, raw, N=5, max_iter=50)
    with pytest.raises(ValueError, match="N"):
        optimum_quality(sel, {"eps": 10.0, "lam": 1.0}, raw, N=0, max_iter=50)
    with pytest.raises(TypeError, match="data"):
        optimum_quality(sel, {"eps": 10.0, "lam": 1.0}, {"rows": []}, N=5, max_iter=50)
    with pytest.raises(TypeError, match="setting"):
        optimum_quality(sel, 10.0, raw, N=5, max_iter=50)
    with pytest.raises(ValueError, match=r"setting\['ratings'\]"):
        optimum_quality(sel, centred | {"ratings": "raw"}, raw, N=5, max_iter=50)


def test_optimum_quality_reads_the_raw_row_of_a_grid_over_both_ratings(raw):
    """Session 41: select_ratings_regime's table holds a raw and a centred row per (eps, lam); a raw cell reads the raw row
    (the old code read the first row of that eps and lam, whichever ratings), an off-grid raw cell is added as a raw row."""
    import pandas as pd

    from inferopt.experiment.spectral import select_ratings_regime

    sel = select_ratings_regime(raw, [10.0], [1.0], N=5, max_iter=50)
    sel.table = pd.concat([sel.table[sel.table.ratings == "centred"], sel.table[sel.table.ratings == "raw"]], ignore_index=True)
    q = optimum_quality(sel, {"eps": 10.0, "lam": 1.0}, raw, N=5, max_iter=50)
    assert q["validation RMSE of the optimum"] == float(sel.table.loc[sel.table.ratings == "raw", "validation RMSE"].iloc[0])
    assert q["validation RMSE of the optimum"] != float(sel.table.loc[sel.table.ratings == "centred", "validation RMSE"].iloc[0])
    optimum_quality(sel, {"eps": 1e4, "lam": 1.0}, raw, N=5, max_iter=50)
    assert sel.table.ratings.tolist() == ["centred", "raw", "raw"]


def test_split_by_quality_keeps_the_cells_that_beat_the_training_mean():
    q = {"a": {"validation RMSE of the optimum": 0.9, "training-mean validation RMSE": 1.0},
         "b": {"validation RMSE of the optimum": 1.0, "training-mean validation RMSE": 1.0}}
    settings = {"a": {"eps": 10.0, "lam": 1.0}, "b": {"eps": 1e5, "lam": 1.0}}
    kept, worse = split_by_quality(q, settings, "d")
    assert kept == {"a": settings["a"]} and worse == [{"dataset": "d", "eps": 1e5, "lam": 1.0}]    # a tie is no better
    kept, worse = split_by_quality(q, {"a": settings["a"]}, "d")
    assert kept == {"a": settings["a"]} and worse == []
    with pytest.raises(ValueError, match="settings' labels"):
        split_by_quality(q, {"c": settings["a"]}, "d")
    with pytest.raises(ValueError, match=r"quality\['a'\]"):
        split_by_quality({"a": {"validation RMSE of the optimum": 0.9}}, {"a": settings["a"]}, "d")
    with pytest.raises(TypeError, match="dataset"):
        split_by_quality(q, settings, 3)
    # a centred cell dropped keeps its ratings, so that the diagnosis tells it from the raw cell at the same eps, lam
    centred = {"eps": 10.0, "lam": 1.0, "ratings": "centred"}
    kept, worse = split_by_quality(q | {CENTRED_CELL: q["b"]}, {"a": settings["a"], CENTRED_CELL: centred}, "d")
    assert kept == {"a": settings["a"]} and worse == [{"dataset": "d", "eps": 10.0, "lam": 1.0, "ratings": "centred"}]
    with pytest.raises(ValueError, match=r"setting\['ratings'\]"):
        split_by_quality(q, {"a": settings["a"] | {"ratings": "z-scored"}}, "d")


# ----------------------------------------------------------------------------- the claims' tests at every cell


def test_claim_tests_hold_and_fail_with_their_readings_fixed_on_the_table():
    good, bad = table_of(FAST), table_of(SLOW)
    tests = claim_tests(good, {"d": None}, "0.85")
    assert set(tests) == set(MAP_CLAIMS)
    assert tests["D3.2"](good) is True and tests["D3.3"](good) is True and tests["D3.1"](good) is True
    tests = claim_tests(bad, {"d": None}, "0.85")
    assert tests["D3.2"](bad) is False and tests["D3.3"](bad) is False
    # SVRG at 2 s against GD's 9 s: 4.5x faster, enough for a factor 3, not for 5
    assert claim_tests(good, {"d": None}, "0.85", factor=3.0)["D3.3"](good) is True
    assert claim_tests(good, {"d": None}, "0.85", factor=5.0)["D3.3"](good) is False
    with pytest.raises(TypeError, match="budget"):
        claim_tests(good, None, "0.85")
    with pytest.raises(ValueError, match="factor"):
        claim_tests(good, {"d": None}, "0.85", factor=0.5)
    with pytest.raises(ValueError, match="reading"):
        claim_tests(good, {"d": None}, "0.5")


def test_supported_is_the_bootstrap_over_seeds_or_none_when_not_measured():
    good = table_of(FAST)
    s = supported(good, claim_tests(good, {"d": None}, "0.85")["D3.2"], seed=0)
    assert s["method"] == "bootstrap" and s["fraction_holding"] == 1.0 and s["unit"] == "seed"
    assert supported(good, lambda t: None, seed=0) is None
    with pytest.raises(TypeError, match="test"):
        supported(good, "D3.2", seed=0)
    with pytest.raises(ValueError, match="seed"):
        supported(good, lambda t: True, seed=-1)


def cell_input(table, budget=None, setting=None):
    return dict(setting=setting or {"eps": 100.0, "lam": 1.0}, table=table, budget={"d": budget},
                quality={"validation RMSE of the optimum": 0.9, "training-mean validation RMSE": 1.0}, optimum=OPT,
                factors={m: 1.0 for m in FAST}, edges={m: None for m in FAST})


def test_verdict_map_decides_each_cell_on_decisive_seeds_only():
    few = table_of(FAST, n_seeds=3)
    cells, rows = verdict_map({"chosen": cell_input(table_of(SLOW)), "eps x 10": cell_input(few, setting={"eps": 1e3, "lam": 1.0}),
                               "lam x 5": cell_input(table_of(FAST), setting={"eps": 100.0, "lam": 5.0})},
                              dataset="d", reading="0.85", n_seeds=5, seed=0)
    d32 = {c["setting"]["eps"] * c["setting"]["lam"]: c for c in cells["D3.2"]}
    assert d32[100.0]["verdict"] == "fails" and d32[100.0]["support"] == 0.0          # the main runs fail, decisively
    assert d32[1e3]["verdict"] == "inconclusive" and "3 seeds, fewer than 5: measured holds" in d32[1e3]["undecided"]
    assert d32[500.0]["verdict"] == "holds" and d32[500.0]["seeds"] == 5               # a decisive cell where it holds
    assert [r["cell"] for r in rows] == ["chosen", "eps x 10", "lam x 5"]
    assert rows[0]["D3.2 holds"] is False and rows[2]["D3.2 holds"] is True and rows[1]["seeds"] == 3
    assert rows[0]["GD final test RMSE"] == pytest.approx(OPT) and rows[0]["dataset"] == "d" and rows[0]["optimum test RMSE"] == OPT
    with pytest.raises(TypeError, match="cells"):
        verdict_map({}, dataset="d", reading="0.85", n_seeds=5, seed=0)
    with pytest.raises(ValueError, match=r"cells\['chosen'\]"):
        verdict_map({"chosen": {"table": few}}, dataset="d", reading="0.85", n_seeds=5, seed=0)
    with pytest.raises(ValueError, match=r"cells\['chosen'\]\['factors'\]"):
        verdict_map({"chosen": cell_input(few) | {"factors": {"GD": 1.0}}}, dataset="d", reading="0.85", n_seeds=5, seed=0)
    with pytest.raises(ValueError, match=r"cells\['chosen'\]\['budget'\]"):
        verdict_map({"chosen": cell_input(few) | {"budget": {"e": None}}}, dataset="d", reading="0.85", n_seeds=5, seed=0)


def test_map_run_table_reads_a_cell_against_its_own_optimum():
    runs = {("eps x 10",) + k: r for k, r in runs_of(FAST, n_seeds=3).items()} | {("lam x 5",) + k: r for k, r in runs_of(SLOW).items()}
    tb = map_run_table(runs, "eps x 10", dataset="d", start=START, optimum=OPT, shares=[0.85, 1.0], budget={"d": None}, M=2)
    assert set(tb.method) == set(FAST) and tb.seed.nunique() == 3 and {"time to 0.85", "time to 1"} <= set(tb.columns)
    assert tb.loc[tb.method == "SVRG", "time to 0.85"].iloc[0] == 2.0
    # another optimum moves the targets: 0.85 of the way to 0.9 is 0.915, which GD reaches at 2 s
    tb = map_run_table(runs, "eps x 10", dataset="d", start=START, optimum=0.9, shares=[0.85], budget={"d": None}, M=2)
    assert tb.loc[tb.method == "GD", "time to 0.85"].iloc[0] == 2.0
    with pytest.raises(ValueError, match="label"):
        map_run_table(runs, "chosen", dataset="d", start=START, optimum=OPT, shares=[0.85], budget={"d": None}, M=2)
    with pytest.raises(ValueError, match="shares"):
        map_run_table(runs, "eps x 10", dataset="d", start=START, optimum=OPT, shares=[0.0], budget={"d": None}, M=2)
    with pytest.raises(TypeError, match="runs"):
        map_run_table([], "eps x 10", dataset="d", start=START, optimum=OPT, shares=[0.85], budget={"d": None}, M=2)


def test_the_literal_cell_runs_at_the_main_budget_and_reads_the_papers_rmse():
    """Session 43's review: the paper's literal cell (raw box, theta = 0, where the regime is centred) runs at the main budget, its
    table holding the paper's absolute target (RMSE 1.5) beside the shares; every other cell keeps the map's budget."""
    assert cell_budget(RAW_CELL, 300.0, 600.0) == 600.0
    assert cell_budget("eps x 10", 300.0, 600.0) == 300.0 and cell_budget(CENTRED_CELL, 300.0, 600.0) == 300.0
    assert cell_budget(RAW_CELL, None, None) is None
    runs = {("raw", "d", m, s): result(falling(0.1)) for m in ("GD", "SVRG") for s in ([None] if m == "GD" else [0, 1])}
    tb = map_run_table(runs, "raw", dataset="d", start=START, optimum=OPT, shares=[0.85], budget={"d": None}, M=2,
                       absolute={"RMSE 0.7": 0.7})
    assert "time to RMSE 0.7" in tb.columns and (tb["time to RMSE 0.7"] == 3.0).all()   # 1.0 - 0.1 t reaches 0.7 at t = 3
    with pytest.raises(TypeError, match="absolute"):
        map_run_table(runs, "raw", dataset="d", start=START, optimum=OPT, shares=[0.85], budget={"d": None}, M=2, absolute=[0.7])
    with pytest.raises(ValueError, match="absolute"):
        map_run_table(runs, "raw", dataset="d", start=START, optimum=OPT, shares=[0.85], budget={"d": None}, M=2, absolute={"x": -1.0})
    # the literal cell always gets its remaining seeds; another cell only where a rescue is still possible
    no, yes = {"D3.3": {"possible": False}}, {"D3.3": {"possible": True}}
    assert more_seeds({RAW_CELL: no, "eps x 10": no, "lam x 5": yes}) == [RAW_CELL, "lam x 5"]
    with pytest.raises(TypeError, match="bounds"):
        more_seeds([RAW_CELL])
    with pytest.raises(TypeError, match="label"):
        cell_budget(None, 300.0, 600.0)
    with pytest.raises(ValueError, match="map_budget"):
        cell_budget(RAW_CELL, -1.0, 600.0)


# ----------------------------------------------------------------------------- what the map runs, and when a cell may stop


def test_map_claims_and_arms_run_only_what_a_diagnosis_needs():
    from inferopt.experiment.spectral.completion_map import map_arms, map_claims

    assert map_claims({"D3.1": None, "D3.2": False, "D3.3": False}) == ["D3.2", "D3.3"]
    assert map_claims({"D3.1": True, "D3.2": True, "D3.3": None}) == []
    assert map_arms(["D3.2", "D3.3"]) == ["GD", "SGD", "SVRG"]                  # no SGD-DET unless D3.1 fails
    assert map_arms(["D3.1"]) == ["GD", "SGD", "SVRG", "SGD-DET"] and map_arms(["D3.2"]) == ["GD", "SGD"]
    with pytest.raises(ValueError, match="claims"):
        map_claims({"D3.9": False})
    with pytest.raises(TypeError, match="outcomes"):
        map_claims({"D3.2": "no"})


def test_rescue_bound_and_first_seeds():
    from inferopt.experiment.spectral.completion_map import first_seeds, rescue_bound

    assert rescue_bound(0, 5) == 1.0 and rescue_bound(5, 5) == 0.0
    assert rescue_bound(1, 5) == pytest.approx(0.94208) and rescue_bound(2, 5) == pytest.approx(0.68256)
    assert first_seeds(5) == 2 and first_seeds(3) == 1 and first_seeds(1) == 1
    with pytest.raises(ValueError, match="against"):
        rescue_bound(6, 5)


def test_against_seeds_and_can_rescue_hold_and_fail():
    from inferopt.experiment.spectral.completion_map import against_seeds, can_rescue

    # GD reaches 0.85 of the way at 9 s; SGD's seeds at 3, 3, 20+ s (two of five not there, ending above GD)
    mixed = {"GD": falling(0.05), "SGD": [falling(0.15), falling(0.15), falling(0.02, 0.8), falling(0.02, 0.8), falling(0.15)],
             "SVRG": falling(0.25), "SGD-DET": falling(0.02, 0.8)}
    tb = table_of(mixed)
    assert against_seeds(tb, "D3.2", "0.85", None) == [2, 3]
    assert against_seeds(tb, "D3.3", "0.85", None) == []                       # SVRG at 2 s <= 9 / 1.5
    assert against_seeds(tb, "D3.1", "0.85", None) == []                       # no per-seed bound for D3.1
    out = can_rescue(tb, ["D3.2", "D3.3"], "0.85", None, 5)
    assert out["D3.2"]["possible"] is False and out["D3.2"]["bound"] < 0.9 and out["D3.3"]["possible"] is True
    # the first two seeds both ahead of GD: a rescue stays possible
    first = tb[tb.seed < 2]
    assert can_rescue(first, ["D3.2"], "0.85", None, 5)["D3.2"] == {"possible": True, "against": 0, "seeds": 2, "bound": 1.0, "at": 5}
    # SVRG at 4 s against GD's 9 s: 2.25x, short of a factor 3: every seed counts against D3.3 there
    assert against_seeds(table_of(FAST | {"SVRG": falling(0.13)}), "D3.3", "0.85", None, factor=3.0) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="one dataset"):
        against_seeds(pd.concat([tb, tb.assign(dataset="e")]), "D3.2", "0.85", None)
    with pytest.raises(ValueError, match="claim"):
        against_seeds(tb, "D3.4", "0.85", None)


def test_verdict_map_reads_only_the_mapped_claims_and_names_stopped_cells():
    from inferopt.experiment.spectral.completion_map import can_rescue

    slow3 = {m: c for m, c in SLOW.items() if m != "SGD-DET"}
    first = table_of(slow3, n_seeds=2)
    bounds = can_rescue(first, ["D3.2", "D3.3"], "0.85", None, 5)
    assert not any(b["possible"] for b in bounds.values())
    cells, rows = verdict_map({"chosen": cell_input(table_of(SLOW)),
                               "eps x 10": cell_input(first, setting={"eps": 1e3, "lam": 1.0}) | {"bounds": bounds}},
                              dataset="d", reading="0.85", n_seeds=5, seed=0, methods=["GD", "SGD", "SVRG"], claims=["D3.2", "D3.3"])
    assert cells["D3.1"] == [] and len(cells["D3.2"]) == 2
    stopped = [c for c in cells["D3.2"] if c["setting"]["eps"] == 1e3][0]
    assert stopped["verdict"] == "inconclusive" and "cannot rescue the claim" in stopped["no rescue"]
    assert rows[1]["D3.1 holds"] is None and rows[1]["D3.2 support bound"] == pytest.approx(0.68256) and "SGD-DET final test RMSE" not in rows[1]
    with pytest.raises(ValueError, match="claims"):
        verdict_map({"chosen": cell_input(table_of(SLOW))}, dataset="d", reading="0.85", n_seeds=5, seed=0, claims=["D3.4"])


def test_the_centred_cell_is_read_as_any_cell_and_can_rescue_a_claim_or_fail_to():
    from inferopt.experiment.claims import Unearned
    from inferopt.experiment.spectral.completion_map import can_rescue

    chosen = {"dataset": "d", "eps": 100.0, "lam": 1.0}
    centred = {"eps": 100.0, "lam": 1.0, "ratings": "centred"}        # the chosen eps and lam, on the centred ratings
    narrow = {"validation RMSE of the optimum": 0.9, "training-mean validation RMSE": 1.0, "b/a at the optimum": 1e4, "q0 at N": 0.3}

    def mapped(centred_table, other=None, worse=()):
        cells = {"chosen": cell_input(table_of(SLOW)), CENTRED_CELL: cell_input(centred_table, setting=centred) | {"quality": narrow}}
        if other is not None:
            cells["lam x 5"] = cell_input(other, setting={"eps": 100.0, "lam": 5.0})
        map_cells, rows = verdict_map(cells, dataset="d", reading="0.85", n_seeds=5, seed=0)
        return map_cells, rows, dict(no_authors_construction="none", chosen=chosen, worse_than_mean=list(worse))

    # SGD ahead of GD on the centred ratings only: a setting rescue (not the chosen cell, though at its eps and lam), resting on it alone
    cells, rows, kw = mapped(table_of(FAST), other=table_of(SLOW))
    assert [r["ratings"] for r in rows] == ["raw", "centred", "raw"] and rows[1]["cell"] == CENTRED_CELL
    assert rows[1]["b/a at the optimum"] == 1e4 and rows[1]["q0 at N"] == 0.3 and rows[1]["D3.2 holds"] is True
    assert [c["setting"] for c in cells["D3.2"]][1] == chosen | {"ratings": "centred"}
    d = centred_diagnosis(cells["D3.2"], "t.", **kw)
    assert d["kind"] == "setting" and "ratings = centred" in d["text"] and d["evidence"]["rests on the centred cell"] is True
    assert "The rescue rests on the centred cell alone" in d["text"] and "the paper gives the raw box [0, 5]" in d["text"]
    # a raw cell rescues it too: still setting, and the text says it does not rest on the centred cell
    cells, _, kw = mapped(table_of(FAST), other=table_of(FAST))
    d = centred_diagnosis(cells["D3.2"], "t.", **kw)
    assert d["kind"] == "setting" and "does not rest on it" in d["text"] and d["evidence"]["rests on the centred cell"] is False
    # no rescue: the centred cell fails too; it holds but its optimum is worse than the training mean; it holds on 3 seeds only
    for table, worse in ((table_of(SLOW), ()), (table_of(FAST), [chosen | {"ratings": "centred"}]), (table_of(FAST, n_seeds=3), ())):
        cells, _, kw = mapped(table, worse=worse)
        out = centred_diagnosis(cells["D3.2"], "t.", **kw)
        assert isinstance(out, Unearned) and "centred cell" not in out.reason
    # its first seeds are read by can_rescue as any cell's: two seeds ahead of GD leave a rescue possible, two behind do not
    assert can_rescue(table_of(FAST, n_seeds=2), ["D3.2"], "0.85", None, 5)["D3.2"]["possible"] is True
    assert can_rescue(table_of(SLOW, n_seeds=2), ["D3.2"], "0.85", None, 5)["D3.2"]["possible"] is False
    with pytest.raises(ValueError, match=r"cells\['chosen'\]\['setting'\]"):
        verdict_map({"chosen": cell_input(table_of(SLOW), setting={"eps": 100.0})}, dataset="d", reading="0.85", n_seeds=5, seed=0)
    with pytest.raises(ValueError, match=r"setting\['ratings'\]"):
        verdict_map({"chosen": cell_input(table_of(SLOW), setting=centred | {"ratings": 1})}, dataset="d", reading="0.85", n_seeds=5, seed=0)


# ----------------------------------------------------------------------------- budgets in work (issue 41)


def test_work_caps_and_the_work_axis_count_exact_and_stochastic_gradients():
    from dataclasses import replace

    from inferopt.experiment.spectral.completion_steps import WorkCall, on_work, seconds_at, work_axis, work_caps

    caps = work_caps(100.0, 0.25, svrg_inner=10, slack=1.0)
    assert caps == {"GD": 100, "SGD": 400, "SGD-DET": 400, "SVRG": 167}      # SVRG: 2 x 0.25 + 1 / 10 = 0.6 a step
    assert work_caps(100.0, 0.25, svrg_inner=10)["SGD"] == 440               # the drawn methods' slack, 1.1x
    base = result(falling(0.1))
    gd = on_work(base, M=2, N=3, r=0.25)                                     # no degrees: GD, one exact gradient a step
    assert np.allclose(gd.times, np.asarray(base.iterations, float)) and np.allclose(gd.info["seconds"], base.times)
    n = int(base.n_iter)
    sgd = replace(base, info={"degrees": [3] * n})                           # M N = 6 mat-vecs a step: r units a step
    assert np.allclose(work_axis(sgd, M=2, N=3, r=0.25, lanczos=0), 0.25 * np.asarray(base.iterations, float))
    # session 27: each drawn step's spectral interval (Lanczos, 6 mat-vecs here) counted: 12 mat-vecs a step, 2 r
    assert np.allclose(work_axis(sgd, M=2, N=3, r=0.25, lanczos=6), 0.5 * np.asarray(base.iterations, float))
    svrg = replace(base, info={"degrees": [3] * n, "n_inner": 5})            # two stochastic gradients a step, a snapshot an epoch
    its = np.asarray(base.iterations)
    assert np.allclose(work_axis(svrg, M=2, N=3, r=0.25, lanczos=0), -(-its // 5) + 0.5 * its)
    assert np.allclose(work_axis(svrg, M=2, N=3, r=0.25, lanczos=6), -(-its // 5) * 1.25 + 0.75 * its)   # an interval a step and a snapshot
    w = on_work(sgd, M=2, N=3, r=0.25, lanczos=0)
    assert seconds_at(w, float(w.times[2])) == pytest.approx(float(base.times[2])) and np.isinf(seconds_at(w, np.inf))
    assert np.allclose(WorkCall(lambda: base, M=2, N=3, r=0.25)().times, its)
    with pytest.raises(ValueError, match="r"):
        work_caps(100.0, 0.0, svrg_inner=10)


def test_random_subsets_keep_the_density_the_most_rated_block_raises():
    from inferopt.experiment.spectral.completion_steps import density, random_subset

    D = synthetic_low_rank_ratings(60, 80, 3, 1200, rng=np.random.default_rng(0), test_fraction=0.1)
    sub = random_subset(D, 30, 40, np.random.default_rng(1))
    assert sub["shape"] == (30, 40) and sub["rows"].max() < 30 and sub["cols"].max() < 40
    assert abs(density(sub) - density(D)) < 0.35 * density(D)
    assert random_subset(D, 30, 40, 1)["values"].tolist() == random_subset(D, 30, 40, 1)["values"].tolist()   # seeded
    with pytest.raises(ValueError, match="n_rows"):
        random_subset(D, 61, 40, 0)


# ----------------------------------------------------------------------------- session 27: the reference optimum, the stand-in's b/a


def test_converged_optimum_meets_its_tolerance_or_says_it_did_not():
    from inferopt.experiment.spectral import projected_gradient
    from inferopt.experiment.spectral.completion_steps import converged_optimum

    D = hold_out(synthetic_low_rank_ratings(30, 24, 2, 300, rng=5, test_fraction=0.2, noise=0.3), 0.2, 7)   # raw ratings, box [0, 5]
    p = completion_problem(D, 10.0, 1.0)
    theta, info = converged_optimum(p, None, tol=1e-6, max_iter=5, rounds=200)   # many short rounds, each restarted from the last
    assert info["met"] and info["projected gradient"] <= 1e-6 and info["rounds"] > 1
    assert projected_gradient(p, theta) == pytest.approx(info["projected gradient"])
    again, info2 = converged_optimum(p, theta, tol=1e-6, max_iter=5)   # already within the tolerance: no round runs
    assert info2["rounds"] == 0 and np.array_equal(again, theta)
    _, short = converged_optimum(p, None, tol=1e-12, max_iter=2, rounds=1)   # one round of 2 steps cannot get there: said so
    assert not short["met"] and short["projected gradient"] > 1e-12 and short["iterations"] <= 2
    with pytest.raises(ValueError, match="tol"):
        converged_optimum(p, None, tol=0.0, max_iter=5)
    with pytest.raises(TypeError, match="MatrixCompletion"):
        converged_optimum("p", None, tol=1e-6, max_iter=5)
