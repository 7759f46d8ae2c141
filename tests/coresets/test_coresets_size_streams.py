"""A per-size solver's draws at one size do not depend on the other sizes of the grid (issue 40):
batch A-IHT's run at k = 1 stops after a number of iterations that can move with round-off, and
the run at the next size used to continue its stream."""

import numpy as np

from inferopt.coresets.path import coreset_path


def test_a_size_draws_the_same_whatever_the_other_sizes():
    rng = np.random.default_rng(0)
    Phi = rng.standard_normal((30, 80))
    y = Phi @ np.where(rng.random(80) < 0.2, rng.random(80), 0.0)
    options = {"max_iter": 40, "batch_fraction": 0.2}
    ks_all, W_all, _, _ = coreset_path("a_iht_batch", Phi, y, [1, 5, 12], rng=np.random.default_rng(7), **options)
    for j, k in enumerate(ks_all):
        _, W_one, _, _ = coreset_path("a_iht_batch", Phi, y, [k], rng=np.random.default_rng(7), **options)
        assert np.array_equal(W_one[0], W_all[j])
    # different seeds still give different runs (the stream is the seed's, not a constant)
    _, W_other, _, _ = coreset_path("a_iht_batch", Phi, y, [12], rng=np.random.default_rng(8), **options)
    assert not np.array_equal(W_other[0], W_all[-1])
