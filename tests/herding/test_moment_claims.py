"""Fig. 7's (B5) reading of the moment error in :mod:`inferopt.experiment.moment_claims`: it can hold and can fail."""

from inferopt.experiment.moment_claims import moments_not_maxent_late, moments_vanish_late


def test_moments_vanish_late_reads_the_last_decade():
    """B5.1, B5.2: an early plateau does not decide; a late fall or an error at the means holds; a late plateau fails."""
    assert moments_vanish_late(100.0, -1.43, 4.1e-4)                 # all-t slope -0.47, last decade -1.43: falls
    assert moments_vanish_late(1e8, float("nan"), 0.0)               # at the means (below the floor) at the end
    assert not moments_vanish_late(100.0, -0.1, 1e-3)                # a late plateau
    assert not moments_vanish_late(100.0, float("nan"), 1e-3)        # nothing to fit, not at the means
    assert not moments_vanish_late(5.0, -1.5, 1e-3)                  # too small a drop
    assert moments_not_maxent_late(100.0, -1.0, 1e-4, 0.1, 0.0, 0.02)          # moments, not p*
    assert not moments_not_maxent_late(100.0, -1.0, 1e-4, 0.001, -0.5, 0.02)   # converges to p*: fails


def test_outperforms_while_running_compares_only_while_both_run():
    """B5.6: min-norm-point read only up to its stop: it can win and can lose; a tie at 0 is no win."""
    from inferopt.experiment.moment_claims import outperforms_while_running
    assert outperforms_while_running([0.1, 0.05, 0.0], [0.2, 0.1, 0.08], 1e-9)          # below at every t
    assert not outperforms_while_running([0.3, 0.2, 0.05], [0.2, 0.1, 0.08], 1e-9)      # below at 1 of 3
    assert not outperforms_while_running([0.0, 0.0], [1e-12, 0.0], 1e-9)               # ties at 0
    assert not outperforms_while_running([0.1, 0.05], [0.2, 0.1], 1e-9, min_share=1.0)  # a share cannot exceed 1


def test_points_to_reach():
    from inferopt.experiment.moment_claims import points_to_reach
    assert points_to_reach([0.5, 0.2, 0.01, 0.0], 0.02) == 3
    assert points_to_reach([0.5, 0.2], 0.01) is None
    assert points_to_reach([0.5, 1e-12], 0.0, floor=1e-9) == 2
