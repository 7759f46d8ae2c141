"""The distance ``d = ∫ (s − q)²`` of the authors' adaptive step rules (Dresdner et al. 2021, their code).

The authors' ``optim/blr_step_size.py`` (``adaptive_fw``, ``adaptive_afw``, ``adaptive_pfw``) take the step
``γ = min(g / (L · d), γ_max)`` and test ``f(q + γ d_t) ≤ f(q) − γ g + γ² L d / 2`` with
``d = divergence(s_t, q_t, metric='dotproduct')`` (their ``optim/utils.py``), the Monte-Carlo estimate

    d̂ = mean_{x ~ s}[s(x) − q(x)] − mean_{x ~ q}[s(x) − q(x)]     (n draws from each side)

of ``∫ (s − q)² = ∫ s (s − q) − ∫ q (s − q)``: the squared ``L²`` norm of the direction ``s − q``, the
norm in which the curvature constant ``L`` of their Alg. 2 is measured. Their densities are TensorFlow
float32 ``prob = exp(log_prob)``: above ``log 3.4e38 ≈ 88.7`` a density is ``+inf`` (a 100-dimensional
component with scales below ``e^{-1}/2`` has a log-density of order 100 at its own draws), so ``d̂`` is
``+inf`` (γ = 0: the step falls back) or, where ``s`` and ``q`` both overflow at one draw, ``inf − inf = NaN``
(γ = NaN: their run stops with an error).

* :func:`l2_distance` -- ``∫ (s − q)²`` in closed form, in float64 from log-space inner products
  (:func:`log_inner_products`): the distance their rule means, without their arithmetic;
* :func:`l2_distance_authors` -- their estimator ``d̂``, its densities in float32 (their arithmetic:
  overflow and NaN included) or float64.

Closed forms of ``∫ p_1 p_2`` for two densities of one diagonal family (a product over dimensions):
Gaussian ``N(μ_1 − μ_2; 0, σ_1² + σ_2²)``; Laplace, with ``Δ = |μ_1 − μ_2|`` (the density of the difference
of two Laplace variables at ``Δ``): ``(b_1 e^{−Δ/b_1} − b_2 e^{−Δ/b_2}) / (2 (b_1² − b_2²))``, and
``(b + Δ) e^{−Δ/b} / (4 b²)`` for ``b_1 = b_2 = b``.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from .._random import as_generator
from .._validation import check_size
from .families import Component
from .mixture import Mixture

#: the arithmetic of :func:`l2_distance_authors`'s densities
DTYPES = {"float32": np.float32, "float64": np.float64}


def _log_laplace_overlap(delta: np.ndarray, b1: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """``log ∫ Lap(x; 0, b1) Lap(x; Δ, b2) dx`` per dimension (module docstring), stable for ``b1 ≈ b2``."""
    lo, hi = np.minimum(b1, b2), np.maximum(b1, b2)
    r = lo / hi
    # (hi e^{-Δ/hi} − lo e^{-Δ/lo}) / (2 (hi² − lo²)) = e^{-Δ/hi} (1 − r e^{-Δ (1/lo − 1/hi)}) / (2 hi (1 − r²))
    a = delta * (1.0 / lo - 1.0 / hi)
    num = -np.expm1(np.log(r) - a)                    # 1 − r e^{−a} > 0 unless r = 1 and a = 0
    den = -np.expm1(2.0 * np.log(r))                  # 1 − r²
    with np.errstate(divide="ignore", invalid="ignore"):
        general = -delta / hi + np.log(num) - np.log(2.0 * hi * den)
    equal = np.log(hi + delta) - delta / hi - np.log(4.0 * hi**2)
    # within a relative 1e-6 of equal scales the general form loses digits: the equal-scale limit (error O(1 − r))
    return np.where(1.0 - r < 1e-6, equal, general)


def log_inner_products(family, locs1, log_scales1, locs2, log_scales2) -> np.ndarray:
    """``log ∫ p_i p_j`` for every component ``i`` of ``(locs1, log_scales1)`` (``(K1, D)``) and ``j`` of
    ``(locs2, log_scales2)`` (``(K2, D)``) of the family (``'gaussian'`` or ``'laplace'``): ``(K1, K2)``."""
    name = getattr(family, "name", family)
    m1, m2 = np.atleast_2d(locs1)[:, None, :], np.atleast_2d(locs2)[None, :, :]
    ls1, ls2 = np.atleast_2d(log_scales1)[:, None, :], np.atleast_2d(log_scales2)[None, :, :]
    if name == "gaussian":
        var = np.exp(2 * ls1) + np.exp(2 * ls2)
        per_dim = -0.5 * (np.log(2 * np.pi * var) + (m1 - m2) ** 2 / var)
    elif name == "laplace":
        per_dim = _log_laplace_overlap(np.abs(m1 - m2), np.exp(ls1), np.exp(ls2))
    else:
        raise ValueError(f"family must be 'gaussian' or 'laplace'; got {name!r}")
    return per_dim.sum(axis=-1)


def _signed(s: Component, q: Mixture) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not isinstance(s, Component) or not isinstance(q, Mixture):
        raise TypeError(f"s must be a Component and q a Mixture; got {type(s).__name__}, {type(q).__name__}")
    if s.family.name != q.family.name or s.dim != q.dim:
        raise ValueError(f"s ({s.family.name}, D = {s.dim}) and q ({q.family.name}, D = {q.dim}) must share family and dimension")
    locs = np.vstack([s.loc[None], q.locs])
    log_scales = np.vstack([s.log_scale[None], q.log_scales])
    return locs, log_scales, np.concatenate([[1.0], -np.asarray(q.weights)])


def log_l2_distance(s: Component, q: Mixture) -> float:
    """``log ∫ (s − q)²`` in closed form (module docstring): ``Σ_ij c_i c_j ∫ p_i p_j`` with the signed
    weights ``c = (1, −α)``, summed in log space (``-inf`` when ``s − q`` vanishes up to round-off)."""
    locs, log_scales, c = _signed(s, q)
    logk = log_inner_products(s.family, locs, log_scales, locs, log_scales)
    cc = np.outer(c, c)
    value, sign = logsumexp(logk, b=cc, return_sign=True)
    return float(value) if sign > 0 else float("-inf")


def l2_distance(s: Component, q: Mixture) -> float:
    """``∫ (s − q)²`` (float64; ``inf`` beyond its range, see :func:`log_l2_distance` for the logarithm)."""
    with np.errstate(over="ignore"):
        return float(np.exp(log_l2_distance(s, q)))


def l2_distance_authors(s: Component, q: Mixture, *, n_samples: int, rng: np.random.Generator,
                        dtype: str = "float32") -> float:
    """The authors' estimate ``d̂`` of ``∫ (s − q)²`` (their ``divergence(s_t, q_t, 'dotproduct')``, module
    docstring): ``n_samples`` draws of ``s`` and of ``q``, densities ``exp(log density)`` in ``dtype``
    (``'float32'``: their arithmetic, ``inf`` or ``NaN`` where a density overflows; ``'float64'``)."""
    if not isinstance(dtype, str) or dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {sorted(DTYPES)}; got {dtype!r}")
    _signed(s, q)
    n_samples = check_size("n_samples", n_samples, item_bytes=8 * (s.dim + 2), item="draw")
    rng = as_generator(rng)
    ft = DTYPES[dtype]
    xs, xq = s.sample(n_samples, rng), q.sample(n_samples, rng)

    def prob(log_density: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return np.exp(log_density.astype(ft))

    with np.errstate(invalid="ignore", over="ignore"):
        at_s = prob(s.log_density(xs)) - prob(q.log_density(xs))
        at_q = prob(s.log_density(xq)) - prob(q.log_density(xq))
        return float(np.mean(at_s, dtype=ft) - np.mean(at_q, dtype=ft))
