"""The deciding code of paper B's claims (inferopt.experiment.herding_claims) on constructed error tables: every
test can hold and can fail, and refuses what it cannot read."""
import numpy as np
import pandas as pd
import pytest

from inferopt.experiment.herding_claims import dyadic, entropy_tradeoff, proj_gain_share, rate_near, same_points, share_below

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


# --- B1.1, B1.2, B1.4, B2, B4, B5, B6 deciding functions --------------------------------------------------------------

from inferopt.experiment.herding_claims import (DECREASING_SLOPE, all_at_most, beats_at, classify, converges, ends_on_mean,  # noqa: E402
                                                gain_share, linear_not_polynomial, never_beaten, proj_gains,
                                                reaches_first, size_outcomes, slightly_worse, stalls)


def test_size_outcomes_counts_ties_as_ties_and_reads_proj_arms_where_measured():
    proj = np.full(len(T), np.nan)
    proj[[9, 19]] = 0.5                                   # a -proj arm measured at t = 10 and 20 only, better there
    w = table(mnp=np.ones(len(T)), h=np.where(T % 2 == 0, 1.0, 2.0), **{"h-proj": proj})
    o = size_outcomes(w, "mnp", ["h", "h-proj"], range(8, 32))
    assert o.loc[9, "outcome"] == "win" and o.loc[8, "outcome"] == "tie"
    assert o.loc[10, "outcome"] == "loss" and o.loc[10, "best other"] == "h-proj"
    assert not never_beaten(o.outcome)
    o = size_outcomes(w, "mnp", ["h"], range(8, 32))
    assert (o.outcome == "tie").sum() == 12 and never_beaten(o.outcome)   # ties and wins, no loss
    assert not never_beaten(["tie", "tie"])                                 # tied everywhere: not shown best


def test_size_outcomes_refuses_a_size_without_any_other():
    w = table(mnp=np.ones(len(T)), **{"h-proj": np.full(len(T), np.nan)})
    with pytest.raises(ValueError, match="no other method"):
        size_outcomes(w, "mnp", ["h-proj"], [8])


def test_classify_and_never_beaten_read_the_tie_tolerance():
    r = np.array([0.5, 1.02])
    assert list(classify(r, 1e-9)) == ["win", "loss"] and list(classify(r, 0.05)) == ["win", "tie"]
    assert never_beaten(classify(r, 0.05)) and not never_beaten(classify(r, 1e-9))
    with pytest.raises(ValueError, match="outcomes"):
        never_beaten(["win", "draw"])


def test_best_in_panels_excuses_a_panel_tied_throughout_and_can_fail():
    from inferopt.experiment.herding_claims import best_in_panels

    s = lambda *labels: pd.Series(list(labels), index=range(8, 8 + len(labels)))
    holds = lambda out: never_beaten(out.to_numpy())
    assert best_in_panels({"a": s("win", "tie"), "uniform": s("tie", "tie")}, holds)        # the tied panel is excused
    assert not best_in_panels({"a": s("win", "loss"), "uniform": s("tie", "tie")}, holds)   # a loss elsewhere still fails
    assert not best_in_panels({"a": s("tie"), "b": s("tie", "tie")}, holds)                 # tied everywhere: not shown best
    assert not never_beaten(s("tie", "tie").to_numpy())   # the per-panel rule alone would fail the tied panel
    with pytest.raises(TypeError, match="outcomes"):
        best_in_panels({}, holds)
    with pytest.raises(ValueError, match="outcomes"):
        best_in_panels({"a": s("win", "draw")}, holds)
    with pytest.raises(TypeError, match="holds"):
        best_in_panels({"a": s("win")}, None)


def test_best_from_reads_tolerance_and_first_size_jointly_and_can_fail():
    from inferopt.experiment.herding_claims import best_from

    frame = lambda *r: pd.DataFrame({"best other": "h", "ratio": list(r)}, index=range(8, 8 + len(r)))
    early = frame(1.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1.08, 0.5)   # beaten 1.3x at t = 8, 1.08x at t = 16
    tied = frame(*[1.0] * 10)                                           # a panel tied throughout: excused
    st = {"random": early, "uniform": tied}
    assert not best_from(st, 1e-9, 8) and not best_from(st, 0.1, 8)    # the early loss is beyond either tolerance
    assert not best_from(st, 1e-9, 16) and not best_from(st, 0.05, 16)  # the 1.08x loss at t = 16 stays a loss
    assert best_from(st, 0.1, 16)                                        # within 0.1 and from t = 16: no loss
    assert not best_from({"uniform": tied}, 0.1, 8)                      # only tied panels: not shown best
    assert not best_from({"a": frame(0.95, 0.97)}, 0.1, 8)               # every win within the tolerance: a tie
    with pytest.raises(ValueError, match="first"):
        best_from(st, 0.1, 100)
    with pytest.raises(TypeError, match="outcomes"):
        best_from({}, 0.1, 8)
    with pytest.raises(ValueError, match="ratio"):
        best_from({"a": pd.Series([1.0])}, 0.1, 8)
    with pytest.raises(ValueError, match="tie_rtol"):
        best_from(st, -0.1, 8)


