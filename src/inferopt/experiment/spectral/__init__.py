"""The experiment layer of paper D (Han, Avron & Shin 2018): the deciding code of every D claim.

* :mod:`.targets`    -- time to a target (first reached, or reached and stayed), progress targets, speed-ups, a run read at an earlier iteration;
* :mod:`.streams`    -- one independent random stream per run;
* :mod:`.regime`     -- ε and λ of the matrix completion chosen by validation RMSE of the model's optimum;
* :mod:`.completion` -- D3 and D4 on the test RMSE over seeds;
* :mod:`.conditioning` -- the spectrum ratio ``b/a`` at a point and the optimal distribution's zero-degree share;
* :mod:`.work`       -- a run's hardware-neutral work: exact gradients and Chebyshev mat-vec products;
* :mod:`.gp`         -- D5: SGD against LANCZOS (ours and as Dong et al. ran it);
* :mod:`.theory`     -- Lemma 1 and 2 beyond the optimal distribution, and the per-gradient cost scaling.
"""

from .completion import (PAPER_SHARES, all_of, censored_ratio, centred_ratings, choose_panel_steps, choose_steps, completion_diagnosis, convergence_gap, convergence_gate, ahead_on, comparison_bases, d31_reading, d31_test, d32_test, late_progress, pair_basis, deepest_reached,
                         d33_test, d34_growth, d34_test, grid_edge, d35_test, factor_reached, d41_test, d42_parts, d42_test, d43_test, eigenpairs_needed,
                         exact_gradient_profile, optimal_shape, reach_text, rmse_at, rmse_target, run_table, seeded_cell, sgd_det_gap, speedup)
from .conditioning import drawn_zero_share, spectrum_ratio, zero_degree_share
from .gp import accurate_nll, deciding_numbers, choose_eta0, choose_split, iterations_per_record, grid_start, objective_agrees, levels_above, never_reaches, d51_informative, d51_reading, d53_reading, d54_reading, decided_share, d53_informative, d54_informative, coarse_record, informative, own_map_diagnosis, construction_holds, TIE, size_held, ratio_bound, readable_shares, d55_test, d51_test, d52_test, d53_test, d54_test, gp_comparison, gp_run_table, gp_targets, late_gain, capped, reached, reference_rmse, stuck_share, time_ratio, work_to
from .regime import USABLE_Q0, USABLE_Q0_READINGS, RegimeSelection, choose, choose_ratings, hold_out, mean_rmse, projected_gradient, rmse_se, select_ratings_regime, select_regime, usable, usable_readings
from .streams import run_stream
from .targets import faster, progress_target, stays_below, time_to, time_to_stay, truncated
from .work import cumulative_work, exact_gradient_flops, flop_price, gradient_seconds, size_trend, snapshot_gradient_flops, stochastic_gradient_flops, work_at, zero_degree_draws
from .theory import (batch_z, biased, cost_exponent, d12_test, d13_test, decay_fit_fixed_rate, degree_moments, degree_terms,
                     degree_values, d14_test, lemma1_test, lemma2_partial_sums, min_chebyshev_variance, optimal_smallest, orders_of_magnitude, unbiased)

__all__ = [
    "batch_z", "biased", "d12_test", "d13_test", "decay_fit_fixed_rate", "degree_moments", "degree_terms", "degree_values",
    "d14_test", "lemma1_test", "min_chebyshev_variance", "optimal_smallest", "orders_of_magnitude", "unbiased",
    "PAPER_SHARES", "USABLE_Q0", "USABLE_Q0_READINGS", "usable", "usable_readings", "choose_ratings", "select_ratings_regime", "RegimeSelection", "all_of", "censored_ratio", "centred_ratings", "choose_panel_steps", "choose_steps", "convergence_gap", "convergence_gate", "cumulative_work", "d34_growth", "d35_test", "grid_edge",
    "drawn_zero_share", "factor_reached", "spectrum_ratio", "work_at", "zero_degree_draws", "zero_degree_share", "choose", "completion_diagnosis",
    "cost_exponent", "ahead_on", "comparison_bases", "d31_reading", "d31_test", "d32_test", "late_progress", "pair_basis", "deepest_reached", "d33_test", "stays_below", "stochastic_gradient_flops", "snapshot_gradient_flops", "exact_gradient_flops", "flop_price", "time_to_stay",
    "accurate_nll", "deciding_numbers", "choose_eta0", "choose_split", "iterations_per_record", "grid_start", "objective_agrees", "levels_above", "never_reaches", "d51_informative", "d51_reading", "d53_reading", "d54_reading", "decided_share", "d53_informative", "d54_informative", "coarse_record", "informative", "own_map_diagnosis", "construction_holds", "TIE", "size_held", "ratio_bound", "readable_shares", "d55_test", "d34_test", "d41_test", "d42_parts", "d42_test", "d43_test", "d51_test", "d52_test", "d53_test", "d54_test", "eigenpairs_needed", "exact_gradient_profile", "faster",
    "gp_comparison", "gp_run_table", "gp_targets", "late_gain", "reference_rmse", "work_to", "hold_out", "optimal_shape", "lemma2_partial_sums",
    "mean_rmse", "progress_target", "gradient_seconds", "projected_gradient", "seeded_cell", "size_trend",
    "reach_text", "rmse_at", "rmse_se", "rmse_target", "run_stream", "run_table", "select_regime", "sgd_det_gap", "speedup",
    "stuck_share", "time_ratio", "capped", "reached", "time_to", "truncated",
]
