"""The Chebyshev-weighted variance of the randomized Chebyshev expansion (Lemma 2).

``Var_C(p̂_n) = E_n ||p̂_n - f||_C^2`` with ``||g||_C^2 = ∫_{-1}^{1} g(x)^2 / sqrt(1-x^2) dx``
(Eq. 9) equals, by orthogonality of the ``T_j`` (``||T_j||_C^2 = π/2`` for ``j >= 1``),

    Var_C(p̂_n) = π/2 · Σ_{j>=1} b_j^2 · P(n < j) / P(n >= j).

``f`` is represented by its chopped Chebyshev series (accurate to machine precision),
so the sum runs over that series' coefficients: the variance of the estimator for
the polynomial that equals ``f`` to rounding error. For distributions whose tails
fall faster than ``b_j^2`` (Poisson, at small mean) the untruncated sum diverges and
the value is dominated by the highest degrees kept; the optimal distribution's
geometric tail keeps every term bounded.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array
from .degrees import DegreeDistribution


def chebyshev_weighted_variance(coeffs, dist: DegreeDistribution) -> float:
    """Lemma 2: ``π/2 Σ_{j>=1} b_j^2 P(n<j)/P(n>=j)`` for coefficients ``coeffs``.

    Returns ``inf`` if some non-zero coefficient is beyond every degree the distribution reaches.
    """
    coeffs = as_finite_array("coeffs", coeffs, ndim=1, nonempty=True)
    if not isinstance(dist, DegreeDistribution):
        raise TypeError(f"dist must be a DegreeDistribution; got {type(dist).__name__}")
    j = np.arange(1, coeffs.size)
    b2 = coeffs[1:] ** 2
    head, tail = dist.head(j), dist.tail(j)
    if np.any((tail <= 0) & (b2 > 0)):
        return float("inf")
    ratio = np.divide(head, tail, out=np.zeros_like(b2), where=tail > 0)
    return float(0.5 * np.pi * np.sum(b2 * ratio))
