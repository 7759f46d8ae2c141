"""Hutchinson-Chebyshev estimators of spectral sums ``tr f(A)`` (Han et al. 2018, Eqs. (3), (7), (8)).

For symmetric ``A`` with spectrum in ``[a, b]`` and ``Ã = 2A/(b-a) - (b+a)/(b-a) I``,

    tr f(A) ≈ (1/M) Σ_k v_kᵀ Σ_{j=0}^{n} c_j w_j^{(k)},   w_0 = v, w_1 = Ã v, w_{j+1} = 2Ã w_j - w_{j-1}   (3)

with Rademacher probes ``v_k``. With ``c_j = b_j`` (Chebyshev coefficients of ``f``) and a
fixed degree ``n`` this is the *truncated* estimator of Eq. (3): biased, since
``p_n != f``. With a random degree ``n ~ q`` and ``c_j = b_j / P(n >= j)`` it is the
*randomised* estimator ``v^T p̂_n(A) v`` of Eq. (7), unbiased by Lemma 1 (Eq. 8).

All ``M`` probes are advanced together: one ``matmat`` with a ``d x M`` block per
Chebyshev step. The per-probe "moments" ``mu_j^{(k)} = v_kᵀ T_j(Ã) v_k`` are kept, so one
recursion serves any coefficient vector of length ``<= n + 1``.
"""

from __future__ import annotations

import math

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from .._validation import (as_finite_array, check_callable, check_choice, check_flag, check_int, check_protocol,
                           check_real, check_returned, check_size)
from ._csr_block import chebyshev_products_csr
from .bounds import check_bounds
from .chebyshev import bernstein_rho, check_interval, chebyshev_coefficients, fit_decay
from .degrees import DegreeDistribution, make_degree_distribution
from .functions import get_function
from .operators import MatrixOperator, as_operator, check_symmetric
from .._random import as_generator, side_stream


def rademacher(rng, d: int, M: int) -> np.ndarray:
    """``d x M`` block of i.i.d. Rademacher probes (entries ±1 with probability 1/2)."""
    d = check_size("d", d, item_bytes=9, item="entry of a probe (int8, then float)")
    M = check_size("M (number of probe vectors)", M, item_bytes=9 * d, item="probe of length d")
    return as_generator(rng).integers(0, 2, size=(d, M), dtype=np.int8).astype(float) * 2.0 - 1.0


class ChebyshevSeries:
    """The Chebyshev series ``f = Σ b_j T_j`` on ``[a, b]`` and its Bernstein parameter ``rho``.

    ``f`` is a name in ``functions.FUNCTIONS`` (``"log"``, ``"sqrt"``, ``"exp"``) or a vectorised
    callable analytic and finite on ``[a, b]`` (otherwise ``chebyshev_coefficients`` raises).
    ``rho`` is exact (``bernstein_rho``) for a known real singularity, else fitted from the
    coefficient decay (``fit_decay``); ``singularity`` may be given for a callable.
    """

    #: points of the fixed-size fallback expansion (see ``__init__``)
    FALLBACK_POINTS = 2**20

    def __init__(self, f, a, b, *, singularity=None, tol: float = 1e-15):
        if isinstance(f, str):
            f, singularity = get_function(f, argument="f")
        self.f = f
        self.a, self.b = check_interval(a, b)
        self.converged = True
        try:
            self.coeffs = chebyshev_coefficients(f, self.a, self.b, tol=tol)
        except ValueError as exc:
            # A very wide interval (b/a ~ 1e8 for the smoothed nuclear norm of a large rating matrix)
            # puts rho so close to 1 that the series needs more than chebyshev.MAX_POINTS terms.
            # f is known to be analytic there (singularity outside [a, b]), so take the first
            # expansion on FALLBACK_POINTS points: aliasing perturbs b_j by ~|b_{2P-j}|,
            # and the random degrees of Eq. (7) reach them with negligible probability.
            if singularity is None or "did not converge" not in str(exc):
                raise
            bernstein_rho(self.a, self.b, singularity)  # raises if the singularity is in [a, b]
            self.coeffs = chebyshev_coefficients(
                f, self.a, self.b, tol=tol, max_points=self.FALLBACK_POINTS, require_convergence=False
            )
            self.converged = False
        if singularity is not None:
            self.rho = bernstein_rho(self.a, self.b, singularity)
        else:
            try:
                self.rho = fit_decay(self.coeffs)[1]
            except ValueError:  # (nearly) a polynomial: coefficients vanish at once
                self.rho = 1e3

    def coefficients(self, n: int) -> np.ndarray:
        """``b_0..b_n`` (zero beyond the converged series)."""
        out = np.zeros(n + 1)
        m = min(n + 1, self.coeffs.size)
        out[:m] = self.coeffs[:m]
        return out

    def derivative(self, x) -> np.ndarray:
        """``f'(x)`` from the differentiated series (for exact gradients of user functions)."""
        d = np.polynomial.chebyshev.chebder(self.coeffs) if self.coeffs.size > 1 else np.zeros(1)
        t = (2.0 * np.asarray(x, float) - (self.b + self.a)) / (self.b - self.a)
        return np.polynomial.chebyshev.chebval(t, d) * 2.0 / (self.b - self.a)


