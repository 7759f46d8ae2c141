"""The figures' tables (inferopt.experiment.herding) against direct computations; the LMO's cost
structure (one kernel column per step, never a Gram matrix); line search against brute force."""

import numpy as np
import pytest

import pandas as pd

from inferopt.experiment.herding import (
    MEAN_KINDS,
    at_sizes,
    bit_means,
    error_table,
    exp_rate,
    finite_sample_curves,
    floored_summary,
    log_slope,
    moment_error_floor,
    power_fit,
    ROUNDING_LEVEL,
    ratio_over_sizes,
    slopes_over_sizes,
    sobolev_curves,
    state_curves,
)
from inferopt.herding import (FeatureTarget, SobolevTarget, TrigDensity, all_states, exponential_family, herd,
                              independent_maxent, mmd2, pairwise_features)

GRID = np.arange(500) / 500


class CountingTarget(SobolevTarget):
    """Records the shape of every kernel evaluation."""

    def __init__(self, *args):
        super().__init__(*args)
        self.calls = []

    def kernel(self, x, y):
        self.calls.append((len(np.atleast_1d(x)), len(np.atleast_1d(y))))
        return super().kernel(x, y)


@pytest.mark.parametrize("method", ["1/(t+1)", "line_search"])
def test_lmo_uses_one_kernel_column_per_step(method):
    tgt = CountingTarget(1, TrigDensity.random(np.random.default_rng(0)))
    T = 60
    herd(tgt, GRID, T, method)
    assert all(shape == (len(GRID), 1) for shape in tgt.calls)       # never an N x N (or N x k) block
    assert len(tgt.calls) <= T                                        # at most one new column per point


def test_line_search_steps_are_optimal_by_brute_force():
    tgt = SobolevTarget(2, TrigDensity.random(np.random.default_rng(1)))
    res = herd(tgt, GRID, 12, "line_search")
    gam = np.linspace(0.0, 1.0, 20_001)
    pts, w = [GRID[res.order[0]]], np.array([1.0])
    for t, j in enumerate(res.order[1:], start=1):
        cand = np.append(pts, GRID[j])
        errs = [mmd2(tgt, cand, np.append((1 - g) * w, g)) for g in gam[::200]]
        fine = gam[max(np.argmin(errs) * 200 - 200, 0): np.argmin(errs) * 200 + 201]
        best = min(mmd2(tgt, cand, np.append((1 - g) * w, g)) for g in fine)
        assert res.objective[t] <= best + 1e-15 and res.objective[t] == pytest.approx(best, rel=1e-6, abs=1e-16)
        g = res.info["gamma"][t - 1]
        pts, w = list(cand), np.append((1 - g) * w, g)


def test_snapshots_are_the_weights_along_the_run():
    S = all_states(3)
    m = np.array([0.3, -0.2, 0.5])
    res = herd(FeatureTarget(m), S, 40, "1/(t+1)", snapshots=[1, 10, 40])
    assert sorted(res.snapshots) == [1, 10, 40]
    for t, p in res.snapshots.items():   # herding: uniform weights on the first t points
        np.testing.assert_allclose(p, np.bincount(res.order[:t], minlength=8) / t, atol=1e-14)


def test_sobolev_curves_table():
    dens = TrigDensity.random(np.random.default_rng(2))
    tgt = SobolevTarget(1, dens)
    df = sobolev_curves(tgt, dens, GRID, 30, [5, 30], 3, np.random.default_rng(3))
    assert set(df.method) == {"cg-1/(t+1)", "cg-l.search", "min-norm-point", "random", "sobol",
                              "cg-1/(t+1)-proj", "cg-l.search-proj", "random-proj", "sobol-proj"}
    assert df[df.method == "random"].rep.nunique() == 3
    herding = df[df.method == "cg-1/(t+1)"].error.to_numpy()
    proj = df[df.method == "cg-1/(t+1)-proj"].set_index("t").error
    assert proj[30] <= herding[29] and proj[5] <= herding[4]        # re-weighting never hurts
    rand = df[(df.method == "random") & (df.rep == 0)].error.to_numpy()
    assert np.all(rand > 0) and len(rand) == 30


def test_finite_sample_curves_end_on_the_empirical_mean():
    dens = TrigDensity.random(np.random.default_rng(4))
    tgt = SobolevTarget(1, dens)
    sample = dens.sample(100, np.random.default_rng(5))
    df = finite_sample_curves(tgt, sample, 150)
    floor = mmd2(tgt, sample)
    last = df.groupby("method").tail(1).set_index("method")
    assert last.loc["min-norm-point", "train"] < 1e-10 * floor
    np.testing.assert_allclose(last.loc["min-norm-point", "test"], floor, rtol=1e-6)


