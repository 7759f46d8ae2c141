"""The greedy step (linear minimisation oracle) of boosting VI: maximise the RELBO.

Dresdner et al. (2021), Eq. (4) / Algorithm 1 line 3, after Locatello et al. (2018a):
the next component ``s = family(μ, e^ρ)`` maximises the residual ELBO

    RELBO(s) = E_s[log p(x)] − λ E_s[log s(x)] − E_s[log q_t(x)],   λ = 1/√(t+1),

where ``−E_s[log s] = H(s)`` is taken in closed form (:meth:`Family.entropy`). With the
reparameterisation ``x = μ + e^ρ ⊙ ε`` (Sec. 4.1 "Implementation") and
``h(x) = ∇ log p(x) − ∇ log q_t(x)``:

    ∂RELBO/∂μ = E_ε[h(x)],      ∂RELBO/∂ρ = E_ε[h(x) ⊙ e^ρ ⊙ ε] + λ.

The first component (``q_t`` absent) is plain VI: the ELBO ``E_s[log p] + H(s)`` (λ = 1).
Stochastic gradients use ``n_samples`` fresh draws per Adam step. The authors' greedy step takes one
draw per step for 1000 steps, so each step is a few small array operations: its inner loop
(:func:`_relbo_fn`) checks its arguments once, not at every step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._result import SolveResult
from .._validation import as_rows, check_choice, check_int, check_real, check_size
from .adam import Adam
from .families import Component, check_params, check_target, get_family
from .mixture import Mixture
from .._random import as_generator


#: the greedy step's standard draws are taken in blocks of at most this many numbers (2**20, 8 MB), several Adam steps'
#: at once: the same numbers, in the same order, as one call a step (a generator's stream does not depend on how it is
#: split), without a call's overhead at every step
DRAW_BLOCK = 2**20

#: how the entropy weight λ of the RELBO changes with the iteration (:func:`greedy_step`'s ``anneal``)
ANNEALS = ("1oversqrt", "constant")


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


def _log_scale(free: np.ndarray, scale_param: str) -> np.ndarray:
    """``ρ = log b`` from the free scale parameter (``ρ`` itself, or ``u`` with ``b = softplus(u)``)."""
    if scale_param == "exp":
        return free
    return np.log(np.logaddexp(0.0, free))


def _free(log_scale: np.ndarray, scale_param: str) -> np.ndarray:
    """The inverse of :func:`_log_scale`: ``u = log(e^b − 1)`` for softplus."""
    if scale_param == "exp":
        return np.array(log_scale, dtype=float)
    b = np.exp(log_scale)
    return b + np.log(-np.expm1(-b))


def _log_sigmoid(u: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -u)


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
    return _relbo_fn(target, family, q, lam)(loc, log_scale, eps)


def _log_density_and_grad_fn(target):
    """The target's ``x -> (log p(x), ∇ log p(x))`` for checked draws ``x`` (S, D): its unchecked
    ``log_density_and_grad_fn()`` if it has one, else its (checking) methods."""
    if hasattr(target, "log_density_and_grad_fn"):
        return target.log_density_and_grad_fn()
    if hasattr(target, "log_density_and_grad"):
        return target.log_density_and_grad
    return lambda x: (target.log_density(x), target.grad_log_density(x))


def _mean(a: np.ndarray) -> np.ndarray:
    """``a.mean(axis=0)``, the Monte-Carlo average over the draws, as numpy computes it (the sum, then one
    division) without its wrapper's per-call overhead; of one draw, that draw (``x/1 = x`` exactly)."""
    return a[0] if a.shape[0] == 1 else np.add.reduce(a, axis=0) / a.shape[0]


def _relbo_fn(target, family, q, lam):
    """``(loc, log_scale, eps) -> (RELBO, ∂RELBO/∂μ, ∂RELBO/∂ρ)`` of the module's equations, on checked
    arguments (``eps`` of shape ``(S, D)``): the value and both gradients from one evaluation of
    ``log p − log q_t`` and its gradient ``h`` at the reparameterised draws ``x = μ + e^ρ ⊙ ε``. The
    target's and the mixture's unchecked functions are built once: the greedy step's inner loop."""
    log_p = _log_density_and_grad_fn(target)
    log_q = None if q is None else q.log_density_and_grad_x_fn()

    def value_and_grad(loc, log_scale, eps):
        scale = np.exp(log_scale)
        x = loc + scale * eps
        f, h = log_p(x)
        if log_q is not None:
            lq, grad_lq = log_q(x)
            f = f - lq
            h = h - grad_lq
        value = float(_mean(f) + lam * family.entropy(log_scale))
        return value, _mean(h), _mean(h * eps) * scale + lam

    return value_and_grad


