"""The coreset experiments (A1-A8): trials over methods and sizes, their tables and panels."""

from .conjugate_trials import (always_wins, conjugate_trial, roundoff_replicates, run_conjugate_trials, run_methods, split_method,
                               win_counts)
from .glm_claims import record_glm_claims
from .glm_trials import (
    AUTHORS_SPARSEVI,
    METHODS,
    best_method,
    medians,
    run_glm_trial,
    run_glm_phases,
    run_glm_trials,
    time_ratio,
    trial_matrix,
    trial_seeds,
    win_fraction,
    wins,
)
from .plots import (METHOD_LABELS, METRIC_LABELS, contour_row, plot_methods, relative_rms_difference, surface,
                    surface_differences)

__all__ = [
    "AUTHORS_SPARSEVI",
    "METHODS",
    "METHOD_LABELS",
    "METRIC_LABELS",
    "always_wins",
    "best_method",
    "conjugate_trial",
    "contour_row",
    "medians",
    "plot_methods",
    "record_glm_claims",
    "relative_rms_difference",
    "roundoff_replicates",
    "run_conjugate_trials",
    "run_glm_trial",
    "run_glm_phases",
    "run_glm_trials",
    "run_methods",
    "split_method",
    "surface",
    "surface_differences",
    "time_ratio",
    "trial_matrix",
    "trial_seeds",
    "win_counts",
    "win_fraction",
    "wins",
]
