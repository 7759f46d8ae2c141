"""Herding through inferopt.fw: Welling's recursion gives the same points as FW with 1/(t+1);
weights follow the formulas of the notes; min-norm-point and -proj against re-weighting;
the baselines against closed-form expectations."""

import numpy as np
import pytest

from inferopt.herding import (
    SobolevTarget,
    TrigDensity,
    herd,
    mmd2,
    mmd2_uniform_prefix,
    project,
    projected_errors,
    random_errors,
    sobol_points,
    welling_herding,
)

GRID = np.arange(2000) / 2000


@pytest.fixture(scope="module")
def target():
    return SobolevTarget(1, TrigDensity.random(np.random.default_rng(0), degree=2))


@pytest.fixture(scope="module")
def runs(target):
    return {m: herd(target, GRID, 150, m) for m in ("1/(t+1)", "line_search", "mnp")}


@pytest.mark.parametrize("s,seed", [(1, 0), (2, 1), (3, 2)])
def test_welling_recursion_and_fw_one_over_t_pick_the_same_points(s, seed):
    tgt = SobolevTarget(s, TrigDensity.random(np.random.default_rng(seed), degree=2))
    fw = herd(tgt, GRID, 150, "1/(t+1)")
    np.testing.assert_array_equal(welling_herding(tgt, GRID, 150), fw.order)


def test_herding_weights_are_uniform_and_error_is_mmd(target, runs):
    res = runs["1/(t+1)"]
    counts = np.bincount(res.order, minlength=len(GRID)) / len(res.order)
    dense = np.zeros(len(GRID))
    dense[res.atoms] = res.weights
    np.testing.assert_allclose(dense, counts, atol=1e-13)
    # the solver's objective is ||mu - mu_hat_t||^2 for every t
    np.testing.assert_allclose(res.objective, mmd2_uniform_prefix(target, GRID[res.order]), rtol=1e-8, atol=1e-14)


def test_line_search_weights_follow_the_product_formula(target, runs):
    res = runs["line_search"]
    rho = np.concatenate([[1.0], res.info["gamma"]])             # rho_0 = 1
    # w_i = rho_i prod_{j > i} (1 - rho_j) for the i-th chosen point, summed over repeats
    tail = np.concatenate([np.cumprod((1 - rho[1:])[::-1])[::-1], [1.0]])
    w = np.bincount(res.order, weights=rho * tail, minlength=len(GRID))
    dense = np.zeros(len(GRID))
    dense[res.atoms] = res.weights
    np.testing.assert_allclose(dense, w, atol=1e-12)
    assert res.objective[-1] == pytest.approx(mmd2(target, GRID[res.atoms], res.weights), rel=1e-8)


def test_min_norm_point_is_optimal_on_its_points_and_best(target, runs):
    mnp = runs["mnp"]
    _, _, err = project(target, GRID[mnp.atoms])
    assert mnp.objective[-1] == pytest.approx(err, rel=1e-6)
    # at each step it is at least as good as re-weighting all points it has seen (dropped ones included)
    for t in (5, 20, 80):
        assert projected_errors(target, GRID[mnp.order[:t]], [t])[0] <= mnp.objective[t - 1] * (1 + 1e-6)
    # the paper's claims for Fig. 3 (s = 1, random density): mnp best, -proj helps herding
    assert mnp.objective[-1] < runs["1/(t+1)"].objective[-1] and mnp.objective[-1] < runs["line_search"].objective[-1]
    herd_pts = GRID[runs["1/(t+1)"].order]
    assert project(target, herd_pts)[2] < 0.5 * runs["1/(t+1)"].objective[-1]


def test_herding_beats_iid_rate(target, runs):
    t = np.arange(1, 151)
    err = runs["1/(t+1)"].objective
    slope = np.polyfit(np.log(t[20:]), np.log(err[20:]), 1)[0]
    assert slope < -1.5          # i.i.d. sampling gives -1; herding is empirically close to t^-2 for s = 1


def test_random_baseline_has_the_iid_expectation(target):
    # E ||mu - mu_hat_t||^2 = (E k(x, x) - ||mu||^2) / t for i.i.d. points
    errs = random_errors(target, target.density, 10, 400, np.random.default_rng(3))
    expected = (target.kernel_diag([0.0])[0] - target.mean_sqnorm) / np.arange(1, 11)
    se = errs.std(axis=0) / np.sqrt(errs.shape[0])
    assert np.all(np.abs(errs.mean(axis=0) - expected) < 4 * se)


def test_sobol_points():
    np.testing.assert_allclose(sobol_points(TrigDensity.uniform(), 8), [0, 0.5, 0.75, 0.25, 0.375, 0.875, 0.625, 0.125],
                               atol=1e-15)
    dens = TrigDensity.random(np.random.default_rng(4))
    x = sobol_points(dens, 16)
    np.testing.assert_allclose(dens.cdf(x), sobol_points(TrigDensity.uniform(), 16), atol=1e-12)
    # s = 2, uniform: 2^k Sobol points are equispaced, error 1 / (720 n^4) (sum over multiples of n)
    tgt = SobolevTarget(2, TrigDensity.uniform())
    expected = 2 / (2 * np.pi * 16) ** 4 * np.pi**4 / 90           # 2 sum_k (2 pi 16 k)^-4, zeta(4) = pi^4/90
    assert mmd2(tgt, sobol_points(TrigDensity.uniform(), 16)) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("method", ["1/(t+1)", "line_search", "mnp"])
def test_finite_sample_train_and_test_errors(target, method):
    from inferopt.herding import EmpiricalTarget
    sample = target.density.sample(300, np.random.default_rng(7))
    train = EmpiricalTarget(target, sample)
    res = herd(train, sample, 400, method, test_target=target)
    # both traces against direct kernel computations on the final weighted point set
    assert res.objective[-1] == pytest.approx(mmd2(train, sample[res.atoms], res.weights), rel=1e-6, abs=1e-14)
    assert res.test_objective[-1] == pytest.approx(mmd2(target, sample[res.atoms], res.weights), rel=1e-8)
    if method == "1/(t+1)":
        np.testing.assert_allclose(res.test_objective, mmd2_uniform_prefix(target, sample[res.order]), rtol=1e-8)
    # Fig. 4: every method ends on the empirical mean, whose test error is the floor
    floor = mmd2(target, sample)
    assert res.objective[-1] < 0.2 * floor and res.test_objective[-1] == pytest.approx(floor, rel=0.2)
    if method == "mnp":  # ... min-norm-point first, and exactly: it terminates on the sample's mean
        assert res.info["stop"] != "max_iter" and res.objective[-1] < 1e-12 * floor


def test_package_docstring_example_runs():
    import inferopt.herding
    block = inferopt.herding.__doc__.split("::\n\n", 1)[1]
    code = "\n".join(line[4:] for line in block.splitlines())
    namespace = {"np": np, **{name: getattr(inferopt.herding, name) for name in inferopt.herding.__all__}}
    exec(code, namespace)  # noqa: S102 - the documented example must run as written
    assert len(namespace["res"].objective) == 500 and namespace["res"].objective[-1] < 1e-4