def test_worst_losses_lists_the_largest_ratios_first():
    from inferopt.experiment.herding_claims import worst_losses

    o = pd.DataFrame({"best other": ["h", "s", "h", "s"], "ratio": [1.05, 0.5, 1.3, 1.0]}, index=[8, 16, 32, 64])
    w = worst_losses(o, n=5)
    assert list(w.index) == [32, 8] and list(w["best other"]) == ["h", "h"]   # ties and wins left out
    assert list(worst_losses(o, n=1).index) == [32] and worst_losses(o, tie_rtol=0.1).index.tolist() == [32]
    assert worst_losses(o.assign(ratio=0.5)).empty
    with pytest.raises(ValueError, match="outcomes"):
        worst_losses(o[["ratio"]])
    with pytest.raises(ValueError, match="n"):
        worst_losses(o, n=0)


def test_slightly_worse_holds_in_the_band_and_fails_outside():
    assert slightly_worse({"a": 1.5, "b": 2.9}, 3.0)
    assert not slightly_worse({"a": 1.5, "b": 22.0}, 3.0)          # far worse
    assert not slightly_worse([0.8, 1.5], 3.0)                     # better: not worse
    with pytest.raises(ValueError):
        slightly_worse([1.5], 0.5)


def test_beats_at_lists_the_sizes():
    w = table(r=np.where(T > 100, 0.5, 2.0), h=np.ones(len(T)))
    assert beats_at(w, "r", "h", [50, 101, 200]) == [101, 200]
    assert beats_at(w, "r", "h", [50, 60]) == []


def test_gain_share_and_proj_gains():
    w = table(h=np.full(len(T), 3.0), **{"h-proj": np.where(T > 10, 1.0, 2.5)})
    g = proj_gains(w, "h", [5, 8, 20, 30])
    assert gain_share(g, 1.1) == 1.0 and gain_share(g, 2.0) == 0.5


def test_ends_on_mean_and_reaches_first():
    assert ends_on_mean([0.01, 0.05], [1.1, 0.9], tol=0.25)
    assert not ends_on_mean([0.01, 0.5], [1.1, 0.9], tol=0.25)    # one run has not fitted the sample
    assert not ends_on_mean([0.01, 0.05], [1.1, 1.6], tol=0.25)   # test error still far from the floor
    with pytest.raises(ValueError, match="one entry per run"):
        ends_on_mean([0.01], [1.0, 1.0], tol=0.25)
    assert reaches_first({"mnp": 10, "h": 30, "ls": None}, "mnp")
    assert not reaches_first({"mnp": 10, "h": 10}, "mnp")          # a tie is not first
    assert not reaches_first({"mnp": None, "h": 10}, "mnp")
    with pytest.raises(ValueError):
        reaches_first({"h": 1}, "mnp")


def test_converges_and_stalls_are_decided_on_the_distance_and_its_slope():
    assert converges(0.01, -0.7, 0.02) and not stalls(0.01, -0.7, 0.02)
    assert stalls(0.2, 0.0, 0.02) and not converges(0.2, 0.0, 0.02)
    assert not converges(0.01, 0.0, 0.02)          # small but on a plateau: B5.1's "does not converge" holds
    assert not converges(0.037, DECREASING_SLOPE + 0.1, 0.04)
    with pytest.raises(ValueError):
        converges(-1.0, 0.0, 0.02)




def test_linear_not_polynomial_and_all_at_most():
    ls = {"R2 exp": 0.99, "R2 power": 0.8, "exp rate c": 0.01}
    hd = {"R2 exp": 0.7, "R2 power": 0.99, "exp rate c": 1e-4}
    assert linear_not_polynomial(ls, hd, 0.9)
    assert not linear_not_polynomial(hd, hd, 0.9)        # line search polynomial too
    assert not linear_not_polynomial(ls, ls, 0.9)        # herding linear too
    with pytest.raises(ValueError, match="missing"):
        linear_not_polynomial({"R2 exp": 1.0}, hd, 0.9)
    assert all_at_most({"a": -1.9, "b": -2.0}, -1.5) and not all_at_most([-1.9, -1.2], -1.5)