def test_bit_means():
    rng = np.random.default_rng(6)
    for kind in MEAN_KINDS:
        m = bit_means(kind, 50, rng, denominator=7)
        assert m.shape == (50,) and np.all(np.abs(m) < 1)
    q = bit_means("rational", 50, rng, denominator=7) * 7
    np.testing.assert_allclose(q, np.round(q), atol=1e-12)
    r = bit_means("rational ratios", 50, rng, denominator=7) * 7 * np.sqrt(2)
    np.testing.assert_allclose(r, np.round(r), atol=1e-12)
    with pytest.raises(ValueError, match="kind must be one of"):
        bit_means("irrational", 3, rng)


def test_state_curves_against_direct_computation():
    S = all_states(3)
    m = np.array([0.4, -0.1, 0.25])
    p = independent_maxent(S, m)
    df = state_curves(S, m, p, 50, "1/(t+1)", [5, 50])
    res = herd(FeatureTarget(m), S, 50, "1/(t+1)")
    q = np.bincount(res.order, minlength=8) / 50
    row = df.set_index("t").loc[50]
    assert row.dist == pytest.approx(np.linalg.norm(q - p)) and row.mean_error == pytest.approx(np.linalg.norm(S.T @ q - m))
    with pytest.raises(ValueError, match="p_star must have one entry per state"):
        state_curves(S, m, p[:3], 10, "1/(t+1)", [5])


def test_line_search_stalls_below_the_moment_error_floor_and_herding_stays_above_it():
    """B5's setting (pairwise features, d = 5): line search converges linearly onto the moments until the LMO's ties
    stop it, below moment_error_floor (at a level the BLAS kernel sets, issue 40); herding's O(1/t) error stays far
    above the floor, which at the least sizes of both runs is far below their errors."""
    S = all_states(5)
    F = pairwise_features(S)
    p = exponential_family(F, np.r_[np.zeros(5), np.full(F.shape[1] - 5, 0.2)])
    mu = F.T @ p
    floor = moment_error_floor(F, mu)
    assert 1e-10 < floor < 1e-8                      # 40 TIE_RTOL max_j |<Phi_j, mu>|, max_j |<Phi_j, mu>| = 3.5
    ls = state_curves(F, mu, p, 2000, "line_search", [10, 100, 1000, 2000]).set_index("t").mean_error
    fw = state_curves(F, mu, p, 2000, "1/(t+1)", [10, 2000]).set_index("t").mean_error
    assert ls[2000] < floor < 1e-3 * min(ls[100], fw[2000]) and ls[1000] == ls[2000]   # the stall
    with pytest.raises(ValueError, match="mu must have length"):
        moment_error_floor(F, mu[:3])


def test_floored_summary_reads_each_run_at_its_floor_in_one_table():
    """B5's run pairs (session 38: one helper for the four tables of its claims cell): one row per method, each run's
    moment error read at 0 at or below the floor before it is summarised, rounding read as 0 and NaN (nothing to fit)
    kept; errors name the bad argument."""
    S = all_states(4)
    F = pairwise_features(S)
    p = exponential_family(F, np.r_[np.zeros(4), np.full(F.shape[1] - 4, 0.3)])
    mu = F.T @ p
    floor = moment_error_floor(F, mu)
    runs = {m: state_curves(F, mu, p, 400, m, [10, 100, 400]) for m in ("1/(t+1)", "line_search")}
    seen = {}

    def summarise(g, fl):
        seen[len(seen)] = g.mean_error.to_numpy()
        pos = g[g.mean_error > 0]
        return pd.Series({"final": g.mean_error.iloc[-1], "slope": log_slope(pos.t, pos.mean_error) if len(pos) >= 2 else np.nan,
                          "tiny": 1e-13, "floor": fl})
    table = floored_summary(runs, floor, summarise)
    assert list(table.index) == list(runs) and list(table.columns) == ["final", "slope", "tiny", "floor"]
    raw_ls = runs["line_search"].mean_error.to_numpy()
    assert raw_ls[-1] <= floor and table.loc["line_search", "final"] == 0.0          # line search's stall read as 0
    assert np.isnan(table.loc["line_search", "slope"]) or table.loc["line_search", "slope"] < 0
    assert table.loc["1/(t+1)", "final"] == runs["1/(t+1)"].mean_error.iloc[-1] > floor   # herding: measured, kept
    assert (table["tiny"] == 0.0).all() and (table["floor"] == floor).all()           # rounding -> 0; the floor passed on
    assert (seen[1] == np.where(raw_ls > floor, raw_ls, 0.0)).all()                   # summarise sees the floored run
    assert runs["line_search"].mean_error.to_numpy()[-1] == raw_ls[-1]                # the runs are not changed
    with pytest.raises(ValueError, match="runs"):
        floored_summary({}, floor, summarise)
    with pytest.raises(ValueError, match="runs\\['x'\\]"):
        floored_summary({"x": runs["line_search"].drop(columns="mean_error")}, floor, summarise)
    with pytest.raises(ValueError, match="floor"):
        floored_summary(runs, -1.0, summarise)
    with pytest.raises(TypeError, match="summarise"):
        floored_summary(runs, floor, "summarise")
    with pytest.raises(TypeError, match="summarise"):
        floored_summary(runs, floor, lambda g, fl: pd.Series({"a": 1.0 + 1j}))
    with pytest.raises(ValueError, match="summarise"):
        floored_summary(runs, floor, lambda g, fl: pd.Series({"a": np.nan}))


