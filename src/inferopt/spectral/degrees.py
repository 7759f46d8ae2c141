"""Distributions of the random polynomial degree ``n`` of the unbiased estimator (7).

Each distribution has mean ``N`` (the expected degree, i.e. the expected cost) and
exposes what the randomized Chebyshev expansion needs:

* ``pmf(i) = q_i``;
* ``head(j) = sum_{i<j} q_i = P(n < j)`` and ``tail(j) = 1 - head(j) = P(n >= j)``,
  both computed without cancellation;
* ``reweight(coeffs)``: the coefficients ``b_j / tail(j)`` of ``p̂_r`` in Eq. (7);
* ``sample(rng, size)``.

Distributions: the variance-optimal one of Theorem 3 (Eq. 11), Poisson and negative
binomial (Han et al. 2018, Fig. 1).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np
from scipy import stats

from .._validation import check_choice, check_int, check_real


class DegreeDistribution(ABC):
    """A distribution ``{q_i}`` on the non-negative integers with mean ``mean``."""

    name: str = ""
    mean: float

    @abstractmethod
    def pmf(self, i) -> np.ndarray:
        """``q_i = P(n = i)``."""

    @abstractmethod
    def head(self, j) -> np.ndarray:
        """``P(n < j) = sum_{i<j} q_i``."""

    @abstractmethod
    def tail(self, j) -> np.ndarray:
        """``P(n >= j) = 1 - sum_{i<j} q_i``."""

    @abstractmethod
    def sample(self, rng: np.random.Generator, size=None):
        """Draw degrees."""

    def reweight(self, coeffs) -> np.ndarray:
        """Coefficients ``b_j / P(n >= j)`` of the randomized series ``p̂`` (Eq. 7).

        Where ``P(n >= j) = 0`` the degree ``j`` is never reached and the coefficient is 0.
        """
        coeffs = np.asarray(coeffs, dtype=float)
        tail = self.tail(np.arange(coeffs.size))
        out = np.zeros_like(coeffs)
        np.divide(coeffs, tail, out=out, where=tail > 0)
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}(mean={self.mean:g})"


def _check_mean(N) -> float:
    return check_real("N (the mean degree)", N, low=0.0)


class OptimalDegrees(DegreeDistribution):
    """The variance-optimal degree distribution ``q*`` of Theorem 3, Eq. (11).

    With ``K = max(0, N - floor(rho/(rho-1)))`` and ``m = N - K``::

        q_i = 0                                for i < K
        q_K = 1 - m (rho - 1) / rho
        q_i = m (rho - 1)^2 rho^{-(i-K)-1}     for i > K

    The paper prints the exponent of the last case as ``-i-1+N-K``; only ``-(i-K)-1``
    makes ``{q_i}`` sum to one with mean ``N`` (checked in the tests), so that is used.
    Degrees above ``K`` follow ``K + Geometric(1 - 1/rho)``.

    Parameters
    ----------
    N : non-negative integer, the mean degree.
    rho : ``> 1``, the Bernstein-ellipse parameter of ``f`` (see ``chebyshev.bernstein_rho``).
    """

    name = "optimal"

    def __init__(self, N, rho):
        self.mean = float(check_int("N (the mean degree of the optimal distribution)", N, low=0))
        self.rho = check_real("rho", rho, low=1.0, low_open=True)
        self.K = int(max(0, self.mean - np.floor(self.rho / (self.rho - 1.0))))
        self.m = self.mean - self.K

    @property
    def q_K(self) -> float:
        return 1.0 - self.m * (self.rho - 1.0) / self.rho

    def pmf(self, i):
        i = np.asarray(i)
        above = self.m * (self.rho - 1.0) ** 2 * self.rho ** (-(i - self.K) - 1.0)
        return np.where(i < self.K, 0.0, np.where(i == self.K, self.q_K, above))

    def tail(self, j):
        j = np.asarray(j)
        return np.where(j <= self.K, 1.0, self.m * (self.rho - 1.0) * self.rho ** (-(np.maximum(j, self.K) - self.K) * 1.0))

    def head(self, j):
        return np.where(np.asarray(j) <= self.K, 0.0, 1.0 - self.tail(j))

    def sample(self, rng, size=None):
        above = rng.random(size) >= self.q_K
        extra = rng.geometric(1.0 - 1.0 / self.rho, size=size)
        return self.K + np.where(above, extra, 0)

    def __repr__(self) -> str:
        return f"OptimalDegrees(N={self.mean:g}, rho={self.rho:.4g}, K={self.K})"


class _FrozenScipyDegrees(DegreeDistribution):
    """A degree distribution backed by a frozen ``scipy.stats`` discrete distribution ``_dist``,
    whose ``cdf``/``sf`` give the head and tail without cancellation."""

    _dist = None

    def pmf(self, i):
        return self._dist.pmf(i)

    def head(self, j):
        return self._dist.cdf(np.asarray(j) - 1)

    def tail(self, j):
        return self._dist.sf(np.asarray(j) - 1)


class PoissonDegrees(_FrozenScipyDegrees):
    """Poisson degrees with mean ``N``."""

    name = "poisson"

    def __init__(self, N):
        self.mean = _check_mean(N)
        self._dist = stats.poisson(self.mean)

    def sample(self, rng, size=None):
        return rng.poisson(self.mean, size=size)


class NegativeBinomialDegrees(_FrozenScipyDegrees):
    """Negative-binomial degrees with mean ``N`` and success probability ``p``.

    The number of failures before ``r`` successes, ``r = N p / (1 - p)``, so that the
    mean ``r (1 - p) / p`` equals ``N`` and the variance is ``N / p``.
    """

    name = "negative binomial"

    def __init__(self, N, p=0.5):
        self.mean = check_real("N (the mean degree)", N, low=0.0, low_open=True)
        self.p = check_real("p", p, low=0.0, high=1.0, low_open=True, high_open=True)
        self.r = self.mean * self.p / (1.0 - self.p)
        self._dist = stats.nbinom(self.r, self.p)

    def sample(self, rng, size=None):
        return rng.negative_binomial(self.r, self.p, size=size)

    def __repr__(self) -> str:
        return f"NegativeBinomialDegrees(N={self.mean:g}, p={self.p:g})"


def make_degree_distribution(name: str, N, *, rho=None, p: float = 0.5) -> DegreeDistribution:
    """Build a degree distribution by name: ``"optimal"`` (needs ``rho``), ``"poisson"``,
    ``"negative binomial"`` (alias ``"negbin"``, success probability ``p``). ``rho`` and ``p`` are
    checked whichever the name (callers pass the same settings to every distribution; a bad one
    is refused, never ignored)."""
    check_choice("name", name, ("optimal", "poisson", "negative binomial", "negbin"))
    check_real("p", p, low=0.0, high=1.0, low_open=True, high_open=True)
    if rho is not None:
        check_real("rho", rho, low=1.0, low_open=True)
    if name == "optimal":
        if rho is None:
            raise ValueError("the optimal distribution needs rho (> 1)")
        return OptimalDegrees(N, rho)
    if name == "poisson":
        return PoissonDegrees(N)
    if name in ("negative binomial", "negbin"):
        return NegativeBinomialDegrees(N, p)
    raise ValueError(f"degree distribution must be one of ['optimal', 'poisson', 'negative binomial']; got {name!r}")
