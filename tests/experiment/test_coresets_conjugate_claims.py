"""The deciding code of claims A1-A3 (inferopt.experiment.coresets.conjugate_claims): each test
can hold and can fail on constructed trial tables."""

import numpy as np
import pandas as pd
import pytest

from inferopt.experiment.claims import Unearned
from inferopt.experiment.coresets import conjugate_claims as cc
from inferopt.experiment.support import deterministic
from inferopt.experiment.verdict_map import cell

KS = [1, 10, 20, 30]


def kl_table(curves: dict, n_trials=3, noise=0.0, n_iter=None, seconds=None):
    """Trials x sizes x methods with reverse/forward KL from ``curves[method](k)``."""
    rng = np.random.default_rng(0)
    rows = []
    for t in range(n_trials):
        for m, f in curves.items():
            for k in KS:
                v = f(k) * (1 + noise * rng.standard_normal())
                rows.append({"trial": t, "method": m, "k": k, "reverse_kl": v, "forward_kl": v,
                             "n_iter": (n_iter or {}).get(m, k), "seconds": (seconds or {}).get(m, 1.0)})
    return pd.DataFrame(rows)


def test_beats_and_first_k():
    t = kl_table({"a": lambda k: 1 / k, "b": lambda k: 0.5 if k < 20 else 10 / k**2})
    m = cc.median_table(t)
    assert cc.beats_at(m, [20, 30], ["b"], ["a"])
    assert not cc.beats_at(m, [1, 10], ["b"], ["a"])
    assert cc.first_k_beating(m, ["b"], ["a"]) == 20
    assert cc.first_k_beating(m, ["a"], ["b"]) is None
    # both at the optimum: a tie won
    z = cc.median_table(kl_table({"a": lambda k: 0.0, "b": lambda k: 0.0}))
    assert cc.beats_at(z, KS, ["a"], ["b"], near_zero=1e-3) and not cc.beats_at(z, KS, ["a"], ["b"])


def test_iht_beats_baselines_holds_and_fails():
    t = kl_table({"iht": lambda k: 1e-4 / k, "giga": lambda k: 1.0 / k})
    assert cc.iht_beats_baselines(t, [20, 30], ["iht"], ["giga"], near_zero=1e-3, at_zero=["iht"])
    assert not cc.iht_beats_baselines(t, [20, 30], ["giga"], ["iht"], near_zero=1e-3)
    assert not cc.iht_beats_baselines(t, [20, 30], ["iht"], ["giga"], near_zero=1e-9, at_zero=["iht"])


def test_sparsevi_flat_ratio():
    flat = kl_table({"sparsevi": lambda k: 0.1})
    falling = kl_table({"sparsevi": lambda k: 1.0 / k**3})
    assert cc.sparsevi_flat_ratio(flat, 20) == pytest.approx(1.0)
    assert cc.sparsevi_flat_ratio(falling, 20) < 0.5


def test_near_zero_first():
    t = kl_table({"fast": lambda k: 1e-5 if k >= 10 else 1.0, "slow": lambda k: 1e-5 if k >= 30 else 1.0})
    assert cc.reaches_near_zero_first(t, "fast", "slow", near_zero=1e-3)
    assert not cc.reaches_near_zero_first(t, "slow", "fast", near_zero=1e-3)
    assert cc.first_near_zero(cc.median_table(t), "slow", 1e-9) is None


def test_fewer_iterations_products_and_ratio():
    t = kl_table({"a_iht": lambda k: 1.0, "a_iht_ii": lambda k: 1.0, "iht": lambda k: 1.0, "giga": lambda k: 1.0},
                 n_iter={"a_iht": 100, "a_iht_ii": 50, "iht": 300, "giga": 30})
    p = cc.with_products(t)
    assert set(p[p.method == "a_iht_ii"].products) == {250} and set(p[p.method == "giga"].products) == {30}
    assert cc.fewer(t, "a_iht_ii", "a_iht", [20, 30])
    assert not cc.fewer(t, "a_iht", "a_iht_ii", [20, 30])
    # in products A-IHT II's 5 per iteration: 250 < 300 holds; with 70 iterations (350) it fails
    assert cc.fewer(t, "a_iht_ii", "a_iht", [20, 30], column="products")
    t2 = t.assign(n_iter=np.where(t.method == "a_iht_ii", 70, t.n_iter))
    assert cc.fewer(t2, "a_iht_ii", "a_iht", [20, 30]) and not cc.fewer(t2, "a_iht_ii", "a_iht", [20, 30], column="products")
    # "much slower": IHT 600 products against GIGA's 30
    assert cc.fewer(t, "giga", "iht", [30], column="products", ratio=1 / 5)
    assert not cc.fewer(t, "giga", "iht", [30], column="products", ratio=1 / 50)
    assert cc.median_work(t, ["iht"], [30], "seconds") == {"iht": 1.0}
    with pytest.raises(ValueError, match="ratio"):
        cc.fewer(t, "giga", "iht", [30], ratio=0.0)


