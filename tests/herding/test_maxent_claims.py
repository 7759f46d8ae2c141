"""Fig. 6's (B4) statistics in :mod:`inferopt.experiment.maxent_claims`: each can hold and can fail."""

import numpy as np
import pytest

from inferopt.experiment.maxent_claims import (capped_dips, envelope_drop, excess_log_variation, many_zeros, max_gap,
                                              more_erratic, nearer_low_entropy, state_curves_zeros, still_falls, vanishes,
                                              within_factor, zero_share)
from inferopt.herding.maxent import all_states, independent_maxent


def test_capped_dips_treat_exact_and_near_returns_alike():
    """B4.3, panel 2: with a dip depth, an exact return (0) and a near-return (1.6e-9, just above the LMO's floor) read
    the same, and both count: one rule for both arms."""
    t = np.arange(1, 201, dtype=float)
    exact, near = np.where(t % 10 == 0, 0.0, 1 / t), np.where(t % 10 == 0, 1.6e-9, 1 / t)
    a = excess_log_variation(capped_dips(exact, 1.0), floor=1.24e-9)
    b = excess_log_variation(capped_dips(near, 1.0), floor=1.24e-9)
    assert a == pytest.approx(b) and a > 20 * 2 * 0.9          # 20 dips of about 1 decade each, down and back
    assert excess_log_variation(capped_dips(1 / t, 1.0)) == pytest.approx(0.0)   # monotone: nothing capped
    shallow = np.where(t % 10 == 0, 0.5 / t, 1 / t)                # dips shallower than the cap keep their depth
    assert excess_log_variation(capped_dips(shallow, 1.0)) == pytest.approx(excess_log_variation(shallow))
    assert excess_log_variation(capped_dips(exact, 2.0), floor=1.24e-9) > 1.8 * a   # a deeper cap counts more
    with pytest.raises(ValueError, match="depth"):
        capped_dips(exact, -1.0)
    with pytest.raises(ValueError, match="non-negative"):
        capped_dips([1.0, -1.0], 1.0)


def test_zero_share_and_many_zeros_hold_and_fail():
    p = np.r_[np.zeros(6), 1e-13, np.full(3, 1 / 3 - 1e-14)]
    assert zero_share(p, 1e-12) == pytest.approx(0.7) and zero_share(p, 0.0) == pytest.approx(0.6)
    assert many_zeros(zero_share(p, 1e-12), 0.5) and not many_zeros(zero_share(np.full(4, 0.25), 1e-12), 0.25)
    with pytest.raises(ValueError):
        zero_share([-0.1, 1.1], 1e-12)


def test_state_curves_zeros_counts_the_zero_states():
    S = all_states(3)
    m = np.array([0.2, -0.1, 0.3])
    tab = state_curves_zeros(S, m, independent_maxent(S, m), 16, "line_search", [2, 16])
    assert list(tab["zeros <= 1e-12"])[0] == pytest.approx(6 / 8)   # two points: at most 2 of the 8 states carry mass
    assert (tab["zeros <= p* min"] >= tab["zeros <= 1e-12"]).all()


# B4's statistics moved from herding_claims (helper 174)
def test_more_erratic_on_excess_log_variation():
    t = np.arange(1, 1000)
    smooth, jumpy = 1 / t, np.where(t % 10 == 0, 1e-16, 1 / t)   # rational means: the moment error drops to rounding at k / 10
    assert more_erratic(excess_log_variation(jumpy), excess_log_variation(smooth))
    assert not more_erratic(excess_log_variation(smooth), excess_log_variation(jumpy))
    assert not more_erratic(1.0, 1.0)
    assert more_erratic(excess_log_variation(jumpy), 1.0, margin=5.0)
    assert not more_erratic(3.0, 1.0, margin=5.0)


def test_nearer_low_entropy_and_within_factor():
    assert nearer_low_entropy(0.2, cut=0.5) and not nearer_low_entropy(0.8, cut=0.5)   # 0.8: near the maximum entropy
    assert nearer_low_entropy(-0.05, cut=0.25)                          # below the low-entropy vertex's entropy
    assert within_factor(1.0, 1.9, 2.0) and not within_factor(1.0, 2.5, 2.0) and within_factor(2.5, 1.0, 3.0)
    with pytest.raises(ValueError, match="positive"):
        within_factor(0.0, 1.0, 2.0)


def test_excess_log_variation_monotone_zero_and_jumpy_positive():
    assert excess_log_variation([1.0, 0.1, 0.01]) == pytest.approx(0.0)
    assert excess_log_variation([1.0, 0.01, 1.0, 0.01]) == pytest.approx(4.0)
    with pytest.raises(ValueError):
        excess_log_variation([1.0, 0.0])
    with pytest.raises(ValueError):
        excess_log_variation([1.0])
    with pytest.raises(ValueError, match="floor"):
        excess_log_variation([1.0, 0.0], floor=0.0)


