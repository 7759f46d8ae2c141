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
from scipy.optimize import brentq
from scipy.special import logsumexp

from ..._validation import as_finite_array, check_choice, check_choices, check_flag, check_int, check_real, check_size, check_table
from ...spectral import DegreeDistribution

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


def decay_fit_fixed_rate(coeffs, rho: float, j_max: int | None = None, rel_floor: float = 1e-13) -> tuple[float, float]:
    """``(c, R²)`` of ``b_j² ≈ c ρ^{-2j}`` (Fig. 1(d)) with ``ρ`` fixed (the Bernstein ``ρ`` of the singularity, the
    one Eq. (10) and Theorem 3 use) and ``c`` fitted by least squares on ``log b_j²`` (``log c`` = the mean of
    ``log b_j² + 2j log ρ``), over the degrees ``1 <= j <= j_max`` (all when None) whose coefficient is above
    ``rel_floor · max |b|`` (as :func:`~inferopt.spectral.fit_decay`: below, rounding noise). ``R²`` is
    ``1 - SS_res / SS_tot`` of ``log b_j²`` (negative when the line explains less than the mean)."""
    coeffs = as_finite_array("coeffs", coeffs, ndim=1, nonempty=True)
    rho = check_real("rho", rho, low=1.0, low_open=True)
    rel_floor = check_real("rel_floor", rel_floor, low=0.0, high=1.0, high_open=True)
    j_max = coeffs.size - 1 if j_max is None else check_int("j_max", j_max, low=3)
    j = np.arange(1, min(j_max, coeffs.size - 1) + 1)
    j = j[np.abs(coeffs[j]) > rel_floor * np.abs(coeffs).max()]
    if j.size < 3:
        raise ValueError("coeffs must hold at least 3 non-zero coefficients b_1 ... b_j_max to fit a decay")
    y = np.log(coeffs[j] ** 2)
    log_c = float(np.mean(y + 2.0 * j * np.log(rho)))
    residual = y - (log_c - 2.0 * j * np.log(rho))
    return float(np.exp(log_c)), float(1.0 - np.sum(residual ** 2) / np.sum((y - y.mean()) ** 2))


def d13_test(coeffs, rho_singular: float, j_max: int | None = None, r2_min: float = 0.99) -> bool:
    """D1.3 (``b_j² ≈ c ρ^{-2j}``, the decay Eq. (10) and Theorem 3 assume): with ``ρ`` fixed at the Bernstein ``ρ``
    of the singularity and ``c`` fitted (:func:`decay_fit_fixed_rate`, degrees ``j <= j_max``), ``R² >= r2_min``."""
    r2_min = check_real("r2_min", r2_min, high=1.0)
    rho_singular = check_real("rho_singular", rho_singular, low=1.0, low_open=True)
    return bool(decay_fit_fixed_rate(coeffs, rho_singular, j_max)[1] >= r2_min)


def min_chebyshev_variance(coeffs, N: float) -> float:
    """The smallest Chebyshev-weighted variance (Lemma 2) of ``p̂_n`` over EVERY degree distribution of mean ``N``: with
    tails ``T_j = P(n >= j)`` (``T_0 = 1``, non-increasing, ``Σ_{j>=1} T_j = N``) the variance is
    ``π/2 Σ_j b_j² (1/T_j - 1)``, convex in ``T``; its minimum without the order constraint is the water-filling
    ``T_j = min(1, λ |b_j|)`` with ``λ`` setting ``Σ_j T_j = N`` (Lagrange): the exact problem that Theorem 3's
    relaxation (10), ``|b_j| <= 2U ρ^{-j}``, replaces. Where ``|b_j|`` is non-increasing the water-filling tails are
    a distribution and this is the minimum; elsewhere (rounding wiggles of the last coefficients) a lower bound of it,
    so ``Var(q*) / this`` never understates the gap. 0 once ``N`` covers every non-zero coefficient."""
    coeffs = as_finite_array("coeffs", coeffs, ndim=1, nonempty=True)
    N = check_real("N", N, low=0.0, low_open=True)
    b = np.abs(coeffs[1:])
    b = b[b > 0]                                 # a zero coefficient needs no degree (T_j -> 0 costs nothing)
    if N >= b.size:
        return 0.0
    lam = brentq(lambda x: np.minimum(1.0, x * b).sum() - N, 0.0, 1.0 / b.min())
    T = np.minimum(1.0, lam * b)
    return float(np.pi / 2 * np.sum(b ** 2 * (1.0 - T) / T))


