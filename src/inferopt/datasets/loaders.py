"""Loading fetched files into arrays, by file format.

Model-specific preprocessing (whitening, label mapping, subsampling) lives with the
experiments that need it; these loaders only read what is on disk, verified.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .fetching import fetch_file, local_path
from .registry import get


def _read_npz(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as data:
        return {key: data[key] for key in data.files}


def _read_mat(path: Path) -> dict:
    from scipy.io import loadmat

    return {k: v for k, v in loadmat(path).items() if not k.startswith("__")}


def _read_csv(path: Path):
    import pandas as pd

    return pd.read_csv(path)


def _read_arff(path: Path) -> dict:
    from scipy.io import arff

    records, meta = arff.loadarff(str(path))
    return {name: np.asarray(records[name]).astype(str).astype(float) for name in meta.names()}


def _read_table(path: Path) -> np.ndarray:
    return np.loadtxt(path, dtype=np.int64)


READERS = {".npz": _read_npz, ".mat": _read_mat, ".csv": _read_csv, ".zip": _read_csv, ".arff": _read_arff, ".data": _read_table}


def load(name: str, file: str | None = None, *, fetch: bool = True):
    """Load one file of dataset ``name`` (its only file if ``file`` is None).

    Returns a dict of arrays (``.npz``, ``.mat``, ``.arff``), a DataFrame (``.csv``,
    ``.csv.zip``) or an integer array (``u.data``). With ``fetch`` the file is fetched
    (and verified) first if it is not in ``data/`` yet.
    """
    dataset = get(name)
    entries = {entry.path: entry for entry in dataset.files}
    if file is None:
        data_files = [p for p in entries if Path(p).suffix in READERS]
        if len(data_files) != 1:
            raise ValueError(f"dataset {name!r} has several files {data_files}: name one with file=")
        file = data_files[0]
    if file not in entries:
        raise ValueError(f"dataset {name!r} has no file {file!r}; it has {sorted(entries)}")
    path = fetch_file(dataset, entries[file]) if fetch else local_path(name, file)
    suffix = Path(file).suffix
    if suffix not in READERS:
        raise ValueError(f"no reader for {file!r}; readable suffixes are {sorted(READERS)}")
    return READERS[suffix](path)
