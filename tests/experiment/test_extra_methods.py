"""Issue 30: a researcher's own method registered once runs in its family's experiments, with
its own label, colour and seeded stream, and never changes the paper's methods' results."""

from __future__ import annotations

import json
import os
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import inferopt.coresets as cs
from inferopt._random import named_stream
from inferopt.boosting import STEPS, boost
from inferopt.coresets.path import BUILTIN, coreset_path
from inferopt.experiment import color, label, register_method
from inferopt.experiment.coresets import run_conjugate_trials
from inferopt.experiment.extra import load_extra_methods, method_of, versus_paper
from inferopt.experiment.methods import PAPER_METHODS
from inferopt.experiment.plotting import method_colors

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "plugins"
sys.path.insert(0, str(PLUGINS))
import toy_methods  # noqa: E402
from registries import restored_registries  # noqa: E402

A1_METHODS = ["uniform", "giga", "frank_wolfe", "sparsevi", "iht", "a_iht", "a_iht_ii", "giga_refit", "frank_wolfe_refit",
              "a_iht_ii_refit"]


@pytest.fixture(scope="module", autouse=True)
def _registries_restored():
    """The registrations of this module end with it (other tests iterate STEPS, SOLVERS, ...)."""
    with restored_registries():
        yield


@pytest.fixture(scope="module")
def toy_names():
    """The three toy methods, registered as extra_methods would register them."""
    return {"coresets": load_extra_methods(["toy_methods:greedy_topk"], "coresets")[0],
            "boosting": load_extra_methods(["toy_methods:constant_step"], "boosting")[0],
            "spectral": load_extra_methods(["toy_methods:half_step_sgd"], "spectral")[0],
            "herding": load_extra_methods(["toy_methods:slow_herding_step"], "herding")[0]}


def test_registration_gives_label_and_a_colour_no_paper_method_has(toy_names):
    paper = list(method_colors(range(10)).values())      # the palette of the paper methods (and of positional runs)
    for family, name in toy_names.items():
        assert label(name) == getattr(toy_methods, name).label
        assert all(not np.allclose(color(name), c) for c in paper), family
        assert all(not np.allclose(color(name), color(m)) for m in PAPER_METHODS[family]), family
    assert method_of(toy_names["spectral"]) is toy_methods.half_step_sgd
    assert toy_names["boosting"] in STEPS and toy_names["coresets"] not in BUILTIN


@pytest.mark.parametrize("family, solver, missing", [
    ("coresets", lambda Phi, y: None, "3 positional parameters"),
    ("coresets", lambda Phi, y, k, *, budget: None, "budget"),
    ("spectral", lambda problem, theta0, *, max_iter, step, M: None, "'rng'"),
    ("boosting", lambda: 0.5, "1 positional parameters"),
    ("herding", "not callable", "callable"),
])
def test_protocol_is_checked_at_registration_naming_what_is_missing(family, solver, missing):
    with pytest.raises(TypeError, match=missing):
        register_method("bad_one", solver, family=family)


def test_bad_names_and_families_are_refused(toy_names):
    with pytest.raises(ValueError, match="family"):
        register_method("x", toy_methods.greedy_topk, family="kernels")
    with pytest.raises(ValueError, match="paper"):
        register_method("giga", toy_methods.greedy_topk, family="coresets")
    with pytest.raises(ValueError, match="registered already"):
        register_method(toy_names["coresets"], lambda Phi, y, k: None, family="coresets")
    assert register_method(toy_names["coresets"], toy_methods.greedy_topk, family="coresets",
                           label=toy_methods.greedy_topk.label) == toy_names["coresets"]   # the same again: allowed
    with pytest.raises(ValueError, match="module:function"):
        load_extra_methods(["toy_methods.greedy_topk"], "coresets")


