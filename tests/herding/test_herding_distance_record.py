"""distance_record (B4.3's dense record) against state_curves' snapshots, and herd's track hook."""
import numpy as np
import pytest

from inferopt.experiment.herding import bit_means, distance_record, state_curves
from inferopt.herding import FeatureTarget, all_states, herd, independent_maxent


def _setting(kind="rational", d=4):
    S = all_states(d)
    m = bit_means(kind, d, np.random.default_rng(3))
    return S, m, independent_maxent(S, m)


def test_distance_record_equals_the_snapshots_at_every_t():
    S, m, p = _setting()
    rec = distance_record(S, m, p, 120, "1/(t+1)", 100)
    assert rec.shape == (21,)
    dense = state_curves(S, m, p, 120, "1/(t+1)", range(100, 121)).dist.to_numpy()
    np.testing.assert_allclose(rec, dense, rtol=1e-12, atol=1e-15)


def test_distance_record_refuses_a_start_past_the_end():
    S, m, p = _setting()
    with pytest.raises(ValueError, match="t_from"):
        distance_record(S, m, p, 50, "1/(t+1)", 51)


def test_herd_track_sees_every_point_with_its_weights():
    S, m, _ = _setting("random")
    seen = []
    herd(FeatureTarget(m), S, 30, "1/(t+1)", track=lambda t, ids, w: seen.append((t, float(w.sum()))))
    assert [t for t, _ in seen] == list(range(1, 31)) and np.allclose([s for _, s in seen], 1.0)
    with pytest.raises(TypeError, match="track"):
        herd(FeatureTarget(m), S, 30, "1/(t+1)", track=3)
