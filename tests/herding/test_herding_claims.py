"""The deciding code of paper B's claims (inferopt.experiment.herding_claims) on constructed error tables: every
test can hold and can fail, and refuses what it cannot read."""
import numpy as np
import pandas as pd
import pytest

from inferopt.experiment.herding_claims import (before_end, dyadic, entropy_tradeoff, proj_gain_share, rank_correlation,
                                                rate_near, ratio_before_end, same_points, share_below, slower_share,
                                                terminates_ahead)

T = np.arange(1, 257)


def table(**curves):
    return pd.DataFrame({m: np.asarray(c, dtype=float) for m, c in curves.items()}, index=T)


def test_dyadic_sizes():
    assert dyadic(T) == [8, 16, 32, 64, 128, 256]
    assert dyadic(T, t_min=100) == [128, 256]


def test_rate_near_holds_on_the_rate_and_fails_off_it():
    w = table(herding=T ** -4.0, random=T ** -1.0)
    ok, slope = rate_near(w, "herding", dyadic(T), -4.0, 0.3)
    assert ok and slope == pytest.approx(-4.0)
    ok, slope = rate_near(w, "random", dyadic(T), -4.0, 0.3)
    assert not ok and slope == pytest.approx(-1.0)


def test_rate_near_refuses_a_zero_error():
    w = table(m=np.where(T > 100, 0.0, T ** -1.0))
    with pytest.raises(ValueError, match="positive errors"):
        rate_near(w, "m", dyadic(T), -1.0, 0.3)


def test_proj_gain_share_leaves_the_excused_sizes_out():
    gain = np.where((T & (T - 1)) == 0, 1.0, 2.0)          # no gain at t = 2^k only
    w = table(h=np.ones(len(T)), **{"h-proj": 1.0 / gain})
    sizes = [4, 5, 8, 12, 16, 20]
    assert proj_gain_share(w, "h", sizes, 1.1) == pytest.approx(0.5)
    assert proj_gain_share(w, "h", sizes, 1.1, excused=dyadic(sizes, t_min=1)) == 1.0
    w_none = table(h=np.ones(len(T)), **{"h-proj": np.ones(len(T))})
    assert proj_gain_share(w_none, "h", sizes, 1.1, excused=dyadic(sizes, t_min=1)) == 0.0
    with pytest.raises(ValueError, match="every size is excused"):
        proj_gain_share(w, "h", [8, 16], 1.1, excused=[8, 16])


def test_share_below():
    w = table(a=T ** -2.0, b=T ** -1.0)
    assert share_below(w, "a", "b", range(2, 100)) == 1.0
    assert share_below(w, "b", "a", range(2, 100)) == 0.0


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


def test_same_points():
    pts = np.arange(10.0)[:, None]
    err = 1.0 / np.arange(1, 11)
    assert same_points(pts, pts, err, err) == (1.0, 0.0)
    other = pts.copy()
    other[5:] += 1
    share, diff = same_points(pts, other, err, err * 1.1)
    assert share == 0.5 and diff == pytest.approx(0.1 / 1.1)
    with pytest.raises(ValueError, match="same number of steps"):
        same_points(pts, pts[:5], err, err)


def test_entropy_tradeoff():
    ls = {"mean_error": 1e-6, "dist": 0.4, "entropy": 2.0}
    herding = {"mean_error": 1e-3, "dist": 0.05, "entropy": 4.0}
    assert entropy_tradeoff(ls, herding) is True
    assert entropy_tradeoff(ls | {"entropy": 5.0}, herding) is False
    assert entropy_tradeoff(ls | {"dist": 0.01}, herding) is False
    assert entropy_tradeoff(herding, ls) is None                      # not better at the moments: the premise fails
    assert entropy_tradeoff(ls | {"mean_error": 2e-4}, herding) is None  # better, but not by the factor
    with pytest.raises(ValueError, match="missing"):
        entropy_tradeoff({"dist": 1.0}, herding)
