"""Maximum entropy on {-1, 1}^d (Sec. 5.3): the dual solver against the product formula and
against SLSQP on the primal; herding's distribution over states (Fig. 6 claims)."""

import numpy as np
import pytest
from scipy.optimize import minimize

from inferopt.herding import (
    FeatureTarget,
    all_states,
    entropy,
    exponential_family,
    herd,
    independent_maxent,
    maxent_distribution,
    pairwise_features,
)


def test_states_and_entropy():
    S = all_states(4)
    assert S.shape == (16, 4) and len({tuple(r) for r in S}) == 16
    assert entropy(np.full(16, 1 / 16)) == pytest.approx(4 * np.log(2))
    assert entropy(np.eye(16)[3]) == 0.0


def test_dual_solver_recovers_independent_bits():
    rng = np.random.default_rng(0)
    S, m = all_states(5), rng.uniform(-0.9, 0.9, 5)
    p, _ = maxent_distribution(S, m)
    np.testing.assert_allclose(p, independent_maxent(S, m), atol=1e-8)
    np.testing.assert_allclose(S.T @ independent_maxent(S, m), m, atol=1e-14)


def test_pairwise_maxent_against_primal_slsqp():
    S = all_states(3)
    F = pairwise_features(S)
    theta = np.concatenate([np.zeros(3), np.full(3, 0.4)])       # Fig. 7's family: constant pair weight
    mu = F.T @ exponential_family(F, theta)
    mu[:3] += np.array([0.1, -0.2, 0.05])                          # move off the family's one-parameter curve
    p, _ = maxent_distribution(F, mu)
    np.testing.assert_allclose(F.T @ p, mu, atol=1e-8)
    cons = [{"type": "eq", "fun": lambda q: F.T @ q - mu}, {"type": "eq", "fun": lambda q: q.sum() - 1}]
    ref = minimize(lambda q: np.sum(q * np.log(np.maximum(q, 1e-300))), np.full(8, 1 / 8), method="SLSQP",
                   bounds=[(1e-12, 1)] * 8, constraints=cons, options={"ftol": 1e-14, "maxiter": 500})
    np.testing.assert_allclose(p, ref.x, atol=1e-5)
    assert entropy(p) >= entropy(ref.x) - 1e-9


def test_fig6_herding_tends_to_maxent_line_search_to_low_entropy():
    rng = np.random.default_rng(1)
    S, m = all_states(4), rng.uniform(-1, 1, 4)
    p = independent_maxent(S, m)
    dist = {}
    for method in ("1/(t+1)", "line_search"):
        res = herd(FeatureTarget(m), S, 2000, method)
        dist[method] = np.zeros(len(S))
        dist[method][res.atoms] = res.weights
    assert np.linalg.norm(dist["1/(t+1)"] - p) < 0.01
    assert np.linalg.norm(dist["line_search"] - p) > 0.05
    assert entropy(dist["line_search"]) < entropy(dist["1/(t+1)"]) - 0.1
    assert np.count_nonzero(dist["line_search"]) < np.count_nonzero(p)


def test_bad_input():
    with pytest.raises(ValueError, match="mean must lie in"):
        independent_maxent(all_states(2), [0.5, 1.5])
    with pytest.raises(ValueError, match="mu must have length"):
        maxent_distribution(all_states(2), [0.1])
    with pytest.raises(ValueError, match="d must be <= 20"):
        all_states(30)


def test_herding_continues_through_exact_moment_matches():
    # rational means: g_t = mu exactly at some t (gap 0); herding must still produce every point
    S, m = all_states(2), np.array([0.0, 0.5])
    res = herd(FeatureTarget(m), S, 12, "1/(t+1)")
    assert len(res.order) == 12 and len(res.objective) == 12
    assert np.any(res.objective[1:] < 1e-30)            # exact matches happened along the way
    w = 1e-12 * m                                    # Welling's w_t (explicit); ties are exact here
    for j in res.order:
        score = S @ w
        assert score[j] >= score.max() - 1e-9
        w = w + m - S[j]


def test_low_entropy_distribution_is_a_vertex_with_the_moments():
    from inferopt.herding import low_entropy_distribution
    S = all_states(4)
    m = np.array([0.3, -0.5, 0.1, 0.7])
    p = low_entropy_distribution(S, m, np.random.default_rng(0))
    np.testing.assert_allclose(S.T @ p, m, atol=1e-10)
    assert p.min() >= 0 and p.sum() == pytest.approx(1.0)
    assert (p > 1e-12).sum() <= 5                                   # a vertex: at most dim + 1 states
    assert entropy(p) <= np.log(5) + 1e-12 < entropy(independent_maxent(S, m))
    # more vertices tried: never a higher entropy (the first 3 of the 20 are the same draws)
    assert entropy(low_entropy_distribution(S, m, np.random.default_rng(0), n_vertices=20)) <= \
        entropy(low_entropy_distribution(S, m, np.random.default_rng(0), n_vertices=3)) + 1e-12
    with pytest.raises(ValueError, match="mu must have length"):
        low_entropy_distribution(S, m[:3], 0)
    with pytest.raises(ValueError, match="mu"):
        low_entropy_distribution(S, np.array([1.5, 0.0, 0.0, 0.0]), 0)
