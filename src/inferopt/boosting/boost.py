"""Boosting VI runs with the step rules of Dresdner et al. (2021) on the shared Frank-Wolfe core.

Step rules (``step``, Sec. 3-4, Alg. 1-2), each a Frank-Wolfe variant of :func:`inferopt.fw.frank_wolfe`
with a step rule of :mod:`inferopt.fw.steps`:

==============  ==========  ===========================================================
step            variant     step-size selection
==============  ==========  ===========================================================
predefined      fw          ``2/(t+2)`` (Locatello et al. 2018a, Eq. (5))
line_search     fw          :class:`~inferopt.fw.StochasticLineSearch` (projected stochastic
                            gradient on γ, the authors' code; ``ls_returns='last_call'``:
                            :class:`AuthorsLineSearch`, the step their code applies)
adafw           fw          :class:`~inferopt.fw.Backtracking` (Alg. 2)
adaafw          away        Alg. 2 with away steps, ``γ_max = α_v/(1 − α_v)``
adapfw          pairwise    Alg. 2 with pairwise steps, ``γ_max = α_v``
==============  ==========  ===========================================================

Alg. 2 here: ``C ← η C``; ``γ = min(g_t/C, γ_max)``; accept if
``f̂(q_t + γ d_t) ≤ f̂(q_t) − γ g_t + C γ²/2 + 2 ε_t`` (Eq. (11), ``ε_t = ε₀/t²``), else
``C ← τ C``; after ``IMAX`` failed tries the predefined step ``2/(t+2)`` is taken (the
"fallback"), keeping the grown ``C``.  A step with ``γ = γ_max`` on an away or pairwise
direction is a *drop step*: the component leaves the mixture.

:func:`register_step` adds a step rule of one's own to :data:`STEPS` (a Frank-Wolfe step, variant
``fw``); the experiment layer's :func:`inferopt.experiment.register_method` calls it.

Each rule takes its own settings (:data:`RULE_SETTINGS`); :func:`boost` refuses a setting its rule
does not use, and :func:`step_settings` picks a rule's settings out of settings shared by several.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace

import numpy as np
import pandas as pd

from .._progress import Progress
from .._validation import check_choice, check_int, check_real, check_size
from ..fw import ActiveSet, Backtracking, FWResult, StochasticLineSearch, frank_wolfe
from ..fw.steps import StepRegistry, ZeroStep
from .mixture import Mixture
from .problem import BoostingProblem

#: the step rules: the paper's (:data:`BUILTIN`), then those added by :func:`register_step`
STEPS = ["predefined", "line_search", "adafw", "adaafw", "adapfw"]
BUILTIN = tuple(STEPS)
VARIANT = {"predefined": "fw", "line_search": "fw", "adafw": "fw", "adaafw": "away", "adapfw": "pairwise"}
_REGISTERED = StepRegistry(STEPS, "boosting step rule")
#: the settings of the backtracking rules (Alg. 2 and the authors' departures from it)
BACKTRACKING_SETTINGS = ("C0", "eta", "tau", "eps0", "imax", "min_gamma", "on_ascent", "fallback_C", "fallback",
                         "fallback_direction")
#: every setting of a step rule (keywords of :func:`make_step`), and the ones each paper rule uses; a
#: registered rule uses none (issue 47: a setting a rule does not use is refused, not ignored)
SETTINGS = (*BACKTRACKING_SETTINGS, "ls_iter", "ls_lr", "ls_returns")
RULE_SETTINGS = {"predefined": (), "line_search": ("ls_iter", "ls_lr", "ls_returns"), "adafw": BACKTRACKING_SETTINGS,
                 "adaafw": BACKTRACKING_SETTINGS, "adapfw": BACKTRACKING_SETTINGS}


def register_step(name: str, rule) -> None:
    """Make ``rule`` a step rule of :func:`boost` named ``name`` (appended to :data:`STEPS`): a
    :class:`~inferopt.fw.steps.StepRule` (reset at the start of every run) or a function
    ``rule(line) -> StepOutcome or step size`` of the :class:`~inferopt.fw.steps.Line` of the
    step. It takes Frank-Wolfe steps towards the new component; the settings of the paper's
    rules (``C0``, ``eta``, ...) are not its own: :func:`boost` refuses them with it. The same
    rule under its name again does nothing; a taken name is a ``ValueError``."""
    _REGISTERED.add(name, rule)


def check_step(name: str, rule) -> None:
    """What :func:`register_step` requires, without registering."""
    _REGISTERED.check(name, rule)


#: the step a line search applies (``ls_returns``): ``'final'``, the γ its last update reached (ours,
#: :class:`~inferopt.fw.StochasticLineSearch`); ``'last_call'``, the γ of its last derivative call
#: (the authors' code, :class:`AuthorsLineSearch`)
LS_RETURNS = ("final", "last_call")


class AuthorsLineSearch(StochasticLineSearch):
    """The line search as the authors' ``line_search_dkl`` (``optim/blr_step_size.py``, the version from their commit
    f600232 to 7768b4f, whose step their README's ``--linit_fixed`` sets) applies it: the updates of
    :class:`~inferopt.fw.StochasticLineSearch` (``γ ← proj_[0,1](γ − lr/(i+1) φ'(γ))``, a clipped ``γ`` staying in the
    search, a stop where an update moves ``γ`` by less than ``tol``), but the mixture it returns is built at the top of
    each pass, at the ``γ`` where that pass's derivative is taken (their ``new_weights``; the caller adds
    ``step_result['weights']``): the ``γ`` of the last derivative call, before its update. After ``max_iter`` passes
    that is the ``γ`` of ``max_iter − 1`` updates (where the search swings between 0 and 1, the other end from ours);
    at the tolerance stop, within ``tol`` of ours. The work is the same: ``n_evals`` derivative calls."""

    def __call__(self, line):
        if line.dphi is None:
            return super().__call__(line)   # (refused there, with the reason)
        called = []

        def dphi(gamma: float) -> float:
            called.append(gamma)
            return line.dphi(gamma)

        out = super().__call__(replace(line, dphi=dphi))
        return replace(out, gamma=called[-1])


class MonteCarloSlack:
    """The slack ``2 ε_t`` of Eq. (11) with ``ε_t = ε₀ / t²`` (picklable, unlike a lambda)."""

    def __init__(self, eps0: float) -> None:
        self.eps0 = check_real("eps0", eps0, low=0.0)

    def __call__(self, t: int) -> float:
        return 2.0 * self.eps0 / t**2


def make_step(step: str, *, C0: float | None = None, eta: float = 0.9, tau: float = 2.0, eps0: float = 0.1,
                imax: int = 10, ls_iter: int = 10, ls_lr: float = 0.1, ls_returns: str = "final", min_gamma: float = 0.0,
                on_ascent: str = "zero", fallback_C: str = "grown", fallback: str = "2/(t+2)",
                fallback_direction: str = "line"):
    """``(variant, step rule)`` of ``step`` (one of :data:`STEPS`).

    C0, eta, tau, eps0, imax : Alg. 2's initial curvature ``C_{-1}`` (``None``: estimated at the
        first step from a finite difference of ``⟨∇f(q + γd), d⟩``, Pedregosa et al. 2020),
        shrink ``η ≤ 1``, growth ``τ > 1``, ``ε₀`` and ``IMAX`` (tries before the fallback).
    ls_iter, ls_lr : the line search's iterations and learning rate.
    ls_returns : the step the line search applies (:data:`LS_RETURNS`): ``'final'`` (ours) or ``'last_call'``, the
        ``γ`` of its last derivative call, as the authors' code applies it (:class:`AuthorsLineSearch`).
    min_gamma, on_ascent, fallback_C : the authors' code's departures from Alg. 2 (see
        :class:`~inferopt.fw.Backtracking`): their ``MIN_GAMMA = 0.01`` ends the backtracking with
        the predefined step once a tried ``γ`` falls below it; a non-descent direction gets the
        predefined step (``'fallback'``) rather than none (``'zero'``, Alg. 2); after a fallback
        the curvature estimate is the one before the step (``'previous'``), not the grown one
        (``'grown'``, Alg. 2 line 7).
    fallback, fallback_direction : the step after ``IMAX`` failed tries (``'2/(t+2)'``, Alg. 2; ``'0'``, the
        authors' toy script of Fig. 1 left) and where it goes (``'line'``: along the step's direction;
        ``'fw'``: a Frank-Wolfe step adding ``s``, the authors' ``fixed(...)`` for every variant).
        With :func:`boost`'s ``distance`` these make the rules as the authors' code runs them
        (:data:`AUTHORS_RULES`).

    A setting the rule does not use (:data:`RULE_SETTINGS`) given other than at its default is
    refused (issue 47: ``make_step('predefined', eta=5)`` ignored it).
    """
    check_choice("step", step, STEPS)
    given = dict(C0=C0, eta=eta, tau=tau, eps0=eps0, imax=imax, ls_iter=ls_iter, ls_lr=ls_lr, ls_returns=ls_returns,
                 min_gamma=min_gamma,
                 on_ascent=on_ascent, fallback_C=fallback_C, fallback=fallback, fallback_direction=fallback_direction)
    unused = [k for k, v in given.items() if k not in RULE_SETTINGS.get(step, ()) and not _is_default(v, _DEFAULTS[k])]
    if unused:
        raise ValueError(_not_used(step, unused[0], given[unused[0]]))
    if step in _REGISTERED.rules:
        return "fw", _REGISTERED.rules[step]
    if step == "predefined":
        return "fw", "2/(t+2)"
    if step == "line_search":
        ls_iter, ls_lr = check_int("ls_iter", ls_iter, low=1), check_real("ls_lr", ls_lr, low=0.0, low_open=True)
        rule = AuthorsLineSearch if check_choice("ls_returns", ls_returns, LS_RETURNS) == "last_call" else StochasticLineSearch
        return "fw", rule(max_iter=ls_iter, lr=ls_lr)
    imax = check_int("imax", imax, low=1)
    check_choice("fallback", fallback, FALLBACKS)
    rule = Backtracking(C0, eta=eta, tau=tau, slack=MonteCarloSlack(eps0), max_tries=imax,
                        fallback=ZeroStep() if fallback == "0" else fallback,
                        min_gamma=min_gamma, on_ascent=on_ascent, fallback_C=fallback_C,
                        fallback_direction=fallback_direction)
    return VARIANT[step], rule


#: the step after a failed search: the predefined step (Alg. 2) or none (the authors' toy script)
FALLBACKS = ("2/(t+2)", "0")
#: the adaptive rules as the authors' ``optim/blr_step_size.py`` runs them (with :func:`boost`'s ``distance``
#: ``'exact'`` or ``'float32'``): ``γ = min(g/(L·d), γ_max)``, the test ``f(q + γd) ≤ f(q) − γg + γ²Ld/2`` without
#: a Monte-Carlo slack (``eps0 = 0``), ``MIN_GAMMA = 0.01``, at most 10 tries, the fixed step (a Frank-Wolfe step
#: adding ``s`` with ``2/(t+2)``) on a gap ``≤ 0`` and after a failed search, the Lipschitz estimate kept then
AUTHORS_RULES = dict(eps0=0.0, imax=10, min_gamma=0.01, on_ascent="fallback", fallback_C="previous",
                     fallback_direction="fw")
#: the line search as the authors' ``line_search_dkl`` applies its step: the ``γ`` of its last derivative call
#: (:class:`AuthorsLineSearch`)
AUTHORS_LINE_SEARCH = dict(ls_returns="last_call")


#: :func:`make_step`'s defaults: a setting at its default is no setting given
_DEFAULTS = {p.name: p.default for p in inspect.signature(make_step).parameters.values() if p.kind == p.KEYWORD_ONLY}


def step_settings(step: str, settings: dict, *, strict: bool = True) -> dict:
    """The entries of ``settings`` (keywords of :func:`make_step`) that the rule ``step`` uses. Every
    key must be a setting of some rule (:data:`SETTINGS`) and every value allowed (checked by the
    rule that uses it, whichever ``step`` is); ``strict``: a setting ``step`` does not use is refused
    (:func:`boost`), else left out (settings shared by several rules, as the experiments pass them)."""
    check_choice("step", step, STEPS)
    if not isinstance(settings, dict):
        raise TypeError(f"settings must be a mapping of step-rule settings; got {type(settings).__name__}")
    unknown = [k for k in settings if k not in SETTINGS]
    if unknown:
        raise ValueError(f"{unknown[0]} is not a setting of any step rule; the rules' settings are {list(SETTINGS)}")
    used = RULE_SETTINGS.get(step, ())
    if strict:
        unused = [k for k in settings if k not in used]
        if unused:
            raise ValueError(_not_used(step, unused[0], settings[unused[0]]))
    for rule in ("adafw", "line_search"):       # the values, by the rule that uses them
        make_step(rule, **{k: v for k, v in settings.items() if k in RULE_SETTINGS[rule]})
    return {k: v for k, v in settings.items() if k in used}


def _is_default(value, default) -> bool:
    if value is default:
        return True
    if default is None or isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Number | str):
        return False
    try:
        return bool(value == default)
    except (TypeError, ValueError):
        return False


def _not_used(step: str, key: str, value) -> str:
    used = ", ".join(RULE_SETTINGS.get(step, ())) or "none of the rules' settings"
    users = ", ".join(r for r, keys in RULE_SETTINGS.items() if key in keys) or "none"
    return (f"{key} = {value!r} is not a setting of step {step!r}, which would ignore it (it uses {used}): leave it "
            f"out, or choose a rule that uses it ({users})")




@dataclass(repr=False)
class BoostingResult(FWResult):
    """A boosting run: the core's :class:`~inferopt.fw.FWResult` (``objective`` = ``−ELBO`` per
    iterate, ``x`` the mixture weights of the components ``atoms``), plus the final ``mixture``,
    the per-iteration ``record`` (one row per iterate ``t = 0..T``, see :func:`boost`) and the
    ``problem``."""

    mixture: Mixture | None = None
    record: pd.DataFrame = field(default_factory=pd.DataFrame)
    problem: BoostingProblem | None = None


def _step_types(info: dict) -> list[str]:
    """'fw' / 'away' / 'pairwise' / 'drop' / 'fallback' per step."""
    out = []
    for kind, drop, status in zip(info["step_type"], info["drop"], info["step_status"]):
        out.append("fallback" if status == "fallback" else ("drop" if drop else str(kind)))
    return out


def boost(target, step: str = "adafw", *, rng, max_iter: int = 50, family: str = "laplace",
          n_samples: int = 100, reuse_samples: bool = True, ls_draws: str = "iteration", estimates: str = "stratified",
          greedy: dict | None = None, distance: str = "unit",
          lmo: Callable | None = None, start=None, evaluate: Callable[[Mixture], dict] | None = None,
          progress: bool = False, **rule_kwargs) -> BoostingResult:
    """Boosting black-box VI (Alg. 1) with the step rule ``step`` for ``max_iter`` steps.

    The first component is plain VI (the greedy step without a current mixture, or ``start``), then each
    iteration runs the greedy step (RELBO, λ = 1/√(t+1)) and the step rule.  ``rule_kwargs``
    go to :func:`make_step` (``C0``, ``eta``, ``tau``, ``eps0``, ``imax``, ``ls_iter``,
    ``ls_lr``, ``ls_returns``): only the settings ``step`` uses (:data:`RULE_SETTINGS`), any other is refused;
    ``start`` (the first component given, e.g. :func:`~.relbo.converged_vi`'s; ``None``: plain VI by the greedy step),
    ``greedy``, ``lmo``, ``n_samples``, ``reuse_samples``, ``ls_draws``, ``estimates``, ``distance`` to
    :class:`~.problem.BoostingProblem` (``distance``: the ``‖d‖²`` of the backtracking rules; with
    ``'float32'`` a run can stop early, as the authors' runs do: ``record.attrs["aborted_at"]`` is then the
    step it could not take, else ``None``).  ``evaluate(q)`` is called at every iterate (outside the
    timed parts) and its dict joins the record.

    ``record`` columns: ``iteration``; ``elbo`` (``−objective``; with a normalised target
    ``kl`` = ``objective``); ``objective``; ``gap`` (Frank-Wolfe gap estimate at the iterate,
    NaN at the last); per step (NaN / '' at ``t = 0``): ``gamma``, ``C`` (curvature estimate),
    ``step_type`` (``init`` / ``fw`` / ``away`` / ``pairwise`` / ``drop`` / ``fallback``),
    ``slope``, ``value`` and ``bound`` (the last sufficient-decrease test), ``eps`` (``2ε_t``),
    ``n_tries``; ``n_components``; CPU seconds per iteration, timed as the authors' script times
    them (``times.csv``: one line per iteration, the greedy step and the evaluations outside):
    ``time_greedy`` (the greedy step alone), ``time_step`` (the step-size selection with every
    Monte-Carlo estimate it rests on, charged alike to every rule: the Frank-Wolfe gap's
    estimates at ``s`` and at ``q_t`` -- each of the authors' rules estimates the gap inside its
    timed call -- which also give ``f(q_t)`` for the sufficient-decrease test, then the rule's own
    trials), ``time_iter`` = ``time_greedy + time_step``, and the running sum ``time``;
    ``time_eval`` (the estimate at the new iterate, which the next step's ``time_step`` includes);
    the work of the same part, hardware-neutral: ``work_step``, the evaluations of ``log p̃`` at a draw
    (each a pass of the log-likelihood over every training row) that ``time_step`` covers (the line search's
    fresh draws at every derivative call with ``ls_draws='authors'``, its draws once with ``'fixed'``). The greedy
    step's work is the same for every rule and is left out, as its time is.
    """
    max_iter = check_size("max_iter", max_iter, item_bytes=8 * 20, item="iteration (its record row)")
    variant, rule = make_step(step, **step_settings(step, rule_kwargs))
    problem = BoostingProblem(target, family, rng=rng, n_samples=n_samples, reuse_samples=reuse_samples,
                              ls_draws=ls_draws, estimates=estimates, greedy=greedy, distance=distance,
                              lmo=lmo, start=start, variant=variant)
    evals: list[dict] = []
    # a bar on request; a warning for a long call
    bar = Progress(f"boost({step!r})", max_iter + 1, progress, size="max_iter")

    def callback(t, active):
        if evaluate is not None:
            evals.append(dict(evaluate(problem.mixture(active))))
        bar.update(1)

    res = frank_wolfe(problem, variant=variant, step=rule, max_iter=max_iter, tol=None, callback=callback,
                      final_gap=False)
    bar.close()
    info = res.info
    T = res.n_iter
    pad = lambda a: np.concatenate([[np.nan], np.asarray(a, dtype=float)])  # noqa: E731
    t = np.arange(T + 1)
    eps = [rule.slack(k) if isinstance(rule, Backtracking) else np.nan for k in range(1, T + 1)]
    time_greedy = np.asarray(problem.time_greedy[:T + 1], dtype=float)
    # the estimate at q_t: in the first objective for t = 0 (with the first greedy step), then the trace's
    time_eval = np.concatenate([[info["time_init"] - time_greedy[0]], np.asarray(info["time_eval"], dtype=float)])
    time_step = pad(info["time_step"]) + pad(info["time_lmo"]) - time_greedy   # + the estimate at s
    time_step[0] = 0.0
    time_step[1:] += time_eval[:-1]               # + the estimate at q_t (the gap's, and f(q_t) of Alg. 2 line 5)
    # the running work counts at each move (the first: the initial component's, before the estimate at q_0);
    # step t's work: from the estimate at q_{t-1} to its own move, as its time_step (an aborted step is not recorded)
    work_step = pad(np.diff(np.asarray(problem.work_at_move[:T + 1], dtype=float)))
    work_step[0] = 0.0
    record = pd.DataFrame({
        "iteration": t,
        "objective": res.objective,
        "elbo": -res.objective,
        "gap": info["gap"],
        "gamma": pad(info["gamma"]),
        "C": pad(info["C"]),
        "step_type": ["init", *_step_types(info)],
        "slope": pad(info["slope"]),
        "value": pad(info["value"]),
        "bound": pad(info["bound"]),
        "eps": pad(eps),
        "n_tries": pad(info["n_evals"]),
        "n_components": np.concatenate([[1], info["n_active"]]).astype(int),
        "time_greedy": time_greedy,
        "time_step": time_step,
        "time_eval": time_eval,
        "work_step": work_step,
    })
    record["time_iter"] = record["time_greedy"] + record["time_step"]
    record["time"] = record["time_iter"].cumsum()
    if evals:
        record = pd.concat([record, pd.DataFrame(evals)], axis=1)
    record.attrs["aborted_at"] = T + 1 if res.message.startswith("aborted") else None
    final = ActiveSet()
    final.assign(res.atoms, res.x)
    return BoostingResult(**{f.name: getattr(res, f.name) for f in fields(FWResult)}, mixture=problem.mixture(final),
                          record=record, problem=problem)
