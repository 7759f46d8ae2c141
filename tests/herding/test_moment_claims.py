"""Fig. 7's (B5) reading of the moment error in :mod:`inferopt.experiment.moment_claims`: it can hold and can fail."""

import numpy as np
import pytest

from inferopt.experiment.moment_claims import moments_vanish_late


def test_moments_vanish_late_reads_the_last_decade():
    """B5.1, B5.2: an early plateau does not decide; a late fall or an error at the means holds; a late plateau fails."""
    assert moments_vanish_late(100.0, -1.43, 4.1e-4)                 # all-t slope -0.47, last decade -1.43: falls
    assert moments_vanish_late(1e8, float("nan"), 0.0)               # at the means (below the floor) at the end
    assert not moments_vanish_late(100.0, -0.1, 1e-3)                # a late plateau
    assert not moments_vanish_late(100.0, float("nan"), 1e-3)        # nothing to fit, not at the means
    assert not moments_vanish_late(5.0, -1.5, 1e-3)                  # too small a drop


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


def test_distance_stalls_cell_holds_fails_and_turns_with_the_slope_reading():
    """B5.7 (and B5.1's distance part): stalls above tol holds, converges fails, a slope between the readings turns."""
    from inferopt.experiment.moment_claims import distance_stalls_cell, not_maxent_cell
    assert distance_stalls_cell(0.1, -0.01, 0.02) is True
    assert distance_stalls_cell(0.01, -0.5, 0.02) is False
    assert distance_stalls_cell(0.01, -0.01, 0.02) is None                    # below tol on a plateau
    assert distance_stalls_cell(0.1, -0.15, 0.02, -0.1) is None                # still falling at the -0.1 reading
    assert distance_stalls_cell(0.1, -0.15, 0.02, -0.2) is True                # stalls at the -0.2 reading
    assert not_maxent_cell(100.0, -1.0, 1e-4, 0.1, -0.15, 0.02, stall_slope=-0.1) is None
    assert not_maxent_cell(100.0, -1.0, 1e-4, 0.1, -0.15, 0.02) is True
    with pytest.raises(ValueError):
        distance_stalls_cell(0.1, 0.0, 0.02, 0.1)


def test_farther_cell():
    from inferopt.experiment.moment_claims import farther_cell
    assert farther_cell(0.2, 0.1) and not farther_cell(0.105, 0.1) and not farther_cell(0.05, 0.1)
    assert farther_cell(0.105, 0.1, factor=1.0) and not farther_cell(0.1, 0.1, factor=1.0)   # B5.9: a tie is no win
    assert farther_cell(0.095, 0.1, factor=0.9) and not farther_cell(0.085, 0.1, factor=0.9)
    with pytest.raises(ValueError):
        farther_cell(0.1, 0.1, factor=0.0)

def test_not_maxent_cell_is_three_valued():
    """B5.1, B5.2 per cell: holds where the distance stalls above tol, fails where it converges or the moments do not
    match, undecided below tol on a plateau (no longer "not converging" by a flat slope alone)."""
    from inferopt.experiment.moment_claims import not_maxent_cell
    assert not_maxent_cell(1e3, -1.0, 1e-4, 0.0379, -0.035, 0.02) is True
    assert not_maxent_cell(1e3, -1.0, 1e-4, 0.005, -0.6, 0.02) is False          # converges
    assert not_maxent_cell(5.0, -1.0, 1e-4, 0.0379, -0.035, 0.02) is False        # the moments do not match
    assert not_maxent_cell(1e3, -1.0, 1e-4, 0.0102, 0.0017, 0.02) is None         # below tol, flat: undecided
    assert not_maxent_cell(1e3, -1.0, 1e-4, 0.0102, 0.0017, 0.01) is True         # at tol / 2 it stalls above it
    assert not_maxent_cell(1e3, -1.0, 1e-4, 0.08, -0.5, 0.02) is None            # above tol but still falling


def test_entropy_position_reads_b44s_scale():
    from inferopt.experiment.moment_claims import entropy_position
    assert entropy_position(2.6, 2.0, 3.3) == pytest.approx(0.6 / 1.3)
    assert entropy_position(2.0, 2.0, 3.3) == 0.0 and entropy_position(3.3, 2.0, 3.3) == 1.0
    with pytest.raises(ValueError, match="h_star > h_low"):
        entropy_position(1.0, 2.0, 2.0)


def test_tie_share_and_random_orders():
    """Random tie-breaking as a construction: a symmetric model ties; a random order of the states (the lowest index of a
    permuted enumeration) leaves the moment error's meaning."""
    import numpy as np
    from inferopt.experiment.moment_claims import permutation_seeds, tie_curves, tie_share
    from inferopt.herding import all_states, exponential_family, pairwise_features
    F = pairwise_features(all_states(3))
    p = exponential_family(F, np.r_[np.zeros(3), np.full(F.shape[1] - 3, 0.2)])
    mu = F.T @ p
    base = tie_curves(F, mu, p, 50, "1/(t+1)", [10, 50])
    seeds = permutation_seeds(0, 2)
    perm = np.random.default_rng(seeds[0]).permutation(len(F))
    other = tie_curves(F[perm], mu, p[perm], 50, "1/(t+1)", [10, 50])
    assert base.tie_share.iloc[0] > 0.1 and other.tie_share.iloc[0] > 0.1          # Fig. 7's construction ties
    assert np.allclose(base.mean_error.iloc[-1], other.mean_error.iloc[-1], atol=0.2)
    p2 = exponential_family(F, np.r_[[0.31, -0.17, 0.08], np.full(F.shape[1] - 3, 0.2)])
    assert tie_curves(F, F.T @ p2, p2, 50, "1/(t+1)", [50]).tie_share.iloc[0] < 0.05                # random unary weights: no ties
    assert tie_share(F, mu, [0, 7, 0, 7]) > 0                                                      # a symmetric point ties
    assert [s.entropy for s in seeds] == [s.entropy for s in permutation_seeds(0, 2)]


def test_moment_set_radius():
    """The moment-matching set's radius around p*: reproducible from its seed, positive where the moments leave freedom."""
    import numpy as np
    from inferopt.experiment.moment_claims import moment_set_radius
    from inferopt.herding import all_states, exponential_family, pairwise_features
    F = pairwise_features(all_states(3))
    p = exponential_family(F, np.r_[np.zeros(3), np.full(F.shape[1] - 3, 0.2)])
    r = moment_set_radius(F, F.T @ p, p, 0)
    assert r == moment_set_radius(F, F.T @ p, p, 0) and r > 0.02
    Fu = all_states(2)                       # unary features only on 4 states: the moments fix 2 of 3 degrees of freedom
    pu = np.full(4, 0.25)
    assert moment_set_radius(Fu, Fu.T @ pu, pu, 1) > 0


def test_distinct_sizes_and_permutation_verdict():
    import numpy as np
    from inferopt.experiment.moment_claims import distinct_sizes, permutation_verdict
    assert distinct_sizes([0.5, 0.2, 0.1], [0.5 * (1 + 1e-14), 0.3, 0.1]).tolist() == [False, True, False]
    assert permutation_verdict(["holds"] * 5) == "holds" and permutation_verdict(["fails"] * 5) == "fails"
    assert permutation_verdict(["holds", "fails"]) == "inconclusive" and permutation_verdict(["not measured"]) is None
    assert permutation_verdict(["inconclusive"] * 3) == "inconclusive"
    with np.testing.assert_raises(ValueError):
        distinct_sizes([1.0], [1.0, 2.0])


def test_moment_premise():
    from inferopt.experiment.moment_claims import moment_premise_cell
    assert moment_premise_cell(0.0, 1e-5) and not moment_premise_cell(2.5e-4, 1.2e-4)        # (8, 0.4): line search not better


def _vertices_brute_force(F, mu):
    """Every vertex of {p >= 0, sum p = 1, F'p = mu} (basic feasible solutions over all supports of the rank's size)."""
    import itertools
    import numpy as np
    A, b = np.vstack([F.T, np.ones(len(F))]), np.append(mu, 1.0)
    r = np.linalg.matrix_rank(A)
    out = []
    for S in itertools.combinations(range(len(F)), r):
        sub = A[:, S]
        if np.linalg.matrix_rank(sub) < r:
            continue
        x, *_ = np.linalg.lstsq(sub, b, rcond=None)
        if np.allclose(sub @ x, b, atol=1e-9) and (x >= -1e-9).all():
            p = np.zeros(len(F))
            p[list(S)] = np.clip(x, 0, None)
            out.append(p / p.sum())
    return out


def test_min_entropy_vertex_matches_brute_force_and_beats_the_starts():
    """B5.3's low end: concave descent over the vertices finds the minimum entropy of a small polytope (brute force
    over every vertex) and is never above the 20-vertex search's."""
    import numpy as np
    from inferopt.experiment.moment_claims import min_entropy_vertex
    from inferopt.herding import entropy, low_entropy_distribution
    rng = np.random.default_rng(3)
    for trial in range(3):
        F = rng.integers(-2, 3, size=(9, 3)).astype(float)
        p0 = rng.dirichlet(np.ones(9))
        mu = F.T @ p0
        brute = min(entropy(v) for v in _vertices_brute_force(F, mu))
        p, h = min_entropy_vertex(F, mu, np.random.default_rng([trial, 1]), n_starts=20)
        assert np.allclose(F.T @ p, mu, atol=1e-8) and np.isclose(p.sum(), 1.0)
        assert h == pytest.approx(brute, abs=1e-9)
        assert h <= entropy(low_entropy_distribution(F, mu, np.random.default_rng([trial, 1]), n_vertices=20)) + 1e-12


def test_entropy_minimization_bracket_and_aligned_mass():
    """B5.3's own sentence can hold and fail (and is not measured without its premise); the regime."""
    import numpy as np
    from inferopt.experiment.moment_claims import aligned_mass, entropy_minimization_bracket
    assert entropy_minimization_bracket(0.34, 0.34, 0.5) is True and entropy_minimization_bracket(0.6, 0.6, 0.5) is False
    assert entropy_minimization_bracket(0.1, 0.1, 0.5, premise=False) is None
    S = np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]], dtype=float)
    assert aligned_mass(S, [0.4, 0.1, 0.1, 0.4]) == pytest.approx(0.8)


def _fig7(d, w):
    from inferopt.herding import all_states, exponential_family, pairwise_features
    F = pairwise_features(all_states(d))
    p = exponential_family(F, np.concatenate([np.zeros(d), np.full(F.shape[1] - d, w)]))
    return F, F.T @ p, p


def test_tie_curves_lowest_index_is_the_library_and_random_ties_per_step_differ_from_fixed_orders():
    """Review 204: ``tie_curves`` without a seed reproduces the library's run (lowest index); with a seed it draws among
    the tied states at every step: reproducible from the seed, and unlike every fixed order of the states tried."""
    from inferopt.experiment.herding import state_curves
    from inferopt.experiment.moment_claims import permutation_seeds, tie_curves
    F, mu, p = _fig7(4, 0.2)
    cp = [1, 10, 100, 400]
    for step in ("1/(t+1)", "line_search"):
        lib, ours = state_curves(F, mu, p, 400, step, cp), tie_curves(F, mu, p, 400, step, cp)
        assert np.allclose(lib.dist, ours.dist, atol=1e-12) and np.allclose(lib.mean_error, ours.mean_error, atol=1e-12)
    a, b = tie_curves(F, mu, p, 400, "1/(t+1)", cp, seed=7), tie_curves(F, mu, p, 400, "1/(t+1)", cp, seed=7)
    assert a.equals(b)                                                            # reproducible from the seed
    assert a.tie_share.iloc[0] > 0.3                                              # a case with ties
    orders = [np.random.default_rng(s).permutation(len(F)) for s in permutation_seeds(0, 5)] + [np.arange(len(F))]
    for o in orders:                                                              # every fixed order tried differs
        f = tie_curves(F[o], mu, p[o], 400, "1/(t+1)", cp)                        # the lowest index of that order
        assert not np.allclose(a.dist.to_numpy()[1:], f.dist.to_numpy()[1:])
    assert not np.allclose(a.dist, tie_curves(F, mu, p, 400, "1/(t+1)", cp, seed=8).dist)
    with pytest.raises(ValueError):
        tie_curves(F, mu, p, 400, "mnp", cp)


def test_envelope_moment_conjunct_can_hold_and_fail():
    """Review 204: B5.1, B5.2's moment conjunct on B4.9's envelope: a falling sawtooth holds, a plateau fails."""
    from inferopt.experiment.maxent_claims import envelope_drop
    from inferopt.experiment.moment_claims import envelope_slope, moments_vanish_envelope
    t = np.unique(np.geomspace(1, 10_000, 40).round().astype(int))
    saw = np.where(np.arange(len(t)) % 2, 0.3, 1.0) / t                          # falls as 1/t under a sawtooth
    s = envelope_slope(t, saw, 0.0)
    assert -1.1 < s < -0.9
    assert moments_vanish_envelope(envelope_drop(t, saw, 0.0), s)
    flat = np.where(t < 100, 1.0 / t, 0.01)                                      # a plateau at 1 % of the start
    assert not moments_vanish_envelope(envelope_drop(t, flat, 0.0), envelope_slope(t, flat, 0.0))
    at_means = np.where(t < 500, 1.0 / t, 0.0)
    assert envelope_slope(t, at_means, 0.0) == -np.inf and moments_vanish_envelope(envelope_drop(t, at_means, 0.0), -np.inf)
    assert not moments_vanish_envelope(0.01, float("nan"))


def test_resolution_rule_can_hold_and_fail():
    from inferopt.experiment.moment_claims import resolved_cell, run_resolution
    assert run_resolution(256, 10_000) == pytest.approx(8e-4)
    assert resolved_cell(0.0115, 0.1, 256, 10_000) and not resolved_cell(0.0115, 0.05, 256, 10_000)