def d14_test(ratios, factor: float = 1.5) -> bool:
    """D1.4 ("(10) is nearly tight"): Theorem 3's ``q*`` has a variance within ``factor`` of the smallest over every
    distribution of the same mean (:func:`min_chebyshev_variance`) at every ``N`` given (``ratios``: ``Var(q*) / min``)."""
    factor = check_real("factor", factor, low=1.0)
    ratios = as_finite_array("ratios", ratios, ndim=1, nonempty=True)
    if np.any(ratios < 1.0 - 1e-9):
        raise ValueError(f"ratios must be >= 1 (Var(q*) over the minimum); got {ratios.min()!r}")
    return bool(np.all(ratios <= factor))


def batch_z(batches, exact: dict, estimator: str, se: dict | None = None) -> dict:
    """``{"<f> <quantity>": z}`` of ``estimator``: ``(mean - exact) / SE`` from a table of batches of independent
    estimates (columns ``f, quantity, estimator, n, sum, sum2``; ``exact[(f, quantity)]``); ``SE`` is ``sd / √n`` of
    the estimates, or ``se[(f, quantity)] / √n`` when ``se`` gives the standard deviation of one estimate (exactly
    known: :func:`degree_moments`)."""
    check_table("batches", batches, ("f", "quantity", "estimator", "n", "sum", "sum2"))
    check_choice("estimator", estimator, {str(e) for e in pd.unique(batches.estimator)})
    if not isinstance(exact, dict):
        raise TypeError(f"exact must be a mapping (f, quantity) -> value; got {type(exact).__name__}")
    g = batches[batches.estimator == estimator].groupby(["f", "quantity"])[["n", "sum", "sum2"]].sum()
    if g.empty:
        raise ValueError(f"the table has no batch of {estimator!r}")
    mean = g["sum"] / g["n"]
    if se is None:
        sd = np.sqrt((g["sum2"] - g["n"] * mean ** 2) / (g["n"] - 1))
    elif isinstance(se, dict):
        sd = pd.Series({k: check_real(f"se[{k!r}]", se[k], low=0.0, low_open=True) for k in g.index})
    else:
        raise TypeError(f"se must be a mapping (f, quantity) -> standard deviation of one estimate; got {type(se).__name__}")
    return {f"{f} {q}": float((mean[(f, q)] - exact[(f, q)]) / (sd[(f, q)] / np.sqrt(g["n"][(f, q)]))) for f, q in g.index}


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


def lemma1_test(batches, exact: dict, tested, controls, z_max: float, se: dict | None = None) -> bool:
    """D2.3 (Lemma 1 for other degree distributions, with its negative controls): every estimator of ``tested`` matches
    every exact value within ``|z| < z_max`` AND every estimator of ``controls`` (biased ones the lemma is contrasted
    with: the same degree draws without the ``1/P(n>=j)`` reweighting, a fixed degree) misses by ``|z| > z_max`` --
    a test that does not reject its controls cannot tell an unbiased estimator from a biased one. ``se``:
    ``{estimator: {(f, quantity): sd of one estimate}}`` where it is known exactly (:func:`batch_z`); a control's
    entry is its resolution against the tested estimator, ``hypot`` of both sds, so a deterministic control
    (fixed degree, exact traces) is judged against the test's noise."""
    z_max = check_real("z_max", z_max, low=0.0, low_open=True)
    check_table("batches", batches, ("estimator",))
    names = {str(e) for e in pd.unique(batches.estimator)}
    check_choices("tested", tested, names)
    check_choices("controls", controls, names)
    se = {} if se is None else se
    if not isinstance(se, dict):
        raise TypeError(f"se must be a mapping estimator -> {{(f, quantity): sd}}; got {type(se).__name__}")
    z = {e: batch_z(batches, exact, e, se.get(e)).values() for e in [*tested, *controls]}
    return bool(all(abs(v) < z_max for e in tested for v in z[e]) and all(abs(v) > z_max for e in controls for v in z[e]))


