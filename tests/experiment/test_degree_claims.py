"""D4's deciding code (inferopt.experiment.spectral.degree_claims; issue 41's pre-run review, session 45's fresh review): D4.2's
two halves (SGD-DET's, SGD's) on settled floors not above the runs, able to fail through the claim; the floors tried from the
runs' end; D4.3 decided on the runs' gradient variance at their own M, exact (checked against every probe sign by enumeration;
its realisable degree part, an unbounded variance undecided, a point short of the gate not deciding, one rule over the other
distributions, the points readings), Lemma 2's Var_C and the other gradient readings beside it, never turning it; the map's usable cells; each decision holds and fails on constructed inputs, and bad
arguments are refused by name."""

import numpy as np
import pandas as pd
import pytest

from inferopt.experiment import Experiment
from inferopt.experiment.claims import Unearned
from inferopt.experiment.spectral import degree_claims
from inferopt.experiment.spectral.degree_claims import (chosen_cell_diagnosis, d41_cell, d41_diagnosis, d41_reading,
                                                        d43_claim_args, d43_exact_reading, d43_excess_text, d43_gradient_readings, d43_where_text,
                                                        degree_term, exact_gradient_variances, excess_split_text, lemma2_holds, level_off_estimate,
                                                        level_off_text, map_cells_to_run, point_variances, settled_fixed_point, three_valued_readings,
                                                        variance_split)
from inferopt.experiment.support import agreeing_test
from inferopt.experiment.support import bootstrap_support
from inferopt.spectral import ChebyshevSeries, make_degree_rule
from inferopt.spectral.completion import reference_solution

from test_completion_degrees import level_table, small_problem  # this folder's constructed runs and problem

START = 2.0   # the start's test RMSE of the constructed runs: a level above it diverged


def d42_det_reading(*args, **kw):
    return degree_claims.d42_det_reading(*args, start=kw.pop("start", START), **kw)


def d42_sgd_reading(*args, **kw):
    return degree_claims.d42_sgd_reading(*args, start=kw.pop("start", START), **kw)


# ----------------------------------------------------------------------------- D4.2


def fixed_at(floors, settled=(True, True)):
    """det_own_fixed_point's infos at N = 10, 30 with these floors, settled or not."""
    return {n: {"test RMSE": floors[n], "converged": ok, "self-consistent": True} for n, ok in zip((10, 30), settled)}


def test_d42_det_reading_holds_fails_and_stays_undecided():
    floors = {10: 0.95, 30: 0.90}
    # SGD-DET levels at its floors: its half holds; rising with the degree beyond the noise: fails
    r = d42_det_reading(level_table(0.95, 0.90, 0.88, 0.881), 10, 30, fixed_at(floors))
    assert r["outcome"] is True and r["gain"] == pytest.approx(0.05) and r["settled"] == {10: True, 30: True}
    assert d42_det_reading(level_table(0.96, 0.97, 0.88, 0.88), 10, 30, fixed_at(floors))["outcome"] is False
    # a gain within the noise (session 45: -0.0012 against 2 x 0.0014): undecided, not a failure
    r = d42_det_reading(level_table(0.95, 0.951, 0.88, 0.88), 10, 30, fixed_at({10: 0.95, 30: 0.90}))
    assert r["outcome"] is None and "within 2 times the levels' noise" in r["reason"]
    # an unsettled floor decides nothing
    r = d42_det_reading(level_table(0.95, 0.90, 0.88, 0.881), 10, 30, fixed_at(floors, (True, False)))
    assert r["outcome"] is None and "did not settle at N = 30" in r["reason"]
    # a floor above where the runs already are (session 45: 1.1375 over the runs' 1.071) decides nothing
    r = d42_det_reading(level_table(0.95, 0.90, 0.88, 0.881), 10, 30, fixed_at({10: 1.10, 30: 0.90}))
    assert r["outcome"] is None and "above where its runs already are at N = 10" in r["reason"] and 10 in r["floor above level"]
    # mid-transient: undecided, named; floors within the noise: named
    r = d42_det_reading(level_table(0.95, 0.90, 0.88, 0.881, rate=0.005), 10, 30, fixed_at(floors))
    assert r["outcome"] is None and "levelled off" in r["reason"] and "below the noise" not in r["reason"]
    r = d42_det_reading(level_table(0.95, 0.90, 0.88, 0.881, jitter=0.05), 10, 30, fixed_at({10: 0.9001, 30: 0.9}))
    assert r["outcome"] is None and "below the noise" in r["reason"]
    with pytest.raises(ValueError, match="fixed"):
        d42_det_reading(level_table(0.95, 0.90, 0.88, 0.881), 10, 30, {10: {"test RMSE": 0.9}})
    with pytest.raises(ValueError, match="low"):
        d42_det_reading(level_table(0.95, 0.90, 0.88, 0.881), 30, 10, fixed_at(floors))
    with pytest.raises(ValueError, match="no run"):
        d42_det_reading(level_table(0.95, 0.90, 0.88, 0.881), 10, 20, fixed_at(floors) | {20: fixed_at(floors)[30]})


def test_d42_sgd_reading_is_its_own_claim():
    floors = {10: 0.95, 30: 0.90}
    # SGD's level the same at both degrees, against the floors' 0.05 gap: holds, whatever SGD-DET's levels do
    assert d42_sgd_reading(level_table(0.95, 0.951, 0.88, 0.881), 10, 30, fixed_at(floors))["outcome"] is True
    # SGD changes with the degree as much as SGD-DET's floors: fails
    r = d42_sgd_reading(level_table(0.95, 0.90, 0.95, 0.90), 10, 30, fixed_at(floors))
    assert r["outcome"] is False and r["allowed"] == pytest.approx(0.025)
    # near the allowed change within the noise: undecided
    r = d42_sgd_reading(level_table(0.95, 0.90, 0.905, 0.88, jitter=0.004), 10, 30, fixed_at(floors))
    assert r["outcome"] is None and "within 2 times its noise" in r["reason"]
    # SGD still falling, or an unsettled floor: undecided
    assert d42_sgd_reading(level_table(0.95, 0.90, 0.88, 0.881, rate=0.005), 10, 30, fixed_at(floors))["outcome"] is None
    assert d42_sgd_reading(level_table(0.95, 0.90, 0.88, 0.881), 10, 30, fixed_at(floors, (False, True)))["outcome"] is None
    with pytest.raises(ValueError, match="share"):
        d42_sgd_reading(level_table(0.95, 0.90, 0.88, 0.881), 10, 30, fixed_at(floors), share=0.0)


def test_settled_fixed_point_tries_the_next_start_until_one_settles(monkeypatch):
    calls = []

    def fake(problem, theta0, degree, **kw):
        calls.append((theta0, kw))
        return np.full((2, 2), theta0), {"test RMSE": theta0, "converged": True, "self-consistent": theta0 == 2.0}
    monkeypatch.setattr(degree_claims, "det_own_fixed_point", fake)
    theta, info = settled_fixed_point(None, {"runs' end": 1.0, "optimum": 2.0, "never": 3.0}, 10, rounds=3)
    assert info["start"] == "optimum" and info["tried"] == ["runs' end", "optimum"] and theta[0, 0] == 2.0
    assert calls[0][1] == {"rounds": 3}
    theta, info = settled_fixed_point(None, {"a": 1.0, "b": 3.0}, 10)   # none settles: the last, flagged by its own info
    assert info["start"] == "b" and not info["self-consistent"]
    with pytest.raises(TypeError, match="starts"):
        settled_fixed_point(None, {}, 10)


