"""Greedy iterative geodesic ascent (GIGA; Campbell & Broderick, ICML 2018, Algorithm 1).

Works on the normalised vectors ``ℓ_n = φ_n/σ_n`` (``σ_n = ‖φ_n‖``) and ``ℓ = y/‖y‖`` on
the unit sphere. With ``ℓ_w`` the current (unit) approximation, each step

1. selects ``n_t = argmax_n ⟨d_t, d_tn⟩`` with the geodesic directions
   ``d_t ∝ ℓ − ⟨ℓ, ℓ_w⟩ℓ_w`` and ``d_tn ∝ ℓ_n − ⟨ℓ_n, ℓ_w⟩ℓ_w`` (eq. 9), the lowest index among
   scores tied up to round-off (:func:`inferopt._selection.tied_argmax`);
2. moves along the geodesic towards ``ℓ_{n_t}`` with the closed-form step
   ``γ = (ζ₀ − ζ₁ζ₂) / ((ζ₀ − ζ₁ζ₂) + (ζ₁ − ζ₀ζ₂))``,
   ``ζ₀ = ⟨ℓ, ℓ_n⟩, ζ₁ = ⟨ℓ, ℓ_w⟩, ζ₂ = ⟨ℓ_n, ℓ_w⟩`` (eq. 11), renormalising onto the sphere;
3. and the weights are scaled in closed form, ``w = ⟨y, ℓ_w⟩ · w̃ / σ``, the optimal scale
   of the unit direction ``ℓ_w = Σ w̃_n ℓ_n`` (eq. 12), so ``f(w) = ‖y‖²(1 − ⟨ℓ, ℓ_w⟩²)``.

The error never increases (``⟨ℓ, ℓ_w⟩`` is non-decreasing). Cost per step: O(nS) — one
product ``Φᵀℓ_w``; ``ℓ_w``, ``⟨ℓ, ℓ_w⟩`` and the normalised weights are updated
incrementally; ``⟨ℓ_n, ℓ⟩`` is computed once.
"""

from __future__ import annotations

import numpy as np

from .._selection import tied_argmax
from .._validation import check_int
from ._common import CoresetResult, GridRecorder, Trace, check_k_grid, check_problem, greedy_result, scale_free

_TOL = 1e-12


@scale_free(info={"scale": 1})
def giga(Phi, y, k, *, until="iterations", max_iter: int | None = None) -> CoresetResult:
    """GIGA coreset of size ``k`` (an int or a grid of sizes, recorded in one pass).

    ``until="iterations"`` (default): ``k`` steps, hence at most ``k`` points (points may
    be re-selected), as in the peer library; ``until="support"``: steps until the coreset
    has ``k`` distinct points (at most ``max_iter`` steps, default ``10·max(k) + 10``).
    Stops early when the geodesic direction vanishes (``y`` reproduced to ``1e-12``) or
    no step increases ``⟨ℓ, ℓ_w⟩``.
    """
    Phi, y = check_problem(Phi, y)
    S, n = Phi.shape
    ks = check_k_grid(k, n)
    if until == "iterations":
        if max_iter is not None:
            raise ValueError(f"max_iter is used with until='support' only (until='iterations' takes max(k) steps); "
                             f"got max_iter={max_iter!r}")
        max_iter = int(ks[-1])
    else:
        max_iter = 10 * int(ks[-1]) + 10 if max_iter is None else check_int("max_iter", max_iter, low=1)
    sigma = np.linalg.norm(Phi, axis=0)
    ynorm = float(np.linalg.norm(y))
    rec = GridRecorder(ks, n, until)
    trace = Trace(ynorm**2)
    if ynorm == 0.0:
        return greedy_result(rec, trace, 0, True, "y = 0: the empty coreset is exact", {})
    valid = sigma > 0
    inv_sigma = np.where(valid, 1.0 / np.where(valid, sigma, 1.0), 0.0)
    ell = y / ynorm
    q = (Phi.T @ ell) * inv_sigma                    # ⟨ℓ_n, ℓ⟩, once
    wn = np.zeros(n)                                 # normalised weights: Σ wn_n ℓ_n = ℓ_w
    ell_w = np.zeros(S)
    p = np.zeros(n)                                  # ⟨ℓ_n, ℓ_w⟩
    zeta1 = 0.0                                      # ⟨ℓ, ℓ_w⟩
    converged, t = False, 0
    message = f"{ks[-1]} steps" if until == "iterations" else f"support reached k = {ks[-1]}"
    last_scale = 0.0
    for t in range(1, max_iter + 1):
        if t == 1:
            scores = np.where(valid, q, -np.inf)
        else:
            cdir = ell - zeta1 * ell_w
            cnorm = float(np.linalg.norm(cdir))
            if cnorm < _TOL:
                converged, message = True, "y reproduced exactly (geodesic direction vanished)"
                t -= 1
                break
            denom2 = 1.0 - p * p
            ok = valid & (denom2 > _TOL)
            scores = np.full(n, -np.inf)
            scores[ok] = (q[ok] - zeta1 * p[ok]) / np.sqrt(denom2[ok])
        f = tied_argmax(scores)
        if not np.isfinite(scores[f]) or (t == 1 and q[f] <= 0.0):
            # (at w = 0 a point with <l_n, l> <= 0 would need a negative scale)
            converged, message = True, "no admissible direction left"
            t -= 1
            break
        ell_f = Phi[:, f] * inv_sigma[f]
        if t == 1:
            a, b = 0.0, 1.0
        else:
            gA = q[f] - zeta1 * p[f]
            gB = zeta1 - q[f] * p[f]
            if gA <= 0.0 or gB < 0.0:
                converged, message = True, "no step increases <l, l_w> (numerical limit)"
                t -= 1
                break
            b = gA / (gA + gB)
            a = 1.0 - b
        x = a * ell_w + b * ell_f
        nx = float(np.linalg.norm(x))
        ell_w = x / nx
        wn *= a / nx
        wn[f] += b / nx
        zeta1 = float(ell @ ell_w)
        p = (Phi.T @ ell_w) * inv_sigma
        scale = ynorm * zeta1                         # optimal scaling ⟨y, ℓ_w⟩
        w = scale * wn * inv_sigma
        if rec.overshoots(w):              # this step would exceed max(k) points: done
            rec.update(w)
            t -= 1
            break
        r = y - scale * ell_w
        trace.record(r @ r)
        last_scale = scale
        rec.update(w)
        if rec.done:
            break
    else:
        if until == "support":
            message = f"reached max_iter = {max_iter} steps"
    return greedy_result(rec, trace, t, converged, message, {"scale": last_scale})
