"""Solvers on problems whose answer is known, and the invariants every method keeps."""

import numpy as np
import pytest

import inferopt.coresets as cs
from inferopt.coresets import (
    a_iht,
    a_iht_batch,
    a_iht_ii,
    coreset_path,
    giga,
    iht,
    objective,
    refit,
    sparsevi,
    uniform,
)

IHT_FAMILY = {
    "iht": lambda P, y, k: iht(P, y, k, max_iter=2000),
    "a_iht": a_iht,
    "a_iht_ii": a_iht_ii,
    "a_iht_batch": lambda P, y, k: a_iht_batch(P, y, k, rng=0, max_iter=2000),
}
ALL = dict(
    IHT_FAMILY,
    giga=giga,
    sparsevi=lambda P, y, k: sparsevi(P, y, k, n_steps=20),  # n_steps = 100 by default
    uniform=lambda P, y, k: uniform(P, y, k, rng=0),
)
ALL["frank_wolfe"] = cs.hilbert_frank_wolfe


@pytest.mark.parametrize("method", sorted(set(IHT_FAMILY) | {"giga", "frank_wolfe+refit"}))
@pytest.mark.parametrize("n,k", [(10, 1), (10, 3), (12, 6), (9, 9)])
@pytest.mark.parametrize("scale", [1.0, 3.7])
def test_axis_aligned_data_known_optimum(method, n, k, scale):
    """Φ = cI, y = c1: any k coordinates with weight 1 are optimal, ‖y − Φw‖/‖y‖ = √(1 − k/n)."""
    Phi = scale * np.eye(n)
    y = Phi.sum(axis=1)
    if method == "frank_wolfe+refit":
        w = refit(Phi, y, cs.hilbert_frank_wolfe(Phi, y, k).x)
    else:
        w = ALL[method](Phi, y, k).x
    sel = w > 0
    assert sel.sum() == k
    np.testing.assert_allclose(w[sel], 1.0, rtol=1e-6)
    rel = np.sqrt(objective(Phi, y, w) / (y @ y))
    assert rel == pytest.approx(np.sqrt(1 - k / n), abs=1e-6)


@pytest.mark.parametrize("seed", range(4))
def test_colinear_data_exact_after_one_giga_step(seed):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(8)
    c = rng.uniform(0.1, 3.0, size=15)
    Phi = np.outer(v, c)
    y = Phi.sum(axis=1)
    res = giga(Phi, y, 5)
    assert np.sqrt(res.objective[1] / res.objective[0]) < 1e-12
    assert np.sqrt(objective(Phi, y, res.x) / (y @ y)) < 1e-12
    assert np.count_nonzero(res.x) == 1 and res.converged


@pytest.mark.parametrize("method", sorted(ALL))
def test_single_datum_gets_weight_one(method):
    Phi = np.array([[1.5], [-0.5], [2.0]])
    y = Phi[:, 0].copy()
    if method == "sparsevi":  # stochastic-gradient weights: 300 steps of size 1/t
        assert sparsevi(Phi, y, 1, n_steps=300).x == pytest.approx([1.0], rel=1e-6)
        return
    w = ALL[method](Phi, y, 1).x
    assert w == pytest.approx([1.0], rel=1e-6)


@pytest.mark.parametrize("seed", range(5))
def test_giga_error_never_increases(seed):
    rng = np.random.default_rng(seed)
    Phi = rng.standard_normal((20, 60)) + 0.3 * rng.standard_normal(60)
    y = Phi.sum(axis=1)
    res = giga(Phi, y, 40)
    obj = res.objective
    assert np.all(np.diff(obj) <= 1e-10 * obj[0])
    assert obj[-1] < 0.5 * obj[0]
    assert obj[-1] == pytest.approx(objective(Phi, y, res.x), rel=1e-8)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("method", sorted(ALL))
@pytest.mark.parametrize("k", [1, 4, 15])
def test_at_most_k_nonnegative_weights(seed, method, k):
    rng = np.random.default_rng(seed)
    Phi = rng.standard_normal((12, 30)) + rng.uniform(-0.5, 1.0, size=30)
    y = Phi.sum(axis=1)
    res = ALL[method](Phi, y, k)
    assert np.count_nonzero(res.x) <= k
    assert np.all(res.x >= 0) and np.all(np.isfinite(res.x))
    assert len(res.objective) == len(res.times) == res.n_iter + 1 or method == "uniform"
    assert np.all(np.diff(res.times) >= 0)


