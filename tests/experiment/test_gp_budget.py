"""D5's common budget in work (inferopt.experiment.spectral.gp_budget): every method's runs cut at the authors' LANCZOS's
median products, so the claims' targets are the same whatever the CPU's speed or load; bad arguments refused by name."""

import copy
import zlib

import numpy as np
import pytest

import inferopt.spectral.optim as optim
from inferopt.experiment.spectral import choose_eta0, gp_comparison
from inferopt.experiment.spectral.gp_budget import (OUR_ARM, PAPER_ARM, PAPER_PRODUCTS_PER_DEGREE, IterateLog, arm_scores, cut_at_work, paper_cost_cells, paper_cost_run, paper_cost_runs, run_to_work,
                                                   work_budget)
from inferopt.spectral import SKIGaussianProcess, SpectralSolveResult, inverse_time_step, lanczos_gd, lanczos_lbfgs, rademacher, sgd
from inferopt.spectral.gp import LogHyperparameters

AUTHORS = "LANCZOS (authors)"
SHARES = [0.1, 0.5, 0.9]


def run(rate, per_record, seconds, T=20, floor=1.0):
    """A run whose test RMSE falls from 2 by ``rate`` a record to ``floor``, ``per_record`` products and ``seconds`` CPU
    seconds a record; its iterates kept as run_to_work keeps them (one a record, its checksum traced)."""
    t = np.arange(T + 1.0)
    iterates = [np.array([1.0, 1.0, 1.0 + k]) for k in range(T + 1)]
    return SpectralSolveResult(x=iterates[-1], objective=np.zeros(t.size), n_iter=T, converged=False, message="", times=seconds * t,
                               iterations=np.arange(T + 1), metric=np.maximum(2.0 - rate * t, floor), matvecs=per_record * t,
                               checksums=np.array([zlib.crc32(th.data) for th in iterates], dtype=np.uint32),
                               info={"iterates": iterates, "degrees": np.arange(T)})


def machine(load):
    """D5's runs on one machine: the authors' LANCZOS 100 products a record down to a floor of 1.0, SGD 50 products a record,
    slower a record (0.02) but going on to a floor of 0.8 at 60 records, past the authors' budget; ``load`` {method: CPU
    seconds a record}."""
    res = {("humidity", AUTHORS, k): run(0.05, 100.0, load[AUTHORS], T=T) for k, T in enumerate((16, 20, 24))}
    return res | {("humidity", "SGD", k): run(0.02, 50.0, load["SGD"], T=100, floor=0.8) for k in range(3)}


def cut_all(res, budget):
    return {k: cut_at_work(r, budget) for k, r in res.items()}


def test_work_budget_is_the_authors_median_work():
    res = machine({AUTHORS: 1.0, "SGD": 1.0})
    assert work_budget(res, "humidity", AUTHORS) == 2000.0          # runs of 16, 20, 24 records of 100 products
    assert work_budget(res, "humidity", "SGD") == 5000.0
    with pytest.raises(ValueError, match="no run of method"):
        work_budget(res, "sound", AUTHORS)
    with pytest.raises(ValueError, match="results"):
        work_budget({}, "humidity", AUTHORS)


def test_targets_on_runs_cut_to_the_work_budget_are_the_same_whatever_the_cpu_speed():
    """Two machines, one slower and loaded unevenly (SGD's records 12x slower than on the first, the authors' 3x): the work
    budget (the authors' median products) cuts every run at the same record, so the reference, the targets and every cost in
    products are the same; CPU seconds only are reported. A budget of the authors' median CPU seconds (the time budget of the
    earlier code) let SGD run 80 records on the first machine, 20 on the second: its reference, so the targets, moved."""
    fast, slow = machine({AUTHORS: 1.0, "SGD": 0.25}), machine({AUTHORS: 3.0, "SGD": 3.0})
    tables = []
    for res in (fast, slow):
        cut = cut_all(res, work_budget(res, "humidity", AUTHORS))
        assert {k[1]: float(r.matvecs[-1]) for k, r in cut.items()} == {AUTHORS: 2000.0, "SGD": 2000.0}
        tables.append(gp_comparison(cut, ("SGD", AUTHORS), SHARES))
    a, b = tables
    assert a.attrs["targets"] == b.attrs["targets"]
    cols = ["final RMSE", "total matvecs"] + [f"matvecs to {s:g}" for s in SHARES] + [f"records to {s:g}" for s in SHARES]
    assert a[cols].equals(b[cols]) and not a["total time"].equals(b["total time"])
    # SGD at 1.2 after its 40 records in the budget, the authors' median run at its floor 1.0: the reference is 1.0
    assert a.attrs["targets"]["humidity"][0.9] == pytest.approx(2.0 - 0.9 * 1.0)

    def by_time(res):   # the earlier code's budget: every run cut at the authors' median CPU seconds
        limit = np.median([r.times[-1] for k, r in res.items() if k[1] == AUTHORS])
        return {k: cut_at_work(r, float(r.matvecs[np.searchsorted(r.times, limit, side="right") - 1])) for k, r in res.items()}
    timed = [gp_comparison(by_time(res), ("SGD", AUTHORS), SHARES).attrs["targets"]["humidity"] for res in (fast, slow)]
    assert timed[0][0.9] == pytest.approx(2.0 - 0.9 * 1.2) and timed[1][0.9] == pytest.approx(2.0 - 0.9 * 1.0)


