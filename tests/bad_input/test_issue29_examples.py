"""Issue 29: each example of the issue, as a user would write it. The generated sweep
(test_sweep) covers the classes; these pin the instances with independent truths."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import nnls
from scipy.sparse.linalg import aslinearoperator

from inferopt import _progress
from inferopt._progress import LongCallWarning


@pytest.fixture
def phi_problem():
    rng = np.random.default_rng(0)
    Phi = rng.normal(size=(6, 8))
    return Phi, Phi.sum(axis=1)


# --- silently wrong ------------------------------------------------------------------------------
def test_repeated_support_index_is_refused_and_order_does_not_matter(phi_problem):
    from inferopt.coresets.refit import nnls_on_support
    Phi, y = phi_problem
    with pytest.raises(ValueError, match=r"support must hold distinct indices.*\[1\] repeated"):
        nnls_on_support(Phi, y, [1, 1])
    coef, _ = nnls(Phi[:, [1, 3]], y)                      # the reference solver on the columns
    want = np.zeros(8)
    want[[1, 3]] = coef
    np.testing.assert_allclose(nnls_on_support(Phi, y, [3, 1]), want, rtol=1e-12)
    np.testing.assert_allclose(nnls_on_support(Phi, y, [1, 3]), want, rtol=1e-12)


STATES = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])


@pytest.mark.parametrize("mu", [[1.5, 0.2], [3.0, -2.0], [-1.2, 0.0]])
def test_maxent_refuses_moments_outside_the_marginal_polytope_with_the_distance(mu):
    from inferopt.herding import maxent_distribution
    mu = np.array(mu)
    # the polytope of the states {-1, 1}^2 with features x is the square [-1, 1]^2
    dist = np.linalg.norm(mu - np.clip(mu, -1, 1))
    with pytest.raises(ValueError, match="mu is infeasible") as err:
        maxent_distribution(STATES, mu)
    assert f"distance {dist:.6g}" in str(err.value)


def test_maxent_still_matches_feasible_moments():
    from inferopt.herding import maxent_distribution
    mu = np.array([0.2, -0.1])
    p, _ = maxent_distribution(STATES, mu)
    np.testing.assert_allclose(STATES.T @ p, mu, atol=1e-8)
    np.testing.assert_allclose(p, np.prod((1 + STATES * mu) / 2, axis=1), atol=1e-8)   # independent bits


def test_state_curves_refuses_moments_herding_cannot_reach():
    from inferopt.experiment.herding import state_curves
    with pytest.raises(ValueError, match="mu is infeasible.*distance 0.5"):
        state_curves(STATES, np.array([1.5, 0.0]), np.full(4, 0.25), 3, "1/(t+1)", [2])


# --- same seed, different answer -----------------------------------------------------------------
def spd(d=6, seed=1):
    B = np.random.default_rng(seed).normal(size=(d, d))
    return B @ B.T + d * np.eye(d)


@pytest.mark.parametrize("degree, N", [(5, None), (None, 6)])
def test_spectral_sum_same_seed_same_answer_for_dense_sparse_and_linear_operator(degree, N):
    from inferopt.spectral import spectral_sum
    A = spd()
    values = [spectral_sum(M, "log", 1.0, 60.0, M=4, degree=degree, N=N, rng=3).value
              for M in (A, sp.csr_matrix(A), aslinearoperator(A))]
    np.testing.assert_allclose(values, values[0], rtol=1e-12)
    assert spectral_sum(A, "log", 1.0, 60.0, M=4, degree=degree, N=N, rng=4).value != values[0]  # the seed matters


def test_spectral_sum_grad_same_seed_same_answer_for_dense_and_linear_operator():
    from inferopt.spectral import spectral_sum_grad
    A = spd()
    dA = [np.eye(6), np.diag(np.arange(6.0))]
    g1, _ = spectral_sum_grad(A, dA, "log", 1.0, 60.0, M=4, N=6, rng=3)
    g2, _ = spectral_sum_grad(aslinearoperator(A), [aslinearoperator(D) for D in dA], "log", 1.0, 60.0, M=4, N=6, rng=3)
    np.testing.assert_allclose(g1, g2, rtol=1e-12)


# --- strings and flags ---------------------------------------------------------------------------
def test_flags_are_booleans_only(phi_problem):
    from inferopt.coresets import a_iht
    from inferopt.fw import QuadraticHull, frank_wolfe
    Phi, y = phi_problem
    with pytest.raises(TypeError, match="keep_best must be True or False; got str 'yes'"):
        a_iht(Phi, y, 3, keep_best="yes")
    np.testing.assert_array_equal(a_iht(Phi, y, 3, keep_best=np.bool_(True)).x, a_iht(Phi, y, 3, keep_best=True).x)
    problem = QuadraticHull.from_vectors(Phi[:3], y[:3])
    with pytest.raises(TypeError, match="final_gap must be True or False; got str 'no'"):
        frank_wolfe(problem, max_iter=3, final_gap="no")
    with pytest.raises(TypeError, match="final_gap"):
        frank_wolfe(problem, max_iter=3, final_gap=0)


# --- objects whose invariants nobody checked -----------------------------------------------------
@pytest.mark.parametrize("mean, factor, match", [
    (np.zeros(2), np.eye(3), "prec_chol must be D x D with D = len\\(mean\\) = 2"),
    (np.zeros(2), np.array([[1.0, 0.0], [1.0, 0.0]]), "positive diagonal"),
    (np.zeros(2), np.array([[1.0, 1.0], [0.0, 1.0]]), "lower triangular"),
    (np.zeros(2), np.array([[-1.0, 0.0], [0.0, 1.0]]), "positive diagonal"),
    (np.full(2, np.nan), np.eye(2), "mean must contain only finite"),
])
def test_laplace_approximation_checks_its_invariants(mean, factor, match):
    from inferopt.models.laplace import LaplaceApprox
    with pytest.raises(ValueError, match=match):
        LaplaceApprox(mean, factor)


def test_a_valid_laplace_approximation_is_unchanged():
    from inferopt.models.laplace import LaplaceApprox
    L = np.array([[2.0, 0.0], [0.5, 1.0]])
    la = LaplaceApprox(np.array([1.0, -1.0]), L)
    np.testing.assert_allclose(la.cov, np.linalg.inv(L @ L.T), rtol=1e-12)


# --- signs and ranges ----------------------------------------------------------------------------
def completion():
    from inferopt.spectral import MatrixCompletion
    return MatrixCompletion([0, 1, 2], [0, 1, 0], [3.0, 4.0, 5.0], (3, 2), lam=1.0, eps=1.0, low=0.0, high=5.0, rng=0)


@pytest.mark.parametrize("schedule, match", [(lambda t: -0.1, "step must return values > 0"),
                                             (lambda t: np.nan, "finite"),
                                             (lambda t: 0.0, "step must return values > 0")])
def test_a_step_schedule_out_of_range_is_refused(schedule, match):
    from inferopt.spectral import gd, sgd
    with pytest.raises(ValueError, match=match):
        sgd(completion(), np.ones((3, 2)), max_iter=2, step=schedule, M=2, N=4, rng=0)
    with pytest.raises(ValueError, match=match):
        gd(completion(), np.ones((3, 2)), max_iter=2, step=schedule)


def test_negative_noise_is_refused():
    from inferopt.spectral import RegularGrid, interpolation_matrix, ski_operator
    W = interpolation_matrix(np.linspace(0.2, 0.8, 5), RegularGrid(np.linspace(0, 1, 20), 16))
    with pytest.raises(ValueError, match="noise"):
        ski_operator(W, np.exp(-np.arange(16.0)), noise=-1)
    a = ski_operator(W, np.exp(-np.arange(16.0)), noise=0.5).matmat(np.eye(5))
    b = ski_operator(W, np.exp(-np.arange(16.0)), noise=0.0).matmat(np.eye(5))
    np.testing.assert_allclose(a - b, 0.25 * np.eye(5), atol=1e-12)


def test_spectral_bounds_refuse_a_cap_below_or_a_lower_bound_above_the_spectrum():
    from inferopt.spectral import spectral_bounds
    A = spd()
    lam = np.linalg.eigvalsh(A)
    with pytest.raises(ValueError, match="cap .* is below the spectrum"):
        spectral_bounds(A, cap=0.5 * (lam[0] + lam[-1]), rng=0)
    with pytest.raises(ValueError, match="lower .* is above the bottom of the spectrum"):
        spectral_bounds(A, lower=0.5 * (lam[0] + lam[-1]), rng=0)
    a, b = spectral_bounds(A, cap=2 * lam[-1], lower=0.5 * lam[0], rng=0)    # valid bounds still pass
    assert a <= lam[0] and b >= lam[-1] - 1e-8 * lam[-1]


def test_integral_floats_are_integers_everywhere(phi_problem):
    from inferopt.coresets import a_iht, giga
    from inferopt.spectral import spectral_sum
    Phi, y = phi_problem
    np.testing.assert_array_equal(a_iht(Phi, y, 2.0).x, a_iht(Phi, y, 2).x)
    np.testing.assert_array_equal(giga(Phi, y, 2.0).x, giga(Phi, y, 2).x)
    A = spd()
    assert spectral_sum(A, "log", 1.0, 60.0, M=2.0, degree=5, rng=0).value == \
        spectral_sum(A, "log", 1.0, 60.0, M=2, degree=5, rng=0).value
    for bad in (2.5, "2", True):
        with pytest.raises((ValueError, TypeError), match="k"):
            a_iht(Phi, y, bad)
        with pytest.raises((ValueError, TypeError), match="M"):
            spectral_sum(A, "log", 1.0, 60.0, M=bad, degree=5, rng=0)


# --- deep errors ---------------------------------------------------------------------------------
def test_hull_quadratic_without_atoms_names_v():
    from inferopt.fw import hull_quadratic
    with pytest.raises(ValueError, match="V must have at least one column"):
        hull_quadratic(np.zeros((3, 0)), np.ones(3))


def test_wrong_shaped_optional_arguments_are_named():
    from inferopt.models import LogisticRegression, laplace_approximation
    from inferopt.spectral import spectral_sum_grad
    rng = np.random.default_rng(2)
    Z = np.column_stack([rng.normal(size=(20, 2)), np.ones(20)])
    model = LogisticRegression(Z, np.where(rng.random(20) < 0.5, -1.0, 1.0))
    with pytest.raises(ValueError, match="x0 must have length D = 3"):
        laplace_approximation(model, x0=np.zeros(2))
    with pytest.raises(ValueError, match=r"dA\[0\] must have the shape of A \(6, 6\)"):
        spectral_sum_grad(spd(), [np.eye(5)], "log", 1.0, 60.0, M=2, degree=4, rng=0)
    with pytest.raises(ValueError, match=r"theta must have the problem's shape \(3, 2\); got \(2, 2\)"):
        completion().objective(np.ones((2, 2)))
    from inferopt.models.laplace import LaplaceApprox
    with pytest.raises(ValueError, match="theta must have last dimension D = 2"):
        LaplaceApprox(np.zeros(2), np.eye(2)).logpdf(np.zeros(3))


def test_a_non_callable_callback_is_named():
    from inferopt.fw import QuadraticHull, frank_wolfe, min_norm_point
    from inferopt.spectral import sgd
    V, b = np.random.default_rng(4).normal(size=(3, 6)), np.ones(3)
    for solver in (frank_wolfe, min_norm_point):
        with pytest.raises(TypeError, match="callback must be callable; got int"):
            solver(QuadraticHull.from_vectors(V, b), max_iter=3, callback=3)
    with pytest.raises(TypeError, match="callback must be callable; got int"):
        sgd(completion(), np.ones((3, 2)), max_iter=2, step=0.1, M=2, N=4, rng=0, callback=3)


# --- long silence --------------------------------------------------------------------------------
def test_herd_of_ten_million_points_says_it_will_be_long():
    """The issue's call: it warns within about a second (the warning turned into an error stops it)."""
    from inferopt.herding import SobolevTarget, TrigDensity, herd
    target = SobolevTarget(1, TrigDensity.uniform())
    with warnings.catch_warnings():
        warnings.simplefilter("error", LongCallWarning)
        with pytest.raises(LongCallWarning, match="herd will take long.*progress=True"):
            herd(target, np.linspace(0, 1, 2000, endpoint=False), n_points=10**7)
    with pytest.raises(TypeError, match="progress must be True or False"):
        herd(target, np.linspace(0, 1, 20, endpoint=False), n_points=3, progress="yes")


