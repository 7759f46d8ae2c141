"""B3's statistics (Fig. 5, inferopt.experiment.boundary_claims) on constructed tables: each can hold and can fail, and
refuses what it cannot read."""
import numpy as np
import pandas as pd
import pytest

from inferopt.experiment.boundary_claims import (agreeing_test, before_end, censored_median, crossover_t, decided_in_regime,
                                                 family_first_point, family_model, family_run, feature_radius, interior_radius, run_from, mean_in_hull, regime_by_bound, linear_onset, log_log_slope,
                                                 onset_later, partial_rank_correlation, rank_correlation, ratio_before_end,
                                                 slower_share, tail_rate, terminates_ahead)

T = np.arange(1, 257)


def table(**curves):
    return pd.DataFrame({m: np.asarray(c, dtype=float) for m, c in curves.items()}, index=T)


def test_ratio_before_end_ignores_the_terminated_zeros():
    mnp = np.where(T < 60, 1.08 * T ** -1.0, 0.0)          # 8 % worse before it terminates, then exact
    w = table(mnp=mnp, a=T ** -1.0, b=2 * T ** -1.0)
    assert before_end(w, "mnp", range(10, 200))[-1] == 59
    assert ratio_before_end(w, "mnp", ["a", "b"], range(10, 200)) == pytest.approx(1.08)
    w_best = table(mnp=np.where(T < 60, 0.9 * T ** -1.0, 0.0), a=T ** -1.0, b=2 * T ** -1.0)
    assert ratio_before_end(w_best, "mnp", ["a", "b"], range(10, 200)) == pytest.approx(0.9)
    with pytest.raises(ValueError, match="rounding level at every size"):
        ratio_before_end(table(mnp=np.zeros(len(T)) + (T == 1), a=T ** -1.0), "mnp", ["a"], range(10, 20))


def test_terminates_ahead_holds_when_only_the_method_reaches_mu():
    others = dict(a=T ** -1.0, b=T ** -2.0)
    ok, t_end = terminates_ahead(table(mnp=np.where(T < 56, T ** -1.0, 0.0), **others), "mnp", ["a", "b"])
    assert ok and t_end == 56
    never, t_end = terminates_ahead(table(mnp=T ** -1.0, **others), "mnp", ["a", "b"])
    assert not never and t_end is None
    tied, _ = terminates_ahead(table(mnp=np.where(T < 56, T ** -1.0, 0.0), a=T ** -1.0, b=np.where(T < 50, 1.0, 0.0)),
                               "mnp", ["a", "b"])
    assert not tied                                           # another method got there too


def test_slower_share():
    w = table(ls=T ** -1.0, h=T ** -1.5)
    assert slower_share(w, "ls", "h", [10, 20, 40, 80]) == (1.0, True, pytest.approx(80 ** 0.5))
    share, last, ratio = slower_share(table(ls=np.exp(-T / 10.0), h=T ** -1.0), "ls", "h", [10, 20, 40, 80])
    assert share == 0.5 and not last and ratio < 1


