"""Sec. 4.2 (B6): line search converges linearly in finite dimension (graphical model, mu in
the relative interior of the sample's hull) but only as O(1/t) for a Sobolev kernel."""

import numpy as np

from inferopt.herding import (
    FeatureTarget,
    SobolevTarget,
    TrigDensity,
    herd,
    pairwise_features,
    random_correlation,
    sample_sign_gaussian,
    sign_gaussian_moments,
)


def test_line_search_is_linear_in_finite_dimension():
    rng = np.random.default_rng(0)
    sigma = random_correlation(5, rng)
    target = FeatureTarget(sign_gaussian_moments(sigma))
    F = pairwise_features(sample_sign_gaussian(sigma, 3000, rng))
    ls = herd(target, F, 1500, "line_search").objective
    hd = herd(target, F, 1500, "1/(t+1)").objective
    t_hit = int(np.argmax(ls < 1e-12))
    assert ls[t_hit] < 1e-12 and t_hit < 1400
    slope = np.polyfit(np.arange(200, t_hit), np.log(ls[200:t_hit]), 1)[0]
    assert slope < -0.01                       # exp(-c t)
    assert hd[-1] > 1e-8                       # herding: polynomial rate only


def test_line_search_is_order_one_over_t_for_sobolev():
    target = SobolevTarget(1, TrigDensity.uniform())
    err = herd(target, np.arange(2000) / 2000, 400, "line_search").objective
    t = np.arange(1, 401)
    slope = np.polyfit(np.log(t[40:]), np.log(err[40:]), 1)[0]
    assert -1.3 < slope < -0.7