def test_always_readings_hold_and_fail():
    from inferopt.experiment.herding_claims import always_readings
    idx = list(range(1, 101))
    out = pd.Series(["win"] * 100, index=idx)
    assert all(always_readings(out).values())
    out2 = out.copy(); out2[10] = "loss"
    r = always_readings(out2)
    assert r["share>=0.95"] and r["share>=0.99"] and not r["share>=1"] and not r["t>=8"] and r["t>=16"]
    assert not any(always_readings(pd.Series(["tie"] * 5, index=range(1, 6))).values())
    with pytest.raises(ValueError):
        always_readings(pd.Series(["maybe"], index=[1]))




B11_READINGS = [(tie, first) for first in (8, 16) for tie in (1e-9, 0.05, 0.1)]   # the notebook's grid of B1.1's readings


def test_across_readings_holds_fails_and_turns_with_the_reading_of_b11():
    from inferopt.experiment.herding_claims import across_readings, best_from

    frame = lambda *r: pd.DataFrame({"best other": "h", "ratio": list(r)}, index=range(8, 8 + len(r)))
    at = lambda st: {r: best_from(st, *r) for r in B11_READINGS}
    assert across_readings(at({"a": frame(*[0.5] * 10)})) is True                 # never beaten: holds at every reading
    assert across_readings(at({"a": frame(0.5, 1.3, *[0.5] * 8, 1.2)})) is False  # 1.3x at t = 9, 1.2x at t = 18: fails at all
    assert across_readings(at({"a": frame(*[0.5] * 8, 1.08, 0.5)})) is None       # 1.08x at t = 16: turns ([0.1, *] hold)
    assert across_readings([True, True]) is True and across_readings([False]) is False
    assert across_readings({"a": True, "b": False}) is None
    with pytest.raises(ValueError, match="verdicts"):
        across_readings([])
    with pytest.raises(ValueError, match="verdicts"):
        across_readings([False, None])                  # no reading is undecided: every one is a boolean
    with pytest.raises(ValueError, match="verdicts"):
        across_readings([True, "fails"])


def test_a_deterministic_loss_just_above_the_cut_fails_its_reading():
    """B1.1: the ratios are deterministic (no draw behind them), so a loss 0.05 % above a reading's cut is a loss:
    the reading fails, and a cell failing at every reading fails (the paper run's 1.10055x at t = 1024, s = 2 uniform)."""
    from inferopt.experiment.herding_claims import across_readings, best_from

    frame = lambda *r: pd.DataFrame({"best other": "h", "ratio": list(r)}, index=range(8, 8 + len(r)))
    edge = {"a": frame(1.31, *[0.5] * 8, 1.10055)}     # 1.31x at t = 8; from t = 16 one loss, 0.05 % above the cut 1.1
    assert best_from(edge, 0.1, 8) is False and best_from(edge, 1e-9, 16) is False
    assert best_from(edge, 0.1, 16) is False                                         # just above the cut: fails
    assert best_from({"a": frame(1.31, *[0.5] * 8, 1.09995)}, 0.1, 16) is True       # just below it: a tie, holds
    assert across_readings({r: best_from(edge, *r) for r in B11_READINGS}) is False  # fails at every reading


def test_reading_losses_counts_the_lost_sizes_and_the_margin_above_the_cut():
    from inferopt.experiment.herding_claims import reading_losses

    a = pd.DataFrame({"best other": ["s", "h", "h", "h"], "ratio": [1.31, 0.5, 1.05, 1.10055]}, index=[8, 16, 512, 1024])
    b = pd.DataFrame({"best other": "h", "ratio": [0.5, 1.0]}, index=[8, 16])
    strict = reading_losses({"a": a, "b": b}, 1e-9, 8)
    assert list(strict.index) == ["a"] and strict.loc["a", "lost"] == 3 and strict.loc["a", "t"] == 8
    assert strict.loc["a", "ratio"] == pytest.approx(1.31) and strict.loc["a", "best other"] == "s"
    loose = reading_losses({"a": a, "b": b}, 0.1, 16)           # one loss left, 0.05 % above the cut
    assert loose.loc["a", "lost"] == 1 and loose.loc["a", "t"] == 1024
    assert loose.loc["a", "above cut"] == pytest.approx(1.10055 / 1.1 - 1)
    assert reading_losses({"b": b}, 1e-9, 8).empty
    with pytest.raises(TypeError, match="outcomes"):
        reading_losses({}, 0.1, 8)
    with pytest.raises(ValueError, match="ratio"):
        reading_losses({"a": a[["ratio"]]}, 0.1, 8)
    with pytest.raises(ValueError, match="first"):
        reading_losses({"a": a}, 0.1, 0)


