"""Laplace approximation of a (weighted) GLM posterior.

``π_w(θ) ∝ exp(Σ_n w_n log p(y_n|θ)) p(θ)`` is approximated by ``N(θ̂, H⁻¹)`` with
``θ̂`` the MAP and ``H = −∇² log π_w(θ̂)`` the precision (Zhang et al. 2021, Sec. 5.3 and
App. G: "the reverse KL and forward KL ... are estimated using another Laplace
approximation. The mode ... is derived by maximizing the corresponding posterior
density"). The MAP is found by ``scipy.optimize.minimize`` (``trust-exact`` or
``Newton-CG``) with the analytic gradient and Hessian of the model; the covariance is
handled through the Cholesky factor ``L`` of the precision (``H = L Lᵀ``), never an
explicit inverse for sampling.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import cho_solve, solve_triangular
from scipy.optimize import minimize

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
        return self.mean[None, :] + solve_triangular(self.prec_chol, eps, lower=True, trans="T").T

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


def laplace_approximation(
    model,
    w=None,
    *,
    x0=None,
    method: str = "trust-exact",
    gtol: float = 1e-8,
    max_iter: int = 200,
) -> LaplaceApprox:
    """Laplace approximation of the weighted posterior of ``model`` (a
    :class:`~inferopt.models.glm.LogisticRegression` or ``PoissonRegression``).

    Parameters
    ----------
    w : per-datum weights (``None`` = all ones); zeros drop data (coreset posteriors).
    x0 : starting point (default zeros).
    method : ``'trust-exact'`` or ``'Newton-CG'``.
    gtol : gradient-norm tolerance passed to ``trust-exact``; ``result.converged`` is true
        if the optimiser reports success or ``‖∇‖ <= gtol·max(1, |f|)`` at its exit.

    Raises ``ValueError`` if the negative Hessian at the optimum is not positive definite.
    """
    method = check_choice("method", method, {"trust-exact", "Newton-CG"})
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
    opts = {"gtol": gtol, "maxiter": max_iter} if method == "trust-exact" else {"xtol": 1e-12, "maxiter": max_iter}
    res = minimize(f, x0, jac=g, hess=h, method=method, options=opts)
    mode = np.asarray(res.x, dtype=float)
    H = h(mode)
    try:
        L = np.linalg.cholesky(H)
    except np.linalg.LinAlgError as exc:
        raise ValueError(
            "the negative Hessian of the log posterior at the mode is not positive definite; "
            "the Laplace approximation does not exist (try a stronger prior, i.e. smaller prior_var)"
        ) from exc
    gnorm = float(np.linalg.norm(g(mode)))
    elapsed = clock() - t0
    result = SolveResult(
        x=mode,
        objective=np.array([f0, float(res.fun)]),
        n_iter=int(res.get("nit", 0)),
        # precision-loss exits at the optimum are benign: judge by the relative gradient norm
        converged=bool(res.success) or gnorm <= gtol * max(1.0, abs(float(res.fun))),
        message=str(res.message),
        times=np.array([0.0, elapsed]),
        info={"grad_norm": gnorm, "method": method},
    )
    return LaplaceApprox(mean=mode, prec_chol=L, result=result)
