"""The diagnosis of C2/C3's claims (:func:`inferopt.experiment.boosting.diagnose_step_rules`): which kind follows from
which verdict map and first-step evidence, and the resampled-rows check it rests on."""

import numpy as np
import pandas as pd
import pytest

from inferopt.experiment.boosting import (construction_halves, diagnose_step_rules, equal_inputs, first_step_gain, greedy_check,
                                         halves_diagnosis, resample_rows)
from inferopt.experiment.claims import Unearned


def run(name, n=4):
    """A records table of ``n`` replicates of one run (the tests below read its name)."""
    return pd.DataFrame({"replicate": range(n), "run": name})


def name(records):
    return records["run"].iloc[0]


SWEEP = {"estimated": run("run-estimated"), 0.001: run("run-0.001"), 1.0: run("run-1")}


def check_table(gains, se=0.5, name="authors", gain_se=None):
    """A greedy_check-shaped table whose ELBO at γ > 0 exceeds plain VI's by ``gains``, its gain's standard error
    ``gain_se`` (default that of two independent estimates of standard error ``se``)."""
    gammas = [0.0, *np.linspace(0.01, 0.5, len(gains))]
    elbo = [-100.0, *(-100.0 + g for g in gains)]
    gain_se = np.hypot(se, se) if gain_se is None else gain_se
    return pd.DataFrame({"construction": name, "gamma": gammas, "elbo": elbo, "elbo_se": se, "gain": [0.0, *gains],
                         "gain_se": [0.0, *[gain_se] * len(gains)]})


def every_rule(run_name):
    """A run of every step rule (an authors' cell of the map needs them all)."""
    from inferopt.experiment.boosting import METHODS
    return pd.concat([run(run_name).assign(method=m) for m in METHODS], ignore_index=True)


AUTHORS = {"closed form": every_rule("run-authors")}


def diagnose(holding, check, check_rows=None):
    return diagnose_step_rules(lambda runs: name(runs) in holding, "It fails.", sweep=SWEEP, published=run("run-alg2"), C0=0.001,
                               check=check, budget="3 x 20", data_note="on a subset", check_rows=check_rows, n_rows=1000,
                               authors=AUTHORS)


def test_kind_follows_the_verdict_map_and_the_first_step():
    flat = check_table([0.1, -0.5, -3.0])
    paper = diagnose(set(), flat)
    assert paper["kind"] == "paper" and len(paper["evidence"]["sweep"]) == 5   # three C_-1, Alg. 2 as printed, the authors'
    assert all(c["verdict"] == "fails" and c["support"] == 0.0 for c in paper["evidence"]["sweep"])
    # a cell whose replicates disagree is not decisive, and a map with one cannot earn 'paper'
    mixed = {**SWEEP, 1.0: pd.concat([run("run-1", 2), run("run-0.001", 2).assign(replicate=[2, 3])])}
    split = diagnose_step_rules(lambda runs: (runs["run"] == "run-1").mean() > 0.4, "It fails.", sweep=mixed,
                                published=run("run-alg2"), C0=0.001, check=flat, budget="3 x 20", data_note="on a subset",
                                authors=AUTHORS)
    assert isinstance(split, Unearned) and "do not fail" in split.reason
    one = next(c for c in split.evidence["sweep"] if c["setting"] == {"C0": 1.0})
    assert one["verdict"] == "inconclusive" and 0.1 < one["support"] < 0.9
    # nor can a stand-in shortcut skip that rule
    stand = diagnose_step_rules(lambda runs: (runs["run"] == "run-1").mean() > 0.4, "It fails.", sweep=mixed,
                                published=run("run-alg2"), C0=0.001, check=flat, budget="3 x 20", data_note="on a subset",
                                check_rows=check_table([5.0, 2.0, -1.0]), n_rows=1000, authors=AUTHORS)
    assert isinstance(stand, Unearned)
    assert diagnose({"run-alg2"}, flat)["kind"] == "construction"
    assert diagnose({"run-1"}, flat)["kind"] == "setting" and "C_-1 = 1.0" in diagnose({"run-1"}, flat)["text"]
    # Alg. 2 as printed holding while the authors' code at the same C_-1 also holds is no evidence of a construction,
    # and the map's cell at the main run's own C_-1 differs from the main run by its length, not by a setting: cells that
    # hold leave the failure undiagnosed
    same_c0 = diagnose({"run-alg2", "run-0.001"}, flat)
    assert isinstance(same_c0, Unearned) and "do not fail" in same_c0.reason
    assert diagnose({"run-0.001", "run-estimated"}, flat)["kind"] == "setting"


