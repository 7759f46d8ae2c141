"""Chebyshev series of a function on an interval ``[a, b]`` (Han et al. 2018, Sec. 2.1).

``f(x) = sum_j b_j T_j(2x/(b-a) - (b+a)/(b-a))`` with coefficients computed by a
discrete cosine transform of ``f`` sampled at Chebyshev points of the first kind.
The number of points doubles until the trailing coefficients fall below a relative
tolerance, so the returned series reproduces ``f`` to about machine precision
("chopped" as in Chebfun: coefficients below ``tol * max|b_j|`` at the tail are cut).
"""

from __future__ import annotations

import numpy as np
from scipy.fft import dct

from .._validation import as_finite_array, check_flag, check_int, check_real, check_size

#: Largest number of Chebyshev points tried before giving up on convergence.
MAX_POINTS = 2**16


def check_interval(a, b) -> tuple[float, float]:
    """Validate an interval ``[a, b]`` with finite ``a < b``."""
    a = check_real("a", a)
    b = check_real("b", b)
    if not a < b:
        raise ValueError(f"interval must satisfy a < b; got a={a}, b={b}")
    return a, b


def to_unit(x, a: float, b: float):
    """Map ``x`` in ``[a, b]`` to ``[-1, 1]``: ``2x/(b-a) - (b+a)/(b-a)``."""
    return (2.0 * np.asarray(x, dtype=float) - (b + a)) / (b - a)


def from_unit(t, a: float, b: float):
    """Map ``t`` in ``[-1, 1]`` to ``[a, b]``."""
    return 0.5 * (b - a) * np.asarray(t, dtype=float) + 0.5 * (b + a)


def _values_at_nodes(f, a: float, b: float, n_points: int) -> np.ndarray:
    theta = np.pi * (np.arange(n_points) + 0.5) / n_points
    x = from_unit(np.cos(theta), a, b)
    with np.errstate(all="ignore"):
        values = np.asarray(f(x))
    if np.iscomplexobj(values):     # issue 47: the imaginary part was dropped with a warning
        raise TypeError(f"f must be real-valued on [a, b] = [{a}, {b}]; it returned complex values "
                        f"(dtype {values.dtype})")
    values = np.asarray(values, dtype=float)
    if values.shape != x.shape:
        raise ValueError(f"f must map an array of shape {x.shape} to one of the same shape; got {values.shape}")
    if not np.all(np.isfinite(values)):
        bad = x[~np.isfinite(values)]
        raise ValueError(f"f must be finite on [a, b] = [{a}, {b}]; it is not at x = {bad[:3]}")
    return values


