"""kl_segment: the KL along the Frank-Wolfe segment (1 − γ) q + γ s on common draws, against independent truth."""
import numpy as np
import pytest

from inferopt.boosting import Component, Gaussian, GaussianMixtureTarget, kl, kl_segment
from inferopt.boosting.mixture import Mixture


def test_kl_segment_is_zero_at_the_target_and_matches_kl():
    target = GaussianMixtureTarget(np.array([[0.0, 0.0], [3.0, -1.0]]), np.array([[1.0, 0.5], [0.7, 1.2]]), [0.6, 0.4])
    q, s = target.component(0), target.component(1)
    curve = kl_segment(target, q, s, [0.0, 0.4, 1.0], n_samples=20000, rng=np.random.default_rng(0))
    assert curve[1] == pytest.approx(0.0, abs=1e-12)          # (0.6, 0.4) is the target: log q_γ = log p on every draw
    for g, value in zip((0.0, 1.0), curve[[0, 2]]):
        mix = Mixture(Gaussian(), np.stack([q.loc, s.loc]), np.stack([q.log_scale, s.log_scale]), [1 - g, g])
        ref = kl(target, mix, n_samples=20000, rng=np.random.default_rng(1))
        assert value == pytest.approx(ref, rel=0.05)
    assert np.argmin(kl_segment(target, q, s, np.linspace(0, 1, 11), n_samples=2000, rng=np.random.default_rng(2))) == 4


def test_kl_segment_refuses_bad_steps():
    target = GaussianMixtureTarget.single(np.zeros(2), np.ones(2))
    c = Component(Gaussian(), np.zeros(2), np.zeros(2))
    with pytest.raises(ValueError, match="gammas"):
        kl_segment(target, c, c, [0.5, 1.5], n_samples=10, rng=np.random.default_rng(0))