def test_coreset_path_runs_a_registered_solver_and_checks_its_weights(toy_names):
    Phi, y = cs.exact_problem(cs.make_gaussian_mean(5, 30, rng=0))
    ks, W, secs, _ = coreset_path(toy_names["coresets"], Phi, y, [1, 4, 9], rng=np.random.default_rng(0))
    assert W.shape == (3, 30) and (np.count_nonzero(W, axis=1) <= ks).all() and (W >= 0).all()
    # the support is the top-k of |Phi^T y| (brute force: sort)
    top = set(np.argsort(-np.abs(Phi.T @ y))[:4])
    assert set(np.flatnonzero(W[1])) <= top


def test_the_paper_methods_give_identical_numbers_with_and_without_an_extra_method(toy_names):
    """Same seed, run with and without the toy coreset: every paper method's row is equal (times aside)."""
    kw = dict(seed=3, n_trials=2, tangent_options={"constant": "exact"}, max_iter=50, step="exact", sparsevi_steps=20)
    model, ks = partial(cs.make_gaussian_mean, 8, 30), [1, 5, 10, 20]
    without = run_conjugate_trials(model, A1_METHODS, ks, **kw)
    with_it = run_conjugate_trials(model, [toy_names["coresets"], *A1_METHODS], ks, **kw)   # first: it runs before Uniform

    def table(trials):
        out = pd.concat([t.assign(trial=i) for i, (_, t, _) in enumerate(trials)], ignore_index=True)
        return out[out.method.isin(A1_METHODS)].drop(columns="seconds").sort_values(["trial", "method", "k"]).reset_index(drop=True)

    pd.testing.assert_frame_equal(table(without), table(with_it), check_exact=True)
    assert (pd.concat([t for _, t, _ in with_it]).method == toy_names["coresets"]).sum() == 2 * len(ks)


def test_named_stream_is_independent_of_the_callers_draws():
    ss = np.random.SeedSequence(7).spawn(3)[2]
    a, b = np.random.default_rng(ss), np.random.default_rng(ss)
    first = named_stream(a, "mine").random(4)
    a.random(10)                                     # the caller draws: the named stream does not move
    assert np.array_equal(named_stream(a, "mine").random(4), first)
    assert np.array_equal(a.random(3), (b.random(10), b.random(3))[1])   # and the caller's stream is untouched
    assert not np.array_equal(named_stream(a, "other").random(4), first)


def test_a_registered_boosting_rule_takes_its_steps_on_the_fw_core(toy_names):
    from inferopt.experiment.boosting import random_two_gaussians

    target = random_two_gaussians(2, np.random.default_rng(0))
    res = boost(target, toy_names["boosting"], rng=np.random.default_rng(1), max_iter=3, family="gaussian", n_samples=20)
    assert np.allclose(res.record.gamma.iloc[1:], 0.3)
    paper = boost(target, "adafw", rng=np.random.default_rng(1), max_iter=3, family="gaussian", n_samples=20)
    assert not np.allclose(paper.record.gamma.iloc[1:], 0.3)


def test_versus_paper_counts_wins_ties_and_medians_on_shared_cells():
    t = pd.DataFrame({"trial": [0, 0, 1, 1, 2, 2, 3], "method": ["iht", "giga"] * 3 + ["iht"],
                      "err": [1.0, 2.0, 3.0, 3.0, 5.0, 4.0, 0.0], "sec": [1, 2, 1, 2, 1, 2, 9]})
    vs = versus_paper(t, "err", ["iht"], ["giga"], by=["trial"], time="sec").iloc[0]
    assert vs["cells"] == 3 and vs["win fraction"] == pytest.approx(1 / 3) and vs["tie fraction"] == pytest.approx(1 / 3)
    assert vs["median err"] == 3.0 and vs["median err, against"] == 3.0 and vs["median sec"] == 1 and vs["median sec, against"] == 2
    with pytest.raises(ValueError, match="one row per"):
        versus_paper(pd.concat([t, t]), "err", ["iht"], ["giga"], by=["trial"])