def test_cut_at_work_keeps_the_last_record_within_the_budget_and_its_iterate():
    r = run(0.05, 100.0, 1.0)
    cut = cut_at_work(r, 1050.0)
    assert cut.matvecs[-1] == 1000.0 and cut.n_iter == 10 and cut.x.tolist() == [1.0, 1.0, 11.0]
    assert cut.info["degrees"].tolist() == list(range(10)) and len(cut.info["iterates"]) == 11 and "work budget" in cut.message
    assert cut_at_work(r, 1e9) is r and cut_at_work(r, None) is r
    assert cut_at_work(r, 1.0).n_iter == 0                            # the start always stands
    bad = run(0.05, 100.0, 1.0)
    bad.info["iterates"] = bad.info["iterates"][1:] + bad.info["iterates"][:1]
    with pytest.raises(ValueError, match="iterates"):
        cut_at_work(bad, 1050.0)
    del bad.info["iterates"]
    with pytest.raises(ValueError, match="iterates"):
        cut_at_work(bad, 1050.0)
    with pytest.raises(ValueError, match="budget"):
        cut_at_work(r, -1.0)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(0, 50, 200))
    return x, np.sin(x / 3) + 0.2 * rng.standard_normal(200), np.linspace(1, 49, 20)


def make(data):
    x, y, xt = data
    return SKIGaussianProcess(x, y, r=60, x_test=xt, y_test=np.sin(xt / 3), low=[0.01, 0.01, 0.1], high=[10, 10, 100], cg_tol=1e-6,
                              rng=0, dense_limit=0)


def fake_clock(monkeypatch, speed):
    """The optimisers' CPU clock advancing ``speed`` seconds a reading: a machine of another speed."""
    now = {"t": 0.0}

    def clock():
        now["t"] += speed
        return now["t"]
    monkeypatch.setattr(optim, "clock", clock)


def test_real_runs_to_a_work_budget_are_the_same_on_a_fast_and_a_slow_clock(data, monkeypatch):
    """SGD, our LANCZOS and the authors' LANCZOS to the authors' products on two fake clocks: the same iterates, test RMSEs
    and products; SGD's and our LANCZOS's step caps (2, doubled until the budget is spent) end nowhere but at the budget, each
    run the same as one made directly to the cut's step count."""
    theta0 = np.array([1.0, 0.5, 2.0])
    Z = rademacher(np.random.default_rng(1), 200, 5)
    step = inverse_time_step(0.5 / 200, 0.02)
    got = []
    for speed in (1.0, 7.0):
        fake_clock(monkeypatch, speed)
        authors = run_to_work(lanczos_lbfgs, make(data), theta0, Z=Z, n_steps=15, max_evals=12, optimiser="minimize")
        budget = work_budget({("d", AUTHORS, 0): authors}, "d", AUTHORS)
        s = run_to_work(sgd, LogHyperparameters(make(data)), np.log(theta0), budget, 2, step=step, M=2, N=10, rng=np.random.SeedSequence(5))
        lan = run_to_work(lanczos_gd, LogHyperparameters(make(data)), np.log(theta0), budget, 2, step=step, M=2, rng=np.random.SeedSequence(5))
        got.append((authors, s, lan))
        for r in (s, lan):
            assert r.matvecs[-1] <= budget and r.n_iter > 2 and "work budget" in r.message
    for r1, r2 in zip(*got):
        assert np.array_equal(r1.metric, r2.metric) and np.array_equal(r1.matvecs, r2.matvecs) and np.array_equal(r1.x, r2.x)
        assert r2.times[-1] > r1.times[-1]
    s = got[0][1]
    direct = sgd(LogHyperparameters(make(data)), np.log(theta0), max_iter=s.n_iter, step=step, M=2, N=10, rng=np.random.SeedSequence(5))
    assert np.array_equal(direct.x, s.x) and np.array_equal(direct.metric, s.metric) and np.array_equal(direct.matvecs, s.matvecs)
    with pytest.raises(ValueError, match="steps"):
        run_to_work(sgd, LogHyperparameters(make(data)), np.log(theta0), 10.0, 0, step=step)
    with pytest.raises(TypeError, match="problem"):
        IterateLog(object())


