"""The dataset registry and its fetch step: checksums, mirror, clear failures, no partial files."""

import hashlib
import re

import numpy as np
import pytest

from inferopt import datasets
from inferopt.datasets import fetching as fetch_mod
from inferopt.datasets.registry import DATASETS, DataFile, Dataset


def test_registry_entries_are_complete():
    for ds in DATASETS.values():
        assert ds.files and ds.citation and ds.upstream.startswith("http")
        for f in ds.files:
            assert re.fullmatch(r"[0-9a-f]{64}", f.sha256), (ds.name, f.path)
            assert f.url.startswith("https://"), f.url
    assert DATASETS["california_housing"].stand_in and DATASETS["movielens_100k"].stand_in


def test_unknown_dataset_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown dataset 'nope'.*registry has"):
        datasets.get("nope")


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A registered toy dataset, a mirror holding it, and a scratch data/ folder."""
    payload = b"toy bytes\n"
    entry = DataFile("toy.npz", hashlib.sha256(payload).hexdigest(), "https://127.0.0.1:9/toy.npz")
    ds = Dataset("toy", "toy", "nobody", "https://example.invalid", (entry,))
    monkeypatch.setitem(DATASETS, "toy", ds)
    mirror = tmp_path / "mirror"
    (mirror / "toy").mkdir(parents=True)
    (mirror / "toy" / "toy.npz").write_bytes(payload)
    monkeypatch.setenv(datasets.MIRROR_ENV, str(mirror))
    monkeypatch.setattr(fetch_mod, "data_dir", lambda: tmp_path / "data")
    return ds, mirror, tmp_path / "data"


def test_fetch_copies_from_the_mirror_and_verifies(toy):
    _, _, data = toy
    (path,) = datasets.fetch("toy", allow_download=False)
    assert path == data / "toy" / "toy.npz" and path.read_bytes() == b"toy bytes\n"


def test_corrupt_mirror_fails_clearly_and_leaves_no_partial_file(toy):
    _, mirror, data = toy
    (mirror / "toy" / "toy.npz").write_bytes(b"tampered\n")
    with pytest.raises(datasets.DataUnavailableError) as err:
        datasets.fetch("toy", allow_download=False)
    message = str(err.value)
    assert "'toy'" in message and "checksum mismatch" in message and str(mirror) in message and "Fix:" in message
    assert not any((data / "toy").glob("*")), "a failed fetch must leave no file behind"


def test_missing_everywhere_names_every_place_tried(toy):
    _, mirror, _ = toy
    (mirror / "toy" / "toy.npz").unlink()
    with pytest.raises(datasets.DataUnavailableError, match=r"(?s)not found.*download https://127\.0\.0\.1:9/toy\.npz"):
        datasets.fetch("toy")  # the URL points at a closed local port: the download fails at once


def test_shared_mirror_files_verify_and_load():
    mirror = datasets.mirror_dir()
    if mirror is None or not (mirror / "phishing" / "phishing.npz").exists():
        pytest.skip("no shared data mirror on this machine")
    for ds in DATASETS.values():
        for f in ds.files:
            assert datasets.sha256sum(mirror / ds.name / f.path) == f.sha256, (ds.name, f.path)
    data = datasets.load("phishing", "phishing.npz")
    assert data["X"].shape == (500, 11) and set(np.unique(data["y"])) == {-1.0, 1.0}
    assert datasets.load("movielens_100k", "u.data").shape == (100000, 4)
