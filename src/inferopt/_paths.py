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


def enclosing_root(path: str | os.PathLike) -> Path | None:
    """The first folder at or above ``path`` holding ``dvc.yaml`` and ``pyproject.toml`` (None: none)."""
    start = Path(path).resolve()
    return next((c for c in (start, *start.parents) if _is_root(c)), None)


def check_checkout(cwd: str | os.PathLike | None = None) -> None:
    """Refuse to run the code of one checkout from inside another.

    The venv's editable install points at the checkout it was built in (``make venv``); a kernel started
    in another checkout (a git worktree) without that checkout's ``src`` on ``PYTHONPATH`` imports the
    first checkout's library -- its verdict engine, its algorithms -- and :func:`repo_root` then writes
    there too. The same notebook at the same commit then gives the verdicts of whatever the other
    checkout holds (B4.3: ``fails`` in one worktree, ``inconclusive`` in another, at one commit).
    Raises RuntimeError naming both folders when the working directory ``cwd`` (default: the current
    one) lies in a repository other than the one this package was imported from; ``$INFEROPT_ROOT``, a root
    chosen explicitly, turns the check off."""
    if os.environ.get("INFEROPT_ROOT"):
        return
    here = enclosing_root(Path.cwd() if cwd is None else cwd)
    package = enclosing_root(Path(__file__).parent)
    if here is not None and package is not None and here != package:
        raise RuntimeError(f"this kernel imports inferopt from {package}/src but runs in the checkout {here}: its "
                           f"verdicts would be those of the other checkout's code; put {here}/src first on "
                           "PYTHONPATH (or build this checkout's venv: make venv)")


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
