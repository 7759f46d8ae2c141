"""C1.3 decided over the verdict map of the component law (the near law of ours at each spread, the authors' law at the
D where it has both kinds: review C1, session 58), and the texts of C1.2's verdict map over eps0 (moved from the
notebook)."""

import numpy as np
import pandas as pd
import pytest

from inferopt.experiment import boosting_claims as bc
from inferopt.experiment.claims import Unearned


def law_runs(dims, n_good=30, n_bad=30, follow=False, spread=None):
    """Line search's (and AdaFW's) rows at each D: ``n_good`` runs facing a good component (exact step 0.3), ``n_bad`` a
    bad one (0); line search's step 0.5 everywhere (AUC 0.5), or the exact step itself (``follow``: AUC 1). ``spread``:
    the near law's rows carry it, the authors' law's do not."""
    rows = []
    for d in dims:
        for r in range(n_good + n_bad):
            best = 0.3 if r < n_good else 0.0
            for m in ("line_search", "adafw"):
                rows.append({"dimension": d, "run": r, "method": m, "gamma": best if (follow and m == "line_search") else 0.5,
                             "kl": 1.0, "gamma_best": best, "kl_best": 0.4, "kl_init": 0.7, "step_type": "fw"})
    out = pd.DataFrame(rows)
    return out if spread is None else out.assign(spread=spread)


NEAR = {"component law": "near, spread 1.25"}
NEAR_1 = {"component law": "near, spread 1"}
AUTHORS = {"component law": "the authors'"}
CHOSEN = [0.75, 5, 20, 1, 2]


def test_two_kind_dims_needs_min_each_of_both():
    runs = pd.concat([law_runs([1], 10, 10), law_runs([2], n_good=9), law_runs([5], n_good=0)])
    assert bc.two_kind_dims(runs, [1, 2, 5]) == [1]
    assert bc.two_kind_dims(runs, [1, 2, 5], min_each=9) == [1, 2]
    with pytest.raises(ValueError, match="min_each"):
        bc.two_kind_dims(runs, [1], min_each=0)


def test_distinguish_at_reads_the_medium_range_on_the_near_law_only():
    near, authors = law_runs([5, 10], spread=1.25), law_runs([2])
    assert bc.distinguish_at(near, CHOSEN, [5, 10, 20]) is True                       # AUC 0.5 <= 0.75
    assert bc.distinguish_at(near, [0.75, 20, 20, 1, 2], [5, 10, 20]) is None            # no medium D of the range run
    assert bc.distinguish_at(authors, [0.75, 20, 20, 1, 2], [5, 10, 20]) is True         # the range does not apply to it
    sharp = law_runs([2], follow=True)                                                # its step is the exact step: AUC 1
    assert bc.distinguish_at(sharp, CHOSEN, [5, 10, 20]) is False
    assert bc.distinguish_at(sharp, [0.75, 5, 20, 1, 5], [5, 10, 20]) is None       # D = 2 counted low: nothing read
    assert bc.distinguish_at(law_runs([1], follow=True), CHOSEN, [5]) is None          # D = 1 is never medium
    assert bc.distinguish_at(near, [0.75, 5, 20, 2, 2], [5, 10, 20]) is True             # chance is within [0.25, 0.75]
    with pytest.raises(ValueError, match="value"):
        bc.distinguish_at(near, [0.75, 5, 20, 1], [5])
    with pytest.raises(ValueError, match="sides"):
        bc.distinguish_at(near, [0.75, 5, 20, 3, 2], [5])