SETTING = {"dataset": "d", "ratings": "centred", "eps": 100.0, "lam": 1.0}
STAND_IN = {"text": "A smaller matrix.", "evidence": {"least level gain resolved": 0.004}}


def d42_claim(tmp_path, tb, floors, settled=(True, True)):
    """D4.2 recorded end to end: its reading, the chosen cell's diagnosis, Experiment.claim."""
    def test(t):
        return d42_det_reading(t, 10, 30, fixed_at(floors, settled))["outcome"] is True
    reading = d42_det_reading(tb, 10, 30, fixed_at(floors, settled))
    diagnosis = chosen_cell_diagnosis(reading, bootstrap_support(test, tb, by="seed"), setting=SETTING, seeds=5, main_seeds=5,
                                      text="SGD-DET's levels.", stand_in=STAND_IN, no_authors_construction="No authors' code.")
    exp = Experiment("D4", title="t", paper="p", figure="Fig 2", params={"output_dir": str(tmp_path), "seed": 0})
    return exp.claim("D4.2", "SGD-DET's level falls with the degree.", test=test, table=tb, by="seed", diagnosis=diagnosis).to_dict()


def test_d42_can_fail_through_the_claim(tmp_path):
    floors = {10: 0.95, 30: 0.90}
    # SGD-DET's level rises from N = 10 to 30 beyond the noise, with visible settled floors: fails (stand-in), decisively
    c = d42_claim(tmp_path, level_table(0.96, 0.97, 0.88, 0.88), floors)
    assert c["verdict"] == "fails" and c["diagnosis"]["kind"] == "stand-in" and "A smaller matrix." in c["diagnosis"]["text"]
    assert d42_claim(tmp_path, level_table(0.95, 0.90, 0.88, 0.881), floors)["verdict"] == "holds"
    # an unsettled floor: inconclusive, with the reason
    c = d42_claim(tmp_path, level_table(0.96, 0.97, 0.88, 0.88), floors, (False, True))
    assert c["verdict"] == "inconclusive" and "did not settle" in c["reason"]
    assert isinstance(chosen_cell_diagnosis({"outcome": None, "reason": "why"}, {"method": "bootstrap", "fraction_holding": 0.0},
                                            setting=SETTING, seeds=5, main_seeds=5, text="t", stand_in=STAND_IN,
                                            no_authors_construction="n"), Unearned)
    with pytest.raises(TypeError, match="reading"):
        chosen_cell_diagnosis(None, {}, setting=SETTING, seeds=5, main_seeds=5, text="t", stand_in=STAND_IN, no_authors_construction="n")




# ----------------------------------------------------------------------------- D4.3


def test_map_cells_to_run_skips_degenerate_cells():
    cells = pd.DataFrame({"q0": [0.0, 0.72, 0.5, np.nan]}, index=["a", "b", "c", "d"])
    assert map_cells_to_run(cells, 0.5) == ["a", "c"]
    with pytest.raises(ValueError, match="max_q0"):
        map_cells_to_run(cells, 1.5)


# ----------------------------------------------------------------------------- session 58's review: D4.1's tie, D4.2-sgd's robust reading, D4.3 on Var_C


def d41_table(opt, pois, nb, spread=0.001, seeds=5):
    """Panel (c)'s runs: each arm's mean test RMSE over seeds, centred on the given value with the given spread."""
    e = spread * (np.arange(seeds) - (seeds - 1) / 2)
    return pd.DataFrame([{"dataset": "d", "method": m, "seed": s, "mean RMSE": v + e[s], "final RMSE": v + e[s]}
                         for m, v in (("optimal", opt), ("poisson", pois), ("negative binomial", nb)) for s in range(seeds)])


def test_d41_reading_holds_fails_on_a_tie_and_stays_undecided():
    # way 1.0 (start 2, optimum 1): the margin is 0.01 test RMSE
    r = d41_reading(d41_table(1.50, 1.60, 1.55), 2.0, 1.0)
    assert r["outcome"] is True and r["lead"]["poisson"] == pytest.approx(0.10) and r["allowed"] == pytest.approx(0.01)
    # a tie measured precisely: the optimal arm is not faster, fails (the old lowest-median test could only be undecided)
    r = d41_reading(d41_table(1.500, 1.499, 1.501, spread=0.0005), 2.0, 1.0)
    assert r["outcome"] is False
    # one distribution tied is enough to fail
    assert d41_reading(d41_table(1.50, 1.60, 1.50, spread=0.0005), 2.0, 1.0)["outcome"] is False
    # a tie measured loosely: undecided, named
    r = d41_reading(d41_table(1.50, 1.50, 1.50, spread=0.02), 2.0, 1.0)
    assert r["outcome"] is None and "within 2 times its standard error" in r["reason"]
    # ... with what would decide it on D4.1's own statistic (session 61's re-read, item 5): the seeds at which 2 SE of the lead
    # clear the margin, not a levelling-off tolerance
    need = f"~{5 * (2 * r['se']['poisson'] / (0.0 - 0.01)) ** 2:,.0f}"
    assert (f"what would decide it: more seeds at these runs' length, the seeds at which 2 standard errors of the lead would clear the "
            f"margin, were they to fall as one over the square root of the seeds: poisson {need}, negative binomial ") in r["reason"]
    assert r["reason"].endswith("(5 seeds an arm now)") and "level off" not in r["reason"]
    # one wild seed (above the start) moves neither the medians nor their noise, read over the runs that did not diverge
    tb = d41_table(1.500, 1.499, 1.501, spread=0.0005)
    tb.loc[(tb.method == "optimal") & (tb.seed == 4), "mean RMSE"] = 9.0
    assert d41_reading(tb, 2.0, 1.0)["outcome"] is False
    # the margin's readings: undecided is inconclusive, not "not measured"
    read = three_valued_readings(lambda t, v: d41_reading(t, 2.0, 1.0, margin=v)["outcome"], d41_table(1.50, 1.50, 1.50, spread=0.02),
                                 [0.005, 0.02], chosen=0.01, by="seed")
    assert [x["verdict"] for x in read] == ["inconclusive"] * 3 and [x["value"] for x in read] == [0.005, 0.01, 0.02]
    read = three_valued_readings(lambda t, v: d41_reading(t, 2.0, 1.0, margin=v)["outcome"], d41_table(1.500, 1.499, 1.501, spread=0.0005),
                                 [0.005], chosen=0.01, by="seed")
    assert all(x["verdict"] == "fails" and x["support"] <= 0.1 for x in read)
    with pytest.raises(ValueError, match="way"):
        d41_reading(d41_table(1.5, 1.6, 1.6), 1.0, 2.0)
    with pytest.raises(ValueError, match="column"):
        d41_reading(d41_table(1.5, 1.6, 1.6), 2.0, 1.0, column="level")
    with pytest.raises(ValueError, match="others"):
        d41_reading(d41_table(1.5, 1.6, 1.6), 2.0, 1.0, others="poisson")
    with pytest.raises(TypeError, match="outcome"):
        agreeing_test(0.5, True)


