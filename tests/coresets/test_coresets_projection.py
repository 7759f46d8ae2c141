"""Projection onto {k-sparse, >= 0} and the support expansion against brute force."""

import itertools

import numpy as np
import pytest

from inferopt.coresets.projection import project_sparse_nonneg, sparse_nonneg, support_expansion


def brute_force_projection(z, k):
    """min over all supports |S| <= k of the distance to Π_{S ∩ R+}(z)."""
    best, best_d = None, np.inf
    for size in range(0, k + 1):
        for S in itertools.combinations(range(z.size), size):
            w = np.zeros_like(z)
            idx = list(S)
            w[idx] = np.maximum(z[idx], 0.0)
            d = np.linalg.norm(w - z)
            if d < best_d - 1e-15:
                best, best_d = w, d
    return best, best_d


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n", [1, 4, 7, 10])
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_projection_is_optimal_against_brute_force(seed, n, k):
    k = min(k, n)
    z = np.random.default_rng(seed).standard_normal(n)
    w = project_sparse_nonneg(z, k)
    _, d_best = brute_force_projection(z, k)
    assert np.count_nonzero(w) <= k and np.all(w >= 0)
    assert np.linalg.norm(w - z) == pytest.approx(d_best, abs=1e-12)
    # the kept entries are copied, not changed
    kept = w > 0
    assert np.array_equal(w[kept], z[kept])
    # the solvers' form returns the same point and its support, sorted (no scan for it)
    w2, supp = sparse_nonneg(z, k)
    assert np.array_equal(w2, w) and np.array_equal(supp, np.flatnonzero(w))


def test_projection_all_negative_is_zero():
    assert not np.any(project_sparse_nonneg(-np.arange(1.0, 6.0), 3))


@pytest.mark.parametrize("seed", range(4))
def test_support_expansion_adds_k_largest_gradients_outside_z(seed):
    rng = np.random.default_rng(seed)
    n, k = 10, 3
    g = rng.standard_normal(n)
    Z = np.sort(rng.choice(n, size=4, replace=False))
    S = support_expansion(g, Z, k)
    outside = np.setdiff1d(np.arange(n), Z)
    expected = outside[np.argsort(-np.abs(g[outside]))[:k]]
    assert set(S) == set(Z) | set(expected)
    assert len(S) <= len(Z) + k


def test_sorted_union_equals_union1d():
    """The mask-based union of the solvers is ``np.union1d`` (sorted, unique), duplicates and empty inputs included."""
    from inferopt.coresets.projection import sorted_union

    rng = np.random.default_rng(3)
    for n in (1, 7, 500):
        for _ in range(20):
            a = rng.integers(0, n, size=rng.integers(0, n + 1))
            b = rng.integers(0, n, size=rng.integers(0, 3))
            got = sorted_union(a, b, n)
            np.testing.assert_array_equal(got, np.union1d(a, b))
            assert got.dtype.kind == "i"
