"""Project paths anchored at the repository root, whatever the working directory.

papermill runs a notebook in the caller's directory, nbval and JupyterLab in the
notebook's own folder: every path a notebook writes goes through :func:`repo_root`.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

#: Files that together mark the repository root.
_MARKERS = ("dvc.yaml", "pyproject.toml")


def _is_root(path: Path) -> bool:
    return all((path / marker).exists() for marker in _MARKERS)


@lru_cache(maxsize=1)
def repo_root() -> Path:
    """The repository root: ``$INFEROPT_ROOT`` if set, else the first folder holding
    ``dvc.yaml`` and ``pyproject.toml`` above this package (editable install) or above
    the working directory."""
    env = os.environ.get("INFEROPT_ROOT")
    if env:
        root = Path(env).resolve()
        if not _is_root(root):
            raise FileNotFoundError(f"INFEROPT_ROOT={env} does not hold {' and '.join(_MARKERS)}")
        return root
    for start in (Path(__file__).resolve(), Path.cwd().resolve()):
        for candidate in (start, *start.parents):
            if _is_root(candidate):
                return candidate
    raise FileNotFoundError(
        "cannot find the inferopt repository root (a folder with dvc.yaml and pyproject.toml) "
        "above the package or the working directory; set INFEROPT_ROOT"
    )


def resolve(path: str | os.PathLike) -> Path:
    """``path`` if absolute, else anchored at the repository root."""
    path = Path(path)
    return path if path.is_absolute() else repo_root() / path
