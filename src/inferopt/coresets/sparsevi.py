"""Sparse variational inference (SparseVI; Campbell & Beronov, NeurIPS 2019, Algorithm 1).

Minimises the reverse KL ``D(π_w ‖ π)`` over ``k``-sparse ``w ≥ 0`` greedily:

1. **selection** -- with ``Φ_w`` the tangent vectors of the *current* weighted posterior
   ``π_w`` (``Φ_wᵀΦ_w = Cov_{π_w}[L_i, L_j]``) and the residual ``r = Φ_w(1 − w)``, add
   ``n* = argmax_n ⟨φ_n, r⟩/‖φ_n‖`` (the correlation with the residual; for points already
   in the coreset its absolute value, as in the public code; the lowest index among correlations
   tied up to round-off, :func:`inferopt._selection.tied_argmax`);
2. **weight update** -- ``T`` (default 100) projected stochastic-gradient steps on the
   active weights with the KL gradient ``∇_w D(π_w‖π) = −Cov_{π_w}[L, (1 − w)ᵀL]
   = −Φ_wᵀΦ_w(1 − w)`` and step ``γ_t = step_scale / t``, ``w ← max(w − γ_t·update, 0)``.

``optimizer="adam"`` (default) is what the public code (``util.opt.nn_opt``, used for the
papers' figures) does: the update is the Adam direction (``β₁ = 0.9, β₂ = 0.99``, moments
reset at each selection), which makes the ``1/t`` step independent of the gradient's
scale. ``optimizer="sgd"`` is the plain projected step ``γ_t ∇`` of the paper's Algorithm 1.

Where the gradient comes from is the ``tangent`` argument: a callable ``w -> Φ_w`` of
shape ``(S', n)``. Exact tangent vectors of the weighted posterior (Gaussian and
radial-basis regression models: :meth:`~inferopt.coresets.conjugate.GaussianMeanModel.tangent`)
give exact expectations; a Monte-Carlo callable (``S`` samples of ``π_w``, centred
log-likelihoods scaled by ``1/√S``, see :func:`~inferopt.coresets.problem.monte_carlo_tangent`)
gives the stochastic gradient the paper uses for logistic / Poisson models. Without
``tangent`` the fixed ``Φ`` is used (the L2 problem of Hilbert coresets).

Only ``Φ_wᵀΦ_w(1 − w)`` and the diagonal of ``Φ_wᵀΦ_w`` are ever used, so a model may
instead give ``covariance``: a callable ``w -> (Cov_{π_w}[L_n, (1 − w)ᵀL], Var_{π_w}[L_n])``
over all ``n`` (``model.residual_covariance``; for the radial-basis regression this is
O(ND²) per call instead of an ``N × N`` eigen-decomposition).

``Phi, y`` define the objective ``f(w) = ‖y − Φw‖²`` recorded in the trace, comparable
with the other methods.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._progress import Progress
from .._selection import tied_argmax
from .._validation import as_finite_array, check_choice, check_flag, check_int, check_real
from ._active_covariance import active_covariance
from ._common import GridRecorder, Trace, check_k_grid, check_problem, greedy_result, objective


def sparsevi(
    Phi,
    y,
    k,
    *,
    tangent: Callable[[np.ndarray], np.ndarray] | None = None,
    covariance: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None,
    n_steps: int = 100,
    step_scale: float = 1.0,
    optimizer: str = "adam",
    until: str = "iterations",
    max_iter: int | None = None,
    progress: bool = False,
):
    """SparseVI coreset(s) of size ``k`` (an int or a grid, recorded in one pass).

    One greedy selection per iteration, each followed by ``n_steps`` weight updates.
    ``until="iterations"`` (default): ``k`` selections (at most ``k`` points; re-selected
    points do not grow the support), as in the public code; ``until="support"``: until
    the coreset has ``k`` points or ``max_iter`` selections (default ``2·max(k)``).
    """
    Phi, y = check_problem(Phi, y)
    n = Phi.shape[1]
    ks = check_k_grid(k, n)
    n_steps = check_int("n_steps", n_steps, low=0)
    step_scale = check_real("step_scale", step_scale, low=0.0, low_open=True)
    check_choice("optimizer", optimizer, {"adam", "sgd"})
    check_choice("until", until, {"iterations", "support"})
    if until == "iterations":
        if max_iter is not None:
            raise ValueError(f"max_iter is used with until='support' only (until='iterations' makes max(k) "
                             f"selections); got max_iter={max_iter!r}")
        max_iter = int(ks[-1])
    else:
        max_iter = 2 * int(ks[-1]) if max_iter is None else check_int("max_iter", max_iter, low=1)
    if tangent is not None and covariance is not None:
        raise ValueError("give tangent or covariance, not both")
    big = max(float(np.abs(Phi).max()), float(np.abs(y).max(initial=0.0)))
    if big * big * Phi.size > np.finfo(float).max:   # issue 47: the gradient overflowed, then "w must be finite"
        raise ValueError(f"Phi and y are too large for SparseVI's arithmetic: with entries up to {big:.3g} its "
                         "gradients Phi_w'Phi_w(1 - w) overflow float64; divide Phi and y by one constant (SparseVI's "
                         "steps are in the problem's units: with optimizer='adam' the weights barely change)")
    restricted = active_covariance(covariance) if covariance is not None else None
    fixed_sum = Phi.sum(axis=1)
    fixed_norms = np.linalg.norm(Phi, axis=0)

    def model_call(fn, name, w):
        """``fn(w)``, turning the model's failure on diverged weights into a clear error."""
        try:
            return fn(w)
        except np.linalg.LinAlgError as err:
            raise FloatingPointError(
                f"SparseVI diverged: {name}(w) failed at largest weight {np.max(w):.3g} ({err}). With "
                f"optimizer='sgd' the plain step step_scale/i is too large for this problem: lower step_scale "
                f"(now {step_scale}) or use optimizer='adam'."
            ) from err

    def resid_cov(w, with_var):
        """``(Φ_wᵀΦ_w(1 − w), diag Φ_wᵀΦ_w or None)`` from ``covariance`` or tangent vectors."""
        if covariance is not None:
            out = model_call(covariance, "covariance", w)
            if not (isinstance(out, tuple) and len(out) == 2):
                raise ValueError("covariance(w) must return a pair (covariances, variances)")
            gv = as_finite_array("covariance(w)[0]", out[0], ndim=1)
            var = as_finite_array("covariance(w)[1]", out[1], ndim=1)
            if gv.shape[0] != n or var.shape[0] != n:
                raise ValueError(f"covariance(w) must return two vectors of length n = {n}")
            return gv, var
        V, vsum = vectors(w)
        act = np.flatnonzero(w)
        resid = vsum - V[:, act] @ w[act]
        var = None
        if with_var:
            var = fixed_norms**2 if tangent is None else np.einsum("ij,ij->j", V, V)
        return V.T @ resid, var

    def vectors(w):
        """``(Φ_w, Φ_w 1)``; the fixed Φ (no tangent) is neither re-checked nor re-summed."""
        if tangent is None:
            return Phi, fixed_sum
        V = as_finite_array("tangent(w)", model_call(tangent, "tangent", w), ndim=2)
        if V.shape[1] != n:
            raise ValueError(f"tangent(w) must return an array with n = {n} columns; got shape {V.shape}")
        return V, V.sum(axis=1)

    w = np.zeros(n)
    rec = GridRecorder(ks, n, until)
    trace = Trace(float(y @ y))
    it = range(1, max_iter + 1)
    if check_flag("progress", progress):
        from tqdm.auto import tqdm

        it = tqdm(it, desc="SparseVI", leave=False)
    clock = Progress("sparsevi", max_iter * n_steps, False, unit="step", size="n_steps")   # a long call warns
    t = 0
    message = f"{ks[-1]} selections" if until == "iterations" else f"support reached k = {ks[-1]}"
    for t in it:
        # --- greedy selection by correlation with the residual
        active = np.flatnonzero(w)
        gv, var = resid_cov(w, True)
        sd = np.sqrt(np.maximum(var, 0.0))
        corr = np.where(sd > 0, gv / np.where(sd > 0, sd, 1.0), -np.inf)
        corr[active] = np.abs(corr[active])
        f = tied_argmax(corr)
        active = np.union1d(active, [f])
        if until == "support" and active.size > ks[-1]:
            rec.update(np.where(np.isin(np.arange(n), active), 1.0, 0.0))  # closes the grid
            t -= 1
            break
        # --- projected (stochastic) gradient steps on the active weights
        step_cov = restricted(active) if restricted is not None else None
        m1 = np.zeros(active.size)
        m2 = np.zeros(active.size)
        for i in range(1, n_steps + 1):
            clock.update()
            wa = w[active]
            if covariance is None:
                V, vsum = vectors(w)
                Va = V[:, active]
                g = -(Va.T @ (vsum - Va @ wa))
            elif step_cov is not None:
                g = -model_call(step_cov, "covariance", w)
            else:
                g = -resid_cov(w, False)[0][active]
            if optimizer == "adam":
                m1 = 0.9 * m1 + 0.1 * g
                m2 = 0.99 * m2 + 0.01 * g * g
                upd = (m1 / (1 - 0.9**i)) / (1e-8 + np.sqrt(m2 / (1 - 0.99**i)))
            else:
                upd = g
            w[active] = np.maximum(wa - (step_scale / i) * upd, 0.0)
        trace.record(objective(Phi, y, w))
        rec.update(w)
        if rec.done:
            break
    else:
        if until == "support":
            message = f"reached max_iter = {max_iter} selections"
    return greedy_result(rec, trace, t, False, message, {"optimizer": optimizer, "n_steps": n_steps})
