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
import pandas as pd
from scipy import stats
from scipy.special import logsumexp

from ..._validation import as_finite_array, check_choice, check_choices, check_int, check_real, check_table

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
    from ``log b_j²`` and ``log P(n>=j)`` of ``j = 1 … max J`` (log-sum-exp: no overflow), in increasing ``J``."""
    log_b2 = as_finite_array("log_b2", log_b2, ndim=1, nonempty=True)
    log_tails = as_finite_array("log_tails", log_tails, ndim=1)   # a zero tail (-inf) leaves b_j / P(n >= j) undefined
    if log_tails.shape != log_b2.shape or np.any(log_tails > 1e-12) or np.any(np.isnan(log_tails)):
        raise ValueError("log_tails must be log-probabilities (<= 0), one per coefficient of log_b2")
    if isinstance(J_values, str) or not hasattr(J_values, "__iter__"):
        raise TypeError(f"J_values must be a list of degrees; got {J_values!r}")
    Js = [check_int("J_values (an entry of)", J, low=1) for J in J_values]
    if len(set(Js)) != len(Js):
        raise ValueError(f"J_values must be distinct degrees; got {Js}")
    Js = sorted(Js)
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


# ----------------------------------------------------------------------------- D1 (Fig. 1) and D2 (Lemma 1)


def optimal_smallest(wide) -> bool:
    """D1.1: in a table of variances (rows: ``(function, N)``; columns ``optimal``, ``poisson``,
    ``negative binomial``), the optimal distribution's is at most the others' in every row."""
    check_table("wide", wide, ("optimal", "poisson", "negative binomial"))
    others = wide[["poisson", "negative binomial"]].min(axis=1)
    return bool((wide["optimal"] <= others).all())


def orders_of_magnitude(wide, floors: dict):
    """``log10(best other / optimal)`` per row of ``wide`` (as :func:`optimal_smallest`) where the optimal variance is
    above its function's truncation floor (``floors[function]``: ``(1e-15 max |b_j|)²``; below it the ratio is
    unresolved and the row is left out). Returns ``{function: ratios}`` (a Series per function)."""
    check_table("wide", wide, ("optimal", "poisson", "negative binomial"))
    if not isinstance(floors, dict):
        raise TypeError(f"floors must be a mapping function -> floor; got {type(floors).__name__}")
    others = wide[["poisson", "negative binomial"]].min(axis=1)
    out = {}
    for f in wide.index.get_level_values(0).unique():
        opt, best = wide.loc[f, "optimal"], others.loc[f]
        keep = opt > check_real(f"floors[{f!r}]", floors[f], low=0.0)
        out[f] = np.log10(best[keep] / opt[keep])
    return out


def d12_test(orders: dict, cut: float = 1.0) -> bool:
    """D1.2 ("order-of-magnitude smaller variance"): the median ``log10`` ratio of every function is at least ``cut``
    (a function without a resolved ratio cannot be decided: ValueError)."""
    cut = check_real("cut", cut)
    if not isinstance(orders, dict) or not orders:
        raise TypeError(f"orders must be a non-empty mapping function -> ratios (orders_of_magnitude); got {orders!r}")
    for f, r in orders.items():
        if len(r) == 0:
            raise ValueError(f"{f}: no mean degree with a resolved optimal variance")
    return bool(all(float(np.median(r)) >= cut for r in orders.values()))


def d13_test(r2: float, rho_fit: float, rho_singular: float, r2_min: float = 0.99, rho_tol: float = 0.10) -> bool:
    """D1.3 (``b_j² ≈ c ρ^{-2j}``): the log-linear fit explains the decay (``R² >= r2_min``) with its ``ρ`` within
    ``rho_tol`` (relative) of the Bernstein ``ρ`` of the singularity."""
    r2 = check_real("r2", r2, high=1.0)
    r2_min = check_real("r2_min", r2_min, high=1.0)
    rho_tol = check_real("rho_tol", rho_tol, low=0.0)
    rho_fit = check_real("rho_fit", rho_fit, low=1.0, low_open=True)
    rho_singular = check_real("rho_singular", rho_singular, low=1.0, low_open=True)
    return bool(r2 >= r2_min and abs(rho_fit - rho_singular) / rho_singular <= rho_tol)


def batch_z(batches, exact: dict, estimator: str) -> dict:
    """``{"<f> <quantity>": z}`` of ``estimator``: ``(mean - exact) / (sd / √n)`` from a table of batches of
    independent estimates (columns ``f, quantity, estimator, n, sum, sum2``; ``exact[(f, quantity)]``)."""
    check_table("batches", batches, ("f", "quantity", "estimator", "n", "sum", "sum2"))
    check_choice("estimator", estimator, {str(e) for e in pd.unique(batches.estimator)})
    if not isinstance(exact, dict):
        raise TypeError(f"exact must be a mapping (f, quantity) -> value; got {type(exact).__name__}")
    g = batches[batches.estimator == estimator].groupby(["f", "quantity"])[["n", "sum", "sum2"]].sum()
    if g.empty:
        raise ValueError(f"the table has no batch of {estimator!r}")
    mean = g["sum"] / g["n"]
    se = np.sqrt((g["sum2"] - g["n"] * mean ** 2) / (g["n"] - 1) / g["n"])
    return {f"{f} {q}": float((mean[(f, q)] - exact[(f, q)]) / se[(f, q)]) for f, q in g.index}


def unbiased(batches, exact: dict, estimators, z_max: float) -> bool:
    """D2.1 / D2.3 (Lemma 1): every estimator of ``estimators`` matches every exact value within ``|z| < z_max``."""
    z_max = check_real("z_max", z_max, low=0.0, low_open=True)
    check_table("batches", batches, ("estimator",))
    check_choices("estimators", estimators, {str(e) for e in pd.unique(batches.estimator)})
    return bool(all(abs(z) < z_max for e in estimators for z in batch_z(batches, exact, e).values()))


def biased(batches, exact: dict, estimator: str, z_max: float) -> bool:
    """D2.2: ``estimator`` misses every exact value by more than ``z_max`` standard errors."""
    z_max = check_real("z_max", z_max, low=0.0, low_open=True)
    return bool(all(abs(z) > z_max for z in batch_z(batches, exact, estimator).values()))
