"""The exact line-search step and momentum of A-IHT minimise f along their directions."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from inferopt.coresets import a_iht, a_iht_ii, objective
from inferopt.coresets.iht import cols_matvec, cols_rmatvec, exact_momentum, exact_step, rows_of


def f_dense(Phi, y, w):
    r = y - Phi @ w
    return float(r @ r)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("subset", [3, 8, 20])
def test_exact_step_minimises_f_along_restricted_gradient(seed, subset):
    rng = np.random.default_rng(seed)
    S, n = 15, 20
    Phi = rng.standard_normal((S, n))
    y = rng.standard_normal(S)
    z = rng.standard_normal(n)
    grad = -2 * Phi.T @ (y - Phi @ z)
    idx = np.sort(rng.choice(n, size=subset, replace=False))
    d = np.zeros(n)
    d[idx] = grad[idx]
    mu = exact_step(Phi, grad, idx)
    numeric = minimize_scalar(lambda m: f_dense(Phi, y, z - m * d), bracket=(0, 1e-3), tol=1e-12).x
    assert mu == pytest.approx(numeric, rel=1e-6)
    # the step really is a minimiser: f is larger on both sides
    fm = f_dense(Phi, y, z - mu * d)
    assert fm <= f_dense(Phi, y, z - 1.01 * mu * d) and fm <= f_dense(Phi, y, z - 0.99 * mu * d)
    assert fm < f_dense(Phi, y, z - 0.5 * mu * d)  # the authors' half step is worse


@pytest.mark.parametrize("seed", range(5))
def test_exact_momentum_minimises_f_along_the_difference(seed):
    rng = np.random.default_rng(seed)
    S, n = 12, 9
    Phi = rng.standard_normal((S, n))
    y = rng.standard_normal(S)
    w_new, w_old = rng.random(n), rng.random(n)
    tau = exact_momentum(y - Phi @ w_new, Phi @ (w_new - w_old))
    numeric = minimize_scalar(lambda t: f_dense(Phi, y, w_new + t * (w_new - w_old)), tol=1e-12).x
    assert tau == pytest.approx(numeric, rel=1e-6, abs=1e-9)
    # the printed formula (extra 1/2) is not the minimiser
    assert f_dense(Phi, y, w_new + tau * (w_new - w_old)) < f_dense(Phi, y, w_new + 0.5 * tau * (w_new - w_old))


def test_exact_momentum_zero_direction():
    assert exact_momentum(np.ones(3), np.zeros(3)) == 0.0


@pytest.mark.parametrize("solver", [a_iht, a_iht_ii])
def test_recorded_first_step_is_the_exact_line_search(solver):
    """From w = z = 0, the first step is μ = ‖∇̃‖²/(2‖Φ∇̃‖²) on the top-k |∇f(0)| coordinates."""
    rng = np.random.default_rng(3)
    Phi = rng.standard_normal((10, 30)) + 0.2
    y = Phi.sum(axis=1)
    k = 4
    g = -2 * Phi.T @ y
    top = np.argsort(-np.abs(g))[:k]
    d = np.zeros(30)
    d[top] = g[top]
    numeric = minimize_scalar(lambda m: f_dense(Phi, y, -m * d), tol=1e-12).x
    res = solver(Phi, y, k, max_iter=1)
    assert res.info["step"][0] == pytest.approx(numeric, rel=1e-6)
    half = solver(Phi, y, k, max_iter=1, step="authors")
    assert half.info["step"][0] == pytest.approx(numeric / 2, rel=1e-6)
    assert res.objective[1] == pytest.approx(objective(Phi, y, res.x), rel=1e-10)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("size", [3, 40])  # gathered rows (<= 10 % of the columns) / zero-padded full product
def test_column_products_on_the_row_stored_transpose_match_direct_ones(order, size):
    rng = np.random.default_rng(size)
    Phi = np.asarray(rng.standard_normal((7, 50)), order=order)
    idx = np.sort(rng.choice(50, size=size, replace=False))
    v, r = rng.standard_normal(size), rng.standard_normal(7)
    PhiT = rows_of(Phi)
    assert PhiT.flags.c_contiguous and PhiT.shape == (50, 7)
    np.testing.assert_allclose(cols_matvec(PhiT, idx, v), Phi[:, idx] @ v, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(cols_rmatvec(PhiT, idx, r), Phi[:, idx].T @ r, rtol=1e-12, atol=1e-12)


def test_problem_builders_store_phi_so_that_rows_of_is_a_view():
    from inferopt.coresets import GLMCoresetProblem, exact_problem, make_gaussian_mean
    from inferopt.models import LogisticRegression

    rng = np.random.default_rng(0)
    Phi, _ = exact_problem(make_gaussian_mean(3, 30, rng=rng))
    X = rng.standard_normal((40, 3))
    glm = GLMCoresetProblem(LogisticRegression(X, np.where(rng.random(40) < 0.5, 1.0, -1.0)), 20, rng=1)
    for P in (Phi, glm.Phi):
        assert P.flags.f_contiguous
        assert np.shares_memory(rows_of(P), P)


@pytest.mark.parametrize("solver", [a_iht, a_iht_ii])
@pytest.mark.parametrize("k", [2, 9])
def test_solvers_give_the_same_weights_for_either_layout_of_phi(solver, k):
    rng = np.random.default_rng(k)
    Phi = rng.standard_normal((25, 60))
    y = Phi @ np.abs(rng.standard_normal(60))
    c, f = solver(Phi, y, k), solver(np.asfortranarray(Phi), y, k)
    np.testing.assert_allclose(f.x, c.x, rtol=1e-10, atol=1e-12)
    assert f.n_iter == c.n_iter


@pytest.mark.parametrize("order", ["C", "F"])
def test_check_problem_keeps_a_contiguous_layout_without_copying(order):
    # a forced row-major copy here would bring back the transposing copy at every solve
    from inferopt.coresets._common import check_problem

    Phi = np.asarray(np.random.default_rng(0).standard_normal((6, 9)), order=order)
    out, _ = check_problem(Phi, Phi.sum(axis=1))
    assert np.shares_memory(out, Phi)
    assert np.shares_memory(rows_of(out), Phi) == (order == "F")