def test_more_accurate_share():
    t = kl_table({"a": lambda k: 1.0 / k, "b": lambda k: 2.0 / k if k < 20 else 0.1 / k})
    assert cc.more_accurate_share(t, "b", "a") == pytest.approx(0.5)
    assert cc.more_accurate_share(t, "a", "b") == pytest.approx(0.5)


def test_first_below_and_crossings():
    assert cc.first_below([10.0, 5.0, 3.0, 1.0], 4.0) == 2
    assert cc.first_below([10.0, 5.0], 1.0) is None
    cr = pd.DataFrame({"trial": [0, 1, 2], "iht": "a_iht", "baseline": "giga", "iteration": [20, 30, 40]})
    assert cc.median_crossing(cr, "a_iht", "giga") == 30
    assert cc.passes_within(cr, [("a_iht", "giga", 30)], 1.0)
    assert not cc.passes_within(cr, [("a_iht", "giga", 20)], 1.0)
    with pytest.raises(ValueError, match="no rows"):
        cc.median_crossing(cr, "a_iht_ii", "giga")


def test_factor_cells_and_diagnosis():
    def crossings(its):
        return pd.DataFrame({"trial": range(len(its)), "iht": "a_iht", "baseline": "sparsevi", "iteration": its})

    def test(t):
        return cc.passes_within(t, [("a_iht", "sparsevi", 100)], 1.0)

    fast, slow, split = crossings([40, 50, 60, 45, 55] * 2), crossings([240, 250, 301, 245, 255] * 2), crossings([50, 60, 150, 301] * 3)
    E, A = "exact", "authors"

    def grid(ee, ea, ae, aa):  # (step, constant)
        return cc.factor_cells(test, {(E, E): ee, (E, A): ea, (A, E): ae, (A, A): aa})

    same = grid(fast, slow, slow, fast)
    assert [c["verdict"] for c in same] == ["holds", "fails", "fails", "holds"] and cc.factor_diagnosis(same, "x") is None
    assert [c.get("construction") for c in same] == ["ours", None, None, "authors"]
    # ours fails, theirs holds, and only the step rule moves the verdict: 'construction' naming it
    by_step = grid(slow, slow, fast, fast)
    assert cc.moving_factors(by_step) == ["step"]
    d = cc.factor_diagnosis(by_step, "A-IHT is slow here.")
    assert d["kind"] == "construction" and "our construction: fails" in d["text"] and "the authors': holds" in d["text"]
    assert "the IHT step rule" in d["text"] and "constant row of" not in d["text"].split("moves the verdict")[0]
    assert cc.moving_factors(grid(slow, fast, slow, fast)) == ["constant"]
    # ours undecided: nothing earned, the reason naming the factor and what would decide it
    undecided = grid(split, split, fast, fast)
    assert undecided[0]["verdict"] == "inconclusive"
    u = cc.factor_diagnosis(undecided, "x", to_decide="More trials would decide it.")
    assert isinstance(u, Unearned) and "Our construction is undecided" in u.reason and "the IHT step rule" in u.reason
    assert "no 'construction' difference is earned" in u.reason and "differs with the construction" not in u.reason
    assert u.reason.endswith("More trials would decide it.")
    assert cc.moving_factors(grid(slow, fast, fast, slow)) == ["step", "constant"]  # each moves it at both values
    assert cc.moving_factors(grid(slow, slow, slow, fast)) == []  # only the two together
    with pytest.raises(ValueError, match="tables"):
        cc.factor_cells(test, {(E, E): fast})


