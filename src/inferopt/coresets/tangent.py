"""The coreset problem ``min_w f(w) = ‖y − Φw‖²``, ``‖w‖₀ ≤ k``, ``w ≥ 0``
(Zhang et al. 2021, eq. 3), and the construction of ``Φ`` and ``y``.

``Φ = [ĝ_1, …, ĝ_n]`` (shape ``S × n``) holds finite representations of the centred
log-likelihoods ``g_i = L_i − E_π̂ L_i`` with ``⟨ĝ_i, ĝ_j⟩ ≈ Cov_π̂(L_i, L_j)``, and
``y = Σ_i ĝ_i``. Two constructions:

* Monte Carlo (Sec. 2): ``ĝ_i = S^{-1/2}[L_i(θ_1) − L̄_i, …, L_i(θ_S) − L̄_i]`` for
  ``θ_s ~ π̂`` -- :func:`tangent_from_loglik`, :func:`monte_carlo_tangent`;
* exact, for the conjugate models of :mod:`.conjugate` -- :func:`exact_problem`
  (``model.tangent(w)``, inner products *equal* to the covariances under ``π̂ = π_w``).
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, check_callable, check_int, check_protocol, check_returned, check_size
from ._common import check_problem, objective
from .._random import as_generator

__all__ = [
    "centre_in_place",
    "exact_problem",
    "monte_carlo_tangent",
    "objective",
    "problem_from_tangent",
    "tangent_from_loglik",
    "weighted_mc_tangent",
]


def tangent_from_loglik(L) -> np.ndarray:
    """``Φ`` from an ``(S, n)`` matrix ``L[s, i] = L_i(θ_s)``: centre each column over the
    samples and scale by ``1/√S`` (Sec. 2). Returns ``(S, n)``."""
    L = as_finite_array("L", L, ndim=2)
    if L.shape[0] < 2:
        raise ValueError(f"L must have at least 2 rows (samples); got {L.shape[0]}")
    return centre_in_place(L.copy(order="K"))   # its own layout: the column means sum in the same order


def centre_in_place(L: np.ndarray) -> np.ndarray:
    """:func:`tangent_from_loglik` of a checked ``(S, n)`` float array that the caller owns, computed in ``L``
    itself (``L − mean`` then ``/ √S``, the same numbers without an ``S × n`` temporary: SparseVI's Monte-Carlo
    gradient centres a fresh matrix of log-likelihoods at every step, :meth:`.GLMCoresetProblem.sparsevi_tangent`).
    Returns ``L``."""
    L -= L.mean(axis=0, keepdims=True)
    L /= np.sqrt(L.shape[0])
    return L


def monte_carlo_tangent(loglik, sampler, n_samples, rng=None) -> np.ndarray:
    """``Φ`` from ``n_samples`` draws of a weighting distribution.

    ``sampler(size, rng) -> (size, d)`` draws ``θ ~ π̂``; ``loglik(thetas) -> (size, n)``.
    For a model of :mod:`.conjugate`: ``monte_carlo_tangent(model.loglik,
    lambda s, g: model.sample_posterior(w, s, g), S, rng)``. Usable as the ``tangent`` of SparseVI
    (a fresh sample of ``π_w`` at each call gives its stochastic gradient).
    """
    check_callable("loglik", loglik)
    check_callable("sampler", sampler)
    rng = as_generator(rng)
    n_samples = check_size("n_samples", n_samples, low=2, item_bytes=8 * 2, item="draw (a row of log-likelihoods)")
    thetas = check_returned("sampler", sampler(n_samples, rng))
    if len(thetas) != n_samples:
        raise ValueError(f"sampler(size, rng) must return size = {n_samples} draws; got shape {thetas.shape}")
    L = check_returned("loglik", loglik(thetas))
    if L.ndim != 2 or L.shape[0] != n_samples:
        raise ValueError(f"loglik(thetas) must return shape (size, n) with size = {n_samples}; got {L.shape}")
    return tangent_from_loglik(L)


def problem_from_tangent(Phi) -> tuple[np.ndarray, np.ndarray]:
    """``(Φ, y = Φ1)`` with ``Φ`` checked (finite, 2-d) and stored column by column (Fortran
    order): each data point's ``ĝ_i`` is contiguous, so the IHT family reads ``Φᵀ`` as a view
    (:func:`.iht.rows_of`) instead of copying it at every solve."""
    Phi = np.asfortranarray(as_finite_array("Phi", Phi, ndim=2, nonempty=True))
    return Phi, Phi.sum(axis=1)


def exact_problem(model, w=None, **tangent_kw) -> tuple[np.ndarray, np.ndarray]:
    """``(Φ, y)`` from the exact tangent vectors of ``model`` at ``π̂ = π_w``
    (default ``w = 1``, the true posterior: the "optimally tuned" Hilbert coreset)."""
    check_protocol("model", model, "tangent", what="a model of inferopt.coresets.conjugate")
    return problem_from_tangent(model.tangent(w, **tangent_kw))




def weighted_mc_tangent(model, n_samples, rng=None):
    """A ``tangent`` callable for SparseVI: ``w -> Φ_w`` from ``n_samples`` fresh draws of
    ``π_w`` (``model.sample_posterior``) and ``model.loglik`` -- the Monte-Carlo gradient the paper
    uses where exact expectations are unavailable. Any model with ``sample_posterior(w, size, rng)``
    and ``loglik(thetas)`` fits (e.g. a Laplace-approximated logistic model)."""
    check_protocol("model", model, "sample_posterior", "loglik",
                   what="a model with sample_posterior(w, size, rng) and loglik(thetas)")
    rng = as_generator(rng)
    n_samples = check_int("n_samples", n_samples, low=2)

    def tangent(w):
        return monte_carlo_tangent(model.loglik, lambda s, g: model.sample_posterior(w, s, g), n_samples, rng)

    return tangent