def test_d41_through_the_claim_and_its_map(tmp_path):
    other = dict(SETTING, eps=300.0)

    def claim(tb, cells):
        r = d41_reading(tb, 2.0, 1.0)
        test = agreeing_test(lambda t: d41_reading(t, 2.0, 1.0)["outcome"], r["outcome"])
        exp = Experiment("D4", title="t", paper="p", figure="Fig 2", params={"output_dir": str(tmp_path), "seed": 0})
        return exp.claim("D4.1", "Optimal is faster.", test=test, table=tb, by="seed", diagnosis=d41_diagnosis(
            r, cells, "Probe noise is 99.9 % of the variance.", chosen=SETTING, no_authors_construction="No authors' code.")).to_dict()

    def cell_of(setting, tb):
        r = d41_reading(tb, 2.0, 1.0)
        return d41_cell(setting, r, bootstrap_support(agreeing_test(lambda t: d41_reading(t, 2.0, 1.0)["outcome"], r["outcome"]), tb, by="seed"),
                        seeds=5, main_seeds=5)
    tie, fast, loose = d41_table(1.500, 1.499, 1.501, spread=0.0005), d41_table(1.50, 1.60, 1.55), d41_table(1.5, 1.5, 1.5, spread=0.02)
    # a decisive tie at the chosen cell, the claim holding decisively at another: fails, the setting named
    c = claim(tie, [cell_of(SETTING, tie), cell_of(other, fast)])
    assert c["verdict"] == "fails" and c["diagnosis"]["kind"] == "setting" and "99.9 %" in c["diagnosis"]["text"]
    # ... the other cell undecided: no diagnosis earned, inconclusive
    cells = [cell_of(SETTING, tie), cell_of(other, loose)]
    assert cells[1]["verdict"] == "inconclusive" and "support" not in cells[1] and "undecided" in cells[1]
    c = claim(tie, cells)
    assert c["verdict"] == "inconclusive" and "no diagnosis is earned" in c["reason"]
    # holding at the chosen cell: holds; undecided there: inconclusive with the reading's reason
    assert claim(fast, [cell_of(SETTING, fast), cell_of(other, fast)])["verdict"] == "holds"
    c = claim(loose, [cell_of(SETTING, loose), cell_of(other, fast)])
    assert c["verdict"] == "inconclusive" and "within 2 times its standard error" in c["reason"]
    assert d41_cell(SETTING, None, None, seeds=5, main_seeds=5)["verdict"] == "not measured"
    with pytest.raises(TypeError, match="reading"):
        d41_cell(SETTING, {"lead": 1}, None, seeds=5, main_seeds=5)
    with pytest.raises(TypeError, match="reading"):
        d41_diagnosis(None, [], "t", chosen=SETTING, no_authors_construction="n")


def test_d42_sgd_reads_medians_and_names_a_diverged_run():
    """Session 58's review: SGD N=30 seed 4 at level 1.76 among four at 1.047 made the mean-based noise 0.143, so that SGD passed
    its levelled-off test while falling as fast as SGD-DET; on medians and a noise over the runs that did not diverge it does not, and
    the run is named."""
    floors = {10: 0.95, 30: 0.90}
    tb = level_table(0.95, 0.90, 0.95, 0.951)
    assert d42_sgd_reading(tb, 10, 30, fixed_at(floors))["outcome"] is True   # levelled off within the noise: decided
    tb.loc[(tb.method == "SGD N=30") & (tb.seed == 4), ["level", "drift"]] = [2.5, 0.07]
    r = d42_sgd_reading(tb, 10, 30, fixed_at(floors))
    assert r["diverged"] == {"SGD N=30 seed 4": 2.5} and r["levels"]["SGD N=30"] == pytest.approx(0.951, abs=0.01)
    assert r["SGD noise"] < 0.01 and r["outcome"] is True
    # SGD still falling: with a robust noise the wild run cannot hide it
    tb = level_table(0.95, 0.90, 0.95, 0.951, rate=0.005)
    tb.loc[(tb.method == "SGD N=30") & (tb.seed == 4), "level"] = 2.5
    r = d42_sgd_reading(tb, 10, 30, fixed_at(floors))
    assert r["outcome"] is None and "SGD N=30 still falls" in r["reason"]
    assert d42_sgd_reading(tb, 10, 30, fixed_at(floors), start=3.0)["diverged"] == {}
    # the readings of its share: undecided readings are inconclusive
    read = three_valued_readings(lambda t, v: d42_sgd_reading(t, 10, 30, fixed_at(floors), share=v)["outcome"], tb, [0.25, 0.75], chosen=0.5,
                                 by="seed")
    assert [x["verdict"] for x in read] == ["inconclusive"] * 3
    with pytest.raises(ValueError, match="start"):
        d42_sgd_reading(tb, 10, 30, fixed_at(floors), start=-1.0)


def var_c(opt, pois, nb, cells=("chosen", "eps 300")):
    return pd.DataFrame([{"cell": c, "distribution": d, "Var_C": v} for c in cells
                         for d, v in (("optimal", opt), ("poisson", pois), ("negative binomial", nb))])


def test_lemma2_holds_per_cell_with_its_margin():
    assert lemma2_holds(var_c(64.8, float("inf"), 4e55)) == {"chosen": True, "eps 300": True}
    assert lemma2_holds(var_c(1.0, 1.05, 2.0)) == {"chosen": False, "eps 300": False}
    assert lemma2_holds(var_c(1.0, 1.05, 2.0), margin=0.0) == {"chosen": True, "eps 300": True}
    with pytest.raises(ValueError, match="margin"):
        lemma2_holds(var_c(1.0, 2.0, 2.0), margin=-1.0)


#: D4's committed paper-scale split (reports/paper/metrics/D4.json at a9a0c9b): the probe parts differ by distribution, by far
#: more than the degree parts
PAPER_POINTS = {"optimum": {"probe part optimal": 29430.1, "probe part poisson": 140792.8, "probe part negative binomial": 110568.1,
                            "degree term optimal": 106.877, "degree term poisson": 123.641, "degree term negative binomial": 106.104},
                "path": {"probe part optimal": 21784.3, "probe part poisson": 23039.7, "probe part negative binomial": 21129.1,
                         "degree term optimal": 8.60534, "degree term poisson": 10.2136, "degree term negative binomial": 8.82149}}


def test_variance_split_names_the_probe_share_the_m_for_half_and_each_excess_split():
    s = variance_split({"path": {"probe part optimal": 21784.3, "degree term optimal": 8.6}}, M=30)
    assert s["path"]["probe share"] == pytest.approx(21784.3 / 21792.9) and s["path"]["degree part"] == 8.6
    # one degree a step shared by the M probes: the probe part falls as 1/M, the degree part stays; half at M * probe / degree
    assert s["path"]["M for half"] == pytest.approx(30 * 21784.3 / 8.6)
    assert variance_split({"p": {"probe part optimal": 2.0, "degree term optimal": 0.0}}, M=30)["p"]["M for half"] == float("inf")
    # each other's excess over the optimal one, split into its probe and degree parts (session 61's re-read, item 2)
    s = variance_split(PAPER_POINTS, M=30, others=("poisson", "negative binomial"))
    assert s["optimum"]["probe excess poisson"] == pytest.approx(111362.7) and s["optimum"]["degree excess poisson"] == pytest.approx(16.764)
    assert s["path"]["probe excess negative binomial"] == pytest.approx(-655.2) and s["path"]["degree excess negative binomial"] == pytest.approx(0.21615)
    with pytest.raises(ValueError, match="optimal"):
        variance_split({"path": {"probe part poisson": 1.0}}, M=30)
    with pytest.raises(ValueError, match="'poisson'"):
        variance_split({"path": {"probe part optimal": 1.0, "degree term optimal": 1.0}}, M=30, others=("poisson",))
    with pytest.raises(ValueError, match="others"):
        variance_split(PAPER_POINTS, M=30, others="poisson")
    with pytest.raises(TypeError, match="points"):
        variance_split({}, M=30)
    with pytest.raises(ValueError, match="M"):
        variance_split({"path": {"probe part optimal": 21784.3, "degree term optimal": 8.6}}, M=0)
    # a zero variance has no shares (session 59's re-read: it divided by zero)
    with pytest.raises(ValueError, match="points\\['path'\\]"):
        variance_split({"path": {"probe part poisson": 0.0, "degree term poisson": 0.0}}, rule="poisson", M=30)


