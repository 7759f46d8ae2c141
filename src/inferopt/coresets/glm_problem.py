"""Coresets for Bayesian logistic and Poisson regression (Zhang et al. 2021, Sec. 5.3 and
App. G; the experiment of Campbell & Broderick 2018/2019 and Campbell & Beronov 2019).

The true posterior is unknown, so a Laplace approximation ``π̂ = N(θ̂, H⁻¹)`` of the
full-data posterior stands in for it twice:

* **construction** -- ``S`` draws ``θ_s ~ π̂`` give ``Φ`` (``S × n``, column ``i`` the
  centred log-likelihoods of datum ``i`` scaled by ``1/√S``) and ``y = Φ1`` for IHT, GIGA,
  FW and Uniform (:class:`GLMCoresetProblem`);
* **evaluation** -- the coreset posterior ``π_w`` is Laplace-approximated too (MAP by a
  damped Newton method from the full MAP), and compared with ``π̂``: forward KL
  ``KL(π̂ ‖ π̂_w)``, reverse ``KL(π̂_w ‖ π̂)``, their sum, and ``‖θ̂_w − θ̂‖`` (App. G).

Same seed, same bits on every processor (issue 40): the whitened design, the Newton search for
``θ̂``, the Cholesky factor of ``H``, the draws, ``Φ`` and the KLs compute in fixed order
(:mod:`inferopt._fixed_order`), not through the BLAS kernel chosen per processor model, whose last
bits IHT amplifies into other coresets.

SparseVI's gradient needs ``Cov_{π_w}`` at every step: :meth:`GLMCoresetProblem.sparsevi_tangent`
draws fresh samples of the Laplace approximation of the *current* ``π_w`` (as the public
SparseVI code does), warm-starting each MAP search at the previous mode. Weighted
posteriors are fitted on the support of ``w`` only (O(kD²) per Newton step, not O(nD²)).
"""

from __future__ import annotations

import numpy as np

from ..models import LaplaceApprox, laplace_approximation
from .._validation import as_finite_array, check_int, check_protocol, check_size
from .._random import as_generator
from .. import _fixed_order as fixed
from .tangent import centre_in_place, tangent_from_loglik

__all__ = ["GLMCoresetProblem"]