def test_excess_log_variation_floor_caps_the_depth_of_exact_returns():
    """B4.3: a return to the means at rounding level (1e-16, or an exact 0) counts as a dip to the floor, so its depth
    no longer follows the rounding; with the floor, dips to 1e-16 and to 0 read the same."""
    t = np.arange(1, 101, dtype=float)
    at_rounding, exact = np.where(t % 10 == 0, 1e-16, 1 / t), np.where(t % 10 == 0, 0.0, 1 / t)
    assert excess_log_variation(at_rounding, floor=1e-12) == pytest.approx(excess_log_variation(exact, floor=1e-12))
    assert excess_log_variation(at_rounding) > excess_log_variation(at_rounding, floor=1e-12) > excess_log_variation(at_rounding, floor=1e-6)
    assert excess_log_variation(1 / t, floor=1e-12) == pytest.approx(0.0)   # a floor below every error changes nothing
    # interior dips at t = 5, 15, ..., 95 from 1/(t-1) to the floor and back to 1/(t+1): each adds, over the monotone
    # record, log10(1e6/(t-1)) + log10(1e6/(t+1)) - log10((t+1)/(t-1)) = 2 log10(1e6/(t+1)) decades
    inner = np.where(t % 10 == 5, 0.0, 1 / t)
    dips = 2 * np.sum(np.log10(1e6 / (t[t % 10 == 5] + 1)))
    assert excess_log_variation(inner, floor=1e-6) == pytest.approx(dips, rel=1e-12)


def test_max_gap():
    assert max_gap([0.25, 0.75], [0.25, 0.75]) == 0.0
    assert max_gap(np.array([0.2, 0.8]), np.array([0.25, 0.75])) == pytest.approx(0.05)
    with pytest.raises(ValueError, match="one shape"):
        max_gap([0.5, 0.5], [1.0])


def test_excess_log_variation_drop_reads_the_record_between_exact_returns():
    """B4.3: with ``drop`` the exact returns (at or below the floor) are left out, so a record returning to the means
    every few steps under a falling envelope no longer scores each return as a dip of many decades."""
    t = np.arange(1, 201, dtype=float)
    returning = np.where(t % 20 == 0, 0.0, 1 / t)               # rational means: exact returns every 20 steps
    assert excess_log_variation(returning, floor=1e-9) > 50       # each return a dip of about 6-9 decades
    assert excess_log_variation(returning, floor=1e-9, drop=True) == pytest.approx(0.0, abs=1e-12)   # a monotone envelope
    jumpy = np.where(t % 2 == 0, 1 / t, 10 / t)                   # still erratic between returns: it counts
    assert excess_log_variation(np.where(t % 20 == 0, 0.0, jumpy), floor=1e-9, drop=True) > 100
    with pytest.raises(ValueError):
        excess_log_variation(returning, drop=True)                # drop needs a floor
    with pytest.raises(ValueError):
        excess_log_variation(np.zeros(5), floor=1e-9, drop=True)  # nothing left to read


def test_envelope_drop_and_vanishes_can_hold_and_fail():
    t = np.unique(np.geomspace(1, 10_000, 40).round().astype(int))
    falling = 1 / t                                               # herding on random means: O(1/t)
    assert vanishes(envelope_drop(t, falling, floor=1e-9), 0.01)
    returning = np.where(t % 20 == 0, 0.0, 1 / t)                 # rational means: exact returns do not decide, the envelope does
    assert envelope_drop(t, returning, floor=1e-9) == pytest.approx(envelope_drop(t, np.where(t % 20 == 0, 1e-16, 1 / t), floor=1e-9))
    assert vanishes(envelope_drop(t, returning, floor=1e-9), 0.01)
    stalled = np.where(t < 10, 1 / t, 0.05)                       # a plateau: the claim fails
    assert envelope_drop(t, stalled, floor=1e-9) == pytest.approx(0.05)
    assert not vanishes(envelope_drop(t, stalled, floor=1e-9), 0.01) and vanishes(envelope_drop(t, stalled, floor=1e-9), 0.1)
    spiky = np.where(t == t.max(), 0.0, np.where(t > 1000, 0.5, 1 / t))   # a 0 at the end alone does not make it vanish
    assert not vanishes(envelope_drop(t, spiky, floor=1e-9), 0.1)
    with pytest.raises(ValueError):
        envelope_drop(t[t > 10], falling[t > 10], floor=1e-9)     # no start
    with pytest.raises(ValueError):
        envelope_drop(t, falling[:-1], floor=1e-9)
    with pytest.raises(ValueError):
        vanishes(0.001, 1.0)