def test_herding_record_reads_both_axes_at_every_iteration_exactly():
    """The running mean of the states picked is F' p_t at every t, and the incremental distance is ||p_t - p*|| (both
    checked against the snapshots and against counts recomputed by brute force); an exact return to rational means reads
    at the means' rounding, far below the objective's square root (about 1e-8)."""
    from inferopt.experiment.herding import herding_record
    S = all_states(3)
    m = np.array([0.4, -0.2, 0.6])                      # rational: herding comes back onto m exactly
    p = independent_maxent(S, m)
    table, rec = herding_record(S, m, p, 60, [7, 20, 60])
    assert list(rec.t) == list(range(1, 61))
    at = rec.set_index("t").loc[table.t]
    assert np.allclose(at.mean_error, table.mean_error, rtol=1e-10, atol=1e-14)
    assert np.allclose(at.dist, table.dist, rtol=1e-12, atol=1e-14)
    order = herd(FeatureTarget(m), S, 60, "1/(t+1)").order
    brute = [np.linalg.norm(np.bincount(order[:t], minlength=8) / t - p) for t in range(1, 61)]
    assert np.allclose(rec.dist, brute, rtol=1e-12, atol=1e-14)
    obj = np.sqrt(np.maximum(herd(FeatureTarget(m), S, 60, "1/(t+1)").objective, 0.0))
    assert np.allclose(rec.mean_error, obj, atol=1e-7)
    returns = rec.mean_error < 1e-12
    assert returns.sum() >= 3 and (rec.mean_error[returns] < 1e-14).all() and (rec.mean_error[~returns] > 1e-3).all()


def test_fitted_rates():
    t = np.arange(1, 200)
    assert log_slope(t, 3.0 * t ** -1.5) == pytest.approx(-1.5)
    c, r2 = exp_rate(t, 2.0 * np.exp(-0.05 * t))
    assert c == pytest.approx(0.05) and r2 == pytest.approx(1.0)
    a, r2 = power_fit(t, 3.0 * t ** -1.5 * (1 + 0.1 * np.sin(t)))
    assert a == pytest.approx(-1.5, abs=0.05) and 0.9 < r2 < 1.0
    with pytest.raises(ValueError, match="at least two positive errors"):
        log_slope([1, 2], [0.0, 0.0])


def test_support99_counts_the_states_holding_99_percent():
    from inferopt.experiment.herding import states_holding
    assert states_holding(np.full(4, 0.25), 0.99) == 4
    assert states_holding(np.array([0.005, 0.9, 0.004, 0.091]), 0.99) == 2
    assert states_holding(np.array([0.0, 1.0]), 0.99) == 1


def _dyadic_curve(t):
    """An error like a net's: t^-4 at t = 2^k, t^-2 elsewhere (Sobol's points, or herding's on a dyadic grid)."""
    t = np.asarray(t, dtype=float)
    return np.where(np.log2(t) % 1 == 0, t ** -4.0, t ** -2.0)


def test_error_table_reads_every_method_at_the_same_sizes():
    t = np.arange(1, 41)
    rows = [pd.DataFrame({"method": "herding", "t": t, "error": 1.0 / t, "rep": 0}),
            pd.DataFrame({"method": "min-norm-point", "t": t[:10], "error": 0.5 / t[:10], "rep": 0}),   # stops at t = 10
            pd.DataFrame({"method": "min-norm-point-proj", "t": [5, 20], "error": [0.01, 0.001], "rep": 0})]
    rows += [pd.DataFrame({"method": "random", "t": t, "error": (1.0 + r) / t, "rep": r}) for r in range(3)]
    w = error_table(pd.concat(rows, ignore_index=True))
    np.testing.assert_allclose(w["random"], 2.0 / t)                          # the mean over the draws, at each t
    assert (w.loc[11:, "min-norm-point"] == 0.05).all()                      # carried past its termination only
    assert w["min-norm-point-proj"].notna().sum() == 2                       # never carried to sizes it was not read at
    with pytest.raises(ValueError, match="'min-norm-point-proj' has no error at sizes \\[6"):
        at_sizes(w, ["herding", "min-norm-point-proj"], [5, 6, 20])
    with pytest.raises(ValueError, match="not in the table"):
        at_sizes(w, ["herding"], [50])