def test_the_o1t_check_has_two_parts_faster_than_iid_and_at_most_one_over_t_within_a_tolerance():
    from inferopt.experiment.herding_claims import at_most_rate, faster_than_iid, norm_slopes

    t = np.arange(8, 200)
    w = pd.DataFrame({"h": 1.0 / t**2, "r": 1.0 / t, "slow": 1.0 / t**1.84}, index=t)   # squared errors
    s = norm_slopes(w, ["h", "r", "slow"], list(t))
    assert s["h"] == pytest.approx(-1.0) and s["r"] == pytest.approx(-0.5) and s["slow"] == pytest.approx(-0.92)
    assert faster_than_iid(s["h"], s["r"]) and faster_than_iid(s["slow"], s["r"])   # both beat i.i.d.'s O(1/sqrt t)
    assert not faster_than_iid(-1.0, -1.2)                     # i.i.d. fitted steeper: not faster
    assert at_most_rate(s["h"], 0.0)                           # O(1/t) exactly
    assert not at_most_rate(s["slow"], 0.05)                   # t^-0.92: not O(1/t) within 0.05 ...
    assert at_most_rate(s["slow"], 0.1)                        # ... only within 0.1
    assert at_most_rate(-0.4, 0.2, rate=-0.5) and not at_most_rate(-0.2, 0.2, rate=-0.5)
    with pytest.raises(ValueError, match="tol"):
        at_most_rate(-1.0, -0.1)
    with pytest.raises(ValueError, match="slope"):
        faster_than_iid(float("nan"), -0.5)
    with pytest.raises(ValueError, match="iid_slope"):
        faster_than_iid(-1.0, float("inf"))


def test_b13_readings_cut_1_1_and_1_5_at_a_share_of_0_9_or_1():
    """B1.3's readings (the notebook's): a gain counts above a cut of 1.1 or 1.5 (1.05, 0.02 decade, is looser than what
    Fig. 3 can show), at a share of 0.9 or 1 of the -proj sizes; the nets t = 2^k of herding and Sobol left out."""
    from inferopt.experiment.herding_claims import always_readings, gain_share, proj_gains

    sizes = [4, 5, 8, 12, 19, 30, 47, 73, 115, 180, 282, 442, 692, 1024]
    t = np.arange(1, 1025)
    gain = pd.Series(2.0, index=t)
    gain[[8, 1024]] = 1.07                   # the nets: evenly spaced (in quantile) points, uniform weights nearly optimal
    gain[47] = 1.3                           # one size between 1.1 and 1.5
    w = pd.DataFrame({"h": gain.to_numpy(), "h-proj": 1.0}, index=t)
    kept = proj_gains(w, "h", sizes, excused=dyadic(sizes, t_min=1))
    assert list(kept.index) == [5, 12, 19, 30, 47, 73, 115, 180, 282, 442, 692]   # 4, 8, 1024 left out
    read = lambda g, cut, share: always_readings(pd.Series(np.where(g.to_numpy() > cut, "win", "loss"), index=g.index),
                                                 shares=(share,), firsts=())[f"share>={share:g}"]
    assert read(kept, 1.1, 0.9) and read(kept, 1.1, 1.0)            # every kept gain above 1.1
    assert read(kept, 1.5, 0.9) and not read(kept, 1.5, 1.0)        # 10 of 11 above 1.5
    every = proj_gains(w, "h", sizes)                                # the nets kept: 1.07 is no gain at the cut 1.1
    assert gain_share(every, 1.1) == pytest.approx(12 / 14) and not read(every, 1.1, 0.9)