def test_objective_drop():
    it = np.arange(301)
    falling = pd.DataFrame({"trial": 0, "method": "a", "iteration": it, "objective": 1.0 / (1 + it)})
    flat = pd.DataFrame({"trial": 0, "method": "b", "iteration": it, "objective": np.where(it < 100, 1.0 / (1 + it), 0.01)})
    t = pd.concat([falling, flat])
    assert cc.objective_drop(t, "a", 50) > 0.1
    assert cc.objective_drop(t, "b", 50) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="cannot show"):
        cc.objective_drop(t, "a", 400)
    # A2.4's count: of two traces of "a", the one flat over its last 50 iterations is all but stalled
    two = pd.concat([falling, flat.assign(trial=1, method="a")])
    assert cc.objective_drops(two, "a", 50).round(3).tolist() == [round(50 / 301, 3), 0.0]
    assert cc.stalled_traces(two, "a", 50, 0.01) == 1 and cc.stalled_traces(two, "a", 50, 0.0) == 0


def test_gradient_pairs():
    t = pd.DataFrame({"trial": [0, 0, 1, 1], "gradient": ["full", "restricted"] * 2, "objective": [1.0, 2.0, 1.0, 1.0]})
    assert cc.gradient_pairs(t) == {"full better": 1, "ties": 1, "restricted better": 0, "pairs": 2}
    with pytest.raises(ValueError, match="restricted"):
        cc.gradient_pairs(t[t.gradient == "full"])


def test_always_better_and_rank_correlation():
    t = kl_table({"a_iht": lambda k: 1.0 / k, "giga": lambda k: 2.0 / k, "sparsevi": lambda k: float(k)})
    assert cc.always_better(t, ["a_iht"], ["giga", "sparsevi"], [20, 30])
    assert not cc.always_better(t, ["giga"], ["a_iht"], [20, 30])
    assert cc.sparsevi_rank_correlation(t, KS) == pytest.approx(1.0)
    down = kl_table({"sparsevi": lambda k: 1.0 / k})
    assert cc.sparsevi_rank_correlation(down, KS) == pytest.approx(-1.0)


def test_contours_and_reverse_kl_misleads():
    c = pd.DataFrame({"trial": [0, 0, 1, 1], "method": ["a_iht_ii", "sparsevi"] * 2, "relative_rms_difference": [0.01, 0.5, 0.02, 0.4]})
    assert cc.contours_match(c, 0.05) and not cc.contours_match(c, 0.005) and not cc.contours_match(c, 0.6)
    res = kl_table({"a_iht_ii": lambda k: 2.0, "sparsevi": lambda k: 1.0}, n_trials=2)
    t = cc.kl_and_surface(res, c, 30)
    assert len(t) == 4 and cc.reverse_kl_misleads(t)
    # the lower reverse KL with the better surface: the reverse KL is not misleading
    assert not cc.reverse_kl_misleads(t.assign(reverse_kl=np.where(t.method == "sparsevi", 3.0, 2.0)))
    with pytest.raises(ValueError, match="no \\(trial, method\\)"):
        cc.kl_and_surface(res, c, 5)


def _cells(verdicts, who=("ours", "ours", "authors"), data=("stand-in", "paper-shape", "stand-in"), support=deterministic()):
    return [cell({"data": f"d{i}", "construction": w}, v, construction=w, data=d, support=support)
            for i, (v, w, d) in enumerate(zip(verdicts, who, data))]