def _execute(notebook: str, tmp_path, monkeypatch, extra: str) -> Path:
    """Run a notebook at its tiny defaults with one extra method; returns its output folder."""
    import papermill

    # the kernel imports toy_methods from there (and inferopt from where this process has it, e.g. a worktree's src)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(PLUGINS), *filter(None, [os.environ.get("PYTHONPATH")])]))
    out = tmp_path / "out"
    papermill.execute_notebook(str(ROOT / "notebooks" / f"{notebook}.ipynb"), str(tmp_path / f"{notebook}.ipynb"),
                               parameters={"output_dir": str(out), "extra_methods": [extra]}, kernel_name="python3",
                               progress_bar=False, cwd=str(ROOT))
    return out


def test_a1_runs_the_toy_coreset_beside_the_paper_methods(tmp_path, monkeypatch):
    out = _execute("A1_gaussian_mean_kl", tmp_path, monkeypatch, "toy_methods:greedy_topk")
    rows = pd.read_csv(out / "results" / "A1" / "kl_by_k.csv")
    vs = pd.read_csv(out / "results" / "A1" / "vs_paper.csv")
    assert (rows.method == "greedy_topk").sum() == rows.k.nunique() * rows.trial.nunique()
    # against every paper method, and SparseVI as its authors ran it (the arm A1.1/A1.2 decide on)
    assert set(vs.against) == {label(m) for m in [*A1_METHODS, "sparsevi_authors"]}
    assert (vs.method == toy_methods.greedy_topk.label).all()
    authors = rows[rows.method == "sparsevi_authors"]          # run on the first trials only (sparsevi_authors_trials)
    cells = vs.against.map({label("sparsevi_authors"): authors.k.nunique() * authors.trial.nunique()}).fillna(
        rows.k.nunique() * rows.trial.nunique())
    assert vs["win fraction"].between(0, 1).all() and (vs.cells == cells).all()
    # the paper's numbers are exactly those of a run without the toy (the notebook's defaults, run here in-process)
    metrics = json.loads((out / "metrics" / "A1.json").read_text())
    assert toy_methods.greedy_topk.label not in metrics["metrics"]["median_reverse_kl"]
    trials = run_conjugate_trials(partial(cs.make_gaussian_mean, 20, 60), A1_METHODS, sorted(rows.k.unique()), seed=0,
                                  n_trials=2, tangent_options={"constant": "exact"}, max_iter=300, step="exact",
                                  sparsevi_steps=100)
    alone = pd.concat([t.assign(trial=i) for i, (_, t, _) in enumerate(trials)], ignore_index=True)
    rows = pd.read_csv(out / "results" / "A1" / "kl_by_k.csv")
    key = ["trial", "method", "k"]
    paper = rows[rows.method.isin(A1_METHODS)].drop(columns="seconds").sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(paper, alone.drop(columns="seconds").sort_values(key).reset_index(drop=True),
                                  check_exact=True, check_dtype=False)
    assert "your method against the paper's methods" in (tmp_path / "A1_gaussian_mean_kl.ipynb").read_text()   # shown


def test_c1_runs_the_toy_step_rule_and_d4_the_toy_optimiser(tmp_path, monkeypatch):
    out = _execute("C1_kl_vs_dimension", tmp_path, monkeypatch, "toy_methods:constant_step")
    yours = pd.read_csv(out / "results" / "C1" / "kl_after_step_with_yours.csv")
    mine = yours[yours.method == "constant_step"]
    assert len(mine) and np.allclose(mine.gamma, 0.3)
    vs = pd.read_csv(out / "results" / "C1" / "vs_paper.csv")
    assert set(vs.against) == {"Predefined", "Line-search", "AdaFW"}
    main = pd.read_csv(out / "results" / "C1" / "kl_after_step.csv")
    assert "constant_step" not in set(main.method)        # the paper's table (and claims) hold the paper's rules only

    out = _execute("D4_degree_distributions", tmp_path, monkeypatch, "toy_methods:half_step_sgd")
    vs = pd.read_csv(out / "results" / "D4" / "vs_paper.csv")
    # one cell per setting of D4's verdict map (the main setting and each open choice varied), the same for every pair
    assert (vs.method == toy_methods.half_step_sgd.label).all() and vs.cells.nunique() == 1 and vs.cells.iloc[0] >= 3
    assert {"optimal", "poisson", "SGD-DET N=10"} <= set(vs.against)