def test_coupled_pair_weights_keep_the_coupling_over_d():
    """Review 210: the map's pair weights sit at the same w (d - 1) at every d."""
    from inferopt.experiment.moment_claims import COUPLING_FACTORS, coupled_pair_weights
    for d in (4, 6, 8, 10):
        ws = coupled_pair_weights(d, 1.0)
        assert [round(w * (d - 1), 12) for w in ws] == [round(f, 12) for f in COUPLING_FACTORS]
    assert coupled_pair_weights(6, 1.0)[0] == pytest.approx(0.2)
    with pytest.raises(ValueError):
        coupled_pair_weights(6, 0.0)


def test_still_falling():
    from inferopt.experiment.moment_claims import still_falling
    assert still_falling(-0.32) and not still_falling(-0.017) and not still_falling(float("nan"))


def test_not_maxent_resolved_cell_judges_the_moments_first_and_can_hold_and_fail():
    """Review 210: a run that does not reach the means fails the moment half even where the tolerance is below the
    resolution; "stalls" needs 10 x the resolution; converging within the tolerance fails; else undecided."""
    from inferopt.experiment.moment_claims import not_maxent_resolved_cell
    res = 1.6e-3   # sqrt(1024) / (2 * 10_000)
    # (10, 0.4)-like: line search's moment error only 1.38x down, slope -0.13, tolerance below the resolution: fails, not `not measured`
    assert not_maxent_resolved_cell(0.72, -0.13, 0.05, 0.0, 1e-3, res) is False
    # moments vanish but the tolerance is below the resolution: not measured
    assert not_maxent_resolved_cell(0.001, -1.0, 0.05, 0.0, 1e-3, res) == "not measured"
    # flat above the tolerance and at >= 10 x the resolution: holds
    assert not_maxent_resolved_cell(0.001, -1.0, 0.05, 0.0, 0.02, res) is True
    # flat above the tolerance but below 10 x the resolution: undecided
    assert not_maxent_resolved_cell(0.001, -1.0, 0.012, 0.0, 0.01, res) is None
    # converging within the tolerance: fails; still falling above it: undecided
    assert not_maxent_resolved_cell(0.001, -1.0, 0.015, -0.5, 0.02, res) is False
    assert not_maxent_resolved_cell(0.001, -1.0, 0.05, -0.5, 0.02, res) is None
    # session 36 (helper-279): flat within the tolerance but resolved (>= 10 x the resolution) stalls: holds, at any level;
    # (10, 1/18) at the default scale: 0.0088 after 3e5 iterations, slope -0.037, tolerance 0.0201, resolution 5.3e-5
    assert not_maxent_resolved_cell(0.001, -1.0, 0.0088, -0.037, 0.0201, 5.3e-5) is True
    assert not_maxent_resolved_cell(0.001, -1.0, 0.0088, -0.037, 0.0201, 1e-3) is None    # within 10 x: the grid's


def test_not_maxent_resolved_cell_reads_the_envelope_rule_only():
    """Session 50: the run's rate over t >= 10, the final moment error and min_fall decided nothing in
    not_maxent_resolved_cell (the envelope rule, moments_vanish_envelope, decides "still falls"): they are no parameters;
    the envelope rule alone turns a flat resolved run from stalls (holds) to fails."""
    import inspect

    from inferopt.experiment.moment_claims import not_maxent_resolved_cell
    params = inspect.signature(not_maxent_resolved_cell).parameters
    assert not {"rate_slope", "final_error", "min_fall"} & set(params)
    with pytest.raises(TypeError):
        not_maxent_resolved_cell(0.001, -1.0, 0.05, 0.0, 0.02, 1.6e-3, min_fall=5.0)
    assert not_maxent_resolved_cell(0.001, -1.0, 0.05, 0.0, 0.02, 1.6e-3) is True
    assert not_maxent_resolved_cell(0.001, -0.4, 0.05, 0.0, 0.02, 1.6e-3) is False              # envelope slope above -0.5
    assert not_maxent_resolved_cell(0.001, float("-inf"), 0.05, 0.0, 0.02, 1.6e-3) is True       # at the means


def test_more_efficient_late_cell_can_hold_and_fail():
    """Review 210: B5.10 on the last decade's share."""
    from inferopt.experiment.moment_claims import more_efficient_late_cell
    assert more_efficient_late_cell(1.0) is True
    assert more_efficient_late_cell(0.1) is False
    assert more_efficient_late_cell(0.6, 0.75) is False
    assert more_efficient_late_cell(None) == "not measured"


def test_tolerance_ceiling_leaves_a_loose_reading_not_measured():
    """Session 30's review: a tolerance above 0.5 x the moment-set radius is `not measured`; below it the cell decides."""
    from inferopt.experiment.moment_claims import MAX_RADIUS_SHARE, not_maxent_resolved_cell
    res, radius = 4e-4, 0.0412   # (6, 0.4): the 5 % / 10 % of ||p*|| readings gave 0.031 / 0.062
    ceiling = MAX_RADIUS_SHARE * radius
    assert not_maxent_resolved_cell(0.003, -3.8, 0.037, -0.02, 0.062, res, ceiling=ceiling) == "not measured"
    assert not_maxent_resolved_cell(0.003, -3.8, 0.037, -0.02, 0.062, res) is True          # no ceiling: flat, resolved
    assert not_maxent_resolved_cell(0.003, -3.8, 0.037, -0.02, 0.0041, res, ceiling=ceiling) is True   # 0.1 x radius
    assert not_maxent_resolved_cell(0.003, -3.8, 0.003, -0.5, 0.0041, res, ceiling=ceiling) is False  # converges
    assert not_maxent_resolved_cell(0.5, -0.1, 0.037, 0.0, 0.031, res, ceiling=ceiling) is False    # moments first


def test_by_lost_value_compares_d_like_with_like():
    """Session 30's review: B5.8's split over d came from a coupling not measured at d = 10; over the couplings decisive at
    every d the values agree, and a real split stays a split."""
    from inferopt.experiment.moment_claims import by_lost_value
    from inferopt.experiment.verdict_map import lost_setting_verdict
    b58 = {(6, 0.5): "holds", (6, 1.0): "holds", (6, 2.0): "fails", (4, 0.5): "holds", (4, 1.0): "holds", (4, 2.0): "fails",
           (10, 0.5): "holds", (10, 1.0): "holds", (10, 2.0): "not measured"}
    by_d, common = by_lost_value(b58)
    assert common == [0.5, 1.0] and lost_setting_verdict(by_d) is True
    split = b58 | {(10, 2.0): "fails", (4, 2.0): "holds"}   # d = 4 holds at every coupling, 6 and 10 fail at 2
    by_d, common = by_lost_value(split)
    assert common == [0.5, 1.0, 2.0] and lost_setting_verdict(by_d) == "lost setting"
    # session 34's review: a value decisive at no level is undecided and left out of the others' comparison
    none_common = {(6, 0.5): "inconclusive", (4, 0.5): "holds"}
    assert by_lost_value(none_common) == ({4: True, 6: None}, [0.5])
    # undecided cells (B5.3's bracket straddling the cut) leave only the decisive couplings to compare
    b53 = {(6, 1.0): "holds", (6, 0.5): "holds", (6, 2.0): "holds", (8, 1.0): "holds", (8, 0.5): "holds", (8, 2.0): "fails"}
    assert by_lost_value(b53) == ({6: True, 8: False}, [0.5, 1.0, 2.0])
    assert by_lost_value({k: "inconclusive" if v == "holds" else v for k, v in b53.items()}) == ({6: None, 8: False}, [2.0])
    with pytest.raises(ValueError):
        by_lost_value({(6, 0.5): "maybe"})
    with pytest.raises(ValueError):
        by_lost_value({6: "holds"})


def test_by_lost_value_keeps_the_own_maps_where_every_d_agrees():
    """Session 34's second review (B5.3 at the 0.25 reading, default scale): every d fails decisively somewhere (d = 4 at
    2/3, exact; d = 6 at 1 and 2 and d = 10 at 1, on lower bounds: a failure on a lower bound is a failure), but the only
    coupling decisive at every d is 1, where d = 4 holds: like with like would invent a split the maps do not have."""
    from inferopt.experiment.moment_claims import by_lost_value, lost_setting_claim
    b53 = {(4, 0.6667): "fails", (4, 1.0): "holds", (4, 2.0): "inconclusive", (6, 0.6667): "inconclusive", (6, 1.0): "fails",
           (6, 2.0): "fails", (10, 0.6667): "inconclusive", (10, 1.0): "fails", (10, 2.0): "inconclusive"}
    assert by_lost_value(b53) == ({4: False, 6: False, 10: False}, [1.0])
    assert lost_setting_claim(False, b53)["verdict"] is False
    # every d holding throughout agrees as well, with no level common to them
    apart = {(4, 1.0): "holds", (4, 2.0): "not measured", (6, 1.0): "not measured", (6, 2.0): "holds"}
    assert by_lost_value(apart) == ({4: True, 6: True}, [])
    # own maps that disagree (d = 4 holds throughout, 6 and 10 fail at 1) are still compared like with like
    split = {(d_, lv): "holds" for d_ in (4, 6, 10) for lv in (0.6667, 1.0, 2.0)} | {(6, 1.0): "fails", (10, 1.0): "fails"}
    by_d, common = by_lost_value(split)
    assert common == [0.6667, 1.0, 2.0] and by_d == {4: True, 6: False, 10: False}


def test_by_lost_value_compares_every_pair_of_d():
    """Session 34's third review (B5.8 under random ties, default scale): d = 4 holds at every coupling, d = 6 fails at 2,
    d = 10's coupling-2 cell is not measured. Over the couplings decisive at every d (0.5, 1) all hold, which hid the
    split; compared pair by pair (4 against 6 over all three couplings) the d disagree: lost setting."""
    from inferopt.experiment.moment_claims import by_lost_value, lost_setting_claim
    from inferopt.experiment.verdict_map import lost_setting_verdict
    hidden = {(d_, lv): "holds" for d_ in (4, 6, 10) for lv in (0.5, 1.0, 2.0)} | {(6, 2.0): "fails", (10, 2.0): "not measured"}
    by_d, common = by_lost_value(hidden)
    assert common == [0.5, 1.0] and by_d == {4: True, 6: False, 10: True} and lost_setting_verdict(by_d) == "lost setting"
    out = lost_setting_claim(False, hidden)
    assert out["verdict"] is None and out["lost"] == "lost setting"
    # the old rule's reading of the same map without d = 10: the pair 4 / 6 alone disagrees as well
    assert lost_setting_verdict(by_lost_value({k: v for k, v in hidden.items() if k[0] != 10})[0]) == "lost setting"
    # no pair disagrees (the split only from the level not measured at d = 10): the d agree over their common levels
    agree = hidden | {(4, 2.0): "fails"}
    assert lost_setting_verdict(by_lost_value(agree)[0]) is True and lost_setting_claim(False, agree)["verdict"] is False


def test_reading_compared_turns_where_a_d_decides_against_the_chosen_verdict():
    """Session 34's second review (B5.11 at the factor 1.5, default scale): d = 4 fails decisively (1.538) while d = 6 and
    10 hold; the chosen reading holds at every d. The reading is undecided over d, but it turns the claim; a reading with
    no d against the chosen verdict turns nothing."""
    from inferopt.experiment.moment_claims import lost_setting_claim, reading_compared
    at15 = lost_setting_claim(False, {(4, 1.0): "fails", (6, 1.0): "holds", (10, 1.0): "holds"})
    assert at15["verdict"] is None and at15["lost"] == "lost setting"
    assert reading_compared(True, at15) is False                       # turns the holding verdict
    assert reading_compared(False, at15) is True                       # and a failing one (d = 6 and 10 hold there)
    open_ = lost_setting_claim(None, {(4, 1.0): "inconclusive", (6, 1.0): "holds"})
    assert reading_compared(True, open_) is None                       # no information against it: turns nothing
    assert reading_compared(True, lost_setting_claim(True, {(4, 1.0): "holds"})) is True
    assert reading_compared(None, at15) is None and reading_compared(None, lost_setting_claim(False, {(4, 1.0): "fails"})) is False
    with pytest.raises(ValueError):
        reading_compared("holds", at15)
    with pytest.raises(ValueError):
        reading_compared(True, {"verdict": None})


def test_lost_setting_claim_holds_fails_and_stays_open():
    """Session 34's review (B5.3 at paper scale): a failure is the claim's only where every d that decides fails and none is
    undecided; d values that disagree, or one undecided (here: its brackets straddling the cut) where another fails, leave
    it open (lost setting); the same rule at every reading."""
    from inferopt.experiment.moment_claims import lost_setting_claim
    pos = {(6, 1.0): 0.499, (6, 0.5): 0.101, (6, 2.0): 0.457, (8, 1.0): 0.332, (8, 0.5): 0.159, (8, 2.0): 0.526,
           (10, 1.0): 0.275, (10, 0.5): 0.117, (10, 2.0): 0.551}   # positions' lower ends; upper ends 0.4 above
    at = lambda cut: {k: "fails" if x > cut else "inconclusive" if x + 0.4 > cut else "holds" for k, x in pos.items()}
    out = lost_setting_claim(False, at(0.5))
    assert out["verdict"] is None and out["lost"] == "lost setting" and out["undecided"] == [6]
    assert out["by_value"] == {6: None, 8: False, 10: False} and out["common"] == [2.0]
    for cut in (0.25, 0.4):   # every d fails on a lower end: a failure on the true position
        assert lost_setting_claim(False, at(cut))["verdict"] is False
    # decided brackets: d = 6 holds at every coupling: the d disagree (lost setting)
    exact = {k: "holds" if x <= 0.5 else "fails" for k, x in pos.items()}
    assert lost_setting_claim(False, exact)["lost"] == "lost setting" and lost_setting_claim(False, exact)["undecided"] == []
    holds = {k: "holds" for k in pos}
    assert lost_setting_claim(True, holds) == {"by_value": {6: True, 8: True, 10: True}, "common": [0.5, 1.0, 2.0],
                                               "undecided": [], "lost": None, "verdict": True}
    # a d that is only not measured (premise absent) is not undecided: the failure at the others stands
    absent = {(6, 1.0): "not measured", (6, 2.0): "not measured", (8, 1.0): "fails", (8, 2.0): "fails"}
    assert lost_setting_claim(False, absent)["verdict"] is False
    assert lost_setting_claim(None, {(6, 1.0): "inconclusive", (8, 1.0): "holds"})["verdict"] is None
    with pytest.raises(ValueError):
        lost_setting_claim("fails", holds)


