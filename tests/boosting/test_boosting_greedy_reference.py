"""The greedy step (Eq. (4): maximise the RELBO with Adam) against a slow reference written out here, step by
step, from the equations of :mod:`inferopt.boosting.relbo` (Locatello et al. 2018a; Dresdner et al. 2021,
Sec. 4.1) and of Adam (Kingma & Ba 2015, Algorithm 1): the same draws and the same floating-point
operations in the same order, so the results must agree bit for bit -- the greedy step's output and the
record table of a whole comparison of the step rules (issue 27: the inner loop's checks and array wrappers
went, its numbers must not move).

The reference recomputes everything at every step from the data: ``log σ(m) = min(m, 0) − log(1 + e^{−|m|})``
and ``ℓ'(m) = y/(1 + e^{m})`` for the logistic target (``m = yη``, matrix-vector products for one draw),
the mixture's ``log q = logsumexp_k(log α_k + Σ_d (log f(e_kd) − ρ_kd))`` with ``e = (x − μ_k)/b_k`` and
``∇ log q = Σ_k r_k f'/f(e_k)/b_k``, the RELBO ``mean(log p − log q) + λ H(s)`` with the reparameterisation
gradients, the softplus chain rule and Adam's moments.
"""

import importlib
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit

import inferopt.boosting.families as families
import inferopt.boosting.targets as targets
import inferopt.models.glm as glm
from inferopt.boosting import GREEDY_AUTHORS, Component, GaussianMixtureTarget, LogisticTarget, Mixture, greedy_step
from inferopt.experiment.boosting import AUTHORS_RULE_SETTINGS, compare_methods

relbo = importlib.import_module("inferopt.boosting.relbo")     # the module (the package's name is its function)
LOG2, LOG2PI = np.log(2.0), np.log(2.0 * np.pi)
#: per family: standard draws, log f, f'/f, the entropy H(f) and the variance of f
FAMILY = {"laplace": (lambda rng, shape: rng.laplace(0.0, 1.0, size=shape), lambda e: -np.abs(e) - LOG2,
                      lambda e: -np.sign(e), 1.0 + LOG2, 2.0),
          "gaussian": (lambda rng, shape: rng.standard_normal(shape), lambda e: -0.5 * e**2 - 0.5 * LOG2PI,
                       lambda e: -e, 0.5 * (LOG2PI + 1.0), 1.0)}
OURS = {"max_iter": 150, "n_samples": 20, "lr": 0.05, "average": 0.5}


def mixture_terms(x, family, locs, log_scales, weights):
    """``log q(x)`` (S,) and ``∇_x log q(x)`` (S, D) of ``Σ_k α_k family(μ_k, e^{ρ_k})``."""
    logf, score = FAMILY[family][1:3]
    e = (x[:, None, :] - locs[None]) * np.exp(-log_scales)[None]
    with np.errstate(divide="ignore"):
        a = (logf(e) - log_scales[None]).sum(axis=-1) + np.log(weights)[None]
    top = a.max(axis=1, keepdims=True)
    top[~np.isfinite(top)] = 0.0
    log_q = np.log(np.exp(a - top).sum(axis=1, keepdims=True)) + top
    grads = score(e) * np.exp(-log_scales)[None]
    return log_q[:, 0], np.einsum("sk,skd->sd", np.exp(a - log_q), grads)


def logistic_terms(x, Z, y):
    """``log p(θ) = Σ_n log σ(y_n z_nᵀθ) + log N(θ; 0, I)`` and its gradient at the rows ``θ`` of ``x``."""
    eta = (Z @ x[0])[None] if len(x) == 1 else x @ Z.T
    m = y[None] * eta
    ll = np.minimum(m, 0.0) - np.log(1.0 + np.exp(-np.abs(m)))
    with np.errstate(over="ignore"):
        dll = y[None] / (1.0 + np.exp(m))
    log_prior = -0.5 * (x**2).sum(axis=1) / 1.0 - 0.5 * x.shape[1] * (LOG2PI + np.log(1.0))
    grad = -x / 1.0 + ((dll[0] @ Z)[None] if len(x) == 1 else dll @ Z)
    return log_prior + ll.sum(axis=1), grad


