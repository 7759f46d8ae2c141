"""Laplace approximation of a (weighted) GLM posterior.

``π_w(θ) ∝ exp(Σ_n w_n log p(y_n|θ)) p(θ)`` is approximated by ``N(θ̂, H⁻¹)`` with
``θ̂`` the MAP and ``H = −∇² log π_w(θ̂)`` the precision (the Laplace approximation, Bishop
2006, Sec. 4.4; Zhang et al. 2021, Sec. 5.3 and App. G: "the reverse KL and forward KL ...
are estimated using another Laplace approximation. The mode ... is derived by maximizing the
corresponding posterior density"). The MAP is found by Newton's method on ``f = −log π_w``
with the model's analytic gradient and Hessian: steps ``t p`` with ``H p = −∇f`` and ``t``
from Armijo backtracking (Boyd & Vandenberghe 2004, Alg. 9.5 with the line search of
Alg. 9.2; stopped on the gradient norm rather than the Newton decrement). ``f`` is strictly
convex for both GLMs (log-concave likelihoods, Gaussian prior), so the iteration converges to
the unique MAP from any start, quadratically near it. ``scipy.optimize.minimize``'s
``trust-exact`` (the solver before issue 27) and ``Newton-CG`` stay selectable. The
covariance is handled through the Cholesky factor ``L`` of the precision (``H = L Lᵀ``),
never an explicit inverse for sampling.

The Newton search (with the model's :meth:`~inferopt.models.glm._GLM.neg_log_joint_fns`), the factor
``L`` and the draws of :meth:`LaplaceApprox.sample` compute in fixed order (:mod:`inferopt._fixed_order`),
not through the BLAS kernel, whose choice per processor changes their last bits (issue 40): the mode,
``L`` and the draws -- from which a coreset problem's ``Φ`` is built -- are the same bits on every
processor; so is :meth:`LaplaceApprox.kl`, the coreset experiments' measure. :attr:`LaplaceApprox.cov`,
:attr:`~LaplaceApprox.cov_chol` and :meth:`~LaplaceApprox.logpdf` go through LAPACK/BLAS and may differ in
their last bits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import cho_solve
from scipy.optimize import minimize

from .. import _fixed_order as fixed
from .._clock import clock
from .._result import SolveResult
from .._random import as_generator
from .._validation import as_finite_array, check_choice, check_int, check_protocol, check_real

LOG2PI = float(np.log(2.0 * np.pi))


@dataclass(repr=False)
class LaplaceApprox:
    """``N(mean, P⁻¹)`` with the precision ``P = prec_chol @ prec_chol.T`` (lower factor).

    Attributes: ``mean`` (D,), ``prec_chol`` (D, D) lower Cholesky factor of the precision,
    ``result`` the :class:`~inferopt._result.SolveResult` of the MAP search (``x`` = MAP,
    ``objective`` = negative log joint at the start and the end, ``info['grad_norm']``).
    """

    mean: np.ndarray
    prec_chol: np.ndarray
    result: SolveResult | None = None

    def __post_init__(self):
        """The invariants every method relies on (issue 29): a finite mean of length ``D`` and a
        ``D x D`` lower-triangular factor with a positive diagonal (so ``P`` is positive definite)."""
        self.mean = as_finite_array("mean", self.mean, ndim=1, nonempty=True)
        L = as_finite_array("prec_chol", self.prec_chol, ndim=2)
        D = self.mean.shape[0]
        if L.shape != (D, D):
            raise ValueError(f"prec_chol must be D x D with D = len(mean) = {D}; got shape {L.shape}")
        upper = np.abs(np.triu(L, 1)).max(initial=0.0)
        if upper > 0:
            raise ValueError(f"prec_chol must be lower triangular (the Cholesky factor of the precision); "
                             f"its largest entry above the diagonal is {upper:.3g}")
        diag = np.diag(L)
        if not np.all(diag > 0):
            raise ValueError(f"prec_chol must have a positive diagonal (a non-singular Cholesky factor); "
                             f"its smallest diagonal entry is {diag.min():.3g}")
        if self.result is not None and not isinstance(self.result, SolveResult):
            raise TypeError(f"result must be a SolveResult or None; got {type(self.result).__name__}")

    @property
    def dim(self) -> int:
        return self.mean.shape[0]

    @property
    def precision(self) -> np.ndarray:
        return self.prec_chol @ self.prec_chol.T

    @property
    def cov(self) -> np.ndarray:
        """``P⁻¹`` by two triangular solves."""
        return cho_solve((self.prec_chol, True), np.eye(self.dim))

    @property
    def cov_chol(self) -> np.ndarray:
        """Lower Cholesky factor of the covariance ``P⁻¹``."""
        C = self.cov
        return np.linalg.cholesky(0.5 * (C + C.T))

    def sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws ``θ = mean + L⁻ᵀ ε``, ``ε ~ N(0, I)`` (covariance ``(LLᵀ)⁻¹``); shape ``(size, D)``."""
        size = check_int("size", size, low=0)
        eps = as_generator(rng).standard_normal((self.dim, size))
        return self.mean[None, :] + fixed.solve_triangular(self.prec_chol, eps, trans=True).T

    def kl(self, other: LaplaceApprox) -> float:
        """``KL(self ‖ other)`` of the two Gaussians from their precision factors (``P_i = L_i L_iᵀ``, no
        covariance formed), in fixed order (module docstring):
        ``½[‖L₀⁻¹L₁‖_F² + ‖L₁ᵀ(μ₁ − μ₀)‖² − D + 2Σlog diag L₀ − 2Σlog diag L₁]`` -- the Gaussian KL
        ``½[tr(P₁Σ₀) + (μ₁ − μ₀)ᵀP₁(μ₁ − μ₀) − D + log det Σ₁ − log det Σ₀]`` with ``Σ₀ = P₀⁻¹``."""
        if not isinstance(other, LaplaceApprox):
            raise TypeError(f"other must be a LaplaceApprox; got {type(other).__name__}")
        if other.dim != self.dim:
            raise ValueError(f"other must have the dimension of this approximation, {self.dim}; got {other.dim}")
        M = fixed.solve_triangular(self.prec_chol, other.prec_chol)
        z = fixed.matvec(other.prec_chol.T, other.mean - self.mean)
        logdet = 2.0 * (np.log(np.diag(self.prec_chol)).sum() - np.log(np.diag(other.prec_chol)).sum())
        return float(0.5 * (np.sum(M * M) + fixed.dot(z, z) - self.dim + logdet))

    def logpdf(self, theta) -> np.ndarray:
        """``log N(θ; mean, P⁻¹)`` for ``θ`` of shape ``(S, D)`` (or ``(D,)``)."""
        th = as_finite_array("theta", theta)
        single = th.ndim == 1
        th = np.atleast_2d(th)
        if th.shape[-1] != self.dim:
            raise ValueError(f"theta must have last dimension D = {self.dim}; got {th.shape}")
        u = (th - self.mean) @ self.prec_chol        # rows: Lᵀ(θ − μ)
        out = -0.5 * (u**2).sum(axis=1) + np.log(np.diag(self.prec_chol)).sum() - 0.5 * self.dim * LOG2PI
        return float(out[0]) if single else out