@pytest.mark.parametrize("seed", range(3))
def test_vanilla_iht_with_lipschitz_step_is_monotone(seed):
    rng = np.random.default_rng(seed)
    Phi = rng.standard_normal((15, 40))
    y = Phi.sum(axis=1)
    obj = iht(Phi, y, 5).objective
    assert np.all(np.diff(obj) <= 1e-9 * obj[0])


@pytest.mark.parametrize("method", ["giga", "sparsevi", "uniform", "frank_wolfe"])
def test_greedy_grid_in_one_pass_matches_separate_runs(method):
    rng = np.random.default_rng(11)
    Phi = rng.standard_normal((10, 40)) + 0.4
    y = Phi.sum(axis=1)
    ks = [2, 5, 9]
    kw = {"rng": 3} if method == "uniform" else ({"n_steps": 10} if method == "sparsevi" else {})
    fn = ALL[method] if method != "uniform" else uniform
    fn = {"giga": giga, "sparsevi": sparsevi, "uniform": uniform, "frank_wolfe": cs.hilbert_frank_wolfe}[method]
    grid = fn(Phi, y, ks, **kw)
    for j, k in enumerate(ks):
        alone = fn(Phi, y, k, **kw)
        np.testing.assert_allclose(grid.path_weights[j], alone.x, rtol=1e-12, atol=1e-14)
        assert np.count_nonzero(grid.path_weights[j]) <= k


@pytest.mark.parametrize("until", ["iterations", "support"])
def test_uniform_weights_are_n_count_over_total(until):
    Phi = np.eye(6)
    res = uniform(Phi, Phi.sum(1), [1, 3, 6], rng=0, until=until)
    for j, k in enumerate(res.ks):
        w = res.path_weights[j]
        if until == "support":
            assert np.count_nonzero(w) == k
        else:  # k draws: weights are N·count/k
            assert np.count_nonzero(w) <= k
            np.testing.assert_allclose(w * k / 6, np.round(w * k / 6), atol=1e-12)
        assert w.sum() == pytest.approx(6.0)


def test_giga_until_support_reaches_k_distinct_points():
    rng = np.random.default_rng(4)
    Phi = rng.standard_normal((8, 40)) + 0.5
    y = Phi.sum(axis=1)
    res = giga(Phi, y, [3, 7], until="support")
    assert [np.count_nonzero(w) for w in res.path_weights] == [3, 7]
    assert res.n_iter >= giga(Phi, y, [3, 7]).n_iter


def test_sparsevi_until_support_stops_at_max_iter():
    """Re-selections may keep SparseVI's support below k: the budget ends the run."""
    rng = np.random.default_rng(4)
    Phi = rng.standard_normal((8, 40)) + 0.5
    y = Phi.sum(axis=1)
    res = sparsevi(Phi, y, [3, 7], until="support", n_steps=10, max_iter=20)
    assert res.n_iter <= 20
    assert all(np.count_nonzero(w) <= k for w, k in zip(res.path_weights, res.ks, strict=True))


@pytest.mark.parametrize("seed", range(3))
def test_refit_is_nnls_on_the_support(seed):
    rng = np.random.default_rng(seed)
    Phi = rng.standard_normal((20, 50)) + 0.2
    y = Phi.sum(axis=1)
    w = giga(Phi, y, 8).x
    wr = refit(Phi, y, w)
    assert set(np.flatnonzero(wr)) <= set(np.flatnonzero(w))
    assert objective(Phi, y, wr) <= objective(Phi, y, w) + 1e-9
    # KKT of NNLS on the support: gradient zero on positive weights, >= 0 on zero weights
    S = np.flatnonzero(w)
    g = -2 * Phi[:, S].T @ (y - Phi @ wr)
    pos = wr[S] > 0
    assert np.all(np.abs(g[pos]) <= 1e-7 * np.abs(Phi).max() * np.linalg.norm(y))
    assert np.all(g[~pos] >= -1e-7)
    stack = refit(Phi, y, np.stack([w, w]))
    np.testing.assert_allclose(stack[1], wr)


