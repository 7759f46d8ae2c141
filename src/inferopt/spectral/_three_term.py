"""Lanczos tridiagonals of ``M`` probes by the plain three-term recurrence, cache-blocked.

For a large sparse ``A`` the product costs a few passes over the ``d x M`` block, so the
vector updates must not cost more. The recurrence is run on the unnormalised residuals
``s_k = β_{k-1} q_k`` (``n_k = ‖s_k‖ = β_{k-1}``, ``s_0 = z``):

    α_k = s_kᵀ A s_k / n_k²,     s_{k+1} = (A s_k − α_k s_k − (β_{k-1} n_k / n_{k-1}) s_{k-1}) / n_k,
    β_k = ‖s_{k+1}‖,

which is ``A q_k − α_k q_k − β_{k-1} q_{k-1}`` (Paige's form of Lanczos) without ever forming
``q_k``; the update and the norm of ``s_{k+1}`` are done in row blocks that stay in cache, so
each step is one product with ``A`` and two passes over the block.
"""

from __future__ import annotations

import numpy as np

#: rows per cache block of the vector update (x M columns x 8 bytes, x 3 arrays)
ROWS = 2048


def three_term_tridiagonals(op, Z, m: int):
    """``alpha, beta`` (shape ``(M, m)``) of ``m`` Lanczos steps from each column of ``Z``; a run
    that breaks down (``β_k <= 1e-10 |α_k|``) has ``β = 0`` from there and zeros after."""
    d, M = Z.shape
    alpha = np.zeros((M, m))
    beta = np.zeros((M, m))
    alive = np.ones(M, dtype=bool)
    s, s_prev = np.array(Z, dtype=float), None
    n = np.sqrt(np.einsum("ij,ij->j", s, s))
    n_prev = np.ones(M)
    for k in range(m):
        As = np.asarray(op.matmat(s), dtype=float)
        if np.may_share_memory(As, s):
            As = As.copy()
        alpha[:, k] = np.einsum("ij,ij->j", s, As) / n**2
        gamma = beta[:, k - 1] * n / n_prev if k else np.zeros(M)
        inv_n = 1.0 / n
        nrm2 = np.zeros(M)
        for lo in range(0, d, ROWS):
            blk = As[lo : lo + ROWS]
            blk -= s[lo : lo + ROWS] * alpha[:, k]
            if k:
                blk -= s_prev[lo : lo + ROWS] * gamma
            blk *= inv_n
            nrm2 += np.einsum("ij,ij->j", blk, blk)
        nb = np.sqrt(nrm2)
        alive &= nb > 1e-10 * np.maximum(np.abs(alpha[:, k]), 1e-300)
        beta[:, k] = np.where(alive, nb, 0.0)
        s_prev, s, n_prev = s, As, n
        n = nb
        if not alive.all():  # dead runs continue as zeros with unit scale
            s[:, ~alive] = 0.0
            n = np.where(alive, nb, 1.0)
    return alpha, beta
