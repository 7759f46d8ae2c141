"""Paper A's (sparse Bayesian coresets by accelerated IHT) experiment parameters: A1-A8."""

from __future__ import annotations

from collections.abc import Mapping

from ..claims import MIN_SWEEP
from ..parameters import (COUNT, EXTRA_METHODS, NAMES, NONNEG, POSITIVE, SEED, Choice, Flag, Int, ListOf,
                          ParameterError, Real, Rule)

IHT_STEP = Choice("exact", "authors")
CORESET_METHODS = ("uniform", "giga", "frank_wolfe", "sparsevi", "iht", "a_iht", "a_iht_ii", "a_iht_batch")
METHOD_NAMES = ListOf(Choice(*CORESET_METHODS, *(f"{m}_refit" for m in CORESET_METHODS)))
_CONJUGATE = dict(seed=SEED, max_iter=COUNT, step=IHT_STEP, sparsevi_steps=COUNT)
_GLM = dict(seed=SEED, datasets=NAMES, methods=METHOD_NAMES, ks=ListOf(COUNT), n_trials=COUNT,
            n_subsample=COUNT.or_null(), n_projections=Int(low=2), max_iter=COUNT, sparsevi_steps=COUNT,
            sparsevi_samples=Int(low=2), sparsevi_step_scale=POSITIVE, sparsevi_authors_trials=Int(low=0),
            batch_fraction=Real(0.0, 1.0, low_open=True), long_factor=COUNT,
            claim_k_min=COUNT, n_jobs=COUNT, progress=Flag())

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
}


def check_pairs(experiment_id: str, params: Mapping) -> None:
    """Constraints between keys of paper A's experiments."""
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
