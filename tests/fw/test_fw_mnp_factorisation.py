"""Wolfe's min-norm-point with an updated Cholesky factor of the corral (inferopt.fw.mnp).

Ground truth: fresh Cholesky factors and Gram matrices recomputed from explicit points, the
affine minimiser from an SVD-based least-squares parametrisation of ``sum beta = 1``, a dense
re-implementation of Wolfe's algorithm that re-solves the bordered KKT system at every minor
cycle (the pre-update solver), SLSQP on the simplex QP, and the KKT conditions of the QP.
"""

import numpy as np
import pytest
import scipy.linalg

from inferopt.fw import QuadraticHull, hull_quadratic, min_norm_point, simplex_reweight
from inferopt.fw.mnp import UPDATE_RTOL, CorralFactor

from test_fw_polytope import reference_optimum


def stopped_without_budget(res):
    """With ``tol = 0`` Wolfe's algorithm ends on a floating-point stop (``converged`` only if the gap
    reached 0); either way the budget was not what stopped it. Optimality is asserted separately."""
    assert res.converged == (res.info["stop"] == "gap")
    return res.info["stop"] != "max_iter"


def corral_matrix(P, ids, kappa):
    """Wolfe's ``M = kappa 11' + P_S'P_S`` straight from the points."""
    Q = P[:, ids]
    return kappa + Q.T @ Q


def test_updated_factor_equals_fresh_cholesky_after_random_appends_and_deletions():
    rng = np.random.default_rng(0)
    P = rng.normal(size=(40, 60))
    kappa = 3.0
    ids = [0]
    factor = CorralFactor(np.sqrt(corral_matrix(P, ids, kappa)))
    n_del = 0
    for _ in range(150):
        free = sorted(set(range(60)) - set(ids))
        if len(ids) > 1 and (rng.random() < 0.4 or len(ids) >= 30):
            j = int(rng.integers(len(ids)))
            factor.delete(j)
            ids.pop(j)
            n_del += 1
        else:
            s = int(rng.choice(free))
            m = corral_matrix(P, ids + [s], kappa)
            assert factor.append(m[:-1, -1], m[-1, -1]) > UPDATE_RTOL
            ids.append(s)
        M = corral_matrix(P, ids, kappa)
        R = factor.R
        assert R.shape == (len(ids), len(ids)) and np.allclose(np.tril(R, -1), 0.0, atol=0.0)
        np.testing.assert_allclose(R.T @ R, M, rtol=0, atol=1e-11 * np.abs(M).max())
        # the Cholesky factor is unique up to the signs of its rows
        np.testing.assert_allclose(np.abs(R), np.abs(scipy.linalg.cholesky(M)), rtol=0, atol=1e-10)
    assert n_del > 30


def affine_minimiser_svd(P):
    """``argmin ||P beta||`` s.t. ``sum beta = 1`` by ``beta = e/k + N z`` (N: basis of 1-perp), lstsq."""
    k = P.shape[1]
    N = scipy.linalg.null_space(np.ones((1, k)))
    z = np.linalg.lstsq(P @ N, -P @ np.full(k, 1.0 / k), rcond=None)[0]
    return np.full(k, 1.0 / k) + N @ z


@pytest.mark.parametrize("m,k", [(10, 4), (5, 6)])  # (5, 6): P'P singular, the origin in the affine hull
def test_affine_minimiser_from_two_triangular_solves(m, k):
    rng = np.random.default_rng(m)
    P = rng.normal(size=(m, k))
    factor, rel = CorralFactor.fresh(corral_matrix(P, list(range(k)), 1.0))
    assert factor is not None and rel > 1e-6
    beta = factor.affine_minimiser()
    np.testing.assert_allclose(beta, affine_minimiser_svd(P), atol=1e-10)
    assert beta.sum() == pytest.approx(1.0, abs=1e-12)