def test_refit_result_and_path():
    rng = np.random.default_rng(0)
    Phi = rng.standard_normal((10, 30)) + 0.5
    y = Phi.sum(axis=1)
    res = cs.refit_result(Phi, y, giga(Phi, y, [3, 6]))
    assert res.objective[-1] <= res.info["objective_before_refit"] + 1e-9
    ks, W, secs, results = coreset_path("a_iht_ii", Phi, y, [6, 3], refit_weights=True)
    assert list(ks) == [3, 6] and W.shape == (2, 30) and np.all(secs >= 0) and len(results) == 2
    assert all(np.count_nonzero(w) <= k for w, k in zip(W, ks, strict=True))
    assert "giga" in cs.available_solvers() and "a_iht_batch" in cs.available_solvers()


def test_a_iht_stops_on_the_relative_change_rule():
    rng = np.random.default_rng(1)
    Phi = rng.standard_normal((30, 20))
    y = Phi[:, :3] @ np.array([1.0, 2.0, 0.5])
    res = a_iht(Phi, y, 3, tol=1e-5)
    assert res.converged and res.n_iter < 300 and res.objective[-1] < 1e-10 * res.objective[0]
    assert "converged" in res.message
    capped = a_iht(Phi, y, 3, tol=0.0, max_iter=7)
    assert capped.n_iter == 7 and not capped.converged


def naive_giga(Phi, y, steps):
    """GIGA written directly from Campbell & Broderick (2018), eqs. 9-12, with explicit
    normalised vectors and no incremental updates (independent of the library code)."""
    L = Phi / np.linalg.norm(Phi, axis=0)
    ell = y / np.linalg.norm(y)
    wn = np.zeros(Phi.shape[1])
    out = []
    for _ in range(steps):
        lw = L @ wn
        if np.linalg.norm(lw) == 0:
            f = int(np.argmax(L.T @ ell))
            wn[f] = 1.0
        else:
            dt = ell - (ell @ lw) * lw
            dt /= np.linalg.norm(dt)
            dtn = L - np.outer(lw, L.T @ lw)
            nrm = np.linalg.norm(dtn, axis=0)
            score = np.full(L.shape[1], -np.inf)  # d_tn undefined for l_n parallel to l_w
            ok = nrm > 1e-9
            score[ok] = dt @ (dtn[:, ok] / nrm[ok])
            f = int(np.argmax(score))
            z0, z1, z2 = ell @ L[:, f], ell @ lw, L[:, f] @ lw
            gamma = (z0 - z1 * z2) / ((z0 - z1 * z2) + (z1 - z0 * z2))
            new = (1 - gamma) * lw + gamma * L[:, f]
            wn = ((1 - gamma) * wn + gamma * np.eye(Phi.shape[1])[f]) / np.linalg.norm(new)
        lw = L @ wn
        out.append(np.linalg.norm(y) * (ell @ lw) * wn / np.linalg.norm(Phi, axis=0))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_giga_matches_a_direct_transcription_of_the_paper(seed):
    rng = np.random.default_rng(seed)
    Phi = rng.standard_normal((15, 40)) + 0.3
    y = Phi.sum(axis=1)
    ref = naive_giga(Phi, y, 12)
    res = giga(Phi, y, list(range(1, 13)))
    for j in range(12):
        np.testing.assert_allclose(res.path_weights[j], ref[j], rtol=1e-8, atol=1e-10)


def test_sparsevi_with_monte_carlo_tangent():
    m = cs.GaussianMeanModel(
        np.random.default_rng(0).standard_normal((30, 2)) + 1, np.zeros(2), np.eye(2), np.eye(2)
    )
    Phi, y = cs.exact_problem(m)
    tangent = cs.weighted_mc_tangent(m, 200, rng=0)
    res = sparsevi(Phi, y, [2, 5], tangent=tangent, n_steps=30)
    assert all(np.count_nonzero(w) <= k for w, k in zip(res.path_weights, res.ks, strict=True))
    exact = sparsevi(Phi, y, 5, tangent=m.tangent, n_steps=30)
    # both reduce the reverse KL from the prior (w = 0) by orders of magnitude
    kl0 = cs.coreset_kl(m, np.zeros(30))
    assert cs.coreset_kl(m, res.x) < 0.05 * kl0 and cs.coreset_kl(m, exact.x) < 0.05 * kl0


@pytest.mark.parametrize("method", ["giga", "a_iht", "a_iht_ii", "iht"])
def test_no_positively_correlated_point_gives_the_empty_coreset(method):
    Phi = -np.eye(3)
    y = np.ones(3)
    assert not np.any(ALL[method](Phi, y, 2).x)