#: Armijo's sufficient-decrease constant ``c`` in ``f(x + tp) <= f(x) + c t ∇fᵀp``.
ARMIJO = 1e-4
#: what the sufficient-decrease test of the full step (``t = 1``) forgives, relative to
#: ``max(1, |f|)``: the rounding of ``f`` (a sum over data), so that the last Newton steps, whose
#: decrease ``f`` cannot resolve, are taken whole rather than halved to nothing.
F_ROUNDING = 1e-12
#: the shortest step ``t`` the backtracking tries before it gives up.
MIN_STEP = 2.0**-40


def _precision_factor(H: np.ndarray, where: str) -> np.ndarray:
    """Lower Cholesky factor of ``H`` (in fixed order: module docstring); a ``ValueError`` naming ``where`` if
    ``H`` is not positive definite."""
    try:
        return fixed.cholesky(H)
    except np.linalg.LinAlgError as exc:
        raise ValueError(
            f"the negative Hessian of the log posterior at {where} is not positive definite; "
            "the Laplace approximation does not exist (try a stronger prior, i.e. smaller prior_var)"
        ) from exc


def _newton(f, grad, hess, x0: np.ndarray, f0: float, gtol: float, max_iter: int):
    """Damped Newton iteration for ``min f`` from ``x0`` (``f0 = f(x0)``): ``x ← x + t p`` with ``H p = −∇f``
    solved through the Cholesky factor of ``H`` and ``t`` the first of 1, 1/2, 1/4, ... that
    meets Armijo's condition (the full step up to :data:`F_ROUNDING`); stops once
    ``‖∇f(x)‖ <= gtol · max(1, |f(x)|)``.

    Returns ``(x, f(x), ‖∇f(x)‖, L, steps)`` with ``L`` the Cholesky factor of ``H(x)``; raises
    ``ValueError`` if ``H`` is not positive definite at an iterate, the backtracking finds no
    decrease, or ``max_iter`` steps do not reach the tolerance.
    """
    x, fx = x0.copy(), f0
    for step in range(max_iter + 1):
        g = grad(x)
        gnorm = fixed.norm(g)
        L = _precision_factor(hess(x), f"Newton iterate {step}" if step else "the start x0")
        tol = gtol * max(1.0, abs(fx))
        if gnorm <= tol:
            return x, fx, gnorm, L, step
        if step == max_iter:
            break
        p = -fixed.solve_triangular(L, fixed.solve_triangular(L, g), trans=True)   # H p = −g by the factor L
        slope, slack, t = fixed.dot(g, p), F_ROUNDING * max(1.0, abs(fx)), 1.0
        while not (f_new := f(x_new := x + t * p)) <= fx + ARMIJO * t * slope + slack:   # NaN: step back
            t, slack = 0.5 * t, 0.0
            if t < MIN_STEP:
                raise ValueError(
                    f"the Newton search for the mode of the log posterior found no decrease along its "
                    f"direction after step {step} (‖∇f‖ = {gnorm:.3g} > {tol:.3g}): the model's "
                    "log joint, gradient and Hessian disagree")
        x, fx = x_new, f_new
    raise ValueError(
        f"the Newton search for the mode of the log posterior did not converge in max_iter = {max_iter} "
        f"steps: ‖∇f‖ = {gnorm:.3g} > gtol · max(1, |f|) = {tol:.3g} (raise max_iter or gtol)")


