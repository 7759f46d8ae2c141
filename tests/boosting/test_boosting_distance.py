"""The authors' step-size distance d = ∫(s − q)² (inferopt.boosting.distance) and their rules' arithmetic."""

import math

import numpy as np
import pytest
from scipy.integrate import quad

from inferopt.boosting import AUTHORS_RULES, Component, GaussianMixtureTarget, Mixture, boost
from inferopt.boosting.distance import l2_distance, l2_distance_authors, log_inner_products, log_l2_distance
from inferopt.fw.steps import Backtracking, Line, ZeroStep


def _lap(x, m, b):
    return np.exp(-abs(x - m) / b) / (2 * b)


def _gauss(x, m, s):
    return np.exp(-0.5 * ((x - m) / s) ** 2) / (s * math.sqrt(2 * math.pi))


@pytest.mark.parametrize("m1, b1, m2, b2", [(0, 1, 0.7, 2), (0, 1, 0.7, 1), (0.3, 0.5, -1, 0.5 * (1 + 1e-9)),
                                            (0, 0.1, 2, 3), (1, 0.2, 1, 0.3)])
def test_inner_products_match_quadrature(m1, b1, m2, b2):
    """1-D ∫ p1 p2 of both families against numerical quadrature (the closed forms of the module docstring)."""
    for family, pdf in (("laplace", _lap), ("gaussian", _gauss)):
        truth = quad(lambda x: pdf(x, m1, b1) * pdf(x, m2, b2), -80, 80, points=[m1, m2], limit=400)[0]
        got = np.exp(log_inner_products(family, [[m1]], [[np.log(b1)]], [[m2]], [[np.log(b2)]]))[0, 0]
        assert got == pytest.approx(truth, rel=1e-6)


def test_distance_is_the_squared_norm_by_quadrature():
    """∫(s − q)² of a 1-D Laplace s and a two-component q against quadrature, and 0 for s = q."""
    s = Component("laplace", np.array([0.3]), np.log([0.8]))
    q = Mixture("laplace", np.array([[0.0], [1.5]]), np.log([[1.0], [0.4]]), [0.3, 0.7])
    f = lambda x: (_lap(x, 0.3, 0.8) - 0.3 * _lap(x, 0.0, 1.0) - 0.7 * _lap(x, 1.5, 0.4)) ** 2  # noqa: E731
    truth = quad(f, -60, 60, points=[0.0, 0.3, 1.5], limit=400)[0]
    assert l2_distance(s, q) == pytest.approx(truth, rel=1e-9)
    assert log_l2_distance(s, Mixture.from_component(s)) == -np.inf or l2_distance(s, Mixture.from_component(s)) < 1e-15


def test_authors_estimator_is_unbiased_in_float64():
    """Their Monte-Carlo d̂ in float64 agrees with the closed form (5 standard errors over independent estimates)."""
    rng = np.random.default_rng(0)
    for family in ("gaussian", "laplace"):
        s = Component(family, np.array([0.3, -0.2]), np.log([0.8, 1.2]))
        q = Mixture(family, np.array([[0.0, 0.0], [1.0, 1.0]]), np.log([[1.0, 1.0], [0.5, 2.0]]), [0.4, 0.6])
        est = np.array([l2_distance_authors(s, q, n_samples=2000, rng=rng, dtype="float64") for _ in range(200)])
        assert abs(est.mean() - l2_distance(s, q)) < 5 * est.std(ddof=1) / np.sqrt(len(est))


def test_float32_overflows_in_100_dimensions_as_the_authors_code():
    """Scales 0.05 in 100 dimensions: log-densities of order 130 > log(float32 max) ≈ 88.7. A far component gives
    d̂ = inf, an overlapping one inf − inf = NaN; the closed form is finite in float64 (log d ≈ 161)."""
    rng = np.random.default_rng(1)
    s = Component("laplace", np.zeros(100), np.log(np.full(100, 0.05)))
    near = Mixture("laplace", np.full((1, 100), 0.01), np.log(np.full((1, 100), 0.05)), [1.0])
    far = Mixture("laplace", np.full((1, 100), 3.0), np.log(np.full((1, 100), 0.05)), [1.0])
    assert math.isnan(l2_distance_authors(s, near, n_samples=100, rng=rng))
    assert l2_distance_authors(s, far, n_samples=100, rng=rng) == math.inf
    assert 150 < log_l2_distance(s, near) < 170 and np.isfinite(l2_distance(s, near))
    assert np.isfinite(l2_distance_authors(s, near, n_samples=100, rng=rng, dtype="float64"))