def test_conjugate_diagnosis_kinds():
    chosen = {"data": "d0", "construction": "ours"}
    assert cc.conjugate_diagnosis(_cells([True, False, False]), chosen, "x") is None
    assert cc.conjugate_diagnosis(_cells([False, False, True]), chosen, "x")["kind"] == "construction"
    assert cc.conjugate_diagnosis(_cells([False, True, False]), chosen, "x")["kind"] == "stand-in"
    paper = cc.conjugate_diagnosis(_cells([False, False, False]), chosen, "x")
    assert paper["kind"] == "paper"
    # a failing cell on fewer than MIN_MAP_TRIALS trials is not decisive: no paper diagnosis
    few = cc.conjugate_diagnosis(_cells([False, False, False]), chosen, "x", n_trials={0: 10, 1: 10, 2: 2})
    assert isinstance(few, Unearned) and "do not fail" in few.reason
    # ... nor does a holding one earn a rescue (the audit of issue 43: A3's authors' SparseVI cells on 2 trials)
    small_rescue = cc.conjugate_diagnosis(_cells([False, False, True]), chosen, "x", n_trials={0: 10, 1: 10, 2: 2})
    assert isinstance(small_rescue, Unearned)
    assert cc.conjugate_diagnosis(_cells([False, False, True]), chosen, "x", n_trials={0: 10, 1: 10, 2: 10})["kind"] == "construction"
    # a small chosen cell that holds: the claim holds, no diagnosis
    assert cc.conjugate_diagnosis(_cells([True, False, False]), chosen, "x", n_trials={0: 2}) is None
    # no authors' cell: not earned
    assert isinstance(cc.conjugate_diagnosis(_cells([False, False, False], who=("ours",) * 3), chosen, "x"), Unearned)
    # a holding cell without support or deterministic note rescues nothing
    assert isinstance(cc.conjugate_diagnosis(_cells([False, False, True], support=None), chosen, "x"), Unearned)
    with pytest.raises(ValueError, match="chosen"):
        cc.conjugate_diagnosis(_cells([False, False, False]), {"data": "zz"}, "x")
    with pytest.raises(ValueError, match="at least"):
        cc.conjugate_diagnosis(_cells([False, False]), chosen, "x")


def test_leading_sizes():
    m = cc.median_table(kl_table({"svi": lambda k: 0.1, "iht": lambda k: 1.0 / k, "giga": lambda k: 2.0 / k}))
    assert cc.leading_sizes(m, "svi", ["iht", "giga"]) == [1]
    assert cc.leading_sizes(m, "iht", ["svi"]) == [20, 30]


def test_paired_outcomes_ties_and_verdict():
    close = kl_table({"a": lambda k: 1.0, "b": lambda k: 1.01})  # 1 % apart: ties at a 5 % tolerance
    o = cc.paired_outcomes(close, "a", "b", rel_tol=0.05)
    assert o == {"wins": 0, "ties": 12, "losses": 0, "pairs": 12}
    assert cc.paired_better(close, "a", "b", rel_tol=0.05) is None  # every pair tied: not measured
    assert cc.paired_better(close, "a", "b", rel_tol=0.0) is True
    assert cc.paired_better(close, "b", "a", rel_tol=0.0) is False
    mixed = kl_table({"a": lambda k: 1.0 if k < 20 else 0.5, "b": lambda k: 1.001 if k < 20 else 1.0})
    o = cc.paired_outcomes(mixed, "a", "b", rel_tol=0.01)
    assert (o["wins"], o["ties"], o["losses"]) == (6, 6, 0)
    assert cc.paired_better(mixed, "a", "b", rel_tol=0.01) and not cc.paired_better(mixed, "b", "a", rel_tol=0.01)
    with pytest.raises(ValueError, match="no pairs"):
        cc.paired_outcomes(mixed, "a", "c", rel_tol=0.01)


def test_work_to_level_and_slower_to_level():
    # greedy "giga": KL 1/k after k steps; "iht": KL 1/k after 100 iterations at every k (2 products each)
    t = kl_table({"giga": lambda k: 1.0 / k, "iht": lambda k: 1.0 / k}, n_iter={"giga": None, "iht": 100})
    t.loc[t.method == "giga", "n_iter"] = t.loc[t.method == "giga", "k"]
    assert list(cc.work_to_level(t, "giga", 0.05)) == [20, 20, 20]
    assert list(cc.work_to_level(t, "iht", 0.05)) == [200, 200, 200]
    r = cc.slower_to_level(t, "iht", "giga", 0.05, much=3.0)
    assert r["median"] == pytest.approx(10.0) and r["holds"] and r["censored"] == 0
    quick = t.assign(n_iter=np.where(t.method == "iht", 5, t.n_iter))  # 10 products against GIGA's 20
    assert cc.slower_to_level(quick, "iht", "giga", 0.05, much=3.0)["holds"] is False
    never = t.assign(reverse_kl=np.where(t.method == "iht", 1.0, t.reverse_kl))  # IHT never reaches 0.05: censored
    r = cc.slower_to_level(never, "iht", "giga", 0.05, much=3.0)
    assert r["censored"] == 3 and r["holds"] and np.isinf(r["median"])
    assert cc.slower_to_level(t, "iht", "giga", 1e-6)["holds"] is None  # GIGA never reaches it: not measured