def laplace_approximation(
    model,
    w=None,
    *,
    x0=None,
    method: str = "newton",
    gtol: float = 1e-10,
    max_iter: int = 200,
) -> LaplaceApprox:
    """Laplace approximation ``N(θ̂, H⁻¹)`` of the weighted posterior of ``model`` (a
    :class:`~inferopt.models.glm.LogisticRegression` or ``PoissonRegression``), ``θ̂`` its
    MAP and ``H`` the negative Hessian of the log posterior there.

    Parameters
    ----------
    w : per-datum weights (``None`` = all ones); zeros drop data (coreset posteriors).
    x0 : starting point (default zeros).
    method : ``'newton'`` (damped Newton, module docstring; one Cholesky factorisation and
        solve per step, no set-up: 2.3-7x faster than ``'trust-exact'`` on the coreset
        experiments' fits of 5-100 points, ``benchmarks/glm_trial.py --levers``, measured with LAPACK's
        factor; the fixed-order factor and solves cost about 10x LAPACK's at ``D = 16``),
        ``'trust-exact'`` or ``'Newton-CG'`` (``scipy.optimize.minimize``).
    gtol : ``'newton'`` stops once ``‖∇‖ <= gtol·max(1, |f|)`` (``f`` the negative log joint;
        the default leaves the modes of the coreset experiments' fits within 5e-10, relative,
        of a converged reference, where ``trust-exact`` at scipy's absolute ``gtol = 1e-8``
        left them within 4e-8: ``benchmarks/README.md``); for ``'trust-exact'`` it is scipy's
        (absolute) ``gtol``, and ``result.converged`` of the scipy methods is true if the
        optimiser reports success or the relative criterion holds at its exit.
    max_iter : Newton steps (or the scipy method's ``maxiter``).

    Raises ``ValueError`` if the negative Hessian at the optimum (for ``'newton'``: at any
    iterate) is not positive definite, and, for ``'newton'``, if the search does not reach
    its tolerance in ``max_iter`` steps or its backtracking finds no decrease.
    """
    method = check_choice("method", method, {"newton", "trust-exact", "Newton-CG"})
    gtol = check_real("gtol", gtol, low=0.0, low_open=True)
    max_iter = check_int("max_iter", max_iter, low=1)
    check_protocol("model", model, "_weights", "neg_log_joint_fns", "D", what="a GLM of inferopt.models")
    w = model._weights(w)
    x0 = np.zeros(model.D) if x0 is None else as_finite_array("x0", x0, ndim=1)
    if x0.shape[0] != model.D:
        raise ValueError(f"x0 must have length D = {model.D}; got {x0.shape[0]}")
    f, g, h = model.neg_log_joint_fns(w)
    t0 = clock()
    f0 = f(x0)
    if method == "newton":
        mode, fun, gnorm, L, n_iter = _newton(f, g, h, x0, f0, gtol, max_iter)
        converged, message = True, f"‖∇‖ <= gtol·max(1, |f|) after {n_iter} Newton steps"
    else:
        opts = {"gtol": gtol, "maxiter": max_iter} if method == "trust-exact" else {"xtol": 1e-12, "maxiter": max_iter}
        res = minimize(f, x0, jac=g, hess=h, method=method, options=opts)
        mode, fun, n_iter, message = np.asarray(res.x, dtype=float), float(res.fun), int(res.get("nit", 0)), str(res.message)
        L = _precision_factor(h(mode), "the mode")
        gnorm = fixed.norm(g(mode))
        # precision-loss exits at the optimum are benign: judge by the relative gradient norm
        converged = bool(res.success) or gnorm <= gtol * max(1.0, abs(fun))
    elapsed = clock() - t0
    result = SolveResult(
        x=mode,
        objective=np.array([f0, fun]),
        n_iter=n_iter,
        converged=converged,
        message=message,
        times=np.array([0.0, elapsed]),
        info={"grad_norm": gnorm, "method": method},
    )
    return LaplaceApprox(mean=mode, prec_chol=L, result=result)
