"""Classification data of the boosting-VI experiments (Dresdner et al. 2021, Sec. 6.2), with the
substitutions this repository has to make (see ``data/README.md`` / PROVENANCE):

* CHEMREACT (``ds1.100``, 26,733 × 100 in the paper): only the authors' *test* split
  (2,674 × 100) is available here (registry ``chemreact100``); :func:`logistic_data` splits
  it again, stratified, into train and test;
* EICU is restricted: the stand-in is the full UCI phishing data (11,055 rows), one-hot
  encoded to 68 columns (22 binary and 8 ternary attributes; registry ``phishing``, the ARFF).

Both get an intercept column (last), labels ±1.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, check_choice, check_flag, check_real
from .loaders import load
from .glm_data import phishing_onehot
from .._random import as_generator


#: name -> the registry dataset (folder under data/) it is read from
SOURCES = {"chemreact100": "chemreact100", "phishing68": "phishing"}
DATASETS = tuple(SOURCES)


def stratified_split(y, test_fraction: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Train and test indices, each class split in the proportion ``test_fraction``."""
    y = as_finite_array("y", y, ndim=1, nonempty=True)
    test_fraction = check_real("test_fraction", test_fraction, low=0.0, high=1.0, low_open=True, high_open=True)
    rng = as_generator(rng)
    test = []
    for label in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == label))
        test.append(idx[: int(round(test_fraction * idx.size))])
    test = np.sort(np.concatenate(test))
    train = np.setdiff1d(np.arange(len(y)), test)
    return train, test


def logistic_data(name: str, *, test_fraction: float, rng: np.random.Generator, intercept: bool = True) -> dict:
    """``{'Z', 'y', 'Zt', 'yt'}`` (design, labels ±1) for ``name`` in :data:`DATASETS`.

    ``intercept``: append a column of ones (ours); ``False`` feeds the features alone, as the
    authors' code of Dresdner et al. (2021) does (its bias helper is never called)."""
    check_choice("name", name, DATASETS)
    intercept = check_flag("intercept", intercept)
    if name == "chemreact100":
        d = load("chemreact100")
        X, y = d["X"], np.where(d["y"] > 0, 1.0, -1.0)
    else:
        X, y = phishing_onehot()
    Z = np.column_stack([X, np.ones(len(y))]) if intercept else np.asarray(X, dtype=float)
    train, test = stratified_split(y, test_fraction, rng)
    return {"Z": Z[train], "y": y[train], "Zt": Z[test], "yt": y[test]}
