"""Logistic / Poisson coreset problem, evaluation and trials (Zhang et al. 2021, Sec. 5.3)
against independent truth: explicit-inverse KL formulas, Laplace fits of the full model
with zero weights, sample covariances, NNLS optimality."""

import numpy as np
import pytest
import pandas as pd

from inferopt.coresets import GLMCoresetProblem
from inferopt.datasets.glm_data import GLM_DATASETS, load_glm, whiten
from inferopt.experiment.coresets import run_glm_phases, run_glm_trial, run_glm_trials, trial_matrix
from inferopt.models import LogisticRegression, PoissonRegression, laplace_approximation


def kl_explicit(m0, S0, m1, S1):
    """KL(N0 || N1) with explicit inverses and determinants."""
    P1 = np.linalg.inv(S1)
    d = m1 - m0
    return 0.5 * (np.trace(P1 @ S0) + d @ P1 @ d - m0.size + np.log(np.linalg.det(S1) / np.linalg.det(S0)))


def small_logistic(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-X @ [2.0, -1.0])), 1.0, -1.0)
    return LogisticRegression(np.column_stack([X, np.ones(n)]), y)


def test_whiten_gives_zero_mean_identity_covariance():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((400, 3)) @ np.array([[2.0, 0.5, 0.0], [0.0, 1.0, 0.3], [0.0, 0.0, 0.2]]) + 5.0
    W = whiten(X)
    assert np.allclose(W.mean(axis=0), 0.0, atol=1e-12)
    assert np.allclose(np.cov(W, rowvar=False), np.eye(3), atol=1e-8)


@pytest.mark.parametrize("name", [n for n in GLM_DATASETS if n != "phishing_onehot"])
def test_small_files_are_the_papers_n500_sets(name):
    data = load_glm(name)
    assert data.n == 500
    assert np.allclose(np.cov(data.X, rowvar=False), np.eye(data.X.shape[1]), atol=1e-6)
    if data.likelihood == "logistic":
        assert set(np.unique(data.y)) == {-1.0, 1.0}
        assert isinstance(data.model(), LogisticRegression)
    else:
        assert np.all(data.y >= 0) and np.all(data.y == np.round(data.y))
        assert isinstance(data.model(), PoissonRegression)


def test_subsample_is_uniform_rows_of_the_full_file_and_reproducible():
    a = load_glm("synth_poiss", "large", n=50, rng=3)
    b = load_glm("synth_poiss", "large", n=50, rng=3)
    assert a.n == 50 and np.array_equal(a.y, b.y) and np.array_equal(a.X, b.X)
    with pytest.raises(ValueError, match="size"):
        load_glm("synth_lr", "medium")
    with pytest.raises(ValueError, match="name"):
        load_glm("nope")


def test_synthetic_poisson_map_recovers_theta_with_plus_sign():
    # rate log(1 + e^{z'θ}) with θ = [1, 0] (the + sign of the authors' generator)
    lap = laplace_approximation(load_glm("synth_poiss", "large").model())
    assert lap.mean[0] == pytest.approx(1.0, abs=0.1) and abs(lap.mean[1]) < 0.1


def test_weighted_laplace_on_support_equals_full_model_with_zero_weights():
    model = small_logistic()
    prob = GLMCoresetProblem(model, 50, rng=0)
    w = np.zeros(model.n)
    w[[3, 10, 20, 41]] = [5.0, 2.0, 7.5, 1.0]
    sub = prob.weighted_laplace(w)
    full = laplace_approximation(model, w)
    assert np.allclose(sub.mean, full.mean, atol=1e-7)
    assert np.allclose(sub.cov, full.cov, atol=1e-7)
    prior = prob.weighted_laplace(np.zeros(model.n))
    assert np.allclose(prior.mean, 0.0) and np.allclose(prior.cov, np.eye(3))


def test_evaluate_matches_explicit_kl_and_is_zero_at_full_weights():
    model = small_logistic(2)
    prob = GLMCoresetProblem(model, 50, rng=0)
    mu, S = prob.posterior.mean, prob.posterior.cov
    w = np.zeros(model.n)
    w[:5] = 12.0
    lap = laplace_approximation(model, w)
    ev = prob.evaluate(np.stack([np.ones(model.n), w, np.zeros(model.n)]))
    assert ev["forward_kl"][0] == pytest.approx(0.0, abs=1e-8)
    assert ev["map_distance"][0] == pytest.approx(0.0, abs=1e-6)
    assert ev["forward_kl"][1] == pytest.approx(kl_explicit(mu, S, lap.mean, lap.cov), rel=1e-6)
    assert ev["reverse_kl"][1] == pytest.approx(kl_explicit(lap.mean, lap.cov, mu, S), rel=1e-6)
    assert ev["reverse_kl"][2] == pytest.approx(kl_explicit(np.zeros(3), np.eye(3), mu, S), rel=1e-6)
    assert np.allclose(ev["symmetric_kl"], ev["forward_kl"] + ev["reverse_kl"])
    assert ev["map_distance"][1] == pytest.approx(np.linalg.norm(lap.mean - mu), rel=1e-6)