def chebyshev_coefficients(
    f, a, b, *, tol: float = 1e-15, degree: int | None = None, max_points: int = MAX_POINTS, require_convergence: bool = True
) -> np.ndarray:
    """Chebyshev coefficients ``b_0, b_1, ...`` of ``f`` on ``[a, b]``.

    Parameters
    ----------
    f : vectorised callable, finite on ``[a, b]``.
    a, b : the interval (``a < b``).
    tol : relative size below which trailing coefficients count as converged.
    degree : if given, return exactly ``degree + 1`` coefficients (computed from an
        adaptively converged expansion, so they are accurate, zero-padded if the
        series converged earlier); otherwise return the chopped series.
    max_points : the largest number of Chebyshev points tried (doubling from 32).
    require_convergence : if False, a series still unconverged at ``max_points`` is
        returned as it is (aliasing perturbs ``b_j`` by about ``|b_{2P-j}|``) instead of
        raising; for ``f`` known to be analytic but with ``rho`` very close to 1.

    Returns
    -------
    numpy array of coefficients, ``b[j]`` multiplying ``T_j``.
    """
    a, b = check_interval(a, b)
    tol = check_real("tol", tol, low=0.0, low_open=True)
    require_convergence = check_flag("require_convergence", require_convergence)
    if not callable(f):
        raise ValueError(f"f must be callable; got {type(f).__name__}")
    if degree is not None:
        degree = check_size("degree", degree, low=0, item_bytes=8 * 3, item="Chebyshev term")
    max_points = check_int("max_points", max_points, low=32)
    n_points = 32
    while True:
        values = _values_at_nodes(f, a, b, n_points)
        coeffs = dct(values, type=2) / n_points
        coeffs[0] /= 2.0
        scale = max(np.abs(coeffs).max(), np.finfo(float).tiny)
        tail = np.abs(coeffs[-max(4, n_points // 8):])
        if tail.max() <= tol * scale * 10:
            break
        if n_points >= max_points:
            if not require_convergence:
                break
            raise ValueError(
                f"the Chebyshev series of f on [{a}, {b}] did not converge with {max_points} points: "
                "f must be analytic (smooth) on the interval"
            )
        n_points *= 2
    above = np.nonzero(np.abs(coeffs) > tol * scale)[0]
    coeffs = coeffs[: above[-1] + 1] if above.size else coeffs[:1]
    if degree is None:
        return coeffs
    out = np.zeros(degree + 1)
    m = min(degree + 1, coeffs.size)
    out[:m] = coeffs[:m]
    return out


def chebyshev_eval(coeffs, x, a, b) -> np.ndarray:
    """Evaluate ``sum_j coeffs[j] T_j`` at points ``x`` of ``[a, b]`` (Clenshaw)."""
    a, b = check_interval(a, b)
    coeffs = as_finite_array("coeffs", coeffs, ndim=1, nonempty=True)
    return np.polynomial.chebyshev.chebval(to_unit(as_finite_array("x", x), a, b), coeffs)


def bernstein_rho(a, b, singularity) -> float:
    """Parameter ``rho`` of the largest Bernstein ellipse (foci ±1) free of a real singularity.

    For ``f`` analytic on ``[a, b]`` with a singularity at ``singularity`` outside it
    (e.g. 0 for ``log`` and ``sqrt``), the Chebyshev coefficients decay like ``rho^{-j}``
    (Eq. 2 of Han et al.), with ``rho = |t| + sqrt(t^2 - 1)`` for ``t`` the singularity
    mapped to the unit interval.
    """
    a, b = check_interval(a, b)
    t = abs(float(to_unit(check_real("singularity", singularity), a, b)))
    if t <= 1.0:
        raise ValueError(f"singularity={singularity} lies inside [a, b] = [{a}, {b}]: f is not analytic there")
    return t + np.sqrt(t * t - 1.0)


def fit_decay(coeffs, *, j_min: int = 1, rel_floor: float = 1e-13) -> tuple[float, float, float]:
    """Fit ``b_j^2 ≈ c rho^{-2j}`` by least squares on ``log b_j^2`` (Fig. 1(d) of Han et al.).

    Uses the coefficients ``j >= j_min`` above ``rel_floor * max|b|`` (below that they are
    rounding noise). Returns ``(c, rho, r_squared)`` of the fit.
    """
    coeffs = as_finite_array("coeffs", coeffs, ndim=1, nonempty=True)
    j_min = check_int("j_min", j_min, low=0)
    rel_floor = check_real("rel_floor", rel_floor, low=0.0, high=1.0, high_open=True)
    j = np.arange(coeffs.size)
    keep = (j >= j_min) & (np.abs(coeffs) > rel_floor * np.abs(coeffs).max())
    if keep.sum() < 3:
        raise ValueError("coeffs must hold at least 3 coefficients j >= j_min above rel_floor * max|coeffs| "
                         "to fit a decay rate")
    y = np.log(coeffs[keep] ** 2)
    slope, intercept = np.polyfit(j[keep], y, 1)
    residual = y - (slope * j[keep] + intercept)
    r_squared = 1.0 - residual.var() / y.var()
    rho = float(np.exp(-slope / 2.0))
    if rho <= 1.0:
        raise ValueError(f"coefficients do not decay (fitted rho = {rho:.4g} <= 1)")
    return float(np.exp(intercept)), rho, float(r_squared)
