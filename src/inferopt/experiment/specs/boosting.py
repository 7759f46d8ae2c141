"""Paper C's (boosting variational inference with adaptive step sizes) experiment parameters: C1-C4."""

from __future__ import annotations

from ..._validation import check_real
from ..parameters import (COUNT, EXTRA_METHODS, FRACTION, NONNEG, POSITIVE, SEED, Choice, Flag, Int, ListOf, Real,
                          Record, Rule)

GREEDY = Record(max_iter=Int(low=0), n_samples=COUNT, lr=POSITIVE, average=Real(0.0, 1.0, high_open=True),
                lr_decay=ListOf(POSITIVE, length=2).or_null(), start=Choice("draw", "random"),
                scale_param=Choice("exp", "softplus"), stored_scale=Choice("scale", "stddev"),
                init_log_scale=Real(), log_scale_bounds=ListOf(Real(), length=2).or_null(),
                anneal=Choice("1oversqrt", "constant"))
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
                 authors_distances=ListOf(Choice("exact", "float32"), min_length=0), common_replicates=COUNT, **_STEP_RULES)

#: experiment id -> {key: Rule}, every key of its params.yaml section
SPECS: dict[str, dict[str, Rule]] = {
    "C1": dict(seed=SEED, dims=ListOf(COUNT), n_runs=COUNT, draws=ListOf(COUNT), n_eval=Int(low=2), progress=Flag(), authors_toy=Flag(),
               spread=Real(0.0, low_open=True).or_null(), near_runs=COUNT, authors_medium_runs=Int(low=0),
               floor_gamma=Real(0.0, 1.0, low_open=True, high_open=True).or_null(), eps0_map=ListOf(NONNEG, min_length=0),
               eps0_se=POSITIVE.or_null(), n_jobs=COUNT, ls_draws=Choice("iteration", "authors", "fixed"),
               extra_methods=EXTRA_METHODS, **_STEP_RULES),
    "C2": dict(_BOOSTING, extra_methods=EXTRA_METHODS),
    "C3": dict(_BOOSTING, extra_methods=EXTRA_METHODS),
    "C4": dict(seed=SEED),
}