def test_a_registered_path_solver_runs_as_the_greedy_solvers_do():
    """per_k=False: one pass over the size grid; GIGA registered under another name gives GIGA's path."""
    from inferopt.coresets.giga import giga

    register_method("giga_again", giga, family="coresets", per_k=False)
    Phi, y = cs.exact_problem(cs.make_gaussian_mean(5, 30, rng=1))
    _, W_again, _, runs = coreset_path("giga_again", Phi, y, [2, 5, 9])
    _, W, _, _ = coreset_path("giga", Phi, y, [2, 5, 9])
    assert len(runs) == 1 and np.array_equal(W_again, W)


def test_a_registered_herding_rule_joins_the_finite_sample_curves_without_changing_the_papers(toy_names):
    """B2's runner with the toy rule beside the paper's: the paper's curves equal a run without it, and the toy
    takes its steps 1/(t+2) on the FW core."""
    from inferopt.experiment.herding import CG_METHODS, finite_sample_curves
    from inferopt.herding import SobolevTarget, TrigDensity, herd

    rng = np.random.default_rng(0)
    density = TrigDensity.random(rng, degree=2)
    target = SobolevTarget(1, density)
    sample = density.sample(40, rng)
    alone = finite_sample_curves(target, sample, 30)
    both = finite_sample_curves(target, sample, 30, methods=CG_METHODS | {toy_names["herding"]: toy_names["herding"]})
    pd.testing.assert_frame_equal(both[both.method.isin(list(CG_METHODS))].reset_index(drop=True), alone, check_exact=True)
    res = herd(target, sample, 5, toy_names["herding"])
    assert np.allclose(res.info["gamma"], [1 / (t + 2) for t in range(1, 5)])


def test_a_registered_coreset_runs_in_worker_processes_too(toy_names):
    """n_jobs=2 (loky): the workers register the solver themselves; the table equals the one-process run's."""
    kw = dict(seed=1, n_trials=2, max_iter=30, sparsevi_steps=5)
    methods, model = [toy_names["coresets"], "uniform", "a_iht"], partial(cs.make_gaussian_mean, 6, 20)
    tables = [pd.concat([t for _, t, _ in run_conjugate_trials(model, methods, [1, 4, 8], n_jobs=n, **kw)])
              .drop(columns="seconds").reset_index(drop=True) for n in (1, 2)]
    pd.testing.assert_frame_equal(*tables, check_exact=True)
    assert (tables[1].method == toy_names["coresets"]).sum() == 6


def test_library_hooks_refuse_bad_input_and_taken_names():
    """The algorithm packages' own registration points (reached by register_method) name the bad argument."""
    from inferopt.boosting.boost import register_step
    from inferopt.coresets.path import register_solver

    with pytest.raises(TypeError, match="solver must be callable"):
        register_solver("mine", 3)
    with pytest.raises(TypeError, match="name"):
        register_solver("", toy_methods.greedy_topk)
    with pytest.raises(ValueError, match="'giga' exists already"):
        register_solver("giga", toy_methods.greedy_topk)
    with pytest.raises(TypeError, match="per_k"):
        register_solver("mine", toy_methods.greedy_topk, per_k="yes")
    with pytest.raises(ValueError, match="'adafw' exists already"):
        register_step("adafw", toy_methods.constant_step)
    with pytest.raises(TypeError, match="name"):
        register_step(None, toy_methods.constant_step)