def doubled_runs(solver, problem, theta0, budget, steps, **kwargs):
    """run_to_work as it was before issue 46 (the oracle of the tests below): the run made afresh on a fresh copy of
    ``problem`` with its step cap doubled until its last record's work reaches the budget, then cut there."""
    while True:
        log = IterateLog(copy.deepcopy(problem))
        res = solver(log, theta0, max_iter=steps, **kwargs)
        res.info["iterates"] = log.iterates
        if res.matvecs[-1] >= budget or res.n_iter < steps:
            return cut_at_work(res, budget)
        steps *= 2


def assert_same_cut(a, b):
    """Two runs to a budget equal in everything but the CPU seconds: iterates kept, traces, products, steps, message, info."""
    for name in ("x", "objective", "metric", "matvecs", "iterations", "checksums"):
        assert np.array_equal(getattr(a, name), getattr(b, name), equal_nan=True), name
    assert (a.n_iter, a.converged, a.message, a.times.shape) == (b.n_iter, b.converged, b.message, b.times.shape)
    assert a.info.keys() == b.info.keys()
    for k in a.info:
        if k == "iterates":
            assert len(a.info[k]) == len(b.info[k]) and all(np.array_equal(u, v) for u, v in zip(a.info[k], b.info[k]))
        else:
            assert np.array_equal(a.info[k], b.info[k]), k


STEPPED = [(sgd, dict(M=2, N=10)), (lanczos_gd, dict(M=2))]


@pytest.mark.parametrize(("solver", "kwargs"), STEPPED, ids=["sgd", "lanczos_gd"])
def test_a_run_to_work_is_the_doubled_runs_cut_at_the_budget(data, solver, kwargs):
    """Issue 46: one run, not the run made again at every doubled cap, and the same result, bit for bit: a budget the
    run's work passes after step 10 (from a cap of 2: caps 2, 4, 8 and 16 before; from a cap of 16: the first cap passes it),
    the same as a run of 16 steps cut there; and a budget the work meets exactly at the cap of 8 (the run of 8 steps whole,
    as the doubled runs ended there)."""
    theta0 = np.log([1.0, 0.5, 2.0])
    kwargs = kwargs | dict(step=inverse_time_step(0.5 / 200, 0.02), rng=np.random.SeedSequence(5))
    log = IterateLog(LogHyperparameters(make(data)))
    long = solver(log, theta0, max_iter=16, **kwargs)
    long.info["iterates"] = log.iterates
    work = long.matvecs
    assert work[4] < work[8] < work[9] < work[10] < work[11]
    passed = (work[10] + work[11]) / 2
    for budget, steps in ((passed, 2), (passed, 16), (float(work[8]), 2)):
        got = run_to_work(solver, LogHyperparameters(make(data)), theta0, budget, steps, **kwargs)
        assert_same_cut(got, doubled_runs(solver, LogHyperparameters(make(data)), theta0, budget, steps, **kwargs))
        if budget == passed:
            assert_same_cut(got, cut_at_work(long, budget))
            assert got.n_iter == 10 and "work budget" in got.message
        else:
            assert got.n_iter == 8 and got.matvecs[-1] == budget and got.message == "iteration budget reached"


