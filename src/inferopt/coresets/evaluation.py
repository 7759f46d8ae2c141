"""Evaluation of coreset posteriors (Zhang et al. 2021, Sec. 5 and appendix G).

KL divergences between Gaussians in a numerically stable form (Cholesky factors and
triangular solves; no explicit inverses):

``KL(N₀ ‖ N₁) = ½[‖L₁⁻¹L₀‖_F² + ‖L₁⁻¹(μ₁ − μ₀)‖² − D + 2Σlog diag L₁ − 2Σlog diag L₀]``

with ``Σ_i = L_iL_iᵀ``. *Forward* KL is ``KL(π ‖ π_w)``, *reverse* ``KL(π_w ‖ π)``
(what SparseVI minimises), *symmetrised* their sum; the ℓ2 distance between the MAP
estimates ``‖θ̂_w − θ̂‖`` is the alternative measure of appendix G.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import solve_triangular

from .._validation import as_finite_array, check_choice, check_nonneg, check_protocol, check_spd


def gaussian_kl(mu0, cov0, mu1, cov1) -> float:
    """``KL(N(μ₀, Σ₀) ‖ N(μ₁, Σ₁))`` by Cholesky factors."""
    mu0 = as_finite_array("mu0", mu0, ndim=1)
    mu1 = as_finite_array("mu1", mu1, ndim=1)
    if mu0.shape != mu1.shape:
        raise ValueError(f"mu0 and mu1 must have the same length; got {mu0.shape[0]} and {mu1.shape[0]}")
    L0 = check_spd("cov0", cov0)
    L1 = check_spd("cov1", cov1)
    D = mu0.shape[0]
    if L0.shape != (D, D) or L1.shape != (D, D):
        raise ValueError(f"cov0 and cov1 must have shape ({D}, {D}); got {L0.shape} and {L1.shape}")
    M = solve_triangular(L1, L0, lower=True)
    z = solve_triangular(L1, mu1 - mu0, lower=True)
    logdet = 2.0 * (np.log(np.diag(L1)).sum() - np.log(np.diag(L0)).sum())
    return float(0.5 * (np.sum(M * M) + z @ z - D + logdet))


def _posteriors(model, weights):
    W = np.atleast_2d(as_finite_array("weights", weights))
    mus, covs = model.posterior(W)
    mu, cov = model.posterior(np.ones(model.N))
    return W, mus, covs, mu, cov


def check_model_weights(model, weights) -> np.ndarray:
    """``model`` with ``posterior``/``map`` and ``N`` data points, and ``weights`` of shape ``(N,)`` or
    ``(m, N)``, finite and non-negative."""
    check_protocol("model", model, "posterior", "map", "N", what="a conjugate model of inferopt.coresets.conjugate")
    W = check_nonneg("weights", as_finite_array("weights", weights))
    if W.ndim not in (1, 2) or W.shape[-1] != model.N:
        raise ValueError(f"weights must have shape (N,) or (m, N) with N = {model.N}; got {W.shape}")
    return W


def coreset_kl(model, weights, direction="reverse"):
    """KL between the full posterior ``π`` and the coreset posteriors ``π_w`` of a
    conjugate model (``weights`` of shape ``(n,)`` or ``(m, n)``).

    ``direction``: ``"forward"`` ``KL(π‖π_w)``, ``"reverse"`` ``KL(π_w‖π)``,
    ``"symmetric"`` their sum. Returns a float or an array of length ``m``.
    """
    check_choice("direction", direction, ("forward", "reverse", "symmetric"))
    weights = check_model_weights(model, weights)
    single = np.ndim(weights) == 1
    W, mus, covs, mu, cov = _posteriors(model, weights)
    out = np.empty(W.shape[0])
    for j in range(W.shape[0]):
        fwd = gaussian_kl(mu, cov, mus[j], covs[j]) if direction != "reverse" else 0.0
        rev = gaussian_kl(mus[j], covs[j], mu, cov) if direction != "forward" else 0.0
        out[j] = fwd + rev
    return float(out[0]) if single else out


def coreset_kls(model, weights) -> dict:
    """Forward, reverse and symmetrised KL (and the MAP distance) of a stack of coreset
    weights ``(m, n)`` in one pass: ``{"forward_kl", "reverse_kl", "symmetric_kl",
    "map_distance"}``, arrays of length ``m``. Uses the model's closed form
    ``kl_to_full`` when it has one (the conjugate models of :mod:`.conjugate`: O(D) per row
    for the Gaussian mean, Cholesky factors of the precisions for linear regression), else
    :func:`coreset_kl`."""
    W = np.atleast_2d(check_model_weights(model, weights))
    if hasattr(model, "kl_to_full"):
        fwd, rev = model.kl_to_full(W)
    else:
        fwd, rev = coreset_kl(model, W, "forward"), coreset_kl(model, W, "reverse")
    fwd, rev = np.atleast_1d(fwd), np.atleast_1d(rev)
    return {"forward_kl": fwd, "reverse_kl": rev, "symmetric_kl": fwd + rev,
            "map_distance": np.atleast_1d(map_distance(model, W))}


def map_distance(model, weights):
    """ℓ2 distance ``‖θ̂_w − θ̂‖`` between the MAP of the coreset and of the full posterior."""
    weights = check_model_weights(model, weights)
    single = np.ndim(weights) == 1
    W = np.atleast_2d(weights)
    full = model.map(np.ones(model.N))
    d = np.linalg.norm(np.atleast_2d(model.map(W)) - full[None, :], axis=1)
    return float(d[0]) if single else d
