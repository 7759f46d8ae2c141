"""herd's track hook: called after every point with the candidates and their weights."""
import numpy as np
import pytest

from inferopt.experiment.herding import bit_means
from inferopt.herding import FeatureTarget, all_states, herd, independent_maxent


def _setting(kind="rational", d=4):
    S = all_states(d)
    m = bit_means(kind, d, np.random.default_rng(3))
    return S, m, independent_maxent(S, m)


def test_herd_track_sees_every_point_with_its_weights():
    S, m, _ = _setting("random")
    seen = []
    herd(FeatureTarget(m), S, 30, "1/(t+1)", track=lambda t, ids, w: seen.append((t, float(w.sum()))))
    assert [t for t, _ in seen] == list(range(1, 31)) and np.allclose([s for _, s in seen], 1.0)
    with pytest.raises(TypeError, match="track"):
        herd(FeatureTarget(m), S, 30, "1/(t+1)", track=3)
