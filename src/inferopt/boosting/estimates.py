"""Monte-Carlo estimates that the Frank-Wolfe step rules need (Dresdner et al. 2021, Sec. 4).

Inner products are expectations under a density one can sample (Sec. 4 "Notation"):
``⟨a, b⟩ ≈ (1/n) Σ_i b(ζ_i)``, ``ζ_i ~ a``, with ``n = 100`` by default ("we found
empirically that 100 Monte-Carlo samples was sufficient", Sec. 6).

* ``f(q) = D_KL(q ‖ p) = E_q[log q − log p̃] + log Z`` where ``p̃`` is the target's
  unnormalised density (:func:`kl`; ``log Z`` is the target's ``log_normalizer`` if known,
  else 0, so the value is ``−ELBO``);
* the functional gradient ``∇f(q) = log q − log p̃ + const``; the constant cancels in
  every ``⟨∇f(q), d⟩`` with ``d`` a difference of densities, so
  ``⟨∇f(q), s⟩ ≈ E_s[log q − log p̃]`` (:func:`grad_inner`, Eq. (6) and (15));
* ``⟨∇f(q), s − v⟩ = E_s[log q − log p̃] − E_v[log q − log p̃]`` (:func:`directional_derivative`;
  ``v = q`` for a Frank-Wolfe step, ``g_t = −⟨∇f(q), d_t⟩`` in Algorithm 2 line 3, the
  Frank-Wolfe gap when ``s`` is the LMO output);
* :func:`grad_inner_components` -- ``⟨∇f(q), s_k⟩`` for every component of ``q`` at once
  (the away/pairwise vertex ``v̄`` of Eq. (15) is the argmax).
* a trial step ``f(q + γ d)`` (Algorithm 2 line 5) is ``kl(target, q.move(kind, γ, s, v), ...)``
  with :meth:`~.mixture.Mixture.move`; it must be re-estimated for every trial ``γ`` while
  ``f(q)`` and ``⟨∇f(q), d⟩`` can be reused (Sec. 4).

"Densities" here are :class:`~.families.Component` or :class:`~.mixture.Mixture` objects
(``sample(n, rng)``, ``log_density(x)``). Each function takes a ``numpy.random.Generator``;
``stderr=True`` also returns the Monte-Carlo standard error.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, check_flag, check_real, check_size
from .families import Component, check_target
from .mixture import Mixture
from .._random import as_generator

N_SAMPLES = 100


def _density(name: str, d, D: int):
    if not isinstance(d, Component | Mixture):
        raise ValueError(f"{name} must be a Component or a Mixture; got {type(d).__name__}")
    if d.dim != D:
        raise ValueError(f"{name} must have dimension D = {D} (the target's); got {d.dim}")
    return d


def _mean(values: np.ndarray, stderr: bool):
    stderr = check_flag("stderr", stderr)
    m = float(values.mean())
    if not stderr:
        return m
    se = float(values.std(ddof=1) / np.sqrt(values.size)) if values.size > 1 else float("nan")
    return m, se


def _residual(target, q, x) -> np.ndarray:
    """``log q(x) − log p̃(x)`` per sample."""
    return q.log_density(x) - target.log_density(x)


def elbo(target, q, *, n_samples: int = N_SAMPLES, rng: np.random.Generator, stderr: bool = False):
    """``E_q[log p̃ − log q]`` (the ELBO; ``= log Z − KL(q‖p)``)."""
    check_target(target)
    q = _density("q", q, target.dim)
    n = check_size("n_samples", n_samples, item_bytes=8 * (target.dim + 2), item="draw")
    x = q.sample(n, as_generator(rng))
    return _mean(-_residual(target, q, x), stderr)


def elbo_gain(target, q, q0, *, n_samples: int = N_SAMPLES, rng: np.random.Generator) -> tuple[float, float]:
    """``ELBO(q) − ELBO(q0)`` and its standard error on common random numbers: ``ELBO(q) = Σ_k w_k E_{c_k}[log p̃ −
    log q]`` (stratified over the components ``c_k`` of ``q``) with every component's draws ``μ_k + b_k ⊙ ε_i`` and
    ``q0``'s ``μ_0 + b_0 ⊙ ε_i`` from the same standard draws ``ε_i`` (``n_samples`` of them), so the estimate is the
    mean of per-draw differences ``d_i = Σ_k w_k r_q(x_{k,i}) − r_{q0}(x_{0,i})`` (``r = log p̃ − log q``) and its standard
    error that of the difference: a component of ``q`` equal to ``q0`` cancels draw by draw."""
    check_target(target)
    q, q0 = _density("q", q, target.dim), _density("q0", q0, target.dim)
    if not isinstance(q0, Component):
        raise TypeError(f"q0 must be one component (plain VI); got {type(q0).__name__}")
    q = Mixture.from_component(q) if isinstance(q, Component) else q
    if q.family.name != q0.family.name:
        raise ValueError(f"q and q0 must share a family; got {q.family.name} and {q0.family.name}")
    n = check_size("n_samples", n_samples, low=2, item_bytes=8 * (target.dim + 2) * (q.n_components + 1), item="draw")
    eps = q0.family.standard_sample((n, target.dim), as_generator(rng))
    x0 = q0.loc + q0.scale * eps
    d = _residual(target, q0, x0)                  # −r_{q0}
    for k in range(q.n_components):
        if q.weights[k] > 0:
            c = q.component(k)
            d = d - q.weights[k] * _residual(target, q, c.loc + c.scale * eps)
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(n))


def kl(target, q, *, n_samples: int = N_SAMPLES, rng: np.random.Generator, log_z: float | None = None, stderr: bool = False):
    """``KL(q ‖ p) ≈ E_q[log q − log p̃] + log Z``; ``log_z`` defaults to the target's
    ``log_normalizer`` (exact for :class:`~.targets.GaussianMixtureTarget`) or 0 (then ``= −ELBO``)."""
    check_target(target)
    q = _density("q", q, target.dim)
    n = check_size("n_samples", n_samples, item_bytes=8 * (target.dim + 2), item="draw")
    if log_z is None:
        log_z = getattr(target, "log_normalizer", None) or 0.0
    else:
        log_z = check_real("log_z", log_z)      # issue 47: log_z=nan returned NaN
    x = q.sample(n, as_generator(rng))
    out = _mean(_residual(target, q, x), stderr)
    return (out[0] + log_z, out[1]) if stderr else out + log_z


def grad_inner(target, q, s, *, n_samples: int = N_SAMPLES, rng: np.random.Generator, stderr: bool = False):
    """``⟨∇f(q), s⟩ ≈ E_s[log q − log p̃]`` (draws from ``s``), the LMO objective of Eq. (2)/(6)."""
    check_target(target)
    q = _density("q", q, target.dim)
    s = _density("s", s, target.dim)
    n = check_size("n_samples", n_samples, item_bytes=8 * (target.dim + 2), item="draw")
    x = s.sample(n, as_generator(rng))
    return _mean(_residual(target, q, x), stderr)


def directional_derivative(
    target, q, s, v=None, *, n_samples: int = N_SAMPLES, rng: np.random.Generator, stderr: bool = False
):
    """``⟨∇f(q), s − v⟩ ≈ E_s[log q − log p̃] − E_v[log q − log p̃]``, independent draws
    from ``s`` and ``v`` (``v = q`` by default: the Frank-Wolfe direction ``d = s − q``).
    Negative when moving towards ``s`` decreases the KL."""
    check_target(target)
    stderr = check_flag("stderr", stderr)
    v = q if v is None else v
    a = grad_inner(target, q, s, n_samples=n_samples, rng=rng, stderr=True)
    b = grad_inner(target, q, v, n_samples=n_samples, rng=rng, stderr=True)
    val = a[0] - b[0]
    return (val, float(np.hypot(a[1], b[1]))) if stderr else val


def grad_inner_components(target, q: Mixture, *, n_samples: int = N_SAMPLES, rng: np.random.Generator) -> np.ndarray:
    """``⟨∇f(q), s_k⟩`` for every component ``s_k`` of ``q`` (``n_samples`` draws each, one
    vectorised batch): shape ``(K,)``. The away vertex of Eq. (15) is its argmax."""
    check_target(target)
    if not isinstance(q, Mixture):
        raise ValueError(f"q must be a Mixture; got {type(q).__name__}")
    _density("q", q, target.dim)
    n = check_size("n_samples", n_samples, item_bytes=8 * (target.dim + 2), item="draw")
    rng = as_generator(rng)
    K, D = q.n_components, q.dim
    eps = q.family.standard_sample((K, n, D), rng)
    x = (q.locs[:, None, :] + np.exp(q.log_scales)[:, None, :] * eps).reshape(K * n, D)
    return _residual(target, q, x).reshape(K, n).mean(axis=1)


def kl_segment(target, q, s, gammas, *, n_samples: int = N_SAMPLES, rng: np.random.Generator) -> np.ndarray:
    """``f((1 − γ) q + γ s)`` for every ``γ`` of ``gammas`` on one set of draws (common random numbers):
    ``KL(q_γ ‖ p) = (1 − γ) E_q[log q_γ − log p̃] + γ E_s[log q_γ − log p̃] + log Z`` with
    ``log q_γ = logaddexp(log(1 − γ) + log q, log γ + log s)``, ``n_samples`` draws from each of ``q``
    and ``s`` (a stratified estimate of the KL along the Frank-Wolfe segment: the exact step a line
    search approximates is its argmin). ``q``, ``s``: densities of the target's dimension."""
    check_target(target)
    q, s = _density("q", q, target.dim), _density("s", s, target.dim)
    n = check_size("n_samples", n_samples, item_bytes=8 * (target.dim + 4), item="draw")
    g = as_finite_array("gammas", gammas)
    if g.ndim != 1 or g.size == 0 or not np.all((g >= 0) & (g <= 1)):
        raise ValueError(f"gammas must be a non-empty 1-D sequence of steps in [0, 1]; got {gammas!r}")
    rng = as_generator(rng)
    log_z = getattr(target, "log_normalizer", None) or 0.0
    out = np.zeros(g.size)
    with np.errstate(divide="ignore"):
        lw_q, lw_s = np.log1p(-g)[:, None], np.log(g)[:, None]
    for weight, x in ((1.0 - g, q.sample(n, rng)), (g, s.sample(n, rng))):
        log_p = target.log_density(x)
        log_qg = np.logaddexp(lw_q + q.log_density(x)[None], lw_s + s.log_density(x)[None])   # (G, n)
        with np.errstate(invalid="ignore"):
            term = (log_qg - log_p[None]).mean(axis=1)
            out += np.where(weight > 0, weight * term, 0.0)     # a stratum of weight 0 adds nothing
    return out + log_z