def test_stand_in_where_the_paper_sized_rows_gain_or_cannot_rule_a_gain_out():
    flat, gaining = check_table([0.1, -0.5, -3.0]), check_table([5.0, 2.0, -1.0])
    stand_in = diagnose(set(), flat, check_rows=gaining)
    assert stand_in["kind"] == "stand-in" and "1000" in stand_in["text"]
    at_rows = stand_in["evidence"]["first step at 1000 resampled rows, best ELBO gain over plain VI"]["authors"]
    assert at_rows["gain"] == 5.0 and at_rows["detectable"] == pytest.approx(2.84 * np.hypot(0.5, 0.5))
    # a gain within the error neither shows nor rules out a cause: the check states its power, and the subset's size
    # stays a possible cause (stand-in), never "not the cause" nor a 'paper' failure
    within_error = diagnose(set(), flat, check_rows=check_table([1.0, 0.2, -1.0]))       # 1.0 < 2 * hypot(0.5, 0.5)
    assert within_error["kind"] == "stand-in" and "not the cause" not in within_error["text"]
    assert "not ruled out" in within_error["text"]
    assert "detects 2.01 or more" in within_error["text"] and "neither shows nor rules out" in within_error["text"]
    ruled_out = diagnose(set(), flat, check_rows=check_table([-3.0, -5.0]))               # -3 + 2 * 0.71 < 0
    assert ruled_out["kind"] == "paper" and "not the cause" in ruled_out["text"]
    g = first_step_gain(check_table([1.0, 0.2]))["authors"]
    assert g["gain"] == 1.0 and not g["beyond_2se"] and not g["rules_out_gain"]
    assert first_step_gain(check_table([1.5, 0.2]))["authors"]["beyond_2se"]
    # the same construction at both row counts: "ours" gaining on the subset says nothing about the authors' at more rows
    both = pd.concat([flat, check_table([3.0, 0.2], name="ours")], ignore_index=True)
    assert diagnose(set(), both, check_rows=gaining)["kind"] == "stand-in"
    gaining_here = pd.concat([check_table([3.0, 0.2]), check_table([0.1], name="ours")], ignore_index=True)
    assert diagnose(set(), gaining_here, check_rows=gaining)["kind"] == "paper"


def test_resample_rows_draws_training_rows_and_keeps_the_test_rows():
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(20, 3))
    data = {"Z": Z, "y": np.sign(Z[:, 0]), "Zt": Z[:4], "yt": np.ones(4)}
    big = resample_rows(data, 500, np.random.default_rng(1))
    assert big["Z"].shape == (500, 3) and big["y"].shape == (500,)
    assert big["Zt"] is data["Zt"] and big["yt"] is data["yt"]
    rows = {tuple(r) for r in Z}
    assert all(tuple(r) in rows for r in big["Z"])
    assert all(np.sign(r[0]) == y for r, y in zip(big["Z"], big["y"]))          # rows and labels stay paired
    assert len({tuple(r) for r in big["Z"]}) == 20                              # 500 draws of 20 rows reach them all
    again = resample_rows(data, 500, np.random.default_rng(1))
    assert np.array_equal(again["Z"], big["Z"])
    with pytest.raises(ValueError, match="n_rows"):
        resample_rows(data, 0, np.random.default_rng(1))
    with pytest.raises(TypeError, match="data"):
        resample_rows([Z], 5, np.random.default_rng(1))


