"""Issue 41 (D3's second review): a time to a target is the time after which a run stays below it (a dip is not
reached), each arm runs its own tuned step, D3.2 read at equal time, and D3.5 on counted work."""

from functools import partial

import numpy as np
import pytest

from inferopt.experiment.spectral import (cost_exponent, d32_test, d33_test, deepest_reached, run_table, stays_below,
                                          stochastic_gradient_flops, time_to_stay)
from inferopt.experiment.spectral.completion import completion_calls, completion_problem
from inferopt.spectral import SpectralSolveResult

T = np.arange(0.0, 11.0)


def result(times, rmse):
    times, rmse = np.asarray(times, float), np.asarray(rmse, float)
    return SpectralSolveResult(x=np.zeros(1), objective=np.full(times.size, np.nan), n_iter=times.size - 1, converged=False,
                               message="", times=times, iterations=np.arange(times.size), metric=rmse)


DIP = np.array([3.0, 2.0, 1.4, 1.3, 1.6, 1.8, 1.9, 2.0, 2.0, 2.0, 2.0])      # below 1.5 at 2-3 s, then above for good
LATE = np.array([3.0, 2.8, 2.6, 2.4, 2.2, 2.0, 1.8, 1.6, 1.45, 1.4, 1.35])     # below 1.5 from 8 s on
WOBBLE = np.array([3.0, 2.0, 1.4, 1.3, 1.6, 1.4, 1.3, 1.2, 1.2, 1.1, 1.0])     # a dip, back above at 4 s, below from 5 s


def test_stays_below_is_not_a_first_dip():
    assert stays_below(DIP, 1.5) is None                                     # dip then rise: not reached
    assert stays_below(LATE, 1.5) == 8 and stays_below(WOBBLE, 1.5) == 5
    assert stays_below(np.array([1.0, 0.9]), 1.5) == 0                        # below from the start
    assert stays_below(WOBBLE, 1.5, T, until=3.0) == 2                        # read to a budget of 3 s: it has not risen yet
    assert stays_below(LATE, 1.5, T, until=7.0) is None                       # not within the budget
    assert stays_below(np.array([3.0, 1.0, np.nan, 1.0]), 1.5) == 3           # NaN is not below
    r = result(T, WOBBLE)
    assert time_to_stay(r, 1.5) == 5.0 and np.isnan(time_to_stay(result(T, DIP), 1.5))
    assert time_to_stay(result(T, DIP), 1.5, missing=np.inf) == np.inf and time_to_stay(r, 1.5, until=3.0) == 2.0
    with pytest.raises(ValueError, match="times"):
        stays_below(DIP, 1.5, until=3.0)
    with pytest.raises(ValueError, match="metric"):
        stays_below(np.zeros((2, 2)), 1.5)
    with pytest.raises(TypeError, match="missing"):
        time_to_stay(r, 1.5, missing="never")


def table(curves, stay=True, budget=None, n_seeds=5):
    results = {}
    for (name, method), rmse in curves.items():
        if method == "GD":
            results[name, method, None] = result(T, rmse)
        else:
            results |= {(name, method, s): result(T, rmse) for s in range(n_seeds)}
    return run_table(results, {n: {"0.85": 1.5} for n, _ in curves}, budget or {n: None for n, _ in curves}, M=2, stay=stay)


def test_run_table_reads_the_stay_time_and_decides_d32_d33_on_it():
    # SGD and SVRG dip below the target first, then rise; GD gets there late and stays: by the first dip SGD and SVRG
    # would be ahead, by the stay time GD reaching it while no SGD seed does decides D3.2 (fails), not "not measured"
    curves = {("a", "GD"): LATE, ("a", "SGD"): DIP, ("a", "SVRG"): DIP, ("a", "SGD-DET"): DIP}
    first, stay = table(curves, stay=False), table(curves)
    assert first.loc[first.method == "SGD", "time to 0.85"].iloc[0] == 2.0 and d32_test(first, "0.85") is True
    assert np.isinf(stay.loc[stay.method == "SGD", "time to 0.85"]).all() and stay.loc[stay.method == "GD", "time to 0.85"].iloc[0] == 8.0
    assert d32_test(stay, "0.85") is False and d33_test(stay, "0.85", {"a": None}) is False
    assert np.isinf(stay.loc[stay.method == "SGD", "mat-vecs to 0.85"]).all()   # the work columns read the same evaluation
    seven = np.array([3.0, 2.8, 2.6, 2.4, 2.2, 2.0, 1.8, 1.45, 1.4, 1.4, 1.35])   # below from 7 s
    wobble = table({("a", "GD"): LATE, ("a", "SGD"): seven, ("a", "SVRG"): WOBBLE, ("a", "SGD-DET"): WOBBLE})
    assert wobble.loc[wobble.method == "SVRG", "time to 0.85"].iloc[0] == 5.0 and d32_test(wobble, "0.85") is True
    assert d33_test(wobble, "0.85", {"a": None}, 1.5) is True                   # 8 / 5 = 1.6
    assert d33_test(wobble, "0.85", {"a": None}, 2.0) is False


