"""The LANCZOS baseline: stochastic Lanczos quadrature against exact log-dets and imate's SLQ,
block CG against direct solves, the CG log-det gradient against tr(A⁻¹ ∂A) in expectation."""

import numpy as np
import pytest
import scipy.sparse as sp

from inferopt.spectral import (
    block_cg,
    cg_logdet_grad,
    lanczos_tridiagonal,
    rademacher,
    ritz_values,
    slq_logdet,
    slq_quadratic_forms,
)


def random_spd(spd_matrix, d, cond, seed):
    """A random SPD matrix with geometrically spaced eigenvalues of condition number ``cond``."""
    return spd_matrix(d, np.geomspace(1.0 / cond, 1.0, d) * 3.0, seed)


def test_lanczos_tridiagonal_is_orthogonal_projection(spd_matrix):
    A = random_spd(spd_matrix, 40, 100, 0)
    alpha, beta, Q = lanczos_tridiagonal(A, np.ones(40), 12)
    T = np.diag(alpha) + np.diag(beta[:-1], 1) + np.diag(beta[:-1], -1)
    np.testing.assert_allclose(Q.T @ Q, np.eye(12), atol=1e-12)
    np.testing.assert_allclose(Q.T @ A @ Q, T, atol=1e-12)
    theta, res = ritz_values(A, n_steps=40, rng=0)  # full Krylov space: the eigenvalues
    np.testing.assert_allclose(theta, np.linalg.eigvalsh(A), rtol=1e-8)


@pytest.mark.parametrize("cond,rtol", [(10, 1e-4), (1000, 2e-2)])
def test_slq_quadrature_is_exact_per_probe_with_enough_steps(cond, rtol, spd_matrix):
    A = random_spd(spd_matrix, 30, cond, 1)
    Z = rademacher(2, 30, 5)
    lam, U = np.linalg.eigh(A)
    exact = np.einsum("ik,ij,jk->k", Z, (U * np.log(lam)) @ U.T, Z)
    np.testing.assert_allclose(slq_quadratic_forms(A, Z, np.log, n_steps=30), exact, rtol=1e-8)
    # half the steps: Gauss quadrature, accurate but not exact (worse for a wide spectrum)
    half = slq_quadratic_forms(A, Z, np.log, n_steps=15)
    np.testing.assert_allclose(half, exact, rtol=rtol)
    assert np.max(np.abs(half - exact)) > 1e-10


@pytest.mark.parametrize("d,cond,seed", [(200, 100, 0), (300, 1e4, 1)])
def test_slq_logdet_against_exact_and_imate(d, cond, seed, spd_matrix):
    A = random_spd(spd_matrix, d, cond, seed)
    exact = np.linalg.slogdet(A)[1]
    value, se = slq_logdet(A, M=60, n_steps=30, rng=seed)
    assert abs(value - exact) < 4 * se + 1e-6 * abs(exact)
    imate = pytest.importorskip("imate")
    # imate.logdet(A, gram=False, p=1.0, return_info=False, method='slq', **options)
    theirs = imate.logdet(sp.csr_matrix(A), method="slq", min_num_samples=60, max_num_samples=60,
                          lanczos_degree=30, orthogonalize=-1, seed=seed, num_threads=1, verbose=False)
    # side by side: both are Hutchinson estimators of the same quantity; same order of error
    assert abs(theirs - exact) < 6 * se + 1e-6 * abs(exact)
    assert abs(value - theirs) < 8 * se + 1e-6 * abs(exact)


@pytest.mark.parametrize("sparse", [False, True])
def test_block_cg_solves_every_column(sparse, spd_matrix):
    A = random_spd(spd_matrix, 80, 1e3, 3)
    B = np.random.default_rng(0).standard_normal((80, 6))
    X, n_iter, res = block_cg(sp.csr_matrix(A) if sparse else A, B, tol=1e-10)
    np.testing.assert_allclose(X, np.linalg.solve(A, B), rtol=1e-6, atol=1e-8)
    assert np.all(res <= 1e-10) and n_iter <= 80 * 3
    x, _, _ = block_cg(A, B[:, 0], tol=1e-10, x0=X[:, 0])  # warm start at the solution: no work
    np.testing.assert_allclose(x, X[:, 0], rtol=1e-8)


