"""Paper D's (stochastic Chebyshev gradients for spectral sums) experiment parameters: D1-D5."""

from __future__ import annotations

from collections.abc import Mapping

from ..parameters import (COUNT, EXTRA_METHODS, FRACTION, NONNEG, POSITIVE, SEED, Choice, Flag, Int, ListOf,
                          ParameterError, Real, Record, Rule)

FUNCTION = Choice("log", "sqrt", "exp")
DISTRIBUTION = Choice("optimal", "poisson", "negative binomial", "negbin")
_COMPLETION = dict(seed=SEED, test_fraction=FRACTION, validation_fraction=FRACTION, ml_items=COUNT.or_null(),
                   ml_users=COUNT.or_null(), eps_grid=ListOf(POSITIVE), lam_grid=ListOf(POSITIVE),
                   regime_rule=Choice("one-se", "best"), regime_iters=COUNT, M=COUNT, n_seeds=Int(low=2),
                   sgd_decay=NONNEG, iters=COUNT, budget=POSITIVE.or_null(), eval_every=COUNT, map_seeds=Int(low=2),
                   map_budget=POSITIVE.or_null(), map_iters=COUNT, n_jobs=COUNT, progress=Flag(), extra_methods=EXTRA_METHODS)

def _label(name, value):
    """A verdict-map cell's label (D3's ``map_runs``, session 43): a non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a map cell's label (a non-empty string); got {value!r}")


#: experiment id -> {key: Rule}, every key of its params.yaml section
SPECS: dict[str, dict[str, Rule]] = {
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
               map_eps_factors=ListOf(POSITIVE), map_lam_factors=ListOf(POSITIVE, min_length=0), map_beside=Flag(),
               map_runs=ListOf(Rule(_label, "a map cell's label, e.g. 'raw (eps, lam)'"), min_length=0).or_null(),
               step_extend=Int(low=0), step_ratio=Real(low=1.0, low_open=True), stochastic_cost=ListOf(POSITIVE, min_length=2).or_null(),
               far_objective=Real(low=1.0, low_open=True), paper_share=Real(0.0, 1.0, low_open=True),
               price_shape=ListOf(COUNT, length=2).or_null(), reference_tol=POSITIVE, reference_rounds=COUNT,
               sgd_decays=ListOf(NONNEG, min_length=1).or_null(), svrg_beside=ListOf(POSITIVE, min_length=0)),
    "D4": dict({k: v for k, v in _COMPLETION.items() if k not in ("budget", "map_budget")}, N_dist=COUNT,
               N_values=ListOf(COUNT, length=2), negbin_p=FRACTION, gate_share=Real(0.0, 1.0, low_open=True), step_factors=ListOf(POSITIVE, min_length=1),
               tune_iters=COUNT, centred_eps=ListOf(POSITIVE, min_length=2), step_ratio=Real(low=1.0, low_open=True),
               step_extend=Int(low=0), level_window=Real(0.0, 1.0, low_open=True)),
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


def check_pairs(experiment_id: str, params: Mapping) -> None:
    """Constraints between keys of paper D's experiments."""
    get = params.get
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