@pytest.mark.parametrize("n,k", [(10, 1), (10, 4), (8, 8)])
def test_frank_wolfe_on_axis_aligned_data_keeps_the_simplex_mass(n, k):
    """The FW relaxation fixes Σ_n w_n σ_n = σ: with equal norms the k selected points
    share the total mass n equally (w = n/k), exact line search splitting it 1/t."""
    Phi = 2.0 * np.eye(n)
    res = cs.hilbert_frank_wolfe(Phi, Phi.sum(axis=1), k)
    w = res.x
    assert np.count_nonzero(w) == k
    np.testing.assert_allclose(w[w > 0], n / k, rtol=1e-10)
    assert res.objective[-1] == pytest.approx(4.0 * ((n - k) + k * (n / k - 1) ** 2), rel=1e-10)


def test_frank_wolfe_trace_and_grid():
    rng = np.random.default_rng(2)
    Phi = rng.standard_normal((20, 60)) + 0.3
    y = Phi.sum(axis=1)
    res = cs.hilbert_frank_wolfe(Phi, y, [1, 5, 20])
    assert np.all(np.diff(res.objective[1:]) <= 1e-9 * res.objective[0])  # exact line search
    for j, k in enumerate(res.ks):
        assert res.objective[k] == pytest.approx(objective(Phi, y, res.path_weights[j]), rel=1e-9)
        np.testing.assert_allclose(res.path_weights[j], cs.hilbert_frank_wolfe(Phi, y, int(k)).x, rtol=1e-12)
    # the first atom maximises <v_n, y> with v_n = σ φ_n / σ_n
    first = np.flatnonzero(res.path_weights[0])
    assert first.tolist() == [int(np.argmax(Phi.T @ y / np.linalg.norm(Phi, axis=0)))]


@pytest.mark.parametrize("solver", [a_iht, a_iht_ii, lambda *a, **kw: a_iht_batch(*a, rng=1, **kw)])
def test_keep_best_returns_the_lowest_traced_objective(solver):
    rng = np.random.default_rng(8)
    Phi = rng.standard_normal((30, 200)) + 0.2
    y = Phi.sum(axis=1)
    res = solver(Phi, y, 20, keep_best=True, max_iter=60)
    assert objective(Phi, y, res.x) == pytest.approx(res.objective[1:].min(), rel=1e-9)
    assert np.count_nonzero(res.x) <= 20 and np.all(res.x >= 0)


def test_sparsevi_divergence_is_reported_clearly_not_as_a_linalg_traceback():
    """A model whose weighted posterior stops being positive definite once weights blow up
    (as radial-basis regression does under optimizer='sgd' with too large a step)."""
    rng = np.random.default_rng(0)
    Phi = rng.standard_normal((5, 8))
    y = Phi.sum(axis=1)

    def covariance(w):
        np.linalg.cholesky(np.eye(2) * (1e3 - w.max()))  # indefinite once a weight exceeds 1e3
        r = y - Phi @ w
        return Phi.T @ r, np.einsum("ij,ij->j", Phi, Phi)

    with pytest.raises(FloatingPointError, match="diverged.*optimizer='adam'"):
        sparsevi(Phi, y, 3, covariance=covariance, optimizer="sgd", step_scale=1e4, n_steps=5)
    res = sparsevi(Phi, y, 3, covariance=covariance, optimizer="adam", n_steps=5)  # Adam's steps stay bounded
    assert np.all(res.x >= 0) and np.count_nonzero(res.x) <= 3


def test_a_iht_restricted_gradient_differs_from_full():
    """Sec. 3.3: the step along the gradient restricted to S misses a useful column outside S.
    Column 0 is anti-correlated with y (largest |∇f|, positive ∇f: S = {0} at k = 1); column 1
    is correlated with y (negative ∇f, outside S): only the full gradient can select it."""
    y = np.array([1.0, 0.0, 0.0])
    Phi = np.array([[-3.0, 0.5, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    full = cs.a_iht(Phi, y, 1, max_iter=1, tol=0.0)
    restricted = cs.a_iht(Phi, y, 1, max_iter=1, tol=0.0, gradient="restricted")
    assert full.x[1] > 0 and full.objective[-1] < 1.0
    assert np.all(restricted.x == 0) and restricted.objective[-1] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="gradient"):
        cs.a_iht(Phi, y, 1, gradient="partial")
