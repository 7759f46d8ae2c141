"""The dataset registry: each dataset's files with sha256, download URL and citation;
fetching from a mirror folder or the URL with checksum verification; loaders.

    python -m inferopt.datasets list
    python -m inferopt.datasets fetch NAME [NAME ...]
"""

from .fetching import MIRROR_ENV, DataUnavailableError, fetch, fetch_file, mirror_dir, sha256sum
from .loaders import load
from .registry import DATASETS, DataFile, Dataset, get

__all__ = [
    "DATASETS",
    "MIRROR_ENV",
    "DataFile",
    "DataUnavailableError",
    "Dataset",
    "fetch",
    "fetch_file",
    "get",
    "load",
    "mirror_dir",
    "sha256sum",
]