def degree_terms(lam, weights, a: float, b: float, n_terms: int, *, derivative: bool = False) -> np.ndarray:
    """``s_j = Σ_i w_i T_j(x_i)`` (``x = (2λ - a - b)/(b - a)``), ``j = 0 … n_terms-1``: ``tr p(A) = Σ_j c_j s_j`` for
    ``p = Σ c_j T_j`` with unit weights; with ``derivative``, ``s_j = Σ_i w_i d/dλ T_j(x(λ_i))``, so that with
    ``w = diag(Uᵀ E U)`` ``Σ_j c_j s_j = <U p'(Λ) Uᵀ, E>``, the gradient component of recursion (6)."""
    lam = as_finite_array("lam", lam, ndim=1, nonempty=True)
    weights = as_finite_array("weights", weights, ndim=1)
    if weights.shape != lam.shape:
        raise ValueError(f"weights must have one entry per eigenvalue ({lam.size}); got {weights.size}")
    a, b = check_real("a", a), check_real("b", b)
    if not a < b:
        raise ValueError(f"the interval must have a < b; got [{a}, {b}]")
    n_terms = check_size("n_terms", n_terms, item_bytes=8 * (lam.size + 1), item="Chebyshev term (a column of T_j(x_i))")
    derivative = check_flag("derivative", derivative)
    x = (2.0 * lam - a - b) / (b - a)
    V = np.polynomial.chebyshev.chebvander(x, n_terms - 1)            # (d, n_terms): T_j(x_i)
    if derivative:
        D = np.zeros((n_terms, n_terms))                               # column j: Chebyshev coefficients of T_j'
        for jj in range(1, n_terms):
            D[: jj, jj] = np.polynomial.chebyshev.chebder(np.eye(n_terms)[jj][: jj + 1])
        V = V @ D * (2.0 / (b - a))
    return weights @ V


def degree_values(coeffs, terms, dist=None) -> np.ndarray:
    """``S(n) = Σ_{j<=n} c_j s_j`` for ``n = 0 … L-1`` (``L`` coefficients; a degree ``n >= L`` gives ``S(L-1)``): the
    exact value ``tr p̂_n(A)`` (or its gradient component) at degree ``n`` of Eq. (7), ``c_j = b_j / P(n>=j)`` of
    ``dist`` (a :class:`~inferopt.spectral.DegreeDistribution`), or ``c_j = b_j`` without it (no reweighting)."""
    coeffs = as_finite_array("coeffs", coeffs, ndim=1, nonempty=True)
    terms = as_finite_array("terms", terms, ndim=1)
    if terms.shape != coeffs.shape:
        raise ValueError(f"terms must have one entry per coefficient ({coeffs.size}); got {terms.size}")
    if dist is not None and not isinstance(dist, DegreeDistribution):
        raise TypeError(f"dist must be a DegreeDistribution (or None: no reweighting); got {dist!r}")
    c = coeffs if dist is None else dist.reweight(coeffs)
    return np.cumsum(c * terms)


def degree_moments(values, dist) -> tuple[float, float]:
    """Exact mean and standard deviation over the degree ``n ~ dist`` of ``values[min(n, L-1)]`` (:func:`degree_values`):
    ``Σ_{n<L-1} q_n S(n) + P(n >= L-1) S(L-1)``. The sd includes the degrees too rare to show among a sample's draws."""
    values = as_finite_array("values", values, ndim=1, nonempty=True)
    if not isinstance(dist, DegreeDistribution):
        raise TypeError(f"dist must be a DegreeDistribution; got {dist!r}")
    L = values.size
    probs = np.append(dist.pmf(np.arange(L - 1)), dist.tail(L - 1))
    mean = float(probs @ values)
    return mean, float(np.sqrt(max(float(probs @ (values - mean) ** 2), 0.0)))