def test_linear_rate():
    it = np.arange(100)
    rows = [{"trial": t, "method": m, "iteration": i, "objective": f}
            for t in range(3) for m, fs in [("lin", 2.0 * 0.9**it), ("flat", np.full(100, 3.0)), ("zero", np.zeros(100))]
            for i, f in zip(it, fs)]
    traces = pd.DataFrame(rows)
    assert cc.linear_rate(traces, "lin", 0, 50) == pytest.approx(0.9)
    assert cc.linear_rate(traces, "flat", 0, 50) == pytest.approx(1.0)
    assert np.isnan(cc.linear_rate(traces, "zero", 0, 50))
    with pytest.raises(ValueError, match="start and stop"):
        cc.linear_rate(traces, "lin", 10, 11)


def test_trace_work_to_level_counts_until_the_level():
    # trial 0: the k = 2 run reaches 0.1 at iteration 7, the k = 4 run at 4; trial 1: never
    rows = [{"trial": 0, "k": k, "iteration": i, "rel_error": 1.0 / (1 + i * s)} for k, s in [(2, 1.3), (4, 2.3)] for i in range(10)]
    rows += [{"trial": 1, "k": 2, "iteration": i, "rel_error": 0.5} for i in range(10)]
    w = cc.trace_work_to_level(pd.DataFrame(rows), 0.1, 2.0)
    assert w.loc[0] == 8.0 and np.isnan(w.loc[1])
    fast = pd.Series([4.0, 4.0], index=[0, 1])
    r = cc.censored_ratio(w, fast, 3.0)
    assert r["censored"] == 1 and r["ratios"][0] == 2.0 and r["holds"]  # median of 2 and +inf
    assert not cc.censored_ratio(w.iloc[:1], fast.iloc[:1], 3.0)["holds"]


def _effect_table(cells: dict, n_trials=20, who="authors", spread=0.002):
    """A2.5's table: at each size k, the full gradient ends at ``1 + cells[k]`` (± ``spread``, alternating by
    trial) times the restricted one's objective 1."""
    rows = []
    for k, d in cells.items():
        for t in range(n_trials):
            full = 1.0 + d + (spread if t % 2 else -spread) if d is not None else 1.0
            rows += [{"trial": t, "construction": who, "k": k, "gradient": "full", "objective": full},
                     {"trial": t, "construction": who, "k": k, "gradient": "restricted", "objective": 1.0}]
    return pd.DataFrame(rows)


def test_gradient_effect_and_interval_verdict():
    e = cc.gradient_effect(_effect_table({5: -0.05})[lambda t: t.k == 5])
    assert e["mean"] == pytest.approx(-0.05, abs=1e-4) and e["low"] < -0.05 < e["high"] and e["trials"] == 20 and not e["identical"]
    same = cc.gradient_effect(_effect_table({5: None}))
    assert same == {"mean": 0.0, "low": 0.0, "high": 0.0, "median": 0.0, "trials": 20, "identical": True, "kurtosis": 0.0}
    assert e["median"] == pytest.approx(-0.05, abs=0.003)
    assert cc.interval_verdict(-0.05, -0.02, 0.01) == "holds"
    assert cc.interval_verdict(0.02, 0.05, 0.01) == "fails"          # the reverse: restricted lower
    assert cc.interval_verdict(-0.005, 0.008, 0.01) == "fails"       # an equivalence
    assert cc.interval_verdict(-0.02, 0.0, 0.01) == "inconclusive"   # straddles -margin
    assert cc.interval_verdict(-0.03, 0.03, 0.01) == "inconclusive"
    with pytest.raises(ValueError, match="low"):
        cc.interval_verdict(0.1, 0.0, 0.01)
    with pytest.raises(ValueError, match="objective <= 0"):
        cc.gradient_effect(pd.DataFrame({"trial": [0, 0], "gradient": ["full", "restricted"], "objective": [1.0, 0.0]}))


