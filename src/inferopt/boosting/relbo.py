"""The greedy step (linear minimisation oracle) of boosting VI: maximise the RELBO.

Dresdner et al. (2021), Eq. (4) / Algorithm 1 line 3, after Locatello et al. (2018a):
the next component ``s = family(μ, e^ρ)`` maximises the residual ELBO

    RELBO(s) = E_s[log p(x)] − λ E_s[log s(x)] − E_s[log q_t(x)],   λ = 1/√(t+1),

where ``−E_s[log s] = H(s)`` is taken in closed form (:meth:`Family.entropy`). With the
reparameterisation ``x = μ + e^ρ ⊙ ε`` (Sec. 4.1 "Implementation") and
``h(x) = ∇ log p(x) − ∇ log q_t(x)``:

    ∂RELBO/∂μ = E_ε[h(x)],      ∂RELBO/∂ρ = E_ε[h(x) ⊙ e^ρ ⊙ ε] + λ.

The first component (``q_t`` absent) is plain VI: the ELBO ``E_s[log p] + H(s)`` (λ = 1).
Stochastic gradients use ``n_samples`` fresh draws per Adam step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._result import SolveResult
from .._validation import as_rows, check_int, check_real
from .adam import Adam
from .families import Component, check_params, check_target, get_family
from .mixture import Mixture
from .._random import as_generator


def relbo_lambda(t: int) -> float:
    """The entropy weight ``λ = 1/√(t+1)`` of Locatello et al. (2018a) at boosting iteration ``t``."""
    t = check_int("t", t, low=0)
    return 1.0 / np.sqrt(t + 1.0)


def _check_q(q, D: int):
    if q is None:
        return None
    if not isinstance(q, Mixture):
        raise ValueError(f"q must be a Mixture or None; got {type(q).__name__}")
    if q.dim != D:
        raise ValueError(f"q must have dimension D = {D} (the target's); got {q.dim}")
    return q


def relbo_and_grad(target, family, loc, log_scale, eps, q: Mixture | None = None, lam: float = 1.0):
    """RELBO estimate and its gradient at ``(loc, log_scale)`` for *given* standard draws
    ``eps`` of shape ``(S, D)`` (common random numbers: a deterministic function of the
    parameters, so finite differences apply).

    Returns ``(value, grad_loc, grad_log_scale)``. ``q = None`` gives the ELBO of the single
    component when ``lam = 1``.
    """
    check_target(target)
    family = get_family(family)
    loc, log_scale = check_params(loc, log_scale)
    D = loc.shape[0]
    if D != target.dim:
        raise ValueError(f"loc must have the target's dimension D = {target.dim}; got {D}")
    eps = as_rows("eps", eps, D, nonempty=True)
    q = _check_q(q, D)
    lam = check_real("lam", lam, low=0.0)
    return _relbo_and_grad(target, family, loc, log_scale, eps, q, lam)


def _relbo_and_grad(target, family, loc, log_scale, eps, q, lam):
    """:func:`relbo_and_grad` on checked arguments (the greedy step's inner loop)."""
    scale = np.exp(log_scale)
    x = loc + scale * eps
    if hasattr(target, "log_density_and_grad"):
        f, h = target.log_density_and_grad(x)
    else:
        f, h = target.log_density(x), target.grad_log_density(x)
    if q is not None:
        log_q, grad_log_q = q.log_density_and_grad_x(x)
        f = f - log_q
        h = h - grad_log_q
    value = float(f.mean() + lam * family.entropy(log_scale))
    g_loc = h.mean(axis=0)
    g_rho = (h * eps).mean(axis=0) * scale + lam
    return value, g_loc, g_rho


def relbo(target, s: Component, q: Mixture | None = None, lam: float = 1.0, *, n_samples: int = 100, rng=None) -> float:
    """Monte-Carlo RELBO of the component ``s`` (``n_samples`` fresh draws)."""
    check_target(target)
    if not isinstance(s, Component):
        raise TypeError(f"s must be a Component; got {type(s).__name__}")
    n_samples = check_int("n_samples", n_samples, low=1)
    eps = s.family.standard_sample((n_samples, s.dim), as_generator(rng))
    return relbo_and_grad(target, s.family, s.loc, s.log_scale, eps, q, lam)[0]


@dataclass(repr=False)
class GreedyResult(SolveResult):
    """The greedy step's Adam run (a :class:`~inferopt._result.SolveResult` on ``[loc, log_scale]``
    with the RELBO as ``objective``) and the ``component`` it returns."""

    component: Component | None = None


def greedy_step(
    target,
    family,
    q: Mixture | None = None,
    *,
    rng: np.random.Generator,
    t: int | None = None,
    lam: float | None = None,
    init: Component | None = None,
    max_iter: int = 1000,
    n_samples: int = 100,
    lr: float = 0.01,
    init_log_scale: float = 0.0,
    average: float = 0.0,
    log_scale_bounds: tuple[float, float] | None = None,
) -> GreedyResult:
    """Next component by maximising the RELBO with Adam (Algorithm 1 line 3, Eq. (4)).

    Parameters
    ----------
    target : a target (``dim``, ``log_density``, ``grad_log_density``), see :mod:`.targets`.
    family : base family (``'laplace'``, ``'gaussian'`` or a :class:`Family`).
    q : the current mixture ``q_t``; ``None`` for the first component (plain VI, λ = 1).
    t : boosting iteration for ``λ = 1/√(t+1)``; default ``q.n_components``. ``lam`` overrides.
    init : starting component; default location ``0`` for the first component, else one draw
        from ``q`` (a random point of the current approximation), log-scale ``init_log_scale``.
    max_iter, n_samples, lr : Adam steps, reparameterised draws per step, learning rate.
    average : if positive, return the mean of the last ``ceil(average · max_iter)`` iterates
        (Polyak-Ruppert averaging, which removes most of the stochastic-gradient jitter of a
        constant learning rate; 0 returns the last iterate).
    log_scale_bounds : optional ``(low, high)``; the log-scale is projected onto this box after
        every Adam step. The RELBO can be unbounded above when ``q_t`` has lighter tails than
        ``p``: e.g. a Gaussian ``q_t`` narrower than a Gaussian prior makes
        ``log p − log q_t → +∞`` in the tails, and the scale of ``s`` then diverges. The
        Laplace family (the paper's choice) has linear log-tails and does not suffer from this
        on the logistic posterior; an upper bound is the "clipped tails" remedy for Gaussians.

    Returns a :class:`GreedyResult`: ``component`` the new component, ``objective`` the
    per-step RELBO estimates (``objective[-1]`` with fresh draws at ``component``), ``x`` its
    parameters ``[loc, log_scale]``, ``info['lam']`` the entropy weight.
    """
    check_target(target)
    family = get_family(family)
    rng = as_generator(rng)
    D = target.dim
    q = _check_q(q, D)
    max_iter = check_int("max_iter", max_iter, low=0)
    n_samples = check_int("n_samples", n_samples, low=1)
    if lam is None:
        lam = 1.0 if q is None else relbo_lambda(q.n_components if t is None else t)
    lam = check_real("lam", lam, low=0.0)
    if init is None:
        loc0 = np.zeros(D) if q is None else q.sample(1, rng)[0]
        init = Component(family, loc0, np.full(D, check_real("init_log_scale", init_log_scale)))
    elif init.dim != D or init.family.name != family.name:
        raise ValueError(f"init must be a {family.name} component of dimension {D}")
    if log_scale_bounds is not None:
        lo, hi = (check_real("log_scale_bounds[0]", log_scale_bounds[0]), check_real("log_scale_bounds[1]", log_scale_bounds[1]))
        if not lo < hi:
            raise ValueError(f"log_scale_bounds must satisfy low < high; got ({lo}, {hi})")
    params = np.concatenate([init.loc, init.log_scale])
    if log_scale_bounds is not None:
        params[D:] = np.clip(params[D:], lo, hi)
    average = check_real("average", average, low=0.0, high=1.0)
    n_avg = int(np.ceil(average * max_iter))
    avg = np.zeros_like(params)
    opt = Adam(lr=lr)
    trace = np.empty(max_iter + 1)
    for i in range(max_iter):
        eps = family.standard_sample((n_samples, D), rng)
        val, g_loc, g_rho = _relbo_and_grad(target, family, params[:D], params[D:], eps, q, lam)
        trace[i] = val
        params = opt.step(params, -np.concatenate([g_loc, g_rho]))     # Adam minimises −RELBO
        if log_scale_bounds is not None:
            params[D:] = np.clip(params[D:], lo, hi)
        if i >= max_iter - n_avg:
            avg += params / n_avg
    if n_avg > 0:
        params = avg
    s = Component(family, params[:D], params[D:])
    trace[max_iter] = relbo(target, s, q, lam, n_samples=n_samples, rng=rng)
    return GreedyResult(x=params, objective=trace, n_iter=max_iter, converged=False, message="iteration budget reached",
                        info={"lam": lam, "first": q is None}, component=s)