def test_glm_trials_run_the_toy_coreset_without_changing_the_papers_rows(toy_names):
    """A4/A5's runner: the toy solver's rows appear on every (trial, k), the paper methods' rows are those of a run
    without it (seconds aside), and two worker processes give the same table."""
    from inferopt.experiment.coresets import run_glm_trials

    methods = ["uniform", "giga", "sparsevi", "a_iht", "a_iht_batch"]
    kw = dict(n_trials=2, seed=4, n_projections=20, max_iter=10, sparsevi_steps=1, sparsevi_samples=5)
    alone = run_glm_trials("synth_lr", methods, [2, 6], **kw)
    both = run_glm_trials("synth_lr", [toy_names["coresets"], *methods], [2, 6], **kw)
    paper = both[both.method.isin(methods)].reset_index(drop=True)
    clock = ["seconds", "phi_floor_seconds"]                                   # measured times differ run to run
    pd.testing.assert_frame_equal(paper.drop(columns=clock), alone.drop(columns=clock), check_exact=True)
    mine = both[both.method == toy_names["coresets"]]
    assert len(mine) == 4 and (mine.support <= mine.k).all() and np.isfinite(mine.reverse_kl).all()
    in_workers = run_glm_trials("synth_lr", [toy_names["coresets"], "uniform"], [2, 6], n_jobs=2, **kw)
    pd.testing.assert_frame_equal(in_workers.drop(columns=clock),
                                  both[both.method.isin([toy_names["coresets"], "uniform"])].reset_index(drop=True)
                                  .drop(columns=clock), check_exact=True)