def test_excess_split_text_says_the_measured_split_not_that_m_shows_the_degree_distribution():
    """Session 61's re-read, item 2: "the degree part, the only place the distributions differ ... a larger M makes the degree
    distribution more visible" is contradicted by D4's numbers; the text says the measured split instead."""
    others = ("poisson", "negative binomial")
    text = excess_split_text(variance_split(PAPER_POINTS, M=30, others=others), M=30, others=others)
    assert ("at the optimum poisson +111,363 in the probe part and +16.8 in the degree part, negative binomial +81,138 in the probe "
            "part and -0.773 in the degree part (the optimal one's variance 29,537, 99.64% of it its probe part)") in text
    assert "the probe parts differ by distribution because eq. (12) weighs the j-th Chebyshev term" in text
    assert "With M infinite only the degree parts would remain" in text and "at the optimum poisson +15.7%, negative binomial -0.7%" in text
    assert ("The optimal arm's own degree part would be half its own gradient variance at M = 8,261 at the optimum and 75,945 at the path "
            "(its alone: not where the distributions' difference shows)") in text
    assert "only place the distributions differ" not in text and "more visible" not in text
    # an unbounded degree term is said in words, never printed as nan or inf
    inf = {"optimum": PAPER_POINTS["optimum"] | {"degree term poisson": float("inf")}}
    text = excess_split_text(variance_split(inf, M=30, others=others), M=30, others=others)
    assert "poisson +111,363 in the probe part and unbounded in the degree part" in text and "poisson unbounded" in text
    assert "nan" not in text and "inf%" not in text and " inf " not in text
    with pytest.raises(ValueError, match="split"):
        excess_split_text(variance_split(PAPER_POINTS, M=30), M=30, others=others)
    with pytest.raises(ValueError, match="others"):
        excess_split_text(variance_split(PAPER_POINTS, M=30, others=others), M=30, others="poisson")


def curve_table(A, alpha, *, optimum=1.0, decay=0.01, T=600, every=20, seeds=3):
    """Runs on the curve optimum + A (1 + decay t)^-alpha, summarised as run_table and run_levels summarise them."""
    e = np.arange(0, T + 1, every)
    f = optimum + A * (1.0 + decay * e) ** -alpha
    w = f[e >= 0.7 * T]
    h = w.size // 2
    row = {"method": "optimal", "iterations": T, "half-time RMSE": f[e <= T / 2][-1], "final RMSE": f[-1], "level": w.mean(),
           "drift": w[:h].mean() - w[-h:].mean()}
    return pd.DataFrame([row | {"seed": k} for k in range(seeds)])


def test_level_off_estimate_recovers_the_curve_and_the_step_its_window_levels_off():
    """Session 61: what would decide D4.1 / D4.2 while the runs still fall -- the steps their median run levels off at."""
    kw = dict(start=1.2, optimum=1.0, decay=0.01, window=0.3, eval_every=20)
    fast = level_off_estimate(curve_table(0.2, 2.0), "optimal", noise=0.001, **kw)
    slow = level_off_estimate(curve_table(0.2, 0.4), "optimal", noise=0.001, **kw)
    assert fast["alpha"] == pytest.approx(2.0, rel=1e-3) and slow["alpha"] == pytest.approx(0.4, rel=1e-3) and slow["rms"] < 1e-6
    # a run already level: its own budget; a slow one: later, further along the way; the larger the noise, the sooner
    assert fast["steps"] == 600 and slow["steps"] > 600 and 0 < slow["share"] < 1
    assert level_off_estimate(curve_table(0.2, 0.4), "optimal", noise=0.003, **kw)["steps"] < slow["steps"]
    assert level_off_estimate(curve_table(0.2, 0.4), "optimal", noise=1e-7, longest=2, **kw)["steps"] is None
    with pytest.raises(ValueError, match="optimum"):
        level_off_estimate(curve_table(0.2, 0.4), "optimal", noise=0.001, **(kw | {"optimum": 1.3}))
    with pytest.raises(ValueError, match="noise"):
        level_off_estimate(curve_table(0.2, 0.4), "optimal", noise=0.0, **kw)


def test_level_off_text_says_what_would_decide_only_an_undecided_reading():
    """Session 61's re-read, item 5: "what would decide it" only on an undecided reading; the horizon passed once."""
    kw = dict(start=1.2, optimum=1.0, decay=0.01, window=0.3, eval_every=20, iters=600, per_step=2.0, what="the levels' noise")
    tb = curve_table(0.2, 0.4)
    assert level_off_text(tb, ["optimal"], {"outcome": True}, noise=0.001, also="Floors.", **kw) == ""
    assert level_off_text(tb, ["optimal"], {"outcome": False}, noise=0.001, **kw) == ""
    text = level_off_text(tb, ["optimal"], {"outcome": None}, noise=0.001, also="Floors.", **kw)
    steps = level_off_estimate(tb, "optimal", noise=0.001, **{k: v for k, v in kw.items() if k not in ("iters", "per_step", "what")})["steps"]
    assert text.startswith("What would decide it (the levels' noise): runs long enough to level off.") and text.endswith(" Floors.")
    assert f"optimal levels off (its window falling by at most twice 0.001) at about {steps:,} steps" in text
    assert f"about {steps * 2.0:,.0f} CPU s" in text
    late = level_off_text(tb, ["optimal"], {"outcome": None}, noise=1e-7, longest=2, **kw)
    assert late == "What would decide it: runs that level off; on a fit of the median curves, optimal would not within 1,200 steps."
    assert "budget does not decide it" in level_off_text(curve_table(0.2, 2.0), ["optimal"], {"outcome": None}, noise=0.001, **kw)
    with pytest.raises(TypeError, match="reading"):
        level_off_text(tb, ["optimal"], None, noise=0.001, **kw)


# ----------------------------------------------------------------------------- session 59's re-read: most runs of an arm diverged