@pytest.mark.parametrize(("solver", "kwargs"), STEPPED, ids=["sgd", "lanczos_gd"])
def test_a_run_to_work_makes_each_step_once(data, solver, kwargs, monkeypatch):
    """Issue 46: the gradients computed are the steps of the run, each once, up to the first step past the budget (the
    doubled runs computed the first 2 steps four times, the next 2 three times, ...); the caller's problem is not touched."""
    theta0 = np.log([1.0, 0.5, 2.0])
    kwargs = kwargs | dict(step=inverse_time_step(0.5 / 200, 0.02), rng=np.random.SeedSequence(5))
    made = {"gradients": 0}
    for name in ("spectral_grad", "lanczos_spectral_grad"):
        def counted(self, *args, _grad=getattr(SKIGaussianProcess, name)):
            made["gradients"] += 1
            return _grad(self, *args)
        monkeypatch.setattr(SKIGaussianProcess, name, counted)
    problem = LogHyperparameters(make(data))
    long = solver(LogHyperparameters(make(data)), theta0, max_iter=12, **kwargs)
    made["gradients"] = 0
    got = run_to_work(solver, problem, theta0, float(long.matvecs[10] + long.matvecs[11]) / 2, 2, **kwargs)
    assert got.n_iter == 10 and made["gradients"] == 11       # steps 1..10 within the budget, step 11 past it
    assert problem.matvecs == 0


def sgd_trace(degrees, probes, other, seconds_per_product=0.01):
    """A hand-made SGD run: step j draws ``degrees[j]``, costing ``1.2 × probes × degrees[j]`` products (our adjoint gradient's
    calibrated count) plus ``other`` (CG for alpha); a record after every step, its seconds proportional to its products."""
    from inferopt.spectral.gp import SGD_PRODUCTS_PER_DEGREE
    degrees = np.asarray(degrees, dtype=float)
    work = np.r_[0.0, np.cumsum(SGD_PRODUCTS_PER_DEGREE * probes * degrees + other)]
    r = run(0.05, 1.0, 1.0, T=degrees.size)
    r.matvecs, r.times, r.info["degrees"] = work, seconds_per_product * work, degrees
    return r


def test_paper_cost_reprices_each_degree_at_recursion_6_and_keeps_the_other_products():
    degrees, probes, other = [10, 20, 30, 40], 3, 7.0
    r = sgd_trace(degrees, probes, other)
    paper = paper_cost_run(r, probes)
    want = np.r_[0.0, np.cumsum(PAPER_PRODUCTS_PER_DEGREE * probes * np.asarray(degrees) + other)]   # 6n per probe: 4n with A, 2n sandwiches
    assert PAPER_PRODUCTS_PER_DEGREE == 6.0 and np.allclose(paper.matvecs, want)
    assert np.allclose(paper.times, 0.01 * want)                       # seconds: an estimate at the run's own seconds per product
    assert "estimate" in paper.info["cost"] and np.allclose(r.matvecs[1], 1.2 * 3 * 10 + 7)   # the run itself is untouched


def test_paper_cost_cuts_at_the_shared_budget_the_repriced_trace_crosses_earlier():
    degrees, probes, other = [10, 10, 10, 10], 2, 0.0
    r = sgd_trace(degrees, probes, other)                               # 24 products a step at our cost, 120 at the paper's
    budget = 100.0
    assert cut_at_work(r, budget).n_iter == 4                           # at our cost the whole run fits the budget
    paper = paper_cost_run(r, probes, budget)
    assert paper.n_iter == 0 and paper.matvecs.tolist() == [0.0]       # at the paper's cost no step fits: equal work, fewer steps
    assert paper_cost_run(r, probes, 250.0).n_iter == 2
    runs = paper_cost_runs({("humidity", "SGD", 0): r, ("humidity", AUTHORS, 0): r}, probes, {"humidity": 250.0})
    assert runs[("humidity", "SGD", 0)].n_iter == 2 and runs[("humidity", AUTHORS, 0)] is r
    with pytest.raises(ValueError, match="budgets"):
        paper_cost_runs({("sound", "SGD", 0): r}, probes, {"humidity": 250.0})


