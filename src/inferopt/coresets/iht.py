"""Iterative hard thresholding for the coreset problem
``min ‖y − Φw‖²  s.t.  ‖w‖₀ ≤ k, w ≥ 0`` (Zhang, Khanna, Kyrillidis, Koyejo, AISTATS 2021).

* :func:`iht`          -- Algorithm 1 (vanilla IHT, fixed step);
* :func:`a_iht`        -- Algorithm 2 (automated accelerated IHT: support expansion, exact
  line search, projection of the *full* gradient step, exact momentum);
* :func:`a_iht_ii`     -- Algorithm 3 of the appendix (A-IHT II: Algorithm 2 plus a de-bias
  gradient step with its own exact line search on ``supp(x_t)``);
* :func:`a_iht_batch`  -- Algorithm 2 with the batch gradient estimator of appendix G
  (``B`` random columns of Φ, rescaled by ``n/B``).

Step sizes, with ``∇f(w) = −2Φᵀ(y − Φw)``:

* ``step="exact"`` (default) -- the paper's exact line search along the restricted
  gradient ``∇̃``: ``μ = ‖∇̃‖² / (2‖Φ∇̃‖²) = argmin_μ f(z − μ∇̃)``.
* ``step="authors"`` -- the authors' public code, which takes *half* that step: it uses
  ``der = Φᵀ(y − Φz) = −∇f/2`` with ``μ̄ = ‖der‖²/(2‖Φ der‖²)``, i.e. the step
  ``μ̄·der = ½ · argmin``.

Momentum: the exact minimiser ``τ = argmin_τ f(w_{t+1} + τ(w_{t+1} − w_t))
= ⟨y − Φw_{t+1}, Φd⟩ / ‖Φd‖²`` with ``d = w_{t+1} − w_t``. The printed formula in
Algorithms 2–3 has an extra factor ½ in the denominator, which is not the minimiser; the
authors' code uses the exact value, as here.

Stopping (Sec. 5): ``‖w_t − w_{t−1}‖ ≤ tol‖w_t‖`` or ``max_iter`` iterations.

Cost per iteration: one product ``Φᵀr`` (n·S) and two (A-IHT) or four (A-IHT II) products
with at most ``3k`` columns of Φ (gathered when few, else a zero-padded full product);
``Φz`` is carried along (``Φz = Φw_{t+1} + τΦd``), never recomputed from scratch. The
solvers work on ``Φᵀ`` stored row by row (:func:`rows_of`: a view of a Fortran-ordered Φ), so that the
few columns an iteration touches are contiguous rows. No other ``n × S`` temporaries.

Every product and norm of an iteration sums in numpy's own fixed order (:mod:`inferopt._fixed_order`:
``np.einsum`` without BLAS), not OpenBLAS's: A-IHT's iterates are sensitive to their last bits (a
difference of 1e-12 in ``f`` grew to 2e-4 within six iterations on A5's biketrips at ``k = 10``, its
weights then apart by up to 30 %), and those bits differ with the BLAS kernel (issue 40). The products cost
about 3x a BLAS ``gemv`` at ``S = n = 500`` and 1.6x at A6's ``n = 11,055``.
"""

from __future__ import annotations

import numpy as np

from .._fixed_order import dot as _dot, matvec as _matvec, norm as _norm
from .._selection import TIE_RTOL
from .._validation import as_finite_array, check_choice, check_flag, check_indices, check_real
from ._common import (
    DEFAULT_MAX_ITER,
    DEFAULT_TOL,
    CoresetResult,
    Trace,
    check_k,
    check_problem,
    check_stopping,
    scale_free,
)
from .projection import expanded_support, sorted_union, sparse_nonneg
from .._random import as_generator

STEP_RULES = ("exact", "authors")
#: line 7 of Algorithm 2: the projected step along the full gradient (the paper's) or along the
#: gradient restricted to the expanded support ``S`` (Khanna & Kyrillidis 2018; Sec. 3.3)
GRADIENTS = ("full", "restricted")


#: below this fraction of the columns, products with Φ gather the columns; above it, one
#: full product with a zero-padded vector is cheaper (no n × S temporaries either way)
_GATHER_FRACTION = 0.1