def test_slopes_compare_two_methods_on_the_same_sizes():
    """Sobol read at t = 2^k against herding read at every t differ by 2 in slope though the curves are one and the
    same: fitted on the same sizes, both give -4 at t = 2^k and the same slope over every t."""
    t = np.arange(1, 1025)
    w = pd.DataFrame({"sobol": _dyadic_curve(t), "herding": _dyadic_curve(t)}, index=t)
    dyadic = [2 ** k for k in range(3, 11)]
    unequal = log_slope(dyadic, w.loc[dyadic, "sobol"]) - log_slope(t[t >= 8], w.loc[t >= 8, "herding"])
    assert unequal == pytest.approx(-2.0, abs=0.1)                           # the defect: unequal sizes invent a gap
    at_dyadic, at_every = slopes_over_sizes(w, ["sobol", "herding"], dyadic), slopes_over_sizes(w, ["sobol", "herding"], t[t >= 8])
    assert at_dyadic["sobol"] == pytest.approx(-4.0) and at_dyadic["herding"] == at_dyadic["sobol"]
    assert at_every["herding"] == at_every["sobol"]
    with pytest.raises(ValueError, match="positive errors"):
        slopes_over_sizes(w.assign(herding=0.0), ["sobol", "herding"], dyadic)


def test_ratio_over_sizes_reads_many_sizes_not_one():
    """A method that equals another except at the sizes t = 2^k, where it is exact to rounding: one lucky size decides a
    pointwise maximum or minimum, not a summary over the sizes."""
    t = np.arange(1, 257)
    other = 1.0 / t
    best = np.where(np.log2(t) % 1 == 0, 1e-3 / t, 1.02 / t)                  # 2% worse except at t = 2^k
    w = pd.DataFrame({"mnp": 1.0 / t, "herding": best, "ls": 3.0 / t, "zero": np.zeros_like(other)}, index=t)
    sizes = list(t[t >= 8])
    assert (w.loc[sizes, "mnp"] / w.loc[sizes, "herding"]).max() > 100          # a pointwise test trips at t = 2^k
    assert ratio_over_sizes(w, "mnp", ["herding", "ls"], sizes, how="median") == pytest.approx(1 / 1.02)
    assert ratio_over_sizes(w, "ls", "mnp", sizes) == pytest.approx(3.0)      # geometric mean
    # an exact zero (or any error at the rounding level) is read at the rounding level: never -inf, never its round-off
    floor = ROUNDING_LEVEL * 3.0                                                # the table's largest error is ls at t = 1
    assert ratio_over_sizes(w, "zero", "mnp", sizes) == pytest.approx(np.exp(np.mean(np.log(floor * np.array(sizes)))))
    noise = w.assign(zero=np.random.default_rng(0).random(t.size) * floor * 0.9)  # round-off of another BLAS kernel
    assert ratio_over_sizes(noise, "zero", "mnp", sizes) == ratio_over_sizes(w, "zero", "mnp", sizes)
    with pytest.raises(ValueError, match="how must be one of"):
        ratio_over_sizes(w, "mnp", "ls", sizes, how="max")


def test_sobolev_curves_snap_sobol_to_the_grid_and_record_the_points():
    from inferopt.experiment.herding import snap_to_grid
    grid = np.arange(15) / 15                                      # odd: holds no dyadic point but 0
    np.testing.assert_allclose(snap_to_grid(np.array([0.0, 0.5, 0.99, 0.02]), grid), [0.0, 7 / 15, 0.0, 0.0])
    dens = TrigDensity.uniform()
    tgt = SobolevTarget(2, dens)
    free = sobolev_curves(tgt, dens, grid, 8, [4, 8], 1, np.random.default_rng(0))
    snapped = sobolev_curves(tgt, dens, grid, 8, [4, 8], 1, np.random.default_rng(0), snap_sobol=True)
    xs = snapped[snapped.method == "sobol"].x.to_numpy()
    assert np.isin(xs, grid).all() and not np.isin(free[free.method == "sobol"].x.to_numpy(), grid).all()
    assert np.isin(snapped[snapped.method == "cg-1/(t+1)"].x.to_numpy(), grid).all()
    assert snapped[snapped.method == "min-norm-point"].x.isna().all()
    with pytest.raises(ValueError):
        snap_to_grid(np.array([1.2]), grid)
