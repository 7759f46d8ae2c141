"""Validation of an experiment notebook's parameters, before any computation.

A bad value given to a stage (``dvc exp run -S D1.n_samples=-5``) should fail at once with a
message naming the key and what is allowed, not deep inside numpy. :data:`SPECS` gives, per
experiment id, the kind and allowed range of every key of its section of ``params.yaml``
(and ``params_paper.yaml``); :func:`check_parameters` applies it (the
:class:`~inferopt.experiment.Experiment` constructor calls it). The rules reuse
:mod:`inferopt._validation`, so each rule is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .._validation import check_choice, check_int, check_real
from .claims import MIN_SWEEP


class ParameterError(ValueError):
    """A notebook parameter outside its allowed values (the message names the key)."""


@dataclass(frozen=True)
class Rule:
    """What a key allows: ``check(name, value)`` raises ``ValueError``/``TypeError`` naming
    ``name``; ``allowed`` says it in words; ``optional``: ``None`` (YAML ``null``) is allowed too."""

    check: Callable[[str, object], object]
    allowed: str
    optional: bool = False

    def or_null(self) -> Rule:
        return Rule(self.check, f"{self.allowed}, or null", optional=True)


def Int(low: int | None = None, high: int | None = None) -> Rule:  # noqa: N802 - rule constructors read as types
    return Rule(lambda n, v: check_int(n, v, low=low, high=high), _range("an integer", low, high))


def Real(low: float | None = None, high: float | None = None, *, low_open: bool = False,  # noqa: N802
         high_open: bool = False) -> Rule:
    return Rule(lambda n, v: check_real(n, v, low=low, high=high, low_open=low_open, high_open=high_open),
                _range("a real number", low, high, low_open, high_open))


def Choice(*options: str) -> Rule:  # noqa: N802
    return Rule(lambda n, v: check_choice(n, v, options), f"one of {list(options)}")


def Flag() -> Rule:  # noqa: N802
    def check(name, value):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be true or false; got {value!r}")
    return Rule(check, "true or false")


def ListOf(item: Rule, *, length: int | None = None, min_length: int = 1) -> Rule:  # noqa: N802
    def check(name, value):
        if isinstance(value, str | bytes | Mapping) or not hasattr(value, "__len__"):
            raise TypeError(f"{name} must be a list; got {value!r}")
        if length is not None and len(value) != length:
            raise ValueError(f"{name} must have {length} entries; got {len(value)}")
        if len(value) < min_length:
            raise ValueError(f"{name} must have at least {min_length} entries; got {len(value)}")
        for i, v in enumerate(value):
            if not (v is None and item.optional):
                item.check(f"{name}[{i}]", v)
    size = f"{length} entries" if length is not None else f"at least {min_length} entries"
    return Rule(check, f"a list ({size}) of {item.allowed}")


def Record(**fields: Rule) -> Rule:  # noqa: N802
    """A mapping with exactly these keys (e.g. a panel ``{s: 1, density: random}``)."""
    def check(name, value):
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be a mapping with keys {sorted(fields)}; got {value!r}")
        unknown = sorted(set(value) - set(fields))
        if unknown:
            raise ValueError(f"{name} has unknown keys {unknown}; allowed: {sorted(fields)}")
        for key, rule in fields.items():
            if key in value:
                _apply(f"{name}.{key}", rule, value[key])
    return Rule(check, "a mapping {" + ", ".join(f"{k}: {r.allowed}" for k, r in fields.items()) + "}")


def _range(kind: str, low, high, low_open: bool = False, high_open: bool = False) -> str:
    parts = [kind]
    if low is not None:
        parts.append(f"{'>' if low_open else '>='} {low}")
    if high is not None:
        parts.append(f"{'<' if high_open else '<='} {high}")
    return " ".join(parts[:1]) + (" " + " and ".join(parts[1:]) if len(parts) > 1 else "")


def _apply(name: str, rule: Rule, value) -> None:
    if value is None and rule.optional:
        return
    try:
        rule.check(name, value)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"parameter {name}: {exc} (allowed: {rule.allowed})") from None


# --- the shared vocabulary --------------------------------------------------------------------
COUNT = Int(low=1)
SEED = Int(low=0)
FRACTION = Real(0.0, 1.0, low_open=True, high_open=True)         # a share strictly inside (0, 1)
POSITIVE = Real(0.0, low_open=True)
NONNEG = Real(0.0)
NAMES = ListOf(Rule(lambda n, v: _nonempty_string(n, v), "a name"))
IHT_STEP = Choice("exact", "authors")
CORESET_METHODS = ("uniform", "giga", "frank_wolfe", "sparsevi", "iht", "a_iht", "a_iht_ii", "a_iht_batch")
METHOD_NAMES = ListOf(Choice(*CORESET_METHODS, *(f"{m}_refit" for m in CORESET_METHODS)))
FUNCTION = Choice("log", "sqrt", "exp")
DISTRIBUTION = Choice("optimal", "poisson", "negative binomial", "negbin")
PANEL = Record(s=Int(1, 4), density=Choice("random", "uniform"))
GREEDY = Record(max_iter=Int(low=0), n_samples=COUNT, lr=POSITIVE, average=Real(0.0, 1.0, high_open=True),
                lr_decay=ListOf(POSITIVE, length=2).or_null(), start=Choice("draw", "random"),
                scale_param=Choice("exp", "softplus"), stored_scale=Choice("scale", "stddev"),
                init_log_scale=Real(), log_scale_bounds=ListOf(Real(), length=2).or_null(),
                anneal=Choice("1oversqrt", "constant"))


def _nonempty_string(name, value):
    if not isinstance(value, str) or not value:
        raise TypeError(f"{name} must be a non-empty string; got {value!r}")


def _module_function(name, value):
    if not isinstance(value, str) or value.count(":") != 1 or not all(value.split(":")):
        raise ValueError(f"{name} must be a 'module:function' string; got {value!r}")
    if value.startswith("."):
        raise ValueError(f"{name} names a relative module {value.split(':')[0]!r}, which has no package to be "
                         f"relative to: give its full dotted name; got {value!r}")


def check_extra_modules(specs) -> None:
    """Each ``"module:function"`` of ``specs`` (already of that form) names a module that can be found
    on the import path, without importing it (issue 47: a missing module failed inside the kernel
    with importlib's own error). Raises :class:`ParameterError` naming ``extra_methods[i]``."""
    import importlib.util

    for i, spec in enumerate(specs or []):
        module = spec.split(":")[0]
        try:
            found = importlib.util.find_spec(module)
        except (ImportError, ValueError) as exc:
            found, why = None, f"{type(exc).__name__}: {exc}"
        else:
            why = "no such module on the import path (the project folder and PYTHONPATH)"
        if found is None:
            raise ParameterError(f"parameter extra_methods[{i}]: module {module!r} of {spec!r} cannot be imported: "
                                 f"{why} (allowed: 'module:function' of an importable module)")


#: a researcher's own methods (:mod:`inferopt.experiment.extra`), ``[]`` for none
EXTRA_METHODS = ListOf(Rule(_module_function, "a 'module:function' string"), min_length=0)
_CONJUGATE = dict(seed=SEED, max_iter=COUNT, step=IHT_STEP, sparsevi_steps=COUNT)
_GLM = dict(seed=SEED, datasets=NAMES, methods=METHOD_NAMES, ks=ListOf(COUNT), n_trials=COUNT,
            n_subsample=COUNT.or_null(), n_projections=Int(low=2), max_iter=COUNT, sparsevi_steps=COUNT,
            sparsevi_samples=Int(low=2), sparsevi_step_scale=POSITIVE, sparsevi_authors_trials=Int(low=0),
            batch_fraction=Real(0.0, 1.0, low_open=True), long_factor=COUNT,
            claim_k_min=COUNT, n_jobs=COUNT, progress=Flag())
_STEP_RULES = dict(C0=POSITIVE.or_null(), eta=Real(0.0, 1.0, low_open=True), tau=Real(1.0, low_open=True),
                   eps0=NONNEG, imax=COUNT, ls_iter=COUNT, ls_lr=POSITIVE, min_gamma=Real(0.0, 1.0, high_open=True),
                   fallback_C=Choice("grown", "previous"))
#: one rule's own settings (:data:`inferopt.experiment.boosting.RULE_SETTING_KEYS`)
_RULE_SETTING = Record(C0=POSITIVE, eta=Real(0.0, 1.0, low_open=True), tau=Real(1.0, low_open=True), ls_lr=POSITIVE,
                       ls_iter=COUNT, imax=COUNT, eps0=NONNEG)
RULE_SETTINGS = Record(predefined=_RULE_SETTING, line_search=_RULE_SETTING, adafw=_RULE_SETTING, adaafw=_RULE_SETTING,
                       adapfw=_RULE_SETTING).or_null()
_BOOSTING = dict(seed=SEED, dataset=Choice("chemreact100", "phishing68"), test_fraction=FRACTION, intercept=Flag(),
                 start=Choice("vi", "converged"), n_iter=COUNT,
                 n_replicates=COUNT, family=Choice("laplace", "gaussian"), n_samples=COUNT, reuse_samples=Flag(),
                 ls_draws=Choice("iteration", "authors", "fixed"),
                 estimates=Choice("stratified", "authors"), greedy=GREEDY, greedy_ours=GREEDY,
                 C0_sweep=ListOf(Rule(lambda n, v: v == "estimated" or check_real(n, v, low=0.0, low_open=True),
                                      "a real number > 0 or 'estimated'")), on_ascent=Choice("zero", "fallback"),
                 n_eval=Int(low=2), paper_rows=COUNT, n_jobs=COUNT, progress=Flag(), rule_settings=RULE_SETTINGS,
                 greedy_sweep=ListOf(GREEDY, min_length=0),
                 authors_distances=ListOf(Choice("exact", "float32"), min_length=0), **_STEP_RULES)
_COMPLETION = dict(seed=SEED, test_fraction=FRACTION, validation_fraction=FRACTION, ml_items=COUNT.or_null(),
                   ml_users=COUNT.or_null(), eps_grid=ListOf(POSITIVE), lam_grid=ListOf(POSITIVE),
                   regime_rule=Choice("one-se", "best"), regime_iters=COUNT, M=COUNT, n_seeds=Int(low=2),
                   sgd_decay=NONNEG, iters=COUNT, budget=POSITIVE.or_null(), eval_every=COUNT, map_seeds=Int(low=2),
                   map_budget=POSITIVE.or_null(), map_iters=COUNT, n_jobs=COUNT, progress=Flag(), extra_methods=EXTRA_METHODS)

#: experiment id -> {key: Rule}, every key of its params.yaml section
SPECS: dict[str, dict[str, Rule]] = {
    "A1": dict(_CONJUGATE, D=COUNT, N=Int(low=2), k_max=COUNT, k_num=COUNT, n_trials=COUNT,
               constant=Choice("exact", "authors"), large_k_fraction=Real(0.0, 1.0), near_zero=NONNEG, n_jobs=COUNT, progress=Flag(),
               sparsevi_authors_steps=COUNT, sparsevi_authors_trials=Int(low=0), tie_tolerance=NONNEG,
               extra_methods=EXTRA_METHODS),
    "A2": dict(_CONJUGATE, D=COUNT, N=Int(low=2), k=COUNT, constant=Choice("exact", "authors"),
               projection_ks=ListOf(COUNT), slack=Real(1.0), n_trials=COUNT, sparsevi_authors_steps=COUNT,
               sparsevi_authors_trials=Int(low=0), authors_gradient_trials=Int(low=0), gradient_k_fractions=ListOf(POSITIVE),
               extra_methods=EXTRA_METHODS),
    "A3": dict(_CONJUGATE, n_subsample=COUNT, n_per_scale=COUNT, scales=ListOf(POSITIVE), constant_scale=POSITIVE,
               k_max=COUNT, k_num=COUNT, contour_ks=ListOf(COUNT), n_contour_trials=COUNT, n_trials=COUNT,
               large_k_fraction=Real(0.0, 1.0), contour_tolerance=POSITIVE, grid_size=Int(low=2), authors_phi=Flag(), sparsevi_authors_trials=Int(low=0),
               synthetic_check=Flag(),
               n_jobs=COUNT, progress=Flag(), extra_methods=EXTRA_METHODS),
    "A4": dict(_GLM, extra_methods=EXTRA_METHODS),
    "A5": dict(_GLM, extra_methods=EXTRA_METHODS),
    "A6": {k: _GLM[k] for k in ("seed", "datasets", "methods", "ks", "n_trials", "n_projections", "max_iter", "n_jobs", "progress")}
    | {"extra_methods": EXTRA_METHODS},
    "A7": dict(seed=SEED, sources=ListOf(Choice("A4", "A5", "A6")), comparable_factor=Real(1.0), claim_k_min=COUNT),
    "A8": dict(seed=SEED, sources=ListOf(Choice("A4", "A5", "A6")), claim_k_min=COUNT),
    # B1: authors_candidates / authors_points are the authors' Fig. 3 script's nsamp and T (its construction, a map
    # cell); first_point_draws random first points (Sec. 4) of our construction, drawn with first_point_seed
    "B1": dict(seed=SEED, panels=ListOf(PANEL), density_degree=COUNT, grid_size=Int(low=2), n_points=Int(low=2),
               n_rep=COUNT, n_proj=COUNT, authors_candidates=Int(low=2), authors_points=Int(low=2),
               first_point_draws=COUNT, first_point_seed=SEED, progress=Flag(), extra_methods=EXTRA_METHODS),
    "B2": dict(seed=SEED, s=Int(1, 4), density_degree=COUNT, sample_size=COUNT, n_points=Int(low=2), progress=Flag(),
               extra_methods=EXTRA_METHODS),
    "B3": dict(seed=SEED, d=Int(2, 20), n_sample=COUNT, n_points=Int(low=2), map_draws=Int(low=2), long_points=Int(low=2),
               n_jobs=COUNT, progress=Flag(),
               extra_methods=EXTRA_METHODS),
    # B4's verdict maps also run d - 2 bits (its d_sweep): d >= 3
    "B4": dict(seed=SEED, d=Int(3, 20), denominator=Int(low=2), n_points=Int(low=2), n_checkpoints=COUNT,
               conv_tol=POSITIVE, map_draws=Int(low=2), erratic_draws=Int(low=2), converge_draws=Int(low=2), n_jobs=COUNT, progress=Flag(),
               extra_methods=EXTRA_METHODS),
    "B5": dict(seed=SEED, d=Int(2, 20), pair_weight=Real(), unary_scale=Real(0.0), n_points=Int(low=2), n_checkpoints=COUNT,
               conv_tol=POSITIVE, n_jobs=COUNT, progress=Flag(), extra_methods=EXTRA_METHODS),
    "B6": dict(seed=SEED, d=Int(2, 20), n_sample=COUNT, n_points_finite=Int(low=2), panels=ListOf(PANEL),
               density_degree=COUNT, grid_size=Int(low=2), n_points_sobolev=Int(low=2), progress=Flag()),
    "C1": dict(seed=SEED, dims=ListOf(COUNT), n_runs=COUNT, draws=ListOf(COUNT), n_eval=Int(low=2), progress=Flag(), authors_toy=Flag(),
               spread=Real(0.0, low_open=True).or_null(), near_runs=COUNT,
               floor_gamma=Real(0.0, 1.0, low_open=True, high_open=True).or_null(), n_jobs=COUNT, ls_draws=Choice("iteration", "authors", "fixed"),
               extra_methods=EXTRA_METHODS, **_STEP_RULES),
    "C2": dict(_BOOSTING, extra_methods=EXTRA_METHODS),
    "C3": dict(_BOOSTING, extra_methods=EXTRA_METHODS),
    "C4": dict(seed=SEED),
    "D1": dict(seed=SEED, N_values=ListOf(COUNT), functions=ListOf(Record(name=FUNCTION, a=Real(), b=Real())),
               negbin_p=FRACTION, decay_function=FUNCTION, n_samples=Int(low=2),
               decay_windows=ListOf(Int(low=0)), decay_r2_cuts=ListOf(Real(high=1.0)), decay_r2=Real(high=1.0),
               tight_factors=ListOf(Real(low=1.0)), tight_factor=Real(low=1.0)),
    "D2": dict(seed=SEED, d=COUNT, spectrum=ListOf(POSITIVE, length=2), interval=ListOf(Real(), length=2),
               functions=ListOf(FUNCTION), distribution=DISTRIBUTION, N=COUNT, M=COUNT, R=Int(low=2), z_max=POSITIVE,
               other_N=COUNT, other_R=Int(low=40), negbin_p=FRACTION,
               exact_distributions=ListOf(Record(name=Choice("poisson", "negative binomial"), N=COUNT)), exact_R=Int(low=40)),
    "D3": dict(_COMPLETION, size_shares=ListOf(Real(0.0, 1.0, low_open=True), min_length=2), N=COUNT, gd_iters=COUNT,
               svrg_inner=COUNT, step_factors=ListOf(POSITIVE, min_length=1), tune_iters=COUNT, tune_budget=POSITIVE.or_null(),
               target_share=Real(0.0, 1.0, low_open=True), target_rmse=POSITIVE, cost_rows=ListOf(COUNT, min_length=2),
               map_eps_factors=ListOf(POSITIVE), map_lam_factors=ListOf(POSITIVE),
               step_extend=Int(low=0), step_ratio=Real(low=1.0, low_open=True)),
    "D4": dict({k: v for k, v in _COMPLETION.items() if k not in ("budget", "map_budget")}, N_dist=COUNT,
               N_values=ListOf(COUNT, length=2), negbin_p=FRACTION, gate_share=Real(0.0, 1.0, low_open=True), step_factors=ListOf(POSITIVE, min_length=1),
               tune_iters=COUNT, centred_eps=ListOf(POSITIVE, min_length=2), step_ratio=Real(low=1.0, low_open=True),
               step_extend=Int(low=0), level_window=Real(0.0, 1.0, low_open=True), var_draws=Int(low=2)),
    "D5": dict(seed=SEED, n_sound=Int(low=10), n_humidity=Int(low=10), test_fraction=FRACTION, grid_sound=POSITIVE, grid_humidity=POSITIVE,
               theta0=ListOf(POSITIVE, length=3), low=ListOf(POSITIVE, length=3), high=ListOf(POSITIVE, length=3),
               n_iter=COUNT, log_step=Flag(), eta0_grid=ListOf(POSITIVE, min_length=1), eta0_ratio=Real(low=1.0, low_open=True),
               eta0_extend=Int(low=0), pilot_seeds=COUNT, eta0_theta=POSITIVE, decay=NONNEG, M=COUNT, N=COUNT, N_alt=COUNT, cg_tol=POSITIVE,
               lanczos_steps=COUNT.or_null(),
               authors_probes=COUNT, authors_steps=COUNT, authors_cg_tol=POSITIVE, authors_evals=COUNT, authors_optimiser=Choice("minimize", "L-BFGS-B"), n_seeds=Int(low=2),
               eval_every=COUNT, target_share=Real(0.0, 1.0, low_open=True), map_n=Int(low=10), map_seeds=Int(low=2),
               theta0_alt=ListOf(POSITIVE, length=3), floor_alt=POSITIVE, cost_sizes=ListOf(Int(low=10), min_length=2),
               variance_n=Int(low=10), variance_theta1=ListOf(POSITIVE, length=3), variance_N=ListOf(COUNT),
               variance_reps=Int(low=2), n_jobs=COUNT, extra_methods=EXTRA_METHODS,
               gap_hours=ListOf(COUNT, min_length=1), split_agree=NONNEG, split_beat=POSITIVE, nll_probes=COUNT, nll_steps=COUNT, cost_r=Int(low=2),
               grid_alt=POSITIVE, gap_alt=COUNT, N_head=COUNT, budget_factor=COUNT, decay_alt=NONNEG, grid_factor=POSITIVE,
               theta0_neutral=ListOf(POSITIVE, length=3), authors_steps_alt=COUNT, alpha_tol_alt=POSITIVE, head_pilot_seeds=COUNT),
}


def check_parameters(experiment_id: str, params: Mapping) -> dict:
    """Check ``params`` (a notebook's parameters, ``output_dir`` excluded) against the spec of
    ``experiment_id``: every key must be known and its value allowed. Raises
    :class:`ParameterError` (a ``ValueError``) naming the first bad key and what it allows;
    returns ``params`` as a dict. Experiments without a spec are not checked."""
    spec = SPECS.get(experiment_id)
    if spec is None:
        return dict(params)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ParameterError(f"unknown parameter(s) {unknown} for experiment {experiment_id}; "
                             f"known: {sorted(spec)}")
    for key, value in params.items():
        _apply(key, spec[key], value)
    _check_pairs(experiment_id, params)
    return dict(params)


def _check_pairs(experiment_id: str, params: Mapping) -> None:
    """Constraints between keys."""
    get = params.get
    if get("k_max") is not None and get("k_num") is not None and get("k_num") > get("k_max"):
        raise ParameterError(f"parameter k_num: must be <= k_max = {get('k_max')}; got {get('k_num')}")
    if get("k_max") is not None and get("N") is not None and get("k_max") > get("N"):
        raise ParameterError(f"parameter k_max: must be <= N = {get('N')}; got {get('k_max')}")
    if experiment_id == "A2" and get("k") is not None and get("N") is not None and get("k") > get("N"):
        raise ParameterError(f"parameter k: must be <= N = {get('N')}; got {get('k')}")
    ks, k_min = get("ks"), get("claim_k_min")
    if experiment_id in ("A4", "A5") and ks and k_min is not None:
        # the claims' verdict map (glm_claims.record_glm_claims) reads the sizes k >= 1, >= claim_k_min, >= max(ks)
        settings = {1, k_min, max(ks)}
        if len(settings) < MIN_SWEEP or k_min > max(ks):
            raise ParameterError(f"parameter claim_k_min: claim_k_min = {k_min} leaves the claims' verdict map "
                                 f"{len(settings & set(range(1, max(ks) + 1)))} distinct sizes (k >= 1, >= claim_k_min, >= "
                                 f"max(ks) = {max(ks)}), fewer than {MIN_SWEEP}; got {k_min} (allowed: an integer "
                                 f"from 2 to {max(ks) - 1})")
    for i, panel in enumerate(get("functions") or []):
        if isinstance(panel, Mapping) and "a" in panel and "b" in panel and not panel["a"] < panel["b"]:
            raise ParameterError(f"parameter functions[{i}]: needs a < b; got a={panel['a']}, b={panel['b']}")
    for name in ("interval", "spectrum"):
        pair = get(name)
        if pair is not None and len(pair) == 2 and not pair[0] < pair[1]:
            raise ParameterError(f"parameter {name}: needs [low, high] with low < high; got {pair}")
    low, high = get("low"), get("high")
    if experiment_id == "D5" and low is not None and high is not None and any(a >= b for a, b in zip(low, high)):
        raise ParameterError(f"parameter low: must be below high entrywise; got low={low}, high={high}")