def test_crossover_names_one_turn_or_none():
    from inferopt.experiment.moment_claims import crossover
    assert crossover({0.5: "holds", 1.0: "holds", 2.0: "fails"}) == {"low": "holds", "between": (1.0, 2.0)}
    assert crossover({2.0: "holds", 0.5: "fails", 1.0: "not measured"}) == {"low": "fails", "between": (0.5, 2.0)}
    assert crossover({0.5: "holds", 1.0: "holds"}) is None                       # no turn
    assert crossover({0.5: "holds", 1.0: "fails", 2.0: "holds"}) is None         # alternates
    with pytest.raises(ValueError):
        crossover({})


def test_min_entropy_lower_bound_lies_below_the_exact_minimum_and_brackets_b53():
    """Session 36 (helper-280): H >= -log max p(x), the max over the moment set by linear programs, bounds the minimum entropy
    from below (checked against the enumeration at d = 4); a symmetry class per Hamming weight gives the same bound as every
    state; the bracket decides a cell where the cut lies outside it."""
    from inferopt.experiment.moment_claims import (entropy_minimization_bracket, entropy_position, min_entropy_exact,
                                                   min_entropy_lower_bound)
    from inferopt.herding import all_states, exponential_family, pairwise_features
    for d, w in ((4, 1 / 3), (4, 2 / 3), (3, 0.5)):
        S = all_states(d)
        P = pairwise_features(S)
        p = exponential_family(P, np.r_[np.zeros(d), np.full(P.shape[1] - d, w)])
        mu = P.T @ p
        exact = min_entropy_exact(P, mu)[1]
        low = min_entropy_lower_bound(P, mu)
        classes = [list(np.flatnonzero((S > 0).sum(1) == k)) for k in range(d + 1)]
        assert 0.0 < low <= exact + 1e-9 and min_entropy_lower_bound(P, mu, classes) == pytest.approx(low, abs=1e-9)
    assert min_entropy_lower_bound(np.eye(3), np.full(3, 1 / 3)) == pytest.approx(np.log(3), abs=1e-6)   # one distribution: exact
    # helper-280's (6, 0.1) at paper scale: H_ls 2.51, the search's low end 2.171, the bound 1.513, H* 4.03 -> [0.183, 0.396]
    lo, hi = entropy_position(2.51, 2.171, 4.03), entropy_position(2.51, 1.5126, 4.03)
    assert lo == pytest.approx(0.1823, abs=1e-3) and hi == pytest.approx(0.3962, abs=1e-3)
    assert entropy_minimization_bracket(lo, hi, 0.5) is True and entropy_minimization_bracket(lo, hi, 0.25) == "inconclusive"
    assert entropy_minimization_bracket(lo, hi, 0.1) is False and entropy_minimization_bracket(lo, hi, 0.5, premise=False) is None
    with pytest.raises(ValueError, match="high"):
        entropy_minimization_bracket(0.4, 0.3)
    with pytest.raises(ValueError, match="classes"):
        min_entropy_lower_bound(np.eye(3), np.full(3, 1 / 3), [[0, 1]])
    with pytest.raises(ValueError, match="mu"):
        min_entropy_lower_bound(np.eye(3), np.ones(2))


def test_entropy_low_end_takes_runs_at_the_means_only():
    from inferopt.experiment.moment_claims import entropy_low_end
    assert entropy_low_end(3.354, [3.117, 6.73, 1.0], [0.0, 1e-3, 2e-3], 1e-9) == pytest.approx(3.117)   # (10, 1/18)
    assert entropy_low_end(1.188, [1.135, 1.53], [1.6e-3, 2e-4], 1e-9) == pytest.approx(1.188)        # herding off the means
    assert entropy_low_end(2.0, [], [], 0.0) == 2.0
    with pytest.raises(ValueError):
        entropy_low_end(2.0, [1.0], [0.0, 0.0], 0.0)


def test_outer_product_features_weigh_each_pair_twice():
    """The paper's Phi = (x, x x'): kernel x.y + (x.y)^2, against pairwise_features' x.y + ((x.y)^2 - d) / 2; the same
    moment-matching set (the same p* and radius)."""
    import numpy as np
    from inferopt.experiment.moment_claims import outer_product_features
    from inferopt.herding import all_states, pairwise_features
    S = all_states(4)
    P, Q = outer_product_features(S), pairwise_features(S)
    G = S @ S.T
    assert P.shape == (16, 4 + 16)
    np.testing.assert_allclose(P @ P.T, G + G ** 2)
    np.testing.assert_allclose(Q @ Q.T, G + (G ** 2 - 4) / 2)
    p = np.random.default_rng(0).dirichlet(np.ones(16))
    # a distribution matches one's moments iff it matches the other's: the pair columns of Q are columns of P
    assert all(any(np.allclose(P[:, j], Q[:, i]) for j in range(P.shape[1])) for i in range(Q.shape[1]))
    assert np.allclose((P.T @ p)[4 + 0 * 4 + 0], 1.0)   # x_1^2 = 1
    with pytest.raises(ValueError):
        outer_product_features([[0.0, 1.0]])


def test_tie_curves_random_ties_do_not_turn_on_the_last_bits_of_mu():
    """Session 30: herding's scores that cancel by symmetry (Fig. 7's construction) carry the round-off of <Phi, mu>'s
    terms; with the tie scale their size, one ulp more on the pair moments (what another BLAS kernel gives) leaves the
    run with random ties unchanged (with the value as scale it took another path before t = 40000 at (4, 1/3))."""
    import numpy as np
    from inferopt.experiment.moment_claims import permutation_seeds, tie_curves
    from inferopt.herding import all_states, exponential_family, pairwise_features
    d = 4
    F = pairwise_features(all_states(d))
    p = exponential_family(F, np.concatenate([np.zeros(d), np.full(F.shape[1] - d, 1 / 3)]))
    mu = F.T @ p
    mu_ulp = mu.copy()
    mu_ulp[d:] = np.nextafter(mu_ulp[d:], np.inf)
    s = permutation_seeds(0, 5)[0]
    a, b = (tie_curves(F, m_, p, 40_000, "1/(t+1)", [40_000], s) for m_ in (mu, mu_ulp))
    assert a.dist.iloc[-1] == b.dist.iloc[-1]


def test_min_entropy_exact_matches_brute_force_and_bounds_the_search():
    """B5.3's exact low end (d <= 4): the vertex enumeration equals the brute force over every vertex and a fine scan of a
    one-dimensional polytope, and is never above the search's (an upper bound), so positions from the search are lower
    bounds on the exact ones."""
    from inferopt.experiment.moment_claims import entropy_position, min_entropy_exact, min_entropy_vertex
    from inferopt.herding import all_states, entropy, exponential_family, pairwise_features
    rng = np.random.default_rng(5)
    for trial in range(3):
        F = rng.integers(-2, 3, size=(9, 3)).astype(float)
        mu = F.T @ rng.dirichlet(np.ones(9))
        p, h = min_entropy_exact(F, mu)
        assert np.allclose(F.T @ p, mu, atol=1e-8) and h == pytest.approx(min(entropy(v) for v in _vertices_brute_force(F, mu)), abs=1e-9)
        assert h <= min_entropy_vertex(F, mu, np.random.default_rng([trial, 1]))[1] + 1e-12
    # d = 2, unary features only: {p >= 0, sum p = 1, E x = 0} is the segment p = (a, 1/2 - a, 1/2 - a, a), a in [0, 1/2]
    F = all_states(2)
    scan = min(entropy(np.array([a, 0.5 - a, 0.5 - a, a])) for a in np.linspace(0.0, 0.5, 5001))
    assert min_entropy_exact(F, np.zeros(2))[1] == pytest.approx(scan, abs=1e-12) and scan == pytest.approx(np.log(2))
    # Fig. 7's model at d = 4: the exact low end at or below the search's; the position from the search is the lower one
    F = pairwise_features(all_states(4))
    p_star = exponential_family(F, np.concatenate([np.zeros(4), np.full(6, 2 / 3)]))
    h_exact = min_entropy_exact(F, F.T @ p_star)[1]
    h_search = min_entropy_vertex(F, F.T @ p_star, np.random.default_rng(0), n_starts=2, max_steps=0)[1]
    assert h_exact <= h_search + 1e-12
    h_run = 0.5 * (h_search + entropy(p_star))
    assert entropy_position(h_run, h_search, entropy(p_star)) <= entropy_position(h_run, h_exact, entropy(p_star)) + 1e-12
    F6 = pairwise_features(all_states(6))
    with pytest.raises(ValueError, match="features"):   # 2^6 states: too many supports to enumerate
        min_entropy_exact(F6, F6.T @ np.full(64, 1 / 64))
    with pytest.raises(ValueError, match="mu"):
        min_entropy_exact(F, np.zeros(3))


def test_approach_count_holds_fails_and_an_empty_reading_is_undecided():
    """B5.9: the count of cells in which a method approaches p* can hold and fail; a reading at which neither method
    approaches p* in any cell (0 vs 0) is undecided, not a disagreement (session 33's review): it turns nothing."""
    from inferopt.experiment.moment_claims import approach_count, approaches_in_more_cells
    from inferopt.experiment.verdict_map import map_reading_verdict
    tols = [0.02, 0.02, 0.004]
    herding, line_search = [0.011, 0.05, 0.003], [0.03, 0.04, 0.01]
    assert approach_count(herding, tols) == 2 and approach_count(line_search, tols) == 0
    assert approaches_in_more_cells(2, 0) is True                                                # holds
    assert approaches_in_more_cells(0, 2) is False and approaches_in_more_cells(1, 1) is False   # fails; equal counts no win
    tight = [t / 4 for t in tols]
    assert approach_count(herding, tight) == approach_count(line_search, tight) == 0
    assert approaches_in_more_cells(0, 0) is None                                                # 0 vs 0: undecided
    out = map_reading_verdict(approaches_in_more_cells(2, 0), [approaches_in_more_cells(0, 0), approaches_in_more_cells(2, 0)])
    assert (out["verdict"], out["kind"]) == ("holds", None)                                       # the empty reading turns nothing
    assert map_reading_verdict(approaches_in_more_cells(2, 0), [approaches_in_more_cells(1, 1)])["kind"] == "reading"
    with pytest.raises(ValueError, match="final_dists"):
        approach_count([0.1, 0.2], [0.1])
    with pytest.raises(ValueError, match="tols"):
        approach_count([0.1], [0.0])
    with pytest.raises(TypeError, match="count"):
        approaches_in_more_cells(True, 0)


def test_closer_cell_decides_b59_per_cell_and_leaves_the_grid_undecided():
    """Session 46 (session 45's fresh review of B5.9: a majority over our grid of couplings is not clause 3; at d = 10 it
    turned on w (d - 1) = 4, 0.00173 vs 0.00167 with the resolution 0.00016): B5.9 per cell, three-valued, for map_holds
    over the pair-weight axis. Paper-scale cells: (8, 1/7) herding 0.0442 vs line search 0.1377 holds; (8, 2/7) 0.0583
    vs 0.0380 fails; (10, 4/9) undecided (6e-5 apart, within the resolution), either way round; a herding win by less
    than the resolution is undecided too (session 41 had counted it). The factor reads the ratio."""
    from inferopt.experiment.herding_claims import map_holds
    from inferopt.experiment.moment_claims import closer_cell, run_resolution
    r8, r10 = run_resolution(2 ** 8, 100_000), run_resolution(2 ** 10, 100_000)
    assert closer_cell(0.0442, 0.1377, r8) is True
    assert closer_cell(0.0583, 0.0380, r8) is False
    assert closer_cell(0.00172772, 0.00166869, r10) is None                 # herding farther by 6e-5 < 1.6e-4
    assert closer_cell(0.00166869, 0.00172772, r10) is None                 # herding closer by 6e-5: undecided too
    assert closer_cell(0.0012, 0.0001, r10) is None                         # a loss within 10 x the resolution
    assert closer_cell(0.0100, 0.0105, r10, factor=1.1) is False            # closer, not by the factor 1.1
    assert closer_cell(0.0100, 0.0095, r10, factor=0.9) is True             # slightly farther, within the factor 0.9
    # over the axis (clause 3): d = 10's cells at the paper scale, w (d - 1) = 0.5, 1, 2, 3, 4: fails (a cell fails)
    d10 = [(0.00858, 0.16954), (0.01167, 0.15699), (0.08025, 0.05609), (0.01566, 0.00956), (0.00173, 0.00167)]
    word = {True: "holds", False: "fails", None: "inconclusive"}
    assert map_holds([word[closer_cell(a, b, r10)] for a, b in d10]) is False
    assert map_holds([word[closer_cell(a, b, r10)] for a, b in d10[:2]]) is True
    assert map_holds([word[closer_cell(a, b, r10)] for a, b in d10[:2] + d10[4:]]) is None
    with pytest.raises(ValueError, match="resolution"):
        closer_cell(0.1, 0.2, 0.0)
    with pytest.raises(ValueError, match="dist_other"):
        closer_cell(0.1, -0.2, r10)
    with pytest.raises(ValueError, match="factor"):
        closer_cell(0.1, 0.2, r10, factor=0.0)