def test_still_falls_reads_the_slope_and_refuses_nothing_to_fit():
    assert still_falls(-1.0) and still_falls(-0.15, cut=-0.1)      # herding's 1/t: holds
    assert not still_falls(0.0) and not still_falls(-0.15)          # a plateau, or too slow at -0.2: fails
    assert not still_falls(float("nan"))                            # fewer than two positive errors: no fall shown
    with pytest.raises(ValueError):
        still_falls(-1.0, cut=0.1)


# B4.3's construction cell, the new claim on the abstract's "approach more often" (helper 174)
from inferopt.experiment.maxent_claims import (approaches_more_often, closer_share, interval_diagnosis,  # noqa: E402
                                              per_coordinate_means)
from inferopt.experiment.support import deterministic  # noqa: E402
from inferopt.experiment.verdict_map import cell  # noqa: E402


def test_per_coordinate_means_give_every_coordinate_its_own_denominator():
    m = per_coordinate_means("rational", 200, np.random.default_rng(0))
    assert np.all(np.abs(m) < 1)
    q = [min(q_ for q_ in range(11, 51) if abs(x * q_ - round(x * q_)) < 1e-9) for x in m]   # the least denominator
    assert len(set(q)) > 10                                                                 # not one denominator
    ratios = per_coordinate_means("rational ratios", 200, np.random.default_rng(0))
    assert np.allclose(ratios, np.sqrt(2) / 2 * m)                                          # the same draw, scaled
    assert np.array_equal(m, per_coordinate_means("rational", 200, np.random.default_rng(0)))   # seeded
    with pytest.raises(ValueError):
        per_coordinate_means("random", 5, 0)
    with pytest.raises(ValueError):
        per_coordinate_means("rational", 5, 0, low=20, high=11)


def test_closer_share_and_approaches_more_often_hold_and_fail():
    herding, line_search = [0.002, 0.18, 0.26], [0.13, 0.48, 0.27]
    assert closer_share(herding, line_search) == 1.0 and approaches_more_often(1.0, 1.0)
    assert closer_share(line_search, herding) == 0.0 and not approaches_more_often(0.0, 0.5)
    assert closer_share([0.1, 0.5], [0.1, 0.6]) == 0.5                      # a tie is no win
    assert not approaches_more_often(0.5, 0.5) and approaches_more_often(2 / 3, 0.5) and not approaches_more_often(2 / 3, 1.0)
    assert approaches_more_often(0.8, 0.75) and not approaches_more_often(0.7, 0.75)
    with pytest.raises(ValueError):
        closer_share([0.1], [0.1, 0.2])
    with pytest.raises(ValueError):
        approaches_more_often(1.2, 0.5)
    with pytest.raises(ValueError):
        approaches_more_often(0.9, 0.3)   # less than a majority is no reading of 'more often'


def test_interval_diagnosis_setting_only_where_decisive_cells_split():
    from inferopt.experiment.claims import Unearned
    sure = deterministic("one run")
    wide, narrow = cell({"half-width": 1.0}, False, support=sure), cell({"half-width": 0.5}, True, support=sure)
    got = interval_diagnosis([wide, narrow], "B4.11's distances.")
    assert got["kind"] == "setting" and got["evidence"]["sweep"] == [wide, narrow] and "0.5" in got["text"]
    assert isinstance(interval_diagnosis([wide, cell({"half-width": 0.5}, False, support=sure)], "x"), Unearned)
    assert isinstance(interval_diagnosis([wide, cell({"half-width": 0.5}, True)], "x"), Unearned)   # not decisive
    with pytest.raises(ValueError):
        interval_diagnosis([], "x")


from inferopt.experiment.maxent_claims import blatant_min_entropy, decide_over_axes, return_decades  # noqa: E402


def test_return_decades_is_the_caps_built_in_share():
    """B4.3: with every dip capped at `depth` decades, each exact return counts 2 * depth decades; the score at a
    2-decade cap less the score at 1 decade is then 2 per return (helper-173's 9,998 from 5,000 returns, less the edges)."""
    t = np.arange(1, 2001, dtype=float)
    exact = np.where(t % 20 == 0, 0.0, 1 / t)                      # rational means k / 10: a return every 20 iterations
    one, two = (excess_log_variation(capped_dips(exact, c), floor=1e-12) for c in (1.0, 2.0))
    returns = int((exact == 0).sum())
    assert two - one == pytest.approx(return_decades(2.0, returns) - return_decades(1.0, returns), abs=2.0)
    assert one - return_decades(1.0, returns) < 1.0                # net of the returns: a smooth 1/t record, next to nothing
    assert return_decades(0.0, 5) == 0 and return_decades(1.5, 4) == pytest.approx(12.0)
    with pytest.raises(ValueError):
        return_decades(-1.0, 3)