def test_line_width_tie_is_the_figure_geometry_and_a_per_panel_tie_decides_b11():
    """B1.1 at Fig. 3's resolution: one line's width (points) over the axes' height (inches) times the decades of the
    log axis, as a ratio; a panel's own tie excuses a loss narrower than its line and not a wider one."""
    from inferopt.experiment.herding_claims import best_from, line_width_tie, reading_losses

    assert line_width_tie(7.2, 1.0, (1e-3, 1e7)) == pytest.approx(10 ** 1.0 - 1)     # 0.1 in on a 1 in axis of 10 decades
    assert line_width_tie(1.4, 3.0, (1e-8, 1.0)) == pytest.approx(10 ** (1.4 / 72 / 3 * 8) - 1)
    assert line_width_tie(0.0, 3.0, (1e-8, 1.0)) == 0.0
    for bad in ((1.0, 0.5), (0.0, 1.0), (1.0,), (1e-3, 1.0, 10.0)):
        with pytest.raises(ValueError, match="ylim"):
            line_width_tie(1.4, 3.0, bad)
    with pytest.raises(ValueError, match="axes_height"):
        line_width_tie(1.4, 0.0, (1e-3, 1.0))
    frame = lambda *r: pd.DataFrame({"best other": "h", "ratio": list(r)}, index=range(8, 8 + len(r)))
    st = {"a": frame(1.31, *[0.5] * 8, 1.1006), "b": frame(*[0.5] * 9, 1.005)}     # the paper run's losses, in shape
    assert best_from(st, {"a": 0.205, "b": 0.103}, 16) is True     # below each panel's line: ties, holds
    assert best_from(st, {"a": 0.205, "b": 0.103}, 8) is False     # 1.31x at t = 8 is wider than a line: fails
    assert best_from(st, {"a": 0.09, "b": 0.103}, 16) is False     # a narrower line on panel a: 1.1006x seen, fails
    lost = reading_losses(st, {"a": 0.205, "b": 0.103}, 8)
    assert list(lost.index) == ["a"] and lost.loc["a", "above cut"] == pytest.approx(1.31 / 1.205 - 1)
    with pytest.raises(ValueError, match="tie_rtol"):
        best_from(st, {"a": 0.2}, 8)                               # a panel without its tolerance


def test_fixed_ylim_spans_the_errors_above_the_rounding_level():
    """B1.1's y-range: the errors' own span (no autoscale margin), the round-off below ROUNDING_LEVEL x the largest left
    out: a line's width read on it does not move with a plotting library's choices."""
    from inferopt.experiment.herding_claims import fixed_ylim, line_width_tie
    e = np.array([[1e-2, 1e-5], [1e-9, 1e-20]])                # 1e-20: round-off below 1e-13 x 1e-2
    assert fixed_ylim(e) == (1e-9, 1e-2)
    assert line_width_tie(1.4, 3.0, fixed_ylim(e)) == pytest.approx(10 ** (1.4 / 72 / 3 * 7) - 1)
    with pytest.raises(ValueError):
        fixed_ylim(np.array([0.0, 0.0]))
    with pytest.raises(ValueError):
        fixed_ylim(np.array([1e-3, 1e-3]))


def test_dropped_losses_names_what_a_holding_reading_loosens():
    """B1.1: a reading that holds is reported with the losses it drops (a first size, a tie, or both); a strict
    reading drops none."""
    from inferopt.experiment.herding_claims import best_from, dropped_losses
    idx = [8, 12, 16, 29, 1024]
    a = pd.DataFrame({"ratio": [1.31, 1.267, 0.9, 1.005, 0.8], "best other": ["sobol-proj", "h-proj", "h", "h-proj", "h"]},
                     index=idx)
    b = pd.DataFrame({"ratio": [0.9, 0.9, 0.9, 0.9, 1.1006], "best other": ["h"] * 5}, index=idx)
    st = {"a": a, "b": b}
    assert dropped_losses(st, 1e-9, 8).empty                       # the literal reading drops nothing
    assert best_from(st, {"a": 0.103, "b": 0.205}, 16)             # holds ...
    d = dropped_losses(st, {"a": 0.103, "b": 0.205}, 16)           # ... by dropping the two visible early losses
    assert d[["panel", "t", "dropped by"]].values.tolist() == [["a", 8, "first size"], ["a", 12, "first size"],
                                                                 ["a", 29, "tie"], ["b", 1024, "tie"]]
    d8 = dropped_losses(st, {"a": 0.5, "b": 0.205}, 16)
    assert d8.set_index("t").loc[8, "dropped by"] == "both"
    assert not best_from(st, {"a": 0.103, "b": 0.205}, 8)          # the tie alone keeps the early losses: fails
    with pytest.raises(TypeError):
        dropped_losses({}, 0.1, 8)
    with pytest.raises(ValueError):
        dropped_losses({"a": a[["ratio"]]}, 0.1, 8)


