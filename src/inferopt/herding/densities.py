"""Smooth densities on [0, 1] with closed-form Fourier coefficients (Bach et al. 2012, Sec. 5.1).

``p = q^2 / int q^2`` with ``q`` a real trigonometric polynomial of degree ``K`` (the notes'
choice for the "random density" of Fig. 3), so ``p(x) = sum_{|m|<=2K} P_m e^{2 pi i m x}``
exactly; the uniform density is ``K = 0``.  With ``c_m = E_p cos(2 pi m x) = Re P_m`` and
``s_m = E_p sin(2 pi m x) = -Im P_m``: ``p(x) = 1 + 2 sum_m (c_m cos + s_m sin)(2 pi m x)``.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, check_int, check_size
from .._random import as_generator


def check_density(density) -> TrigDensity:
    """Require a :class:`TrigDensity` (the argument named ``density``)."""
    if not isinstance(density, TrigDensity):
        raise TypeError(f"density must be a TrigDensity; got {type(density).__name__}")
    return density


class TrigDensity:
    """Density on [0, 1] from its Fourier coefficients ``P_0 = 1, P_1, ..., P_M`` (complex)."""

    def __init__(self, coef) -> None:
        if np.asarray(coef).dtype.kind not in "biufc" or np.asarray(coef).dtype == bool:
            raise TypeError(f"coef must be numeric Fourier coefficients; got dtype {np.asarray(coef).dtype}")
        coef = np.asarray(coef, dtype=complex)
        if coef.ndim != 1 or len(coef) == 0 or not np.all(np.isfinite(coef)):
            raise ValueError("coef must be a non-empty 1-d array of finite Fourier coefficients")
        if abs(coef[0] - 1.0) > 1e-12:
            raise ValueError(f"coef[0] (the total mass) must be 1; got {coef[0]}")
        self.coef = coef
        self.m = np.arange(1, len(coef))
        self.cos_moments = coef[1:].real.copy()    # c_m = E_p cos(2 pi m x)
        self.sin_moments = -coef[1:].imag.copy()   # s_m = E_p sin(2 pi m x)
        # a density must be >= 0 (up to rounding): p is a trigonometric polynomial of degree M, checked on a grid of
        # 64 (M + 1) points (a dip narrower than the grid spacing could escape; q^2 from ``random`` never dips)
        low = float(self.pdf(np.arange(64 * len(coef)) / (64 * len(coef))).min())
        if low < -1e-9:
            raise ValueError(f"coef must define a non-negative density: p(x) = 1 + 2 sum_m Re(P_m e^(2 pi i m x)) "
                             f"reaches {low:.3g} on [0, 1]")

    @classmethod
    def uniform(cls) -> TrigDensity:
        return cls([1.0])

    @classmethod
    def random(cls, rng, degree: int = 2) -> TrigDensity:
        """``p ∝ q^2``, ``q(x) = a_0 + sum_{k<=degree} a_k cos(2 pi k x) + b_k sin(2 pi k x)``, all
        coefficients i.i.d. N(0, 1) drawn from ``rng`` (a Generator or a seed)."""
        degree = check_int("degree", degree, low=1)
        rng = as_generator(rng)
        a, b = rng.normal(size=degree + 1), rng.normal(size=degree + 1)
        gamma = np.concatenate([[a[0]], (a[1:] - 1j * b[1:]) / 2.0])       # q = sum_k gamma_k e^{2 pi i k x}
        full = np.concatenate([np.conj(gamma[:0:-1]), gamma])              # k = -K..K
        square = np.convolve(full, full)                                   # q^2, m = -2K..2K
        return cls(square[2 * degree:] / square[2 * degree].real)

    def _terms(self, x):
        x = as_finite_array("x", x)
        arg = 2.0 * np.pi * x[..., None] * self.m
        return x, np.cos(arg), np.sin(arg)

    def pdf(self, x) -> np.ndarray:
        _, cos, sin = self._terms(x)
        return 1.0 + 2.0 * (cos @ self.cos_moments + sin @ self.sin_moments)

    def cdf(self, x) -> np.ndarray:
        """``F(x) = x + sum_m 2 (c_m sin(2 pi m x) + s_m (1 - cos(2 pi m x))) / (2 pi m)``."""
        x, cos, sin = self._terms(x)
        scale = 2.0 / (2.0 * np.pi * self.m)
        return x + sin @ (scale * self.cos_moments) + (1.0 - cos) @ (scale * self.sin_moments)

    def ppf(self, u) -> np.ndarray:
        """Inverse CDF by vectorised bisection (60 halvings: to rounding)."""
        u = as_finite_array("u", u)
        if np.any((u < 0) | (u > 1)):
            raise ValueError("u must lie in [0, 1]")
        lo, hi = np.zeros_like(u), np.ones_like(u)
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            below = self.cdf(mid) < u
            lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
        return 0.5 * (lo + hi)

    def sample(self, n: int, rng) -> np.ndarray:
        """``n`` i.i.d. draws by inverse CDF of uniforms from ``rng`` (a Generator or a seed)."""
        n = check_size("n", n, item_bytes=16, item="draw")
        return self.ppf(as_generator(rng).uniform(size=n))