def reference_greedy(log_p, family, q, rng, *, t=None, max_iter, n_samples, lr, lr_decay=None, start="draw", average=0.0,
                     scale_param="exp", stored_scale="scale"):
    """The greedy step written out (``log_p`` with its dimension ``dim``): ``(loc, log_scale, trace)`` of its component."""
    draw, _, _, entropy_f, var_f = FAMILY[family]
    D, lam = log_p.dim, 1.0 if q is None else 1.0 / np.sqrt(t + 1.0)
    if start == "random":
        loc, u = rng.standard_normal(D), rng.standard_normal(D)
        rho = np.log(np.logaddexp(0.0, u)) if scale_param == "softplus" else u
    else:
        loc, rho = (np.zeros(D) if q is None else q.sample(1, rng)[0]), np.zeros(D)
    b = np.exp(rho)
    params = np.concatenate([loc, b + np.log(-np.expm1(-b)) if scale_param == "softplus" else np.array(rho)])
    to_rho = (lambda u: np.log(np.logaddexp(0.0, u))) if scale_param == "softplus" else (lambda u: u)

    def log_ratio(x):                                   # log p − log q_t and its gradient h
        f, h = log_p(x)
        if q is None:
            return f, h
        lq, glq = mixture_terms(x, family, q.locs, q.log_scales, q.weights)
        return f - lq, h - glq

    m, v = np.zeros(2 * D), np.zeros(2 * D)
    n_avg = int(np.ceil(average * max_iter))
    avg, trace = np.zeros(2 * D), []
    for i in range(max_iter):
        step = lr if lr_decay is None else lr * lr_decay[1] ** (i // lr_decay[0])
        eps = draw(rng, (n_samples, D))
        rho = to_rho(params[D:])
        scale = np.exp(rho)
        f, h = log_ratio(params[:D] + scale * eps)
        trace.append(float(f.mean() + lam * (D * entropy_f + rho.sum())))
        g_loc, g_rho = h.mean(axis=0), (h * eps).mean(axis=0) * scale + lam
        if scale_param == "softplus":               # dρ/du = σ(u) e^{−ρ}
            g_rho = g_rho * np.exp(-np.logaddexp(0.0, -params[D:]) - rho)
        g = -np.concatenate([g_loc, g_rho])
        m = 0.9 * m + (1.0 - 0.9) * g
        v = 0.999 * v + (1.0 - 0.999) * g**2
        params = params - step * (m / (1.0 - 0.9 ** (i + 1))) / (np.sqrt(v / (1.0 - 0.999 ** (i + 1))) + 1e-8)
        if i >= max_iter - n_avg:
            avg += params / n_avg
    if n_avg > 0:
        params = avg
    loc, rho = params[:D], to_rho(params[D:])
    eps = draw(rng, (n_samples, D))
    trace.append(float(log_ratio(loc + np.exp(rho) * eps)[0].mean() + lam * (D * entropy_f + rho.sum())))
    if stored_scale == "stddev":
        rho = rho + 0.5 * np.log(var_f)
    return loc, rho, np.array(trace)


def logistic(n=200, D=4, seed=0):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, D))
    y = np.where(rng.random(n) < expit(Z @ rng.normal(size=D)), 1.0, -1.0)
    target = LogisticTarget(Z, y)
    log_p = lambda x: logistic_terms(x, Z, y)          # noqa: E731
    log_p.dim = D
    return target, log_p


def one_hot(n=300, levels=(2, 3, 2), seed=0):
    """A logistic target on one-hot rows (``levels`` categories per feature): at most ``2 Π levels`` distinct (row,
    label) pairs among ``n`` rows, as the phishing stand-in's; the reference sums over every row."""
    rng = np.random.default_rng(seed)
    Z = np.hstack([np.eye(k)[rng.integers(0, k, size=n)] for k in levels])
    y = np.where(rng.random(n) < expit(Z @ rng.normal(size=Z.shape[1])), 1.0, -1.0)
    log_p = lambda x: logistic_terms(x, Z, y)          # noqa: E731
    log_p.dim = Z.shape[1]
    return LogisticTarget(Z, y), log_p


def two_modes():
    means, scales, weights = np.array([[-3.0, 0.0], [3.0, 1.0]]), np.array([[0.7, 1.0], [1.0, 0.6]]), np.array([0.6, 0.4])
    log_p = lambda x: mixture_terms(x, "gaussian", means, np.log(scales), weights)    # noqa: E731
    log_p.dim = 2
    return GaussianMixtureTarget(means, scales, weights), log_p


