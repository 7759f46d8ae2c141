"""Issue 26: the matrix-completion model (Sec. 5.1) against independent truth, and its reference solver."""

import numpy as np
import pytest

from inferopt.datasets.movielens import synthetic_low_rank_ratings
from inferopt.spectral import MatrixCompletion, gd
from inferopt.spectral.completion import reference_solution


@pytest.fixture(scope="module")
def problem():
    D = synthetic_low_rank_ratings(14, 9, 2, 80, rng=3, test_fraction=0.2, noise=0.3)
    return MatrixCompletion(D["rows"], D["cols"], D["values"], D["shape"], lam=0.5, eps=2.0, test=D["test"], rng=0)


def test_objective_is_the_papers_formula_by_an_svd(problem):
    """tr((θθᵀ + εI)^{1/2}) + λ Σ_Ω (θ_ij − R_ij)² from the singular values of θ (not the Gram eigenvalues)."""
    rng = np.random.default_rng(0)
    for _ in range(3):
        theta = rng.uniform(0, 5, problem.shape)
        sv = np.linalg.svd(theta, compute_uv=False)
        spectral = np.sum(np.sqrt(sv ** 2 + problem.eps)) + (problem.shape[0] - sv.size) * np.sqrt(problem.eps)
        data = problem.lam * np.sum((theta[problem.rows, problem.cols] - problem.values) ** 2)
        assert problem.objective(theta) == pytest.approx(spectral + data, rel=1e-12)


def test_reference_solution_meets_projected_gd_run_to_convergence(problem):
    """L-BFGS-B and projected GD (step 1/L, 20,000 steps) find the same minimiser of the convex objective;
    the reference satisfies the box's optimality condition θ = Π(θ − η∇F(θ))."""
    theta, info = reference_solution(problem)
    assert info["converged"] and info["objective"] == pytest.approx(problem.objective(theta), rel=1e-14)
    L = 2 * problem.lam + 1 / np.sqrt(problem.eps)       # Lipschitz bound of ∇F (data term + spectral term)
    run = gd(problem, np.zeros(problem.shape), max_iter=20000, step=1 / L, eval_every=20000)
    assert run.objective[-1] == pytest.approx(info["objective"], rel=1e-9)
    np.testing.assert_allclose(run.x, theta, atol=1e-4)
    grad = problem.exact_spectral_grad(theta) + problem.g_grad(theta)
    assert np.abs(theta - problem.project(theta - grad / L)).max() < 1e-5


def test_reference_solution_refuses_other_problems():
    with pytest.raises(TypeError, match="problem must be a MatrixCompletion"):
        reference_solution(object())
