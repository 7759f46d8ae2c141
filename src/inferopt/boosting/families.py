"""Base families of boosting VI: location-scale densities with diagonal scale.

A component is ``s(x) = Π_d b_d⁻¹ f((x_d − μ_d)/b_d)`` with location ``μ ∈ R^D`` and
log-scale ``ρ = log b ∈ R^D``; ``f`` is the standard Gaussian or the standard Laplace
density (Dresdner et al. 2021, Sec. 6: "We set the base family to be the Laplace
distributions following [Locatello et al., 2018a]"). Sampling is by reparameterisation,
``x = μ + e^ρ ⊙ ε`` with ``ε ~ f`` (Dresdner et al. 2021, Sec. 4.1 "Implementation"),
so that ``∂x/∂μ = I`` and ``∂x/∂ρ = e^ρ ⊙ ε``.

Closed-form entropies: Gaussian ``H = D/2 log(2πe) + Σ ρ_d``; Laplace
``H = D(1 + log 2) + Σ ρ_d``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import as_finite_array, as_rows, check_choice, check_int, check_protocol
from .._random import as_generator

LOG2PI = float(np.log(2.0 * np.pi))
LOG2 = float(np.log(2.0))
#: draws under many components are evaluated in blocks of draws whose ``(draws, K, D)`` arrays hold at most this
#: many numbers (2**16, 512 KB): the elementwise passes over a block run in a core's cache, 1.2-3x faster than one
#: array for 100 draws at K = 25-50 (issue 46). Each draw's terms are the same numbers whatever its block.
BLOCK_ELEMENTS = 2**16


def by_blocks(fn, x: np.ndarray, per_draw: int):
    """``fn(x)`` (an array, or a tuple of arrays, with one row per draw) computed on blocks of the rows of ``x`` of at
    most ``BLOCK_ELEMENTS // per_draw`` draws (``per_draw``: the numbers of ``fn``'s largest intermediate per draw,
    ``K·D``), the blocks' rows concatenated; one block, ``fn(x)`` itself, when they fit."""
    step = max(1, BLOCK_ELEMENTS // max(per_draw, 1))
    if x.shape[0] <= step:
        return fn(x)
    parts = [fn(x[i:i + step]) for i in range(0, x.shape[0], step)]
    if isinstance(parts[0], tuple):
        return tuple(np.concatenate(p) for p in zip(*parts))
    return np.concatenate(parts)


def check_target(target):
    """A boosting target: ``dim``, ``log_density(x)`` and ``grad_log_density(x)`` (module :mod:`.targets`)."""
    return check_protocol("target", target, "dim", "log_density", "grad_log_density",
                          what="a target of inferopt.boosting.targets")


class Family:
    """A standard density ``f`` on R (applied per coordinate) and its location-scale family.

    All methods broadcast: ``x`` of shape ``(..., D)`` against ``loc``/``log_scale`` of
    shape ``(D,)`` or ``(K, D)`` via ``x[..., None, :]`` when ``components=True``.
    """

    name = "base"

    # standard density, per coordinate -------------------------------------------------
    def standard_sample(self, shape, rng: np.random.Generator) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def standard_logpdf(self, e: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def standard_score(self, e: np.ndarray) -> np.ndarray:  # pragma: no cover
        """``d log f(e) / de``."""
        raise NotImplementedError

    entropy_per_dim: float = 0.0  # entropy of the standard density

    # location-scale -------------------------------------------------------------------
    def sample(self, loc, log_scale, size: int, rng: np.random.Generator):
        """``size`` reparameterised draws: returns ``(x, eps)``, both ``(size, D)``, with
        ``x = loc + exp(log_scale) * eps`` (``eps`` gives ``∂x/∂ρ = e^ρ ε``)."""
        loc, log_scale = check_params(loc, log_scale)
        size = check_int("size", size, low=0)
        eps = self.standard_sample((size, loc.shape[0]), as_generator(rng))
        return loc + np.exp(log_scale) * eps, eps

    def log_density(self, x, loc, log_scale) -> np.ndarray:
        """``log s(x)`` summed over coordinates: ``x`` (S, D), ``loc``/``log_scale`` (D,) -> (S,);
        with ``loc``/``log_scale`` of shape (K, D) -> (S, K) (every sample under every component)."""
        x = np.asarray(x, dtype=float)
        loc = np.asarray(loc, dtype=float)
        log_scale = np.asarray(log_scale, dtype=float)
        if loc.ndim == 2:
            inv = np.exp(-log_scale)[None]
            return by_blocks(lambda xb: self.log_density_standardised((xb[:, None, :] - loc[None]) * inv, log_scale[None]),
                             x, loc.size)
        return self.log_density_standardised((x - loc) * np.exp(-log_scale), log_scale)

    def log_density_standardised(self, e: np.ndarray, log_scale: np.ndarray) -> np.ndarray:
        """``log s(x) = Σ_d (log f(e_d) − ρ_d)`` from the standardised draws ``e = (x − μ)/b`` and ``ρ``
        (broadcast against ``e``; the last axis summed): :meth:`log_density` after its standardisation."""
        return (self.standard_logpdf(e) - log_scale).sum(axis=-1)

    def grad_x_log_density(self, x, loc, log_scale) -> np.ndarray:
        """``∇_x log s(x)`` = ``f'/f((x − μ)/b) / b``; shapes as :meth:`log_density` with a
        trailing ``D`` axis ((S, D) or (S, K, D))."""
        x = np.asarray(x, dtype=float)
        loc = np.asarray(loc, dtype=float)
        inv = np.exp(-np.asarray(log_scale, dtype=float))
        if loc.ndim == 2:
            return by_blocks(lambda xb: self.grad_x_log_density_standardised((xb[:, None, :] - loc[None]) * inv[None], inv[None]),
                             x, loc.size)
        return self.grad_x_log_density_standardised((x - loc) * inv, inv)

    def grad_x_log_density_standardised(self, e: np.ndarray, inv_scale: np.ndarray) -> np.ndarray:
        """``∇_x log s(x) = f'/f(e) / b`` from ``e = (x − μ)/b`` and ``1/b`` (broadcast against ``e``)."""
        return self.standard_score(e) * inv_scale

    def entropy(self, log_scale) -> np.ndarray:
        """Closed-form differential entropy ``D·H(f) + Σ_d ρ_d`` (last axis summed)."""
        log_scale = np.asarray(log_scale, dtype=float)
        return log_scale.shape[-1] * self.entropy_per_dim + log_scale.sum(axis=-1)

    def variance_per_dim(self) -> float:  # pragma: no cover
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Gaussian(Family):
    """``f = N(0, 1)``: ``log f(e) = −e²/2 − log(2π)/2``, ``H(f) = log(2πe)/2``."""

    name = "gaussian"
    entropy_per_dim = 0.5 * (LOG2PI + 1.0)

    def standard_sample(self, shape, rng):
        return rng.standard_normal(shape)

    def standard_logpdf(self, e):
        return -0.5 * e**2 - 0.5 * LOG2PI

    def standard_score(self, e):
        return -e

    def variance_per_dim(self) -> float:
        return 1.0


class Laplace(Family):
    """``f(e) = e^{−|e|}/2``: ``log f = −|e| − log 2``, ``H(f) = 1 + log 2``; the score
    ``−sign(e)`` is used almost everywhere (the kink has measure zero)."""

    name = "laplace"
    entropy_per_dim = 1.0 + LOG2

    def standard_sample(self, shape, rng):
        return rng.laplace(0.0, 1.0, size=shape)

    def standard_logpdf(self, e):
        return -np.abs(e) - LOG2

    def standard_score(self, e):
        return -np.sign(e)

    def variance_per_dim(self) -> float:
        return 2.0


FAMILIES = {"gaussian": Gaussian(), "laplace": Laplace()}


def get_family(family) -> Family:
    """A :class:`Family` from an instance or its name ``'gaussian'``/``'laplace'``."""
    if isinstance(family, Family):
        return family
    return FAMILIES[check_choice("family", family, set(FAMILIES))]


def check_params(loc, log_scale, *, ndim: int = 1, names: tuple[str, str] = ("loc", "log_scale")) -> tuple[np.ndarray, np.ndarray]:
    """Validate a location and log-scale of equal shape (``ndim`` 1: one component; 2: a stack)."""
    loc = as_finite_array(names[0], loc, ndim=ndim)
    log_scale = as_finite_array(names[1], log_scale, ndim=ndim)
    if loc.shape != log_scale.shape:
        raise ValueError(f"{names[0]} and {names[1]} must have the same shape; got {loc.shape} and {log_scale.shape}")
    if loc.shape[-1] == 0:
        raise ValueError(f"{names[0]} must have at least one dimension (D >= 1)")
    return loc, log_scale


@dataclass(frozen=True, repr=False)
class Component:
    """One base-family density ``s = family(loc, exp(log_scale))`` (diagonal scale).

    Build from a scale with :meth:`from_scale` (which rejects non-positive scales).
    Implements the density protocol used by :mod:`.estimates`: ``dim``, ``sample``,
    ``log_density``, ``grad_x_log_density``, ``mean``.
    """

    family: Family
    loc: np.ndarray
    log_scale: np.ndarray

    def __post_init__(self):
        object.__setattr__(self, "family", get_family(self.family))
        loc, log_scale = check_params(self.loc, self.log_scale)
        object.__setattr__(self, "loc", loc)
        object.__setattr__(self, "log_scale", log_scale)

    @classmethod
    def from_scale(cls, family, loc, scale) -> Component:
        scale = as_finite_array("scale", scale, ndim=1)
        if np.any(scale <= 0):
            raise ValueError("scale must be strictly positive")
        return cls(family, loc, np.log(scale))

    @property
    def dim(self) -> int:
        return self.loc.shape[0]

    @property
    def scale(self) -> np.ndarray:
        return np.exp(self.log_scale)

    @property
    def mean(self) -> np.ndarray:
        return self.loc

    def sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return self.family.sample(self.loc, self.log_scale, size, rng)[0]

    def log_density(self, x) -> np.ndarray:
        return self.family.log_density(self._x(x), self.loc, self.log_scale)

    def grad_x_log_density(self, x) -> np.ndarray:
        return self.family.grad_x_log_density(self._x(x), self.loc, self.log_scale)

    def entropy(self) -> float:
        return float(self.family.entropy(self.log_scale))

    def _x(self, x) -> np.ndarray:
        return as_rows("x", x, self.dim)

    def __repr__(self) -> str:
        return f"Component({self.family.name}, loc={np.round(self.loc, 4)}, scale={np.round(self.scale, 4)})"