class FixedDegree:
    """Deterministic degree ``n`` with coefficients ``b_j``: the biased truncated estimator (Eq. 3)."""

    unbiased = False

    def __init__(self, series: ChebyshevSeries, degree: int):
        self.series = check_series(series)
        self.degree = check_size("degree", degree, low=0, item_bytes=8 * 3, item="Chebyshev term")

    def draw(self, rng) -> np.ndarray:
        return self.series.coefficients(self.degree)

    def __repr__(self) -> str:
        return f"FixedDegree({self.degree})"


class RandomDegree:
    """Random degree ``n ~ q`` with coefficients ``b_j / P(n >= j)``: the unbiased estimator (Eq. 7)."""

    unbiased = True

    def __init__(self, series: ChebyshevSeries, distribution: DegreeDistribution):
        if not isinstance(distribution, DegreeDistribution):
            raise ValueError(f"distribution must be a DegreeDistribution; got {type(distribution).__name__}")
        self.series = check_series(series)
        self.distribution = distribution

    def draw(self, rng) -> np.ndarray:
        n = int(self.distribution.sample(as_generator(rng)))
        return self.distribution.reweight(self.series.coefficients(n))

    def __repr__(self) -> str:
        return f"RandomDegree({self.distribution!r})"


def check_series(series) -> ChebyshevSeries:
    if not isinstance(series, ChebyshevSeries):
        raise TypeError(f"series must be a ChebyshevSeries; got {type(series).__name__}")
    return series


def check_rule(rule):
    """A degree rule (:class:`FixedDegree`, :class:`RandomDegree` or anything with ``draw(rng)``)."""
    return check_protocol("rule", rule, "draw", what="a degree rule such as FixedDegree or RandomDegree")


def check_probes(V, d: int, name: str = "V") -> np.ndarray:
    """A finite ``d x M`` block of probe vectors (``M >= 1``)."""
    V = as_finite_array(name, V, ndim=2, nonempty=True)
    if V.shape[0] != d or V.shape[1] == 0:
        raise ValueError(f"{name} must have shape (d, M) with d = {d} rows (the operator's size), M >= 1; got {V.shape}")
    return V


def check_coefficients(weights) -> np.ndarray:
    """Chebyshev coefficients ``weights`` (finite, 1-d, at least one)."""
    return as_finite_array("weights", weights, ndim=1, nonempty=True)


def make_degree_rule(series: ChebyshevSeries, *, degree=None, N=None, distribution="optimal", p: float = 0.5):
    """``FixedDegree(degree)`` if ``degree`` is given, else ``RandomDegree`` with mean ``N``.

    ``distribution`` is a :class:`DegreeDistribution` or a name (``"optimal"`` uses the
    series' ``rho``, Theorem 3; ``"poisson"``; ``"negative binomial"`` with parameter ``p``).
    """
    check_series(series)
    check_real("p", p, low=0.0, high=1.0, low_open=True, high_open=True)
    if not isinstance(distribution, DegreeDistribution):
        check_choice("distribution", distribution, ("optimal", "poisson", "negative binomial", "negbin"))
    if degree is not None:
        if N is not None:
            raise ValueError("give either degree (fixed, biased) or N (mean of a random degree), not both")
        return FixedDegree(series, degree)
    if isinstance(distribution, DegreeDistribution):
        return RandomDegree(series, distribution)
    if N is None:
        raise ValueError("give degree (fixed, biased) or N (the mean of a random degree)")
    N = check_real("N (the mean degree)", N, low=0.0)
    check_size("N (the mean degree)", math.ceil(N), low=0, item_bytes=8 * 3, item="Chebyshev term up to the mean degree")
    if distribution == "optimal":
        N = check_int("N (the mean degree of the optimal distribution)", N, low=0)
    return RandomDegree(series, make_degree_distribution(distribution, N, rho=series.rho, p=p))


