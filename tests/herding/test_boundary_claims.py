"""B3's statistics (Fig. 5, inferopt.experiment.boundary_claims) on constructed tables: each can hold and can fail, and
refuses what it cannot read."""
import numpy as np
import pandas as pd
import pytest

from inferopt.experiment.boundary_claims import (before_end, log_log_slope, partial_rank_correlation, rank_correlation,
                                                 ratio_before_end, regime_holds, slower_share, terminates_ahead,
                                                 window_table, within_rank_correlation)

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


def test_overtakes_at_found_and_none():
    from inferopt.experiment.boundary_claims import overtakes_at
    t = pd.DataFrame({"ls": [1.0, 2.0, 0.5, 0.1], "h": [2.0, 1.0, 1.0, 1.0]}, index=[1, 2, 4, 8])
    assert overtakes_at(t, "ls", "h", [1, 2, 4, 8]) == 4
    assert overtakes_at(t, "h", "ls", [1, 2, 4, 8]) is None
    with pytest.raises(ValueError):
        overtakes_at(t, "ls", "h", [16])


def test_overtakes_later_holds_fails_and_reads_none_as_beyond_the_budget():
    from inferopt.experiment.boundary_claims import overtakes_later
    assert overtakes_later([300, None, 500], [20, 30, 40], budget=1000, factor=2.0) == (True, 500.0, 30.0)
    assert overtakes_later([None, None], [None, 900], budget=1000, factor=1.0)[0]
    assert not overtakes_later([None, None], [None, None], budget=1000, factor=2.0)[0]   # neither overtakes: not later
    assert not overtakes_later([40, 50], [30, 40], budget=1000, factor=2.0)[0]
    with pytest.raises(ValueError):
        overtakes_later([], [10], budget=100, factor=2.0)
    with pytest.raises(ValueError):
        overtakes_later([10], [10], budget=100, factor=0.5)


def test_overtaking_observed_needs_half_the_draws_within_the_run():
    from inferopt.experiment.boundary_claims import overtaking_observed
    assert overtaking_observed([300, None]) and overtaking_observed([10, 20, None])
    assert not overtaking_observed([None, None, 40]) and not overtaking_observed([None])
    with pytest.raises(ValueError, match="one overtaking size"):
        overtaking_observed([])


def test_within_rank_correlation_can_hold_and_fail():
    x = np.array([1, 2, 3, 4, 10, 20, 30, 40], dtype=float)
    groups = ["a"] * 4 + ["b"] * 4
    up = np.array([1, 2, 3, 4, 1, 2, 3, 4], dtype=float)
    assert within_rank_correlation(x, up, groups) == pytest.approx(1.0)
    assert within_rank_correlation(x, -up, groups) == pytest.approx(-1.0)
    # pooled, a confound between the groups can reverse the sign the groups show
    y = np.array([10, 11, 12, 13, 1, 2, 3, 4], dtype=float)
    assert rank_correlation(x, y) < 0 < within_rank_correlation(x, y, groups)
    with pytest.raises(ValueError):
        within_rank_correlation(x, np.ones(8), groups)
    with pytest.raises(ValueError):
        within_rank_correlation(x, up, groups[:3])


def test_regime_holds_needs_every_small_distance_family_and_reads_the_window():
    """B3.2 (THE RULE, clause 2): holds where line search is worse in most draws of every family; a family that fails, or
    a window where it is not yet worse, fails."""
    rows = []
    for fam, fr in (("3/3", [0.8, 0.9, 0.7]), ("3/2", [0.9, 0.2, 0.8])):
        for r, f in enumerate(fr):
            rows += [{"family": fam, "draw": r, "window": 1000, "fraction worse": f, "worse at the last": True},
                     {"family": fam, "draw": r, "window": 100, "fraction worse": 0.1, "worse at the last": False}]
    tab = window_table(rows)
    assert regime_holds(tab, [0.5, 1000])
    assert not regime_holds(tab, [0.5, 100])                  # not yet worse within 100 iterations
    assert not regime_holds(tab, [0.85, 1000])                 # a stricter share: 3/3 fails
    one_bad = window_table([dict(x, **{"fraction worse": 0.1}) if x["family"] == "3/2" else x for x in rows])
    assert not regime_holds(one_bad, [0.5, 1000])             # one family fails: the claim fails
    with pytest.raises(ValueError, match="window"):
        regime_holds(tab, [0.5, 5000])


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