def test_d32_at_equal_time_where_neither_reaches_the_target():
    low, high = np.linspace(3, 1.6, 11), np.linspace(3, 2.0, 11)                # neither reaches 1.5
    assert d32_test(table({("a", "GD"): high, ("a", "SGD"): low}), "0.85") is True
    assert d32_test(table({("a", "GD"): low, ("a", "SGD"): high}), "0.85") is False
    assert d32_test(table({("a", "GD"): high, ("a", "SGD"): high}), "0.85") is None          # a tie decides nothing
    assert d32_test(table({("a", "GD"): high, ("a", "SGD"): low}, budget={"a": 5.0}), "0.85") is True


def test_completion_calls_give_each_arm_its_own_step():
    from inferopt.datasets.movielens import synthetic_low_rank_ratings
    small = synthetic_low_rank_ratings(12, 9, 2, 60, rng=0, test_fraction=0.2)
    steps = {"GD": 0.3, "SGD": 0.2, "SVRG": 0.1, "SGD-DET": 0.05}
    calls = completion_calls(lambda rng: completion_problem(small, 5.0, 0.5, rng), np.zeros(small["shape"]), name="s", experiment="T",
                             seed=0, n_seeds=1, step=steps, sgd_decay=0.5, M=2, N=3, svrg_inner=3, max_iter=6, eval_every=2)
    assert calls["s", "GD", None].keywords["step"] == 0.3 and calls["s", "SVRG", 0].keywords["step"] == 0.1
    assert calls["s", "SGD", 0].keywords["step"](0) == 0.2 and calls["s", "SGD-DET", 0].keywords["step"](2) == pytest.approx(0.05 / 2)
    with pytest.raises(ValueError, match="step"):
        completion_calls(lambda rng: completion_problem(small, 5.0, 0.5, rng), np.zeros(small["shape"]), name="s", experiment="T",
                         seed=0, n_seeds=1, step={"GD": 0.3}, sgd_decay=0.5, M=2, N=3, svrg_inner=3, max_iter=6)
    with pytest.raises(ValueError, match="step"):
        completion_calls(lambda rng: completion_problem(small, 5.0, 0.5, rng), np.zeros(small["shape"]), name="s", experiment="T",
                         seed=0, n_seeds=1, step=-1.0, sgd_decay=0.5, M=2, N=3, svrg_inner=3, max_iter=6)


def test_counted_work_of_a_stochastic_gradient():
    # d = 4, r = 3, M = 2, n = 3: two recurrence steps (2 * (2*4*2*3 + 6*4*2) = 192), one θᵀw (24), K P (9*2*3 = 54), Y Z (4*6*3 = 72)
    assert stochastic_gradient_flops(4, 3, 2, 3) == 192 + 24 + 54 + 72
    assert stochastic_gradient_flops(4, 3, 2, 0) == 0.0
    d = [400, 800, 1600]
    assert cost_exponent(d, [stochastic_gradient_flops(x, 943, 10, 15) for x in d]) == pytest.approx(1.0, abs=0.01)
    M = [10, 20, 40]
    assert cost_exponent(M, [stochastic_gradient_flops(1682, 943, m, 15) for m in M]) == pytest.approx(1.0, abs=1e-12)
    n = [200, 400, 800]                              # at degrees far beyond d the n² r term takes over: exponent toward 2
    assert cost_exponent(n, [stochastic_gradient_flops(50, 20, 2, x) for x in n]) > 1.5
    with pytest.raises(ValueError, match="d"):
        stochastic_gradient_flops(0, 3, 2, 3)
    with pytest.raises(ValueError, match="n"):
        stochastic_gradient_flops(4, 3, 2, -1)


