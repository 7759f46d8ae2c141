"""MovieLens 100K and synthetic low-rank ratings loaders of D3/D4 (items x users orientation)."""

import numpy as np
import pytest

from inferopt.datasets import mirror_dir
from inferopt.datasets.movielens import (
    load_movielens_100k,
    most_rated_subset,
    movielens_100k_from_table,
    split_entries,
    synthetic_low_rank_ratings,
)


def _pairs(rows, cols):
    return set(zip(np.asarray(rows).tolist(), np.asarray(cols).tolist()))


def test_table_is_items_by_users_and_split_is_disjoint():
    table = np.array([[1, 1, 5, 0], [1, 3, 4, 0], [2, 2, 3, 0], [3, 1, 1, 0], [2, 3, 2, 0]])
    out = movielens_100k_from_table(table, test_fraction=0.4, rng=0)
    assert out["shape"] == (3, 3)  # 3 items x 3 users
    te = out["test"]
    assert out["rows"].size == 3 and te[0].size == 2
    assert not _pairs(out["rows"], out["cols"]) & _pairs(te[0], te[1])
    allv = {(i, u): v for i, u, v in zip(np.r_[out["rows"], te[0]], np.r_[out["cols"], te[1]], np.r_[out["values"], te[2]])}
    assert allv == {(0, 0): 5.0, (2, 0): 4.0, (1, 1): 3.0, (0, 2): 1.0, (2, 1): 2.0}  # (item-1, user-1) -> rating


def test_split_is_reproducible_and_validates():
    a = split_entries(np.arange(10), np.arange(10), np.arange(10.0), (10, 10), test_fraction=0.3, rng=1)
    b = split_entries(np.arange(10), np.arange(10), np.arange(10.0), (10, 10), test_fraction=0.3, rng=1)
    np.testing.assert_array_equal(a["test"][0], b["test"][0])
    with pytest.raises(ValueError):
        split_entries(np.arange(2), np.arange(2), np.ones(2), (2, 2), test_fraction=0.1, rng=0)


def test_synthetic_low_rank_ratings():
    out = synthetic_low_rank_ratings(60, 80, 3, 1000, rng=0)
    assert out["shape"] == (60, 80)
    rows = np.r_[out["rows"], out["test"][0]]
    cols = np.r_[out["cols"], out["test"][1]]
    vals = np.r_[out["values"], out["test"][2]]
    assert rows.size == 1000 and len(_pairs(rows, cols)) == 1000  # distinct entries
    assert out["test"][0].size == 100
    assert vals.min() >= 1 and vals.max() <= 5 and np.all(vals == np.round(vals))
    assert 3.0 < vals.mean() < 4.0
    again = synthetic_low_rank_ratings(60, 80, 3, 1000, rng=0)
    np.testing.assert_array_equal(out["values"], again["values"])
    with pytest.raises(ValueError):
        synthetic_low_rank_ratings(3, 3, 1, 10, rng=0)


def test_most_rated_subset():
    out = synthetic_low_rank_ratings(50, 40, 2, 600, rng=2)
    sub = most_rated_subset(out, 10, 8)
    assert sub["shape"] == (10, 8)
    for rows, cols in [(sub["rows"], sub["cols"]), sub["test"][:2]]:
        assert rows.max() < 10 and cols.max() < 8
    same = most_rated_subset(out, None, None)
    np.testing.assert_array_equal(same["values"], out["values"])


def test_movielens_100k_real():
    mirror = mirror_dir()
    if mirror is None or not (mirror / "movielens_100k" / "u.data").exists():
        pytest.skip("movielens_100k/u.data not in the data mirror")
    out = load_movielens_100k(test_fraction=0.1, rng=0)
    assert out["shape"] == (1682, 943)  # items x users
    assert out["rows"].size == 90000 and out["test"][0].size == 10000
    assert not _pairs(out["rows"], out["cols"]) & _pairs(*out["test"][:2])
    assert set(np.unique(out["values"])) <= {1.0, 2.0, 3.0, 4.0, 5.0}