def test_d41_reading_can_fail_and_hold_where_most_runs_of_an_arm_diverged():
    """Session 59's re-read: with fewer than two runs of an arm at or below the start the noise was inf, so that D4.1 could never
    fail (optimal 2.5 against Poisson 1.6, start 2.0: undecided). Now the arm's median diverged decides against it, and an arm
    keeping fewer than two runs but not diverged falls back to the plain standard error over all its runs, named."""
    # the optimal arm's median run diverged, the others did not: fails
    tb = d41_table(2.5, 1.6, 1.6)
    r = d41_reading(tb, 2.0, 1.0)
    assert r["outcome"] is False and r["diverged arms"] == ["optimal"] and "diverged" in r["note"] and "inf" not in r["note"]
    # Poisson's median run diverged (4 of 5 above the start), the optimal arm's 0.5 below the start: faster there; the other decides
    tb = d41_table(1.5, 1.6, 1.6)
    tb.loc[(tb.method == "poisson") & (tb.seed > 0), "mean RMSE"] = 3.0
    r = d41_reading(tb, 2.0, 1.0)
    assert r["outcome"] is True and r["diverged arms"] == ["poisson"] and "poisson (median" in r["note"]
    assert "plain standard error" not in r["note"]   # session 60: a diverged arm's noise decides nothing, its fallback is not named
    tb.loc[tb.method == "negative binomial", "mean RMSE"] = 1.5   # ... and the negative binomial tied: fails
    assert d41_reading(tb, 2.0, 1.0)["outcome"] is False
    # the optimal arm 0.005 below the start, Poisson diverged: the lower bound of the lead is within the margin, undecided, no inf
    tb = d41_table(1.995, 3.0, 3.0, spread=0.0)
    r = d41_reading(tb, 2.0, 1.0)
    assert r["outcome"] is None and "diverged, but" in r["reason"] and "inf" not in r["reason"] and "nan" not in r["reason"]
    # both diverged: undecided, named
    r = d41_reading(d41_table(2.5, 2.6, 2.7), 2.0, 1.0)
    assert r["outcome"] is None and "both diverged" in r["reason"]
    # fewer than two kept, the median not above the start (two runs, one diverged): the plain standard error, named, finite
    tb = d41_table(1.5, 1.6, 1.6, seeds=2, spread=0.02)
    tb.loc[(tb.method == "poisson") & (tb.seed == 1), "mean RMSE"] = 2.1
    r = d41_reading(tb, 2.0, 1.0)
    assert np.isfinite(r["se"]["poisson"]) and "poisson: fewer than two of its 2 runs did not diverge" in r["note"]
    assert r["outcome"] is None and "plain standard error" in r["reason"] and "inf" not in r["reason"]
    # a single run per arm: no standard error, said in words
    r = d41_reading(d41_table(1.5, 1.5, 1.5, seeds=1), 2.0, 1.0)
    assert r["outcome"] is None and "inf" not in r["reason"] and "none: too few runs" in r["reason"]
    # a run that blew up (NaN, read as inf; session 60's re-read: the fallback over all runs was nan, said as too few runs): the
    # fallback over the finite runs, the blow-up named; an arm whose median blew up is named so
    se, words = degree_claims._kept_median_se(np.array([1.5, 2.5, np.inf]), 2.0)
    assert se == pytest.approx(0.5) and "over its 2 finite runs (1 blew up" in words
    tb = d41_table(1.5, 1.6, 1.6, seeds=2, spread=0.02)
    tb.loc[(tb.method == "poisson") & (tb.seed == 1), "mean RMSE"] = np.nan
    r = d41_reading(tb, 2.0, 1.0)
    assert r["diverged arms"] == ["poisson"] and "poisson (median not finite: blew up)" in r["note"] and "fallback" not in r["note"]


def test_d42_can_fail_and_hold_where_most_runs_of_an_arm_diverged():
    floors = {10: 0.95, 30: 0.90}
    # 4 of 5 SGD-DET N=30 runs diverged: its median level is above the start, rising with the degree: D4.2 fails
    tb = level_table(0.95, 0.90, 0.95, 0.951)
    tb.loc[(tb.method == "SGD-DET N=30") & (tb.seed > 0), "level"] = 2.5
    r = d42_det_reading(tb, 10, 30, fixed_at(floors))
    assert r["outcome"] is False and r["diverged arms"] == ["SGD-DET N=30"] and "diverged" in r["note"]
    assert np.isfinite(r["noise"]) and "plain standard error" not in r["note"]   # the diverged arm's fallback decides nothing: not named
    # ... at N = 10 instead: a diverged level is no floor, undecided
    tb = level_table(0.95, 0.90, 0.95, 0.951)
    tb.loc[(tb.method == "SGD-DET N=10") & (tb.seed > 0), "level"] = 2.5
    r = d42_det_reading(tb, 10, 30, fixed_at(floors))
    assert r["outcome"] is None and "no bias floor" in r["reason"] and "inf" not in r["reason"]
    # SGD diverged at one degree: not similar error, D4.2-sgd fails; at both: undecided
    tb = level_table(0.95, 0.90, 0.95, 0.951)
    tb.loc[(tb.method == "SGD N=30") & (tb.seed > 0), "level"] = 2.5
    assert d42_sgd_reading(tb, 10, 30, fixed_at(floors))["outcome"] is False
    assert d42_det_reading(tb, 10, 30, fixed_at(floors))["outcome"] is True
    tb.loc[(tb.method == "SGD N=10") & (tb.seed > 0), "level"] = 2.5
    r = d42_sgd_reading(tb, 10, 30, fixed_at(floors))
    assert r["outcome"] is None and "both degrees" in r["reason"]
    # two seeds, one SGD-DET N=30 run diverged, its median not: the plain standard error over both runs, finite and named
    tb = level_table(0.95, 0.90, 0.95, 0.951, seeds=2)
    tb.loc[(tb.method == "SGD-DET N=30") & (tb.seed == 1), "level"] = 2.1
    r = d42_det_reading(tb, 10, 30, fixed_at(floors))
    assert r["diverged arms"] == [] and np.isfinite(r["noise"]) and r["noise"] > 0.1
    assert r["outcome"] is None and "SGD-DET N=30: fewer than two of its 2 runs did not diverge" in r["reason"] and "inf" not in r["reason"]


def test_d41_cell_joins_the_seeds_note_and_three_valued_readings_take_lists():
    r = d41_reading(d41_table(1.5, 1.5, 1.5, spread=0.02), 2.0, 1.0)
    cell = d41_cell(SETTING, r, None, seeds=2, main_seeds=5)
    assert cell["verdict"] == "inconclusive" and "2 seeds, fewer than" in cell["undecided"] and "within 2 times" in cell["undecided"]
    assert d41_cell(SETTING, r, None, seeds=5, main_seeds=5)["undecided"] == r["reason"]
    tb = d41_table(1.50, 1.60, 1.55)
    read = three_valued_readings(lambda t, v: d41_reading(t, 2.0, 1.0, margin=v[0], z=v[1])["outcome"], tb, [[0.02, 2.0], [0.01, 3.0]],
                                 chosen=[0.01, 2.0], by="seed")
    assert [x["value"] for x in read] == [[0.01, 2.0], [0.01, 3.0], [0.02, 2.0]] and all(x["verdict"] == "holds" for x in read)
    read = three_valued_readings(lambda t, v: d41_reading(t, 2.0, 1.0, margin=v[0])["outcome"], tb, [[0.2, 2.0]], chosen=[0.01, 2.0], by="seed")
    assert [x["verdict"] for x in read] == ["holds", "fails"]


# ----------------------------------------------------------------------------- D4.3: the runs' gradient variance, exact