class GLMCoresetProblem:
    """The coreset problem of a Bayesian GLM with the Laplace-approximated weighting
    distribution.

    Parameters
    ----------
    model : a :class:`~inferopt.models.LogisticRegression` or ``PoissonRegression``.
    n_projections : ``S``, the number of draws of ``π̂`` behind ``Φ`` (the paper: 500).
    rng : Generator or seed for those draws.

    Attributes: ``model``, ``posterior`` (the full-data :class:`LaplaceApprox`), ``Phi``
    (``S × n``), ``y`` (``Φ1``), ``n``.
    """

    def __init__(self, model, n_projections: int = 500, rng=None):
        self.model = check_protocol("model", model, "n", "loglik", "neg_log_joint_fns",
                                    what="a GLM of inferopt.models")
        self.n = model.n
        S = check_size("n_projections", n_projections, low=2, item_bytes=8 * (model.n + model.D),
                       item="projection (a row of Phi)")
        self.posterior = laplace_approximation(model)
        thetas = self.posterior.sample(S, as_generator(rng))
        self.Phi = np.asfortranarray(tangent_from_loglik(model.loglik(thetas)))   # columns contiguous: rows_of is a view
        self.y = self.Phi.sum(axis=1)

    # -- weighted posteriors ---------------------------------------------------------
    def weighted_laplace(self, w, x0=None, evals: list | None = None) -> LaplaceApprox:
        """Laplace approximation of ``π_w ∝ exp(Σ w_i log p(y_i|θ)) p(θ)``, fitted on the
        support of ``w`` (start ``x0``, default the full-data MAP). ``w = 0`` gives the prior.
        ``evals``: a list to which the fit appends its calls of the negative log joint, its gradient and
        its Hessian, ``[nfev, njev, nhev]``, counted as they ran (:class:`_Counted`; nothing for the prior)."""
        w = as_finite_array("w", w, ndim=1)
        if w.shape[0] != self.n:
            raise ValueError(f"w must have length n = {self.n}; got {w.shape[0]}")
        if np.any(w < 0):
            raise ValueError("w must be non-negative")
        supp = np.flatnonzero(w)
        D = self.model.D
        if supp.size == 0:
            return LaplaceApprox(mean=np.zeros(D), prec_chol=np.eye(D) / np.sqrt(self.model.prior_var))
        sub = self._submodel(supp) if evals is None else _Counted(self._submodel(supp))
        start = self.posterior.mean if x0 is None else x0
        lap = laplace_approximation(sub, w[supp], x0=start)
        if evals is not None:
            evals.append(list(sub.calls))
        return lap

    def _submodel(self, supp: np.ndarray):
        """The model on the data ``supp``, kept for the next call with the same support (SparseVI's
        updates between two selections refit on one support hundreds of times)."""
        key = supp.tobytes()
        if getattr(self, "_sub_key", None) != key:
            self._sub = type(self.model)(self.model.Z[supp], self.model.y[supp], prior_var=self.model.prior_var)
            self._sub_key = key
        return self._sub

    def evaluate(self, weights) -> dict[str, np.ndarray]:
        """Forward, reverse and symmetrised KL between the full-data and the coreset
        Laplace approximations (:meth:`~inferopt.models.LaplaceApprox.kl`), and the MAP distance, for each
        row of ``weights`` (``(m, n)`` or ``(n,)``), in fixed order (the same bits under every BLAS kernel,
        :mod:`inferopt._fixed_order`: a KL of 1e-9 is a difference of terms of order 1). Returns a dict of
        arrays of length ``m``."""
        W = np.atleast_2d(as_finite_array("weights", weights))
        if W.shape[1] != self.n:
            raise ValueError(f"weights must have n = {self.n} columns; got shape {W.shape}")
        full = self.posterior
        out = {key: np.empty(W.shape[0]) for key in ("forward_kl", "reverse_kl", "map_distance")}
        for j, w in enumerate(W):
            lap = self.weighted_laplace(w)
            out["forward_kl"][j] = full.kl(lap)
            out["reverse_kl"][j] = lap.kl(full)
            out["map_distance"][j] = fixed.norm(lap.mean - full.mean)
        out["symmetric_kl"] = out["forward_kl"] + out["reverse_kl"]
        return out

    # -- SparseVI ----------------------------------------------------------------------
    def sparsevi_tangent(self, n_samples: int, rng=None, fits: list | None = None):
        """A ``tangent`` callable for :func:`~inferopt.coresets.sparsevi`: ``w -> Φ_w``
        (``n_samples × n``) from fresh draws of the Laplace approximation of ``π_w`` --
        the Monte-Carlo estimate of ``Cov_{π_w}`` in SparseVI's gradient. Each MAP search
        starts at the previous call's mode. ``fits``: a list to which each call appends the work of its
        Laplace fit, ``(t, nfev, njev, nhev, steps)``: the support size ``t`` it was fitted on and the
        evaluations of the log joint, its gradient and its Hessian and the Newton steps it made (all zero
        for ``w = 0``, the prior: no fit), as :func:`~inferopt.experiment.coresets.work.laplace_work` counts them."""
        n_samples = check_int("n_samples", n_samples, low=2)
        if fits is not None and not isinstance(fits, list):
            raise TypeError(f"fits must be a list or None; got {type(fits).__name__}")
        rng = as_generator(rng)
        state = {"mode": None}

        def tangent(w):
            evals = None if fits is None else []
            lap = self.weighted_laplace(w, x0=state["mode"], evals=evals)
            state["mode"] = lap.mean
            if fits is not None:
                fits.append((0, 0, 0, 0, 0) if lap.result is None else
                            (int(np.count_nonzero(w)), *evals[0], lap.result.n_iter))
            return centre_in_place(self.model.loglik(lap.sample(n_samples, rng)))   # a fresh (S, n) array: ours to centre

        return tangent


class _Counted:
    """A GLM of :mod:`inferopt.models` whose negative log joint, gradient and Hessian
    (:meth:`neg_log_joint_fns`) count their calls in ``calls`` ``[f, gradient, Hessian]``: the work of a
    Laplace fit as it ran (SparseVI's, :meth:`GLMCoresetProblem.sparsevi_tangent`); every other attribute is
    the model's."""

    def __init__(self, model):
        self._model = model
        self.calls = [0, 0, 0]

    def __getattr__(self, name):
        return getattr(self._model, name)

    def neg_log_joint_fns(self, w=None):
        def counted(i, fn):
            def call(x):
                self.calls[i] += 1
                return fn(x)
            return call

        return tuple(counted(i, fn) for i, fn in enumerate(self._model.neg_log_joint_fns(w)))
