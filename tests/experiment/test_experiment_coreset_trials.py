"""The trial runner of the conjugate-model experiments (A1–A3): methods and their NNLS
re-fits, exact KLs, against independent computations (scipy NNLS, explicit Gaussian KLs)."""

import numpy as np
import pytest
from scipy.optimize import nnls

import inferopt.coresets as cs
from inferopt.experiment.coresets import conjugate_trial, split_method


def test_split_method_names():
    assert split_method("giga_refit") == ("giga", True)
    assert split_method("a_iht_ii") == ("a_iht_ii", False)
    with pytest.raises(ValueError, match="methods must be one of"):
        split_method("gigga_refit")


def test_make_gaussian_mean_is_the_papers_problem():
    m = cs.make_gaussian_mean(4, 30, rng=1, prior_var=2.0, noise_var=0.5)
    np.testing.assert_allclose(m.mu0, 0)
    np.testing.assert_allclose(m.Sigma0, 2 * np.eye(4))
    np.testing.assert_allclose(m.Sigma, 0.5 * np.eye(4))
    assert m.x.shape == (30, 4)
    with pytest.raises(ValueError, match="D must be >= 1"):
        cs.make_gaussian_mean(0, 5)


def test_conjugate_trial_refits_and_kls():
    model = cs.make_gaussian_mean(3, 25, rng=2)
    ks = [2, 4, 6]
    methods = ["giga", "giga_refit", "a_iht_ii", "a_iht_ii_refit", "uniform", "sparsevi"]
    table, runs = conjugate_trial(model, methods, ks, rng=0, sparsevi_steps=10)
    Phi, y = runs["_problem"]
    assert len(table) == len(methods) * len(ks)
    mu, cov = model.posterior(np.ones(model.N))
    for name in methods:
        W = runs[name]["weights"]
        rows = table[table.method == name].sort_values("k")
        assert np.all(rows.support.to_numpy() <= np.asarray(ks))
        for j, w in enumerate(W):
            muw, covw = model.posterior(w)
            assert rows.reverse_kl.iloc[j] == pytest.approx(cs.gaussian_kl(muw, covw, mu, cov), rel=1e-7, abs=1e-9)
            assert rows.forward_kl.iloc[j] == pytest.approx(cs.gaussian_kl(mu, cov, muw, covw), rel=1e-7, abs=1e-9)
            assert rows.objective.iloc[j] == pytest.approx(float(np.sum((y - Phi @ w) ** 2)), rel=1e-10)
    for base in ["giga", "a_iht_ii"]:
        for w0, w1 in zip(runs[base]["weights"], runs[f"{base}_refit"]["weights"]):
            supp = np.flatnonzero(w0)
            coef, _ = nnls(Phi[:, supp], y)
            expected = np.zeros_like(w0)
            expected[supp] = coef
            np.testing.assert_allclose(w1, expected, rtol=1e-8, atol=1e-10)
            assert set(np.flatnonzero(w1)) <= set(supp)
            assert cs.objective(Phi, y, w1) <= cs.objective(Phi, y, w0) + 1e-12


def _small_rbf():
    rng = np.random.default_rng(4)
    coords = rng.uniform(-2.0, 2.0, size=(60, 2))
    targets = np.sin(coords[:, 0]) + 0.1 * rng.standard_normal(60)
    return cs.make_rbf_regression(coords, targets, rng=5, n_subsample=40, n_per_scale=2, scales=[0.5, 1.0])[0]


