"""Argument checks shared by every solver: clear ``ValueError`` messages that name
the argument, what was wrong and what is allowed, raised before numpy is reached."""

from __future__ import annotations

import functools
import numbers
import os

import numpy as np


def as_finite_array(name: str, value, *, ndim: int | None = None, dtype=float, nonempty: bool = False) -> np.ndarray:
    """Return ``value`` as a real float array, checking its dimension, that it is finite and
    (``nonempty``) that it has at least one entry. Complex input is refused, not truncated to
    its real part; booleans are refused (a mask is not a number)."""
    if isinstance(value, str | bytes):
        raise TypeError(f"{name} must be a numeric array; got a string {value!r}")
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric array-like; got {type(value).__name__}") from exc
    if np.iscomplexobj(raw):
        raise TypeError(f"{name} must be real; got complex values (dtype {raw.dtype}): pass the real part explicitly "
                        "if that is what is meant")
    if raw.dtype == bool:
        raise TypeError(f"{name} must be numeric; got a boolean array")
    try:
        arr = np.asarray(raw, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric array-like; got {type(value).__name__} of dtype {raw.dtype}") from exc
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional; got shape {arr.shape}")
    if nonempty and arr.size == 0:
        raise ValueError(f"{name} must not be empty; got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
        raise ValueError(f"{name} must contain only finite values; found {bad} NaN/inf entries")
    return arr


def as_rows(name: str, value, n_cols: int, *, nonempty: bool = False) -> np.ndarray:
    """A finite 2-D float array of row vectors with exactly ``n_cols`` columns (e.g. samples × D)."""
    arr = as_finite_array(name, value, ndim=2, nonempty=nonempty)
    if arr.shape[1] != n_cols:
        raise ValueError(f"{name} must have D = {n_cols} columns; got shape {arr.shape}")
    return arr


def check_int(name: str, value, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as ``int``, requiring ``low <= value <= high`` (bounds optional)."""
    if isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be an integer, not a boolean; got {value!r}")
    if not isinstance(value, numbers.Integral | np.integer):
        if isinstance(value, numbers.Real) and np.isfinite(float(value)) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer; got {value!r}")
    value = int(value)
    _check_bounds(name, value, low, high)
    return value


@functools.cache
def memory_bytes() -> int:
    """This machine's physical memory in bytes (``2**40`` where the system does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return 2**40


def _in_bytes(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if n < 1024 or unit == "EiB":
            return f"{n:.3g} {unit}"
        n /= 1024
    return f"{n:.3g} EiB"


def check_size(name: str, value, *, low: int | None = 1, high: int | None = None, item_bytes: int = 8,
               item: str = "") -> int:
    """An integer count (``check_int``) that sizes what a call keeps in memory: ``value * item_bytes``
    (a lower bound of the call's arrays; ``item`` says per what) must fit this machine's memory
    (:func:`memory_bytes`). Issue 47: sizes like ``2**40`` reached numpy's allocator ("Unable to
    allocate 16 TiB") or ran with no end in sight; they are refused here, before anything starts."""
    value = check_int(name, value, low=low, high=high)
    need, have = value * int(item_bytes), memory_bytes()
    if need > have:
        per = f"{int(item_bytes)} bytes per {item or 'unit of ' + name}"
        raise ValueError(f"{name} = {value} is more than this machine can hold: the call keeps at least "
                         f"{_in_bytes(need)} ({per}) and the memory is {_in_bytes(have)} "
                         f"(allowed: {name} <= {have // int(item_bytes)})")
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
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {value!r}")
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
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {sorted(allowed)}; got {value!r}")
    return value


def check_square(name: str, matrix, *, symmetric: bool = False) -> np.ndarray:
    """A finite, real, non-empty square matrix; ``symmetric`` to a relative tolerance of 1e-10."""
    mat = as_finite_array(name, matrix, ndim=2, nonempty=True)
    if mat.shape[0] != mat.shape[1]:
        raise ValueError(f"{name} must be square; got shape {mat.shape}")
    if symmetric and not np.allclose(mat, mat.T, rtol=1e-10, atol=1e-12 * max(1.0, float(np.abs(mat).max()))):
        raise ValueError(f"{name} must be symmetric; max |{name} - {name}.T| = {np.abs(mat - mat.T).max():.3g}")
    return mat


#: relative tolerance of :func:`check_psd`: eigenvalues down to ``-PSD_RTOL * max|eig|`` count as rounding.
PSD_RTOL = 1e-8


def check_psd(name: str, matrix, *, requirement: str = "must be positive semidefinite (a Gram matrix)") -> np.ndarray:
    """A symmetric positive *semi*definite matrix, to a tolerance: its smallest eigenvalue must be
    ``>= -PSD_RTOL * max|eigenvalue|``. One Cholesky factorisation of the matrix shifted by that
    tolerance (the eigenvalues are computed only to report a failure). Returns the matrix."""
    mat = check_square(name, matrix, symmetric=True)
    sym = 0.5 * (mat + mat.T)
    # the largest |eigenvalue| lies in [max|M_ij|, n max|M_ij|]: the upper end makes the test lenient by at most n
    shift = PSD_RTOL * len(sym) * max(float(np.abs(sym).max()), np.finfo(float).tiny)
    try:
        np.linalg.cholesky(sym + shift * np.eye(len(sym)))
    except np.linalg.LinAlgError:
        eig = np.linalg.eigvalsh(sym)
        raise ValueError(f"{name} {requirement}; the smallest eigenvalue is {eig[0]:.3g} "
                         f"(allowed down to -{PSD_RTOL:g} x n x max|entry| = {-shift:.3g})") from None
    return mat


def check_indices(name: str, value, n: int, *, distinct: bool = True) -> np.ndarray:
    """A 1-d array of integer indices in ``[0, n)`` (negative, fractional, boolean or larger ones refused).

    ``distinct`` (default): the indices name a *set* (a support, a subset of columns), so a
    repeated index is refused: solvers that slice ``Phi[:, idx]`` would count that column twice
    (issue 29: ``nnls_on_support(Phi, y, [1, 1])`` returned a wrong objective). Pass
    ``distinct=False`` for paired coordinates (e.g. the rows of observed matrix entries)."""
    raw = np.atleast_1d(np.asarray(value))
    if raw.size and (raw.dtype == bool or not np.issubdtype(raw.dtype, np.integer)):
        if raw.dtype == bool or not np.issubdtype(raw.dtype, np.floating) or not np.all(np.isfinite(raw)) \
                or not np.all(raw == np.round(raw)):
            raise TypeError(f"{name} must hold integer indices in [0, {n}); got dtype {raw.dtype}")
    if raw.ndim != 1:
        raise ValueError(f"{name} must be a 1-dimensional sequence of indices; got shape {raw.shape}")
    idx = raw.astype(np.intp)
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise ValueError(f"{name} must hold indices in [0, {n - 1}]; got values from {idx.min()} to {idx.max()}")
    if distinct and idx.size > 1:
        uniq, counts = np.unique(idx, return_counts=True)
        if uniq.size < idx.size:
            raise ValueError(f"{name} must hold distinct indices (a set); {uniq[counts > 1][:5].tolist()} "
                             f"repeated")
    return idx


def check_flag(name: str, value) -> bool:
    """A boolean switch: ``True``/``False`` or ``numpy.bool_``. Anything else is refused, in
    particular strings (``'no'`` is truthy) and numbers (issue 29)."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False; got {type(value).__name__} {value!r}")
    return bool(value)


def check_returned(name: str, value, *, shape: tuple | None = None, low: float | None = None,
                   low_open: bool = False) -> np.ndarray:
    """The value returned by the user's callable ``name``: finite, real, of ``shape`` (if given)
    and ``>= low`` (``> low`` with ``low_open``). The message names the callable, so a schedule
    returning a negative step or a function returning NaN fails where it was passed, not deep
    inside a solver."""
    arr = as_finite_array(f"the value returned by {name}", value)
    if shape is not None and arr.shape != tuple(shape):
        raise ValueError(f"{name} must return an array of shape {tuple(shape)}; got shape {arr.shape}")
    if low is not None and arr.size and (arr.min() < low or (low_open and arr.min() == low)):
        raise ValueError(f"{name} must return values {'>' if low_open else '>='} {low}; got {arr.min():.6g}")
    return arr


def check_in_hull(name: str, point, vertices, *, what: str = "the convex hull of the rows of features",
                  rtol: float = 1e-9) -> float:
    """Feasibility of a target: ``point`` (length ``D``) must lie in the convex hull of the rows of
    ``vertices`` (``m x D``), e.g. moments in the marginal polytope. The distance to the hull is
    the min-norm point of ``{Vᵀp - point : p in the simplex}`` (Wolfe's algorithm,
    :func:`inferopt.fw.hull_quadratic`); a distance above ``rtol * scale`` is refused and the
    message gives it. Returns the distance."""
    from .fw import hull_quadratic   # fw uses this module: import at call time

    V = np.asarray(vertices, dtype=float)
    x = np.asarray(point, dtype=float)
    res = hull_quadratic(V.T, x, variant="mnp", tol=1e-14, max_iter=10 * (V.shape[0] + 10))
    nearest = V.T @ res.dense_weights(V.shape[0])
    dist = float(np.linalg.norm(nearest - x))       # directly, not from the Gram expansion (cancellation)
    scale = max(1.0, float(np.abs(V).max()), float(np.abs(x).max()))
    if dist > rtol * scale:
        raise ValueError(f"{name} is infeasible: it lies outside {what}, at a distance {dist:.6g} from it "
                         f"(nearest feasible value {np.array2string(nearest, precision=6)})")
    return dist


def check_nonneg(name: str, arr: np.ndarray) -> np.ndarray:
    """Require every entry of an (already finite) array to be ``>= 0``."""
    if arr.size and arr.min() < 0:
        raise ValueError(f"{name} must be >= 0 entrywise; got a minimum of {arr.min():.6g}")
    return arr


def check_probabilities(name: str, value, *, atol: float = 1e-8) -> np.ndarray:
    """A non-empty 1-d probability vector: entries ``>= 0`` summing to 1 (within ``atol``)."""
    p = check_nonneg(name, as_finite_array(name, value, ndim=1, nonempty=True))
    if abs(p.sum() - 1.0) > atol:
        raise ValueError(f"{name} must sum to 1 (a probability vector); got a sum of {p.sum():.12g}")
    return p


def check_spd(name: str, matrix) -> np.ndarray:
    """Return the lower Cholesky factor of ``matrix``, requiring it symmetric positive definite."""
    mat = check_square(name, matrix, symmetric=True)
    try:
        return np.linalg.cholesky(mat)
    except np.linalg.LinAlgError as exc:
        raise ValueError(f"{name} must be positive definite (its Cholesky factorisation failed)") from exc


def _check_bounds(name: str, value, low, high) -> None:
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}; got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}; got {value}")


def check_file_name(name: str, value) -> str:
    """A plain file name (issue 47: ``save_results("../escape")`` wrote outside its folder): a non-empty
    string with no path separator (``/`` or ``\\``), not ``.`` or ``..``, no NUL character."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a file name (a string); got {type(value).__name__} {value!r}")
    if not value or value in (".", "..") or any(c in value for c in "/\\\0"):
        raise ValueError(f"{name} must be a plain file name (no '/', '\\', NUL, not '.' or '..'), so the file stays "
                         f"in its folder; got {value!r}")
    return value


def check_callable(name: str, value):
    """Require ``value`` to be callable (a function of the documented signature)."""
    if not callable(value):
        raise TypeError(f"{name} must be callable; got {type(value).__name__}")
    return value


def check_protocol(name: str, value, *attributes: str, what: str = ""):
    """Require ``value`` to have the given attributes (duck typing, e.g. a model's ``posterior``)."""
    missing = [a for a in attributes if not hasattr(value, a)]
    if missing:
        kind = f" ({what})" if what else ""
        raise TypeError(f"{name} must be an object with {', '.join(attributes)}{kind}; got {type(value).__name__} "
                        f"without {', '.join(missing)}")
    return value


def check_table(name: str, table, columns=()):
    """A ``pandas.DataFrame`` holding the given columns."""
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame; got {type(table).__name__}")
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"{name} must have the columns {list(columns)}; missing {missing}")
    return table


def check_choices(name: str, values, allowed) -> list:
    """A non-empty sequence (not a string) whose items are all in ``allowed``."""
    if isinstance(values, str | bytes) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a sequence of names; got {values!r}")
    values = list(values)
    if not values:
        raise ValueError(f"{name} must not be empty")
    for v in values:
        check_choice(name, v, allowed)
    return values


def check_int_sequence(name: str, values, *, low: int | None = None, high: int | None = None) -> list[int]:
    """A non-empty sequence of integers in ``[low, high]`` (or a single integer)."""
    if isinstance(values, str | bytes):
        raise TypeError(f"{name} must be integers; got {values!r}")
    items = list(np.atleast_1d(np.asarray(values, dtype=object)).tolist()) if np.ndim(values) else [values]
    if not items:
        raise ValueError(f"{name} must not be empty")
    return [check_int(name, v, low=low, high=high) for v in items]


def shape_checked(cls, *methods: str, name: str = "theta"):
    """Wrap the ``methods`` of ``cls`` so that their first argument ``name`` must have the
    instance's ``shape`` (a problem's parameter, e.g. ``θ`` of a matrix-completion problem):
    a wrong-shaped ``θ`` is refused by name instead of failing deep in numpy (issue 29).
    Applied once after the class definition; returns ``cls``."""
    import functools

    def wrap(method):
        @functools.wraps(method)
        def checked(self, theta, *args, **kwargs):
            if np.shape(theta) != tuple(self.shape):
                raise ValueError(f"{name} must have the problem's shape {tuple(self.shape)}; got {np.shape(theta)}")
            return method(self, theta, *args, **kwargs)
        return checked

    for m in methods:
        setattr(cls, m, wrap(getattr(cls, m)))
    return cls