def test_gradient_effects_holds_fails_and_inconclusive():
    margins = [0.005, 0.01, 0.02]
    holds = cc.gradient_effects(_effect_table({5: -0.05, 10: -0.04, 20: -0.06}), margins, chosen=0.01)
    assert holds["verdict"] == "holds" and holds["diagnosis"] is None
    assert [r["verdict"] for r in holds["readings"]] == ["holds"] * 3
    # fails by equivalence: the authors' cells within the margin; ours identical at every k: untestable, left out
    equal = pd.concat([_effect_table({5: 0.001, 10: -0.001, 20: 0.0}),
                       _effect_table({5: None, 10: None, 20: None}, n_trials=2, who="ours")])
    fails = cc.gradient_effects(equal, margins, chosen=0.01, cause="our constant row")
    assert fails["verdict"] == "fails" and "by equivalence" in fails["reason"] + str(fails["diagnosis"])
    assert "ours, k = 5: identical runs in 2 of 2 trials" in fails["text"] and "Untestable" in fails["text"]
    assert "our constant row" in fails["text"] and len(fails["cells"]) == 3 and len(fails["untestable"]) == 3
    assert all(c["setting"]["construction"] == "authors" for c in fails["cells"])
    # the power of each testable cell: its half-width and about n (h / m)^2 trials to get inside the margin
    e = fails["effects"]["authors, k = 5"]
    need = int(np.ceil(e["trials"] * ((e["high"] - e["low"]) / 2 / 0.01) ** 2))
    assert f"authors, k = 5: half-width {100 * (e['high'] - e['low']) / 2:.2f} % at 20 trials, about {need} trials" in fails["text"]
    # only the identical cells 'fail': they do not fail the claim, which holds on the testable cells
    only_identical = pd.concat([_effect_table({5: -0.05, 10: -0.04, 20: -0.06}),
                                _effect_table({5: None, 10: None, 20: None}, who="ours")])
    rescued = cc.gradient_effects(only_identical, margins, chosen=0.01)
    assert rescued["verdict"] == "holds" and rescued["diagnosis"] is None
    assert [r["verdict"] for r in rescued["readings"]] == ["holds"] * 3
    # every cell identical: not measured, with the reason
    none = cc.gradient_effects(_effect_table({5: None, 10: None}, who="ours"), margins, chosen=0.01, cause="our constant row")
    assert none["verdict"] == "not measured" and none["diagnosis"] is None and not none["cells"]
    assert "no cell is testable" in none["reason"] and "our constant row" in none["reason"]
    assert [r["verdict"] for r in none["readings"]] == ["not measured"] * 3
    # a heavy-tailed cell is named
    heavy = _effect_table({5: 0.0}, n_trials=40, spread=0.0)
    heavy.loc[(heavy.trial == 0) & (heavy.gradient == "full"), "objective"] = 3.0
    assert "heavy-tailed" in cc.gradient_effects(heavy, margins, chosen=0.01)["text"]
    # fails by the reverse: the restricted gradient ends lower everywhere
    reverse = cc.gradient_effects(_effect_table({5: 0.05, 10: 0.04, 20: 0.03}), margins, chosen=0.01)
    assert reverse["verdict"] == "fails" and "or reverse" in reverse["diagnosis"]["text"]
    # an interval straddling the margin: inconclusive, the reason naming the cell; a reading that turns it
    straddle = cc.gradient_effects(_effect_table({5: -0.05, 10: -0.01, 20: -0.05}), margins, chosen=0.01)
    assert straddle["verdict"] == "inconclusive" and isinstance(straddle["diagnosis"], Unearned)
    assert "inconclusive at authors k = 10" in straddle["reason"] and "trials to bring it inside ±1 %" in straddle["reason"]
    assert [r["verdict"] for r in straddle["readings"]] == ["holds", "inconclusive", "inconclusive"]
    # the sign turning with k, and a cell on too few trials, are inconclusive
    turns = cc.gradient_effects(_effect_table({5: -0.05, 10: 0.05, 20: -0.05}), margins, chosen=0.01)
    assert turns["verdict"] == "inconclusive" and "holds at authors k = 5, authors k = 20; fails at authors k = 10" in turns["reason"]
    few = cc.gradient_effects(_effect_table({5: -0.05, 10: -0.05, 20: -0.05}, n_trials=5), margins, chosen=0.01)
    assert few["verdict"] == "inconclusive" and all(c["verdict"] == "inconclusive" for c in few["cells"])
    with pytest.raises(ValueError, match="construction"):
        cc.gradient_effects(_effect_table({5: -0.05}).drop(columns="construction"), margins, chosen=0.01)
    with pytest.raises(ValueError, match="chosen"):
        cc.gradient_effects(_effect_table({5: -0.05}), margins, chosen=0.03)
    with pytest.raises(ValueError, match="cause"):
        cc.gradient_effects(_effect_table({5: -0.05}), margins, chosen=0.01, cause=" ")


