"""Statements of paper D beyond its figures' curves: Lemma 2's variance of the Poisson and negative-binomial degree
distributions in exact arithmetic, and the per-gradient cost the paper states as ``O(dM(N² + Nr))`` (matrix
completion) and ``O(MN(d + r²))`` (SKI), measured as scaling exponents.

**Lemma 2 beyond the chopped series.** For ``f = log`` on ``[a, b]`` the Chebyshev coefficients are known in closed
form, ``b_j = 2 (-1)^{j+1} / (j ρ^j)`` with ``ρ`` the Bernstein parameter of the singularity at 0
(:func:`log_coefficients_squared`), so Lemma 2's sum ``π/2 Σ_j b_j² P(n<j)/P(n>=j)`` can be followed past machine
precision in log space (:func:`lemma2_partial_sums`). For Poisson degrees ``P(n >= j) ≈ e^{-N} N^j / j!`` falls
faster than ``ρ^{-2j}``, so the terms grow like ``j! / (N ρ²)^j``: the variance is infinite for every mean ``N``
(as for ``√x``, whose singularity is the same). The negative binomial's geometric tail ``(1-p)^j`` keeps it finite
iff ``ρ² (1-p) > 1``. The experiments' estimators use the series chopped where ``|b_j|`` reaches machine precision
(66 coefficients for ``log`` on ``[0.05, 0.95]``), whose variance is finite (D1's numbers).
"""

from __future__ import annotations

import numpy as np
from scipy import stats
from scipy.special import logsumexp

from ..._validation import as_finite_array, check_choice, check_int, check_real

#: the probabilities summed by :func:`log_tail` (the next ones are below 1e-100 of the first for both families at
#: the means used here)
TAIL_TERMS = 2000
#: the degree distributions of :func:`log_tail`
DISTRIBUTIONS = ("optimal", "poisson", "negative binomial")


def log_coefficients_squared(rho: float, j) -> np.ndarray:
    """``log b_j²`` of ``log x`` on an interval whose Bernstein parameter is ``rho``: ``log 4 - 2 log j - 2 j log ρ``
    (the expansion ``log(c + x) = log((c + √(c²-1))/2) + 2 Σ_{j>=1} (-1)^{j+1} ρ^{-j} T_j(x) / j``, ``ρ = c + √(c²-1)``)."""
    rho = check_real("rho", rho, low=1.0, low_open=True)
    j = np.asarray(j, dtype=float)
    if j.ndim != 1 or j.size == 0 or np.any(j < 1) or np.any(j != np.round(j)):
        raise ValueError(f"j must be a non-empty 1-d array of degrees >= 1; got {j!r}")
    return np.log(4.0) - 2.0 * np.log(j) - 2.0 * j * np.log(rho)


def log_tail(name: str, N: float, j, *, rho: float | None = None, p: float = 0.5) -> np.ndarray:
    """``log P(n >= j)`` of the degree distribution ``name`` with mean ``N`` (``rho``: the optimal distribution's
    parameter; ``p``: the negative binomial's success probability), accurate far into the tail."""
    check_choice("name", name, DISTRIBUTIONS)
    N = check_real("N", N, low=0.0, low_open=True)
    j = np.asarray(j, dtype=float)
    if name in ("poisson", "negative binomial"):
        # the tail as a log-sum of the next TAIL_TERMS probabilities: scipy's logsf underflows to -inf far out
        if name == "poisson":
            dist = stats.poisson(N)
        else:
            p = check_real("p", p, low=0.0, high=1.0, low_open=True, high_open=True)
            dist = stats.nbinom(N * p / (1 - p), p)
        return logsumexp(dist.logpmf(j[:, None] + np.arange(TAIL_TERMS)[None, :]), axis=1)
    if rho is None:
        raise ValueError("the optimal distribution needs rho")
    rho = check_real("rho", rho, low=1.0, low_open=True)
    K = max(0, int(N - np.floor(rho / (rho - 1.0))))
    m = N - K
    return np.where(j <= K, 0.0, np.log(m * (rho - 1.0)) - (np.maximum(j, K) - K) * np.log(rho))


def lemma2_partial_sums(log_b2, log_tails, J_values) -> np.ndarray:
    """``log10`` of Lemma 2's partial sums ``π/2 Σ_{j=1}^{J} b_j² P(n<j)/P(n>=j)`` for each ``J`` of ``J_values``,
    from ``log b_j²`` and ``log P(n>=j)`` of ``j = 1 … max J`` (log-sum-exp: no overflow)."""
    log_b2 = as_finite_array("log_b2", log_b2, ndim=1, nonempty=True)
    log_tails = np.asarray(log_tails, dtype=float)
    if log_tails.shape != log_b2.shape or np.any(log_tails > 1e-12) or np.any(np.isnan(log_tails)):
        raise ValueError("log_tails must be log-probabilities (<= 0), one per coefficient of log_b2")
    Js = [check_int("J_values (an entry of)", J, low=1) for J in J_values]
    if not Js or max(Js) > log_b2.size:
        raise ValueError(f"J_values must be non-empty and at most {log_b2.size} (the coefficients given)")
    with np.errstate(divide="ignore"):
        log_head = np.log1p(-np.exp(np.minimum(log_tails, -1e-300)))
    terms = log_b2 + log_head - log_tails + np.log(np.pi / 2)
    return np.array([logsumexp(terms[:J]) / np.log(10.0) for J in Js])


def cost_exponent(sizes, seconds) -> float:
    """The exponent ``k`` of a cost ``∝ size^k``: the least-squares slope of ``log seconds`` on ``log size``."""
    sizes = as_finite_array("sizes", sizes, ndim=1)
    seconds = as_finite_array("seconds", seconds, ndim=1)
    if sizes.size != seconds.size or sizes.size < 2 or np.any(sizes <= 0) or np.any(seconds <= 0):
        raise ValueError("sizes and seconds must be at least two positive numbers each, of the same length")
    if np.unique(sizes).size < 2:
        raise ValueError("sizes must hold at least two distinct values")
    return float(np.polyfit(np.log(sizes), np.log(seconds), 1)[0])