def _logistic_data(n=40, d=3, seed=0):
    rng = np.random.default_rng(seed)
    Z, Zt = rng.normal(size=(n, d)), rng.normal(size=(n // 2, d))
    w = rng.normal(size=d)
    y, yt = (np.where(rng.random(len(M)) < 1 / (1 + np.exp(-M @ w)), 1.0, -1.0) for M in (Z, Zt))
    return {"Z": Z, "y": y, "Zt": Zt, "yt": yt}


def test_compare_methods_runs_a_registered_rule_beside_the_papers_which_do_not_change(toy_names):
    """C2/C3's runner: the toy rule's runs appear (its steps 0.3), the paper rules' records equal a run without it
    (times aside), the summary table labels it from the registry, and two workers register it themselves."""
    from inferopt.experiment.boosting import by_method, compare_methods, summary_table

    mine = toy_names["boosting"]
    kw = dict(max_iter=2, n_replicates=2, n_eval=10, family="gaussian", n_samples=10,
              greedy={"max_iter": 5, "n_samples": 2})
    data = _logistic_data()

    def paper_rows(records):
        rows = records[records.method.isin(["predefined", "adafw"])].reset_index(drop=True)
        return rows.drop(columns=[c for c in rows if c.startswith("time")])

    alone = compare_methods(data, methods=["predefined", "adafw"], rng=np.random.default_rng(5), **kw)
    both = compare_methods(data, methods=[mine, "predefined", "adafw"], rng=np.random.default_rng(5), **kw)
    pd.testing.assert_frame_equal(paper_rows(both), paper_rows(alone), check_exact=True)
    assert np.allclose(both[(both.method == mine) & (both.iteration >= 1)].gamma, 0.3)
    assert toy_methods.constant_step.label in summary_table(both).index and mine in by_method(both).index
    in_workers = compare_methods(data, methods=[mine, "predefined"], rng=np.random.default_rng(5), n_jobs=2, **kw)
    pd.testing.assert_frame_equal(paper_rows(in_workers[in_workers.method == mine].assign(method="predefined")),
                                  paper_rows(both[both.method == mine].assign(method="predefined")), check_exact=True)
    with pytest.raises(ValueError, match="methods"):
        compare_methods(data, methods=["predefined", "not_a_rule"], rng=0, **kw)


def test_spectral_calls_run_a_registered_optimiser_beside_the_papers_which_do_not_change(toy_names, completion_calls):
    """D3/D5's runs: the toy optimiser's calls (its own stream) run with the paper's; the paper's runs give the same
    traces with and without it, the toy's are reproducible, and bad names or options are refused by name."""
    from inferopt.experiment.extra import spectral_calls
    from inferopt.experiment.parallel import run_calls
    from inferopt.spectral import inverse_time_step

    mine = toy_names["spectral"]
    sgd_call = completion_calls()["SGD"]
    problem, theta0 = sgd_call.args

    def yours():
        return spectral_calls([mine], problem, theta0, rng=np.random.SeedSequence([0, 1]), max_iter=12,
                              step=inverse_time_step(4.0, 0.1), M=3, eval_every=2)

    alone = run_calls(completion_calls())
    both = run_calls(completion_calls() | yours())
    for m, res in alone.items():
        assert np.array_equal(both[m].metric, res.metric) and np.array_equal(both[m].x, res.x), m
    again = run_calls(yours())[mine]
    assert np.array_equal(both[mine].metric, again.metric) and not np.array_equal(both[mine].x, both["SGD"].x)
    with pytest.raises(ValueError, match="names"):
        spectral_calls(["SGD"], problem, theta0, rng=0)
    with pytest.raises(ValueError, match="options"):
        spectral_calls([mine], problem, theta0, rng=0, N=5)
    with pytest.raises(TypeError, match="names"):
        spectral_calls(mine, problem, theta0, rng=0)


def test_methods_beyond_finds_your_methods_in_an_earlier_experiments_table(toy_names):
    """A8 reads A4's and A5's trials: the methods outside the paper's, registered or not (then labelled by name)."""
    from inferopt.experiment.extra import methods_beyond

    t = pd.DataFrame({"method": ["giga", toy_names["coresets"], "someone_elses", "giga", "a_iht"]})
    assert methods_beyond(t, ["giga", "a_iht"], "coresets") == [toy_names["coresets"], "someone_elses"]
    assert label("someone_elses") == "someone_elses" and label(toy_names["coresets"]) == toy_methods.greedy_topk.label
    assert methods_beyond(t, ["giga", "a_iht", "someone_elses", toy_names["coresets"]], "coresets") == []
    with pytest.raises(ValueError, match="family"):
        methods_beyond(t, ["giga"], "kernels")
    with pytest.raises(ValueError, match="table"):
        methods_beyond(t.rename(columns={"method": "solver"}), ["giga"], "coresets")


def test_sobolev_curves_run_a_registered_herding_rule_without_changing_the_papers(toy_names):
    """B1's runner: the toy rule's curve (and its -proj) appear; every paper curve, the random draws included, equals
    a run without it."""
    from inferopt.experiment.herding import CG_METHODS, sobolev_curves
    from inferopt.herding import SobolevTarget, TrigDensity

    density = TrigDensity.random(np.random.default_rng(0), degree=2)
    target, grid = SobolevTarget(1, density), np.arange(128) / 128

    def run(methods):
        return sobolev_curves(target, density, grid, 12, [2, 6, 12], 2, np.random.default_rng(1), methods=methods)

    mine = toy_names["herding"]
    alone, both = run(CG_METHODS), run(CG_METHODS | {mine: mine})
    paper = both[~both.method.isin([mine, mine + "-proj"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(paper, alone, check_exact=True)
    assert (both.method == mine).sum() == 12 and (both.method == mine + "-proj").sum() == 3


def test_state_curves_herd_with_a_registered_rule(toy_names):
    """B4/B5's runner takes the toy herding rule by name: its moment error falls (it herds towards the moments)."""
    from inferopt.experiment.herding import state_curves
    from inferopt.herding import all_states, independent_maxent

    S, m = all_states(3), np.array([0.2, -0.4, 0.1])
    curves = state_curves(S, m, independent_maxent(S, m), 200, toy_names["herding"], [10, 200])
    assert curves.mean_error.iloc[-1] < curves.mean_error.iloc[0]


def test_run_methods_with_added_options_leaves_uniforms_draws_alone(toy_names):
    """A2's baselines: Uniform draws from the trial's generator, the toy from its own stream (added_options), so
    Uniform's coreset is the same with and without the toy."""
    from inferopt.experiment.coresets import run_methods
    from inferopt.experiment.coresets.conjugate_trials import added_options

    Phi, y = cs.exact_problem(cs.make_gaussian_mean(5, 30, rng=2))

    def weights(methods):
        rng = np.random.default_rng(9)
        runs = run_methods(Phi, y, [4], methods, options={"uniform": {"rng": rng}} | added_options(rng))
        return {m: run["weights"] for m, run in runs.items()}

    alone, both = weights(["uniform"]), weights([toy_names["coresets"], "uniform"])
    assert np.array_equal(alone["uniform"], both["uniform"]) and np.count_nonzero(both[toy_names["coresets"]]) <= 4