def test_rank_correlation():
    assert rank_correlation([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert rank_correlation([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="constant"):
        rank_correlation([1, 2, 3], [5, 5, 5])












def test_partial_rank_correlation_uses_the_spread_within_families():
    """B3.4: the family's level is partialled out; the spread within it counts, and the sign can come out either way."""
    groups = ["a"] * 4 + ["b"] * 4
    x = np.array([1, 2, 3, 4, 11, 12, 13, 14], dtype=float)
    y = np.array([40, 41, 42, 43, 1, 2, 3, 4], dtype=float)   # pooled: negative; within each family: increasing
    assert rank_correlation(x, y) < 0
    assert partial_rank_correlation(x, y, groups) == pytest.approx(1.0)
    assert partial_rank_correlation(x, -y, groups) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="within any group"):
        partial_rank_correlation([1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 2.0, 2.0], ["a", "a", "b", "b"])


def test_log_log_slope_reads_c_against_r_squared():
    r = np.array([0.01, 0.02, 0.05, 0.1])
    assert log_log_slope(r, 3 * r ** 2) == pytest.approx(2.0)
    assert np.isnan(log_log_slope([0.1, 0.2], [1.0, 2.0]))


def test_interior_radius_brackets_the_distance_from_below():
    # the square [-1, 1]^2: the distance of (0.5, 0) from its boundary is 0.5; the bound is the smallest step along
    # +-e_i (0.5) over sqrt(2); outside the hull it is 0
    F = np.array([[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]])
    assert interior_radius(F, np.array([0.5, 0.0])) == pytest.approx(0.5 / np.sqrt(2))
    assert interior_radius(F, np.array([0.0, 0.0])) == pytest.approx(1 / np.sqrt(2))
    assert interior_radius(F, np.array([1.5, 0.0])) == 0.0
    with pytest.raises(ValueError):
        interior_radius(F, np.zeros(3))


def test_linear_onset_finds_the_linear_phase_and_censors_a_sublinear_run():
    t = np.arange(1, 4001, dtype=float)
    sublinear = 1 / t ** 2                                   # herding's slope, never -3
    assert linear_onset(t, sublinear) is None
    linear = np.where(t < 300, 1 / t, 1 / 300 * np.exp(-(t - 300) / 50))   # 1/t, then exp(-t/50): slope -t/50
    on = linear_onset(t, linear)
    assert on is not None and 128 <= on <= 512
    assert linear_onset(t, linear, slope=-20.0) > on         # a steeper detector fires later
    floored = np.where(t < 100, np.exp(-t / 5), 0.0)         # reaches the rounding level: linear up to its end
    assert linear_onset(t, floored) is not None


def test_tail_rate_fits_c_only_in_the_linear_phase():
    t = np.arange(1, 2001, dtype=float)
    e = np.exp(-0.01 * t)
    assert tail_rate(t, e, linear_onset(t, e)) == pytest.approx(0.01, rel=1e-6)
    assert tail_rate(t, 1 / t, linear_onset(t, 1 / t)) is None


def test_censored_median_is_reached_only_when_more_than_half_are_observed():
    assert censored_median([10, 20, 30, None, None], 100) == 30.0
    assert censored_median([10, 20, None, None], 100) is None
    assert censored_median([5, 1, 3], 10) == 3.0
    with pytest.raises(ValueError):
        censored_median([], 10)


def test_onset_later_can_hold_fail_and_stay_undecided():
    assert onset_later([4000, 5000, 6000], [100, 200, 300], 10000, 1000, 2.0) == (True, 5000.0, 200.0)
    assert onset_later([300, 350, 500], [100, 200, 300], 10000, 1000, 2.0)[0] is False
    # a censored small-distance median lies beyond its budget: it holds where the budget is already factor x the large one
    assert onset_later([4000, None, None], [100, 200, 300], 10000, 1000, 2.0) == (True, None, 200.0)
    assert onset_later([250, None, None], [100, 200, 300], 300, 1000, 2.0)[0] is None       # budget 300 < 2 x 200: open
    # a censored large median: a small one reached early fails, a late one is open; both censored is open
    assert onset_later([300, 350, 500], [None, None, 300], 10000, 1000, 2.0)[0] is False
    assert onset_later([3000, 3500, 5000], [None, None, 300], 10000, 1000, 2.0)[0] is None
    assert onset_later([None, None, 5000], [None, None, 300], 10000, 1000, 2.0)[0] is None


def test_agreeing_test_never_counts_an_undecided_resample_for_the_verdict():
    outcome = lambda tab: {"h": True, "f": False, "u": None}[tab]
    for_holds, for_fails = agreeing_test(outcome, True), agreeing_test(outcome, False)
    assert [for_holds(x) for x in "hfu"] == [True, False, False]     # support of holds: an undecided resample does not agree
    assert [for_fails(x) for x in "hfu"] == [True, False, True]      # support of fails (1 - share): nor does it here
    assert [agreeing_test(outcome, None)(x) for x in "hfu"] == [True, False, False]


def test_decided_in_regime_moves_to_the_axis_when_a_check_fails():
    """THE RULE, clause 2: in the explanation's regime when its checks hold, over the whole map when one fails."""
    regime_ok = [{"verdict": "holds"}, {"verdict": "holds"}]
    regime_bad = [{"verdict": "holds"}, {"verdict": "fails"}]
    others = [{"verdict": "fails"}, {"verdict": "holds"}]
    both = {"B3.4": "holds", "B3.5": "holds"}
    assert decided_in_regime(both, regime_ok, regime_ok + others)[:2] == (True, "regime")        # holds in the regime
    assert decided_in_regime(both, regime_bad, regime_bad + others)[:2] == (False, "regime")     # fails in the regime
    for checks in ({"B3.4": "fails", "B3.5": "holds"}, {"B3.4": "holds", "B3.5": "fails"}):
        held, place, deciding = decided_in_regime(checks, regime_ok, regime_ok + others)
        assert (held, place, len(deciding)) == (None, "lost setting", 4)    # the axis's cells disagree: lost setting
        fail_all = [{"verdict": "fails"}] * 3
        assert decided_in_regime(checks, regime_ok, fail_all)[:2] == (False, "axis")             # the axis decides
        assert decided_in_regime(checks, regime_ok, regime_ok)[:2] == (True, "axis")
    assert decided_in_regime({"B3.4": "inconclusive"}, regime_ok, regime_ok + [{"verdict": "inconclusive"}])[0] is None
    with pytest.raises(ValueError):
        decided_in_regime({}, regime_ok, regime_ok)


def test_family_model_seeds_each_sample_size_apart():
    """The map's sample-size cells are not nested samples of one covariance: n_sample enters the draw's seed."""
    _, mu_small = family_model(4, 3.0, 2, 0, 0, 50)
    _, mu_large = family_model(4, 3.0, 2, 0, 0, 200)
    assert not np.allclose(mu_small, mu_large)
    assert np.allclose(family_model(4, 3.0, 2, 0, 0, 50)[1], mu_small)


def test_decided_in_regime_is_three_valued_in_the_gate():
    """Both checks hold: the regime; one fails: the axis; else undecided unless the regime and the axis agree."""
    regime_ok = [{"verdict": "holds"}]
    others = [{"verdict": "fails"}]
    assert decided_in_regime({"B3.4": "holds", "B3.5": "inconclusive"}, regime_ok, regime_ok + others)[:2] == (None, "undecided")
    assert decided_in_regime({"B3.4": "holds", "B3.5": "not measured"}, regime_ok, regime_ok + [{"verdict": "holds"}])[:2] == (True, "agree")
    assert decided_in_regime({"B3.4": "inconclusive", "B3.5": "holds"}, [{"verdict": "fails"}], others)[:2] == (False, "agree")
    assert decided_in_regime({"B3.4": "fails", "B3.5": "inconclusive"}, regime_ok, regime_ok + others)[:2] == (None, "lost setting")
    assert decided_in_regime({"B3.4": "fails", "B3.5": "inconclusive"}, others, others)[:2] == (False, "axis")


def test_feature_radius_is_the_largest_feature_norm():
    from inferopt.herding import pairwise_features
    for d in (6, 8, 10):                                              # +-1 pairwise features: R = sqrt(d + d(d-1)/2)
        F = pairwise_features(np.random.default_rng(d).choice([-1.0, 1.0], size=(50, d)))
        assert feature_radius(F) == pytest.approx(np.sqrt(d + d * (d - 1) / 2))
    assert feature_radius([[3.0, 4.0], [0.0, 1.0]]) == pytest.approx(5.0)
    with pytest.raises(ValueError):
        feature_radius(np.zeros((0, 3)))


def test_regime_by_bound_is_fixed_per_cell_by_the_scale_free_distance():
    """B3.2 (session 29 review): the regime is on r / R, Sec. 4.2's quantity, not the absolute r; a cut translated from
    an absolute one at d = 10 (R = sqrt(55)) excludes a d = 6 cell (R = sqrt(21)) of the same r."""
    R = {d_: np.sqrt(d_ + d_ * (d_ - 1) / 2) for d_ in (6, 8, 10)}
    bounds = {"ours": 0.153, "rank 1": 0.106, "rank 2": 0.030, "rank 3": 0.026, "d = 8": 0.039, "d = 6": 0.051}
    radii = {k: R[6] if k == "d = 6" else R[8] if k == "d = 8" else R[10] for k in bounds}
    for c_ in (0.06, 0.08):                                          # the cut translated at d = 10: d = 6 excluded
        assert regime_by_bound(bounds, radii, c_ / R[10]) == ["rank 2", "rank 3", "d = 8"]
    assert regime_by_bound(bounds, radii, 0.10 / R[10]) == ["rank 2", "rank 3", "d = 8", "d = 6"]   # included
    assert regime_by_bound(bounds, {k: R[10] for k in bounds}, 0.06 / R[10]) == ["rank 2", "rank 3", "d = 8", "d = 6"]
    assert regime_by_bound(bounds, radii, 0.5) == list(bounds)
    with pytest.raises(ValueError):
        regime_by_bound(bounds, radii, 0.0)
    with pytest.raises(ValueError):
        regime_by_bound(bounds, {"ours": R[10]}, 0.01)               # a cell without its radius
    with pytest.raises(ValueError):
        regime_by_bound(bounds, radii | {"ours": 0.0}, 0.01)
    with pytest.raises(TypeError):
        regime_by_bound([0.1], radii, 0.01)


def test_the_scale_free_regime_can_hold_and_fail():
    """B3.2 through decided_in_regime: the failing d = 6 cell decides only where its r / R is inside the cut, so the
    regime fixed by r / R holds without it and fails (every d failing) or splits the lost d with it."""
    both = {"B3.4": "holds", "B3.5": "holds"}
    R = {d_: np.sqrt(d_ + d_ * (d_ - 1) / 2) for d_ in (6, 10)}
    cells_ = {"rank 2": {"setting": {"d": 10}, "verdict": "holds"}, "d = 6": {"setting": {"d": 6}, "verdict": "fails"},
              "ours": {"setting": {"d": 10}, "verdict": "fails"}}
    bounds, radii = {"rank 2": 0.03, "d = 6": 0.051, "ours": 0.153}, {"rank 2": R[10], "d = 6": R[6], "ours": R[10]}
    decide = lambda cut: decided_in_regime(both, [cells_[k] for k in regime_by_bound(bounds, radii, cut)], list(cells_.values()), lost="d")
    assert decide(0.08 / R[10])[:2] == (True, "regime")                       # d = 6 out by r / R: holds
    assert decide(0.10 / R[10])[:2] == (None, "regime lost setting")          # d = 6 in: the lost d splits
    cells_["rank 2"]["verdict"] = "fails"
    assert decide(0.08 / R[10])[:2] == (False, "regime")                      # fails


def test_decided_in_regime_reads_the_lost_d_by_lost_setting_verdict():
    """B3.2 (review of 89b3376): d is lost, so the regime is read at each d and the values combined by
    verdict_map.lost_setting_verdict: it holds where every d holds, fails where every d fails, and is inconclusive (lost
    setting) where they disagree, or undecided where a value is undecided -- never decided by the cells at one d."""
    both = {"B3.4": "holds", "B3.5": "holds"}
    at = lambda d, v: {"setting": {"d": d}, "verdict": v}
    others = [at(10, "fails")]
    agree = [at(10, "holds"), at(10, "holds"), at(8, "holds"), at(6, "holds")]
    assert decided_in_regime(both, agree, agree + others, lost="d")[:2] == (True, "regime")
    fail = [at(10, "fails"), at(8, "fails"), at(6, "fails")]
    assert decided_in_regime(both, fail, fail + others, lost="d")[:2] == (False, "regime")
    split = [at(10, "holds"), at(8, "holds"), at(6, "fails")]
    assert decided_in_regime(both, split, split + others, lost="d")[:2] == (None, "regime lost setting")
    assert decided_in_regime(both, split, split + others)[:2] == (False, "regime")          # without lost: map_holds alone
    open_d6 = [at(10, "holds"), at(8, "holds"), at(6, "inconclusive")]                      # the paper-scale pattern
    assert decided_in_regime(both, open_d6, open_d6 + others, lost="d")[:2] == (None, "regime")
    assert decided_in_regime(both, open_d6[:2], open_d6 + others, lost="d")[:2] == (True, "regime")   # d = 6 left out: holds
    # an open gate: the regime (read over d) and the axis must agree
    assert decided_in_regime({"B3.4": "holds", "B3.5": "inconclusive"}, split, split, lost="d")[:2] == (None, "undecided")
    assert decided_in_regime({"B3.4": "holds", "B3.5": "inconclusive"}, agree, agree, lost="d")[:2] == (True, "agree")
    with pytest.raises(ValueError, match="'d'"):
        decided_in_regime(both, [{"setting": {}, "verdict": "holds"}], others, lost="d")


def test_run_from_starts_at_the_given_point_and_matches_herd_at_argmax_mu():
    """Sec. 4's random first point: run_from(first=argmax mu) is herd's g_0 = 0 run; another first point starts elsewhere
    (the first error is that point's), and the family's first point is one per draw, the same for every method."""
    from inferopt._selection import tied_argmax
    from inferopt.herding import FeatureTarget, herd, hull_problem
    F, mu = family_model(5, 3.0, 2, 0, 0, 300)
    top = tied_argmax(hull_problem(FeatureTarget(mu), F).c)
    for step in ("1/(t+1)", "line_search", "mnp"):
        base = herd(FeatureTarget(mu), F, 40, step).objective
        assert np.allclose(run_from(F, mu, 40, step, top), base)
        assert np.allclose(run_from(F, mu, 40, step), base)
    other = next(j for j in range(len(F)) if not np.allclose(F[j], F[top]))
    e = run_from(F, mu, 40, "1/(t+1)", other)
    assert e[0] == pytest.approx(float(np.sum((F[other] - mu) ** 2)))
    assert not np.isclose(e[0], herd(FeatureTarget(mu), F, 40, "1/(t+1)").objective[0])
    first = family_first_point(5, 3.0, 2, 0, 0, 300)
    assert first == family_first_point(5, 3.0, 2, 0, 0, 300) and 0 <= first < 300
    assert len({family_first_point(5, 3.0, 2, r, 0, 300) for r in range(6)}) > 1        # a fresh point per draw
    for step in ("1/(t+1)", "line_search"):
        assert np.allclose(family_run(5, 3.0, 2, 0, 0, 300, 40, step, first_point=True)[0], run_from(F, mu, 40, step, first))
    with pytest.raises(ValueError, match="first"):
        run_from(F, mu, 40, "1/(t+1)", len(F))


def test_mean_in_hull_holds_inside_and_fails_outside():
    F = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert mean_in_hull(F, np.array([0.2, 0.2]))
    assert not mean_in_hull(F, np.array([0.8, 0.8]))


def test_crossover_t_is_where_the_slow_method_overtakes_for_good():
    tab = pd.DataFrame({"ls": [5.0, 1.0, 3.0, 1.0, 0.5], "h": [2.0, 2.0, 2.0, 2.0, 2.0]}, index=[1, 2, 3, 4, 5])
    assert crossover_t(tab, "ls", "h") == 4
    assert crossover_t(tab.assign(ls=[5.0, 5, 5, 5, 5]), "ls", "h") is None
    assert crossover_t(tab.assign(ls=[1.0, 1, 1, 1, 1]), "ls", "h") == 1