CASES = {   # target, family, the current mixture q_t (None: the first component), greedy settings
    "logistic, first, authors": (logistic, "laplace", None, {**GREEDY_AUTHORS, "max_iter": 300}),
    "logistic, q_t, authors": (logistic, "laplace", ([[0.1, 0, 0, 0], [1, 1, 0, 0.5], [0, 0, 0, 0]],
                                                     [[0, 0, 0, 0], [-1, 0, 0.3, 0], [0, 0, 0, 0]], [0.3, 0.7, 0.0]),
                               {**GREEDY_AUTHORS, "max_iter": 300}),
    "logistic, q_t, ours": (logistic, "laplace", ([[0.1, 0, 0, 0], [1, 1, 0, 0.5]], [[0, 0, 0, 0], [-1, 0, 0.3, 0]],
                                                  [0.3, 0.7]), OURS),
    "two modes, q_t, authors": (two_modes, "gaussian", ([[0.1, 0], [1, 1]], [[0, 0], [-1, 0.3]], [0.0, 1.0]),
                                {**GREEDY_AUTHORS, "max_iter": 300}),
    "two modes, q_t, ours": (two_modes, "gaussian", ([[0.1, 0], [-2, 1]], [[0, 0], [-1, 0.3]], [0.5, 0.5]), OURS),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_greedy_step_is_its_reference_bit_for_bit(case):
    make, family, mixture, settings = CASES[case]
    target, log_p = make()
    q = None if mixture is None else Mixture(family, *mixture)
    t = {} if q is None else {"t": 2}           # the first component is plain VI: no t
    res = greedy_step(target, family, q, rng=np.random.default_rng(5), **t, **settings)
    loc, rho, trace = reference_greedy(log_p, family, q, np.random.default_rng(5), **t, **settings)
    np.testing.assert_array_equal(res.objective, trace)
    np.testing.assert_array_equal(res.component.loc, loc)
    np.testing.assert_array_equal(res.component.log_scale, rho)


@pytest.mark.parametrize("case", list(CASES))
def test_draws_taken_in_blocks_are_the_draws_of_one_call_a_step(case, monkeypatch):
    """The greedy step takes its standard draws several Adam steps at a time (``DRAW_BLOCK``): with blocks of 7 steps
    (300 steps: 42 whole blocks and one of 6, 150: 21 and one of 3) its result is still the reference's, which draws once
    a step, bit for bit, and the generator is left where the reference leaves it."""
    make, family, mixture, settings = CASES[case]
    target, log_p = make()
    monkeypatch.setattr(relbo, "DRAW_BLOCK", 7 * settings["n_samples"] * target.dim)
    q = None if mixture is None else Mixture(family, *mixture)
    t = {} if q is None else {"t": 2}
    rng, rng_ref = np.random.default_rng(5), np.random.default_rng(5)
    res = greedy_step(target, family, q, rng=rng, **t, **settings)
    loc, rho, trace = reference_greedy(log_p, family, q, rng_ref, **t, **settings)
    np.testing.assert_array_equal(res.objective, trace)
    np.testing.assert_array_equal(res.component.loc, loc)
    np.testing.assert_array_equal(res.component.log_scale, rho)
    assert rng.random() == rng_ref.random()


@pytest.mark.parametrize("first", [True, False])
def test_repeated_rows_merged_give_the_reference_greedy_step(first):
    """On one-hot rows the target passes over the distinct (row, label) pairs weighted by their counts (issue 46):
    the greedy step is the reference's (a sum over every row) up to the order of the sums."""
    target, log_p = one_hot()
    assert target._pass.n <= 24 < target.model.n == 300            # the merged pass is the one taken
    D = target.dim
    q = None if first else Mixture("laplace", 0.3 * np.arange(2 * D).reshape(2, D) / D, np.full((2, D), -0.5), [0.4, 0.6])
    t = {} if q is None else {"t": 2}
    settings = {**GREEDY_AUTHORS, "max_iter": 300}
    res = greedy_step(target, "laplace", q, rng=np.random.default_rng(5), **t, **settings)
    loc, rho, trace = reference_greedy(log_p, "laplace", q, np.random.default_rng(5), **t, **settings)
    np.testing.assert_allclose(res.objective, trace, rtol=1e-10)
    np.testing.assert_allclose(res.component.loc, loc, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(res.component.log_scale, rho, rtol=1e-10, atol=1e-12)


def test_a_comparison_on_repeated_rows_is_the_one_pass_over_every_row(monkeypatch):
    """Every record of :func:`compare_methods` (all five rules, the authors' construction) on one-hot rows with the
    passes over data merged (distinct pairs weighted by their counts), the data in cache-sized blocks and the mixtures'
    draws in blocks (issue 46) equals, to 1e-10 relative, the records of one pass over every row in one block."""
    target, _ = one_hot(n=400, seed=2)
    Z, y = target.model.Z, target.model.y
    data = {"Z": Z, "y": y, "Zt": Z[:80], "yt": y[:80]}
    run = dict(max_iter=4, n_replicates=2, n_eval=200, n_samples=100, reuse_samples=False, ls_draws="authors",
               estimates="authors", C0=0.001, rule_settings=AUTHORS_RULE_SETTINGS,
               greedy={**GREEDY_AUTHORS, "max_iter": 100})
    monkeypatch.setattr(families, "BLOCK_ELEMENTS", 300)         # 100 draws x K <= 3 components x D = 7: several blocks
    monkeypatch.setattr(glm, "CHUNK_ELEMENTS", 2000)             # 100 or 200 draws: blocks of 10 or 20 rows
    fast = compare_methods(data, rng=np.random.default_rng(3), **run)
    monkeypatch.setattr(targets, "MERGE_SHARE", 0.0)              # every row, each pass one block
    monkeypatch.setattr(families, "BLOCK_ELEMENTS", 2**40)
    monkeypatch.setattr(glm, "CHUNK_ELEMENTS", 2**40)
    slow = compare_methods(data, rng=np.random.default_rng(3), **run)
    values = [r.drop(columns=[c for c in r if c.startswith("time")]) for r in (fast, slow)]
    assert len(values[0]) == 2 * 5 * 5
    pd.testing.assert_frame_equal(*values, check_exact=False, rtol=1e-10, atol=1e-12)


def test_a_comparison_of_the_rules_is_its_reference_bit_for_bit(monkeypatch):
    """Every record of :func:`compare_methods` (all five rules, the authors' greedy step and step settings) with
    the library's greedy step equals the one with the reference's in its place."""
    target, log_p = logistic(n=150, D=3, seed=1)
    Z, y = target.model.Z, target.model.y
    data = {"Z": Z, "y": y, "Zt": Z[:50], "yt": y[:50]}
    run = dict(max_iter=3, n_replicates=2, n_eval=20, n_samples=20, reuse_samples=False, ls_draws="authors",
               estimates="authors", C0=0.001, rule_settings=AUTHORS_RULE_SETTINGS,
               greedy={**GREEDY_AUTHORS, "max_iter": 100})
    fast = compare_methods(data, rng=np.random.default_rng(3), **run)

    def reference(target, family, q, *, rng, t=None, **settings):     # the boosting loop reads the result's component
        loc, rho, _ = reference_greedy(log_p, family.name, q, rng, t=t, **settings)
        return SimpleNamespace(component=Component(family, loc, rho))

    monkeypatch.setattr("inferopt.boosting.problem.greedy_step", reference)
    slow = compare_methods(data, rng=np.random.default_rng(3), **run)
    values = [r.drop(columns=[c for c in r if c.startswith("time")]) for r in (fast, slow)]
    assert len(values[0]) == 2 * 5 * 4
    pd.testing.assert_frame_equal(*values, check_exact=True)


def test_a_non_finite_gradient_is_named_after_the_loop():
    """The inner loop checks nothing per step: a NaN gradient poisons every later iterate and the step says so."""
    class Poisoned:
        dim = 2

        def log_density(self, x):
            return np.zeros(len(x))

        def grad_log_density(self, x):
            return np.full(x.shape, np.nan)

    with pytest.raises(ValueError, match="greedy step diverged"):
        greedy_step(Poisoned(), "laplace", rng=np.random.default_rng(0), max_iter=5, n_samples=1)