def test_sparsevi_on_the_tangent_of_the_others_construction():
    """SparseVI's gradient from the tangent vectors at pi_w: with an exact construction it is the exact covariance's
    (the same coresets); with the authors' projected one it is another gradient (other coresets), as the switch says."""
    model = _small_rbf()
    ks = [3, 6, 9]
    exact, _ = conjugate_trial(model, ["sparsevi"], ks, rng=0, sparsevi_steps=5)
    gram, _ = conjugate_trial(model, ["sparsevi"], ks, rng=0, sparsevi_steps=5, sparsevi_gradient="tangent",
                              tangent_options={"representation": "gram"})
    np.testing.assert_allclose(gram.reverse_kl, exact.reverse_kl, rtol=1e-6)
    # the authors' construction keeps n_quadratic of the quadratic term's directions: with all of them it is exact
    full, _ = conjugate_trial(model, ["sparsevi"], ks, rng=0, sparsevi_steps=5, sparsevi_gradient="tangent",
                              tangent_options={"representation": "authors", "n_quadratic": model.D})
    np.testing.assert_allclose(full.reverse_kl, exact.reverse_kl, rtol=1e-6)
    cut, runs = conjugate_trial(model, ["sparsevi", "giga"], ks, rng=0, sparsevi_steps=5, sparsevi_gradient="tangent",
                                tangent_options={"representation": "authors", "n_quadratic": 1})
    assert runs["_problem"][0].shape[0] == model.D + 1  # the others' Phi: linear part and one quadratic direction
    assert not np.allclose(cut[cut.method == "sparsevi"].reverse_kl.to_numpy(), exact.reverse_kl.to_numpy())
    with pytest.raises(ValueError, match="sparsevi_gradient"):
        conjugate_trial(model, ["sparsevi"], ks, rng=0, sparsevi_gradient="exact")


def test_sparsevi_authors_arm_is_sparsevi_with_the_authors_updates():
    """The authors' arm is SparseVI with sparsevi_authors_steps updates (their 1/(1+i) = our 1/t): with as many updates
    as ours it is the same run; with more, another (and its work count follows its steps)."""
    model = cs.make_gaussian_mean(6, 20, np.random.default_rng(3))
    ks = [2, 4, 6]
    same, _ = conjugate_trial(model, ["sparsevi", "sparsevi_authors"], ks, rng=0, sparsevi_steps=5, sparsevi_authors_steps=5)
    a, b = (same[same.method == m].reverse_kl.to_numpy() for m in ("sparsevi", "sparsevi_authors"))
    np.testing.assert_allclose(a, b)
    more, _ = conjugate_trial(model, ["sparsevi", "sparsevi_authors"], ks, rng=0, sparsevi_steps=5, sparsevi_authors_steps=50)
    a, b = (more[more.method == m].reverse_kl.to_numpy() for m in ("sparsevi", "sparsevi_authors"))
    assert not np.allclose(a, b)
    with pytest.raises(ValueError, match="sparsevi_authors_steps"):
        conjugate_trial(model, ["sparsevi_authors"], ks, rng=0, sparsevi_authors_steps=0)


def test_roundoff_replicates_keep_a_settled_coreset_and_show_a_knife_edge():
    from inferopt.experiment.coresets import roundoff_replicates
    rng = np.random.default_rng(0)
    Phi = rng.normal(size=(30, 12))
    y = Phi @ np.where(np.arange(12) < 3, 1.0, 0.0)
    base = cs.a_iht_ii(Phi, y, 3, max_iter=300)
    assert base.converged
    W = roundoff_replicates(Phi, y, "a_iht_ii", 3, n_replicates=3, rng=1, max_iter=300)
    assert W.shape == (3, 12) and np.allclose(W, base.x, rtol=1e-9, atol=1e-12)
    assert (W != base.x).any()     # the problem did move: only its last bits
    # a knife edge: two columns 1e-10 apart (beyond the selections' tie rule), y along them; which one a size-1 coreset
    # takes turns on the perturbation
    Phi2 = np.column_stack([Phi[:, 0], Phi[:, 0] + 1e-10 * rng.normal(size=30), Phi[:, 1:]])
    y2 = 3 * Phi2[:, 0] + 0.5 * Phi2[:, 2]
    for method in ("giga", "a_iht_ii"):
        picked = {int(np.flatnonzero(w)[0]) for w in roundoff_replicates(Phi2, y2, method, 1, n_replicates=8, rng=0, size=1e-8)}
        assert picked == {0, 1}
    with pytest.raises(ValueError, match="method"):
        roundoff_replicates(Phi, y, "giga_refit", 2, n_replicates=1)
    with pytest.raises(ValueError, match="size"):
        roundoff_replicates(Phi, y, "giga", 2, n_replicates=1, size=0.1)
    with pytest.raises(ValueError, match="y must have length"):
        roundoff_replicates(Phi, y[:5], "giga", 2, n_replicates=1)
