"""Bad input raises ValueError naming the argument and what is allowed."""

import numpy as np
import pytest

import inferopt.coresets as cs
from inferopt.coresets import GaussianMeanModel, LinearRegressionModel, gaussian_kl

SOLVERS = {
    "iht": cs.iht,
    "a_iht": cs.a_iht,
    "a_iht_ii": cs.a_iht_ii,
    "a_iht_batch": cs.a_iht_batch,
    "giga": cs.giga,
    "sparsevi": cs.sparsevi,
    "uniform": cs.uniform,
}
SOLVERS["frank_wolfe"] = cs.hilbert_frank_wolfe

PHI = np.arange(1.0, 13.0).reshape(3, 4)
Y = PHI.sum(axis=1)


@pytest.mark.parametrize("name", sorted(SOLVERS))
@pytest.mark.parametrize(
    "phi,y,k,match",
    [
        (PHI, Y, 0, "k must be >= 1"),
        (PHI, Y, 5, "k must be <= 4"),
        (PHI, Y, 1.5, "k must be an integer"),
        (np.where(PHI == 5, np.nan, PHI), Y, 2, "Phi must contain only finite"),
        (np.where(PHI == 5, np.inf, PHI), Y, 2, "Phi must contain only finite"),
        (PHI, np.array([1.0, np.inf, 2.0]), 2, "y must contain only finite"),
        (PHI, Y[:2], 2, "y must have length Phi.shape\\[0\\] = 3"),
        (PHI[0], Y, 2, "Phi must be 2-dimensional"),
    ],
)
def test_solvers_reject_bad_input(name, phi, y, k, match):
    with pytest.raises(ValueError, match=match):
        SOLVERS[name](phi, y, k)


@pytest.mark.parametrize("name", ["giga", "sparsevi", "uniform"])
def test_grids_reject_bad_sizes(name):
    with pytest.raises(ValueError, match="k must be <= 4"):
        SOLVERS[name](PHI, Y, [1, 2, 9])
    with pytest.raises(ValueError, match="k must be"):
        SOLVERS[name](PHI, Y, [])


def test_option_errors_name_the_option():
    with pytest.raises(ValueError, match="step must be one of"):
        cs.a_iht(PHI, Y, 2, step="half")
    with pytest.raises(ValueError, match="tol must be >= 0"):
        cs.a_iht_ii(PHI, Y, 2, tol=-1.0)
    with pytest.raises(ValueError, match="max_iter must be >= 1"):
        cs.a_iht(PHI, Y, 2, max_iter=0)
    with pytest.raises(ValueError, match="batch_fraction must be <= 1"):
        cs.a_iht_batch(PHI, Y, 2, batch_fraction=2.0)
    with pytest.raises(ValueError, match="optimizer must be one of"):
        cs.sparsevi(PHI, Y, 2, optimizer="lbfgs")
    with pytest.raises(TypeError, match="rng must be"):
        cs.uniform(PHI, Y, 2, rng="seed")
    with pytest.raises(ValueError, match="solver must be one of"):
        cs.coreset_path("omp", PHI, Y, [1])
    with pytest.raises(ValueError, match="tangent\\(w\\) must return an array with n = 4 columns"):
        cs.sparsevi(PHI, Y, 2, tangent=lambda w: np.ones((3, 5)))


def test_models_reject_bad_covariances_and_shapes():
    x = np.ones((5, 2))
    with pytest.raises(ValueError, match="Sigma0 must be positive definite"):
        GaussianMeanModel(x, np.zeros(2), np.array([[1.0, 2.0], [2.0, 1.0]]), np.eye(2))
    with pytest.raises(ValueError, match="Sigma must be symmetric"):
        GaussianMeanModel(x, np.zeros(2), np.eye(2), np.array([[1.0, 0.5], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="mu0 must have length D = 2"):
        GaussianMeanModel(x, np.zeros(3), np.eye(2), np.eye(2))
    with pytest.raises(ValueError, match="x must contain only finite"):
        GaussianMeanModel(np.full((5, 2), np.nan), np.zeros(2), np.eye(2), np.eye(2))
    with pytest.raises(ValueError, match="noise_var must be > 0"):
        LinearRegressionModel(x, np.ones(5), np.zeros(2), np.eye(2), 0.0)
    with pytest.raises(ValueError, match="y must have length N = 5"):
        LinearRegressionModel(x, np.ones(4), np.zeros(2), np.eye(2), 1.0)
    m = GaussianMeanModel(x, np.zeros(2), np.eye(2), np.eye(2))
    with pytest.raises(ValueError, match="w must be non-negative"):
        m.posterior(-np.ones(5))
    with pytest.raises(ValueError, match="w must have shape"):
        m.posterior(np.ones(4))
    with pytest.raises(ValueError, match="constant must be one of"):
        m.tangent(constant="paper")


def test_kl_rejects_non_spd_and_mismatched_shapes():
    with pytest.raises(ValueError, match="cov1 must be positive definite"):
        gaussian_kl(np.zeros(2), np.eye(2), np.zeros(2), -np.eye(2))
    with pytest.raises(ValueError, match="mu0 and mu1 must have the same length"):
        gaussian_kl(np.zeros(2), np.eye(2), np.zeros(3), np.eye(3))
    with pytest.raises(ValueError, match="mu1 must contain only finite"):
        gaussian_kl(np.zeros(2), np.eye(2), np.array([0.0, np.nan]), np.eye(2))


def test_sparsevi_rejects_tangent_and_covariance_together():
    with pytest.raises(ValueError, match="give tangent or covariance, not both"):
        cs.sparsevi(PHI, Y, 2, tangent=lambda w: PHI, covariance=lambda w: (np.ones(4), np.ones(4)))
    with pytest.raises(ValueError, match="covariance\\(w\\) must return two vectors of length n = 4"):
        cs.sparsevi(PHI, Y, 2, covariance=lambda w: (np.ones(3), np.ones(3)))