def test_majority_over_d_holds_fails_and_a_split_is_a_lost_setting():
    """B5.9 over the lost d (session 38's review): it holds where the majority holds at every d, fails where it fails at
    every d, and a split over d, or a d undecided where another fails, is inconclusive (a lost setting)."""
    from inferopt.experiment.moment_claims import majority_over_d
    assert majority_over_d({6: "holds", 8: "holds", 10: "holds"})["verdict"] is True
    out = majority_over_d({6: "fails", 8: "fails", 10: "not measured"})
    assert out["verdict"] is False and out["lost"] is None
    split = majority_over_d({6: "holds", 8: "fails", 10: "holds"})
    assert split["verdict"] is None and split["lost"] == "lost setting" and split["by_value"] == {6: True, 8: False, 10: True}
    open_ = majority_over_d({6: "inconclusive", 8: "fails"})
    assert open_["verdict"] is None and open_["lost"] == "lost setting" and open_["undecided"] == [6]
    assert majority_over_d({6: "inconclusive", 8: "holds"})["verdict"] is None and majority_over_d({6: "inconclusive", 8: "holds"})["lost"] is None
    with pytest.raises(ValueError, match="verdicts_by_d"):
        majority_over_d({})
    with pytest.raises(ValueError, match="verdicts_by_d"):
        majority_over_d({6: True})


def test_by_lost_value_leaves_a_d_with_an_undecided_own_map_undecided():
    """Session 39's review (B5.3 at the 0.6 reading, paper scale): d = 6 holds at coupling 0.5 and is undecided at 1 and
    2 (its own map undecided), while d = 8 and 10 fail at 2. Read over the only coupling every d decided (0.5), d = 6 was
    called "holds" and the failure stood; d = 6 is undecided, so the failures at d = 8 and 10 do not carry to it: the
    claim is inconclusive at that reading (a lost setting)."""
    from inferopt.experiment.moment_claims import by_lost_value, lost_setting_claim
    at06 = {(8, 1.0): "inconclusive", (8, 0.5): "holds", (8, 2.0): "fails",
            (6, 1.0): "inconclusive", (6, 0.5): "holds", (6, 2.0): "inconclusive",
            (10, 1.0): "holds", (10, 0.5): "holds", (10, 2.0): "fails"}
    by_d, common = by_lost_value(at06)
    assert by_d == {6: None, 8: False, 10: False} and common == [0.5, 2.0]
    out = lost_setting_claim(False, at06)
    assert out["undecided"] == [6] and out["lost"] == "lost setting" and out["verdict"] is None
    # where d = 6 decides its own map (its undecided cells hold), the d compare as before: a split over d
    decided = at06 | {(6, 1.0): "holds", (6, 2.0): "holds"}
    assert lost_setting_claim(False, decided)["by_value"] == {6: True, 8: False, 10: False}
    # a d undecided beside d that hold leaves the claim open, never holding
    assert lost_setting_claim(None, {(6, 0.5): "holds", (6, 1.0): "inconclusive", (8, 0.5): "holds"})["by_value"] == {6: None, 8: True}


def test_farther_given_premise_reads_the_premise_first():
    """B5.8 on one cell (session 40): not measured where line search is not more efficient at the moments."""
    from inferopt.experiment.moment_claims import farther_given_premise
    assert farther_given_premise(0.1377, 0.0442, 1.1) is True                                  # 3.12: holds
    assert farther_given_premise(0.0380, 0.0583, 1.1) is False                                 # 0.65: fails
    assert farther_given_premise(0.0380, 0.0583, 1.1, False) == "not measured"                 # premise absent (premise_gate)
    with pytest.raises(TypeError, match="premise"):
        farther_given_premise(0.1, 0.1, 1.1, "yes")


def test_resolved_comparison_bounds_the_grid_run_only():
    """Session 39's third review of B5: at (10, 4/9) line search's "win" of 6e-5 (0.00167 against herding's 0.00173) lies
    below herding's resolution sqrt(2^10) / (2 x 10^5) = 1.6e-4: it decides nothing. Session 41 (session 40's review): the
    grid bounds herding's weights only (line search's lie on no grid), so a herding win is resolved however near p*
    (the default scale's (10, 1/3): herding 0.00133 against 0.0107, resolution 1.6e-3), and a herding loss is resolved
    only beyond the resolution with herding at 10 times it or more."""
    from inferopt.experiment.moment_claims import resolved_comparison, run_resolution
    res = run_resolution(2 ** 10, 100_000)
    assert res == pytest.approx(1.6e-4)
    assert not resolved_comparison(0.00172772, 0.00166869, res)                       # herding farther by 6e-5 < 1.6e-4
    assert resolved_comparison(0.0007, 0.0095, res)                                   # herding closer: resolved
    assert resolved_comparison(0.0001, 0.0012, res)                                   # herding closer, both below 10 x res
    assert not resolved_comparison(0.0012, 0.0001, res)                               # herding farther within 10 x res
    assert resolved_comparison(0.0583, 0.0380, res)                                   # herding farther, resolved
    assert resolved_comparison(0.00133, 0.0107, run_resolution(2 ** 10, 10_000))      # the default scale's (10, 1/3)
    with pytest.raises(ValueError, match="resolution"):
        resolved_comparison(0.1, 0.2, 0.0)


def test_tie_rule_verdict_weighs_each_tie_rule_over_d_and_never_swaps_cells():
    """Session 42 (session 41's review of B5): the lowest index decides every cell; random ties and the tie-free runs are
    tie-rule cells. Each rule's own claim over d is read: `fails (setting: tie rule)` only where one rule fails at every
    d and another holds at every d, at every reading; a split over d (B5.8 at the paper scale: the lowest index holds at
    d = 6 and fails at 8 and 10, random ties hold at every d, tie-free fails at 8 only) stays inconclusive naming the
    rules, where session 41's tie_rule_split made it fail on one seed draw; a tie rule holding at one d where the chosen
    rule fails at every d leaves the claim open (the rule before it reported it failing, rescued)."""
    from inferopt.experiment.moment_claims import majority_over_d, tie_rule_verdict
    from inferopt.experiment.verdict_map import NOT_RUN
    c = lambda *ws: majority_over_d(dict(zip((6, 8, 10), ws)))
    holds, fails = c("holds", "holds", "holds"), c("fails", "fails", "fails")
    # one rule fails at every d at every reading, another holds at every d at every reading: fails, `setting`
    out = tie_rule_verdict([fails, fails], {"random ties": [holds, holds], "tie-free": NOT_RUN})
    assert (out["verdict"], out["kind"], out["failing"], out["holding"]) == ("fails", "setting", ["chosen"], ["random ties"])
    # ... but not where the failing rule holds at one reading: the reading turns it first
    assert tie_rule_verdict([fails, holds], {"random ties": [holds, holds]})["verdict"] == "inconclusive"
    # B5.8's split over d: inconclusive, both tie rules named, whatever the cells of the split
    split = tie_rule_verdict([c("holds", "fails", "fails")], {"random ties": [holds], "tie-free": [c("holds", "fails", "holds")]})
    assert split["verdict"] == "inconclusive" and split["differ"] == ["random ties", "tie-free"] and not split["failing"]
    # the chosen rule fails at every d, random ties hold at d = 6 only: inconclusive, `setting` (no rescue on one d) ...
    one_d = tie_rule_verdict([fails], {"random ties": [c("holds", "fails", "fails")]})
    assert (one_d["verdict"], one_d["kind"], one_d["differ"]) == ("inconclusive", "setting", ["random ties"])
    # ... random ties undecided where the chosen rule fails turn nothing; where it holds they open it
    assert tie_rule_verdict([fails], {"random ties": [c("inconclusive", "fails", "fails")]})["verdict"] == "fails"
    assert tie_rule_verdict([holds], {"random ties": [c("holds", "inconclusive", "holds")]})["verdict"] == "inconclusive"
    # every rule holds: holds; a tie rule failing at one d where the chosen rule holds: inconclusive
    assert tie_rule_verdict([holds, holds], {"random ties": [holds, holds], "tie-free": [holds, holds]})["verdict"] == "holds"
    assert tie_rule_verdict([holds], {"tie-free": [c("holds", "fails", "holds")]})["differ"] == ["tie-free"]
    # session 46 (session 45's fresh review of B5.2): a reading turning the claim names no tie rule that agrees (random
    # ties held in every cell they ran; the old rule named every rule run whenever a reading turned the claim)
    turned = tie_rule_verdict([holds, fails], {"random ties": [holds, holds]})
    assert turned["verdict"] == "inconclusive" and turned["kind"] == "reading" and turned["differ"] == []
    turned_against = tie_rule_verdict([holds, fails], {"random ties": [c("holds", "fails", "holds"), holds]})
    assert turned_against["differ"] == ["random ties"]
    with pytest.raises(ValueError, match="chosen"):
        tie_rule_verdict([], {})
    with pytest.raises(ValueError, match="constructions"):
        tie_rule_verdict([holds, holds], {"tie-free": [holds]})


def test_tie_rules_differing_names_only_a_rule_that_says_otherwise():
    """Session 46: a tie rule is a `setting` reason only where it says otherwise at the chosen reading: against a held
    claim, a rule failing or undecided (a d of it deciding against counts); against a failed claim, a rule holding (one
    undecided turns nothing); where the chosen rule is undecided, any rule that decides."""
    from inferopt.experiment.moment_claims import majority_over_d, tie_rules_differing
    c = lambda *ws: majority_over_d(dict(zip((6, 8, 10), ws)))
    holds, fails, open_ = c("holds", "holds", "holds"), c("fails", "fails", "fails"), c("inconclusive", "holds", "holds")
    assert tie_rules_differing(holds, {"random ties": holds}) == []
    assert tie_rules_differing(holds, {"random ties": fails, "tie-free": open_}) == ["random ties", "tie-free"]
    assert tie_rules_differing(fails, {"random ties": c("inconclusive", "fails", "fails")}) == []
    assert tie_rules_differing(fails, {"random ties": c("holds", "fails", "fails")}) == ["random ties"]
    split = c("holds", "fails", "fails")                                  # undecided: a lost setting
    assert tie_rules_differing(split, {"random ties": holds, "tie-free": c("holds", "fails", "holds"), "same": split}) == [
        "random ties", "tie-free"]
    with pytest.raises(ValueError, match="chosen"):
        tie_rules_differing("holds", {})
    with pytest.raises(ValueError, match="at_chosen"):
        tie_rules_differing(holds, [holds])


def test_line_search_off_the_grid_reads_no_grid_resolution():
    """Session 42 (session 41's review of B5): run_resolution bounds herding's grid of 1 / T; line search's weights lie on
    no grid, so B5.2 reads its run with no resolution. A line-search run flat at p* (distance 1e-12) converged: fails
    (with herding's resolution it read undecided, "flat within the grid's reach"); flat at 5e-3 above the tolerance
    2e-3 stalls: holds (within 10 x 1e-3 it read undecided); a tolerance below 1e-3 is no longer `not measured`."""
    from inferopt.experiment.moment_claims import not_maxent_resolved_cell
    vanish = (0.001, -1.0)
    assert not_maxent_resolved_cell(*vanish, 1e-12, 0.0, 2e-3, None) is False
    assert not_maxent_resolved_cell(*vanish, 1e-12, 0.0, 2e-3, 1e-3) is None                  # the old reading
    assert not_maxent_resolved_cell(*vanish, 5e-3, 0.0, 2e-3, None) is True
    assert not_maxent_resolved_cell(*vanish, 5e-3, 0.0, 2e-3, 1e-3) is None                   # the old reading
    assert not_maxent_resolved_cell(*vanish, 5e-3, 0.0, 5e-4, None) is True
    assert not_maxent_resolved_cell(*vanish, 5e-3, 0.0, 5e-4, 1e-3) == "not measured"
    assert not_maxent_resolved_cell(*vanish, 1e-3, -0.5, 2e-3, None) is False                 # still falling within tol
    assert not_maxent_resolved_cell(*vanish, 5e-3, -0.5, 2e-3, None) is None                  # still falling outside
    assert not_maxent_resolved_cell(*vanish, 5e-3, 0.0, 0.3, None, ceiling=0.2) == "not measured"
    assert not_maxent_resolved_cell(0.72, -0.13, 5e-3, 0.0, 2e-3, None) is False   # moments first


def test_entropy_minimization_reading_reads_the_absolute_cut_and_b46s_comparative_reading():
    """Session 43 (B5.3, the fresh review of issue 44): at the paper scale's (8, 2/7) line search's position is
    [0.809, 0.895] against herding's 0.844: it fails the absolute cut 0.5 and holds B4.6's comparative reading (entropy
    1.541 below herding's 1.558); either reading can hold and can fail, and a cell without the premise decides nothing."""
    from inferopt.experiment.moment_claims import entropy_minimization_reading
    assert entropy_minimization_reading(0.809, 0.895, 0.5, True) is False                                  # absolute: fails
    assert entropy_minimization_reading(0.183, 0.396, 0.5, True) is True                                   # absolute: holds
    assert entropy_minimization_reading(0.809, 0.895, 1.0, True, "herding", 1.5408, 1.5582) is True       # comparative: holds
    assert entropy_minimization_reading(0.2, 0.3, 1.0, True, "herding", 3.6, 3.5) is False                # above herding's: fails
    assert entropy_minimization_reading(0.2, 0.3, 1.0, True, "herding", 3.5, 3.5) is False                # equal: no minimisation
    assert entropy_minimization_reading(0.2, 0.3, 1.0, False, "herding", 1.0, 3.5) is None                # premise absent
    with pytest.raises(ValueError, match="reference"):
        entropy_minimization_reading(0.2, 0.3, 0.5, True, "uniform")
    with pytest.raises(ValueError, match="cut"):
        entropy_minimization_reading(0.2, 0.3, 0.5, True, "herding", 1.0, 2.0)
    with pytest.raises(ValueError, match="herding_entropy"):
        entropy_minimization_reading(0.2, 0.3, 1.0, True, "herding", 1.0)


