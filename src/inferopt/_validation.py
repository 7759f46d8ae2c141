"""Argument checks shared by every solver: clear ``ValueError`` messages that name
the argument, what was wrong and what is allowed, raised before numpy is reached."""

from __future__ import annotations

import numbers

import numpy as np


def as_finite_array(name: str, value, *, ndim: int | None = None, dtype=float) -> np.ndarray:
    """Return ``value`` as a float array, checking its dimension and that it is finite."""
    try:
        arr = np.asarray(value, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric array-like; got {type(value).__name__}") from exc
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional; got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
        raise ValueError(f"{name} must contain only finite values; found {bad} NaN/inf entries")
    return arr


def as_rows(name: str, value, n_cols: int) -> np.ndarray:
    """A finite 2-D float array of row vectors with exactly ``n_cols`` columns (e.g. samples × D)."""
    arr = as_finite_array(name, value, ndim=2)
    if arr.shape[1] != n_cols:
        raise ValueError(f"{name} must have D = {n_cols} columns; got shape {arr.shape}")
    return arr


def check_int(name: str, value, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as ``int``, requiring ``low <= value <= high`` (bounds optional)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral | np.integer):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer; got {value!r}")
    value = int(value)
    _check_bounds(name, value, low, high)
    return value


def check_real(
    name: str,
    value,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """Return ``value`` as a finite ``float`` within the (optionally open) bounds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number; got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite; got {value}")
    if low is not None and (value < low or (low_open and value == low)):
        raise ValueError(f"{name} must be {'>' if low_open else '>='} {low}; got {value}")
    if high is not None and (value > high or (high_open and value == high)):
        raise ValueError(f"{name} must be {'<' if high_open else '<='} {high}; got {value}")
    return value


def check_choice(name: str, value, allowed) -> str:
    """Require ``value`` to be one of ``allowed`` (a collection of strings)."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {sorted(allowed)}; got {value!r}")
    return value


def check_spd(name: str, matrix) -> np.ndarray:
    """Return the lower Cholesky factor of ``matrix``, requiring it symmetric positive definite."""
    mat = as_finite_array(name, matrix, ndim=2)
    if mat.shape[0] != mat.shape[1]:
        raise ValueError(f"{name} must be square; got shape {mat.shape}")
    if not np.allclose(mat, mat.T, rtol=1e-10, atol=1e-12 * max(1.0, np.abs(mat).max())):
        raise ValueError(f"{name} must be symmetric")
    try:
        return np.linalg.cholesky(mat)
    except np.linalg.LinAlgError as exc:
        raise ValueError(f"{name} must be positive definite (its Cholesky factorisation failed)") from exc


def _check_bounds(name: str, value, low, high) -> None:
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}; got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}; got {value}")