def chebyshev_moments(A, V, n: int, a, b) -> np.ndarray:
    """``mu[j, k] = v_kᵀ T_j(Ã) v_k`` for ``j = 0..n`` by the three-term recursion of Eq. (3).

    Only ``⌈n/2⌉`` products of ``A`` with the ``d x M`` block ``V`` are needed: with
    ``w_j = T_j(Ã) v`` and ``T_{2j} = 2T_j² - T_0``, ``T_{2j+1} = 2T_{j+1}T_j - T_1`` (Ã symmetric),

        mu_{2j} = 2 w_jᵀ w_j - mu_0,        mu_{2j+1} = 2 w_{j+1}ᵀ w_j - mu_1

    (the moment doubling of the kernel polynomial method; Weiße et al., Rev. Mod. Phys. 78, 275,
    2006, Eq. 73). For a sparse matrix each product is one pass over the block
    (:func:`._csr_block.chebyshev_products_csr`).
    """
    op = as_operator(A)
    a, b = check_interval(a, b)
    V = check_probes(V, op.shape[0])
    n = check_size("n (degree)", n, low=0, item_bytes=8 * (V.shape[0] + V.shape[1]), item="degree (a block product)")
    s, c = 2.0 / (b - a), (b + a) / (b - a)
    J = (n + 1) // 2
    if isinstance(op, MatrixOperator) and sp.issparse(op.matrix):
        sq, cross = chebyshev_products_csr(op.matrix, V, J, s, c)
    else:
        sq, cross = _chebyshev_products(op, V, J, s, c)
    mu = np.empty((n + 1, V.shape[1]))
    mu[0] = sq[0]
    if n >= 1:
        mu[1] = cross[1]
        mu[2::2] = 2.0 * sq[1 : n // 2 + 1] - mu[0]
        mu[3::2] = 2.0 * cross[2 : (n + 1) // 2 + 1] - mu[1]
    return mu


def _chebyshev_products(op, V, J: int, s: float, c: float):
    """``sq[j] = w_jᵀ w_j`` (``j = 0..J``) and ``cross[j] = w_jᵀ w_{j-1}`` (``j = 1..J``) of the recursion
    ``w_0 = v``, ``w_1 = Ã v``, ``w_{j+1} = 2Ã w_j - w_{j-1}``: one ``matmat`` per ``j``."""
    sq = np.empty((J + 1, V.shape[1]))
    cross = np.empty_like(sq)
    sq[0] = np.einsum("ij,ij->j", V, V)
    w_prev, w = None, V
    tmp = np.empty_like(V)
    for j in range(1, J + 1):
        # w_{j+1} = 2(s·Aw − c·w) − w_{j−1}, in place: scaling by 2 is exact, so this is
        # (2s)·Aw − (2c)·w − w_{j−1} bit for bit
        Aw = np.asarray(op.matmat(w), dtype=float)
        if not Aw.flags.writeable or np.may_share_memory(Aw, w) or (w_prev is not None and np.may_share_memory(Aw, w_prev)):
            Aw = Aw.copy()
        k = 1.0 if j == 1 else 2.0
        Aw *= k * s
        Aw -= np.multiply(w, k * c, out=tmp)
        if j > 1:
            Aw -= w_prev
        sq[j] = np.einsum("ij,ij->j", Aw, Aw)
        cross[j] = np.einsum("ij,ij->j", Aw, w)
        w_prev, w = w, Aw
    return sq, cross


def quadratic_forms(A, V, weights, a, b) -> np.ndarray:
    """Per-probe ``v_kᵀ Σ_j weights_j T_j(Ã) v_k`` (Eq. 3 with coefficients ``weights``)."""
    weights = check_coefficients(weights)
    return weights @ chebyshev_moments(A, V, weights.size - 1, a, b)


def replicate_weights(rule, R: int, rng) -> np.ndarray:
    """``R x (n_max + 1)`` Chebyshev weights of ``R`` independent draws of a degree rule (zero-padded)."""
    R = check_size("R (number of replicates)", R, item_bytes=8, item="replicate")
    check_rule(rule)
    rng = as_generator(rng)
    draws = [rule.draw(rng) for _ in range(R)]
    W = np.zeros((R, max(w.size for w in draws)))
    for r, w in enumerate(draws):
        W[r, : w.size] = w
    return W


def replicated_estimates(A, rule, a, b, *, R: int, M: int, rng=None) -> np.ndarray:
    """``R`` independent estimates of ``tr f(A)`` (each: its own degree from ``rule`` and ``M`` probes).

    For the statistical check of Lemma 1: all ``R M`` probes go through one block recursion
    (:func:`chebyshev_moments` to the largest degree drawn), then each replicate applies its own
    weights to its own ``M`` probes. Returns shape ``(R,)``.
    """
    op = as_operator(A)
    M = check_size("M (number of probe vectors)", M, item_bytes=9 * op.shape[0], item="probe of length d")
    check_rule(rule)
    rng = as_generator(rng)
    W = replicate_weights(rule, R, rng)
    mu = chebyshev_moments(op, rademacher(rng, op.shape[0], W.shape[0] * M), W.shape[1] - 1, a, b)
    return np.einsum("rj,jrm->r", W, mu.reshape(W.shape[1], W.shape[0], M)) / M


@dataclass
class SpectralSumEstimate:
    """A Hutchinson-Chebyshev estimate of ``tr f(A)``.

    ``value`` is the mean of ``samples`` (one per probe), ``stderr`` its standard error over
    probes, ``degree`` the (possibly random) degree ``n`` used.
    """

    value: float
    stderr: float
    samples: np.ndarray
    degree: int


def _check_f_bounds(series_or_f, a, b, singularity=None):
    if isinstance(series_or_f, ChebyshevSeries):
        if (series_or_f.a, series_or_f.b) != check_interval(a, b):
            raise ValueError("the ChebyshevSeries was built on a different interval than [a, b]")
        return series_or_f
    return ChebyshevSeries(series_or_f, a, b, singularity=singularity)


def draw_estimator(op, f, a, b, *, M, degree, N, distribution, p, rng, symmetric):
    """The set-up every stochastic Chebyshev estimator shares (Eqs. 3, 7, 12).

    Validates ``M`` and the degree rule; unless ``symmetric`` is None, checks each
    ``(operator, name)`` in it for symmetry on random vectors and ``[a, b]`` against the
    spectrum of ``op``; then draws the degree's coefficients and the ``d x M`` Rademacher
    probe block. Returns ``(series, weights, V)``.
    """
    M = check_int("M (number of probe vectors)", M, low=1)
    series = _check_f_bounds(f, a, b)
    rule = make_degree_rule(series, degree=degree, N=N, distribution=distribution, p=p)
    rng = as_generator(rng)
    if symmetric is not None:
        checks = side_stream(rng)   # dense matrices skip the randomised test: keep rng's draws type-independent
        for operator, name in symmetric:
            check_symmetric(operator, rng=checks, name=name)
        check_bounds(op, series.a, series.b, rng=rng)
    weights = rule.draw(rng)
    return series, weights, rademacher(rng, op.shape[0], M)


def spectral_sum(
    A,
    f,
    a,
    b,
    *,
    M: int = 20,
    degree=None,
    N=None,
    distribution="optimal",
    p: float = 0.5,
    rng=None,
    check: bool = True,
) -> SpectralSumEstimate:
    """Estimate ``tr f(A)`` by Hutchinson + Chebyshev (Eq. 3, biased) or its randomised-degree form (Eq. 7, unbiased).

    Parameters
    ----------
    A : symmetric matrix (dense/sparse) or operator with ``shape`` and ``matmat``.
    f : ``"log"``, ``"sqrt"``, ``"exp"``, a callable analytic on ``[a, b]``, or a :class:`ChebyshevSeries`.
    a, b : interval containing the spectrum of ``A`` (see :func:`spectral_bounds`).
    M : number of Rademacher probes (``>= 1``).
    degree : fixed degree ``n`` (truncated, biased estimator), or
    N : mean of the random degree (unbiased estimator) drawn from ``distribution``.
    rng : ``numpy.random.Generator`` or seed.
    check : test ``[a, b]`` against a few Lanczos Ritz values (``ValueError`` if it provably misses the
        spectrum) and, for a matrix-free operator, its symmetry on random vectors.
    """
    op = as_operator(A)
    series, weights, V = draw_estimator(
        op, f, a, b, M=M, degree=degree, N=N, distribution=distribution, p=p, rng=rng,
        symmetric=[(op, "A")] if check_flag("check", check) else None,
    )
    samples = quadratic_forms(op, V, weights, series.a, series.b)
    stderr = samples.std(ddof=1) / np.sqrt(M) if M > 1 else float("nan")
    return SpectralSumEstimate(float(samples.mean()), float(stderr), samples, weights.size - 1)


def exact_spectral_sum(A, f) -> float:
    """``Σ_i f(lambda_i)`` by a dense eigen-decomposition (``O(d^3)``; the exact baseline)."""
    from .operators import dense_of

    f = get_function(f, argument="f")[0] if isinstance(f, str) else check_callable("f", f)
    lam = np.linalg.eigvalsh(dense_of(as_operator(A)))
    return float(np.sum(check_returned("f", f(lam), shape=lam.shape)))
