"""Periodic Sobolev kernels on [0, 1] (Wahba 1990; Bach et al. 2012, Sec. 5.1; notes Sec. 5.1).

RKHS of zero-mean 1-periodic functions with ``f^(s)`` in L^2::

    k_s(x, y) = (-1)^(s-1) / (2s)! * B_2s({x - y})                 (Bernoulli form)
              = sum_{m>=1} 2 cos(2 pi m (x - y)) / (2 pi m)^(2s)        (Fourier form)

with eigenvalues decaying as ``m^(-2s)``.  For a :class:`TrigDensity` ``p`` the mean element
and its norm are finite sums: ``mu(y) = sum_m 2 (c_m cos 2 pi m y + s_m sin 2 pi m y) /
(2 pi m)^(2s)`` and ``||mu||^2 = sum_m 2 (c_m^2 + s_m^2) / (2 pi m)^(2s)``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb, factorial

import numpy as np

from .._validation import as_finite_array, check_int, check_size
from .densities import TrigDensity
from .targets import KernelTarget


@lru_cache(maxsize=None)
def _bernoulli_coefficients(n: int) -> tuple[float, ...]:
    """``C(n, k) B_k`` for ``k = 0..n``, each the float nearest its exact value: the Bernoulli numbers by the
    recurrence ``B_m = -1/(m+1) sum_{k<m} C(m+1, k) B_k`` (``B_1 = -1/2``) in exact fractions.  (scipy's
    ``special.bernoulli`` is not exact: its ``B_4`` is off by 5.7e-14, which moved every order-2 kernel value
    by 2.4e-15, the size of herding's errors at t ~ 500.)"""
    numbers = [Fraction(1)]
    for m in range(1, n + 1):
        numbers.append(-sum(comb(m + 1, k) * numbers[k] for k in range(m)) / (m + 1))
    return tuple(float(comb(n, k) * numbers[k]) for k in range(n + 1))


def bernoulli_polynomial(n: int, u) -> np.ndarray:
    """``B_n(u) = sum_k C(n, k) B_k u^(n-k)`` (e.g. ``B_2 = u^2 - u + 1/6``), its coefficients exact to the
    last bit; ``n <= 258``, beyond which the Bernoulli numbers ``B_k`` overflow float64."""
    n = check_int("n", n, low=0, high=258)
    return np.polyval(_bernoulli_coefficients(n), as_finite_array("u", u))   # highest power first


def fourier_weight(m, s: int) -> np.ndarray:
    """``1 / (2 pi m)^(2s)``: half the kernel's eigenvalue on ``cos(2 pi m .)`` and ``sin(2 pi m .)``;
    frequencies ``m >= 1`` (``m = 0``, the constants, is not in the space), orders ``s`` in 1..4."""
    s = _order(s)
    m = as_finite_array("m", m)
    if m.size and (m.min() < 1 or np.any(m != np.round(m))):
        raise ValueError(f"m must hold integer frequencies >= 1; got values from {m.min():g} to {m.max():g}")
    return (2.0 * np.pi * m) ** (-2 * s)


def _order(s) -> int:
    return check_int("s", s, low=1, high=4)


def sobolev_kernel(x, y, s: int) -> np.ndarray:
    """``k_s(x_i, y_j)`` by the Bernoulli form, shape ``(len(x), len(y))``; ``s`` in 1..4."""
    s = _order(s)
    diff = np.subtract.outer(as_finite_array("x", x, ndim=1), as_finite_array("y", y, ndim=1))
    return (-1) ** (s - 1) / factorial(2 * s) * bernoulli_polynomial(2 * s, np.mod(diff, 1.0))


def sobolev_kernel_fourier(x, y, s: int, n_terms: int = 10_000) -> np.ndarray:
    """The Fourier form truncated to ``m <= n_terms`` (for checks and spectral views)."""
    s = _order(s)
    m = np.arange(1, check_size("n_terms", n_terms, item_bytes=8 * (1 + np.size(x) * np.size(y)), item="term") + 1)
    diff = np.subtract.outer(as_finite_array("x", x, ndim=1), as_finite_array("y", y, ndim=1))
    return 2.0 * np.cos(2.0 * np.pi * diff[..., None] * m) @ fourier_weight(m, s)


class SobolevTarget(KernelTarget):
    """Mean element of a :class:`TrigDensity` in the order-``s`` Sobolev RKHS, in closed form."""

    def __init__(self, s: int, density: TrigDensity) -> None:
        self.s = _order(s)
        if not isinstance(density, TrigDensity):
            raise ValueError(f"density must be a TrigDensity; got {type(density).__name__}")
        self.density = density
        w = fourier_weight(density.m, self.s)
        self._cw, self._sw = 2.0 * density.cos_moments * w, 2.0 * density.sin_moments * w
        self.mean_sqnorm = float(np.sum(2.0 * (density.cos_moments**2 + density.sin_moments**2) * w))
        self._diag = float((-1) ** (self.s - 1) / factorial(2 * self.s) * bernoulli_polynomial(2 * self.s, 0.0))

    def kernel(self, x, y) -> np.ndarray:
        return sobolev_kernel(x, y, self.s)

    def kernel_diag(self, x) -> np.ndarray:
        return np.full(len(np.asarray(x)), self._diag)

    def check_points(self, name: str, points) -> np.ndarray:
        """Points of [0, 1) (any reals: the kernel is 1-periodic) as a non-empty 1-d array."""
        return as_finite_array(name, points, ndim=1, nonempty=True)

    def mean(self, x) -> np.ndarray:
        arg = 2.0 * np.pi * as_finite_array("x", x, ndim=1)[:, None] * self.density.m
        return np.cos(arg) @ self._cw + np.sin(arg) @ self._sw