def test_c13_over_the_map_of_component_laws_holds_and_fails():
    """Every cell holding holds; the authors' law failing beside a holding near law fails the map and earns no
    diagnosis kind (the reviews of sessions 58 and 59: a rescue by our own component law is not an open setting of the
    paper, nor a construction of theirs): our construction alone does not set the verdict; an authors' cell with no D of
    both kinds decides nothing."""
    near, medium = law_runs([5, 10], spread=1.25), [5, 10, 20]
    ok = bc.distinguish_cells([(NEAR, near), (AUTHORS, law_runs([1, 2]))], CHOSEN, medium)
    assert [c["verdict"] for c in ok] == ["holds", "holds"] and [c["construction"] for c in ok] == ["ours", "authors"]
    assert ok[1]["support"] == 1.0 and ok[1]["data"] == "paper"
    assert bc.over_map(ok, "x.") == (True, None)
    bad = bc.distinguish_cells([(NEAR_1, near), (NEAR, near), (AUTHORS, law_runs([2], follow=True))], CHOSEN, medium)
    assert [c["verdict"] for c in bad] == ["holds", "holds", "fails"] and bad[2]["support"] == 0.0
    holds, diag = bc.over_map(bad, "Line search's AUC per cell.")
    assert holds is False and isinstance(diag, Unearned) and "near, spread 1.25" in diag.reason
    assert "on the paper's own construction (component law = the authors' (authors' construction))" in diag.reason
    assert diag.reason.endswith("so the map earns no diagnosis kind.")
    # a map too small to diagnose (the near law not run) is undecided, not failed by default
    holds, diag = bc.over_map(bad[2:], "Line search's AUC per cell.")
    assert holds is False and isinstance(diag, Unearned) and "fewer than 3" in diag.reason
    none = bc.distinguish_cells([(NEAR, near), (AUTHORS, law_runs([2]).iloc[:0])], CHOSEN, medium)
    assert [c["verdict"] for c in none] == ["holds", "not measured"] and "support" not in none[1]
    assert bc.over_map(none, "x.") == (True, None)


def test_c13_readings_over_the_map_turn_on_the_authors_cell():
    """map_readings over the component laws: a cut above the authors' AUC holds where the chosen one fails."""
    half = law_runs([2])                      # 24 of the 30 good components get a step of 0.9, the rest 0.5: AUC 0.9
    half.loc[(half.method == "line_search") & (half.run < 24), "gamma"] = 0.9
    tables = [(NEAR, law_runs([5, 10], spread=1.25)), (AUTHORS, half)]
    auc = bc.separation(half, [2])
    assert auc == pytest.approx(0.9)
    at = lambda t, v: bc.distinguish_at(t, v, [5, 10, 20])
    cells = bc.distinguish_cells(tables, CHOSEN, [5, 10, 20])
    r = {tuple(x["value"]): x["verdict"] for x in bc.map_readings(tables, [[0.97, 5, 20, 1, 2], [0.75, 5, 20, 1, 5]], at,
                                                                  chosen=CHOSEN, chosen_cells=cells)}
    assert r[tuple(CHOSEN)] == "fails" and r[(0.97, 5, 20, 1, 2)] == "holds"
    assert r[(0.75, 5, 20, 1, 5)] == "holds"          # D = 2 counted low: the authors' cell reads nothing, decides nothing


def test_c13_readings_skip_an_authors_cell_with_nothing_to_read():
    """An authors' cell with no D of both kinds (an empty table) beside a measured near law: the readings are the near
    law's (the re-read of session 58: map_readings bootstrapped the empty cell and raised)."""
    tables = [(NEAR, law_runs([5, 10], spread=1.25)), (AUTHORS, law_runs([2]).iloc[:0])]
    at = lambda t, v: bc.distinguish_at(t, v, [5, 10, 20])
    r = bc.map_readings(tables, [[0.65, 5, 20, 1, 2]], at, chosen=CHOSEN, chosen_cells=bc.distinguish_cells(tables, CHOSEN, [5, 10, 20]))
    assert {x["verdict"] for x in r} == {"holds"}


def eps0_tables():
    """Two cells of eps0, each with AdaFW, line search and predefined at D = 10 and 20; the second records its eps0."""
    def one(kl, fallback, eps0=None):
        rows = []
        for d in (10, 20):
            for r in range(4):
                for m in ("adafw", "line_search", "predefined"):
                    rows.append({"dimension": d, "run": r, "method": m, "gamma": 0.2, "kl": kl * d if m == "adafw" else 9.0,
                                 "step_type": "fallback" if (m == "adafw" and r < fallback) else "fw",
                                 "eps0": eps0 if m == "adafw" else np.nan})
        return pd.DataFrame(rows)
    return [({"eps0": 0.1}, one(0.1, 1)), ({"eps0": "1 standard error(s)"}, one(0.2, 2, eps0=2.5))]