def _enumerated(theta, eps, rule, budget, M):
    """The probe part and the whole variance of ``rule``'s stochastic gradient at ``theta`` by brute force: every sign vector
    of the Rademacher probe (2^d of them) at every degree counted, the estimator's own gradient (grad_lowrank)."""
    from itertools import product

    from inferopt.experiment.spectral.completion_degrees import truncated_gradient
    from inferopt.spectral.gradients import grad_lowrank

    series = rule.series
    signs = np.array(list(product([-1.0, 1.0], repeat=theta.shape[0]))).T
    mu = truncated_gradient(theta, eps, series.coeffs, series.a, series.b)
    if hasattr(rule, "distribution"):
        n = np.arange(series.coeffs.size - 1)
        q = rule.distribution.pmf(n)
        keep = (q > 0) & (rule.distribution.tail(n) >= 1.0 / budget)   # the degrees a run reaches: P(N >= n) >= 1/budget
        weights = [(qk, rule.distribution.reweight(series.coefficients(int(k)))) for qk, k in zip(q[keep], n[keep])]
    else:   # a fixed degree's variance is about its own (biased) mean: no degree part
        weights = [(1.0, series.coefficients(rule.degree))]
        mu = truncated_gradient(theta, eps, weights[0][1], series.a, series.b)
    probe = whole = 0.0
    for qk, w in weights:
        G = np.array([grad_lowrank(theta, eps, signs[:, [i]], w, series.a, series.b) for i in range(signs.shape[1])])
        probe += qk * np.mean(np.sum((G - G.mean(axis=0)) ** 2, axis=(1, 2))) / M
        whole += qk * (np.mean(np.sum((G - G.mean(axis=0)) ** 2, axis=(1, 2))) / M + np.sum((G.mean(axis=0) - mu) ** 2))
    return probe, whole


@pytest.mark.parametrize("shape", [(6, 3), (3, 5), (5, 5)])
def test_exact_gradient_variances_equal_every_probe_sign_enumerated(shape):
    """Session 63 (review helper-435: the Monte-Carlo estimate at the optimum was dominated by single high-degree draws): the
    closed form over Rademacher probes equals the brute-force mean over all 2^d sign vectors at every degree counted, with a
    null space (d > r) and without, and the degree part added gives the whole variance."""
    rng = np.random.default_rng(sum(shape))
    theta, eps = rng.normal(size=shape), 0.3
    lam = np.linalg.eigvalsh(theta @ theta.T) + eps
    series = ChebyshevSeries("sqrt", 0.9 * lam.min(), 1.1 * lam.max())
    rules = {"optimal": make_degree_rule(series, N=4, distribution="optimal"), "poisson": make_degree_rule(series, N=4, distribution="poisson"),
             "negative binomial": make_degree_rule(series, N=4, distribution="negative binomial", p=0.5), "SGD-DET": make_degree_rule(series, degree=5)}
    got = exact_gradient_variances(theta, eps, rules, M=3, budget=1e4).set_index("rule")
    for name, rule in rules.items():
        probe, whole = _enumerated(theta, eps, rule, 1e4, 3)
        assert got.loc[name, "probe part"] == pytest.approx(probe, rel=1e-10)
        assert got.loc[name, "variance"] == pytest.approx(whole, rel=1e-10)
    assert got.loc["SGD-DET", "degree part"] == 0.0 and got.loc["SGD-DET", "largest degree"] == 5
    assert got.loc["poisson", "degree part"] > 0 and got.loc["poisson", "largest degree"] >= 4
    # the cut is on the tail mass, not on each degree's own probability (pre-run review helper-437): a degree of probability
    # below 1/budget is counted while the tail from it is at least 1/budget (the optimal distribution's geometric tail)
    n = np.arange(series.coeffs.size - 1)
    dist = rules["optimal"].distribution
    largest = int(got.loc["optimal", "largest degree"])
    assert dist.tail(largest) >= 1e-4 > dist.tail(largest + 1) and dist.pmf(largest) < 1e-4
    # M probes average: the probe part falls as 1/M, the degree part does not
    one = exact_gradient_variances(theta, eps, rules, M=1, budget=1e4).set_index("rule")
    assert np.allclose(one["probe part"], 3 * got["probe part"]) and np.allclose(one["degree part"], got["degree part"])
    other = ChebyshevSeries("sqrt", 0.5 * lam.min(), 1.1 * lam.max())
    with pytest.raises(ValueError, match="another series"):
        exact_gradient_variances(theta, eps, {"a": rules["optimal"], "b": make_degree_rule(other, degree=3)}, M=1)
    with pytest.raises(TypeError, match="rules"):
        exact_gradient_variances(theta, eps, {}, M=1)
    with pytest.raises(TypeError, match="rules\\['x'\\]"):
        exact_gradient_variances(theta, eps, {"x": "poisson"}, M=1)
    with pytest.raises(ValueError, match="M"):
        exact_gradient_variances(theta, eps, rules, M=0)
    with pytest.raises(ValueError, match="budget"):
        exact_gradient_variances(theta, eps, rules, M=1, budget=0.5)


def test_point_variances_reads_the_interval_at_the_point_and_the_realisable_degrees():
    """D4's rules as the runs draw them at a point (its interval), and session 45's finding kept: over the whole distribution
    Poisson's degree term is dominated by degrees no run draws; on the degrees of probability >= 1/budget it is not."""
    problem = small_problem()
    star, _ = reference_solution(problem, max_iter=300)
    rows = point_variances(problem, star, N=4, distributions=("optimal", "poisson"), p=0.5, M=2, budget=200, degrees=(6,))
    assert list(rows["rule"]) == ["optimal", "poisson", "SGD-DET N=6"]
    series = ChebyshevSeries("sqrt", *problem.interval(star))
    same = exact_gradient_variances(star, problem.eps, {"optimal": make_degree_rule(series, N=4, distribution="optimal")}, M=2, budget=200)
    assert rows["variance"].iloc[0] == pytest.approx(same["variance"].iloc[0], rel=1e-12)
    poisson = make_degree_rule(series, N=4, distribution="poisson")
    assert degree_term(star, problem.eps, poisson) > 1e6 * degree_term(star, problem.eps, poisson, budget=200) > 0
    assert degree_term(star, problem.eps, make_degree_rule(series, degree=6)) == 0.0
    with pytest.raises(TypeError, match="problem"):
        point_variances(None, star, N=4, distributions=("optimal",), p=0.5, M=2, budget=200)
    with pytest.raises(TypeError, match="rule"):
        degree_term(star, problem.eps, "poisson")


def vtable(optimum, path, *, se=0.02, seeds=5, seed=0, probe=100.0):
    """Exact gradient variances as d43_exact_reading reads them: at the optimum one unit (exact), each other rule ``optimum[o]``
    above the optimal one's variance ``probe``; on the path ``seeds`` units, each other rule ``path[o]`` above on average with
    paired noise of relative standard error exactly ``se``; the degree parts zero except where given."""
    rng = np.random.default_rng(seed)
    rows = [{"point": "optimum", "unit": "optimum", "rule": r, "probe part": probe * (1.0 + rel), "degree part": 0.0}
            for r, rel in ({"optimal": 0.0} | optimum).items()]
    base = probe * (1.0 + 0.1 * rng.random(seeds))
    base *= probe / base.mean()
    for r, rel in ({"optimal": 0.0} | path).items():
        z = rng.normal(size=seeds)
        noise = (z - z.mean()) / z.std(ddof=1) * se * probe * np.sqrt(seeds) if r != "optimal" and seeds > 1 else np.zeros(seeds)
        rows += [{"point": "path", "unit": f"seed {k}", "rule": r, "probe part": base[k] + rel * probe + noise[k], "degree part": 0.0}
                 for k in range(seeds)]
    return pd.DataFrame(rows).assign(budget=600.0)


def two_budgets(run, pooled):
    """vtable's rows at a run's budget (600) and pooled over the seeds (3000): ``run``, ``pooled`` two vtables."""
    return pd.concat([run.assign(budget=600.0), pooled.assign(budget=3000.0)], ignore_index=True)


BOTH = ("poisson", "negative binomial")


