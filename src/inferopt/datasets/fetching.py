"""Fetching registered files into ``data/<dataset>/``, verified by sha256.

Sources, in order: the mirror folder (``$INFEROPT_DATA_MIRROR``, else ``../shared/data``
beside the repository when it exists), then the file's download URL. A file is
written under a temporary name and moved into place only once its checksum
matches, so a failed fetch leaves no partial file.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import urllib.request
from pathlib import Path

from .._paths import repo_root
from .registry import DataFile, Dataset, get

MIRROR_ENV = "INFEROPT_DATA_MIRROR"
DOWNLOAD_TIMEOUT_S = 30


class DataUnavailableError(FileNotFoundError):
    """A registered file could not be obtained with the right checksum."""


def sha256sum(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def mirror_dir() -> Path | None:
    """The mirror folder: ``$INFEROPT_DATA_MIRROR`` if set, else ``../shared/data`` if present."""
    env = os.environ.get(MIRROR_ENV)
    if env:
        return Path(env)
    default = repo_root().parent / "shared" / "data"
    return default if default.is_dir() else None


def data_dir() -> Path:
    return repo_root() / "data"


def local_path(dataset: str, path: str) -> Path:
    """Where a fetched file lives: ``data/<dataset>/<path>``."""
    return data_dir() / dataset / path


def _copy_verified(source, dest: Path, sha256: str) -> str | None:
    """Copy ``source`` (a path or an open binary stream) to ``dest`` if its sha256 matches;
    return None on success or the reason it was rejected."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            if isinstance(source, Path):
                with open(source, "rb") as src:
                    shutil.copyfileobj(src, out)
            else:
                shutil.copyfileobj(source, out)
        got = sha256sum(tmp)
        if got != sha256:
            return f"checksum mismatch (sha256 {got}, expected {sha256})"
        os.replace(tmp, dest)
        return None
    finally:
        tmp.unlink(missing_ok=True)


def fetch_file(dataset: Dataset, entry: DataFile, *, allow_download: bool = True) -> Path:
    """Make ``data/<dataset>/<file>`` present and verified; return its path."""
    dest = local_path(dataset.name, entry.path)
    if dest.exists() and sha256sum(dest) == entry.sha256:
        return dest
    tried = []
    mirror = mirror_dir()
    if mirror is not None:
        candidate = mirror / dataset.name / entry.path
        if candidate.exists():
            problem = _copy_verified(candidate, dest, entry.sha256)
            if problem is None:
                return dest
            tried.append(f"mirror {candidate}: {problem}")
        else:
            tried.append(f"mirror {candidate}: not found")
    else:
        tried.append(f"mirror: none (set {MIRROR_ENV}, or place the data in ../shared/data)")
    if allow_download:
        try:
            with urllib.request.urlopen(entry.url, timeout=DOWNLOAD_TIMEOUT_S) as response:
                problem = _copy_verified(response, dest, entry.sha256)
            if problem is None:
                return dest
            tried.append(f"download {entry.url}: {problem}")
        except OSError as exc:
            tried.append(f"download {entry.url}: {exc}")
    else:
        tried.append("download: not allowed")
    if dest.exists():
        tried.append(f"existing {dest}: checksum mismatch (left in place untouched)")
    raise DataUnavailableError(
        f"dataset {dataset.name!r}, file {entry.path!r} (sha256 {entry.sha256}) is unavailable.\n"
        + "".join(f"  tried {t}\n" for t in tried)
        + f"Fix: copy the file to {dest}, or point {MIRROR_ENV} at a folder holding "
        f"{dataset.name}/{entry.path}, or run where {entry.url} can be reached."
    )


def fetch(name: str, *, allow_download: bool = True) -> list[Path]:
    """Fetch every file of dataset ``name``; return their local paths."""
    dataset = get(name)
    return [fetch_file(dataset, entry, allow_download=allow_download) for entry in dataset.files]