def test_eps0_map_text_names_every_cell_its_medians_and_fallbacks():
    evidence, what = bc.eps0_map_text(eps0_tables(), [10, 20], {10: 5.0, 20: 48.0}, eps0=0.1)
    assert evidence.startswith("AdaFW at D = [10, 20] per cell of eps0 (line search's median KL 5 / 48): eps0 = 0.1: median KL 1 / 2")
    assert "fallback to 2/3 in 25% / 25% of the runs" in evidence and "median KL 2 / 4, fallback to 2/3 in 50% / 50%" in evidence
    assert evidence.endswith("eps0 median 2.5.")
    assert what.startswith(", ε₀ = 0.1 (ours: Eq. (11)'s") and "falling back to 2/3 in 25% at D = 10, 25% at D = 20 of the runs" in what
    assert "(the last from each run's measured error" in what and what.endswith("eps0 median 2.5")
    # without a cell of measured eps0 the text does not claim one
    _, plain = bc.eps0_map_text(eps0_tables()[:1], [10, 20], {10: 5.0, 20: 48.0}, eps0=0.1)
    assert "measured error" not in plain and "eps0 median" not in plain
    with pytest.raises(ValueError, match="tables"):
        bc.eps0_map_text([], [10], {10: 1.0}, eps0=0.1)


def test_shares_text():
    assert bc.shares_text({10: 0.08, 20: 0.175}) == "8% at D = 10, 18% at D = 20"


def test_ours_alone_holds_only_where_ours_alone_holds_and_theirs_fails():
    """ours_alone_holds: Unearned where every decisive hold is ours and an authors' cell fails decisively; else None, and
    over_map keeps the map's own diagnosis (`setting` where an ours cell fails beside ours holding)."""
    from inferopt.experiment.verdict_map import cell
    sup = lambda f: {"method": "bootstrap", "fraction_holding": f, "n_resamples": 200, "n_units": 30, "unit": "run"}   # noqa: E731
    ours_ok = [cell({"law": f"near {s_}"}, True, support=sup(1.0), construction="ours") for s_ in (1, 2)]
    theirs_bad = cell({"law": "authors'"}, False, support=sup(0.0), construction="authors")
    ours_bad = cell({"law": "near 3"}, False, support=sup(0.0), construction="ours")
    assert isinstance(bc.ours_alone_holds(ours_ok + [theirs_bad], "x."), Unearned)
    assert bc.ours_alone_holds(ours_ok + [ours_bad], "x.") is None                 # no authors' cell fails
    theirs_ok = cell({"law": "authors' 2"}, True, support=sup(1.0), construction="authors")
    assert bc.ours_alone_holds(ours_ok + [theirs_ok, theirs_bad], "x.") is None     # theirs holds somewhere too
    undecided = cell({"law": "authors'"}, False, support=sup(0.5), construction="authors")
    assert bc.ours_alone_holds(ours_ok + [undecided], "x.") is None               # not a decisive failure
    assert bc.over_map(ours_ok + [ours_bad], "x.")[1]["kind"] == "setting"


def test_an_undecided_resample_never_supports_a_failing_cell():
    """supported_cell (every C1 map cell): a cell failing on the measured runs whose resamples are mostly undecided
    (nothing to tell apart) is not a decisive failure (the re-read of session 58: bool(None) counted them as failing)."""
    calls = []

    def test(r):
        calls.append(len(r))
        return False if len(calls) == 1 else None      # fails on the measured runs, undecided on every resample
    c = bc.supported_cell({"law": "authors'"}, law_runs([2]), test, construction="authors")
    assert c["verdict"] == "inconclusive" and c["support"] == 1.0
    c = bc.supported_cell({"law": "authors'"}, law_runs([2]), lambda r: False, construction="authors")
    assert c["verdict"] == "fails" and c["support"] == 0.0
    c = bc.supported_cell({"law": "near"}, law_runs([2]), lambda r: None)
    assert c["verdict"] == "not measured" and "support" not in c