def test_projection_gram_approximates_loglik_covariance_under_laplace():
    model = small_logistic(4, n=30)
    prob = GLMCoresetProblem(model, 4000, rng=1)
    assert np.allclose(prob.Phi.mean(axis=0), 0.0, atol=1e-12)
    assert np.allclose(prob.y, prob.Phi.sum(axis=1))
    # independent estimate of Cov_π̂[L_i, L_j] from other draws
    L = model.loglik(prob.posterior.sample(40000, np.random.default_rng(99)))
    C = np.cov(L, rowvar=False)
    G = prob.Phi.T @ prob.Phi * 4000 / 3999
    assert np.max(np.abs(G - C)) < 0.15 * np.max(np.abs(C))


def test_sparsevi_tangent_samples_the_weighted_laplace():
    model = small_logistic(5, n=30)
    prob = GLMCoresetProblem(model, 20, rng=0)
    tangent = prob.sparsevi_tangent(20000, rng=3)
    w = np.zeros(model.n)
    w[:4] = 3.0
    V = tangent(w)
    lap = laplace_approximation(model, w)
    L = model.loglik(lap.sample(40000, np.random.default_rng(7)))
    C = np.cov(L, rowvar=False)
    assert np.max(np.abs(V.T @ V - C)) < 0.1 * np.max(np.abs(C))
    with pytest.raises(ValueError, match="n_samples"):
        prob.sparsevi_tangent(1)


def test_trial_refits_are_nnls_optimal_and_trials_independent_of_n_jobs():
    opts = dict(n_projections=40, max_iter=20, sparsevi_steps=2, sparsevi_samples=10)
    methods = ["uniform", "giga", "giga_refit", "sparsevi", "a_iht", "a_iht_batch"]
    one = run_glm_trials("synth_poiss", methods, [2, 6], n_trials=2, seed=5, n_jobs=1, **opts)
    two = run_glm_trials("synth_poiss", methods, [2, 6], n_trials=2, seed=5, n_jobs=2, **opts)
    cols = ["forward_kl", "reverse_kl", "map_distance", "rel_error", "support"]
    assert np.allclose(one[cols].to_numpy(), two[cols].to_numpy(), rtol=1e-6, atol=1e-9)
    base = one[one.method == "giga"].set_index(["trial", "k"]).rel_error
    refit = one[one.method == "giga_refit"].set_index(["trial", "k"]).rel_error
    assert np.all(refit <= base + 1e-12)
    ks, Y = trial_matrix(one, "synth_poiss", "a_iht", "symmetric_kl")
    assert list(ks) == [2, 6] and Y.shape == (2, 2)
    assert (one.support <= one.k).all()
    with pytest.raises(ValueError, match="methods"):
        run_glm_trial("synth_poiss", ["bogus"], [2], 0)


def test_phases_give_each_phase_the_table_of_its_own_call():
    """Issue 46: A4/A5 run the authors' SparseVI arm, the paper's trials and the long batch arm as one parallel phase
    (the longest tasks first); every table is the one its separate run_glm_trials call gives, bit for bit."""
    arm = dict(datasets=["synth_lr", "synth_poiss"], methods=["sparsevi_authors"], ks=[1, 3], n_trials=1,
               options=dict(n_projections=20, max_iter=10, authors_steps=3, authors_samples=6))
    main = dict(datasets="synth_lr", methods=["uniform", "sparsevi", "a_iht_batch"], ks=[2, 4], n_trials=2,
                options=dict(n_projections=20, max_iter=10, sparsevi_steps=2, sparsevi_samples=6))
    together = run_glm_phases([arm, main], seed=4, n_jobs=2)
    timing = ["seconds", "phi_floor_seconds"]
    for phase, table in zip([arm, main], together):
        alone = run_glm_trials(phase["datasets"], phase["methods"], phase["ks"], n_trials=phase["n_trials"], seed=4,
                               **phase["options"])
        pd.testing.assert_frame_equal(table.drop(columns=timing), alone.drop(columns=timing))
    with pytest.raises(ValueError, match=r"phases\[1\]"):
        run_glm_phases([arm, {"datasets": "synth_lr"}], seed=4)
    with pytest.raises(ValueError, match="phases"):
        run_glm_phases([], seed=4)
