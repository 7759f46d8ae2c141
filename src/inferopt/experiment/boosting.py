"""The boosting experiments (C1-C4): comparisons of the step rules as in Dresdner et al. (2021), Sec. 6: Fig. 1 (left) and Tables 2-3.

* :func:`random_lmo_step` -- Sec. 6.1 / Fig. 1 (left): a two-Gaussian target, the first
  component equal to the target's first, a *random* next component, one step of each rule,
  and the KL divergence after it (the setting of the authors' ``toy_random_lmo.py``:
  ``π ~ Dir(1, 1)``, means ``N(0, I)``, scales ``softplus(N(0, 1))``, the random component
  drawn the same way);
* :func:`compare_methods` -- Sec. 6.2: Bayesian logistic regression, every method for
  ``n_replicates`` runs, train log-likelihood and test AUROC at every iteration;
* :func:`elbo_by_rule` -- does boosting improve on plain VI (best ELBO against t = 0, with the
  Monte-Carlo error, and the fraction of non-zero steps); :func:`greedy_check` -- the first step
  under each greedy construction: the RELBO invariant and the ELBO of ``(1 − γ) q_0 + γ s``;
* :func:`best_median_iterate` / :func:`summary_table` / :func:`format_table` -- Tables 2-3: per
  method the iterate with the best median (over replicates) train log-likelihood, then mean ±
  std of train LL, test AUROC and time, times also as ratios to the predefined step measured
  in the same run; :func:`plot_per_iteration` -- a record column against the iteration;
* :func:`diagnose_step_rules` -- why a C2/C3 claim fails, from its verdict map; a construction split names the half of
  the authors' construction that turns the verdict (:func:`halves_diagnosis`, :func:`construction_halves`,
  :func:`equal_inputs`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from .._validation import (as_finite_array, check_callable, check_choice, check_choices, check_flag, check_int,
                           check_int_sequence, check_real, check_size, check_table)
from ..boosting.boost import BUILTIN, RULE_SETTINGS, SETTINGS, STEPS, boost, register_step, step_settings
from ..boosting.estimates import elbo, elbo_gain, kl, kl_segment
from ..boosting.families import Component, Gaussian
from ..boosting.mixture import Mixture
from ..boosting.problem import DISTANCES, LS_DRAWS
from ..boosting.relbo import converged_vi, greedy_step, relbo_common, relbo_lambda
from ..boosting.metrics import test_auroc, train_log_likelihood
from ..boosting.targets import GaussianMixtureTarget, LogisticTarget
from ..models.laplace import laplace_approximation
from .._random import as_generator
from .extra import method_of
from .methods import label
from .support import agreeing_test, bootstrap_support
from .verdict_map import cell
from .claims import Unearned, UnearnedDiagnosis, paper_rules
from .boosting_rules import ADAPTIVE, kl_gaussians, with_rules
from .parallel import run_tasks

#: the step rules a comparison accepts: the paper's (:data:`PAPER_RULES`, Tables 2-3), then those registered
#: (:func:`inferopt.experiment.register_method`); their labels come from the one registry (:func:`~.methods.label`)
METHODS = STEPS
PAPER_RULES = BUILTIN

C1_METHODS = ("predefined", "line_search", "adafw")
#: the draws behind a backtracking rule's check in :func:`random_lmo_step`: common to the step's estimates (ours) or
#: fresh for ``f(q_1)`` and each trial, as the authors' toy script's ``adaptive_fw``
CHECK_DRAWS = ("common", "authors")
#: open markers of :func:`plot_per_iteration`, one per method in order
MARKERS = ("o", "s", "^", "v", "D")


def _softplus(x):
    return np.logaddexp(0.0, x)


def random_two_gaussians(D: int, rng: np.random.Generator) -> GaussianMixtureTarget:
    """``Σ_k π_k N(μ_k, diag σ_k²)``, ``K = 2``, ``π ~ Dir(1, 1)``, ``μ_k ~ N(0, I_D)``, ``σ_k = softplus(N(0, I_D))``."""
    D, rng = check_size("D", D, item_bytes=8 * 4, item="dimension (two means, two scales)"), as_generator(rng)
    return GaussianMixtureTarget(rng.normal(size=(2, D)), _softplus(rng.normal(size=(2, D))), rng.dirichlet([1.0, 1.0]))


#: the steps on which :func:`random_lmo_step` estimates the KL along the segment ``(1 − γ) q_1 + γ s``: the exact step
#: (its argmin) and the quality of the random component (the KL it can remove)
SEGMENT_GAMMAS = np.linspace(0.0, 1.0, 201)


def random_component(target: GaussianMixtureTarget, u: np.ndarray, v: np.ndarray, spread: float | None = None) -> Component:
    """The random next component of Fig. 1 (left), from two standard normal vectors ``u``, ``v`` of the target's dimension.

    ``spread`` None: the authors' law (``toy_random_lmo.py``), drawn as the target's components are: mean ``u``,
    scale ``softplus(v)``; at D >= 5 nearly every such component is bad (the exact step 0: it cannot lower the KL).
    A float ``c``: ours, a component of dimension-free quality near the target's second one, mean ``μ_2 + c u / √D``
    and log scale ``log σ_2 + c v / √D``: each coordinate's offset shrinks as ``1/√D``, so the KL from the target's
    second component to it stays of order ``c²`` whatever D (its median over targets 3.1, 4.0, 4.8 at D = 5, 20, 80
    for ``c = 1``, where the authors' law's grows 28, 164, 830), the share of good components does not fall with D
    (about 3 in 4 at ``c = 1``, one half at 1.25), and a test of whether a step rule tells good components from bad
    has both kinds at every D.
    """
    if not isinstance(target, GaussianMixtureTarget) or target.means.shape[0] < 2:
        raise TypeError(f"target must be a GaussianMixtureTarget with two components or more, got {type(target).__name__}")
    u, v = (as_finite_array(n, x, ndim=1) for n, x in (("u", u), ("v", v)))
    for n, x in (("u", u), ("v", v)):
        if x.size != target.dim:
            raise ValueError(f"{n} must have the target's dimension {target.dim}, got length {x.size}")
    if spread is None:
        return Component(Gaussian(), u, np.log(_softplus(v)))
    c = check_real("spread", spread, low=0.0, low_open=True) / np.sqrt(u.size)
    return Component(Gaussian(), target.means[1] + c * u, np.log(target.scales[1]) + c * v)


def random_lmo_step(dims, n_runs: int, *, rng: np.random.Generator, methods=C1_METHODS, n_samples: int = 100,
                    n_eval: int = 4000, progress: bool = False, distance: str = "unit", n_jobs: int = 1,
                    exact_step: bool = True, spread: float | None = None, draw_stream: int = 0,
                    ls_draws: str = "authors", eps0_se: float | None = None, check_draws: str = "common",
                    **rule_kwargs) -> pd.DataFrame:
    """Fig. 1 (left): KL after one step from ``q_1`` = the target's first component towards a random
    Gaussian, for each method, ``n_runs`` random targets per dimension in ``dims``.

    Each run draws one target, one random component and a seed from ``rng``, whatever the methods: a
    pass with other methods meets the same targets. The targets are drawn first, in order, and the runs
    are independent tasks on ``n_jobs`` workers (:func:`~.parallel.run_tasks`; the results do not depend on
    ``n_jobs``). The step rules draw from the run's seed, and the KL of each resulting two-component
    mixture is estimated on the same ``n_eval`` draws' stream for every method (common random numbers; the
    target's density is exact): ``kl_init``, the KL of ``q_1`` alone (the never-step arm, ``γ = 0``), on
    that stream too, so a rule that returns ``γ = 0`` has exactly ``q_1``'s KL. The run's segment
    ``(1 − γ) q_1 + γ s`` is estimated at :data:`SEGMENT_GAMMAS` (:func:`~inferopt.boosting.estimates.kl_segment`,
    ``n_eval`` draws from each end): ``gamma_best`` its argmin (the exact step) and ``kl_best`` its minimum (NaN
    without ``exact_step``: a pass of other rules on the same targets need not repeat it).
    Returns one row per (dimension, run, method): ``gamma``, ``kl``, ``kl_init``, ``gamma_best``,
    ``kl_best``, ``step_type``. ``rule_kwargs``: step-rule settings shared by the methods, each taking
    those it uses (:func:`~inferopt.boosting.boost.step_settings`); ``distance``: the backtracking rules'
    ``‖d‖²`` (:func:`~inferopt.boosting.boost`; ``'exact'`` with :data:`~.boosting_rules.AUTHORS_TOY_RULES`:
    the authors' toy script; ``'kl'``, C1 only: ``d = KL(s || q_1)`` in closed form, their recorded Fig. 1 command's
    ``--distance_metric=kl``, :func:`~.boosting_rules.kl_gaussians`: fixed within a run, and the rule reads ``C`` and ``d``
    only as their product (:class:`~inferopt.fw.steps.Backtracking`), so it is run as ``'unit'`` with ``C_{-1} · d``, which
    needs ``C0``); ``spread``: the random component's law (:func:`random_component`: None the authors',
    a float ours near the target's second component); the targets, the normal draws behind the component and the
    seeds do not depend on it, so the two laws meet the same targets. ``draw_stream``: the step rules' draws (0: from
    the run's seed; k > 0: from ``[seed, 4, k]``), the targets, components and the KL's evaluation draws unchanged: a
    second pass at the same draw count measures how much the rules' Monte-Carlo draws alone move the KL (a noise floor).
    ``eps0_se``: Alg. 2's ``ε₀`` set in each run from the measured Monte-Carlo error (Eq. (10): ``ε_t`` bounds the error
    of the estimates): ``eps0_se`` standard errors of the ``n_samples``-draw estimate of the KL at the predefined step
    ``(1/3) q_1 + (2/3) s`` (the fallback and line search's start, inside the segment the search tries; at ``q_1`` itself
    the error vanishes in high dimensions, where ``log q_1 − log p`` is nearly constant) on draws ``[seed, 5]`` (1: the
    slack ``2 ε_1`` of Eq. (11) is two standard errors), in place of ``rule_kwargs``' ``eps0``;
    column ``eps0`` records the value each run used (None: ``rule_kwargs``' ``eps0`` for every run, no column).
    ``ls_draws``: the line search's derivative draws (:class:`~inferopt.boosting.problem.BoostingProblem`; ``'authors'``:
    fresh draws from ``q_1`` and ``s`` at every call, as the authors' ``fw_step_size.line_search_dkl`` graph draws them).
    ``check_draws`` (:data:`CHECK_DRAWS`): the draws behind the backtracking rules' sufficient-decrease check.
    ``'common'``: ``n_samples`` draws of ``q_1`` and of ``s`` taken once for the step, the gap, ``f(q_1)`` and every
    trial ``f(q_1 + γ d)`` on them (common random numbers: :class:`~inferopt.boosting.problem.BoostingProblem`'s stratified
    estimates). ``'authors'``: as the authors' toy script's ``fw_step_size.adaptive_fw`` takes them (session 61, review
    C1g): the gap on ``n_samples`` draws of ``q_1`` and of ``s``, then ``f(q_1)`` once and each trial on fresh draws of
    their own (``estimates='authors'``, ``reuse_samples=False``; an initial ``C`` estimated with ``C0=None`` reads the
    derivative on fresh draws, ``ls_draws='authors'``). Their ``f(q_1)`` and trials are TensorFlow's ``kl_divergence``,
    which for Edward's random variables dispatches to their registered ``_kl_monte_carlo`` at its default 1000 draws
    whatever ``--n_monte_carlo_samples``: at ``n_samples = 1000`` (their recorded command's) the two are the same
    estimates; at fewer draws ours takes ``n_samples`` there too.
    """
    rng = as_generator(rng)
    n_runs = check_size("n_runs", n_runs, item_bytes=8 * 6, item="run (a row per method)")
    dims = check_int_sequence("dims", dims, low=1)
    methods = check_choices("methods", methods, METHODS)
    check_size("n_eval", n_eval, low=2, item_bytes=8 * (max(dims) + 2) * len(SEGMENT_GAMMAS), item="draw")
    check_size("n_samples", n_samples, item_bytes=8 * (max(dims) + 2), item="draw")
    progress, exact_step = check_flag("progress", progress), check_flag("exact_step", exact_step)
    distance = check_choice("distance", distance, (*DISTANCES, "kl"))
    if distance == "kl" and rule_kwargs.get("C0") is None:
        raise ValueError("distance 'kl' needs C0 (C_-1): the rule is run with C0 times KL(s || q_1) and a unit distance")
    spread = None if spread is None else check_real("spread", spread, low=0.0, low_open=True)
    draw_stream = check_int("draw_stream", draw_stream, low=0)
    ls_draws = check_choice("ls_draws", ls_draws, LS_DRAWS)
    eps0_se = None if eps0_se is None else check_real("eps0_se", eps0_se, low=0.0, low_open=True)
    check_draws = check_choice("check_draws", check_draws, CHECK_DRAWS)
    own = {m: step_settings(m, rule_kwargs, strict=False) for m in methods}   # shared settings: each rule takes its own
    tasks = []
    for D in dims:
        for r in range(n_runs):
            target = random_two_gaussians(int(D), rng)
            rand = random_component(target, rng.normal(size=int(D)), rng.normal(size=int(D)), spread)
            tasks.append((int(D), r, target, rand, int(rng.integers(2**32))))
    added = {m: method_of(m) for m in methods if m not in PAPER_RULES}
    one = partial(_one_random_lmo_run, methods=tuple(methods), own=own, added=added, n_samples=n_samples,
                  n_eval=n_eval, distance=distance, exact_step=exact_step, draw_stream=draw_stream, ls_draws=ls_draws,
                  eps0_se=eps0_se, check_draws=check_draws)
    rows = run_tasks(one, tasks, n_jobs=n_jobs, progress="runs" if progress else False)
    return pd.DataFrame([row for run in rows for row in run])


def _one_random_lmo_run(D: int, r: int, target, rand, seed: int, *, methods, own, added, n_samples, n_eval,
                        distance, exact_step, draw_stream=0, ls_draws="authors", eps0_se=None,
                        check_draws="common") -> list[dict]:
    """The rows of one run of :func:`random_lmo_step` (the registered rules of ``added`` registered first:
    a worker process has not seen the registration)."""
    for name, rule in added.items():
        register_step(name, rule)
    first = target.component(0)
    seq = [first, rand]
    kl_init = kl(target, target.mixture.with_weights([1.0, 0.0]), n_samples=n_eval, rng=np.random.default_rng([seed, 2]))
    curve = (kl_segment(target, first, rand, SEGMENT_GAMMAS, n_samples=n_eval, rng=np.random.default_rng([seed, 3]))
             if exact_step else np.full(1, np.nan))
    best = int(np.argmin(curve)) if exact_step else 0
    extra = {}
    if eps0_se is not None:   # ε₀ from this run's Monte-Carlo error of the KL estimate (random_lmo_step's docstring)
        tried = Mixture(first.family, np.stack([first.loc, rand.loc]), np.stack([first.log_scale, rand.log_scale]), [1 / 3, 2 / 3])
        _, se = kl(target, tried, n_samples=n_samples, rng=np.random.default_rng([seed, 5]), stderr=True)
        extra = {"eps0": eps0_se * float(se)}
        own = {m: {**s_, **extra} if "eps0" in s_ else s_ for m, s_ in own.items()}
    if distance == "kl":   # C·d with d = KL(s || q_1), one number in the run (random_lmo_step's docstring)
        own = {m: {**s_, "C0": s_["C0"] * kl_gaussians(rand, first)} if "C0" in s_ else s_ for m, s_ in own.items()}
        distance = "unit"
    rows = []
    for method in methods:
        step_rng = np.random.default_rng(seed if draw_stream == 0 else [seed, 4, draw_stream])
        checks = "C0" in RULE_SETTINGS.get(method, ())   # a backtracking rule: its check's draws (check_draws)
        draws = dict(estimates="authors", reuse_samples=False, ls_draws="authors") \
            if checks and check_draws == "authors" else dict(ls_draws=ls_draws)
        res = boost(target, method, rng=step_rng, max_iter=1, family="gaussian",
                    n_samples=n_samples, lmo=lambda q, t, _rng, seq=seq: seq[t], **draws,
                    distance=distance if checks else "unit", **own[method])
        rows.append({"dimension": D, "run": r, "method": method, "gamma": float(res.record["gamma"].iloc[1]),
                     "step_type": res.record["step_type"].iloc[1], "kl_init": kl_init,
                     "gamma_best": float(SEGMENT_GAMMAS[best]) if exact_step else float("nan"), "kl_best": float(curve[best]),
                     "kl": kl(target, res.mixture, n_samples=n_eval, rng=np.random.default_rng([seed, 2])), **extra})
    return rows


def run_replicate(data: dict, method: str, replicate: int, seed: int, *, max_iter: int, n_eval: int = 100,
                  start: Component | None = None, **boost_kwargs) -> pd.DataFrame:
    """One replicate of one ``method`` of :func:`compare_methods`: :func:`~inferopt.boosting.boost`
    seeded by ``seed`` and evaluated with draws seeded by ``[seed, 1]`` (outside the timed parts); its
    per-iteration record with ``method``, ``replicate``, ``train_ll``, ``test_auroc`` and an
    independent ELBO estimate ``elbo_eval`` with its Monte-Carlo standard error ``elbo_se``
    (``n_eval`` draws), and at the first step and the last iterate ``gain_q0``, the ELBO's gain over the run's
    plain VI ``q_0`` on common random numbers with its standard error ``gain_q0_se``
    (:func:`~inferopt.boosting.estimates.elbo_gain`, ``n_eval`` draws seeded by ``[seed, 2]``: paired across
    iterates and rules; NaN at the other iterates). ``start``: the first component given (:data:`STARTS`), else
    the greedy step's plain VI (the authors' ``--iter0 vi``). Step-rule settings among ``boost_kwargs`` may be
    shared by several rules: ``method`` takes those it uses (:func:`~inferopt.boosting.boost.step_settings`)."""
    method = check_choice("method", method, METHODS)
    replicate, seed = check_int("replicate", replicate, low=0), check_int("seed", seed, low=0)
    target = LogisticTarget(data["Z"], data["y"])
    n_eval = check_size("n_eval", n_eval, item_bytes=8 * (target.dim + len(data["y"])), item="draw")
    ev_rng = np.random.default_rng([seed, 1])
    seen = []                                       # q_0, then one entry per later iterate

    def evaluate(q):
        value, se = elbo(target, q, n_samples=n_eval, rng=ev_rng, stderr=True)
        seen.append(q.component(0) if not seen else None)
        gain = (elbo_gain(target, q, seen[0], n_samples=n_eval, rng=np.random.default_rng([seed, 2]))
                if len(seen) in (2, max_iter + 1) else (np.nan, np.nan))
        return {"train_ll": train_log_likelihood(target.model, q, n_samples=n_eval, rng=ev_rng),
                "test_auroc": test_auroc(data["Zt"], data["yt"], q), "elbo_eval": value, "elbo_se": se,
                "gain_q0": gain[0], "gain_q0_se": gain[1]}

    rule = {k: v for k, v in boost_kwargs.items() if k in SETTINGS}
    rest = {k: v for k, v in boost_kwargs.items() if k not in SETTINGS}
    res = boost(target, method, rng=np.random.default_rng(seed), max_iter=max_iter, evaluate=evaluate, start=start,
                **rest, **step_settings(method, rule, strict=False))
    return res.record.assign(method=method, replicate=replicate)


#: the settings of each rule behind the authors' Table 1 (the paper's Table 2), from their README's run command:
#: ``--linit_fixed`` (C_-1; the line search's step ``ls_lr``), ``--damping_adafw`` (η), ``--exp_adafw`` (τ),
#: ``--n_line_search_iter 25``
AUTHORS_RULE_SETTINGS = {"adafw": {"C0": 1.0, "eta": 0.01, "tau": 2.0}, "adaafw": {"C0": 1.0, "eta": 0.1, "tau": 5.0},
                         "adapfw": {"C0": 0.01, "eta": 0.99, "tau": 1.01}, "line_search": {"ls_lr": 0.05, "ls_iter": 25}}
#: the keys a rule's own settings may set (:func:`compare_methods`'s ``rule_settings``)
RULE_SETTING_KEYS = ("C0", "eta", "tau", "ls_lr", "ls_iter", "imax", "eps0")


def settings_apart_from(rule_settings, varied=("C0",)) -> dict | None:
    """The rules' own settings (:func:`check_rule_settings`) without the keys of ``varied``: a verdict-map cell that
    sets an open choice itself (``C_{-1}`` of the ``C0`` sweep and of Alg. 2 as printed) changes that one from the main
    run's settings and keeps every other (each rule's η, τ, the line search's steps), so the map's runs and the main
    run get equal inputs but for the choice varied (``None``: no rule settings)."""
    own = check_rule_settings(rule_settings)
    varied = check_choices("varied", varied, RULE_SETTING_KEYS)
    kept = {rule: {k: v for k, v in keys.items() if k not in varied} for rule, keys in own.items()}
    return {rule: keys for rule, keys in kept.items() if keys} or None


def check_rule_settings(rule_settings) -> dict:
    """``rule_settings`` as ``{rule: {key: value}}`` with rules of :data:`METHODS`, keys of
    :data:`RULE_SETTING_KEYS` that the rule uses (issue 47: ``{"predefined": {"eta": 5}}`` was
    ignored) and values the rule allows (``C0 > 0``, ``0 < eta <= 1``, ``tau > 1``, ``imax >= 1``, ...:
    :func:`~inferopt.boosting.boost.step_settings`). A refusal names ``rule_settings[rule]``."""
    if rule_settings is None:
        return {}
    if not isinstance(rule_settings, dict) or not all(isinstance(v, dict) for v in rule_settings.values()):
        raise TypeError(f"rule_settings must be a mapping {{rule: {{setting: value}}}}; got {rule_settings!r}")
    check_choices("rule_settings (its rules)", list(rule_settings), METHODS)
    for rule, kw in rule_settings.items():
        unknown = set(kw) - set(RULE_SETTING_KEYS)
        if unknown:
            raise ValueError(f"rule_settings[{rule!r}] has unknown keys {sorted(unknown)}; allowed: {list(RULE_SETTING_KEYS)}")
        try:
            step_settings(rule, kw)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"rule_settings[{rule!r}]: {exc}") from None
    return {rule: dict(kw) for rule, kw in rule_settings.items()}


def _run_with_settings(data, method, replicate, seed, settings, *, added: dict, **kwargs) -> pd.DataFrame:
    """:func:`run_replicate` with the rule's own ``settings`` over the shared keyword arguments; the
    registered rules of ``added`` registered first (a worker process has not seen the registration)."""
    for name, rule in added.items():
        register_step(name, rule)
    return run_replicate(data, method, replicate, seed, **{**kwargs, **settings})


def compare_methods(data: dict, *, methods=PAPER_RULES, max_iter: int, n_replicates: int, rng: np.random.Generator,
                    n_eval: int = 100, n_jobs: int = 1, progress: bool = False, rule_settings: dict | None = None,
                    start: str = "vi", **boost_kwargs) -> pd.DataFrame:
    """Every method on Bayesian logistic regression (prior N(0, I)) of ``data`` (``Z, y, Zt, yt``).

    Replicate ``r`` uses the same seed for every method, drawn from ``rng`` before any run, so
    the (replicate, method) runs are independent tasks (:func:`run_replicate`) spread over
    ``n_jobs`` workers (:func:`~inferopt.experiment.parallel.run_tasks`: loky, or a Dask
    cluster) with results that do not depend on ``n_jobs`` (the timings aside). Returns the
    concatenated per-iteration records of :func:`~inferopt.boosting.boost` with columns
    ``method``, ``replicate``, ``train_ll`` (mean over the training data of
    ``E_q log p(y|x, w)``, ``n_eval`` draws) and ``test_auroc`` (posterior-mean logit);
    ``boost_kwargs`` go to :func:`~inferopt.boosting.boost` (its step-rule settings shared: each rule
    takes those it uses), updated for each rule by its entry of ``rule_settings``
    (``{rule: {"C0": ..., "eta": ..., ...}}``, e.g. :data:`AUTHORS_RULE_SETTINGS`).
    ``progress``: a bar over the runs. ``methods``: the paper's rules by default; a rule registered by
    :func:`inferopt.experiment.register_method` runs as its own tasks with the replicates' seeds, so
    the paper's rules give the same records with and without it. ``start`` (:data:`STARTS`): ``'vi'``, the first
    component by the greedy step (the authors' ``--iter0 vi``: its settings ``greedy``), or ``'converged'``, plain VI
    run to convergence (:func:`~inferopt.boosting.relbo.converged_vi`, draws seeded by ``[seed, 3]``), computed once
    per replicate and shared by its rules (column ``start``).
    """
    rng = as_generator(rng)
    n_replicates = check_size("n_replicates", n_replicates, item_bytes=8 * 20, item="replicate (a record row)")
    methods = check_choices("methods", methods, METHODS)
    target = LogisticTarget(data["Z"], data["y"])          # bad data fails here, before any worker starts
    check_size("n_eval", n_eval, item_bytes=8 * (target.dim + len(data["y"])), item="draw")
    progress = check_flag("progress", progress)
    step_settings(methods[0], {k: v for k, v in boost_kwargs.items() if k in SETTINGS}, strict=False)   # values, here
    seeds = rng.integers(2**32, size=n_replicates)
    own = check_rule_settings(rule_settings)
    start = check_choice("start", start, STARTS)
    first = {int(seed): converged_vi(target, boost_kwargs.get("family", "laplace"), rng=np.random.default_rng([int(seed), 3])
                                     ).component if start == "converged" else None for seed in seeds}
    tasks = [(data, method, r, int(seed), {**own.get(method, {}), "start": first[int(seed)]})
             for r, seed in enumerate(seeds) for method in methods]
    added = {m: method_of(m) for m in methods if m not in PAPER_RULES}
    task = partial(_run_with_settings, added=added, max_iter=max_iter, n_eval=n_eval, **boost_kwargs)
    frames = run_tasks(task, tasks, n_jobs=n_jobs, progress="runs (replicate x step rule)" if progress else False)
    return pd.concat(frames, ignore_index=True).assign(start=start)


#: the first component of a boosting run (:func:`compare_methods`' ``start``): the greedy step's plain VI as the
#: authors' ``--iter0 vi`` runs it, or plain VI run to convergence (:func:`~inferopt.boosting.relbo.converged_vi`)
STARTS = ("vi", "converged")


def best_median_iterate(records: pd.DataFrame) -> pd.DataFrame:
    """Rows at each method's iterate with the best median (over replicates) train log-likelihood."""
    check_table("records", records, ("method", "replicate", "iteration", "train_ll"))
    med = records.groupby(["method", "iteration"])["train_ll"].median().reset_index()
    best = med.loc[med.groupby("method")["train_ll"].idxmax(), ["method", "iteration"]]
    return records.merge(best, on=["method", "iteration"])


def selected_is_plain_vi(records: pd.DataFrame, *, threshold: float = 1e-12) -> bool:
    """True when every rule's table iterate (:func:`best_median_iterate`) is still plain VI in every replicate:
    the iterate ``t = 0``, or one reached by steps of ``γ ≤ threshold`` only (``gamma`` of the record at
    iterations ``1..t``), so the mixture is ``q_0``. Tables 2-3 then compare one model with itself, up to
    the Monte-Carlo noise of the evaluation that picked the iterate."""
    check_table("records", records, ("method", "replicate", "iteration", "gamma", "train_ll"))
    threshold = check_real("threshold", threshold, low=0.0)
    chosen = best_median_iterate(records)[["method", "replicate", "iteration"]].rename(columns={"iteration": "chosen"})
    rows = records.merge(chosen, on=["method", "replicate"])
    moved = rows[(rows.iteration >= 1) & (rows.iteration <= rows.chosen)].gamma > threshold
    return bool(not moved.any())


def summary_table(records: pd.DataFrame, reference: str = "predefined") -> pd.DataFrame:
    """Tables 2-3: per method mean and std over replicates of ``train_ll`` and ``test_auroc`` at
    the best-median-train-LL iterate, of ``time_to_best`` (s, greedy steps + step sizes up to
    that iterate) and of ``time`` (s, the whole run of ``max_iter`` iterations, the same number for
    every method); ``time_ratio`` = mean run time / ``reference``'s (measured in the same run)
    and ``step_time_ratio`` the same for the step-size selection alone (``time_step`` summed over
    the run: the authors' ``times.csv`` holds one such time per iteration, the greedy step left
    out), ``step_time_per_iter`` its mean per iteration; ``step_work`` (and ``step_work_ratio``) the same
    selection's work, hardware-neutral: the evaluations of ``log p̃`` at a draw (each a pass over the training
    rows) summed over the run (``work_step``)."""
    check_table("records", records, ("method", "replicate", "iteration", "train_ll", "test_auroc", "time", "time_step",
                                     "work_step"))
    check_choice("reference", reference, set(records["method"].tolist()))
    best = best_median_iterate(records).set_index(["method", "replicate"])
    runs = records.groupby(["method", "replicate"])
    best["time_to_best"] = best["time"]
    best["time"] = runs["time"].max()
    best["step_time"] = runs["time_step"].sum()
    best["step_time_per_iter"] = runs["time_step"].apply(lambda v: v.iloc[1:].mean())
    best["step_work"] = runs["work_step"].sum()
    g = best.reset_index().groupby("method")
    out = pd.DataFrame({"iteration": g["iteration"].first()})
    for col in ("train_ll", "test_auroc", "time_to_best", "time", "step_time", "step_time_per_iter", "step_work"):
        out[f"{col}_mean"], out[f"{col}_std"] = g[col].mean(), g[col].std(ddof=1)
    if reference in out.index:
        out["time_ratio"] = out["time_mean"] / out.loc[reference, "time_mean"]
        for col in ("step_time", "step_work"):
            out[f"{col}_ratio"] = out[f"{col}_mean"] / out.loc[reference, f"{col}_mean"]
    order = [m for m in METHODS if m in out.index]
    out = out.loc[order]
    out.index = [label(m) for m in order]
    out.index.name = "method"
    return out


def format_table(summary: pd.DataFrame) -> pd.DataFrame:
    """:func:`summary_table` as the paper prints it: ``mean ± std`` strings, times with their ratio."""
    check_table("summary", summary, ("iteration", "train_ll_mean", "train_ll_std"))
    out = pd.DataFrame(index=summary.index)
    out["iterate"] = summary["iteration"].astype(int)
    out["Train LL"] = [f"{m:.4f} ± {s:.2e}" for m, s in zip(summary.train_ll_mean, summary.train_ll_std)]
    out["Test AUROC"] = [f"{m:.3f} ± {s:.2e}" for m, s in zip(summary.test_auroc_mean, summary.test_auroc_std)]
    out["Time to iterate (s)"] = [f"{m:.2f} ± {s:.2e}" for m, s in zip(summary.time_to_best_mean, summary.time_to_best_std)]
    out["Run time (s)"] = [f"{m:.2f} ± {s:.2e}" for m, s in zip(summary.time_mean, summary.time_std)]
    if "time_ratio" in summary:
        out["run time / predefined"] = summary["time_ratio"].round(2)
        out["step-size time / predefined"] = summary["step_time_ratio"].round(2)
        out["step-size work / predefined"] = summary["step_work_ratio"].round(2)
    return out


def elbo_by_rule(records: pd.DataFrame, *, threshold: float = 1e-6) -> dict:
    """Does boosting improve on plain VI? Per method, from the evaluation ELBO (``elbo_eval``,
    independent draws, with its standard error ``elbo_se``)::

        {"t0": mean ELBO of plain VI (t = 0), "best": the best over iterations of the mean ELBO,
         "best_se": the Monte-Carlo standard error of that mean, "best_iteration": where,
         "nonzero_steps": fraction of steps with γ > threshold}

    means over replicates; the gain is real when ``best − t0`` exceeds the two standard errors."""
    check_table("records", records, ("method", "replicate", "iteration", "elbo_eval", "elbo_se", "gamma"))
    threshold = check_real("threshold", threshold, low=0.0)
    out = {}
    for method, rec in records.groupby("method", sort=False):
        by_t = rec.groupby("iteration")
        mean = by_t.elbo_eval.mean()
        se = np.sqrt(by_t.elbo_se.apply(lambda v: float(np.sum(v**2)))) / by_t.size()
        t_best = int(mean.idxmax())
        steps = rec[rec.iteration > 0].gamma
        out[method] = {"t0": float(mean.loc[0]), "t0_se": float(se.loc[0]), "best": float(mean.loc[t_best]),
                       "best_se": float(se.loc[t_best]), "best_iteration": t_best,
                       "nonzero_steps": float((steps > threshold).mean()) if len(steps) else float("nan")}
    return out


def by_method(records: pd.DataFrame) -> pd.DataFrame:
    """:func:`summary_table` indexed by the rules' names (``'adafw'``, ...) instead of their labels."""
    return summary_table(records).rename(index={label(m): m for m in METHODS})


def improves_on_vi(records: pd.DataFrame, methods, *, n_se: float = 2.0) -> bool:
    """Does every rule of ``methods`` boost: takes non-zero steps and reaches a best mean ELBO above
    plain VI's (t = 0) by more than ``n_se`` combined Monte-Carlo standard errors (:func:`elbo_by_rule`)?"""
    e = elbo_by_rule(records)
    methods = check_choices("methods", methods, sorted(e))
    n_se = check_real("n_se", n_se, low=0.0)
    return bool(all(e[m]["nonzero_steps"] > 0 and e[m]["best"] - e[m]["t0"] > n_se * np.hypot(e[m]["best_se"], e[m]["t0_se"])
                    for m in methods))


@dataclass(frozen=True)
class WithReadings:
    """A claim's test (``test(records) -> bool``, its chosen reading) with the verdicts of its cut-off's readings
    (``readings(records) -> ["holds" | "fails", ...]``): a verdict-map cell of it (:func:`runs_cell`) is
    ``inconclusive`` where its readings turn (:func:`~.verdict_map.cell`), as the claim itself is (session 46's review
    of C3.1: a 3-replicate cell where every rule ties holds as "tied-best" and fails as "a lead as in Table 3")."""

    test: Callable
    readings: Callable

    def __post_init__(self):
        check_callable("test", self.test)
        check_callable("readings", self.readings)

    def __call__(self, records: pd.DataFrame) -> bool:
        return self.test(records)


@dataclass(frozen=True)
class ThreeValued:
    """A claim's test read three-valued: ``outcome(records) -> True / False / None``, None where the comparison decides
    nothing on ``records`` (C3.7: every column of Table 3 it could be decided on compares nothing there,
    :func:`~.boosting_claims.better_outcome`). Called, it holds only where the outcome is True: never vacuously, an
    undecided table is no hold (session 63: C3.7's test held by ``all([])`` on a resample where no column ranked). Its
    support on a table agrees with its outcome there (:meth:`at`, :func:`~.support.agreeing_test`): a resample left
    undecided counts for neither verdict, so it is never a failure's support either; a verdict-map cell where the outcome
    is None is not measured (:func:`runs_cell`)."""

    outcome: Callable

    def __post_init__(self):
        check_callable("outcome", self.outcome)

    def __call__(self, records: pd.DataFrame) -> bool:
        return self.outcome(records) is True

    def at(self, records: pd.DataFrame) -> Callable:
        """The boolean test whose value on ``records`` is this one's and whose bootstrap support over them agrees with
        its outcome there (a failing outcome: a resample counts against it only where it fails)."""
        return agreeing_test(self.outcome, self.outcome(records))


def runs_cell(setting: dict, test, records: pd.DataFrame, *, tie=None, construction: str | None = None) -> dict:
    """One verdict-map cell: ``test(records) -> bool`` at ``setting`` with its replicate support
    (:func:`replicate_support`), or ``not measured`` where ``tie(records)`` says the comparison is a tie by
    construction, never a hold (e.g. :func:`selected_is_plain_vi` for a claim on Tables 2-3's selected iterates: every
    one plain VI, one model compared with itself, as :func:`~.boosting_claims.claim_on_table` leaves the claim there).
    A :class:`WithReadings` test gives the cell its readings' verdicts (inconclusive where they turn); a
    :class:`ThreeValued` one is not measured where its outcome is None, else resampled agreeing with its outcome
    (:meth:`ThreeValued.at`)."""
    check_callable("test", test)
    if tie is not None and tie(records):
        return cell(setting, None, construction=construction)
    if isinstance(test, ThreeValued):
        if test.outcome(records) is None:
            return cell(setting, None, construction=construction)
        test = test.at(records)
    holds = test(records)
    if not isinstance(holds, bool | np.bool_):
        raise TypeError(f"test must return a boolean (the claim's outcome on the records); got {holds!r}")
    return cell(setting, holds, support=replicate_support(test, records), construction=construction,
                readings=test.readings(records) if isinstance(test, WithReadings) else None)


def verdict_map(runs: dict, test, name: str, *, tie=None) -> list[dict]:
    """A claim's verdict under each setting of one open choice: ``runs`` maps a value of ``name`` to
    the records run with it (same data, seeds and budgets), ``test(records) -> bool``; returns the
    ``evidence["sweep"]`` cells ``[{"setting": {name: value}, "verdict": "holds" | "fails"}]`` (:func:`runs_cell`,
    ``tie`` as there)."""
    if not isinstance(runs, dict) or not runs:
        raise TypeError(f"runs must be a non-empty mapping {{value: records}}; got {type(runs).__name__}")
    check_callable("test", test)
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be the open choice's name (a non-empty string); got {name!r}")
    return [runs_cell({name: value}, test, rec, tie=tie) for value, rec in runs.items()]


def replicate_support(test, records: pd.DataFrame) -> dict:
    """The bootstrap support of ``test`` over the replicates of ``records`` (seed 0: the same resamples for every
    cell). A replicate is one seed shared by the rules: the paired unit, resampled whole when every replicate holds a
    run of every rule of ``records``. A run the authors' plotting script drops (:func:`~.boosting_rules.complete_runs`)
    breaks the pairing (a resample of the replicates could hold no run of its rule); the rules' runs are then
    resampled apart (:func:`~.support.bootstrap_support` ``within="method"``: the unpaired bootstrap of the per-rule
    means their script plots); a rule left with one run enters every resample as it is (the support names it in
    ``fixed``). A cell with it is decisive only when 90 % of the resamples agree (:func:`~.verdict_map.cell`)."""
    check_callable("test", test)
    check_table("records", records, ("replicate",))
    paired = "method" not in records or (records.groupby("replicate").method.nunique() == records.method.nunique()).all()
    return bootstrap_support(test, records, by="replicate", within=None if paired else "method", seed=0)


#: Alg. 2 as the paper prints it: no ``MIN_GAMMA``, no step on a negative gap, the grown ``C`` after a fallback
#: (the authors' code departs from it in all three; :func:`~inferopt.boosting.make_step`)
ALG2_AS_PRINTED = dict(min_gamma=0.0, on_ascent="zero", fallback_C="grown")


def resample_rows(data: dict, n_rows: int, rng: np.random.Generator) -> dict:
    """``data`` with its training rows ``Z, y`` drawn with replacement to ``n_rows`` (the test rows
    kept): a posterior as concentrated as one on ``n_rows`` rows of the same feature law, to tell
    whether a subset's size is what a first-step check depends on."""
    if not isinstance(data, dict) or not {"Z", "y"} <= set(data):
        raise TypeError(f"data must be a mapping with 'Z' and 'y' (logistic_data's); got {type(data).__name__}")
    n_rows = check_size("n_rows", n_rows, item_bytes=8 * (np.shape(data["Z"])[1] + 1), item="row")
    idx = as_generator(rng).integers(len(data["y"]), size=n_rows)
    return {**data, "Z": data["Z"][idx], "y": data["y"][idx]}


#: the standard errors a first-step gain must exceed to count (:func:`first_step_gain`), and the further ones for 80 %
#: power: a check of combined standard error ``se`` detects a gain of ``(2 + 0.84) se`` four times in five
GAIN_SE, POWER_SE = 2.0, 0.84


def first_step_gain(check: pd.DataFrame) -> dict:
    """Per construction of a :func:`greedy_check` table: the best ELBO gain over plain VI of any ``γ > 0`` and its
    standard error ``se``, both on common random numbers (``gain``, ``gain_se``: paired draws, so ``q_0``'s part of the
    mixture cancels; before session 40 the error was that of two independent ELBO estimates, ``√(se_0² + se_γ²)``, which
    the mixture's ``q_0`` part dominates), whether it exceeds :data:`GAIN_SE` of them (``beyond_2se``), and the check's
    power: ``detectable``, the smallest gain it detects with 80 % power (``(GAIN_SE + POWER_SE) se``), and
    ``rules_out_gain``, whether it excludes any gain (the gain plus :data:`GAIN_SE` standard errors at most 0)."""
    check_table("check", check, ("construction", "gamma", "gain", "gain_se"))
    out = {}
    for name, g in check.groupby("construction"):
        steps = g[g.gamma > 0]
        j = steps.gain.idxmax()
        gain, se = float(steps.gain[j]), float(steps.gain_se[j])
        out[name] = {"gain": gain, "se": se, "beyond_2se": bool(gain > GAIN_SE * se),
                     "detectable": (GAIN_SE + POWER_SE) * se, "rules_out_gain": bool(gain + GAIN_SE * se <= 0)}
    return out


def step_rule_cells(test, *, sweep: dict, published: pd.DataFrame, C0, greedy_sweep: dict | None = None,
                    authors: dict | None = None, tie=None) -> list[dict]:
    """The verdict map of a C2/C3 claim over the step rules' open settings and constructions: ``test`` at each
    ``C_{-1}`` of ``sweep`` (:func:`verdict_map`), with Alg. 2 as printed at ``C0`` (``published``), at each greedy
    setting of ``greedy_sweep`` and with the authors' rules (``authors``: name -> records; construction ``authors``),
    each cell with its replicate support; ``tie``: a cell where ``tie(records)`` is not measured (:func:`runs_cell`;
    :func:`selected_is_plain_vi` for a claim on Tables 2-3's selected iterates)."""
    check_callable("test", test)
    alg2 = runs_cell({"C0": C0, "step rules": "Alg. 2 as printed (min_gamma 0, on_ascent zero, fallback_C grown)"},
                     test, published, tie=tie)
    greedy_cells = verdict_map(greedy_sweep, test, "greedy step", tie=tie) if greedy_sweep else []
    return [*verdict_map(sweep, test, "C0", tie=tie), alg2, *greedy_cells,
            *[authors_cell(name, test, rec, tie=tie) for name, rec in (authors or {}).items()]]


#: the two parts of the authors' construction a C2/C3 claim's rows swap in (:func:`construction_halves`): their adaptive
#: rules (``γ = min(g/(L·d), γ_max)``, ``d = ∫(s − q)²``, their fixed-step fallback) and their line search (the ``γ`` of
#: its last derivative call), each with how a diagnosis names the part
HALF_PARTS = {"the adaptive rules": ADAPTIVE, "the line search": ("line_search",)}


def equal_inputs(ours: pd.DataFrame, theirs: pd.DataFrame) -> str | None:
    """Why the records of two constructions of the step rules (``ours``, ``theirs``: :func:`compare_methods`' records)
    are not equal inputs for mixing their rules (None where they are): every rule of each on the same replicates, runs
    of the same length, and the same plain VI ``q_0`` evaluated alike (every ``t = 0`` row of a replicate, in both, with the
    same train log-likelihood and ELBO estimate: the same data, replicate seed and start, since ``q_0`` and its
    evaluation's draws come from the seed)."""
    check_table("ours", ours, ("method", "replicate", "iteration", "train_ll", "elbo_eval"))
    check_table("theirs", theirs, ("method", "replicate", "iteration", "train_ll", "elbo_eval"))
    reps = {(side, m): tuple(sorted(set(g.replicate))) for side, rec in (("ours", ours), ("theirs", theirs))
            for m, g in rec.groupby("method")}
    if len(set(reps.values())) > 1:
        return "their rules ran on other replicates than ours (" + "; ".join(
            f"{side} {label(m)}: {list(r)}" for (side, m), r in reps.items()) + ")"
    lengths = {int(v) for rec in (ours, theirs) for v in rec.groupby(["method", "replicate"]).iteration.max()}
    if len(lengths) > 1:
        return f"their runs' lengths differ ({sorted(lengths)} iterations)"
    both = pd.concat([ours, theirs], ignore_index=True)
    start = both[both.iteration == 0].groupby("replicate")[["train_ll", "elbo_eval"]]
    if not ((start.max() - start.min()).abs() <= 1e-12 * start.max().abs().clip(lower=1.0)).all(axis=None):
        return "their plain VI q_0 or its evaluation differs from ours at t = 0 (another data set, seed or start)"
    return None


def construction_halves(ours: pd.DataFrame, theirs: pd.DataFrame) -> dict | str:
    """The authors' construction split into its halves (session 40's review of C3.2: the split was in the line search,
    while the diagnosis blamed the adaptive rules): for each part of :data:`HALF_PARTS` that ``theirs`` holds, ``ours``
    with that part replaced by theirs -- ``{part: records}``, e.g. their adaptive rules against our line search, and our
    adaptive rules against their line search -- built from the existing records, no new run. Only for equal inputs
    (:func:`equal_inputs`); else the reason they are not paired (a string)."""
    why = equal_inputs(ours, theirs)
    if why is not None:
        return why
    parts = {part: rules for part, rules in HALF_PARTS.items() if set(rules) <= set(theirs.method)}
    if len(parts) < 2:
        return f"their records swap only {', '.join(parts) or 'no rule of ours'}: nothing to split"
    return {part: with_rules(ours, theirs[theirs.method.isin(rules)], rules=rules) for part, rules in parts.items()}


def halves_diagnosis(test, ours: pd.DataFrame, theirs: pd.DataFrame, name: str, *, measure=None, tie=None) -> tuple[str, list]:
    """Which half of the authors' construction ``name`` (their records ``theirs``) flips ``test``'s verdict on ``ours``
    (:func:`construction_halves`): the sentence of a ``construction`` diagnosis naming it, computed from the halves'
    cells (:func:`runs_cell`, each with its replicate support; ``tie`` as there), with ``measure(records)`` (a string:
    the claim's numbers) in each; and the cells. A half flips it where it holds decisively. Unequal inputs: the sentence
    says so and no half is paired (no cell)."""
    halves = construction_halves(ours, theirs)
    if isinstance(halves, str):
        return f"Their rules are not split into halves: the inputs are not equal ({halves}).", []
    show = (lambda r: "") if measure is None else (lambda r: f"; {measure(r)}")   # noqa: E731
    cells, said = [], {}
    for part, rec in halves.items():
        other = next(p for p in halves if p != part)
        setting = {"construction": f"the authors' {part.removeprefix('the ')}, our {other.removeprefix('the ')}"}
        c = runs_cell(setting, test, rec, tie=tie, construction="authors")
        cells.append(c)
        share = f", {c['support']:.0%} of resamples hold" if "support" in c else ""
        said[part] = f"{c['setting']['construction']}: {c['verdict']}{share}{show(rec)}"
    flips = [p for p, c in zip(halves, cells) if c["verdict"] == "holds"]
    shown = "; ".join(said.values())
    if len(flips) == 1:
        return (f"The split is in {flips[0]}: swapping in the authors' {flips[0].removeprefix('the ')} alone turns the "
                f"verdict, the other half does not ({shown}).", cells)
    if flips:
        return f"Either half alone turns the verdict ({shown}).", cells
    return f"Neither half alone turns the verdict ({shown}): only the authors' rules together do.", cells


#: how a ``paper`` diagnosis of :func:`diagnose_step_rules` opens its row-count check's clause, and how the clause closes
#: where the check rules out any first-step gain at the paper's row count: the claim it concludes on is the first greedy
#: step's ELBO gain (Eq. (2)-(4)), which a claim of another comparison rescopes
#: (:func:`~.boosting_claims.paper_on_stand_in`)
ROWS_CHECK_OPENS = "; with the training rows resampled to the paper's "
ROWS_RULED_OUT = ", ruling out a gain there: the subset's size is not the cause"


def diagnose_step_rules(test, what: str, *, sweep: dict, published: pd.DataFrame, C0, check: pd.DataFrame,
                        budget: str, data_note: str, check_rows: pd.DataFrame | None = None, n_rows: int | None = None,
                        greedy_sweep: dict | None = None, room: dict | None = None, authors: dict | None = None,
                        tie=None, ours: pd.DataFrame | None = None, measure=None):
    """The diagnosis of a C2/C3 claim that does not hold, from its verdict map (:func:`step_rule_cells`; ``tie`` as
    there: e.g. a claim on Tables 2-3's selected iterates is not measured in a cell where they are all plain VI).

    ``sweep`` maps each ``C_{-1}`` of the map to its records (:func:`verdict_map`), ``published`` holds
    the runs of :data:`ALG2_AS_PRINTED` at ``C0`` on the same seeds and budget, ``check`` is the
    first-step table of :func:`greedy_check` (evidence of what any step rule can gain on this data),
    ``check_rows`` the same on the training rows resampled to the paper's ``n_rows``
    (:func:`resample_rows`), ``greedy_sweep`` maps a description of a greedy-step setting the paper
    leaves open (e.g. the RELBO's entropy weight) to the runs with it, ``room`` is :func:`headroom`'s ELBO of
    the full-covariance Laplace approximation, beside plain VI's at the first step, ``authors`` maps a description
    of the rules as the authors' code runs them (:mod:`.boosting_rules`) to the records with them (cells of
    construction ``authors``; a cell whose records lack a rule, every run of it stopped, is not measured). Kind
    ``construction`` if the authors' rules rescue the claim -- with ``ours`` (the claim's own records) its text names the
    half of their construction that turns the verdict (:func:`halves_diagnosis`: their adaptive rules against our line
    search, our adaptive rules against their line search, from the existing records; ``measure(records)`` the numbers
    shown), not the adaptive rules by default --, or Alg. 2 as printed does and the authors' code's
    departures at the same ``C0`` do not; ``setting`` if some ``C_{-1}`` or greedy setting does, decisively;
    ``stand-in`` if the first step of a greedy construction gains nothing beyond its error here but does at the
    paper's row count (the same construction compared), or the row-count check neither shows nor rules out a gain there
    (its power stated); else ``paper`` -- and either of these two only when every
    measured cell of the map fails decisively (:func:`~.claims.paper_rules`), else :class:`~.claims.Unearned`
    (the claim is then ``inconclusive``; so where no cell is measured: C3.1's map at the paper scale, every cell's rules
    tied within the noise of its three replicates). The row-count check says the subset's size is not the cause only where it
    rules out any gain at the paper's row count; else it states its power (the smallest gain it detects) and the kind
    is ``stand-in``.
    """
    all_cells = step_rule_cells(test, sweep=sweep, published=published, C0=C0, greedy_sweep=greedy_sweep, authors=authors,
                                tie=tie)
    cells = all_cells[:len(sweep)]
    alg2 = all_cells[len(cells)]
    greedy_cells = all_cells[len(cells) + 1:len(all_cells) - len(authors or {})]
    authors_cells = all_cells[len(all_cells) - len(authors or {}):]
    gains = first_step_gain(check)
    first_gain = {name: g["gain"] for name, g in gains.items()}
    evidence = {"sweep": all_cells, "first step, best ELBO gain over plain VI": first_gain, "sweep budget": budget}
    if room is not None:
        t0 = float(check.loc[check.gamma == 0, "elbo"].iloc[0])
        evidence["ELBO of the full-covariance Laplace approximation, and its lead over plain VI"] = {
            "elbo": room["elbo"], "lead": room["elbo"] - t0}
    rows_gain = None
    if check_rows is not None:
        rows_gain = first_step_gain(check_rows)
        evidence[f"first step at {n_rows} resampled rows, best ELBO gain over plain VI"] = {
            name: {k: g[k] for k in ("gain", "se", "detectable")} for name, g in rows_gain.items()}
    rescued = [c["setting"]["rules"] for c in authors_cells if c["verdict"] == "holds"]
    if rescued:
        text = f"{what} It holds with the rules as the authors' code runs them ({rescued[0]}), not in this construction."
        if ours is not None:
            split, halves = halves_diagnosis(test, ours, authors[rescued[0]], rescued[0], measure=measure, tie=tie)
            text += f" {split}"
            evidence["halves"] = halves
        return {"kind": "construction", "text": text, "evidence": evidence}
    if alg2["verdict"] == "holds" and C0 in sweep and not test(sweep[C0]):
        return {"kind": "construction", "text": f"{what} It holds with Alg. 2 as the paper prints it and fails with the "
                "authors' code's departures from it (MIN_GAMMA, the predefined step on a negative gap, the kept C), same "
                f"C_-1 = {C0}, seeds and budget.", "evidence": evidence}
    # a cell at the main run's own C_-1 that holds differs from the main run by its budget, not by a setting
    rescue = [c["setting"]["C0"] for c in cells if c["verdict"] == "holds" and c["setting"]["C0"] != C0]
    if rescue:
        return {"kind": "setting", "text": f"{what} It holds with C_-1 = {rescue[0]} (the paper gives no C_-1).",
                "evidence": evidence}
    rescue = [c["setting"]["greedy step"] for c in greedy_cells if c["verdict"] == "holds"]
    if rescue:
        return {"kind": "setting", "text": f"{what} It holds with the greedy step's {rescue[0]} (a setting the paper leaves "
                "open).", "evidence": evidence}
    measured = {**evidence, "sweep": [c for c in all_cells if c["verdict"] != "not measured"]}
    if not measured["sweep"]:
        return Unearned(f"every cell of the verdict map ({budget}) is not measured: its comparison compares nothing there "
                        "(a tie by construction, e.g. every rule tied with the best within the noise), so no cell can "
                        "rescue or confirm the failure. What would decide it: the map's cells on more replicates", evidence)
    try:
        paper_rules(measured)
    except UnearnedDiagnosis as exc:
        return Unearned(str(exc), evidence)
    greedy_where = f", with the greedy step's {' and '.join(greedy_sweep)}" if greedy_sweep else ""
    text = (f"{what} It fails, decisively, at every C_-1 of the map ({budget}) and with Alg. 2 as printed{greedy_where}; at the first step the best gain over "
            f"plain VI of any weight γ is {max(first_gain.values()):.3g} nats (greedy constructions "
            f"{ {k: round(v, 3) for k, v in first_gain.items()} }), {data_note}")
    if room is not None:
        lead = evidence["ELBO of the full-covariance Laplace approximation, and its lead over plain VI"]["lead"]
        text += (f"; a full-covariance Gaussian (the Laplace approximation) lies {lead:.3g} nats above plain VI, so a "
                 "richer approximation exists that the greedy components do not reach" if lead > 0 else
                 f"; a full-covariance Gaussian (the Laplace approximation) lies {-lead:.3g} nats below plain VI: "
                 "this check finds no richer approximation to reach")
    if rows_gain is not None:
        at_rows = "; ".join(f"{k}: {g['gain']:.3g} ± {g['se']:.2g} nats, detects {g['detectable']:.3g} or more"
                            for k, g in rows_gain.items())
        # the same greedy construction at both row counts: a gain there that the subset does not show
        grows = [k for k, g in rows_gain.items() if g["beyond_2se"] and k in gains and not gains[k]["beyond_2se"]]
        if grows:
            return {"kind": "stand-in", "text": f"{text}; with the training rows resampled to the paper's {n_rows} the "
                    f"first step gains ({at_rows}) beyond the Monte-Carlo error where the subset's does not ({grows[0]}): "
                    "the subset's size is the cause.", "evidence": evidence}
        text += f"{ROWS_CHECK_OPENS}{n_rows} the first step gains {at_rows} (80 % power)"
        # a construction whose first step gains nothing here and whose check at the paper's row count lacks the power
        # to rule a gain out: the data differ from the paper's and nothing rules the difference out (rule 7)
        if any(not g["rules_out_gain"] and not (k in gains and gains[k]["beyond_2se"]) for k, g in rows_gain.items()):
            return {"kind": "stand-in", "text": f"{text}, which neither shows nor rules out a gain there: the subset's "
                    "size is not ruled out as the cause.", "evidence": evidence}
        text += ROWS_RULED_OUT
    return {"kind": "paper", "text": text + ".", "evidence": evidence}


def authors_cell(name: str, test, records: pd.DataFrame, *, tie=None) -> dict:
    """The verdict-map cell of the authors' rules run as ``name``: ``test`` on ``records`` with its
    replicate support (:func:`runs_cell`, ``tie`` as there), or ``not measured`` when a step rule has no run there
    (every run of it stopped, e.g. on a NaN of the authors' float32 estimate, and their plotting script leaves such runs
    out). A rule left with one run enters every resample as it is (:func:`replicate_support`); the cell's setting names
    such rules."""
    runs = records.groupby("method").replicate.nunique()
    setting = {"rules": name}
    if lone := [m for m in METHODS if runs.get(m, 0) == 1]:
        setting["rules with one complete run"] = ", ".join(label(m) for m in lone)
    if missing := [m for m in METHODS if runs.get(m, 0) == 0]:
        return cell({**setting, "rules without a complete run": ", ".join(label(m) for m in missing)}, None,
                    construction="authors")
    return runs_cell(setting, test, records, tie=tie, construction="authors")


def greedy_check(data: dict, constructions: dict, *, family: str = "laplace", gammas=(0.001, 0.01, 0.05, 0.2, 2 / 3),
                 n_eval: int = 2000, rng: np.random.Generator) -> pd.DataFrame:
    """The first boosting step under each greedy construction (``{name: greedy_step keywords}``):
    plain VI ``q_0``, the greedy component ``s`` at ``t = 1``, both components' RELBO on common
    draws (the greedy step's invariant: ``s`` must score at least ``q_0``'s) and the ELBO of
    ``(1 − γ) q_0 + γ s`` for each ``γ`` of ``gammas`` (``γ = 0``: plain VI), ``n_eval`` draws each
    with standard errors, and its gain over plain VI on common random numbers (paired draws,
    :func:`~inferopt.boosting.estimates.elbo_gain`: ``q_0``'s part of the mixture cancels draw by draw, so the
    standard error is that of the difference). If no ``γ`` raises the ELBO, no step rule can make the first step boost.

    One row per (construction, γ): ``construction``, ``gamma``, ``elbo``, ``elbo_se``, ``gain``, ``gain_se`` (0 at
    ``γ = 0``), ``relbo_s``, ``relbo_q0``, ``relbo_se``, ``distance`` (``‖μ_s − μ_0‖``), ``scale_ratio`` (median
    ``b_s / b_0``)."""
    rng = as_generator(rng)
    if not isinstance(data, dict) or not {"Z", "y"} <= set(data):
        raise TypeError(f"data must be a mapping with 'Z' and 'y' (logistic_data's); got {type(data).__name__}")
    target = LogisticTarget(data["Z"], data["y"])
    if not isinstance(constructions, dict) or not constructions or not all(isinstance(v, dict) for v in constructions.values()):
        raise TypeError("constructions must be a non-empty mapping {name: greedy_step keyword arguments}")
    family = check_choice("family", family, ("laplace", "gaussian"))
    gammas = [check_real(f"gammas[{i}]", g, low=0.0, high=1.0, low_open=True) for i, g in enumerate(gammas)]
    if not gammas:
        raise ValueError("gammas must hold at least one step size in (0, 1]")
    n_eval = check_size("n_eval", n_eval, low=2, item_bytes=8 * (target.dim + len(data["y"])), item="draw")
    rows = []
    for name, settings in constructions.items():
        seed = int(rng.integers(2**32))
        s0 = greedy_step(target, family, rng=np.random.default_rng([seed, 0]), **settings).component
        q0 = Mixture.from_component(s0)
        s1 = greedy_step(target, family, q0, rng=np.random.default_rng([seed, 1]), **settings).component
        # the RELBO at the optimised scale (a component stored with its standard deviation was optimised at b = sd/√var_f)
        shrink = 0.5 * np.log(s1.family.variance_per_dim()) if settings.get("stored_scale") == "stddev" else 0.0
        s1_opt = Component(s1.family, s1.loc, s1.log_scale - shrink)
        (r_s, r_q0), r_se = relbo_common(target, [s1_opt, s0], q0, relbo_lambda(1), n_samples=n_eval,
                                          rng=np.random.default_rng([seed, 2]))
        for gamma in (0.0, *gammas):
            q = q0.add(s1, gamma) if gamma > 0 else q0
            value, se = elbo(target, q, n_samples=n_eval, rng=np.random.default_rng([seed, 3]), stderr=True)
            gain, gain_se = (elbo_gain(target, q, s0, n_samples=n_eval, rng=np.random.default_rng([seed, 4]))
                             if gamma > 0 else (0.0, 0.0))
            rows.append({"construction": name, "gamma": float(gamma), "elbo": value, "elbo_se": se, "gain": gain,
                         "gain_se": gain_se, "relbo_s": r_s,
                         "relbo_q0": r_q0, "relbo_se": float(r_se.max()),
                         "distance": float(np.linalg.norm(s1.loc - s0.loc)),
                         "scale_ratio": float(np.median(s1.scale / s0.scale))})
    return pd.DataFrame(rows)


def headroom(data: dict, *, n_eval: int = 2000, rng: np.random.Generator) -> dict:
    """The ELBO of a richer approximation than one mean-field component: the Laplace approximation
    ``N(θ̂, H⁻¹)`` (full covariance, :func:`~inferopt.models.laplace_approximation`), ``E_q log p̃ + H(q)``
    with ``H(q) = D/2 (1 + log 2π) − Σ log diag L`` (``H = L Lᵀ``), ``n_eval`` draws. How far it lies
    above plain VI bounds from below what a mixture could gain: ``{"elbo", "elbo_se"}``."""
    if not isinstance(data, dict) or not {"Z", "y"} <= set(data):
        raise TypeError(f"data must be a mapping with 'Z' and 'y' (logistic_data's); got {type(data).__name__}")
    target = LogisticTarget(data["Z"], data["y"])
    n_eval = check_size("n_eval", n_eval, low=2, item_bytes=8 * (target.dim + len(data["y"])), item="draw")
    approx = laplace_approximation(target.model)
    draws = approx.sample(n_eval, as_generator(rng))
    log_p = target.log_density(draws)
    entropy = 0.5 * target.dim * (1.0 + np.log(2.0 * np.pi)) - float(np.log(np.diag(approx.prec_chol)).sum())
    return {"elbo": float(log_p.mean() + entropy), "elbo_se": float(log_p.std(ddof=1) / np.sqrt(n_eval))}


def first_step_tables(check: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two views of a :func:`greedy_check` table: the ELBO and its gain over plain VI (on common random numbers, with
    its standard error) per ``γ`` and construction, and per construction the greedy step's invariant (``relbo_s``
    against ``relbo_q0``) with where its component lands (``distance``, ``scale_ratio``)."""
    return (check.pivot_table(index="gamma", columns="construction", values=["elbo", "gain", "gain_se"]),
            check.groupby("construction")[["relbo_s", "relbo_q0", "relbo_se", "distance", "scale_ratio"]].first())


def plot_first_step(ax, check: pd.DataFrame) -> None:
    """The first step's ELBO gain over plain VI against ``γ`` (± 2 standard errors, on common random numbers), one line
    per construction of a :func:`greedy_check` table, on a log ``γ`` axis."""
    for name, sub in check.groupby("construction", sort=False):
        sub = sub[sub.gamma > 0]
        ax.errorbar(sub.gamma, sub.gain, yerr=2 * sub.gain_se, marker="o", capsize=3, label=f"greedy step: {name}")
    ax.axhline(0.0, color="k", ls=":", label="plain VI (γ = 0)")
    ax.set_xscale("log")
    ax.set_xlabel("weight γ of the first greedy component")
    ax.set_ylabel("ELBO((1-γ) q0 + γ s) - ELBO(q0)  (± 2 se)")
    ax.set_title("First boosting step: gain over plain VI")
    ax.legend()


def plot_per_iteration(ax, records: pd.DataFrame, column: str, colors: dict, methods=PAPER_RULES) -> None:
    """Mean over replicates of ``column`` against the iteration, shaded ± one std (Fig. 1 centre/right, Fig. 2).

    Each method has its own open marker, larger for the earlier methods, so that curves lying on
    top of each other stay visible as nested markers."""
    for j, m in enumerate(methods):
        sub = records[records.method == m].groupby("iteration")[column]
        mean, std = sub.mean(), sub.std(ddof=1).fillna(0.0)
        ax.plot(mean.index, mean.values, color=colors[label(m)], label=label(m), ls="--" if m == "predefined" else "-",
                marker=MARKERS[j % len(MARKERS)], ms=11 - 1.5 * j, mfc="none", mew=1.2,
                markevery=max(1, len(mean) // 12))
        ax.fill_between(mean.index, mean - std, mean + std, color=colors[label(m)], alpha=0.15, lw=0)
    ax.set_xlabel("boosting iteration t")