def test_trials_for_share():
    assert cc.trials_for_share(0.6) == 40       # 1.28^2 * 0.24 / 0.01 = 39.4
    assert cc.trials_for_share(0.4) == 40 and cc.trials_for_share(0.9) == 1
    assert cc.trials_for_share(0.5) is None
    with pytest.raises(ValueError, match="share"):
        cc.trials_for_share(1.5)


def test_conjugate_diagnosis_names_the_small_cell_that_leaves_the_map_undecided():
    chosen = {"data": "d0", "construction": "ours"}
    cells = [c | {"numbers": f"statistic {i}"} for i, c in enumerate(_cells([False, False, True]))]
    out = cc.conjugate_diagnosis(cells, chosen, "x", n_trials={0: 10, 1: 10, 2: 2})
    # the authors' cell holds on its 2 trials: decisive, it would earn 'construction'; that is what is missing
    assert isinstance(out, Unearned)
    assert "the cell of the authors' construction" in out.reason and "holds on its 2 trials (statistic 2)" in out.reason
    assert "'construction' diagnosis" in out.reason and "10 trials of it would decide it" in out.reason
    # failing on its 2 trials: decisive, the map would earn 'paper'
    out = cc.conjugate_diagnosis(_cells([False, False, False]), chosen, "x", n_trials={0: 10, 1: 10, 2: 2})
    assert "fails on its 2 trials" in out.reason and "'paper' diagnosis" in out.reason
    # where the small cell is not what is missing (no authors' cell to earn 'paper'), the reason says so
    out = cc.conjugate_diagnosis(_cells([False, False, False], who=("ours",) * 3), chosen, "x", n_trials={0: 10, 1: 10, 2: 2})
    assert isinstance(out, Unearned) and "would still earn nothing" in out.reason
    # no small cell: the engine's reason alone
    out = cc.conjugate_diagnosis(_cells([False, False, False], who=("ours",) * 3), chosen, "x")
    assert "trials" not in out.reason.split(".")[0]


def test_replicate_outcomes_swap_a_methods_rows_and_can_turn_the_verdict():
    surf = pd.DataFrame({"trial": [0, 0, 1, 1, 2, 2], "method": ["a_iht_ii", "sparsevi"] * 3,
                         "relative_rms_difference": [0.04, 0.2, 0.03, 0.3, 0.045, 0.25]})
    test = lambda t: cc.contours_match(t, 0.05)
    assert test(surf)
    reps = pd.DataFrame({"replicate": [0, 0, 0, 1, 1, 1], "trial": [0, 1, 2] * 2, "method": "a_iht_ii",
                         "relative_rms_difference": [0.041, 0.031, 0.044, 0.07, 0.08, 0.03]})
    # replicate 0 moves A-IHT II a little (still holds), replicate 1 moves its median above the cut-off
    assert cc.replicate_outcomes(test, surf, reps) == [True, False]
    # SparseVI's rows are kept: a replicate of A-IHT II alone cannot change them
    assert cc.replicate_outcomes(lambda t: float(t[t.method == "sparsevi"].relative_rms_difference.sum()) == 0.75,
                                 surf, reps) == [True, True]
    with pytest.raises(ValueError, match="one of table's"):
        cc.replicate_outcomes(test, surf, reps.assign(trial=reps.trial + 5))
    with pytest.raises(ValueError, match="at least one row"):
        cc.replicate_outcomes(test, surf, reps.iloc[:0])
    with pytest.raises(ValueError, match="replicate"):
        cc.replicate_outcomes(test, surf, reps.drop(columns="replicate"))