def test_share_reading_forgives_only_losses_narrower_than_a_line_and_lists_them():
    """B1.1's "nine sizes in ten": the share forgives a loss narrower than the cap (one line's width), never a wider
    one; dropped_losses lists every loss it forgives, with its size."""
    from inferopt.experiment.herding_claims import dropped_losses, share_holds
    t = np.arange(8, 28)
    narrow = pd.DataFrame({"ratio": [0.9] * 19 + [1.05], "best other": ["h"] * 20}, index=t)
    wide = pd.DataFrame({"ratio": [0.9] * 5 + [1.55] + [0.9] * 14, "best other": ["h"] * 20}, index=t)
    assert share_holds(narrow.ratio, 1e-9, 0.9, 0.09)               # 1 loss in 20, 0.05 wide: within a line of 0.09
    assert not share_holds(wide.ratio, 1e-9, 0.9, 0.09)             # 1 loss in 20, but 1.55x: wider than a line
    assert share_holds(wide.ratio, 1e-9, 0.9, 0.6)                  # a cap that wide would forgive it
    assert not share_holds(narrow.ratio, 1e-9, 1.0, 0.09)           # every size: the narrow loss counts
    d = dropped_losses({"n": narrow, "w": wide}, 1e-9, 8, always=0.9, cap={"n": 0.09, "w": 0.09})
    assert d[["panel", "t", "dropped by"]].values.tolist() == [["n", 27, "share"]]   # the wide loss is not forgiven
    assert dropped_losses({"n": narrow}, 1e-9, 8).empty                               # always = 1 forgives nothing
    with pytest.raises(ValueError):
        dropped_losses({"n": narrow}, 1e-9, 8, always=0.9)                            # a share needs its cap


def test_lattice_sizes_excuses_only_equal_evenly_spaced_sets():
    """B1.3: a size is left out only where herding's first t points are Sobol's and evenly spaced (the gain 1 by
    construction), decided on the point sets: a net of a non-uniform density (not a lattice) stays in."""
    from scipy.stats import qmc

    from inferopt.experiment.herding_claims import lattice_sizes
    vdc = qmc.Sobol(d=1, scramble=False).random(16)[:, 0]
    assert lattice_sizes(vdc, vdc, [2, 3, 4, 6, 8, 16]) == [2, 4, 8, 16]
    warped = vdc ** 1.5                                            # Sobol through an inverse CDF: equal, not a lattice
    assert lattice_sizes(warped, warped, [4, 8, 16]) == []
    other = vdc.copy()
    other[[6, 7]] = other[[7, 6]]                                  # herding's order differs inside the net of 8
    assert lattice_sizes(vdc, other, [4, 7, 8]) == [4, 8]
    with pytest.raises(ValueError):
        lattice_sizes(vdc, vdc, [32])


def test_same_rate_holds_fails_and_is_outside_the_regime_where_sobol_misses_the_rate():
    from inferopt.experiment.herding_claims import same_rate
    assert same_rate(-4.0, -4.0, -4.0, 0.3) is True            # the dyadic grid: herding's points are Sobol's
    assert same_rate(-2.2, -4.0, -4.0, 0.3) is False           # Sobol at -4, herding held off it: fails
    assert same_rate(-3.75, -4.25, -4.0, 0.3) is False         # both near -4 but 0.5 apart: not the same rate
    assert same_rate(-2.23, -2.37, -4.0, 0.3) is None          # the grid's floor keeps Sobol off -4: outside the regime
    assert same_rate(-2.23, -2.37, -4.0, 2.0) is True          # a tolerance wide enough reads it as the rate
    with pytest.raises(ValueError, match="tol"):
        same_rate(-4.0, -4.0, -4.0, -0.1)


def test_tracked_nets_stop_at_the_first_departure_from_the_reference():
    from inferopt.experiment.herding_claims import tracked_nets
    sobol = T ** -4.0
    assert tracked_nets(table(h=sobol, s=sobol), "h", "s", 0.1) == [8, 16, 32, 64, 128, 256]     # never departs
    apart = np.where(T >= 64, 9.4, 1.0) * sobol                                                   # departs at 64 for good
    assert tracked_nets(table(h=apart, s=sobol), "h", "s", 0.1) == [8, 16, 32]
    assert tracked_nets(table(h=apart, s=sobol), "h", "s", 10.0) == [8, 16, 32, 64, 128, 256]    # a looser tolerance
    back = np.where(T == 16, 0.5, 1.0) * sobol                                                    # better is a departure too;
    assert tracked_nets(table(h=back, s=sobol), "h", "s", 0.1) == [8]                             # the run stops at it
    assert tracked_nets(table(h=np.where(T == 8, 2.0, 1.0) * sobol, s=sobol), "h", "s", 0.1) == []
    with pytest.raises(ValueError, match="tol"):
        tracked_nets(table(h=sobol, s=sobol), "h", "s", -0.1)
    with pytest.raises(ValueError, match="positive"):
        tracked_nets(table(h=sobol, s=0 * sobol), "h", "s", 0.1)