def lower_runs(dims, n_good=30, n_bad=30, adafw_kl=1.0, spread=None):
    """AdaFW's, line search's and predefined's rows at each D (line search KL 2 and 2 +- 1, predefined 3): AdaFW's KL
    ``adafw_kl`` in every run; ``n_good`` runs face a good component (exact step 0.3), ``n_bad`` a bad one."""
    rows = []
    for d in dims:
        for r in range(n_good + n_bad):
            best = 0.3 if r < n_good else 0.0
            for m, kl in (("adafw", adafw_kl), ("line_search", 2.0 + (r % 3 - 1)), ("predefined", 3.0)):
                rows.append({"dimension": d, "run": r, "method": m, "gamma": 0.5, "kl": kl, "gamma_best": best})
    out = pd.DataFrame(rows)
    return out if spread is None else out.assign(spread=spread)


def test_lower_at_reads_only_the_d_with_good_components():
    """C1.2-authors (review C1c, session 59): each D read alone where at least the last entry of runs face a good
    component; none read, not measured."""
    runs = pd.concat([lower_runs([10]), lower_runs([20], n_good=3, adafw_kl=9.0)])
    assert bc.lower_at(runs, [10, 20, 10], [10, 20]) is True             # D = 20 has 3 good runs: not read
    assert bc.lower_at(runs, [10, 20, 3], [10, 20]) is False             # read at 3: AdaFW above line search at D = 20
    assert bc.lower_at(runs, [20, 20, 10], [10, 20]) is None
    with pytest.raises(ValueError, match="value"):
        bc.lower_at(runs, [10, 20], [10, 20])


def test_c12_authors_over_the_map_of_component_laws_holds_and_fails():
    """Near-law cells (ours) each decided with their support; the authors' law with no good component at D >= 10 is not
    measured and decides nothing; a near cell where the rule is above line search fails the map."""
    value, dims = [10, 100, 10], [10, 20, 50, 100]
    authors = lower_runs([10, 20], n_good=0)
    ok = bc.lower_law_cells([(NEAR, lower_runs([10, 20], spread=1.25)), (AUTHORS, authors)], value, dims)
    assert [c["verdict"] for c in ok] == ["holds", "not measured"]
    assert ok[0]["construction"] == "ours" and ok[1]["construction"] == "authors" and "support" not in ok[1]
    assert bc.over_map(ok, "x.") == (True, None)
    bad = bc.lower_law_cells([(NEAR, lower_runs([10, 20], adafw_kl=9.0, spread=1.25)), (AUTHORS, authors)], value, dims)
    assert bad[0]["verdict"] == "fails" and bc.over_map(bad, "x.")[0] is False
    text = bc.lower_law_text([(NEAR, lower_runs([10], spread=1.25)), (AUTHORS, authors)], value, dims)
    assert "1 / 2 / 3 at D = 10" in text and "no D in [10, 100] where 10 runs face a good component" in text


def _never_stepping(dims, q1_kl=1.0, **kw):
    """lower_runs with AdaFW at γ = 0 in every run, its KL q1's (``q1_kl``), and the exact step's KL 0.5 (0.3 good)."""
    runs = lower_runs(dims, adafw_kl=q1_kl, **kw).assign(kl_init=q1_kl)
    runs["kl_best"] = np.where(runs.gamma_best > 0, q1_kl - 0.5, q1_kl)
    runs.loc[runs.method == "adafw", "gamma"] = 0.0
    runs["step_type"] = np.where(runs.method == "adafw", "fallback", "fw")
    return runs


