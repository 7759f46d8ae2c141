"""Fig. 6's (B4) statistics in :mod:`inferopt.experiment.maxent_claims`: each can hold and can fail."""

import numpy as np
import pytest

from inferopt.experiment.herding_claims import excess_log_variation
from inferopt.experiment.maxent_claims import capped_dips, many_zeros, state_curves_zeros, zero_share
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