class Counted:
    """Matrix products by explicit loops, every multiply-add counted (a brute-force count of a gradient's work)."""

    def __init__(self):
        self.n = 0

    def matmul(self, A, B):
        out = np.zeros((A.shape[0], B.shape[1]))
        for i in range(A.shape[0]):
            for j in range(B.shape[1]):
                for k in range(A.shape[1]):
                    out[i, j] += A[i, k] * B[k, j]
                    self.n += 1
        return out

    def scale_columns(self, U, s):
        self.n += U.size
        return U * s


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4)])
def test_counted_work_of_an_exact_gradient_against_a_brute_force_count(shape):
    """Session 32: exact_gradient_flops counts the products of exact_spectral_grad (the Gram matrix of the smaller side, W,
    W Wᵀ, θ S) as a loop-by-loop count does, plus the eigen-decomposition's convention (EIGH_MULTIPLY_ADDS k³); the flop
    price is the stochastic gradient's count over it."""
    from inferopt.experiment.spectral import exact_gradient_flops, flop_price
    from inferopt.experiment.spectral.work import EIGH_MULTIPLY_ADDS

    d, r = shape
    rng = np.random.default_rng(0)
    rows, cols = np.divmod(rng.choice(d * r, size=6, replace=False), r)
    problem = completion_problem({"rows": rows, "cols": cols, "values": rng.uniform(1, 5, 6), "shape": shape, "test": None}, 0.5, 0.2)
    theta = rng.uniform(0.5, 2.0, shape)
    c = Counted()
    small_right = r <= d
    gram = c.matmul(theta.T, theta) if small_right else c.matmul(theta, theta.T)
    lam, U = np.linalg.eigh(gram)                                   # LAPACK: counted by convention, not by loops
    W = c.scale_columns(U, (np.maximum(lam, 0.0) + 0.5) ** -0.25)
    S = c.matmul(W, W.T)
    grad = c.matmul(theta, S) if small_right else c.matmul(S, theta)
    assert grad == pytest.approx(problem.exact_spectral_grad(theta), rel=1e-9)   # the counted computation is the gradient's
    k = min(shape)
    assert exact_gradient_flops(d, r) == c.n + EIGH_MULTIPLY_ADDS * k ** 3
    assert flop_price(d, r, 2, 3) == pytest.approx(stochastic_gradient_flops(d, r, 2, 3) / exact_gradient_flops(d, r))


def test_svrgs_snapshot_gradient_is_priced_at_its_gram_form():
    """Session 33 (helper-264's review): at the snapshot, d < r, the recurrence's products A w use the kept d x d Gram
    matrix. By hand, d = 3, r = 5, M = 2, n = 3: two recurrence steps (2 * (3*3*2 + 6*3*2) = 108), Y^T theta once
    (6*3*5 = 90), K P (9*2*5 = 90), Y Z (3*6*5 = 90): 378, against the full form's 402; d >= r keeps no Gram matrix."""
    from inferopt.experiment.spectral import exact_gradient_flops, flop_price
    from inferopt.experiment.spectral.work import snapshot_gradient_flops

    assert stochastic_gradient_flops(3, 5, 2, 3) == 2 * (2 * 3 * 2 * 5 + 6 * 3 * 2) + 30 + 90 + 90 == 402
    assert snapshot_gradient_flops(3, 5, 2, 3) == 108 + 90 + 90 + 90 == 378
    assert snapshot_gradient_flops(5, 3, 2, 3) == stochastic_gradient_flops(5, 3, 2, 3)
    assert snapshot_gradient_flops(3, 5, 2, 0) == 0.0
    assert flop_price(3, 5, 2, 3, "SVRG") == pytest.approx((402 + 378) / 2 / exact_gradient_flops(3, 5))
    assert flop_price(3, 5, 2, 3, "SGD") == pytest.approx(402 / exact_gradient_flops(3, 5)) == flop_price(3, 5, 2, 3)
    with pytest.raises(ValueError, match="method"):
        flop_price(3, 5, 2, 3, "GD")


def test_the_flop_price_falls_with_the_size_and_rejects_bad_shapes():
    from inferopt.experiment.spectral import exact_gradient_flops, flop_price

    # the exact gradient grows as k³, the stochastic one as d r: a stochastic gradient gets cheaper in exact gradients with the size
    assert flop_price(75, 150, 10, 15) > flop_price(106, 212, 10, 15) > flop_price(150, 300, 10, 15) > flop_price(1682, 943, 10, 15)
    assert exact_gradient_flops(7, 3) == exact_gradient_flops(3, 7)          # the smaller side, either way round
    with pytest.raises(ValueError, match="r"):
        exact_gradient_flops(4, 0)
    with pytest.raises(ValueError, match="N"):
        flop_price(4, 3, 2, 0)


def test_deepest_reached_judges_on_what_is_reached():
    results = {("a", "GD", None): result(T, LATE)} | {("a", "SGD", s): result(T, DIP) for s in range(3)}
    tb = run_table(results, {"a": {"0.85": 1.5, "0.72": 2.1, "1": 0.5}}, {"a": None}, stay=True)
    assert deepest_reached(tb, "a", ["0.85", "0.72"]) == "0.85"                 # GD stays below 1.5 from 8 s
    assert deepest_reached(tb, "a", ["1", "0.72"]) == "0.72"                    # nobody reaches 0.5: the next one
    assert deepest_reached(tb, "a", ["1"]) is None
    tb5 = run_table(results, {"a": {"0.85": 1.5}}, {"a": 5.0}, stay=True)
    assert deepest_reached(tb5, "a", ["0.85"]) is None                          # not within a 5 s budget
    with pytest.raises(ValueError, match="reading"):
        deepest_reached(tb, "a", ["0.9"])
    with pytest.raises(ValueError, match="readings_"):
        deepest_reached(tb, "a", [])
