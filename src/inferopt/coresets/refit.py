"""Non-negative least-squares re-fit of the weights on a fixed support.

``min_{w ≥ 0, supp(w) ⊆ supp(w0)} ‖y − Φ w‖²`` by ``scipy.optimize.nnls`` (Lawson–Hanson).
This is what the peer library's ``optimize()`` does after GIGA / FW; REPRODUCTION.md (A)
asks for every method with and without it.
"""

from __future__ import annotations


import numpy as np
from scipy.optimize import nnls

from .._clock import clock
from .._validation import as_finite_array, check_indices, check_nonneg
from ._common import CoresetResult, check_problem, scale_free, support_objective


@scale_free()
def nnls_on_support(Phi, y, support) -> np.ndarray:
    """Weights (length ``n``) solving the NNLS problem on the columns ``support``."""
    Phi, y = check_problem(Phi, y)
    support = check_indices("support", support, Phi.shape[1])
    w = np.zeros(Phi.shape[1])
    if support.size == 0:
        return w
    coef, _ = nnls(Phi[:, support], y, maxiter=50 * max(support.size, 10))
    w[support] = coef
    return w


def refit(Phi, y, weights) -> np.ndarray:
    """Re-fit ``weights`` (a length-``n`` vector, or a ``(m, n)`` stack, one per row) on
    their own supports by NNLS. The support can only shrink (NNLS may zero a weight)."""
    Phi, y = check_problem(Phi, y)
    W = check_nonneg("weights", as_finite_array("weights", weights))
    if W.ndim not in (1, 2) or W.shape[-1] != Phi.shape[1]:
        raise ValueError(f"weights must have last dimension n = {Phi.shape[1]}; got shape {W.shape}")
    if W.ndim == 1:
        return nnls_on_support(Phi, y, np.flatnonzero(W))
    return np.stack([nnls_on_support(Phi, y, np.flatnonzero(w)) for w in W])


def refit_result(Phi, y, result: CoresetResult) -> CoresetResult:
    """A copy of ``result`` whose weights (``x`` and every row of ``weights``) are re-fitted.

    The objective trace gains one final entry (the re-fitted objective) and
    ``info['refit'] = True``; ``info['objective_before_refit']`` keeps the solver's value.
    """
    Phi, y = check_problem(Phi, y)
    if not isinstance(result, CoresetResult):
        raise TypeError(f"result must be a CoresetResult; got {type(result).__name__}")
    t0 = clock()
    W = refit(Phi, y, result.path_weights) if result.path_weights.size else result.path_weights
    x = refit(Phi, y, result.x)
    elapsed = clock() - t0
    f = support_objective(Phi, y, x)
    info = dict(result.info, refit=True, objective_before_refit=float(result.objective[-1]))
    extra_t = (result.times[-1] if len(result.times) else 0.0) + elapsed
    return CoresetResult(
        x=x,
        objective=np.append(result.objective, f),
        n_iter=result.n_iter,
        converged=result.converged,
        message=result.message + "; weights re-fitted by NNLS on the support",
        times=np.append(result.times, extra_t),
        info=info,
        ks=result.ks.copy(),
        path_weights=W,
    )