def test_short_calls_stay_silent_and_long_ones_warn(monkeypatch, phi_problem):
    from inferopt.coresets import coreset_path
    from inferopt.spectral import sgd
    Phi, y = phi_problem
    with warnings.catch_warnings():
        warnings.simplefilter("error", LongCallWarning)
        sgd(completion(), np.ones((3, 2)), max_iter=3, step=0.1, M=2, N=4, rng=0)
        coreset_path("a_iht", Phi, y, [1, 2, 3])
    # the same calls projected beyond the limit: a warning, and the results do not change
    monkeypatch.setattr(_progress, "FIRST_LOOK", 0.0)
    monkeypatch.setattr(_progress, "LONG_SECONDS", 0.0)
    with pytest.warns(LongCallWarning, match="SGD will take long"):
        res = sgd(completion(), np.ones((3, 2)), max_iter=3, step=0.1, M=2, N=4, rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LongCallWarning)
        again = sgd(completion(), np.ones((3, 2)), max_iter=3, step=0.1, M=2, N=4, rng=0)
    np.testing.assert_array_equal(res.x, again.x)
    with pytest.warns(LongCallWarning, match="coreset_path"):
        coreset_path("a_iht", Phi, y, [1, 2, 3])


# --- callables returning out-of-range values (checked where they are used) -----------------------
def test_user_functions_returning_nan_are_named_where_they_are_used():
    from inferopt.fw import QuadraticHull, frank_wolfe
    from inferopt.spectral import CallableOperator, exact_spectral_sum, spectral_sum
    A = spd()
    op = CallableOperator(lambda V: np.full(np.shape(V), np.nan), 6)
    with pytest.raises(ValueError, match="the value returned by matmat must contain only finite values"):
        spectral_sum(op, "log", 1.0, 60.0, M=2, degree=4, rng=0)
    with pytest.raises(ValueError, match="matmat must return an array of shape"):
        CallableOperator(lambda V: A @ V[:, :1], 6).matmat(np.ones((6, 2)))
    with pytest.raises(ValueError, match="the value returned by f"), np.errstate(invalid="ignore"):
        exact_spectral_sum(A, lambda x: np.log(x - 100.0))
    V, b = np.random.default_rng(4).normal(size=(3, 6)), np.ones(3)
    hull = QuadraticHull.from_columns(lambda ids: np.full((6, len(ids)), np.nan), V.T @ b, 3.0,
                                      np.einsum("ij,ij->j", V, V))
    with pytest.raises(ValueError, match="the value returned by columns"):
        frank_wolfe(hull, max_iter=3)


def test_block_cg_checks_x0_and_cg_logdet_grad_checks_m_and_rng_with_given_probes():
    from inferopt.spectral import block_cg, cg_logdet_grad
    A, B = spd(), np.ones((6, 2))
    X, _, _ = block_cg(A, B, x0=np.zeros((6, 2)))
    np.testing.assert_allclose(A @ X, B, atol=1e-6)
    with pytest.raises(ValueError, match="x0 must have the shape of B"):
        block_cg(A, B, x0=np.zeros((5, 2)))
    with pytest.raises(ValueError, match="x0 must contain only finite"):
        block_cg(A, B, x0=np.full((6, 2), np.nan))
    Z = np.random.default_rng(0).choice([-1.0, 1.0], size=(6, 3))
    with pytest.raises(ValueError, match="M"):
        cg_logdet_grad(A, [np.eye(6)], M=-1, Z=Z)
    with pytest.raises(ValueError, match="Z must have shape"):
        cg_logdet_grad(A, [np.eye(6)], Z=Z[:5])