def test_a_greedy_setting_that_rescues_the_claim_is_named_and_the_headroom_is_evidence():
    flat = check_table([0.1, -0.5, -3.0])
    greedy = {"anneal = constant": run("run-lam1"), "stored_scale = scale": run("run-scale")}
    rescued = diagnose_step_rules(lambda runs: name(runs) == "run-scale", "It fails.", sweep=SWEEP, published=run("run-alg2"),
                                  C0=0.001, check=flat, budget="3 x 20", data_note="on a subset", greedy_sweep=greedy,
                                  room={"elbo": -80.0, "elbo_se": 0.1})
    assert rescued["kind"] == "setting" and "stored_scale = scale" in rescued["text"]
    assert {"greedy step": "anneal = constant"} in [c["setting"] for c in rescued["evidence"]["sweep"]]
    lead = rescued["evidence"]["ELBO of the full-covariance Laplace approximation, and its lead over plain VI"]
    assert lead == {"elbo": -80.0, "lead": 20.0}                       # plain VI's ELBO in check_table is -100
    failing = diagnose_step_rules(lambda runs: False, "It fails.", sweep=SWEEP, published=run("run-alg2"), C0=0.001, check=flat,
                                  budget="3 x 20", data_note="on a subset", greedy_sweep=greedy,
                                  room={"elbo": -120.0, "elbo_se": 0.1}, authors=AUTHORS)
    assert failing["kind"] == "paper" and len(failing["evidence"]["sweep"]) == 7   # 3 C_-1, Alg. 2, 2 greedy, the authors'
    assert "20 nats below plain VI" in failing["text"] and "anneal = constant and stored_scale = scale" in failing["text"]


def test_an_authors_run_without_every_rule_is_a_not_measured_cell_and_its_test_is_not_called():
    from inferopt.experiment.boosting import METHODS
    complete = pd.concat([run("run-authors").assign(method=m) for m in METHODS], ignore_index=True)
    stopped = complete[complete.method != "adaafw"]                   # every AdaAFW run stopped (their float32 NaN)

    def test(runs):
        if "method" in runs and set(runs.method) != set(METHODS):
            raise ValueError("rules must be one of the records' rules")   # what curve_gaps does on such a table
        return name(runs) == "run-authors"

    out = diagnose_step_rules(test, "It fails.", sweep=SWEEP, published=run("run-alg2"), C0=0.001,
                              check=check_table([0.1, -0.5]), budget="3 x 20", data_note="on a subset",
                              authors={"closed form": complete, "float32": stopped})
    cells = {c["setting"]["rules"]: c for c in out["evidence"]["sweep"] if c.get("construction") == "authors"}
    assert cells["closed form"]["verdict"] == "holds"
    assert cells["float32"]["verdict"] == "not measured" and "support" not in cells["float32"]
    assert cells["float32"]["setting"]["rules without a complete run"] == "AdaAFW"