def test_calibrated_position_cut_is_the_largest_position_the_paper_calls_close_to_a_minimum_entropy():
    """Session 43 (B5.3): the cut calibrated on Fig. 6's line-search panels (B4's paper-scale figure draw: random
    0.798, rational ratios 0.038, rational 0.383) is 0.798: a position of 0.81 fails it, 0.6 holds it."""
    from inferopt.experiment.moment_claims import calibrated_position_cut, entropy_minimization_bracket
    cut = calibrated_position_cut([0.797656, 0.0382661, 0.383096])
    assert cut == pytest.approx(0.797656)
    assert entropy_minimization_bracket(0.809, 0.895, cut) is False
    assert entropy_minimization_bracket(0.5, 0.6, cut) is True
    with pytest.raises(ValueError, match="positions"):
        calibrated_position_cut([])


def test_drawn_cell_counts_only_cells_free_of_ties():
    """Session 43 (B5.12): a drawn cell whose herding run never tied carries B5.1's outcome (holds or fails); a cell
    where some step tied (Fig. 7's symmetric cells) is not measured."""
    from inferopt.experiment.moment_claims import drawn_cell
    assert drawn_cell(True, 0.0) is True
    assert drawn_cell(False, 0.0) is False
    assert drawn_cell("not measured", 0.0) == "not measured"
    assert drawn_cell(True, 0.47) == "not measured"
    with pytest.raises(ValueError, match="outcome"):
        drawn_cell("maybe", 0.0)
    with pytest.raises(ValueError, match="tie_share"):
        drawn_cell(True, 1.5)


def test_drawn_majority_decides_b5_12_by_majority_over_independent_draws():
    """Session 44 (session 43's review: one unary draw per d, `deterministic`): B5.12 holds where herding fails at more
    than half of each d's measured draws, fails where it converges at half or more at every d, a split over d is a lost
    setting, undecided draws leave a d short; tied draws (not measured) are left out."""
    from inferopt.experiment.moment_claims import drawn_majority
    held = drawn_majority({6: [True, True, True, False, None], 8: [True] * 5})
    assert held["verdict"] is True and held["counts"] == {6: [3, 1, 5], 8: [5, 0, 5]}
    failed = drawn_majority({6: [False, False, True, True], 8: [False] * 3 + ["not measured"]})
    assert failed["verdict"] is False and failed["counts"][8] == [0, 3, 3]
    split = drawn_majority({6: [False] * 5, 8: [True] * 5})
    assert split["verdict"] is None and split["lost"] == "lost setting"
    short = drawn_majority({6: [True, True, None, None, False]})   # 2 of 5 fail to converge, 1 converges: undecided
    assert short["verdict"] is None and short["by_value"] == {6: None}
    assert drawn_majority({6: [True, True, None, None, False]}, share=0.3)["verdict"] is True
    nothing = drawn_majority({6: ["not measured"] * 3})
    assert nothing["verdict"] is None and nothing["counts"] == {6: [0, 0, 0]}
    with pytest.raises(ValueError, match="outcomes_by_d"):
        drawn_majority({6: ["maybe"]})
    with pytest.raises(ValueError, match="outcomes_by_d"):
        drawn_majority({})
    with pytest.raises(ValueError, match="share"):
        drawn_majority({6: [True]}, share=1.0)


def test_position_cut_readings_keep_the_authors_usage_beside():
    """Session 52 (sessions 50 and 51's fresh reviews disagreed; session 51 had made the authors' usage a deciding reading):
    the cut calibrated on Fig. 6, 0.8807, is the largest of our own Fig. 6 positions -- circular (B4.4-entropy, which tests
    that Fig. 6 sentence, is inconclusive) and far looser than "a minimization of the entropy" (lax). It is returned
    beside and decides nothing: the deciding cuts are the strict ones. At the paper scale's (6, 0.2), position
    [0.576, 0.746], the cell holds at 0.8807 and fails at 0.5: with 0.8807 deciding the verdict turned."""
    from inferopt.experiment.moment_claims import POSITION_CUT_BOUNDS, entropy_minimization_bracket, position_cut_readings
    cut = position_cut_readings(0.5, [0.4, 0.6], 0.8807)
    assert cut["chosen"] == 0.5 and cut["authors"] == 0.8807
    assert cut["readings"] == [0.4, 0.5, 0.6] == cut["strict"]                        # session 51's code added 0.8807
    assert 0.8807 not in cut["readings"]
    assert all(POSITION_CUT_BOUNDS[0] <= c <= POSITION_CUT_BOUNDS[1] for c in cut["readings"])
    assert entropy_minimization_bracket(0.576, 0.746, cut["authors"]) is True         # the lenient cut would hold the cell ...
    assert entropy_minimization_bracket(0.576, 0.746, 0.5) is False                     # ... the chosen one fails it
    low = position_cut_readings(0.5, [0.4, 0.6], 0.55)
    assert low["readings"] == [0.4, 0.5, 0.6] and low["authors"] == 0.55
    with pytest.raises(ValueError, match="cuts must lie within"):
        position_cut_readings(0.5, [0.4, 0.8807], 0.8807)   # a strict reading outside [0.4, 0.6]: refused
    with pytest.raises(ValueError, match="cuts must lie within"):
        position_cut_readings(0.5, [0.25, 0.6], 0.8807)
    with pytest.raises(ValueError, match="chosen"):
        position_cut_readings(0.8807, [0.4, 0.6], 0.8807)
    assert position_cut_readings(0.5, [0.45, 0.55], 0.8807, bounds=(0.45, 0.55))["strict"] == [0.45, 0.5, 0.55]
    with pytest.raises(ValueError, match="each side"):
        position_cut_readings(0.5, [0.4, 0.45], 0.8807)
    with pytest.raises(ValueError, match="cuts"):
        position_cut_readings(0.5, [], 0.8807)
    with pytest.raises(ValueError, match="chosen"):
        position_cut_readings(float("nan"), [0.4, 0.6], 0.8807)
    with pytest.raises(ValueError, match="authors"):
        position_cut_readings(0.5, [0.4, 0.6], float("nan"))
    with pytest.raises(ValueError, match="bounds"):
        position_cut_readings(0.5, [0.4, 0.6], 0.8807, bounds=(0.6, 0.4))


def test_cell_budget_is_the_cells_for_every_method():
    """Session 45 (session 44's fresh review of B5.2: line search alone ran to 10^6 at w (d - 1) = 3, 4): the budget is
    a property of the cell, fixed from the params: the extra couplings' cells get extra_points, the map's grid n_points,
    whatever the method."""
    from inferopt.experiment.moment_claims import cell_budget
    assert cell_budget(4.0, [3.0, 4.0], 100_000, 1_000_000) == 1_000_000
    assert cell_budget(3.0, [3.0, 4.0], 100_000, 1_000_000) == 1_000_000
    assert cell_budget(2.0, [3.0, 4.0], 100_000, 1_000_000) == 100_000
    assert cell_budget(3.5, [3.0, 4.0], 100_000, 1_000_000) == 100_000
    assert cell_budget(4.0, [], 10_000, 10_000) == 10_000
    with pytest.raises(ValueError, match="extra_points"):
        cell_budget(4.0, [4.0], 10_000, 5_000)
    with pytest.raises(ValueError, match="level"):
        cell_budget(float("nan"), [4.0], 10_000, 20_000)
    with pytest.raises(ValueError, match="extra_levels"):
        cell_budget(4.0, [float("inf")], 10_000, 20_000)


def test_closer_majority_is_a_frequency_over_decisive_cells():
    """Session 47 (the second fresh review of issue 44): B5.9's "tends to approach MORE OFTEN" is a frequency: herding
    strictly closer in more than half of a d's decisive cells holds there, where map_holds (every cell, the old rule)
    fails; undecided cells (within the resolution) do not count; 2 of 4 is no majority; 2/3 is a stricter reading."""
    from inferopt.experiment.herding_claims import map_holds
    from inferopt.experiment.moment_claims import MAJORITY_SHARES, closer_majority
    paper = {6: [True] * 5, 8: [True, True, False, True, True], 10: [True, True, False, False, None]}
    assert map_holds(["holds" if x else "fails" for x in paper[8]]) is False           # the old every-cell rule
    c = closer_majority(paper)
    assert c["by_value"] == {6: True, 8: True, 10: False} and c["verdict"] is None      # d splits it: a lost setting
    assert c["counts"] == {6: [5, 0, 5], 8: [4, 1, 5], 10: [2, 2, 4]}
    assert closer_majority({8: [True, True, False, None]})["verdict"] is True          # 2 of 3 decisive at 1/2
    assert closer_majority({8: [True, True, False]}, 2 / 3)["verdict"] is False         # 2 of 3 is not more than 2/3
    assert closer_majority({8: [True] * 3 + [False] * 2})["verdict"] is True             # 3 of 5 at 1/2 ...
    assert closer_majority({8: [True] * 3 + [False] * 2}, 0.6)["verdict"] is False       # ... is not more than 3/5
    assert MAJORITY_SHARES == (0.5, 0.6, 2 / 3)                                            # B5.12's three readings of ours
    assert closer_majority({8: [True, True, "not measured", "not measured"]})["counts"] == {8: [2, 0, 2]}   # premise absent
    assert closer_majority({8: ["holds", "fails", "fails"]})["verdict"] is False
    assert closer_majority({8: [None, "inconclusive"]})["by_value"] == {8: None}          # no decisive cell: not measured
    with pytest.raises(ValueError, match="outcomes_by_d"):
        closer_majority({8: True})
    with pytest.raises(ValueError, match="outcomes_by_d"):
        closer_majority({})


def test_frequency_verdict_names_the_tie_rule_and_d():
    """B5.9 over the tie rules and the readings of "more often": one word everywhere decides; a turn is inconclusive with
    the reason naming the tie rule AND d (the paper-scale numbers of 6c628b7, every coupling counted)."""
    from inferopt.experiment.moment_claims import FREQUENCY_READINGS, closer_majority, frequency_verdict
    low = {6: [True] * 5, 8: [True, True, False, True, True], 10: [True, True, False, False, None]}
    rnd = {d: [True] * 5 for d in (6, 8, 10)}
    free = {6: ["holds", "holds", "fails", "inconclusive", "fails"], 8: ["holds", "holds"], 10: ["holds", "holds", "holds"]}
    claims = {(r, x): closer_majority(o, x[0], bool(x[1])) for x in FREQUENCY_READINGS
              for r, o in (("lowest index", low), ("random ties", rnd), ("tie-free", free))}
    chosen = ("lowest index", FREQUENCY_READINGS[0])
    v = frequency_verdict(claims, chosen)
    assert v["verdict"] == "inconclusive"
    assert ("lowest index", (0.5, 0, 10.0), 10, "fails") in v["differ"] and ("tie-free", (0.5, 0, 10.0), 6, "fails") in v["differ"]
    assert "lowest index" in v["reason"] and "tie-free" in v["reason"] and "d = 10" in v["reason"] and "d = 6" in v["reason"]
    every = {(r, x): closer_majority(rnd, x[0], bool(x[1])) for r in ("lowest index", "random ties") for x in FREQUENCY_READINGS}
    assert frequency_verdict(every, chosen) == {"verdict": "holds", "differ": [], "reason": None}
    fail = {(r, FREQUENCY_READINGS[0]): closer_majority({6: [False, False], 8: [False, True, False]}) for r in ("lowest index", "random ties")}
    assert frequency_verdict(fail, chosen)["verdict"] == "fails"
    with pytest.raises(ValueError, match="chosen"):
        frequency_verdict(every, ("nobody", FREQUENCY_READINGS[0]))


def test_frequency_readings_refuse_always_on_three_cells():
    """Session 48's fresh review of issue 44: on 3 premise cells per d, "more than 2/3" means every cell -- "always", not
    "more often" (session 47's third reading); 1/2 and 3/5 per d (2 of 3) and 1/2 pooled over d (5 of 9) are readings of
    it, and 2/3 pooled (7 of 9) would be too. Two cells need both for a majority already: not refused."""
    from inferopt.experiment.moment_claims import FREQUENCY_READINGS, MAJORITY_SHARES, PREMISE_FACTORS, frequency_readings
    assert frequency_readings(FREQUENCY_READINGS, 3, 3) == [(0.5, 0, 10.0), (0.6, 0, 10.0), (0.5, 1, 10.0), (0.5, 0, 3.0), (0.5, 0, 30.0)]
    assert len(FREQUENCY_READINGS) >= 3                                                   # claims.py's MIN_READINGS
    with pytest.raises(ValueError, match="readings"):
        frequency_readings([(s, 0) for s in MAJORITY_SHARES], 3, 3)                       # the old readings: 2/3 per d
    assert frequency_readings([(2 / 3, 1)], 3, 3) == [(2 / 3, 1, PREMISE_FACTORS[0])]
    assert frequency_readings([(0.5, 0)], 2, 3) == [(0.5, 0, 10.0)]
    with pytest.raises(ValueError, match="factor"):
        frequency_readings([(0.5, 0, 0)], 3, 3)                                           # session 51's ungated entry: refused
    with pytest.raises(ValueError, match="readings"):
        frequency_readings([(0.5, 2)], 3, 3)
    with pytest.raises(ValueError, match="n_per_d"):
        frequency_readings(FREQUENCY_READINGS, 0, 3)