def test_departure_recedes_holds_where_refining_moves_it_out_and_fails_where_it_stays():
    from inferopt.experiment.herding_claims import departure_recedes
    assert departure_recedes({1023: 16, 4095: 32, 16383: 32, 65535: 64}, 256) is True     # later on finer grids
    assert departure_recedes({1023: 256, 65535: 256}, 256) is True                         # never departs on any grid
    assert departure_recedes({1023: 32, 4095: 32, 65535: 32}, 256) is False                # stays at one t: herding's own
    assert departure_recedes({1023: 64, 4095: 16, 65535: 128}, 256) is False               # falls on a finer grid
    assert departure_recedes({1023: 0, 65535: 8}, 256) is True
    with pytest.raises(ValueError, match="at least two"):
        departure_recedes({1023: 16}, 256)
    with pytest.raises(ValueError, match="exceeds"):
        departure_recedes({1023: 16, 4095: 512}, 256)


def test_beats_for_order_reads_the_panels_of_one_sobolev_order():
    from inferopt.experiment.herding_claims import beats_for_order
    beats = {"s=1,random": [], "s=1,uniform": [], "s=2,uniform": [5, 19]}
    orders = {"s=1,random": 1, "s=1,uniform": 1, "s=2,uniform": 2}
    assert beats_for_order(beats, orders, 2) is True
    assert beats_for_order(beats, orders, 1) is False
    assert beats_for_order(dict(beats, **{"s=1,uniform": [8]}), orders, 1) is True   # some panel of the order suffices
    with pytest.raises(ValueError, match="order 3"):
        beats_for_order(beats, orders, 3)
    with pytest.raises(ValueError, match="orders"):
        beats_for_order(beats, {"s=1,random": 1}, 1)




# --- B5's map and its claims on one run ----------------------------------------------------------

from inferopt.experiment.herding_claims import map_holds  # noqa: E402
from inferopt.experiment.verdict_map import cell, map_diagnosis  # noqa: E402




def test_map_holds_moved_to_verdict_map_is_the_same_function():
    """map_holds moved verbatim from herding_claims to verdict_map (C1.2's map reads it there without paper B's modules);
    herding_claims imports it, so B's notebooks and claim modules call the very same function."""
    from inferopt.experiment import herding_claims, verdict_map
    assert herding_claims.map_holds is verdict_map.map_holds is map_holds


def test_map_holds_every_cell():
    assert map_holds(["holds", "holds", "not measured"]) is True
    assert map_holds(["holds", "fails", "holds"]) is False
    assert map_holds(["holds", "inconclusive"]) is None
    assert map_holds(["not measured", "not measured"]) is None
    cells = [cell({"d": 6}, True), cell({"d": 4}, False)]
    assert map_holds(cells) is False
    assert map_holds(cells[:1]) is True
    with pytest.raises(ValueError, match="verdicts"):
        map_holds([])
    with pytest.raises(ValueError, match="verdicts"):
        map_holds(["maybe"])


# --- B4's and B5's readings of the slope cuts, B4.7 / B5.4, B3.2's turning readings, B4.8 ---------------------------

from inferopt.experiment.herding_claims import below_share, readings_turn  # noqa: E402


def test_slope_cuts_are_readings_of_converges_and_stalls():
    # B4.1's draw 3 at the paper scale: slope -0.236 converges at the cut -0.2, not at -0.3
    assert converges(0.004, -0.236, 0.02) and converges(0.004, -0.236, 0.02, slope_cut=-0.1)
    assert not converges(0.004, -0.236, 0.02, slope_cut=-0.3)
    # B4.4's random draws at 10^4 iterations: slope -0.145 stalls at -0.2, not at -0.1
    assert stalls(0.1, -0.145, 0.02) and not stalls(0.1, -0.145, 0.02, slope_cut=-0.1)
    with pytest.raises(ValueError, match="slope_cut"):
        stalls(0.1, -0.145, 0.02, slope_cut=0.1)


def test_below_share_reads_errors_below_the_floor_as_zero():
    ls, herding = np.array([1e-3, 1e-11, 1e-11, 2e-5]), np.array([1e-4, 3e-5, 1e-16, 1e-5])
    assert below_share(ls, herding, floor=1e-9) == pytest.approx(0.25)   # a tie at 0 (both below the floor) is no win
    assert below_share(ls, herding, floor=0.0) == pytest.approx(0.25)    # without a floor herding's 1e-16 beats 1e-11
    assert below_share(herding, ls, floor=1e-9) == pytest.approx(0.5)
    assert below_share(np.full(3, 1e-12), np.full(3, 1e-3), floor=1e-9) == 1.0   # holds: line search always below
    assert below_share(np.full(3, 1e-3), np.full(3, 1e-5), floor=1e-9) == 0.0    # fails: B4's random draw 1
    with pytest.raises(ValueError, match="same sizes"):
        below_share(ls, herding[:2], floor=1e-9)
    with pytest.raises(ValueError, match="non-negative"):
        below_share(-ls, herding, floor=1e-9)