def test_lower_at_reads_a_d_where_the_rule_never_steps():
    """Review C1g (session 61): where good components exist q1 alone is not the optimum, so a rule at γ = 0 is read on
    the paper's axis: it holds where line search lands above q1, fails where line search beats q1; not measured only
    where the exact step is 0 in every run (there, and only there, "cannot fail")."""
    assert bc.lower_at(_never_stepping([10, 20]), [10, 20, 10], [10, 20]) is True            # q1 1.0 below line search's 2
    assert bc.lower_at(_never_stepping([10, 20], q1_kl=2.5), [10, 20, 10], [10, 20]) is False  # line search (2) beats q1
    none = _never_stepping([10, 20], n_good=0)
    assert bc.lower_at(none, [10, 20, 10], [10, 20]) is None
    assert "exact step is 0 in every run" in bc.unread_text(none, [10, 20], 10) and "cannot fail" in bc.unread_text(none, [10, 20], 10)
    few = _never_stepping([10, 20], n_good=3)
    assert bc.lower_at(few, [10, 20, 10], [10, 20]) is None and "cannot fail" not in bc.unread_text(few, [10, 20], 10)
    assert "fewer than 10 runs face a good component at D = 10 (3), D = 20 (3): not read" in bc.unread_text(few, [10, 20], 10)
    assert bc.unread_text(_never_stepping([10]), [10], 10) == ""


def test_forgone_gain_is_what_the_rule_gives_up_on_the_good_components():
    runs = _never_stepping([10], n_good=20, n_bad=10)
    lost = bc.forgone_gain(runs, [10])
    assert lost == {10: {"good": 20, "stepped": 0.0, "exact gain": 0.5, "rule gain": 0.0, "taken": 0.0}}
    took = runs.copy()
    took.loc[took.method == "adafw", ["gamma", "kl"]] = [0.3, 0.75]      # half the exact step's gain, on every run
    assert bc.forgone_gain(took, [10])[10] == {"good": 20, "stepped": 1.0, "exact gain": 0.5, "rule gain": 0.25, "taken": 0.5}
    assert bc.forgone_gain(_never_stepping([10], n_good=0), [10]) == {}


def test_lower_law_text_quotes_the_d_the_verdict_reads():
    """Session 60's re-read: the evidence sentence quotes medians at the D lower_at decides on, a D where the rule never
    steps included (review C1g, session 61), and a cell lower_at does not measure says why."""
    runs = _never_stepping([10, 20], spread=1.25)
    text = bc.lower_law_text([(NEAR, runs)], [10, 100, 10], [10, 20])
    assert "1 / 2 / 3 at D = 10" in text and "1 / 2 / 3 at D = 20" in text
    none = _never_stepping([10, 20], n_good=0, spread=1.25)
    cell_ = bc.lower_law_cells([(NEAR, none)], [10, 100, 10], [10, 20])[0]
    text = bc.lower_law_text([(NEAR, none)], [10, 100, 10], [10, 20])
    assert cell_["verdict"] == "not measured" and "at D =" not in text.split("(")[0] and "cannot fail" in text and "not measured" in text
    with pytest.raises(ValueError, match="value"):
        bc.lower_law_text([(NEAR, runs)], [10, 100], [10, 20])


def test_not_stepping_text_says_how_the_rule_is_lower_and_what_it_gives_up():
    """Review C1g (session 61): the text says the rule is lower by not stepping (its step-0 share, its KL q1's) and what
    it gives up against the exact step on the good components; nothing where no cell reads a D."""
    text = bc.not_stepping_text([(NEAR, _never_stepping([10, 20], spread=1.25))], [10, 20], 10)
    assert "lower by not stepping" in text and "step 0 in 100% (KL within 1% of q1's in 100%) at D = 10" in text
    assert "0% of 30, median gain over q1 0 against the exact step's 0.5 (0% of the exact step's summed gain taken) at D = 20" in text
    assert "a target met at the start" not in text
    assert bc.not_stepping_text([(NEAR, _never_stepping([10], n_good=3, spread=1.25))], [10], 10) == ""   # no D with 10 good runs