def test_one_axis_and_one_premise_gate_for_b58_and_b59():
    """Session 48's fresh review of issue 44: B5.2, B5.8 and B5.9 read one coupling set (the params' grid and the extra
    couplings); the premise is the only exclusion, for B5.8 and B5.9 alike. The 8924833 numbers: at d = 10 herding lost at
    couplings 2 and 3 (2 of 4 decisive: no majority, the old count), but the premise is absent at 3 and 4 (line search's
    moment error above herding's there): gated, 2 of 3 decisive, a majority."""
    from inferopt.experiment.moment_claims import (axis_cells, closer_cell, closer_given_premise, closer_majority,
                                                   farther_given_premise, premise_gate)
    level = lambda k: k[1] * (k[0] - 1)
    grid = [(10, c / 9, 0.0) for c in (1.0, 0.5, 2.0)]
    extra = [(10, c / 9, 0.0) for c in (3.0, 4.0)]
    assert axis_cells(grid, extra, level) == grid + extra
    with pytest.raises(ValueError, match="extra_cells"):
        axis_cells(grid, [(10, 2.0 / 9, 0.0)], level)
    # d = 10, lowest index: (herding, line search) final distances, resolution, premise
    cells = [(0.0117, 0.0413, True), (0.0090, 0.0330, True), (0.0697, 0.0487, True), (0.00321, 0.00212, False),
             (0.00173, 0.00167, False)]
    res = 1.6e-4
    old = [closer_cell(h, o, res) for h, o, _ in cells]
    assert closer_majority({10: old})["verdict"] is False                                  # 2 of 4 decisive: the old count
    gated = [closer_given_premise(h, o, res, p) for h, o, p in cells]
    assert gated[3:] == ["not measured"] * 2
    assert closer_majority({10: gated})["verdict"] is True and closer_majority({10: gated})["counts"] == {10: [2, 1, 3]}
    # the same gate as B5.8's
    assert farther_given_premise(0.0413, 0.0117, 1.1, False) == premise_gate(True, False) == "not measured"
    assert premise_gate("fails", True) == "fails"
    with pytest.raises(TypeError, match="premise"):
        closer_given_premise(0.1, 0.2, 1e-3, "yes")


def test_rescue_cells_need_every_cut_and_random_ties():
    """B5.3's diagnosis (session 47's second fresh review): a rescue cell holds at 0.4, 0.5 and 0.6 and under random
    ties; d = 8 and d = 10 at coupling 0.5 (undecided at 0.4) are partial, named with their brackets."""
    from inferopt.experiment.moment_claims import rescue_cells
    chosen = {(6, 0.5): ["holds"] * 3, (8, 0.5): ["inconclusive", "holds", "holds"], (10, 0.5): ["inconclusive", "holds", "holds"],
              (8, 2.0): ["fails"] * 3}
    ties = {(6, 0.5): ["holds"] * 3, (8, 0.5): ["inconclusive", "inconclusive", "holds"], (10, 0.5): ["holds"] * 3,
            (8, 2.0): ["fails"] * 3}
    br = {(6, 0.5): (0.183, 0.396), (8, 0.5): (0.255, 0.499), (10, 0.5): (0.223, 0.406), (8, 2.0): (0.809, 0.895)}
    r = rescue_cells(chosen, ties, br)
    assert r["rescue"] == [(6, 0.5)]
    assert set(r["partial"]) == {(8, 0.5), (10, 0.5)} and r["partial"][(8, 0.5)]["bracket"] == (0.255, 0.499)
    assert ("random ties", 1) in r["partial"][(8, 0.5)]["not held"] and ("chosen", 0) in r["partial"][(10, 0.5)]["not held"]
    assert rescue_cells({(6, 0.5): ["holds"] * 3}, {}, br)["rescue"] == []               # random ties not run: no rescue
    with pytest.raises(ValueError, match="brackets"):
        rescue_cells({(6, 1.0): ["holds"]}, {}, br)


def test_what_would_decide_names_the_tie_rule_as_well_as_d():
    """B5.8 (session 47's second fresh review): "the paper's d" alone was incomplete: at d = 8 the tie rule splits it."""
    from inferopt.experiment.moment_claims import what_would_decide
    t = what_would_decide(True, ["random ties", "tie-free"])
    assert "the paper's d" in t and "tie rule" in t and "random ties" in t
    assert not what_would_decide(False, ["random ties"]).startswith("the paper's d")
    with pytest.raises(ValueError, match="what_would_decide"):
        what_would_decide(False, [])
    with pytest.raises(TypeError, match="lost_d"):
        what_would_decide("yes", [])


#: B5.3 at the paper scale (reports/paper/metrics/B5.json, session 49): line search's position bracket per Fig. 7 cell
B53_BRACKETS = {(8, 1 / 7): (0.457, 0.676), (8, 1 / 14): (0.255, 0.499), (8, 2 / 7): (0.809, 0.895),
                (6, 0.2): (0.576, 0.746), (6, 0.1): (0.183, 0.396), (6, 0.4): (0.507, 0.764),
                (10, 1 / 9): (0.226, 0.517), (10, 1 / 18): (0.223, 0.406), (10, 2 / 9): (0.608, 0.747)}


def _b53_words(cut):
    """Each cell's word at the cut from its bracket (moment_claims.entropy_minimization_bracket, the premise everywhere)."""
    from inferopt.experiment.moment_claims import entropy_minimization_bracket
    word = {True: "holds", False: "fails", "inconclusive": "inconclusive"}
    return {k: word[entropy_minimization_bracket(lo, hi, cut)] for k, (lo, hi) in B53_BRACKETS.items()}


# ---------------------------------------------------------------------------------------------------------------------
# Session 51 (the fresh review of B5 at the paper scale, reports/paper/metrics/B5.json of 4a3e5b1)

def test_premise_gate_is_always_applied_and_read_at_its_factors():
    """Session 52 (sessions 50 and 51's reviews: the premise "more efficient than herding" is the paper's, the factor that
    turns it into a number ours): session 51's ungated reading counted the cells where line search is not more efficient
    (w (d - 1) = 3, 4: its final moment error 3-20 times above herding's), dropping the clause; it is gone, and the gate is
    read at 3, 10 and 30. At the paper scale the premise does not move with the factor (line search at the means, 0, at
    w (d - 1) <= 2), so B5.9 holds at every factor; a cell whose ratio lies between the factors turns it."""
    from inferopt.experiment.moment_claims import (FREQUENCY_READINGS, PREMISE_FACTORS, closer_given_premise, closer_majority,
                                                   frequency_verdict, moment_premise_cell, premise_gate, reading_text)
    assert PREMISE_FACTORS == (10.0, 3.0, 30.0)
    assert {x[2] for x in FREQUENCY_READINGS} == set(PREMISE_FACTORS) and FREQUENCY_READINGS[0] == (0.5, 0, 10.0)
    assert all(x[2] >= 1 for x in FREQUENCY_READINGS)                                   # main's (0.5, 0, 0): no gate
    assert "3x" in reading_text((0.5, 0, 3.0)) and "no premise gate" not in reading_text((0.5, 0, 3.0))
    with pytest.raises(TypeError):
        premise_gate("fails", False, False)                                             # no `gated` any more
    with pytest.raises(TypeError):
        closer_given_premise(0.0156613, 0.00955763, 0.00016, False, 1.0, False)
    # paper scale, d = 10 (final moment errors line search / herding; distances herding / line search)
    res = 0.00016
    cells = [((0.0, 1.43e-4), (0.0116693, 0.156992)), ((0.0, 1.32e-4), (0.00858419, 0.16954)),
             ((0.0, 1.36e-4), (0.0802455, 0.0560914)), ((8.95e-4, 1.63e-4), (0.0156613, 0.00955763)),
             ((3.04e-3, 1.58e-4), (0.00172772, 0.00166869))]
    at = {f: [closer_given_premise(*dist, res, moment_premise_cell(*err, f)) for err, dist in cells] for f in PREMISE_FACTORS}
    assert all(at[f][3:] == ["not measured"] * 2 for f in PREMISE_FACTORS)             # never "more efficient" there
    assert all(closer_majority({10: at[f]})["counts"] == {10: [2, 1, 3]} for f in PREMISE_FACTORS)
    claims = {("lowest index", x): closer_majority({10: at[x[2]]}, x[0], bool(x[1])) for x in FREQUENCY_READINGS}
    assert frequency_verdict(claims, ("lowest index", FREQUENCY_READINGS[0]))["verdict"] == "holds"
    # a cell 5x better at the moments is a premise cell at 3, not at 10 or 30: there herding loses, and the factor turns it
    turn = cells[:2] + [((2e-5, 1e-4), (0.05, 0.01)), ((2e-5, 1e-4), (0.06, 0.01)), ((2e-5, 1e-4), (0.07, 0.01))]
    at_t = {f: [closer_given_premise(*dist, res, moment_premise_cell(*err, f)) for err, dist in turn] for f in PREMISE_FACTORS}
    claims_t = {("lowest index", x): closer_majority({10: at_t[x[2]]}, x[0], bool(x[1])) for x in FREQUENCY_READINGS}
    assert claims_t[("lowest index", (0.5, 0, 3.0))]["verdict"] is False and claims_t[("lowest index", FREQUENCY_READINGS[0])]["verdict"] is True
    fv = frequency_verdict(claims_t, ("lowest index", FREQUENCY_READINGS[0]))
    assert fv["verdict"] == "inconclusive" and any(x[1][2] == 3.0 for x in fv["differ"])


def test_compared_readings_show_a_turn_that_a_split_over_d_hid():
    """THE RULE compares a reading undecided over d with the chosen one through the d that decide there
    (reading_compared); the threshold's readings now carry that word, so the record sees the turn: B5.9's ungated
    reading (d = 6, 8 hold, d = 10 fails) turns a claim holding at every d; B5.3's authors' reading 0.8807 (d = 6, 10 hold,
    d = 8 straddles) turns a claim failing at every d; B5.3's 0.6 (d = 6 open, d = 8, 10 fail) turns nothing."""
    from inferopt.experiment.moment_claims import closer_majority, compared_readings, lost_setting_claim, turns_decisively
    every = closer_majority({6: [True] * 3, 8: [True, True, False], 10: [True, True, False]})
    ungated = closer_majority({6: [True] * 5, 8: [True] * 4 + [False], 10: [True, True, False, False, None]})
    assert every["verdict"] is True and ungated["verdict"] is None
    rd = compared_readings(True, [((0.5, 0, 1), every), ((0.5, 0, 0), ungated)])
    assert [r["verdict"] for r in rd] == ["holds", "fails"] and turns_decisively(rd)      # main's code showed "inconclusive"
    words = lambda ws: {(d, c): w for (d, c), w in ws.items()}
    at05 = lost_setting_claim(False, words({(6, 0.5): "holds", (6, 2.0): "fails", (8, 2.0): "fails", (10, 2.0): "fails"}))
    at06 = lost_setting_claim(None, words({(6, 0.5): "holds", (6, 2.0): "inconclusive", (8, 2.0): "fails", (10, 2.0): "fails"}))
    at088 = lost_setting_claim(None, words({(6, 0.5): "holds", (6, 2.0): "holds", (8, 2.0): "inconclusive", (10, 2.0): "holds"}))
    assert at05["verdict"] is False and at06["verdict"] is None and at088["verdict"] is None
    rd3 = compared_readings(False, [(0.5, at05), (0.6, at06), (0.8807, at088)])
    assert [r["verdict"] for r in rd3] == ["fails", "inconclusive", "holds"] and turns_decisively(rd3)
    assert not turns_decisively(rd3[:2])                                                    # an open reading turns nothing
    with pytest.raises(ValueError, match="chosen"):
        compared_readings("fails", [(0.5, at05)])
    with pytest.raises(ValueError, match="at_readings"):
        compared_readings(False, [])
    with pytest.raises(ValueError, match="at_readings"):
        compared_readings(False, [at05])
    with pytest.raises(ValueError, match="readings"):
        turns_decisively([{"value": 0.5}])


def test_coupling_summary_puts_a_d_on_a_side_only_at_every_cut():
    """Session 54, fix 13 (the fresh review of fix 12: `coupling_summary` counted a d as holding where it held at one cut and
    failed at none -- d = 8, w (d - 1) = 0.5, undecided at 0.4 and 0.5 under random ties). Strict: a cell is on a side only
    where it takes that word at every cut. On the paper-scale brackets w (d - 1) = 0.5 holds at d = 6 only (d = 8 [0.255,
    0.499] and d = 10 [0.223, 0.406] straddle 0.4) and w (d - 1) = 2 fails at d = 8 and 10 only (d = 6 [0.507, 0.764]
    straddles 0.6). Session 55 (fix 15): its unused "holding" / "failing" / "decides" are gone -- it only shows the sides;
    coupling_tie_verdict decides."""
    from inferopt.experiment.moment_claims import coupling_summary, entropy_minimization_bracket
    brackets = {(8, 1.0): (0.457, 0.676), (8, 0.5): (0.255, 0.499), (8, 2.0): (0.809, 0.895), (6, 1.0): (0.576, 0.746),
                (6, 0.5): (0.183, 0.396), (6, 2.0): (0.507, 0.764), (10, 1.0): (0.226, 0.517), (10, 0.5): (0.223, 0.406),
                (10, 2.0): (0.608, 0.747)}
    cuts = [0.4, 0.5, 0.6]
    word = lambda x: x if isinstance(x, str) else {True: "holds", False: "fails", None: "inconclusive"}[x]
    words = {k: [word(entropy_minimization_bracket(lo, hi, c)) for c in cuts] for k, (lo, hi) in brackets.items()}
    s = coupling_summary(words, cuts)
    assert set(s) == {"by_coupling"}
    assert s["by_coupling"][2.0] == {6: ("fails in part", [0.6]), 8: ("fails", []), 10: ("fails", [])}
    assert s["by_coupling"][0.5] == {6: ("holds", []), 8: ("holds in part", [0.4]), 10: ("holds in part", [0.4])}
    assert s["by_coupling"][1.0][10] == ("holds in part", [0.4, 0.5]) and s["by_coupling"][1.0][6] == ("fails in part", [0.6])
    assert coupling_summary({(6, 1.0): ["holds", "fails", "inconclusive"]}, cuts)["by_coupling"][1.0][6] == ("splits", [0.6])
    assert coupling_summary({(6, 1.0): ["inconclusive"] * 3}, cuts)["by_coupling"][1.0][6] == ("undecided", cuts)
    with pytest.raises(ValueError, match="one word per cut"):
        coupling_summary({(6, 1.0): ["holds"]}, cuts)
    with pytest.raises(ValueError, match="words"):
        coupling_summary({}, cuts)
    with pytest.raises(ValueError, match="cuts"):
        coupling_summary({(6, 1.0): []}, [])