def _line(d_sqnorm, gamma_max=1.0, t=1, slope=-1.0):
    return Line(t=t, slope=slope, f0=0.0, gamma_max=gamma_max, d_sqnorm=d_sqnorm, phi=lambda g: 0.5 * g)


def test_step_is_gap_over_L_times_distance():
    """γ = g/(C·d): with φ(γ) = γ²/... accepted at the first try (C = η C0)."""
    rule = Backtracking(2.0, eta=1.0, tau=2.0)
    out = rule(Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0, d_sqnorm=4.0, phi=lambda g: -g + g * g * 4.0))
    assert out.status == "accepted" and out.gamma == pytest.approx(1.0 / (2.0 * 4.0))


def test_infinite_distance_falls_back_nan_aborts_fw_fallback_unclipped():
    """d = inf: γ = 0 and the test 0·inf = NaN cannot pass: the fallback (2/(t+2)); d = NaN: abort; with
    fallback_direction='fw' the fallback is a Frank-Wolfe step of 2/(t+2), not clipped to an away step's γ_max."""
    kw = dict(eta=0.99, tau=2.0, min_gamma=0.01, max_tries=10, fallback_C="previous", fallback_direction="fw")
    out = Backtracking(1.0, **kw)(_line(math.inf, gamma_max=0.1, t=2))
    assert out.status == "fallback" and out.direction == "fw" and out.gamma == pytest.approx(0.5) and out.n_evals == 1
    assert Backtracking(1.0, **kw)(_line(math.nan)).status == "abort"
    line_fb = Backtracking(1.0, **{**kw, "fallback_direction": "line"})(_line(math.inf, gamma_max=0.1, t=2))
    assert line_fb.direction is None and line_fb.gamma == pytest.approx(0.1)
    assert Backtracking(1.0, on_ascent="fallback", **kw)(_line(1.0, slope=0.5)).direction == "fw"   # a gap <= 0: fixed step


def test_toy_fallback_is_zero():
    """C1's authors' toy script returns γ = 0 when the search fails."""
    out = Backtracking(1.0, max_tries=3, fallback=ZeroStep())(Line(t=1, slope=-1.0, f0=0.0, gamma_max=1.0,
                                                            phi=lambda g: 10.0))
    assert out.status == "fallback" and out.gamma == 0.0


def test_float32_run_aborts_and_exact_run_completes():
    """A 100-dimensional target with scales 0.05: the second component overlaps the first, so the authors' float32
    distance is NaN and the run stops (as their script's), where the exact distance lets it finish."""
    D = 100
    target = GaussianMixtureTarget(np.vstack([np.zeros(D), np.full(D, 0.02)]), np.full((2, D), 0.05), [0.5, 0.5])
    seq = [Component("gaussian", np.zeros(D), np.log(np.full(D, 0.05))),
           Component("gaussian", np.full(D, 0.02), np.log(np.full(D, 0.05))),
           Component("gaussian", np.full(D, 0.01), np.log(np.full(D, 0.05)))]
    runs = {dist: boost(target, "adafw", rng=np.random.default_rng(0), max_iter=2, family="gaussian", distance=dist,
                        lmo=lambda q, t, _r: seq[t], C0=1.0, **AUTHORS_RULES) for dist in ("float32", "exact")}
    assert runs["float32"].record.attrs["aborted_at"] == 1 and len(runs["float32"].record) == 1
    assert runs["exact"].record.attrs["aborted_at"] is None and len(runs["exact"].record) == 3


def test_away_fallback_adds_the_new_component():
    """AdaAFW as the authors run it: an away direction whose search fails adds s with 2/(t+2) (a Frank-Wolfe step),
    so the mixture grows, where our rule's fallback moves along the away direction."""
    D = 2
    target = GaussianMixtureTarget(np.array([[0.0, 0.0], [4.0, 4.0]]), np.ones((2, D)), [0.5, 0.5])
    far = Component("gaussian", np.array([30.0, 30.0]), np.zeros(D))
    seq = [Component("gaussian", np.zeros(D), np.zeros(D)), Component("gaussian", np.array([4.0, 4.0]), np.zeros(D)), far,
           far]
    res = boost(target, "adaafw", rng=np.random.default_rng(0), max_iter=3, family="gaussian", distance="exact",
                lmo=lambda q, t, _r: seq[t], C0=1e6, eta=1.0, tau=1.01, **{**AUTHORS_RULES, "imax": 2, "min_gamma": 0.0})
    rec = res.record
    fb = rec[rec.step_type == "fallback"]
    assert len(fb) >= 1
    for t in fb.iteration:
        assert rec.gamma[t] == pytest.approx(2 / (t + 2)) and rec.n_components[t] == rec.n_components[t - 1] + 1