def relbo(target, s: Component, q: Mixture | None = None, lam: float = 1.0, *, n_samples: int = 100, rng=None) -> float:
    """Monte-Carlo RELBO of the component ``s`` (``n_samples`` fresh draws)."""
    check_target(target)
    if not isinstance(s, Component):
        raise TypeError(f"s must be a Component; got {type(s).__name__}")
    n_samples = check_size("n_samples", n_samples, item_bytes=8 * (s.dim + 2), item="draw")
    eps = s.family.standard_sample((n_samples, s.dim), as_generator(rng))
    return relbo_and_grad(target, s.family, s.loc, s.log_scale, eps, q, lam)[0]


def relbo_common(target, components, q: Mixture | None = None, lam: float = 1.0, *, n_samples: int = 2000,
                 rng=None) -> tuple[np.ndarray, np.ndarray]:
    """RELBO of each of ``components`` on the *same* standard draws (common random numbers), with
    Monte-Carlo standard errors of each value: ``(values, stderrs)``, shape ``(len(components),)``.

    The greedy step maximises the RELBO (Eq. (4)); its component must score at least as well as
    any simple feasible candidate (plain VI's ``q_0``, the current mixture's best component)
    under this estimate, else the greedy solver failed at its task.
    """
    check_target(target)
    if isinstance(components, Component) or not isinstance(components, list | tuple):
        raise TypeError(f"components must be a list of Component; got {type(components).__name__}")
    comps = list(components)
    if not comps or not all(isinstance(c, Component) for c in comps):
        raise TypeError("components must be a non-empty sequence of Component")
    family = comps[0].family
    if any(c.family.name != family.name or c.dim != target.dim for c in comps):
        raise ValueError(f"components must all be {family.name} components of the target's dimension {target.dim}")
    q = _check_q(q, target.dim)
    lam = check_real("lam", lam, low=0.0)
    n = check_size("n_samples", n_samples, low=2, item_bytes=8 * (target.dim + 2 * len(comps)), item="draw")
    eps = family.standard_sample((n, target.dim), as_generator(rng))
    values, errors = [], []
    for c in comps:
        x = c.loc + np.exp(c.log_scale) * eps
        f = target.log_density(x) - (q.log_density(x) if q is not None else 0.0)
        values.append(float(f.mean() + lam * family.entropy(c.log_scale)))
        errors.append(float(f.std(ddof=1) / np.sqrt(n)))
    return np.array(values), np.array(errors)


