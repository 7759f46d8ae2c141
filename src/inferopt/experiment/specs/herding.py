"""Paper B's (herding as Frank-Wolfe) experiment parameters: B1-B6."""

from __future__ import annotations

from ..parameters import COUNT, EXTRA_METHODS, POSITIVE, SEED, Choice, Flag, Int, ListOf, Real, Record, Rule

PANEL = Record(s=Int(1, 4), density=Choice("random", "uniform"))

#: experiment id -> {key: Rule}, every key of its params.yaml section
SPECS: dict[str, dict[str, Rule]] = {
    # B1: authors_candidates / authors_points are the authors' Fig. 3 script's nsamp and T (its construction, a map
    # cell); first_point_draws random first points (Sec. 4) of our construction, drawn with first_point_seed
    "B1": dict(seed=SEED, panels=ListOf(PANEL), density_degree=COUNT, grid_size=Int(low=2), n_points=Int(low=2),
               n_rep=COUNT, n_proj=COUNT, authors_candidates=Int(low=2), authors_points=Int(low=2),
               first_point_draws=COUNT, first_point_seed=SEED, progress=Flag(),
               extra_methods=EXTRA_METHODS),
    "B2": dict(seed=SEED, s=Int(1, 4), density_degree=COUNT, sample_size=COUNT, n_points=Int(low=2), progress=Flag(),
               extra_methods=EXTRA_METHODS),
    "B3": dict(seed=SEED, d=Int(2, 20), n_sample=COUNT, n_points=Int(low=2), map_draws=Int(low=2), long_points=Int(low=2),
               n_jobs=COUNT, progress=Flag(),
               extra_methods=EXTRA_METHODS),
    # B4's verdict maps also run d - 2 bits (its d_sweep): d >= 3
    "B4": dict(seed=SEED, d=Int(3, 20), denominator=Int(low=2), n_points=Int(low=2), n_checkpoints=COUNT,
               conv_tol=POSITIVE, map_draws=Int(low=2), erratic_draws=Int(low=2), converge_draws=Int(low=2), n_jobs=COUNT, progress=Flag(),
               extra_methods=EXTRA_METHODS),
    "B5": dict(seed=SEED, d=Int(2, 20), pair_weight=Real(), unary_scale=Real(0.0), n_points=Int(low=2), long_points=Int(low=0),
               n_checkpoints=COUNT, n_jobs=COUNT, progress=Flag(), extra_methods=EXTRA_METHODS,
               extra_d=ListOf(Int(2, 20), min_length=0),
               # B5.9's cells beyond the map's coupling grid (w (d - 1), at every d; beside B5.8)
               extra_couplings=ListOf(Real(0.0, low_open=True), min_length=0),
               # session 44: line search's horizon on those cells (B5.2's span reading; 0: n_points), B5.12's draws per d
               extra_ls_points=Int(low=0), unary_draws=Int(low=1)),
    "B6": dict(seed=SEED, d=Int(2, 20), n_sample=COUNT, n_points_finite=Int(low=2), panels=ListOf(PANEL),
               density_degree=COUNT, grid_size=Int(low=2), n_points_sobolev=Int(low=2), progress=Flag()),
}