def test_decide_over_axes_holds_fails_and_undecided():
    from inferopt.experiment.claims import Unearned
    sure = deterministic("no draw")
    fig6 = cell({"random means' half-width": 1.0}, True, support=sure)
    assert decide_over_axes([fig6, cell({"denominator": 5}, True, support=sure)], "x") == (True, None)
    holds, diag = decide_over_axes([cell({"random means' half-width": 1.0}, False, support=sure),
                                    cell({"random means' half-width": 0.5}, True, support=sure),
                                    cell({"denominator": 5}, False, support=sure)], "B4.7's shares.")
    assert holds is False and diag["kind"] == "setting" and "0.5" in diag["text"]
    holds, diag = decide_over_axes([fig6, cell({"denominator": 5}, True, support={"method": "bootstrap", "fraction_holding": 0.6, "n_units": 5,
                                                                                  "n_resamples": 200})], "x")
    assert holds is False and isinstance(diag, Unearned) and "undecided" in str(diag)
    holds, diag = decide_over_axes([cell({"half-width": 1.0}, False, support=sure)], "x")   # too few cells for a map
    assert holds is False and isinstance(diag, Unearned)
    with pytest.raises(ValueError):
        decide_over_axes([], "x")


def test_blatant_min_entropy_holds_and_fails():
    assert blatant_min_entropy(0.55, 0.01, 0.1, 0.5)                # random means: herding converges, min-norm-point does not
    assert not blatant_min_entropy(0.2, 0.25, 0.1, 0.5)             # nearer p* than herding
    assert not blatant_min_entropy(0.55, 0.01, 0.7, 0.5)            # entropy nearer the maximum
    with pytest.raises(ValueError):
        blatant_min_entropy(-0.1, 0.1, 0.1, 0.5)


from inferopt.experiment.maxent_claims import tradeoff_panel  # noqa: E402


def test_tradeoff_panel_premise_as_b47_holds_fails_and_ties():
    ls, herding = {"dist": 0.3, "entropy": 2.0}, {"dist": 0.1, "entropy": 3.0}
    assert tradeoff_panel(0.8, ls, herding) is True                       # more efficient, farther, lower entropy
    assert tradeoff_panel(0.5, ls, herding) is None                       # a share of exactly one half: premise not met
    assert tradeoff_panel(0.8, ls, herding, share_cut=0.9) is None        # a stricter premise
    assert tradeoff_panel(0.8, ls | {"dist": 0.05}, herding) is False     # nearer p*: fails
    high = ls | {"entropy": 3.03}
    assert tradeoff_panel(0.8, high, herding) is False                    # higher entropy: fails
    assert tradeoff_panel(0.8, high, herding, entropy_margin=-0.05) is True   # within the tie: counted for the claim
    assert tradeoff_panel(0.8, ls | {"entropy": 2.97}, herding, entropy_margin=0.05) is False   # a clear gap asked
    with pytest.raises(ValueError):
        tradeoff_panel(0.8, {"dist": 0.3}, herding)
    with pytest.raises(ValueError):
        tradeoff_panel(1.5, ls, herding)


from inferopt.experiment.maxent_claims import convergence_outcome, never_converges  # noqa: E402


def test_convergence_outcome_three_valued_and_never_converges():
    assert convergence_outcome(0.01, -0.5, 0.02) is True           # below tol and still falling: converges
    assert convergence_outcome(0.3, 0.0, 0.02) is False            # above tol and flat: does not
    assert convergence_outcome(0.3, -0.5, 0.02) is None            # above tol but still falling: undecided
    assert convergence_outcome(0.01, 0.0, 0.02) is None            # below tol but flat: undecided
    assert never_converges([False, None, False]) is True           # holds: no run converges
    assert never_converges([False, True]) is False                 # fails: one run converges
    assert never_converges([None, None]) is None                   # every run undecided
    with pytest.raises(ValueError):
        never_converges([])


def test_entropy_below_is_b46s_entropy_half_and_can_hold_and_fail():
    """Session 43: B4.6's entropy half, shared with B5.3's comparative reading: strictly below the reference, less a
    margin (negative: a tie band; positive: a clear gap)."""
    from inferopt.experiment.maxent_claims import entropy_below
    assert entropy_below(1.5408, 1.5582)
    assert not entropy_below(1.5582, 1.5408)
    assert not entropy_below(1.0, 1.0)
    assert entropy_below(1.01, 1.0, margin=-0.02)
    assert not entropy_below(0.99, 1.0, margin=0.02)
    with pytest.raises(ValueError, match="entropy"):
        entropy_below(-1.0, 1.0)