def test_paper_cost_cells_reprice_each_cell_at_its_own_probes_and_budget():
    """A map's cells: the 'probes 4' cell's SGD drew 4 probes a step (its degree part 4 x 1.2 x 10 = 48 products a step at our cost),
    the 'budget 2x' cell ran to twice the budget: re-priced with the main cell's probes (2) and budget, the first would count half its
    degree products and the second be cut at the wrong work."""
    main, wide, longer = sgd_trace([10] * 4, 2, 0.0), sgd_trace([10] * 4, 4, 0.0), sgd_trace([10] * 4, 2, 0.0)
    runs = {("main", "humidity", "SGD", 0): main, ("probes 4", "humidity", "SGD", 0): wide, ("budget 2x", "humidity", "SGD", 0): longer,
            ("main", "humidity", AUTHORS, 0): main}
    got = paper_cost_cells(runs, {"probes 4": {"probes": 4}, "budget 2x": {"budget": 2}}, 2, {"humidity": 250.0})
    assert got[("main", "humidity", "SGD", 0)].n_iter == 2                       # 120 products a step at the paper's cost, 250 budget
    assert np.allclose(got[("probes 4", "humidity", "SGD", 0)].matvecs, [0.0, 240.0])   # 240 a step with 4 probes: one fits (two at 2 probes)
    assert got[("budget 2x", "humidity", "SGD", 0)].n_iter == 4                  # 500 products: all four steps fit
    assert got[("main", "humidity", AUTHORS, 0)] is main
    with pytest.raises(ValueError, match="runs"):
        paper_cost_cells({("humidity", "SGD", 0): main}, {}, 2, {"humidity": 250.0})
    with pytest.raises(ValueError, match="budget"):
        paper_cost_cells(runs, {"budget 2x": {"budget": 0}}, 2, {"humidity": 250.0})
    with pytest.raises(TypeError, match="settings"):
        paper_cost_cells(runs, {"budget 2x": 2}, 2, {"humidity": 250.0})


def with_path(r, path):
    """``r`` with its recorded iterates' lengthscales along ``path`` (one a record), checksums traced as run_to_work's."""
    iterates = [np.array([1.0, 1.0, v]) for v in path]
    r.info["iterates"], r.x = iterates, iterates[-1]
    r.checksums = np.array([zlib.crc32(th.data) for th in iterates], dtype=np.uint32)
    return r


def test_the_eta0_pilot_picks_sgd_at_the_papers_cost_by_its_repriced_run():
    """Two eta0 candidates, 4 steps of 24 products at our cost each (120 at the paper's: the budget of 250 ends the re-priced run after
    2 steps). eta0 0.6 ends best as run (5 against 7) but is worse after 2 steps (3 against 0.2): SGD at the paper's cost must take
    1.2, the step best for the run it is judged on, and SGD at our cost 0.6; the old pilot scored both at the run's own end."""
    runs = {0.6: with_path(sgd_trace([10] * 4, 2, 0.0), [1, 2, 3, 4, 5]), 1.2: with_path(sgd_trace([10] * 4, 2, 0.0), [1, 0.5, 0.2, 6, 7])}
    called = []
    score = lambda r: called.append(r.x[2]) or float(r.x[2])           # the end point's "likelihood": smaller is better
    got = {e: arm_scores("SGD", r, score, 2, 250.0) for e, r in runs.items()}
    assert got == {0.6: {PAPER_ARM: 3.0, OUR_ARM: 5.0}, 1.2: {PAPER_ARM: 0.2, OUR_ARM: 7.0}}
    assert choose_eta0({e: [v[PAPER_ARM]] for e, v in got.items()})[0] == 1.2
    assert choose_eta0({e: [v[OUR_ARM]] for e, v in got.items()})[0] == 0.6
    assert arm_scores("LANCZOS", runs[0.6], score, 2, 250.0) == {"LANCZOS": 5.0}          # no re-pricing: its own end
    called.clear()
    assert arm_scores("SGD", runs[0.6], score, 2, 1e6) == {PAPER_ARM: 5.0, OUR_ARM: 5.0} and called == [5.0]   # one end point, one score
    assert arm_scores("SGD", runs[0.6], score, 2, 250.0, wanted=[PAPER_ARM]) == {PAPER_ARM: 3.0}
    with pytest.raises(ValueError, match="wanted"):
        arm_scores("LANCZOS", runs[0.6], score, 2, 250.0, wanted=[OUR_ARM])
    with pytest.raises(TypeError, match="score"):
        arm_scores("SGD", runs[0.6], None, 2, 250.0)
    with pytest.raises(TypeError, match="method"):
        arm_scores("", runs[0.6], score, 2, 250.0)