def test_finite_termination_builds_b56s_win_in():
    """B5.6 (off-target at the paper scale): min-norm-point stops after 9-57 points at moment error 0 on Fig. 7's cells,
    so it beats herding by construction -- an implementation check, not a test of the paper. A run stopping above 0
    would not build the win in, and is named."""
    from inferopt.experiment.moment_claims import finite_termination
    stops = {"d = 8, c = 1": 37, "d = 6, c = 0.5": 9, "d = 10, c = 1": 57}
    t = finite_termination(stops, {k: 0.0 for k in stops})
    assert t == {"built_in": True, "fewest": 9, "most": 57, "above": []}
    t = finite_termination(stops, {"d = 8, c = 1": 0.0, "d = 6, c = 0.5": 3e-4, "d = 10, c = 1": 0.0})
    assert not t["built_in"] and t["above"] == ["d = 6, c = 0.5"]
    with pytest.raises(ValueError, match="same cells"):
        finite_termination(stops, {"d = 8, c = 1": 0.0})
    with pytest.raises(ValueError, match="stops"):
        finite_termination({"a": 0}, {"a": 0.0})
    with pytest.raises(ValueError, match="final_errors"):
        finite_termination({"a": 5}, {"a": -1.0})


# ---------------------------------------------------------------------------------------------------------------------
# Session 52 (sessions 50 and 51's fresh reviews of B5 at the paper scale disagreed; reports/paper/metrics/B5.json of 6396c36)

def test_coupling_tie_verdict_decides_b53_on_its_decisive_cells():
    """B5.3 on the strict cuts (0.4, 0.5, 0.6), the paper-scale brackets, the lowest index and random ties (the positions of
    line search's random-tie runs at w (d - 1) = 2 are the lowest index's to 1e-4). Session 54, fix 14 (the fresh review of
    fix 13: its "one coupling holding at every d at every reading" asked more than THE RULE's lost setting): d = 6 at
    w (d - 1) = 0.5 holds at every cut under both rules (a rescue), d = 8 and 10 at 2 fail at every cut under both, and
    every d has a cell failing at some cut (d = 6 at w (d - 1) = 1 and 2 fail at 0.4 and 0.5), so the lost d cannot
    explain the split: `fails (setting)`. Fix 13's code gave `fails` with no kind. A split d alone explains (d = 6 holding
    everywhere) earns no kind; without the rescue no kind is earned; without a decisive failure the claim is
    inconclusive; a rule that did not run a cell leaves the claim short of `holds`."""
    from inferopt.experiment.moment_claims import coupling_tie_verdict
    cuts = [0.4, 0.5, 0.6]
    lvl = lambda k: (k[0], round(k[1] * (k[0] - 1), 4))
    chosen = {lvl(k): [_b53_words(c)[k] for c in cuts] for k in B53_BRACKETS}
    ties = dict(chosen) | {(8, 0.5): ["inconclusive", "inconclusive", "holds"]}       # random ties' partial cell
    dec = coupling_tie_verdict({"lowest index": chosen, "random ties": ties}, cuts)
    # session 55, fix 16: at 0.6 d = 6 has no failing cell while the claim fails at 0.4 and 0.5 -- the reading turns it
    assert (dec["verdict"], dec["kind"], dec["lost_d"]) == ("inconclusive", "reading", [])
    firm = {"lowest index": chosen | {(6, 1.0): ["fails"] * 3}, "random ties": ties | {(6, 1.0): ["fails"] * 3}}
    assert (lambda f: (f["verdict"], f["kind"], f["lost_d"]))(coupling_tie_verdict(firm, cuts)) == ("fails", "setting", [])
    assert dec["rescue"] == [(6, 0.5, "lowest index"), (6, 0.5, "random ties")]
    assert dec["failing"] == [(8, 2.0, "lowest index"), (8, 2.0, "random ties"), (10, 2.0, "lowest index"), (10, 2.0, "random ties")]
    assert dec["unmeasured"] == []
    sides = dec["by_rule"]["random ties"]["by_coupling"][0.5]
    assert sides[8] == ("holds in part", [0.4, 0.5]) and sides[6] == ("holds", [])
    # a split d alone explains (d = 6 holding at every coupling, d = 8 failing at every coupling): the lost d's, no `setting`
    by_d = {(d, c): (["holds"] * 3 if d == 6 else ["fails"] * 3) for d in (6, 8) for c in (0.5, 1.0, 2.0)}
    d_split = coupling_tie_verdict({"lowest index": by_d, "random ties": by_d}, cuts)
    assert (d_split["verdict"], d_split["kind"], d_split["lost_d"]) == ("fails", None, [6])
    assert d_split["rescue"] and d_split["failing"]
    # d = 6 failing nowhere but undecided somewhere: the paper's d could still be 6, no `setting`
    d6_open = {k: (v if k[0] != 6 or k == (6, 0.5) else ["inconclusive"] * 3) for k, v in chosen.items()}
    assert coupling_tie_verdict({"lowest index": d6_open}, cuts)["lost_d"] == [6]
    # the lost d read at the chosen cut alone: at 0.6 d = 6's cells at 1 and 2 straddle the cut, so d = 6 is free of failures
    at06 = coupling_tie_verdict({"lowest index": chosen, "random ties": ties}, cuts, at=2)
    assert (at06["verdict"], at06["kind"], at06["lost_d"]) == ("inconclusive", "reading", [6])
    assert coupling_tie_verdict({"lowest index": firm["lowest index"]}, cuts, at=1)["kind"] == "setting"
    with pytest.raises(ValueError, match="at"):
        coupling_tie_verdict({"lowest index": chosen}, cuts, at=3)
    no_rescue = {k: (["inconclusive"] * 3 if k == (6, 0.5) else v) for k, v in chosen.items()}
    d2 = coupling_tie_verdict({"lowest index": no_rescue, "random ties": no_rescue}, cuts)
    assert (d2["verdict"], d2["kind"], d2["rescue"]) == ("inconclusive", "reading", [])   # fix 16: 0.6 open, 0.4 fails alone
    d2_firm = {k: (["inconclusive"] * 3 if k == (6, 0.5) else v) for k, v in firm["lowest index"].items()}
    assert (lambda f: (f["verdict"], f["kind"], f["rescue"]))(coupling_tie_verdict({"lowest index": d2_firm}, cuts)) == ("fails", None, [])
    open_ = {k: (["fails", "fails", "inconclusive"] if v == ["fails"] * 3 else v) for k, v in chosen.items()}
    assert coupling_tie_verdict({"lowest index": open_}, cuts)["verdict"] == "inconclusive"
    everywhere = {k: ["holds"] * 3 for k in chosen}
    assert coupling_tie_verdict({"lowest index": everywhere, "random ties": everywhere}, cuts)["verdict"] == "holds"
    unrun = {k: v for k, v in everywhere.items() if k != (6, 0.5)}
    assert coupling_tie_verdict({"lowest index": everywhere, "random ties": unrun}, cuts)["verdict"] == "inconclusive"
    with pytest.raises(ValueError, match="words"):
        coupling_tie_verdict({}, cuts)
    with pytest.raises(ValueError, match="one word per cut"):
        coupling_tie_verdict({"lowest index": {(6, 0.5): ["holds"]}}, cuts)
    with pytest.raises(ValueError, match="cuts"):
        coupling_tie_verdict({"lowest index": everywhere}, [])


def test_coupling_tie_verdict_is_strict_and_skips_unmeasured_cells():
    """Session 54, fixes 13 and 14: no reading is set aside -- d = 10, w (d - 1) = 0.5, [0.223, 0.406], straddling 0.4, was
    a rescue under fix 12's 0.01 tolerance and is none now. A (d, coupling) the chosen rule measures at no reading (the
    premise absent: B5.8's extra couplings) decides nothing, so it neither blocks `holds` nor counts as a cell. The tie
    rule is a setting of the map (fix 14): B5.8's paper-scale ratios (line search / herding at the cuts 1, 1.1, 1.25, 2)
    fail decisively with the lowest index at d = 8 and 10, w (d - 1) = 2 (0.651, 0.699) and tie-free at d = 6 (0.567 to
    0.849), and hold decisively elsewhere, random ties rescuing those very cells (3.42 and 2.43 at every cut; 1.52 at the
    cuts up to 1.25 only): `fails (setting)`. Fix 13's code, asking every tie rule to agree, found no decisive failure."""
    from inferopt.experiment.moment_claims import coupling_tie_verdict
    cuts = [0.4, 0.5, 0.6]
    straddle = {(10, 0.5): ["inconclusive", "holds", "holds"], (10, 2.0): ["fails"] * 3}
    dec = coupling_tie_verdict({"lowest index": straddle, "random ties": straddle}, cuts)
    assert dec["rescue"] == [] and (dec["verdict"], dec["kind"]) == ("fails", None)
    nm = ["not measured"] * 3
    low = {(6, 0.5): ["holds"] * 3, (6, 3.0): nm}
    assert coupling_tie_verdict({"lowest index": low}, cuts) | {"by_rule": None, "by_cut": None} == {
        "verdict": "holds", "kind": None, "rescue": [(6, 0.5, "lowest index")], "failing": [], "lost_d": [6], "by_rule": None,
        "by_cut": None, "fails_at": [], "open_at": [], "coincide": [], "unmeasured": [(6, 3.0)]}
    other = {(6, 0.5): ["holds", "holds", "not measured"], (6, 3.0): nm}
    assert coupling_tie_verdict({"lowest index": low, "random ties": other}, cuts)["verdict"] == "inconclusive"
    assert coupling_tie_verdict({"lowest index": {(6, 3.0): nm}}, cuts)["verdict"] == "inconclusive"
    ratios = {"lowest index": {(6, 0.5): 2.24, (6, 1.0): 2.16, (6, 2.0): 1.77, (8, 0.5): 2.88, (8, 1.0): 3.12, (8, 2.0): 0.651,
                               (10, 0.5): 19.8, (10, 1.0): 13.5, (10, 2.0): 0.699}}
    ratios["random ties"] = ratios["lowest index"] | {(6, 2.0): 3.42, (8, 2.0): 2.43, (10, 2.0): 1.52}
    ratios["tie-free"] = ratios["lowest index"] | {(6, 2.0): 0.7, (8, 2.0): 0.95, (10, 2.0): 0.85}
    factors = [1.0, 1.1, 1.25, 2.0]
    words = {r: {k: ["holds" if v > f else "fails" for f in factors] for k, v in rs.items()} for r, rs in ratios.items()}
    b58 = coupling_tie_verdict(words, factors)
    assert (b58["verdict"], b58["kind"], b58["lost_d"]) == ("fails", "setting", [])
    assert (8, 2.0, "lowest index") in b58["failing"] and (6, 2.0, "tie-free") in b58["failing"]
    assert (6, 2.0, "random ties") in b58["rescue"] and (8, 2.0, "random ties") in b58["rescue"]
    assert (10, 2.0, "random ties") not in b58["rescue"] and (10, 2.0, "random ties") not in b58["failing"]   # 1.52: splits at 2


def test_tie_rule_split_names_coupling_and_tie_rule_not_the_lost_d():
    """B5.8 at the paper scale (the cut 1.1 on line search / herding): at w (d - 1) = 2 the lowest index holds at d = 6
    (1.77) and fails at d = 8 (0.651) and 10 (0.699), the d-split; random ties hold there (2.43-2.51, 1.52, 3.45), tie-free
    fails at d = 10 (0.72-1.01). Every split cell flips with the tie rule, so coupling x tie rule decides, not the lost d;
    d = 8 and 10 at 2 are flagged: herding with the lowest index ends beyond the moment set's radius (0.0583 vs 0.0538 at
    d = 8). Session 51's what_would_decide named "the paper's d"."""
    from inferopt.experiment.moment_claims import tie_rule_split, what_would_decide
    low = {(6, 0.5): "holds", (6, 1.0): "holds", (6, 2.0): "holds", (8, 0.5): "holds", (8, 1.0): "holds", (8, 2.0): "fails",
           (10, 0.5): "holds", (10, 1.0): "holds", (10, 2.0): "fails", (8, 3.0): "not measured"}
    ties = {k: ("holds" if w != "not measured" else w) for k, w in low.items()}
    free = dict(low) | {(6, 2.0): "fails", (8, 2.0): "inconclusive"}
    split = tie_rule_split({"lowest index": low, "random ties": ties, "tie-free": free}, "lowest index", [(8, 2.0), (10, 2.0)])
    assert split["couplings"] == [2.0] and set(split["cells"]) == {(6, 2.0), (8, 2.0), (10, 2.0)}
    assert split["tie_rule"] and all(c["flips"] for c in split["cells"].values())
    assert split["cells"][(8, 2.0)]["beyond"] and not split["cells"][(6, 2.0)]["beyond"]
    assert split["cells"][(8, 2.0)]["words"] == {"lowest index": "fails", "random ties": "holds", "tie-free": "inconclusive"}
    text = what_would_decide(True, ["random ties", "tie-free"], split)
    assert "the paper's d" not in text and "w (d - 1) = 2" in text and "tie rule" in text
    # a split cell no other rule decides otherwise: the lost d stays the reason
    stuck = tie_rule_split({"lowest index": low, "tie-free": low}, "lowest index")
    assert not stuck["tie_rule"] and what_would_decide(True, [], stuck).startswith("the paper's d")
    assert tie_rule_split({"lowest index": ties}, "lowest index") == {"couplings": [], "cells": {}, "tie_rule": False}
    with pytest.raises(ValueError, match="words"):
        tie_rule_split({"random ties": ties}, "lowest index")
    with pytest.raises(ValueError, match="words"):
        tie_rule_split({"lowest index": {(6, 0.5): "open"}}, "lowest index")
    with pytest.raises(ValueError, match="split"):
        what_would_decide(True, [], {"cells": {}})