def test_cg_logdet_gradient_is_unbiased(spd_matrix):
    rng = np.random.default_rng(4)
    B = [random_spd(spd_matrix, 25, 5, s) for s in range(2)]
    A = 0.5 * B[0] + 0.7 * B[1] + np.eye(25)
    exact = np.array([np.trace(np.linalg.solve(A, Bi)) for Bi in B])
    est = np.array([cg_logdet_grad(A, B, M=4, tol=1e-10, rng=rng) for _ in range(600)])
    se = est.std(axis=0, ddof=1) / np.sqrt(est.shape[0])
    assert np.all(np.abs(est.mean(axis=0) - exact) < 4 * se)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: slq_logdet(np.eye(5), M=0), "M"),
        (lambda: slq_logdet(np.eye(5), n_steps=0), "n_steps"),
        (lambda: slq_logdet(-np.eye(5), M=3), "positive definite"),
        (lambda: slq_logdet(np.triu(np.ones((5, 5))), M=3), "symmetric"),
        (lambda: block_cg(-np.eye(5), np.ones(5)), "positive definite"),
        (lambda: block_cg(np.eye(5), np.ones(5), tol=0), "tol"),
    ],
)
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def sparse_laplacian_1d(d, shift=0.5):
    return sp.diags([-np.ones(d - 1), (2.0 + shift) * np.ones(d), -np.ones(d - 1)], [-1, 0, 1]).tocsr()


@pytest.mark.parametrize("steps", [1, 5, 12])
def test_three_term_recurrence_matches_full_reorthogonalisation(steps):
    """Large sparse matrices skip re-orthogonalisation (``_reorthogonalise``); before orthogonality
    is lost, the two give the same tridiagonals, hence the same quadratures."""
    from inferopt.spectral.lanczos import _block_lanczos_tridiagonals, _reorthogonalise
    from inferopt.spectral.operators import as_operator

    A = sparse_laplacian_1d(300)
    sparse_op, dense_op = as_operator(A), as_operator(A.toarray())
    assert not _reorthogonalise(sparse_op, steps + 2) and _reorthogonalise(dense_op, steps)
    Z = np.random.default_rng(steps).standard_normal((300, 6))
    Z[:, 0] = 0.0
    Z[0, 0] = 1.0                                          # breaks down only if A e_1 ∝ e_1 (it is not)
    a1, b1, _ = _block_lanczos_tridiagonals(sparse_op, Z, steps)
    a2, b2, _ = _block_lanczos_tridiagonals(dense_op, Z, steps)
    np.testing.assert_allclose(a1, a2, rtol=1e-10)
    np.testing.assert_allclose(b1, b2, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(slq_quadratic_forms(A, Z, np.log, steps), slq_quadratic_forms(A.toarray(), Z, np.log, steps),
                               rtol=1e-10)


def test_three_term_recurrence_stops_a_run_on_an_invariant_subspace():
    from inferopt.spectral._three_term import three_term_tridiagonals
    from inferopt.spectral.operators import as_operator

    A = sp.diags(np.arange(1.0, 101.0)).tocsr()
    Z = np.ones((100, 2))
    Z[:, 1] = 0.0
    Z[[3, 7], 1] = 1.0                                     # lives in a 2-dimensional invariant subspace
    alpha, beta = three_term_tridiagonals(as_operator(A).matrix, Z, 5)
    assert np.all(beta[1, 1:] == 0.0) and np.all(alpha[1, 2:] == 0.0)
    np.testing.assert_allclose(np.sort(np.linalg.eigvalsh(np.diag(alpha[1, :2]) + np.diag(beta[1, :1], 1)
                                                          + np.diag(beta[1, :1], -1))), [4.0, 8.0])
    assert np.all(np.isfinite(alpha)) and np.all(beta[0] > 0)


def test_slq_logdet_on_a_large_sparse_matrix_without_reorthogonalisation():
    d = 4000
    A = sparse_laplacian_1d(d)
    mu = 2.5 - 2.0 * np.cos(np.arange(1, d + 1) * np.pi / (d + 1))
    value, se = slq_logdet(A, M=40, n_steps=40, rng=5)
    assert abs(value - np.log(mu).sum()) < 4 * se + 1e-6 * d


@pytest.mark.parametrize("rows", [1, 7, 64, 4096])
def test_three_term_recurrence_is_the_same_for_any_slab_size(rows):
    """The slab-by-slab passes (``_csr_block``) give the tridiagonals of one pass over all rows,
    and those of full re-orthogonalisation before orthogonality is lost."""
    from inferopt.spectral._three_term import three_term_tridiagonals
    from inferopt.spectral.lanczos import _block_lanczos_tridiagonals
    from inferopt.spectral.operators import as_operator

    B = sp.random(200, 200, density=0.03, random_state=4)
    A = (sparse_laplacian_1d(200) + 0.1 * (B + B.T)).tocsr()                      # an irregular sparsity pattern
    Z = rademacher(5, 200, 4)
    alpha, beta = three_term_tridiagonals(A, Z, 8, rows=rows)
    a2, b2, _ = _block_lanczos_tridiagonals(as_operator(A.toarray()), Z, 8)
    np.testing.assert_allclose(alpha, a2, rtol=1e-10)
    np.testing.assert_allclose(beta, b2, rtol=1e-10, atol=1e-12)
