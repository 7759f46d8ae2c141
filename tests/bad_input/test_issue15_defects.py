"""Issue 15: each defect the issue lists, as a call that used to return a number (or fail inside
numpy) and must now raise a clear ``ValueError``/``TypeError`` naming the argument. (The
min-norm-point ``converged`` flag, the QuadraticHull drift and the step docs are tested in
tests/fw/test_fw_mnp_factorisation.py and tests/fw/test_fw_drift.py.)"""

import warnings

import numpy as np
import pytest

import inferopt.coresets as cs
import inferopt.herding as hd
import inferopt.spectral as spec
from inferopt.boosting import GaussianMixtureTarget, Mixture
from inferopt.coresets.refit import nnls_on_support
from inferopt.fw import QuadraticHull, hull_quadratic

RNG = np.random.default_rng(0)
PHI = RNG.normal(size=(6, 8))
Y = PHI.sum(axis=1)
SOLVERS = [cs.iht, cs.a_iht, cs.a_iht_ii, cs.a_iht_batch, cs.giga, cs.uniform, cs.hilbert_frank_wolfe, cs.sparsevi]


def raises(exc, match, fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")     # no ComplexWarning / RuntimeWarning on the way
        with pytest.raises(exc, match=match):
            fn(*args, **kwargs)


@pytest.mark.parametrize("solver", SOLVERS, ids=lambda f: f.__name__)
def test_complex_phi_is_refused_not_truncated(solver):
    raises(TypeError, "Phi must be real", solver, PHI + 1j, Y, 2)


@pytest.mark.parametrize("solver", SOLVERS + [lambda P, y, k: cs.coreset_path("giga", P, y, k)],
                         ids=lambda f: getattr(f, "__name__", "coreset_path"))
def test_k_true_is_not_one(solver):
    raises(TypeError, "not a boolean", solver, PHI, Y, True)


@pytest.mark.parametrize("weights, match", [
    (np.r_[np.nan, np.zeros(7)], "weights must contain only finite values"),
    (np.r_[-1.0, np.ones(7)], "weights must be >= 0"),
])
def test_refit_refuses_nan_and_negative_weights(weights, match):
    raises(ValueError, match, cs.refit, PHI, Y, weights)


@pytest.mark.parametrize("support", [[9], [-1], [0.5], [True, False]])
def test_nnls_on_support_refuses_bad_indices(support):
    with pytest.raises((ValueError, TypeError), match="support"):
        nnls_on_support(PHI, Y, support)


@pytest.mark.parametrize("solver", [cs.iht, cs.a_iht, cs.a_iht_ii, cs.giga], ids=lambda f: f.__name__)
def test_all_zero_phi_is_refused_by_every_solver_alike(solver):
    raises(ValueError, "Phi must have a non-zero entry", solver, np.zeros((6, 8)), np.zeros(6), 2)


def test_non_psd_gram_is_refused():
    raises(ValueError, "gram must be positive semidefinite", hull_quadratic,
           gram=[[1.0, -2.0], [-2.0, 1.0]], c=[0.0, 0.0], b_sqnorm=0.0)
    raises(ValueError, "gram must be positive semidefinite", QuadraticHull.from_gram,
           [[1.0, -2.0], [-2.0, 1.0]], [0.0, 0.0], 0.0)


def test_b_sqnorm_inconsistent_with_c_is_refused():
    # ||b||^2 = 1 but c = V'b = (2, 0) with ||v_1|| = 1 needs ||b|| >= 2
    raises(ValueError, "b_sqnorm must be consistent with gram and c", hull_quadratic,
           gram=np.eye(2), c=[2.0, 0.0], b_sqnorm=1.0)


def test_consistent_gram_still_solves():
    V, b = RNG.normal(size=(3, 5)), RNG.normal(size=3)
    res = hull_quadratic(gram=V.T @ V, c=V.T @ b, b_sqnorm=float(b @ b), variant="mnp")
    assert res.objective[-1] >= 0 and res.objective[-1] == pytest.approx(
        float(np.sum((b - V @ res.dense_weights(5)) ** 2)), abs=1e-12)


def test_trig_density_must_be_non_negative():
    raises(ValueError, "non-negative density", hd.TrigDensity, [1.0, 0.9])
    assert hd.TrigDensity([1.0, 0.5]).pdf(np.linspace(0, 1, 101)).min() >= 0   # the boundary case is allowed


@pytest.mark.parametrize("call, match", [
    (lambda: hd.herd(hd.SobolevTarget(1, hd.TrigDensity.uniform()), [], 5), "candidates must not be empty"),
    (lambda: hd.welling_herding(hd.SobolevTarget(1, hd.TrigDensity.uniform()), [], 3), "candidates must not be empty"),
    (lambda: hd.EmpiricalTarget(hd.SobolevTarget(1, hd.TrigDensity.uniform()), []), "sample must not be empty"),
    (lambda: hd.mmd2(hd.SobolevTarget(1, hd.TrigDensity.uniform()), []), "points must not be empty"),
    (lambda: hd.mmd2_uniform_prefix(hd.SobolevTarget(1, hd.TrigDensity.uniform()), []), "points must not be empty"),
    (lambda: Mixture("gaussian", np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0)), "locs"),
    (lambda: GaussianMixtureTarget(np.zeros((0, 2)), np.zeros((0, 2))), "means must not be empty"),
    (lambda: hd.herd(hd.FeatureTarget(np.zeros(3)), np.ones((4, 2)), 3), "candidates must have D = 3 columns"),
])
def test_empty_inputs_and_dimension_mismatch(call, match):
    raises(ValueError, match, call)


@pytest.mark.parametrize("call, exc, match", [
    (lambda: hd.fourier_weight(0, 1), ValueError, "m must hold integer frequencies >= 1"),
    (lambda: hd.fourier_weight(3, 0), ValueError, "s must be >= 1"),
    (lambda: hd.sobolev_kernel(np.r_[0.1], np.r_[0.2], True), TypeError, "s must be an integer, not a boolean"),
    (lambda: hd.entropy([-0.5, 1.5]), ValueError, "p must be >= 0"),
    (lambda: hd.entropy([0.2, 0.2]), ValueError, "p must sum to 1"),
    (lambda: hd.herd(hd.SobolevTarget(1, hd.TrigDensity.uniform()), np.linspace(0, 1, 50), 5, snapshots=[3, 9]),
     ValueError, "snapshots must be <= 5"),
])
def test_herding_helpers_refuse_out_of_range_values(call, exc, match):
    raises(exc, match, call)


def complex_hermitian(d=20, seed=0):
    rng = np.random.default_rng(seed)
    B = rng.normal(size=(d, d)) + 1j * rng.normal(size=(d, d))
    return B @ B.conj().T + d * np.eye(d)


@pytest.mark.parametrize("call", [
    lambda A: spec.spectral_sum(A, "log", 1.0, 500.0, degree=10, rng=0),
    lambda A: spec.slq_logdet(A, rng=0),
    lambda A: spec.exact_spectral_sum(A, np.log),
])
def test_complex_hermitian_matrices_are_refused(call):
    raises(TypeError, "A must be real", call, complex_hermitian())
