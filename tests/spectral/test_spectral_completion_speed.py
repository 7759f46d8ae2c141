"""Issue 27 (D3 at paper scale): the forward-only low-rank Chebyshev gradient, the in-place projected step of
MatrixCompletion and the timing repeats' horizon give the results of the computations they replace."""

import numpy as np
import pytest
import scipy.linalg

from inferopt.experiment.parallel import run_calls
from inferopt.experiment.spectral import time_to
from inferopt.experiment.timing import hit_iteration, repeat_horizon, retimed, without_evaluations
from inferopt.spectral import ChebyshevSeries, MatrixCompletion, gd, inverse_time_step, rademacher, sgd, svrg
from inferopt.spectral._ski_gradient import adjoint_coefficients
from inferopt.spectral.gradients import adjoint_factors, grad_lowrank, krylov_adjoint_coefficients
from inferopt.spectral.operators import LowRankShiftOperator


@pytest.mark.parametrize("n", [1, 2, 3, 4, 9, 40])
def test_krylov_adjoint_coefficients_equal_the_term_by_term_sums(n):
    """The O(n²) parity suffix sums against _ski_gradient's O(n³) Σ_m c_m U_{m-j} expanded in T_i."""
    w = np.random.default_rng(n).standard_normal(n + 1)
    np.testing.assert_allclose(krylov_adjoint_coefficients(w, 0.37), adjoint_coefficients(w, 0.37), rtol=0,
                               atol=1e-14 * np.abs(w).sum())


@pytest.mark.parametrize("n", [1, 2, 5, 17])
def test_krylov_adjoint_coefficients_give_the_backward_sweep(n):
    """σ_j u_j = Σ_i C[j-1, i] T_i(Ã) v with u_j from the backward recursion of adjoint_factors on a dense Ã."""
    rng = np.random.default_rng(n)
    theta, eps = rng.uniform(0, 1, (8, 5)), 0.3
    A = theta @ theta.T + eps * np.eye(8)
    lam = np.linalg.eigvalsh(A)
    a, b = 0.9 * lam[0], 1.1 * lam[-1]
    w = rng.standard_normal(n + 1)
    v = rademacher(rng, 8, 1)
    X, Y = adjoint_factors(A, v, w, a, b)          # X[:, j-1] = σ_j u_j, Y[:, i] = T_i(Ã) v
    C = krylov_adjoint_coefficients(w, 2.0 / (b - a))
    np.testing.assert_allclose(Y @ C.T, X, rtol=1e-12, atol=1e-12 * np.abs(X).max())


@pytest.mark.parametrize("n", [0, 1, 2, 15, 60])
@pytest.mark.parametrize("M", [1, 4])
def test_forward_only_gradient_equals_the_two_sweep_adjoint(n, M):
    """grad_lowrank = (X Yᵀ + Y Xᵀ)θ/M with the factors of both sweeps (the computation it replaces)."""
    rng = np.random.default_rng(10 * n + M)
    theta, eps = rng.uniform(0, 5, (23, 31)), 4.0
    b = eps + np.sum(theta ** 2)
    weights = ChebyshevSeries("sqrt", eps, b).coefficients(n) if n else np.array([0.7])
    V = rademacher(rng, 23, M)
    got = grad_lowrank(theta, eps, V, weights, eps, b)
    if n == 0:
        np.testing.assert_array_equal(got, np.zeros_like(theta))
        return
    X, Y = adjoint_factors(LowRankShiftOperator(theta, eps), V, weights, eps, b)
    two_sweeps = (X @ (Y.T @ theta) + Y @ (X.T @ theta)) / M
    np.testing.assert_allclose(got, two_sweeps, rtol=0, atol=1e-13 * np.abs(two_sweeps).max())


def test_forward_only_gradient_is_the_derivative_of_the_estimator():
    """Central differences of (1/M) Σ_k v_kᵀ p(Ã(θ)) v_k with p evaluated densely (eigen-decomposition)."""
    rng = np.random.default_rng(3)
    theta, eps = rng.uniform(0, 1, (10, 6)), 0.5
    a, b = eps, eps + 1.2 * np.linalg.norm(theta, 2) ** 2
    weights = rng.standard_normal(12)
    V = rademacher(rng, 10, 3)

    def y(t):
        lam, U = np.linalg.eigh(t @ t.T + eps * np.eye(10))
        p = np.polynomial.chebyshev.chebval((2 * lam - (a + b)) / (b - a), weights)
        return np.mean(np.einsum("ik,i,ik->k", U.T @ V, p, U.T @ V))

    g = grad_lowrank(theta, eps, V, weights, a, b)
    for _ in range(3):
        D = rng.standard_normal(theta.shape)
        fd = (y(theta + 1e-6 * D) - y(theta - 1e-6 * D)) / 2e-6
        assert np.sum(g * D) == pytest.approx(fd, rel=1e-6)


def small_problem(seed=0, d=15, r=11):
    rng = np.random.default_rng(seed)
    rows, cols = np.nonzero(rng.random((d, r)) < 0.4)
    return MatrixCompletion(rows, cols, rng.integers(1, 6, rows.size).astype(float), (d, r), lam=0.3, eps=2.0,
                            rng=seed), rng