def test_a_cell_tied_by_construction_is_not_measured_and_blocks_nothing():
    """Review (helper-285): C3.1's map had a greedy cell where every rule's selected iterate was plain VI; it counted as
    an undecided cell and left the claim without a diagnosis. A cell that ``tie`` calls a tie by construction is not
    measured: the rest of the map decides."""
    from inferopt.experiment.boosting import runs_cell, step_rule_cells
    flat = check_table([0.1, -0.5, -3.0])
    sweep = {**SWEEP, 1.0: run("run-1").assign(v=[1.0, 0.0, 0.0, 0.0])}
    undecided = lambda runs: name(runs) == "run-1" and runs.v.mean() > 0.2          # noqa: E731  # turns with the resample
    tied = lambda runs: name(runs) == "run-1"                                        # noqa: E731
    without = diagnose_step_rules(undecided, "It fails.", sweep=sweep, published=run("run-alg2"), C0=0.001, check=flat,
                                  budget="3 x 20", data_note="on a subset", authors=AUTHORS)
    assert isinstance(without, Unearned)                                             # the undecided cell blocks 'paper'
    with_tie = diagnose_step_rules(undecided, "It fails.", sweep=sweep, published=run("run-alg2"), C0=0.001, check=flat,
                                   budget="3 x 20", data_note="on a subset", authors=AUTHORS, tie=tied)
    assert not isinstance(with_tie, Unearned) and with_tie["kind"] == "paper"
    cells = step_rule_cells(undecided, sweep=sweep, published=run("run-alg2"), C0=0.001, authors=AUTHORS, tie=tied)
    assert [c["verdict"] for c in cells] == ["fails", "fails", "not measured", "fails", "fails"]
    assert runs_cell({"C0": 1}, lambda r: True, run("x"), tie=lambda r: True)["verdict"] == "not measured"
    with pytest.raises(TypeError, match="test must return a boolean"):
        runs_cell({"C0": 1}, lambda r: 1.0, run("x"))


def test_the_first_steps_gain_is_read_on_common_random_numbers():
    """Session 40: the first step's gain and its error are those of the paired estimate (greedy_check's ``gain``,
    ``gain_se``: q_0's part of the mixture cancels draw by draw), not of two independent ELBO estimates. The old code
    read the ELBO columns: a gain of 1.0 against an unpaired error of 0.71 was not beyond 2 SE; paired (0.1) it is."""
    table = check_table([1.0, 0.2], gain_se=0.1)
    g = first_step_gain(table)["authors"]
    assert g["beyond_2se"] and g["se"] == 0.1 and g["detectable"] == pytest.approx(0.284)
    assert not first_step_gain(check_table([1.0, 0.2]))["authors"]["beyond_2se"]
    with pytest.raises(ValueError, match="gain"):
        first_step_gain(table.drop(columns="gain_se"))
    # greedy_check's paired gain against the independent truth of its unpaired ELBO estimates: the same gain within their
    # noise, at a smaller error where the mixture is mostly q_0
    rng = np.random.default_rng(3)
    Z = rng.normal(size=(200, 3))
    data = {"Z": Z, "y": np.where(Z @ np.array([1.0, -1.0, 0.5]) + rng.normal(size=200) > 0, 1.0, -1.0)}
    check = greedy_check(data, {"tiny": dict(max_iter=30, n_samples=2)}, gammas=(0.001, 0.2, 2 / 3), n_eval=400,
                         rng=np.random.default_rng(0))
    base = check[check.gamma == 0].iloc[0]
    steps = check[check.gamma > 0]
    unpaired = np.hypot(base.elbo_se, steps.elbo_se)
    assert (np.abs(steps.gain - (steps.elbo - base.elbo)) <= 4 * unpaired).all()
    assert steps.gain_se.iloc[0] < 0.1 * unpaired.iloc[0]                  # γ = 0.001: the mixture is q_0 nearly
    assert check[check.gamma == 0].gain.iloc[0] == 0.0 and check[check.gamma == 0].gain_se.iloc[0] == 0.0


def curves(elbo, reps=3, T=3, t0=-100.0):
    """Records of every rule whose ELBO after t = 0 is ``t0`` plus its offset (rule -> offset), at t = 0 the same plain VI
    in every replicate (equal inputs)."""
    from inferopt.experiment.boosting import METHODS
    rows = [{"method": m, "replicate": r, "iteration": t, "elbo_eval": t0 + (elbo.get(m, 0.0) if t else 0.0) + 0.01 * r * t,
             "train_ll": -0.5 + 0.001 * r * (t > 0), "gamma": np.nan if t == 0 else 0.1}
            for m in METHODS for r in range(reps) for t in range(T + 1)]
    return pd.DataFrame(rows)