#: the greedy step as the authors ran it (``boosting_bbvi``: ``relbo.KLqp(...).run(n_iter=LMO_iter)``
#: with ``LMO_iter = 1000``; Edward's defaults: one draw per step, Adam at 0.1 decayed ×0.9 every
#: 100 steps; ``construct_base``: location and softplus-scale parameter ``~ N(0, I)``; the next
#: component stored with ``s.stddev()`` as its scale)
GREEDY_AUTHORS = {"max_iter": 1000, "n_samples": 1, "lr": 0.1, "lr_decay": (100, 0.9), "start": "random",
                  "scale_param": "softplus", "stored_scale": "stddev", "average": 0.0}


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
    lr_decay: tuple[int, float] | None = None,
    start: str = "draw",
    scale_param: str = "exp",
    stored_scale: str = "scale",
    anneal: str = "1oversqrt",
) -> GreedyResult:
    """Next component by maximising the RELBO with Adam (Algorithm 1 line 3, Eq. (4)).

    Parameters
    ----------
    target : a target (``dim``, ``log_density``, ``grad_log_density``), see :mod:`.targets`.
    family : base family (``'laplace'``, ``'gaussian'`` or a :class:`Family`).
    q : the current mixture ``q_t``; ``None`` for the first component (plain VI, λ = 1).
    t : boosting iteration for ``λ = 1/√(t+1)``; default ``q.n_components``. Giving ``lam`` too, or
        ``t`` where no λ depends on it (``q=None``, ``anneal='constant'``), is refused (issue 47).
    anneal : the entropy weight over the iterations: ``'1oversqrt'`` (``λ = 1/√(t+1)``, the authors'
        ``relbo_anneal`` default) or ``'constant'`` (``λ = 1``: Eq. (4) as the paper derives it, "setting
        the multiplier to one").
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

    lr_decay : optional ``(every, factor)``: the learning rate is ``lr · factor^⌊i/every⌋`` at
        step ``i`` (a staircase; Edward's default optimiser, which the authors' ``KLqp.run``
        uses, is Adam with ``lr = 0.1`` and ``(100, 0.9)``).
    start : ``'draw'`` (ours: location ``0`` for the first component, else one draw from ``q``;
        log-scale ``init_log_scale``) or ``'random'`` (the authors' ``construct_base``:
        location ``~ N(0, I)``, free scale parameter ``~ N(0, I)``). ``init`` replaces both (then
        ``start`` and ``init_log_scale`` other than their defaults are refused, as is
        ``init_log_scale`` with ``'random'``).
    scale_param : the free parameter of the scale: ``'exp'`` (``b = e^ρ``, ours) or
        ``'softplus'`` (``b = log(1 + e^u)``, the authors'); Adam runs on that parameter.
    stored_scale : the scale the returned component carries: ``'scale'`` (the optimised ``b``)
        or ``'stddev'`` (the family's standard deviation ``b·√var_f``, as the authors' script
        stores ``s.stddev()`` as the next component's scale: ``√2 b`` for Laplace).

    Returns a :class:`GreedyResult`: ``component`` the new component, ``objective`` the
    per-step RELBO estimates (``objective[-1]`` with fresh draws at ``component``), ``x`` its
    parameters ``[loc, log_scale]``, ``info['lam']`` the entropy weight.
    """
    check_target(target)
    family = get_family(family)
    rng = as_generator(rng)
    D = target.dim
    q = _check_q(q, D)
    max_iter = check_size("max_iter", max_iter, low=0, item_bytes=8, item="step (its RELBO trace)")
    n_samples = check_size("n_samples", n_samples, item_bytes=8 * (D + 2), item="draw")
    anneal = check_choice("anneal", anneal, ANNEALS)
    if t is not None:
        t = check_int("t", t, low=0)
        if lam is not None:
            raise ValueError(f"give t (for lam = 1/sqrt(t+1)) or lam, not both: lam would override t; "
                             f"got t={t}, lam={lam!r}")
        if q is None or anneal == "constant":
            why = "the first component (q=None) is plain VI" if q is None else "anneal='constant'"
            raise ValueError(f"t is not used: {why}, with lam = 1; got t={t}")
    if lam is None:
        lam = 1.0 if q is None or anneal == "constant" else relbo_lambda(q.n_components if t is None else t)
    lam = check_real("lam", lam, low=0.0)
    start = check_choice("start", start, ("draw", "random"))
    scale_param = check_choice("scale_param", scale_param, ("exp", "softplus"))
    stored_scale = check_choice("stored_scale", stored_scale, ("scale", "stddev"))
    if lr_decay is not None:
        if not isinstance(lr_decay, tuple | list) or len(lr_decay) != 2:
            raise ValueError(f"lr_decay must be a pair (every, factor); got {lr_decay!r}")
        every = check_int("lr_decay[0]", lr_decay[0], low=1)
        factor = check_real("lr_decay[1]", lr_decay[1], low=0.0, high=1.0, low_open=True)
    init_log_scale = check_real("init_log_scale", init_log_scale)
    if init is not None:
        if not isinstance(init, Component):
            raise TypeError(f"init must be a Component (or None); got {type(init).__name__} {init!r}")
        ignored = [f"{k}={v!r}" for k, v, default in (("start", start, "draw"), ("init_log_scale", init_log_scale, 0.0))
                   if v != default]
        if ignored:
            raise ValueError(f"{ignored[0].split('=')[0]} is not used when init is given (init is the starting "
                             f"component); got {ignored[0]}")
    elif start == "random" and init_log_scale != 0.0:
        raise ValueError(f"init_log_scale is not used with start='random' (the scale is drawn); got {init_log_scale}")
    if init is None:
        if start == "random":
            loc0, free0 = rng.standard_normal(D), rng.standard_normal(D)
            log_scale0 = _log_scale(free0, scale_param)
        else:
            loc0 = np.zeros(D) if q is None else q.sample(1, rng)[0]
            log_scale0 = np.full(D, init_log_scale)
        init = Component(family, loc0, log_scale0)
    elif init.dim != D or init.family.name != family.name:
        raise ValueError(f"init must be a {family.name} component of dimension {D}")
    if log_scale_bounds is not None:
        lo, hi = (check_real("log_scale_bounds[0]", log_scale_bounds[0]), check_real("log_scale_bounds[1]", log_scale_bounds[1]))
        if not lo < hi:
            raise ValueError(f"log_scale_bounds must satisfy low < high; got ({lo}, {hi})")
    log_scale = init.log_scale if log_scale_bounds is None else np.clip(init.log_scale, lo, hi)
    params = np.concatenate([init.loc, _free(log_scale, scale_param)])
    average = check_real("average", average, low=0.0, high=1.0)
    n_avg = int(np.ceil(average * max_iter))
    avg = np.zeros_like(params)
    opt = Adam(lr=lr)
    trace = np.empty(max_iter + 1)
    relbo_fn = _relbo_fn(target, family, q, lam)
    grad = np.empty_like(params)        # −∇RELBO in the Adam parameters [μ, ρ or u]: Adam minimises −RELBO
    block = max(1, DRAW_BLOCK // (n_samples * D))     # Adam steps whose draws are taken in one call
    for i in range(max_iter):
        if lr_decay is not None:
            opt.lr = lr * factor ** (i // every)
        if i % block == 0:
            draws = family.standard_sample((min(block, max_iter - i), n_samples, D), rng)
        eps = draws[i % block]
        ls = _log_scale(params[D:], scale_param)
        trace[i], g_loc, g_rho = relbo_fn(params[:D], ls, eps)
        if scale_param == "softplus":        # dρ/du = σ(u)/softplus(u) = σ(u) e^{-ρ}
            g_rho = g_rho * np.exp(_log_sigmoid(params[D:]) - ls)
        np.negative(g_loc, out=grad[:D])
        np.negative(g_rho, out=grad[D:])
        params = opt.update(params, grad)
        if log_scale_bounds is not None:
            params[D:] = _free(np.clip(_log_scale(params[D:], scale_param), lo, hi), scale_param)
        if i >= max_iter - n_avg:
            avg += params / n_avg
    if not np.all(np.isfinite(params)):      # a non-finite gradient at any step leaves NaN in every later iterate
        raise ValueError(f"the greedy step diverged: a non-finite RELBO gradient within its {max_iter} Adam steps made "
                         "its parameters NaN (log_scale_bounds keeps the scale finite)")
    if n_avg > 0:
        params = avg
    log_scale = _log_scale(params[D:], scale_param)
    s = Component(family, params[:D], log_scale)
    trace[max_iter] = relbo(target, s, q, lam, n_samples=n_samples, rng=rng)
    if stored_scale == "stddev":
        s = Component(family, s.loc, s.log_scale + 0.5 * np.log(family.variance_per_dim()))
    return GreedyResult(x=np.concatenate([s.loc, s.log_scale]), objective=trace, n_iter=max_iter, converged=False, message="iteration budget reached",
                        info={"lam": lam, "first": q is None}, component=s)


def converged_vi(target, family="laplace", *, rng: np.random.Generator, n_samples: int = 500, tol: float = 1e-8,
                 max_iter: int = 5000) -> GreedyResult:
    """Plain VI run to convergence: the single component of ``family`` maximising the ELBO
    ``E_s[log p] + H(s)`` (Eq. (4) with no mixture and λ = 1) on ``n_samples`` standard draws fixed for
    the whole run and their mirror images ``−ε`` (a sample-average approximation: a deterministic,
    smooth objective), by L-BFGS (``scipy.optimize.minimize``, exact gradients of
    :func:`relbo_and_grad`) from ``μ = 0``, ``log b = 0`` until the projected gradient is below ``tol``.

    The component carries its optimised scale ``b`` (the authors' ``--iter0 vi`` instead runs the greedy
    step's 1000 one-draw Adam steps and stores the standard deviation; :data:`GREEDY_AUTHORS`). ``objective``
    holds the start's and the optimum's ELBO on the fixed draws; ``converged`` says whether L-BFGS met ``tol``.
    """
    from scipy.optimize import minimize

    check_target(target)
    family = get_family(family)
    rng = as_generator(rng)
    D = target.dim
    n = check_size("n_samples", n_samples, low=1, item_bytes=8 * 2 * (D + 1), item="draw (and its mirror)")
    tol = check_real("tol", tol, low=0.0, low_open=True)
    max_iter = check_int("max_iter", max_iter, low=1)
    half = family.standard_sample((n, D), rng)
    eps = np.concatenate([half, -half])
    fn = _relbo_fn(target, family, None, 1.0)

    def negative(params):
        value, g_loc, g_rho = fn(params[:D], params[D:], eps)
        return -value, -np.concatenate([g_loc, g_rho])

    x0 = np.zeros(2 * D)
    res = minimize(negative, x0, jac=True, method="L-BFGS-B", options={"maxiter": max_iter, "gtol": tol, "ftol": 0.0})
    if not np.all(np.isfinite(res.x)):
        raise ValueError("converged_vi diverged: a non-finite ELBO gradient made its parameters non-finite")
    s = Component(family, res.x[:D], res.x[D:])
    return GreedyResult(x=res.x.copy(), objective=np.array([-negative(x0)[0], -res.fun]), n_iter=int(res.nit),
                        converged=bool(res.success), message=str(res.message), info={"n_evals": int(res.nfev)}, component=s)