def test_descent_step_is_the_generic_projected_step_bit_for_bit():
    prob, rng = small_problem()
    theta = rng.uniform(-1, 6, prob.shape)
    direction = rng.standard_normal(prob.shape)
    expected = prob.project(theta - 0.7 * (direction + prob.g_grad(theta)))
    before = theta.copy()
    got = prob.descent_step(theta, 0.7, direction.copy())
    assert np.array_equal(got, expected) and np.array_equal(theta, before)
    frozen = direction.copy()
    frozen.flags.writeable = False                    # not ours to overwrite: copied
    assert np.array_equal(prob.descent_step(theta, 0.7, frozen), expected)
    with pytest.raises(ValueError, match="shape"):
        prob.descent_step(theta[:, :-1], 0.7, direction)
    # session 43: the observed entries gathered at flat positions, the same numbers as the 2-D index, whatever the layout
    grad2d = np.zeros(prob.shape)
    grad2d[prob.rows, prob.cols] = 2.0 * prob.lam * (theta[prob.rows, prob.cols] - prob.values)
    assert np.array_equal(prob.g_grad(theta), grad2d) and np.array_equal(prob.g_grad(np.asfortranarray(theta)), grad2d)
    assert prob.g(np.asfortranarray(theta)) == float(prob.lam * np.sum((theta[prob.rows, prob.cols] - prob.values) ** 2))
    assert np.array_equal(prob.descent_step(np.asfortranarray(theta), 0.7, np.asfortranarray(direction)), expected)


class Generic:
    """The problem without descent_step: the optimisers take the generic project/g_grad step."""

    def __init__(self, problem):
        self._p = problem

    def __getattr__(self, name):
        if name == "descent_step":
            raise AttributeError(name)
        return getattr(self._p, name)


@pytest.mark.parametrize("method", ["GD", "SGD", "SVRG"])
def test_runs_with_the_in_place_step_equal_the_generic_ones(method):
    prob, _ = small_problem(1)
    theta0 = np.zeros(prob.shape)

    def run(p):
        if method == "GD":
            return gd(p, theta0, max_iter=6, step=1.0, eval_every=2)
        if method == "SGD":
            return sgd(p, theta0, max_iter=8, step=inverse_time_step(1.0, 0.1), M=3, N=5, rng=4, eval_every=2)
        return svrg(p, theta0, n_outer=2, n_inner=4, step=1.0, M=3, N=5, rng=4, eval_every=2)

    fast, plain = run(prob), run(Generic(prob))
    assert np.array_equal(fast.x, plain.x)
    np.testing.assert_array_equal(fast.objective, plain.objective)


def test_exact_gradient_against_a_dense_matrix_square_root():
    """∇_θ tr (θθᵀ + εI)^{1/2} = (θθᵀ + εI)^{-1/2} θ, with scipy's sqrtm on both orientations of θ."""
    for shape in [(9, 14), (14, 9)]:
        prob, rng = small_problem(2, *shape)
        theta = rng.uniform(0, 5, shape)
        root = scipy.linalg.sqrtm(theta @ theta.T + prob.eps * np.eye(shape[0])).real
        np.testing.assert_allclose(prob.exact_spectral_grad(theta), np.linalg.solve(root, theta), rtol=1e-9,
                                   atol=1e-11)


def test_repeat_horizon_is_the_last_target_round_0_reached(completion_problem, completion_calls):
    first = run_calls(completion_calls(), n_jobs=1)
    for m, res in first.items():
        mid = 0.5 * (res.objective[0] + res.objective.min())
        k = hit_iteration(res, mid, trace="objective")
        never = float(res.metric.min()) - 1.0          # below every recorded test RMSE: never reached
        assert 0 < k and hit_iteration(res, never) is None
        assert repeat_horizon(res, [("metric", never), ("objective", mid)]) == k
        assert repeat_horizon(res, [("metric", float(res.metric[0])), ("objective", mid)]) == k   # met at the start: 0
        assert repeat_horizon(res, [("metric", never), ("objective", float(res.objective.min()) - 1.0)]) == 0
        # a repeat of a run that reached none of its targets records the start only, and times nothing
        rep = run_calls({m: without_evaluations(completion_calls()[m], until=0)}, n_jobs=1)[m]
        out = retimed(res, rep)
        assert list(rep.iterations) == [0] and out.times[0] == 0.0 and np.isnan(out.times[1:]).all()
        assert np.isnan(time_to(out, never))
    with pytest.raises(ValueError, match="at least one"):
        repeat_horizon(first["GD"], [])


class Unshared(Generic):
    """The problem without frozen_iterates either: no kept Gram matrix, every evaluation from scratch."""

    def __getattr__(self, name):
        if name == "frozen_iterates":
            raise AttributeError(name)
        return super().__getattr__(name)


