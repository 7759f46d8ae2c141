"""Issue 27: cheaper timing rounds and the fused low-rank gradient give the results of the plain ones."""

from functools import partial

import numpy as np
import pytest

from inferopt.experiment.parallel import run_calls
from inferopt.experiment.spectral import time_to
from inferopt.experiment.timing import hit_iteration, retimed, without_evaluations
from inferopt.spectral import ChebyshevSeries, rademacher
from inferopt.spectral.gradients import adjoint_factors, grad_lowrank
from inferopt.spectral.operators import LowRankShiftOperator


@pytest.mark.parametrize("n", [0, 1, 2, 3, 16, 41])
@pytest.mark.parametrize("shape", [(7, 3), (20, 35)])
def test_fused_lowrank_gradient_equals_the_adjoint_factors_contraction(n, shape):
    """grad_lowrank (one block product per step of both sweeps, cached θᵀ products) against the plain
    X (Yᵀθ) + Y (Xᵀθ) of adjoint_factors with LowRankShiftOperator: equal up to round-off."""
    rng = np.random.default_rng(n)
    theta, eps = rng.uniform(0, 5, shape), 3.0
    b = eps + np.sum(theta ** 2)
    weights = ChebyshevSeries("sqrt", eps, b).coefficients(n) if n else np.array([0.7])
    V = rademacher(rng, shape[0], 4)
    X, Y = adjoint_factors(LowRankShiftOperator(theta, eps), V, weights, eps, b)
    plain = (X @ (Y.T @ theta) + Y @ (X.T @ theta)) / 4
    fused = grad_lowrank(theta, eps, V, weights, eps, b)
    if n == 0:
        np.testing.assert_array_equal(fused, np.zeros_like(theta))
    else:
        np.testing.assert_allclose(fused, plain, rtol=0, atol=1e-13 * np.abs(plain).max())


def test_a_repeat_stopped_at_the_target_times_the_same_iterates(completion_problem, completion_calls):
    first = run_calls(completion_calls(), n_jobs=1)
    for m, res in first.items():
        # a target reached in the middle of the run: half way from the start RMSE to the best one
        target = 0.5 * (res.metric[0] + res.metric.min())
        k = hit_iteration(res, target)
        assert 0 < k < res.iterations[-1], m
        assert res.metric[list(res.iterations).index(k)] <= target < res.metric[list(res.iterations).index(k) - 1]
        rep = run_calls({m: without_evaluations(completion_calls()[m], until=k)}, n_jobs=1)[m]
        assert rep.iterations[-1] == k < res.iterations[-1]
        out = retimed(res, rep)
        n = len(rep.iterations)
        np.testing.assert_array_equal(out.times[:n], rep.times)
        assert np.isnan(out.times[n:]).all() and n < len(res.iterations)
        np.testing.assert_array_equal(rep.checksums, res.checksums[:n])
        assert time_to(out, target) == rep.times[list(rep.iterations).index(k)]


def test_a_stopped_repeat_of_another_run_is_refused(completion_problem, completion_calls):
    first = run_calls(completion_calls(seed=0), n_jobs=1)
    k = int(first["SGD"].iterations[3])
    other = run_calls({"SGD": without_evaluations(completion_calls(seed=1)["SGD"], until=k)}, n_jobs=1)["SGD"]
    with pytest.raises(ValueError, match="same seeded iterates"):
        retimed(first["SGD"], other)


def test_until_is_checked(completion_problem, completion_calls):
    c = completion_calls()
    with pytest.raises(ValueError, match="until=13 is past"):
        without_evaluations(c["SGD"], until=13)
    with pytest.raises(ValueError, match="until"):
        without_evaluations(c["GD"], until=-1)
    with pytest.raises(TypeError, match="until needs a call with max_iter"):
        without_evaluations(partial(len, completion_problem), until=2)
    assert without_evaluations(c["SVRG"], until=5).keywords["max_iter"] == 5
    assert without_evaluations(c["GD"], until=None).keywords["max_iter"] == 8
    assert hit_iteration(run_calls({"GD": c["GD"]}, n_jobs=1)["GD"], -1.0) is None


def test_ski_operators_with_a_cached_circulant_spectrum_give_the_plain_products_bit_for_bit():
    """ski_operator / the derivative sandwiches compute the circulant spectrum once: the same numbers as
    toeplitz_matmat, which computes it at every product."""
    from inferopt.spectral.gp import RegularGrid, interpolation_matrix, rbf_toeplitz_column, ski_operator, toeplitz_matmat
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(0, 30, 200))
    grid = RegularGrid(x, 70)
    W = interpolation_matrix(x, grid)
    col = rbf_toeplitz_column(grid, 1.3, 2.0)
    V = rng.standard_normal((200, 3))
    op = ski_operator(W, col, 0.4)
    plain = W @ toeplitz_matmat(col, W.T.tocsr() @ V) + 0.4 ** 2 * V
    for _ in range(2):   # the cached spectrum is reused, not consumed
        np.testing.assert_array_equal(op.matmat(V), plain)


@pytest.mark.parametrize("k", [0, 3, 4, 6, 12])
def test_svrg_stopped_after_k_inner_steps_makes_the_whole_runs_first_iterates(completion_problem, completion_calls, k):
    call = completion_calls()["SVRG"]
    whole = call(eval_every=1)
    part = call(eval_every=1, max_iter=k)
    np.testing.assert_array_equal(part.iterations, whole.iterations[: k + 1])
    np.testing.assert_array_equal(part.checksums, whole.checksums[: k + 1])
    np.testing.assert_array_equal(part.metric, whole.metric[: k + 1])
    if k == 12:   # the whole budget: the same result, snapshot included
        np.testing.assert_array_equal(part.x, whole.x)


def test_time_to_and_hit_iteration_read_the_objective_trace_too(completion_problem, completion_calls):
    res = completion_calls()["GD"]()
    target = 0.5 * (res.objective[0] + res.objective[-1])
    k = hit_iteration(res, target, trace="objective")
    i = list(res.iterations).index(k)
    assert res.objective[i] <= target < res.objective[i - 1]
    assert time_to(res, target, trace="objective") == res.times[i]
    with pytest.raises(ValueError, match="trace"):
        time_to(res, target, trace="rmse")