def test_rule_words_text_prints_each_tie_rules_own_numbers():
    """Session 53, fix 12 (the fresh review of fix 11: B5.8's reason printed "tie-free inconclusive (line search / herding
    0.651)", the lowest index's ratio; the tie-free seeds give 0.80-1.10): each rule's word with that rule's own numbers.
    Absent on main."""
    from inferopt.experiment.moment_claims import rule_words_text
    words = {"the lowest index": "fails", "random ties": "holds", "tie-free": "inconclusive"}
    nums = {"the lowest index": [0.651], "random ties": [2.51, 2.43, 2.44], "tie-free": [1.08, 1.1, 0.802, 0.853, 1.01]}
    text = rule_words_text(words, nums, "line search / herding")
    assert text == ("the lowest index fails (line search / herding 0.651), random ties holds (line search / herding 2.43 to "
                    "2.51), tie-free inconclusive (line search / herding 0.802 to 1.1)")
    assert text.count("0.651") == 1 and text.index("0.651") < text.index("random ties")
    assert rule_words_text({"random ties": "holds", "tie-free": "fails"}, {"tie-free": [0.7]}) == "random ties holds, tie-free fails (0.7)"
    with pytest.raises(ValueError, match="absent from words"):
        rule_words_text({"random ties": "holds"}, {"tie-free": [0.7]})
    with pytest.raises(ValueError, match="verdict words"):
        rule_words_text({"random ties": "held"}, {})
    with pytest.raises(ValueError, match="numbers"):
        rule_words_text({"random ties": "holds"}, {"random ties": []})


def test_reasons_sentence_says_what_the_diagnosis_is():
    """Session 53, fix 12 (the fresh review of fix 11: B5.8's text said "the diagnosis names the first" (setting) while no
    diagnosis was earned and THE RULE's sentence said "not a `setting` failure"): the sentence says the diagnosis's kind,
    or that none is earned. Absent on main."""
    from inferopt.experiment.moment_claims import reasons_sentence
    unearned = reasons_sentence(["setting", "reading", "coupling x tie rule"], None)
    assert "names the first" not in unearned and "none earns a diagnosis" in unearned and "setting, reading" in unearned
    assert "the diagnosis is `setting`, the first" in reasons_sentence(["setting", "reading"], "setting")
    assert "the diagnosis is `reading`)" in reasons_sentence(["setting", "reading"], "reading")
    assert reasons_sentence([], None) == ""
    with pytest.raises(TypeError, match="kind"):
        reasons_sentence(["setting"], 1)


def test_a_tie_rule_split_is_named_coupling_x_tie_rule_not_a_lost_setting():
    """Session 52, fix 11 (the fresh review of fix 10: B5.8's reason said both "decided by a lost setting" and "coupling x
    tie rule, not the lost d"): where tie_rule_split finds every split cell flipping with the tie rule, the reasons and
    THE RULE's sentence name coupling x tie rule and not the lost setting; otherwise the lost setting stays. Main's
    inconclusive_for takes no split and split_rule_text is absent."""
    from inferopt.experiment.moment_claims import inconclusive_for, split_rule_text, tie_rule_split
    low = {(6, 2.0): "holds", (8, 2.0): "fails", (10, 2.0): "fails", (8, 1.0): "holds"}
    ties = {k: "holds" for k in low} | {(6, 2.0): "fails"}   # every split cell flips
    split = tie_rule_split({"lowest index": low, "random ties": ties}, "lowest index")
    assert split["tie_rule"]
    reasons = inconclusive_for(True, ["random ties"], {}, "lost setting", (), ["random ties"], split)
    assert reasons == ["setting", "reading", "coupling x tie rule"]
    text = split_rule_text(split)
    assert "coupling x tie rule" in text and "w (d - 1) = 2" in text and "lost setting" not in text
    stuck = tie_rule_split({"lowest index": low, "random ties": low}, "lowest index")
    assert inconclusive_for(False, [], {}, "lost setting", split=stuck) == ["lost setting"]
    assert "lost setting" in split_rule_text(stuck) and "lost setting" in split_rule_text(None)
    assert inconclusive_for(False, [], {}, "lost setting") == ["lost setting"]
    with pytest.raises(ValueError, match="split"):
        split_rule_text({"couplings": [2.0]})


def test_premise_factor_span_says_why_the_factor_readings_coincide():
    """Session 52, fix 11 (the fresh review of fix 10: B5.9's premise-factor readings 3x/10x/30x are identical at the paper
    scale -- line search's final moment error is exactly 0 in every premise cell and 2.6-19.6 times above herding's at
    w (d - 1) = 3-4 -- while the text said the gate "varies"): the readings coincide where no cell's gate moves between
    the factors, and the cells say why. Absent on main."""
    from inferopt.experiment.moment_claims import PREMISE_FACTORS, premise_factor_span
    errors = {(8, 0.5): (0.0, 1e-3), (8, 2.0): (0.0, 4e-4), (8, 3.0): (2.6e-3, 1e-3), (8, 4.0): (1.96e-2, 1e-3)}
    span = premise_factor_span(errors)
    assert span["coincide"] and span["every"] == [(8, 0.5), (8, 2.0)] and span["at_zero"] == [(8, 0.5), (8, 2.0)]
    assert span["none"] == pytest.approx({(8, 3.0): 2.6, (8, 4.0): 19.6}) and span["moved"] == []
    # line search 8x below herding: gated in at 3, out at 10 and 30 -- the factor moves it
    moved = premise_factor_span(errors | {(10, 2.0): (1e-4, 8e-4)}, PREMISE_FACTORS)
    assert not moved["coincide"] and moved["moved"] == [(10, 2.0)]
    assert premise_factor_span({(6, 1.0): (1e-3, 0.0)})["none"] == {(6, 1.0): float("inf")}
    with pytest.raises(ValueError, match="errors"):
        premise_factor_span({})
    with pytest.raises(ValueError, match="errors"):
        premise_factor_span({(6, 1.0): (1.0,)})


def test_b5_notebook_decides_without_the_one_sided_readings():
    """Session 53, fix 12 (the fresh review of fix 11): B5.3's comparative reading (line search's entropy below herding's,
    1.541 vs 1.558 nats at d = 8, w (d - 1) = 2) is beside, no longer among B5.3's deciding readings, and B5.8's and B5.9's
    readings without the flagged cells (the flag selects exactly the cells where herding loses) are gone, the flagged cells
    noted, not removed; moment_claims.reading_turn, which turned them, is gone. Main's notebook decides on both."""
    import json
    from pathlib import Path
    import inferopt.experiment.moment_claims as mc
    nb = json.loads((Path(__file__).resolve().parents[2] / "notebooks" / "B5_maxent_dependent.ipynb").read_text())
    src = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    readings = src[src.index("B53_READINGS = "):src.index("\n", src.index("B53_READINGS = "))]
    assert "COMPARATIVE53" not in readings and "COMPARATIVE53 = " in src     # computed, beside
    assert "claim59_wo" not in src and "flagged=FLAGGED" not in src and "[*chosen, 0]" not in src
    assert "noted, not removed" in src and "reading_turn" not in src and not hasattr(mc, "reading_turn")


def test_coupling_tie_verdict_names_undecided_readings_and_merges_coinciding_runs():
    """Session 55, fix 15 (the project lead's decided rule for B5.3 and B5.8). 1. A reading at which the claim is undecided
    turns nothing but is named with its numbers: on the paper-scale brackets (lowest index) the failure is established at
    0.4 and 0.5, and at 0.6 no d = 6 cell fails (d = 6's cells at w (d - 1) = 1, [0.576, 0.746], and 2, [0.507, 0.764],
    straddle 0.6) -- "by_cut" says so; at 0.5 d = 6 fails through those two cells, the one at 2 by 0.007. 2. Two tie rules
    whose runs coincide in a cell (the same rows of numbers) are one cell of the map, labelled "lowest index = random
    ties"; runs that differ stay two cells; coinciding numbers with different words are refused. Main's code (fix 14)
    took no ``numbers`` and gave no "by_cut" / "coincide": this test fails there."""
    from inferopt.experiment.moment_claims import coupling_tie_verdict
    cuts = [0.4, 0.5, 0.6]
    lvl = lambda k: (k[0], round(k[1] * (k[0] - 1), 4))
    chosen = {lvl(k): [_b53_words(c)[k] for c in cuts] for k in B53_BRACKETS}
    nums = {lvl(k): [list(b)] for k, b in B53_BRACKETS.items()}
    ties_nums = dict(nums) | {(6, 2.0): [[0.497, 0.76], [0.502, 0.77]]}          # random ties' own runs at d = 6, w (d - 1) = 2
    ties = dict(chosen) | {(6, 2.0): ["fails", "inconclusive", "inconclusive"]}
    dec = coupling_tie_verdict({"lowest index": chosen, "random ties": ties}, cuts, 1,
                               {"lowest index": nums, "random ties": ties_nums})
    assert (dec["verdict"], dec["kind"]) == ("inconclusive", "reading")   # fix 16: 0.6 turns it (the next test)
    assert dec["rescue"] == [(6, 0.5, "lowest index = random ties")]
    assert (6, 2.0, "lowest index") in dec["by_cut"][1]["failing"] and (6, 2.0, "random ties") not in dec["by_cut"][1]["failing"]
    assert [c["lost_d"] for c in dec["by_cut"]] == [[], [], [6]]
    assert [c_ for c_ in dec["by_cut"][1]["failing"] if c_[0] == 6] == [(6, 1.0, "lowest index = random ties"), (6, 2.0, "lowest index")]
    assert len(dec["coincide"]) == len(B53_BRACKETS) - 1 and (6, 2.0, ["lowest index", "random ties"]) not in dec["coincide"]
    assert (6, 0.5, ["lowest index", "random ties"]) in dec["coincide"]
    # without numbers every (cell, tie rule) is its own cell, and the verdict is the same (merging identical cells moves none)
    plain = coupling_tie_verdict({"lowest index": chosen, "random ties": ties}, cuts, 1)
    assert plain["coincide"] == [] and (plain["verdict"], plain["kind"]) == (dec["verdict"], dec["kind"])
    assert plain["rescue"] == [(6, 0.5, "lowest index"), (6, 0.5, "random ties")]
    with pytest.raises(ValueError, match="words differ"):
        coupling_tie_verdict({"lowest index": chosen, "random ties": ties}, cuts, 1, {"lowest index": nums, "random ties": nums})
    with pytest.raises(ValueError, match="numbers"):
        coupling_tie_verdict({"lowest index": chosen}, cuts, 1, {"tie-free": nums})


def test_coupling_tie_verdict_turns_where_the_lost_d_leaves_a_reading_open():
    """Session 55, fix 16 (the fresh review of fix 15: B5.3 `weak`, rubric 7; the project lead's narrow exception in THE
    RULE). On the paper-scale brackets (lowest index, random ties) the claim fails at 0.4 and 0.5 -- a cell holds there,
    others fail, every d has a failing cell -- but at 0.6 d = 6 has no failing cell (its cells at w (d - 1) = 1,
    [0.576, 0.746], and 2, [0.507, 0.764], straddle the cut) while cells hold and fail: the failure at the paper's d is
    not established there, so that reading turns the claim, `inconclusive (reading)`, naming 0.4, 0.5 and 0.6. It can
    hold: where d = 6 fails at 0.6 too, `fails (setting)` stands. A reading undecided for any other reason turns nothing:
    where no cell holds at 0.6 (d = 6 failing nowhere there either) the verdict is main's. Main's code (fix 15) gave `fails (setting)` on the paper-scale brackets and no "fails_at" /
    "open_at": this test fails there."""
    from inferopt.experiment.moment_claims import coupling_tie_verdict
    cuts = [0.4, 0.5, 0.6]
    lvl = lambda k: (k[0], round(k[1] * (k[0] - 1), 4))
    chosen = {lvl(k): [_b53_words(c)[k] for c in cuts] for k in B53_BRACKETS}
    ties = dict(chosen) | {(8, 0.5): ["inconclusive", "inconclusive", "holds"]}
    dec = coupling_tie_verdict({"lowest index": chosen, "random ties": ties}, cuts, 1)
    assert (dec["verdict"], dec["kind"], dec["fails_at"], dec["open_at"]) == ("inconclusive", "reading", [0.4, 0.5], [0.6])
    assert dec["lost_d"] == [] and dec["by_cut"][2]["lost_d"] == [6]
    # it can hold: d = 6 failing at 0.6 too (its cell at w (d - 1) = 1 above every cut) -- no reading left open
    firm = {r: ws | {(6, 1.0): ["fails"] * 3} for r, ws in {"lowest index": chosen, "random ties": ties}.items()}
    held = coupling_tie_verdict(firm, cuts, 1)
    assert (held["verdict"], held["kind"], held["fails_at"], held["open_at"]) == ("fails", "setting", [0.4, 0.5, 0.6], [])
    # undecided at 0.6 for another reason -- no cell holds there (the holding cells read undecided at 0.6), though d = 6
    # has no failing cell there either -- turns nothing: the verdict is main's (a decisive failure, no decisive rescue)
    no_hold = {(6, 0.5): ["holds", "holds", "inconclusive"], (6, 1.0): ["fails", "fails", "inconclusive"],
               (8, 0.5): ["holds", "holds", "inconclusive"], (8, 2.0): ["fails"] * 3}
    other = coupling_tie_verdict({"lowest index": no_hold}, cuts, 1)
    assert (other["fails_at"], other["open_at"], other["by_cut"][2]["lost_d"]) == ([0.4, 0.5], [], [6])
    assert (other["verdict"], other["kind"]) == ("fails", None)