def rows_of(Phi: np.ndarray) -> np.ndarray:
    """``Φᵀ`` as a C-contiguous ``n × S`` array: column ``j`` of Φ is row ``j``.

    Gathering a few columns of a C-ordered Φ reads one scattered entry per row of Φ;
    gathering rows of ``Φᵀ`` copies contiguous memory (about 8× faster for 100 of the
    11,055 columns of A6's Φ), and ``Φᵀr`` as a row-major product is no slower. A view when
    Φ is Fortran-ordered, as :func:`.tangent.problem_from_tangent` and
    :class:`.GLMCoresetProblem` store it; otherwise one transposing copy per solve (about
    30 ms for a 500 × 11,055 Φ, as much as a short solve).
    """
    return np.ascontiguousarray(Phi.T)


def cols_matvec(PhiT: np.ndarray, idx: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``Φ[:, idx] @ v`` (``v`` of length ``len(idx)``), given ``PhiT = rows_of(Φ)``; fixed order (:mod:`inferopt._fixed_order`)."""
    n = PhiT.shape[0]
    if idx.size <= _GATHER_FRACTION * n:
        return np.einsum("i,ij->j", v, PhiT[idx])
    full = np.zeros(n)
    full[idx] = v
    return np.einsum("i,ij->j", full, PhiT)


def cols_rmatvec(PhiT: np.ndarray, idx: np.ndarray, r: np.ndarray) -> np.ndarray:
    """``Φ[:, idx]ᵀ @ r``, given ``PhiT = rows_of(Φ)``; fixed order (:mod:`inferopt._fixed_order`)."""
    if idx.size <= _GATHER_FRACTION * PhiT.shape[0]:
        return _matvec(PhiT[idx], r)
    return _matvec(PhiT, r)[idx]


def exact_step(Phi: np.ndarray, direction: np.ndarray, idx: np.ndarray) -> float:
    """``μ = ‖d‖² / (2‖Φd‖²)``, the exact minimiser of ``f(z − μ d)`` when ``d = ∇f(z)``
    restricted to ``idx`` (``d`` given as the full-length vector; only ``d[idx]`` is used)."""
    Phi = as_finite_array("Phi", Phi, ndim=2, nonempty=True)
    direction = as_finite_array("direction", direction, ndim=1)
    if direction.shape[0] != Phi.shape[1]:
        raise ValueError(f"direction must have length Phi.shape[1] = {Phi.shape[1]}; got {direction.shape[0]}")
    return _exact_step(rows_of(Phi), direction, check_indices("idx", idx, Phi.shape[1]))


def _exact_step(PhiT: np.ndarray, direction: np.ndarray, idx: np.ndarray) -> float:
    d = direction[idx]
    num = _dot(d, d)
    if num == 0.0:
        return 0.0
    Pd = cols_matvec(PhiT, idx, d)
    den = 2.0 * _dot(Pd, Pd)
    return num / den if den > 0 else 0.0


def exact_momentum(residual: np.ndarray, Phi_d: np.ndarray) -> float:
    """``τ = ⟨r, Φd⟩ / ‖Φd‖²`` with ``r = y − Φw_{t+1}``: the exact minimiser of
    ``f(w_{t+1} + τ d)``; 0 when ``Φd = 0``."""
    residual = as_finite_array("residual", residual, ndim=1, nonempty=True)
    Phi_d = as_finite_array("Phi_d", Phi_d, ndim=1)
    if Phi_d.shape != residual.shape:
        raise ValueError(f"Phi_d must have the length of residual ({residual.shape[0]}); got {Phi_d.shape[0]}")
    return _exact_momentum(residual, Phi_d)


def _exact_momentum(residual: np.ndarray, Phi_d: np.ndarray) -> float:
    den = _dot(Phi_d, Phi_d)
    return _dot(residual, Phi_d) / den if den > 0 else 0.0


def _momentum(residual: np.ndarray, Phi_x: np.ndarray, Phi_w: np.ndarray) -> float:
    """The exact momentum ``τ`` with ``Φd = Φx − Φw`` (:func:`exact_momentum`), 0 where it is 0 in
    exact arithmetic and only round-off is left (the tie rule of :mod:`inferopt._selection`):

    * ``‖Φd‖ ≤ TIE_RTOL (‖Φx‖ + ‖Φw‖)``: the iterate did not move, ``Φd`` is the round-off of the
      difference, and ``⟨r, Φd⟩ / ‖Φd‖²`` would be noise over noise (measured: ``τ = 1.8e10`` on one
      BLAS kernel, ``−6.4e9`` on another, and ``Φz = Φx + τΦd`` carried that into every later iterate);
    * ``|⟨r, Φd⟩| ≤ TIE_RTOL ‖r‖ ‖Φd‖``: ``r ⟂ Φd``, as after an exact line search along ``d``.
    """
    Phi_d = Phi_x - Phi_w
    size = _norm(Phi_d)
    if size <= TIE_RTOL * (_norm(Phi_x) + _norm(Phi_w)):
        return 0.0
    num = _dot(residual, Phi_d)
    if abs(num) <= TIE_RTOL * _norm(residual) * size:
        return 0.0
    return num / (size * size)


def _result(w, trace, n_iter, converged, k, info) -> CoresetResult:
    obj, times = trace.arrays()
    msg = (
        f"converged: ||w_t - w_(t-1)|| <= tol ||w_t|| after {n_iter} iterations"
        if converged
        else f"reached max_iter = {n_iter} iterations"
    )
    return CoresetResult(
        x=w, objective=obj, n_iter=n_iter, converged=converged, message=msg, times=times,
        info=info, ks=np.asarray([k]), path_weights=w[None, :].copy(),
    )


@scale_free(arguments={"step": 2}, info={"step": -2})
def iht(Phi, y, k, *, step="lipschitz", tol=DEFAULT_TOL, max_iter=DEFAULT_MAX_ITER) -> CoresetResult:
    """Vanilla IHT (Algorithm 1): ``w ← Π_{C_k ∩ R+}(w − μ∇f(w))`` from ``w = 0``.

    ``step`` is a positive float, or ``"lipschitz"`` (default) for ``μ = 1/L`` with
    ``L = 2‖Φ‖₂²`` the Lipschitz constant of ``∇f``, with which ``f`` never increases.
    """
    Phi, y = check_problem(Phi, y)
    n = Phi.shape[1]
    k = check_k(k, n)
    tol, max_iter = check_stopping(tol, max_iter)
    if isinstance(step, str):
        check_choice("step", step, {"lipschitz"})
        mu = 1.0 / (2.0 * spectral_norm(Phi) ** 2)
    else:
        mu = check_real("step", step, low=0.0, low_open=True)
    PhiT = rows_of(Phi)
    w = np.zeros(n)
    Phi_w = np.zeros_like(y)
    trace = Trace(_dot(y, y))
    converged, t = False, 0
    for t in range(1, max_iter + 1):
        grad = -2.0 * _matvec(PhiT, y - Phi_w)
        w_new, idx = sparse_nonneg(w - mu * grad, k)
        Phi_w = cols_matvec(PhiT, idx, w_new[idx])
        r = y - Phi_w
        trace.record(_dot(r, r))
        done = _norm(w_new - w) <= tol * _norm(w_new)
        w = w_new
        if done:
            converged = True
            break
    return _result(w, trace, t, converged, k, {"step": mu})


def spectral_norm(Phi: np.ndarray, iters: int = 100, rtol: float = 1e-6) -> float:
    """Largest singular value of Φ by power iteration on ``ΦᵀΦ`` (deterministic start)."""
    v = np.ones(Phi.shape[1]) / np.sqrt(Phi.shape[1])
    s_old = 0.0
    for _ in range(iters):
        u = _matvec(Phi, v)
        v = _matvec(Phi.T, u)
        s = _norm(v)
        if s == 0:
            return 0.0
        v /= s
        if abs(s - s_old) <= rtol * s:
            break
        s_old = s
    return float(np.sqrt(s))


def _accelerated(Phi, y, k, *, debias, step, tol, max_iter, batch_size=None, rng=None, keep_best=False,
                 gradient="full"):
    """Algorithms 2 (``debias=False``) and 3 (``debias=True``), optionally with the batch
    gradient of appendix G; ``gradient`` (:data:`GRADIENTS`) the direction of line 7. Returns a
    :class:`CoresetResult`."""
    Phi, y = check_problem(Phi, y)
    n = Phi.shape[1]
    k = check_k(k, n)
    tol, max_iter = check_stopping(tol, max_iter)
    check_choice("step", step, STEP_RULES)
    check_choice("gradient", gradient, GRADIENTS)
    keep_best = check_flag("keep_best", keep_best)
    half = 0.5 if step == "authors" else 1.0
    # with batch gradients an unchanged iterate may only mean that the batch held nothing
    # to update: require the stopping rule on ceil(n/B) consecutive iterations (choice)
    patience = 1
    if batch_size is not None:
        rng = as_generator(rng)
        patience = int(np.ceil(n / batch_size))
    calm = 0
    PhiT = rows_of(Phi)
    w = np.zeros(n)
    z = np.zeros(n)
    W = z_supp = np.zeros(0, dtype=np.intp)   # supports of w_t (a superset after de-bias) and z_t
    Phi_w = np.zeros_like(y)
    Phi_z = np.zeros_like(y)
    trace = Trace(_dot(y, y))
    mus, taus = [], []
    converged, t = False, 0
    best_f, best_w = np.inf, w
    for t in range(1, max_iter + 1):
        # gradient at the momentum point z_t (line 5: one product with Φᵀ)
        grad = -2.0 * _matvec(PhiT, y - Phi_z)
        if batch_size is not None:
            # appendix G: Γ₁ keeps B random coordinates, scaled by n/B (Γ₂ = I: Φz is exact)
            keep = rng.choice(n, size=batch_size, replace=False)
            g_b = np.zeros(n)
            g_b[keep] = grad[keep] * (n / batch_size)
            grad = g_b
        S = expanded_support(grad, z_supp, k)                           # line 4
        mu = half * _exact_step(PhiT, grad, S)                          # line 6
        if batch_size is not None:
            # exact line search along the direction actually taken: the n/B rescaling of
            # the unbiased estimate must not lengthen the step (it would diverge)
            mu *= batch_size / n
        if gradient == "restricted":                                    # Sec. 3.3: ∇f(z_t)|_S
            direction = np.zeros(n)
            direction[S] = grad[S]
        else:
            direction = grad
        x, X = sparse_nonneg(z - mu * direction, k)                     # line 7 (full gradient)
        Phi_x = cols_matvec(PhiT, X, x[X])
        if debias and X.size:                                           # Alg. 3, lines 8-10
            g2 = -2.0 * cols_rmatvec(PhiT, X, y - Phi_x)
            num = _dot(g2, g2)
            Pg2 = cols_matvec(PhiT, X, g2)
            den = 2.0 * _dot(Pg2, Pg2)
            mu2 = half * num / den if den > 0 else 0.0
            x[X] = np.maximum(x[X] - mu2 * g2, 0.0)
            Phi_x = Phi_x - mu2 * Pg2 if np.all(x[X] > 0) else cols_matvec(PhiT, X, x[X])
        w_new = x
        r = y - Phi_x
        d_Phi = Phi_x - Phi_w
        tau = _momentum(r, Phi_x, Phi_w)                                # line 8 / 11
        U = sorted_union(X, W, n)                                       # supp(x) ∪ supp(w) ⊇ supp(z)
        z = np.zeros(n)
        z[U] = w_new[U] + tau * (w_new[U] - w[U])                       # line 9 / 12
        z_supp = U[z[U] != 0]
        Phi_z = Phi_x + tau * d_Phi
        f_new = _dot(r, r)
        trace.record(f_new)
        if keep_best and f_new < best_f * (1.0 - TIE_RTOL):   # a tie up to round-off keeps the earlier iterate
            best_f, best_w = f_new, w_new
        mus.append(mu)
        taus.append(tau)
        small = _norm(w_new[U] - w[U]) <= tol * _norm(w_new[X])
        calm = calm + 1 if small else 0
        w, W, Phi_w = w_new, X, Phi_x
        if calm >= patience:
            converged = True
            break
    info = {"step": np.asarray(mus), "momentum": np.asarray(taus), "step_rule": step}
    if batch_size is not None:
        info["batch_size"] = batch_size
    if keep_best:
        info["last_objective"] = float(trace.objective[-1])
        w = best_w
    return _result(w, trace, t, converged, k, info)


@scale_free(info={"step": -2, "last_objective": 2})
def a_iht(
    Phi, y, k, *, step="exact", tol=DEFAULT_TOL, max_iter=DEFAULT_MAX_ITER, keep_best=False, gradient="full"
) -> CoresetResult:
    """Automated accelerated IHT (A-IHT, Algorithm 2 of Zhang et al. 2021).

    ``gradient="restricted"`` projects the step along ``∇f(z_t)|_S`` instead of the full
    gradient (the variant of Khanna & Kyrillidis 2018 that Sec. 3.3 says performs worse).

    The iteration is not monotone (momentum, hard thresholding): ``keep_best=True``
    returns the iterate with the lowest ``f`` instead of the last one (a *choice*, not in
    the paper; ``objective`` still traces every iterate, ``info['last_objective']``); of
    iterates whose ``f`` agree to a relative :data:`~inferopt._selection.TIE_RTOL`, the earliest.
    """
    return _accelerated(Phi, y, k, debias=False, step=step, tol=tol, max_iter=max_iter, keep_best=keep_best,
                        gradient=gradient)


@scale_free(info={"step": -2, "last_objective": 2})
def a_iht_ii(
    Phi, y, k, *, step="exact", tol=DEFAULT_TOL, max_iter=DEFAULT_MAX_ITER, keep_best=False
) -> CoresetResult:
    """A-IHT II: Algorithm 2 plus the de-bias step (appendix, Algorithm 3, lines 8–10).
    ``keep_best`` as in :func:`a_iht`."""
    return _accelerated(Phi, y, k, debias=True, step=step, tol=tol, max_iter=max_iter, keep_best=keep_best)


@scale_free(info={"step": -2, "last_objective": 2})
def a_iht_batch(
    Phi, y, k, *, batch_fraction=0.2, rng=None, step="exact", tol=DEFAULT_TOL, max_iter=DEFAULT_MAX_ITER,
    keep_best=False,
) -> CoresetResult:
    """A-IHT (Algorithm 2) with the batch gradient of appendix G.

    Each iteration keeps ``B = round(batch_fraction · n)`` (default ``n/5``) random
    coordinates of ``∇f(z_t)`` scaled by ``n/B`` (``Γ₁``) and zeroes the others; the
    residual ``y − Φz_t`` is exact (``Γ₂ = I``: ``Φz_t`` is carried along at O(kS) cost).
    The step is the exact line-search minimiser of ``f`` along the batch direction:
    ``μ = (B/n)·‖∇̃‖²/(2‖Φ∇̃‖²)``, i.e. the paper's formula corrected for the ``n/B``
    factor (applied verbatim to the rescaled estimate it overshoots ``n/B``-fold and the
    iteration diverges; the authors' code does not rescale). The stopping rule must hold on
    ``⌈n/B⌉`` consecutive iterations (one expected pass over the data; a *choice*: a
    batch without useful coordinates leaves ``w`` unchanged without convergence). Like the
    authors' code this *simulates* the estimator: ``Φᵀr`` is computed in full and masked.
    With stochastic gradients the last iterate can be much worse than earlier ones:
    ``keep_best=True`` (as in :func:`a_iht`) returns the best iterate.
    """
    Phi_arr, _ = check_problem(Phi, y)
    n = Phi_arr.shape[1]
    frac = check_real("batch_fraction", batch_fraction, low=0.0, high=1.0, low_open=True)
    B = max(1, int(round(frac * n)))
    return _accelerated(
        Phi, y, k, debias=False, step=step, tol=tol, max_iter=max_iter, batch_size=B, rng=rng,
        keep_best=keep_best,
    )
