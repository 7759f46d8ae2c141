"""MovieLens 100K ratings and synthetic low-rank ratings for the matrix completion of D3/D4.

Orientation: **items x users** (rows are movies, columns are users), as in Han et al. (2018),
Sec. 5.1, whose ``d = 3,706`` for MovieLens 1M is the number of movies. MovieLens 100K is thus
``1,682 x 943``; the MovieLens-1M shape is ``3,706 x 6,040``.

Both loaders return ``dict(rows, cols, values, shape, test=(rows, cols, values))`` with 0-based
integer indices and ratings as floats; training and test entries are disjoint random splits of
the observed entries.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_int, check_real
from .loaders import load
from .._random import as_generator

#: the MovieLens-1M shape (movies x users) that the synthetic problem mimics
ML1M_SHAPE = (3706, 6040)


def split_entries(rows, cols, values, shape, *, test_fraction: float, rng) -> dict:
    """Random train/test split of observed entries (``test_fraction`` of them held out)."""
    test_fraction = check_real("test_fraction", test_fraction, low=0.0, high=1.0, low_open=True, high_open=True)
    rng = as_generator(rng)
    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values, dtype=float)
    n = rows.size
    perm = rng.permutation(n)
    n_test = int(round(test_fraction * n))
    if not 0 < n_test < n:
        raise ValueError(f"test_fraction={test_fraction} leaves an empty train or test set for {n} entries")
    te, tr = np.sort(perm[:n_test]), np.sort(perm[n_test:])
    return {
        "rows": rows[tr], "cols": cols[tr], "values": values[tr], "shape": tuple(int(s) for s in shape),
        "test": (rows[te], cols[te], values[te]),
    }


def movielens_100k_from_table(table, *, test_fraction: float, rng) -> dict:
    """Items x users problem from a ``u.data`` table (columns user id, item id, rating, timestamp; 1-based ids)."""
    table = np.asarray(table)
    if table.ndim != 2 or table.shape[1] < 3:
        raise ValueError(f"u.data must have at least 3 columns (user, item, rating); got shape {table.shape}")
    users = table[:, 0].astype(np.int64) - 1
    items = table[:, 1].astype(np.int64) - 1
    if users.min() < 0 or items.min() < 0:
        raise ValueError("u.data ids must be 1-based positive integers")
    shape = (int(items.max()) + 1, int(users.max()) + 1)
    return split_entries(items, users, table[:, 2].astype(float), shape, test_fraction=test_fraction, rng=rng)


def load_movielens_100k(*, test_fraction: float = 0.1, rng=None, fetch: bool = True) -> dict:
    """MovieLens 100K as an items x users (``1,682 x 943``) completion problem, ratings 1..5.

    ``test_fraction`` of the 100,000 ratings, chosen at random with ``rng``, are held out.
    """
    return movielens_100k_from_table(load("movielens_100k", "u.data", fetch=fetch), test_fraction=test_fraction, rng=rng)


def synthetic_low_rank_ratings(
    n_rows: int,
    n_cols: int,
    rank: int,
    n_observed: int,
    *,
    rng=None,
    test_fraction: float = 0.1,
    noise: float = 0.5,
    low: float = 1.0,
    high: float = 5.0,
    integer: bool = True,
) -> dict:
    """A rank-``rank`` "ratings" matrix with ``n_observed`` distinct observed entries, uniformly at random.

    ``R = clip(round(m + s·UVᵀ/std + noise·Z), low, high)`` with Gaussian factors ``U, V`` and noise ``Z``, scaled so
    the ratings have mean ``m = (low+high)/2 + 0.5`` and spread ``s = 1`` like MovieLens (mean ≈ 3.5, std ≈ 1.1);
    only the observed entries are formed. ``test_fraction`` of them are held out.
    """
    n_rows = check_int("n_rows", n_rows, low=1)
    n_cols = check_int("n_cols", n_cols, low=1)
    rank = check_int("rank", rank, low=1)
    n_observed = check_int("n_observed", n_observed, low=2)
    if n_observed > n_rows * n_cols:
        raise ValueError(f"n_observed={n_observed} exceeds the {n_rows * n_cols} entries of a {n_rows} x {n_cols} matrix")
    noise = check_real("noise", noise, low=0.0)
    rng = as_generator(rng)
    flat = rng.choice(n_rows * n_cols, size=n_observed, replace=False)
    rows, cols = np.divmod(flat, n_cols)
    U = rng.standard_normal((n_rows, rank))
    V = rng.standard_normal((n_cols, rank))
    signal = np.einsum("ij,ij->i", U[rows], V[cols]) / np.sqrt(rank)
    values = (low + high) / 2 + 0.5 + signal + noise * rng.standard_normal(n_observed)
    if integer:
        values = np.round(values)
    values = np.clip(values, low, high)
    return split_entries(rows, cols, values, (n_rows, n_cols), test_fraction=test_fraction, rng=rng)


def most_rated_subset(data: dict, n_rows: int | None = None, n_cols: int | None = None) -> dict:
    """Restrict a problem to its ``n_rows`` most-rated rows and ``n_cols`` most-rated columns (train + test counts).

    Indices are renumbered ``0..n-1`` (rows and columns keep their order); ``None`` keeps all.
    """
    d, r = data["shape"]
    rows_all = np.concatenate([data["rows"], data["test"][0]])
    cols_all = np.concatenate([data["cols"], data["test"][1]])

    def keep(idx, size, n):
        if n is None or n >= size:
            return np.arange(size)
        n = check_int("subset size", n, low=1)
        counts = np.bincount(idx, minlength=size)
        return np.sort(np.argsort(-counts, kind="stable")[:n])

    kr, kc = keep(rows_all, d, n_rows), keep(cols_all, r, n_cols)
    mr = np.full(d, -1)
    mr[kr] = np.arange(kr.size)
    mc = np.full(r, -1)
    mc[kc] = np.arange(kc.size)

    def sub(rows, cols, values):
        m = (mr[rows] >= 0) & (mc[cols] >= 0)
        return mr[rows[m]], mc[cols[m]], np.asarray(values)[m]

    rows, cols, values = sub(data["rows"], data["cols"], data["values"])
    return {"rows": rows, "cols": cols, "values": values, "shape": (int(kr.size), int(kc.size)),
            "test": sub(*data["test"])}