def test_readings_turn_needs_one_holding_and_one_failing_reading():
    assert readings_turn([{"value": 1, "verdict": "holds"}, {"value": 2, "verdict": "fails"}])
    assert not readings_turn(["holds", "holds", "not measured"])
    assert not readings_turn(["fails", "inconclusive", "fails"])
    with pytest.raises(ValueError, match="verdicts"):
        readings_turn([])


# B3.2 / B3.4 / B5.5 / B5.6 (helper 163): the figure's cell decides, the map diagnoses; within-family correlation;
# the "similar results" claim over the map; a run that stops early read at later sizes
from inferopt.experiment.claims import Unearned  # noqa: E402
from inferopt.experiment.herding_claims import figure_cell_diagnosis  # noqa: E402
from inferopt.experiment.support import deterministic  # noqa: E402
from inferopt.experiment.verdict_map import cell, map_diagnosis  # noqa: E402




ONE = deterministic("one run")


def test_figure_cell_diagnosis_rescue_turn_or_paper():
    fails = [cell({"family": i}, False, support=ONE) for i in range(3)]
    rescue = cell({"family": 9}, True, support=ONE, readings=["holds", "holds"])
    turning = cell({"family": 9}, True, support=ONE, readings=["holds", "fails"])
    assert figure_cell_diagnosis(map_diagnosis(fails + [rescue], "ev."), "ev.", "x")["kind"] == "setting"
    found = figure_cell_diagnosis(map_diagnosis(fails + [turning], "ev."), "ev.", "a legible iteration count")
    assert isinstance(found, Unearned) and "a legible iteration count" in found.reason and "family 9" in found.reason
    paper = map_diagnosis(fails, "ev.", no_authors_construction="none published")
    assert figure_cell_diagnosis(paper, "ev.", "x")["kind"] == "paper"
    plain = map_diagnosis(fails + [cell({"family": 8}, None)], "ev.")   # unearned, nothing turning: kept as it is
    assert figure_cell_diagnosis(plain, "ev.", "x") is plain
    with pytest.raises(ValueError):
        figure_cell_diagnosis(paper, "ev.", " ")
    with pytest.raises(TypeError):
        figure_cell_diagnosis("setting", "ev.", "x")






from inferopt.experiment.herding_claims import gain_share, median_gain_above, reading_over_map  # noqa: E402


def test_reading_over_map_fails_where_any_cell_fails_and_holds_only_in_every_cell():
    ours = {"setting": {"grid": 1}, "readings": {"[a line, 32]": "holds", "[1e-09, 8]": "fails"}}
    other = {"setting": {"grid": 2}, "readings": {"[a line, 32]": "holds", "[1e-09, 8]": "fails"}}
    authors = {"setting": {"construction": "authors"}, "readings": {"[a line, 32]": "fails", "[1e-09, 8]": "fails"}}
    assert reading_over_map([ours, other], "[a line, 32]") is True          # holds in every cell
    assert reading_over_map([ours, other, authors], "[a line, 32]") is False  # the default cell alone does not decide
    assert reading_over_map([ours, authors], "[1e-09, 8]") is False
    with pytest.raises(ValueError):
        reading_over_map([ours], "[0.1, 8]")
    with pytest.raises(ValueError):
        reading_over_map([], "[a line, 32]")


def test_median_gain_above_reads_the_curve_not_every_size():
    gains = [1.067, 1.07, 2.5, 3.0, 4.0]       # two structural sizes near 1, the curve re-weighted well
    assert median_gain_above(gains, 1.5)
    assert not gain_share(gains, 1.5) == 1.0   # the per-size reading ("always") fails on the same gains
    assert not median_gain_above([1.067, 1.07, 1.2, 3.0], 1.5)
    with pytest.raises(ValueError):
        median_gain_above([], 1.5)


from inferopt.experiment.herding_claims import tracks_to_end  # noqa: E402


def test_tracks_to_end_fails_on_a_departure_at_the_last_net_only():
    t = [8, 12, 16, 32, 64]
    sobol = [1e-6, 5e-7, 1e-7, 1e-8, 1e-9]
    table = pd.DataFrame({"h": sobol, "sobol": sobol}, index=t)
    assert tracks_to_end(table, "h", "sobol", 0.1)
    late = table.assign(h=[1e-6, 9e-7, 1e-7, 1e-8, 3e-9])       # departs at the last net, t = 64
    assert not tracks_to_end(late, "h", "sobol", 0.1)
    assert tracks_to_end(late, "h", "sobol", 3.0)