def test_the_construction_split_names_the_half_that_turns_the_verdict():
    """C3.2 at the paper scale: ours fails (adaptive below our line search by 25-28 nats), theirs holds (+133..+146),
    and the split is in the line search (theirs falls by 209 nats, ours by 21), while the adaptive rules gain alike; the
    old diagnosis said it held "with the adaptive rules as the authors' code runs them"."""
    from inferopt.experiment.boosting import METHODS
    from inferopt.experiment.boosting_claims import elbo_curves_above
    ours = curves({"adafw": -25.0, "adaafw": -28.0, "adapfw": 6.0})
    theirs = curves({"adafw": -27.0, "adaafw": -22.0, "adapfw": -26.0, "line_search": -170.0})   # the predefined step shared
    halves = construction_halves(ours, theirs)
    assert set(halves) == {"the adaptive rules", "the line search"}
    assert not elbo_curves_above(halves["the adaptive rules"]) and elbo_curves_above(halves["the line search"])
    text, cells = halves_diagnosis(elbo_curves_above, ours, theirs, "exact", measure=lambda r: "m")
    assert text.startswith("The split is in the line search") and [c["verdict"] for c in cells] == ["fails", "holds"]
    assert all(c["construction"] == "authors" for c in cells)

    def test(runs):
        return "elbo_eval" in runs and elbo_curves_above(runs)

    common = dict(sweep=SWEEP, published=run("run-alg2"), C0=0.001, check=check_table([0.1]), budget="3 x 20",
                  data_note="on a subset")
    d = diagnose_step_rules(test, "It fails.", authors={"exact": theirs}, ours=ours, **common)
    assert d["kind"] == "construction" and "The split is in the line search" in d["text"]
    assert "adaptive rules as the authors' code runs them" not in d["text"] and len(d["evidence"]["halves"]) == 2
    # the other half alone: the adaptive rules
    theirs_ada = curves({"adafw": 10.0, "adaafw": 10.0, "adapfw": 10.0, "line_search": 5.0})
    assert halves_diagnosis(elbo_curves_above, ours, theirs_ada, "x")[0].startswith("The split is in the adaptive rules")
    both = halves_diagnosis(elbo_curves_above, ours, curves({m: 10.0 for m in METHODS if m != "line_search"} | {"line_search": -50.0}), "x")
    assert both[0].startswith("Either half")
    neither = curves({"adafw": -20.0, "adaafw": -20.0, "adapfw": -20.0, "line_search": -22.0})   # only together
    assert halves_diagnosis(elbo_curves_above, ours, neither, "x")[0].startswith("Neither half")
    # unequal inputs are not paired: another replicate set, another run length, another plain VI
    assert "other replicates" in equal_inputs(ours, theirs[theirs.replicate < 2])
    assert "lengths differ" in equal_inputs(ours, theirs[theirs.iteration < 3])
    assert "q_0" in equal_inputs(ours, theirs.assign(elbo_eval=theirs.elbo_eval + 1.0))
    text, cells = halves_diagnosis(elbo_curves_above, ours, theirs[theirs.replicate < 2], "exact")
    assert "not split" in text and cells == []
    assert equal_inputs(ours, theirs) is None
    assert "nothing to split" in construction_halves(ours, theirs[~theirs.method.isin(["line_search", "predefined"])])


def test_a_map_whose_every_cell_compares_nothing_earns_no_diagnosis():
    """C3.1 at the paper scale: every cell of its map ties every rule within the noise of its three replicates (not
    measured), so the failure of the main row has no cell to rest on: unearned, saying what would decide it."""
    out = diagnose_step_rules(lambda runs: False, "It fails.", sweep=SWEEP, published=run("run-alg2"), C0=0.001,
                              check=check_table([0.1]), budget="3 x 20", data_note="on a subset", authors=AUTHORS,
                              tie=lambda runs: "every rule tied")
    assert isinstance(out, Unearned) and "every cell of the verdict map (3 x 20) is not measured" in out.reason
    assert "more replicates" in out.reason and all(c["verdict"] == "not measured" for c in out.evidence["sweep"])