def dense_wolfe(V, b, init, max_iter=200):
    """Wolfe's algorithm re-solving the bordered KKT system ``[P'P 1; 1' 0]`` from scratch at every
    minor cycle, on explicit points ``P = V - b`` (the solver before the factor was updated).
    Stops when the gap ``2 (||x||^2 - <x, p_s>)`` reaches rounding level (1e-13 of the start)."""
    P = V - b[:, None]
    S, lam = np.array([init]), np.ones(1)
    atoms, minors, objective = [], [], [float(P[:, init] @ P[:, init])]
    for _ in range(max_iter):
        x = P[:, S] @ lam
        s = int(np.argmin(P.T @ x))
        if x @ x - P[:, s] @ x <= 1e-13 * objective[0] or s in S:
            break
        S, lam, n_minor = np.append(S, s), np.append(lam, 0.0), 0
        while True:
            k = len(S)
            kkt = np.block([[P[:, S].T @ P[:, S], np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
            beta = np.linalg.solve(kkt, np.append(np.zeros(k), 1.0))[:k]
            if np.all(beta > 0):
                lam = beta
                break
            neg = np.flatnonzero(beta <= 0)
            ratios = np.where(lam[neg] > 0, lam[neg] / (lam[neg] - beta[neg] + (lam[neg] == 0)), 0.0)
            lam = lam + ratios.min() * (beta - lam)
            lam[neg[np.argmin(ratios)]] = 0.0
            S, lam, n_minor = S[lam > 0], lam[lam > 0], n_minor + 1
        atoms.append(s)
        minors.append(n_minor)
        objective.append(float(np.sum((P[:, S] @ lam) ** 2)))
    return np.array(atoms), np.array(minors), np.array(objective)


def kkt_violation(V, b, alpha):
    """Simplex-QP optimality: equal gradients on the support, no smaller gradient off it."""
    grad = 2.0 * V.T @ (V @ alpha - b)
    on = grad[alpha > 0]
    return max(float(np.ptp(on)), float(on.max() - grad.min()))


POLYTOPES = {"interior": (8, 30, None), "near": (8, 30, 0.5), "far": (25, 15, 1.5)}


def random_polytope(seed, kind):
    """Atoms V (m x n), target b inside the hull or ``scale * N(0, I)``, and the farthest atom."""
    m, n, scale = POLYTOPES[kind]
    rng = np.random.default_rng(seed)
    V = rng.normal(size=(m, n))
    b = V @ rng.dirichlet(np.ones(n)) if scale is None else scale * rng.normal(size=m)
    return V, b, int(np.argmax(np.sum((V - b[:, None]) ** 2, axis=0)))  # start far away: more drops


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", POLYTOPES)
def test_mnp_matches_dense_kkt_solver_and_qp_optimum(seed, kind):
    V, b, far = random_polytope(seed, kind)
    n = V.shape[1]
    res = hull_quadratic(V, b, variant="mnp", tol=0.0, init=far)
    atoms, minors, objective = dense_wolfe(V, b, far)
    # identical iterates to the refactorising solver (same atoms, drops and objective) ...
    np.testing.assert_array_equal(res.info["atom"][: len(atoms)], atoms)
    np.testing.assert_array_equal(res.info["n_minor"][: len(minors)], minors)
    np.testing.assert_allclose(res.objective[: len(objective)], objective, rtol=1e-9, atol=1e-12)
    # ... up to a few more rounding-level cycles (the library runs with tol = 0)
    assert len(res.info["atom"]) <= len(atoms) + 3 and np.all(res.objective[len(objective):] < 1e-12)
    assert stopped_without_budget(res) and np.all(res.info["refactor"] == "")
    # finite termination at the optimum of the QP
    alpha = res.dense_weights(n)
    assert alpha.min() >= 0.0 and alpha.sum() == pytest.approx(1.0, abs=1e-12)
    assert kkt_violation(V, b, alpha) < 1e-9
    assert res.objective[-1] == pytest.approx(reference_optimum(V, b), abs=1e-8)


def test_minor_cycles_are_exercised():
    """The comparison above covers drops (Givens deletions), not only appends."""
    drops = [hull_quadratic(*random_polytope(seed, "near")[:2], variant="mnp", tol=0.0,
                            init=random_polytope(seed, "near")[2]).info["n_minor"].sum() for seed in range(6)]
    assert min(drops) >= 1 and sum(drops) >= 10


@pytest.mark.parametrize("interior", [True, False])
def test_affinely_dependent_atoms(interior):
    """Atoms in a 2-D affine plane of R^3 and duplicated atoms: every corral stays affinely
    independent (at most 3 atoms), and the optimum is reached."""
    rng = np.random.default_rng(5)
    U = rng.normal(size=(2, 12))
    V = np.vstack([U, np.full(12, 2.0)])             # the plane z = 2
    V = np.hstack([V, V[:, :4]])                      # atoms 12..15 duplicate atoms 0..3
    b = V @ rng.dirichlet(np.ones(16)) if interior else np.array([*(3.0 * rng.normal(size=2)), 0.0])
    res = hull_quadratic(V, b, variant="mnp", tol=0.0)
    assert stopped_without_budget(res) and len(res.atoms) <= 3
    assert max(res.info["n_active"]) <= 3
    alpha = res.dense_weights(16)
    assert kkt_violation(V, b, alpha) < 1e-9
    assert res.objective[-1] == pytest.approx(reference_optimum(V, b), abs=1e-8)


def near_duplicate_problem(eps):
    """A corral atom and a copy moved by ``eps`` towards ``b``: the copy improves the objective by
    ~2 eps, but is affinely almost dependent on its original (pivot ~ eps^2)."""
    rng = np.random.default_rng(11)
    V = np.hstack([np.eye(3), 3.0 + rng.random((3, 5))])
    V = np.hstack([V, V[:, [0]] * (1.0 - eps)])       # atom 8: atom 0 shrunk towards b = 0
    return V, np.zeros(3)


def test_near_singular_append_falls_back_to_a_fresh_factorisation():
    V, b = near_duplicate_problem(1e-6)               # pivot ~ 1e-12 <= UPDATE_RTOL, far above rounding
    res = hull_quadratic(V, b, variant="mnp", tol=0.0, init=0)
    reasons = [r for r in res.info["refactor"] if r]
    assert len(reasons) >= 1 and "fresh Cholesky" in reasons[0] and "UPDATE_RTOL" in reasons[0]
    assert stopped_without_budget(res) and 8 in res.atoms.tolist()
    alpha = res.dense_weights(9)
    assert kkt_violation(V, b, alpha) < 1e-12
    assert res.objective[-1] == pytest.approx(reference_optimum(V, b), abs=1e-12)


def test_atom_dependent_to_working_precision_stops_with_reason():
    V, b = near_duplicate_problem(1e-10)               # pivot ~ 1e-20: not representable in the Gram
    res = hull_quadratic(V, b, variant="mnp", tol=0.0, init=0)
    assert not res.converged and res.info["stop"] == "dependent"
    assert "affinely dependent on the corral to working precision" in res.message
    alpha = res.dense_weights(9)
    assert alpha.min() >= 0.0 and alpha.sum() == pytest.approx(1.0, abs=1e-12)
    # the optimum up to what the Gram matrix resolves (objective loss ~ 2 eps = 2e-10)
    assert res.objective[-1] == pytest.approx(reference_optimum(V, b), abs=1e-9)
    assert len(res.info["gap"]) == len(res.objective)


def test_exact_duplicate_of_the_optimal_vertex_stops_at_the_optimum():
    V = np.hstack([np.eye(3), np.eye(3)[:, [0]], 2.0 * np.ones((3, 1))])   # atom 3 = atom 0
    b = np.array([2.0, -1.0, -1.0])
    for init in (0, 3):
        res = min_norm_point(QuadraticHull.from_vectors(V, b), tol=0.0, init=init)
        assert res.converged and res.atoms.tolist() == [init]
        assert res.objective[-1] == pytest.approx(reference_optimum(V, b), abs=1e-10)


def test_simplex_reweight_on_a_rank_deficient_gram():
    """``-proj`` on more atoms than dimensions, with repeats: the Gram is singular."""
    rng = np.random.default_rng(2)
    V = rng.normal(size=(4, 20))
    V = np.hstack([V, V[:, :5]])
    b = rng.normal(size=4)
    res = simplex_reweight(V.T @ V, V.T @ b, float(b @ b))
    assert res.converged and len(res.atoms) <= 5
    assert res.objective[-1] == pytest.approx(reference_optimum(V, b), abs=1e-8)


@pytest.mark.parametrize("kind", POLYTOPES)
def test_warm_start_from_all_atoms_reaches_the_optimum(kind):
    """``init`` = every atom: affinely dependent ones are left out ('interior', 'near': 30 atoms
    in R^8), minor cycles drop the rest down to the optimal support."""
    V, b, _ = random_polytope(0, kind)
    n = V.shape[1]
    cold = simplex_reweight(V.T @ V, V.T @ b, float(b @ b))
    warm = simplex_reweight(V.T @ V, V.T @ b, float(b @ b), init=range(n))
    assert stopped_without_budget(warm) and warm.info["n_minor_start"] >= 1
    alpha = warm.dense_weights(n)
    assert alpha.min() >= 0.0 and alpha.sum() == pytest.approx(1.0, abs=1e-12)
    assert kkt_violation(V, b, alpha) < 1e-9
    assert warm.objective[-1] == pytest.approx(reference_optimum(V, b), abs=1e-8)
    assert warm.objective[-1] == pytest.approx(cold.objective[-1], abs=1e-10)


def test_warm_start_from_the_optimal_support_needs_no_major_cycle():
    V, b, _ = random_polytope(1, "far")
    cold = hull_quadratic(V, b, variant="mnp", tol=1e-13)
    warm = min_norm_point(QuadraticHull.from_vectors(V, b), tol=1e-13, init=cold.atoms[::-1])
    assert warm.converged and warm.n_iter == 0 and warm.info["n_minor_start"] == 0
    np.testing.assert_allclose(warm.dense_weights(15), cold.dense_weights(15), atol=1e-12)


@pytest.mark.parametrize("init", [[], [1, 1], [0, 15]])
def test_bad_warm_start_raises(init):
    V, b, _ = random_polytope(1, "far")
    with pytest.raises(ValueError, match="init must"):
        min_norm_point(QuadraticHull.from_vectors(V, b), init=init)


@pytest.mark.parametrize("tol", [0.0, 1e-12, 1e-9])
@pytest.mark.parametrize("seed", range(4))
def test_converged_means_gap_at_most_tol_on_near_degenerate_clouds(seed, tol):
    """Issue 15: points that nearly coincide (relative noise 1e-8) make Wolfe's algorithm stop on a
    floating-point reason with a gap far above rounding; ``converged`` must still mean gap <= tol."""
    rng = np.random.default_rng(seed)
    centre = rng.normal(size=(6, 1))
    V = centre + 1e-8 * rng.normal(size=(6, 40)) * np.abs(centre)
    b = rng.normal(size=6)
    res = hull_quadratic(V, b, variant="mnp", tol=tol)
    assert res.converged == (res.info["gap"][-1] <= tol)
    assert res.converged == (res.info["stop"] == "gap")
    assert res.info["stop"] in ("gap", "in_corral", "dependent", "no_decrease", "max_iter")
    if not res.converged:
        assert "gap" in res.message and res.info["stop"] != "gap"