def test_d43_exact_reading_holds_fails_and_stays_undecided():
    both = lambda x: dict.fromkeys(BOTH, x)   # noqa: E731
    r = d43_exact_reading(vtable(both(1.0), both(1.0)))
    assert r["outcome"] is True and r["points"]["optimum"]["se excess poisson"] == 0.0 and r["points"]["optimum"]["units"] == 1
    assert r["points"]["path"]["excess poisson"] == pytest.approx(1.0) and r["points"]["path"]["se excess poisson"] == pytest.approx(0.02)
    # within the margin at both points (the optimum exact, the path decisively): fails
    r = d43_exact_reading(vtable(both(0.005), both(0.005), se=0.002))
    assert r["outcome"] is False and r["turns"] is False
    # one other within the margin, the other far above: that point fails (the other distributions are conjuncts)
    assert d43_exact_reading(vtable({"poisson": 1.0, "negative binomial": 0.0}, both(1.0)))["points"]["optimum"]["outcome"] is False
    # 10 % with a wide SE on the path: undecided there, so undecided overall though the optimum decides
    r = d43_exact_reading(vtable(both(0.5), both(0.1), se=0.05))
    assert r["points"]["path"]["outcome"] is None and r["points"]["optimum"]["outcome"] is True and r["outcome"] is None
    assert "margin" in r["reason"] and r["turns"] is False
    assert "poisson at the path ~" in r["reason"] and "square root of the seeds" in r["reason"]   # what would decide it
    # the points decide apart: no outcome, and it says the points turn it (a reading, not a conjunct)
    r = d43_exact_reading(vtable(both(1.0), both(0.0), se=0.01))
    assert r["outcome"] is None and r["turns"] is True and "decide apart" in r["reason"]
    # ... the path short of D4.1's gate: the optimum alone decides
    r = d43_exact_reading(vtable(both(1.0), both(0.0), se=0.01), made={"optimum": 1.0, "path": 0.3}, gate_share=0.5)
    assert r["outcome"] is True and r["points"]["path"]["outcome"] is None and r["points"]["path"]["past the gate"] is False
    # one seed on the path: no standard error, undecided (only a point of ``exact`` is one exact computation)
    r = d43_exact_reading(vtable(both(1.0), both(1.0), seeds=1))
    assert r["points"]["path"]["outcome"] is None and r["points"]["path"]["se excess poisson"] == float("inf")
    # an unbounded variance (an overflow) decides nothing
    tb = vtable(both(1.0), both(1.0))
    tb.loc[(tb.point == "optimum") & (tb.rule == "poisson"), "probe part"] = float("inf")
    r = d43_exact_reading(tb)
    assert r["points"]["optimum"]["outcome"] is None and np.isnan(r["points"]["optimum"]["excess poisson"]) and "unbounded" in r["reason"]
    # M' infinite (probe weight 0): the degree parts alone
    tb = vtable(both(0.0), both(0.0)).assign(**{"degree part": 1.0})
    tb.loc[tb.rule != "optimal", "degree part"] = 5.0
    assert d43_exact_reading(tb, probe_weight=0.0)["points"]["path"]["excess poisson"] == pytest.approx(4.0)
    with pytest.raises(ValueError, match="nothing to read"):
        d43_exact_reading(vtable(both(0.0), both(0.0)), probe_weight=0.0)
    with pytest.raises(ValueError, match="non-negative"):
        d43_exact_reading(tb.assign(**{"degree part": -1.0}))
    with pytest.raises(ValueError, match="margin"):
        d43_exact_reading(tb, margin=-0.1)
    with pytest.raises(ValueError, match="gate_share"):
        d43_exact_reading(tb, gate_share=1.5)
    with pytest.raises(TypeError, match="made"):
        d43_exact_reading(tb, made=0.5)


def d43_claim(tmp_path, variances, made=0.6):
    """D4.3 as the notebook records it: its keyword arguments from d43_claim_args, the path's median run ``made`` of the way."""
    exp = Experiment("D4", title="t", paper="p", figure="Fig 2", params={"output_dir": str(tmp_path), "seed": 0})
    exp.stand_ins.append("a smaller matrix")
    if variances["budget"].nunique() == 1:
        variances = two_budgets(variances, variances)
    d = d43_claim_args(variances, budget=600, budgets=[3000], made=made, iters=600, gate_share=0.5, seed=0)
    return d, exp.claim("D4.3", "Others have larger variances.", **d["args"]).to_dict()


def test_d43_reads_the_points_as_readings_and_can_hold_fail_and_turn(tmp_path):
    """Session 63, settling review helper-435: where the variance is read (the runs' end points, the optimum they are headed
    for) is a reading of ours, not a conjunct: points that decide apart make D4.3 inconclusive with a ``reading`` diagnosis."""
    both = lambda x: dict.fromkeys(BOTH, x)   # noqa: E731
    d, c = d43_claim(tmp_path, vtable(both(3.0), both(3.0)))
    assert c["verdict"] == "holds" and c["support"]["fraction_holding"] >= 0.9 and c["threshold"]["value"] == [0.1, 0, 600]
    assert [r["value"] for r in c["threshold"]["readings"]] == [[m, p, b] for m in (0.05, 0.1, 0.2, 1.0) for p in (0, 1) for b in (600, 3000)]
    assert {r["verdict"] for r in c["threshold"]["readings"]} == {"holds"}
    # within the margin at every reading: it fails at the chosen one, but no kind is earned (review helper-439: nothing shows the
    # paper's data or longer runs would move it): inconclusive, each point named in the reason
    d, c = d43_claim(tmp_path, vtable(both(0.005), both(0.005), se=0.002))
    assert d["args"]["holds"] is False and c["verdict"] == "inconclusive" and c.get("diagnosis") is None
    assert "fails at every reading of our cut-offs (at the path fails; at the optimum fails)" in c["reason"]
    assert c["reason"].count("no diagnosis is earned") == 1
    # the optimum holds, the path fails: inconclusive, a reading, both points named
    d, c = d43_claim(tmp_path, vtable(both(1.0), both(0.0), se=0.01))
    assert c["verdict"] == "inconclusive" and c["diagnosis"]["kind"] == "reading"
    assert "at the path fails; at the optimum holds" in c["diagnosis"]["text"] and "the paper says none of them" in c["diagnosis"]["text"]
    # ... the path short of the gate: the optimum is chosen and decides alone
    d, c = d43_claim(tmp_path, vtable(both(1.0), both(0.0), se=0.01), made=0.3)
    assert c["verdict"] == "holds" and c["threshold"]["value"] == [0.1, 1, 600]
    assert {r["verdict"] for r in c["threshold"]["readings"] if r["value"][1] == 0} == {"inconclusive"}
    # 15 % above at both points: holds at 0.05 and 0.1, fails at 0.2: the margin turns it (reading)
    d, c = d43_claim(tmp_path, vtable(both(0.15), both(0.15), se=0.01))
    assert [r["verdict"] for r in c["threshold"]["readings"]] == ["holds"] * 8 + ["fails"] * 8
    assert c["diagnosis"]["evidence"]["turning"] == ["margin"] and "the margin turns it" in c["diagnosis"]["text"]
    assert c["verdict"] == "inconclusive" and c["diagnosis"]["kind"] == "reading"
    # undecided on the path: inconclusive with the reason
    d, c = d43_claim(tmp_path, vtable(both(0.1), both(0.1), se=0.05))
    assert c["verdict"] == "inconclusive" and "margin" in c["reason"]
    # the budget turns it (pre-run review helper-437: which degrees count is a cut-off of ours): a run's degrees within the
    # margin at both points, every run's pooled far above: inconclusive, reading, whatever the chosen reading says
    d, c = d43_claim(tmp_path, two_budgets(vtable(both(0.005), both(0.005), se=0.002), vtable(both(1.0), both(1.0))))
    assert d["args"]["holds"] is False and c["verdict"] == "inconclusive" and c["diagnosis"]["kind"] == "reading"
    assert c["diagnosis"]["evidence"]["turning"] == ["budget"] and "It fails, decisively" not in c["diagnosis"]["text"]
    # ... and the margin alone turning it is a reading too, not a stand-in (the chosen reading fails at 0.1 and 0.2, holds at 0.05)
    d, c = d43_claim(tmp_path, vtable(both(0.07), both(0.07), se=0.005))
    assert c["verdict"] == "inconclusive" and c["diagnosis"]["kind"] == "reading"
    tb = two_budgets(vtable(both(1.0), both(1.0)), vtable(both(1.0), both(1.0)))
    kw = dict(budget=600, budgets=[3000], iters=600, gate_share=0.5, seed=0)
    with pytest.raises(TypeError, match="made"):
        d43_claim_args(tb, made={"path": 0.6}, **kw)
    with pytest.raises(ValueError, match="iters"):
        d43_claim_args(tb, made=0.6, **(kw | {"iters": 0}))
    with pytest.raises(TypeError, match="margins"):
        d43_claim_args(tb, made=0.6, margins=0.1, **kw)
    with pytest.raises(ValueError, match="margin"):
        d43_claim_args(tb, made=0.6, margin=-1.0, **kw)
    with pytest.raises(ValueError, match="both points"):
        d43_claim_args(tb[tb.point == "path"], made=0.6, **kw)
    with pytest.raises(ValueError, match="every budget"):
        d43_claim_args(tb[tb.budget == 600], made=0.6, **kw)
    with pytest.raises(TypeError, match="budgets"):
        d43_claim_args(tb, made=0.6, **(kw | {"budgets": 3000}))


