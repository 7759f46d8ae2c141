"""Lanczos tridiagonals of ``M`` probes by the plain three-term recurrence, slab by slab.

For a large sparse ``A`` the product costs a few passes over the ``d x M`` block, so the
vector updates must not cost more. The recurrence is run on the unnormalised residuals
``s_k = β_{k-1} q_k`` (``n_k = ‖s_k‖ = β_{k-1}``, ``s_0 = z``), in Paige's order
(``α_k`` from ``u = A s_k − γ_k s_{k-1}``, the more stable of the classical variants):

    u = A s_k − γ_k s_{k-1},  γ_k = β_{k-1} n_k / n_{k-1},    α_k = s_kᵀ u / n_k²,
    s_{k+1} = (u − α_k s_k) / n_k,    β_k = ‖s_{k+1}‖,

which is ``A q_k − α_k q_k − β_{k-1} q_{k-1}`` without ever forming ``q_k``. Each step is two
passes over row slabs (:class:`._csr_block.CSRSlabs`) in two buffers that swap roles: the
first forms ``u`` in the buffer of ``s_{k-1}`` (scale, add the product, accumulate ``s_kᵀ u``),
the second turns it into ``s_{k+1}`` and accumulates its norm. No ``d x M`` array is allocated
per step.
"""

from __future__ import annotations

import numpy as np

from ._csr_block import ROWS, CSRSlabs


def three_term_tridiagonals(matrix, Z, m: int, *, rows: int = ROWS):
    """``alpha, beta`` (shape ``(M, m)``) of ``m`` Lanczos steps of the sparse ``matrix`` from each
    column of ``Z``; a run that breaks down (``β_k <= 1e-10 |α_k|``) has ``β = 0`` from there and
    zeros after."""
    slabs = CSRSlabs(matrix, rows=rows)
    d, M = Z.shape
    alpha = np.zeros((M, m))
    beta = np.zeros((M, m))
    alive = np.ones(M, dtype=bool)
    s = np.array(Z, dtype=float, order="C")
    u = np.zeros_like(s)  # the buffer of s_{k-1} (zero before the first step)
    n = np.sqrt(np.einsum("ij,ij->j", s, s))
    n_prev = np.ones(M)
    h = min(rows, d)
    tmp = np.empty(h * M)
    for k in range(m):
        # per-column factors tiled over a slab's rows: a flat product with them runs as one
        # contiguous loop (broadcasting an M-vector over the rows loops M entries at a time)
        neg_gamma = np.tile(-(beta[:, k - 1] * n / n_prev) if k else np.zeros(M), h)
        dot = np.zeros(M)
        for slab in slabs.slabs:
            lo, hi = slab[0], slab[1]
            ub = u[lo:hi]
            flat = ub.reshape(-1)  # a view: u is C-contiguous
            flat *= neg_gamma[: flat.size]
            slabs.add_product(slab, s, u)
            dot += np.einsum("ij,ij->j", s[lo:hi], ub)
        alpha[:, k] = dot / n**2
        alpha_rows, inv_n = np.tile(alpha[:, k], h), np.tile(1.0 / n, h)
        nrm2 = np.zeros(M)
        for slab in slabs.slabs:
            lo, hi = slab[0], slab[1]
            ub, size = u[lo:hi], (hi - lo) * M
            flat = ub.reshape(-1)
            flat -= np.multiply(s[lo:hi].reshape(-1), alpha_rows[:size], out=tmp[:size])
            flat *= inv_n[:size]
            nrm2 += np.einsum("ij,ij->j", ub, ub)
        nb = np.sqrt(nrm2)
        alive &= nb > 1e-10 * np.maximum(np.abs(alpha[:, k]), 1e-300)
        beta[:, k] = np.where(alive, nb, 0.0)
        s, u, n_prev = u, s, n
        n = nb
        if not alive.all():  # dead runs continue as zeros with unit scale
            s[:, ~alive] = 0.0
            n = np.where(alive, nb, 1.0)
    return alpha, beta
