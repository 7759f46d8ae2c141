"""Frank-Wolfe Hilbert coreset (Campbell & Broderick, JMLR 2019, Algorithm 2), on the
shared conditional-gradient core :mod:`inferopt.fw`.

The coreset problem relaxed to the scaled simplex: with ``σ_n = ‖φ_n‖`` and
``σ = Σ_n σ_n``, minimise ``‖y − Σ_n α_n v_n‖²`` over ``α`` in the simplex, atoms
``v_n = σ φ_n / σ_n`` (so ``y = Σ_n (σ_n/σ) v_n`` lies in their hull), with the exact line
search; the coreset weights are ``w_n = α_n σ / σ_n``. ``k`` iterations (the first atom,
``argmax_n ⟨v_n, y⟩``, then ``k − 1`` steps) give at most ``k`` points.

The atoms are given to :class:`inferopt.fw.QuadraticHull` implicitly (``from_columns``): a
column of their Gram matrix costs one product ``Φᵀφ_s`` (O(nS)); neither the ``n × n``
Gram matrix nor a rescaled copy of Φ is formed.
"""

from __future__ import annotations

import numpy as np

from .. import fw
from .._validation import check_choice, check_real
from ._common import CoresetResult, GridRecorder, check_k_grid, check_problem, scale_free


@scale_free(arguments={"tol": -2}, info={"gap": 2, "slope": 2, "value": 2, "bound": 2, "C": 2})
def hilbert_frank_wolfe(Phi, y, k, *, variant="fw", step="line_search", tol=0.0) -> CoresetResult:
    """FW Hilbert coreset(s) of size ``k`` (an int or a grid, recorded in one pass).

    ``variant``: ``"fw"`` (Campbell & Broderick's algorithm), or ``"away"`` /
    ``"pairwise"`` steps of the shared core; ``step``: ``"line_search"`` (exact, the
    paper's) or another rule of :mod:`inferopt.fw`. ``tol``: stop when the FW duality gap
    is ``≤ tol`` (the remaining sizes then keep the last weights).
    """
    Phi, y = check_problem(Phi, y)
    S, n = Phi.shape
    ks = check_k_grid(k, n)
    check_choice("variant", variant, set(fw.VARIANTS))
    tol = check_real("tol", tol, low=0.0)
    sigma_n = np.linalg.norm(Phi, axis=0)
    cols = np.flatnonzero(sigma_n > 0)                # zero vectors cannot be atoms
    rec = GridRecorder(ks, n, "iterations")
    if cols.size == 0 or not np.any(y):
        w0 = np.zeros(n)
        rec.update(w0)
        W = rec.finish()
        return CoresetResult(
            x=w0, objective=np.array([float(y @ y)]), n_iter=0, converged=True,
            message="no atom can reduce the error", times=np.zeros(1), ks=ks, path_weights=W,
            info={"iter_at_size": rec.iters.copy()},
        )
    sigma = float(sigma_n.sum())
    scale = sigma / sigma_n[cols]                      # v_n = scale_n φ_n, w_n = α_n scale_n
    c = (Phi.T @ y)[cols] * scale                      # ⟨v_n, y⟩

    def columns(ids):
        """Gram block ``[⟨v_i, v_j⟩]_{i, j ∈ ids}`` over all atoms ``i``."""
        ids = np.asarray(ids, dtype=np.intp)
        block = Phi.T @ (Phi[:, cols[ids]] * scale[ids])
        return block[cols] * scale[:, None]

    problem = fw.QuadraticHull.from_columns(columns, c, float(y @ y), np.full(cols.size, sigma**2))

    def record(t, active):
        w = np.zeros(n)
        w[cols[active.ids]] = active.weights * scale[active.ids]
        rec.update(w)

    kmax = int(ks[-1])
    res = fw.frank_wolfe(problem, variant=variant, step=step, max_iter=max(kmax - 1, 1), tol=tol,
                         callback=lambda t, a: record(t, a) if t < kmax else None)
    W = rec.finish()
    m = min(len(res.objective), kmax)                   # iterates 1 .. min(kmax, run length)
    objective = np.concatenate([[float(y @ y)], res.objective[:m]])
    times = np.concatenate([[0.0], res.times[:m]])
    info = {key: val for key, val in res.info.items()}
    info["iter_at_size"] = rec.iters.copy()
    return CoresetResult(
        x=W[-1].copy(), objective=objective, n_iter=m, converged=res.converged,
        message=f"{m} iterations ({res.message})", times=times, info=info, ks=ks, path_weights=W,
    )
