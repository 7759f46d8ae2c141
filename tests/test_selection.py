"""The tie rule of every greedy selection and hard threshold (inferopt._selection, issue 40): the
same choice for scores perturbed in their last bits (as another BLAS kernel computes them), and
still the right choice, against brute force."""

import numpy as np
import pytest

from inferopt._selection import TIE_RTOL, tied_argmax, tied_argmin, tied_top_k
from inferopt.coresets.projection import expanded_support, sparse_nonneg


def last_bits(values, rng, ulps=4):
    """``values`` moved by up to ``ulps`` units in the last place each, at random (what another
    summation order does to a computed score)."""
    out = values.copy()
    for _ in range(ulps):
        step = rng.integers(-1, 2, size=values.shape)
        out = np.where(step > 0, np.nextafter(out, np.inf), np.where(step < 0, np.nextafter(out, -np.inf), out))
    return out


def tied_scores(rng, n=60, levels=7):
    """Scores equal in exact arithmetic in groups (duplicated points): a few levels, many copies."""
    return rng.choice(rng.standard_normal(levels) * 3.0, size=n)


def brute_top_k(values, k):
    """The ``k`` largest, ties by lowest index: a full lexicographic sort."""
    return np.sort(np.lexsort((np.arange(values.size), -values))[:k])


@pytest.mark.parametrize("seed", range(5))
def test_last_bit_perturbations_do_not_change_the_selection(seed):
    rng = np.random.default_rng(seed)
    v = tied_scores(rng)
    naive_moved = False
    for k in (1, 5, 17, 30):
        want = tied_top_k(v, k)
        for _ in range(50):
            p = last_bits(v, rng)
            assert np.array_equal(tied_top_k(p, k), want)
            assert tied_argmax(p) == tied_argmax(v) and tied_argmin(p) == tied_argmin(v)
            naive_moved |= not np.array_equal(np.sort(np.argpartition(p, v.size - k)[v.size - k:]),
                                              np.sort(np.argpartition(v, v.size - k)[v.size - k:]))
            naive_moved |= int(np.argmax(p)) != int(np.argmax(v))
    assert naive_moved, "the perturbations must move numpy's own selections, or this test shows nothing"


@pytest.mark.parametrize("seed", range(5))
def test_exact_ties_select_as_brute_force_lowest_index_first(seed):
    rng = np.random.default_rng(seed)
    v = tied_scores(rng, n=40, levels=4)
    for k in range(0, 42):
        assert np.array_equal(tied_top_k(v, k), brute_top_k(v, min(k, v.size)))
    assert tied_argmax(v) == int(np.argmax(v)) and tied_argmin(v) == int(np.argmin(v))  # numpy: first of exact ties


@pytest.mark.parametrize("seed", range(5))
def test_distinct_scores_select_exactly_the_largest(seed):
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(200) * 10.0 ** rng.integers(-3, 3)
    for k in (1, 2, 10, 100, 199, 200, 250):
        assert np.array_equal(tied_top_k(v, k), np.sort(np.argsort(-v)[:k]))
    assert tied_argmax(v) == int(np.argmax(v)) and tied_argmin(v) == int(np.argmin(v))


def test_scores_apart_by_more_than_the_tolerance_are_not_tied():
    v = np.array([1.0, 1.0 + 10 * TIE_RTOL, 1.0 + 0.1 * TIE_RTOL])
    assert tied_argmax(v) == 1                      # a real difference wins
    assert tied_argmax(v[[0, 2]]) == 0              # a round-off difference does not: lowest index
    assert np.array_equal(tied_top_k(v, 2), [0, 1])  # 0 and 2 tied at the boundary: 0 is kept


def test_excluded_entries_and_the_scale():
    v = np.array([-np.inf, 2.0, -np.inf, 2.0 + 1e-12])
    assert tied_argmax(v) == 1
    assert tied_argmax(np.full(3, -np.inf)) == 0
    # ties are relative to the scale given (the size of the terms), not only of the scores
    assert tied_argmin(np.array([1e-6, 0.5e-6]), scale=1e6) == 0
    assert tied_argmin(np.array([1e-6, 0.5e-6])) == 1
    # one magnitude per score: tied within the larger of the two magnitudes
    v = np.array([1.0, 1.0 - 1e-9, 5.0])
    assert tied_argmin(v, scale=np.array([1e3, 1e3, 1.0])) == 0
    assert tied_argmin(v, scale=np.array([1.0, 1.0, 1e3])) == 1
    assert np.array_equal(tied_top_k(-v, 1, scale=np.array([1e3, 1e3, 1.0])), [0])


def test_iht_projections_keep_the_same_support_under_last_bit_changes():
    rng = np.random.default_rng(3)
    z = tied_scores(rng, n=80, levels=6)
    z_support = np.flatnonzero(rng.random(80) < 0.1)
    keep = sparse_nonneg(z, 12)[1]
    grown = expanded_support(z, z_support, 12)
    for _ in range(50):
        p = last_bits(z, rng)
        assert np.array_equal(sparse_nonneg(p, 12)[1], keep)
        assert np.array_equal(expanded_support(p, z_support, 12), grown)
    # against brute force: the 12 largest positive entries, the 12 largest |z| outside Z
    positive = np.flatnonzero(z > 0)
    assert np.array_equal(keep, positive[brute_top_k(z[positive], 12)])
    outside = np.setdiff1d(np.arange(80), z_support)
    assert np.array_equal(grown, np.union1d(z_support, outside[brute_top_k(np.abs(z[outside]), 12)]))