def test_grad_lowrank_with_the_gram_matrix_equals_the_products_with_theta():
    rng = np.random.default_rng(5)
    theta, eps = rng.uniform(0, 5, (13, 21)), 4.0
    b = eps + np.sum(theta ** 2)
    for n in (1, 2, 16):
        weights = ChebyshevSeries("sqrt", eps, b).coefficients(n)
        V = rademacher(rng, 13, 3)
        plain = grad_lowrank(theta, eps, V, weights, eps, b)
        np.testing.assert_allclose(grad_lowrank(theta, eps, V, weights, eps, b, gram=theta @ theta.T), plain, rtol=0,
                                   atol=1e-13 * np.abs(plain).max())
    with pytest.raises(ValueError, match="gram"):
        grad_lowrank(theta, eps, V, weights, eps, b, gram=theta.T @ theta)


def test_the_kept_gram_matrix_serves_only_the_same_frozen_array():
    prob, rng = small_problem(3, 9, 14)               # d <= r: the kept Gram matrix is θθᵀ
    theta = rng.uniform(0, 5, prob.shape)
    fresh = MatrixCompletion(prob.rows, prob.cols, prob.values, prob.shape, lam=prob.lam, eps=prob.eps)
    prob.exact_spectral_grad(theta)                   # writeable: nothing kept
    assert prob._at_frozen(theta) is None
    theta.flags.writeable = False
    prob.exact_spectral_grad(theta)
    assert prob._at_frozen(theta) is not None and prob._at_frozen(theta.copy()) is None
    assert prob.spectral_term(theta) == pytest.approx(fresh.spectral_term(theta), rel=1e-14)
    V, w = rademacher(rng, 9, 3), ChebyshevSeries("sqrt", prob.eps, 2e3).coefficients(9)
    np.testing.assert_allclose(prob.spectral_grad(theta, V, w, prob.eps, 2e3), grad_lowrank(theta, prob.eps, V, w, prob.eps, 2e3),
                               rtol=1e-12, atol=1e-12)
    import pickle
    assert pickle.loads(pickle.dumps(prob))._frozen is None
    theta.flags.writeable = True                      # changed in place after the gradient: the kept values are not used
    theta *= 0.5
    assert prob._at_frozen(theta) is None
    assert prob.spectral_term(theta) == fresh.spectral_term(theta)


@pytest.mark.parametrize("shape", [(9, 14), (14, 9)])
def test_gd_and_svrg_sharing_work_at_an_iterate_equal_the_unshared_runs(shape):
    """GD evaluates θ_t from its gradient's eigenvalues, SVRG takes ψ(θ̃) with the snapshot's Gram matrix: the same
    iterates (GD bit for bit) and traces up to round-off; the results are writeable."""
    prob, _ = small_problem(4, *shape)
    theta0 = np.zeros(prob.shape)
    shared = gd(prob, theta0, max_iter=7, step=1.0, eval_every=2)
    plain = gd(Unshared(prob), theta0, max_iter=7, step=1.0, eval_every=2)
    assert np.array_equal(shared.x, plain.x) and np.array_equal(shared.checksums, plain.checksums)
    np.testing.assert_allclose(shared.objective, plain.objective, rtol=1e-14)
    np.testing.assert_array_equal(shared.metric, plain.metric)
    kw = dict(n_outer=3, n_inner=4, step=1.0, M=3, N=5, rng=7, eval_every=2)
    shared_v, plain_v = svrg(prob, theta0, **kw), svrg(Unshared(prob), theta0, **kw)
    np.testing.assert_allclose(shared_v.x, plain_v.x, rtol=0, atol=1e-12)
    np.testing.assert_allclose(shared_v.objective, plain_v.objective, rtol=1e-12)
    for res in (shared, shared_v):
        res.x[0, 0] = 1.0                                # the caller may change its result


def test_spectral_term_at_zero_is_the_eigvalsh_value():
    for shape in [(9, 14), (14, 9)]:
        prob, _ = small_problem(6, *shape)
        zero = np.zeros(shape)                         # θ = 0: the Gram eigenvalues are exactly 0, no eigvalsh
        lam = np.maximum(np.linalg.eigvalsh(np.zeros((min(shape), min(shape)))), 0.0)
        expected = float(np.sum(np.sqrt(lam + prob.eps)) + (shape[0] - lam.size) * np.sqrt(prob.eps))
        assert prob.spectral_term(zero) == expected


def test_gradients_at_zero_are_exact_zeros():
    """θ = 0 (every run's start, SVRG's first snapshot): both gradients are 0 without a product or eigh, as the
    full computations give."""
    prob, rng = small_problem(7, 9, 14)
    zero = np.zeros(prob.shape)
    V, w = rademacher(rng, 9, 3), ChebyshevSeries("sqrt", prob.eps, 50.0).coefficients(7)
    for got in (prob.exact_spectral_grad(zero), prob.spectral_grad(zero, V, w, prob.eps, 50.0)):
        assert np.array_equal(got, np.zeros(prob.shape))
    X, Y = adjoint_factors(LowRankShiftOperator(zero, prob.eps), V, w, prob.eps, 50.0)
    assert not np.any(X @ (Y.T @ zero) + Y @ (X.T @ zero))
    lam, U = np.linalg.eigh(zero @ zero.T)
    assert not np.any((U * (lam + prob.eps) ** -0.5) @ U.T @ zero)