def test_lemma2_var_c_and_the_other_gradient_readings_never_turn_d43(tmp_path):
    """Session 60's and 61's settlement: Lemma 2's Var_C (Fig. 1's theory, D1.1's claim) and the gradient readings at other M'
    or tail cuts are not what the runs see: beside D4.3, never turning it."""
    tie = vtable(dict.fromkeys(BOTH, 0.005), dict.fromkeys(BOTH, 0.005), se=0.002).assign(**{"degree part": 1.0})
    large = tie.copy()
    large.loc[large.rule != "optimal", "degree part"] = 5.0
    g = d43_gradient_readings({1 / 3000: tie, 1e-6: large}, M=30)
    assert len(g["readings"]) == 3 * 2 and g["readings"][-2]["value"] == [0.0, 1e-6] and g["readings"][-2]["verdict"] == "holds"
    assert [r["value"] for r in g["readings"][:2]] == [[1 / 30, 1e-6], [1 / 30, 1 / 3000]] and g["readings"][1]["verdict"] == "fails"
    assert lemma2_holds(var_c(64.8, float("inf"), 4e55)) == {"chosen": True, "eps 300": True}
    d, c = d43_claim(tmp_path, tie)
    assert d["args"]["holds"] is False and all(r["verdict"] == "fails" for r in c["threshold"]["readings"])
    assert lemma2_holds(var_c(1.0, 1.01, 1.01)) == {"chosen": False, "eps 300": False}
    with pytest.raises(ValueError, match="least probability"):
        d43_gradient_readings({0.0: tie}, M=30)
    with pytest.raises(TypeError, match="tables"):
        d43_gradient_readings({}, M=30)
    with pytest.raises(ValueError, match="probes"):
        d43_gradient_readings({1 / 3000: tie}, M=30, probes=(0,))


def test_d43_texts_say_where_it_is_read_and_print_no_nan(tmp_path):
    """Session 61's re-read, items 1 and 10, and session 63: the path is every seed's end point; the optimum, where the runs are
    headed, is exempt from the gate and exact; an unbounded variance is said, not printed as nan."""
    where = d43_where_text(0.565, 600, 0.5)
    assert "at the end of each seed's optimal-arm run (its median run 0.565 of the way" in where and "past D4.1's gate of 0.5" in where
    assert "at the optimum, where the runs are headed: exempt from the gate by construction" in where
    assert "short of D4.1's gate" in d43_where_text(0.3, 600, 0.5)
    d, c = d43_claim(tmp_path, vtable(dict.fromkeys(BOTH, 0.005), dict.fromkeys(BOTH, 0.005), se=0.002), made=0.565)
    text = d43_excess_text(d["reading"]["points"], BOTH, verdicts=True)
    assert text == ("at the path poisson +0.5% (SE 0.2%), negative binomial +0.5% (SE 0.2%): fails; at the optimum poisson +0.5% (exact), "
                    "negative binomial +0.5% (exact): fails")
    assert "the end of each seed's optimal-arm run" in c["threshold"]["unit"] and "P(N >= n) >= 1/budget" in c["threshold"]["unit"]
    d, c = d43_claim(tmp_path, vtable(dict.fromkeys(BOTH, 1.0), dict.fromkeys(BOTH, 0.0), se=0.01), made=0.565)
    assert "exempt from the gate by construction" in c["diagnosis"]["text"] and c["diagnosis"]["kind"] == "reading"
    tb = vtable(dict.fromkeys(BOTH, 1.0), dict.fromkeys(BOTH, 1.0))
    tb.loc[(tb.point == "optimum") & (tb.rule == "poisson"), "probe part"] = float("inf")
    text = d43_excess_text(d43_exact_reading(tb)["points"], BOTH, verdicts=True)
    assert text.startswith("at the optimum poisson unbounded, not deciding, negative binomial +100.0% (exact): undecided") and "nan" not in text
    with pytest.raises(ValueError, match="others"):
        d43_excess_text(d["reading"]["points"], "poisson")
    with pytest.raises(ValueError, match="iters"):
        d43_where_text(0.5, 0, 0.5)


def test_d43_bootstraps_the_chosen_reading_once(tmp_path, monkeypatch):
    """Session 61's re-read, item 8: the chosen reading's support is computed once, its reading taking it."""
    calls = []
    real = degree_claims.bootstrap_support

    def counting(*args, **kw):
        calls.append(1)
        return real(*args, **kw)
    monkeypatch.setattr(degree_claims, "bootstrap_support", counting)
    d, c = d43_claim(tmp_path, vtable(dict.fromkeys(BOTH, 3.0), dict.fromkeys(BOTH, 3.0)))
    assert len(calls) == 16 and c["verdict"] == "holds"   # 4 margins x 2 points x 2 budgets, the chosen one's the claim's support
    chosen = next(r for r in c["threshold"]["readings"] if r["value"] == [0.1, 0, 600])
    assert chosen["support"] == c["support"]["fraction_holding"]
    fake = {"fraction_holding": 0.5, "method": "bootstrap", "unit": "seed", "n_units": 5, "n_resamples": 200, "seed": 0}
    read = three_valued_readings(lambda t, v: d41_reading(t, 2.0, 1.0, margin=v)["outcome"], d41_table(1.50, 1.60, 1.55), [0.005],
                                 chosen=0.01, by="seed", chosen_support=fake)
    assert read[1] == {"value": 0.01, "verdict": "inconclusive", "support": 0.5} and read[0]["verdict"] == "holds"
