"""Optimisers (Algorithms 1 and 2, GD, SGD-DET) on small synthetic matrix-completion problems
(Sec. 5.1), SVRG's control variate, projections and step schedules."""

import numpy as np
import pytest

from inferopt.spectral import (
    ChebyshevSeries,
    MatrixCompletion,
    box_projection,
    constant_step,
    gd,
    inverse_time_step,
    make_degree_rule,
    project_box,
    rademacher,
    rmse,
    sgd,
    sgd_det,
    svrg,
)


def completion_problem(seed, d=40, r=30, rank=2, frac=0.5, lam=1.0, eps=1.0):
    """A rank-`rank` matrix in [0, 5]^{d x r}, half of its entries observed, the rest held out."""
    rng = np.random.default_rng(seed)
    L = rng.uniform(0.5, 1.5, (d, rank)) @ rng.uniform(0.5, 1.5, (rank, r))
    L = 5 * L / L.max()
    mask = rng.random((d, r)) < frac
    rows, cols = np.nonzero(mask)
    trows, tcols = np.nonzero(~mask)
    prob = MatrixCompletion(rows, cols, L[rows, cols], (d, r), lam=lam, eps=eps,
                            test=(trows, tcols, L[trows, tcols]), rng=seed)
    return prob, rng.uniform(0, 5, (d, r)), L


@pytest.mark.parametrize("d, r", [(12, 7), (7, 12)])   # both Gram orientations (theta^T theta, theta theta^T)
def test_problem_pieces_against_direct_formulas(d, r):
    prob, theta, _ = completion_problem(0, d=d, r=r)
    A = theta @ theta.T + prob.eps * np.eye(d)
    lam, U = np.linalg.eigh(A)
    assert prob.spectral_term(theta) == pytest.approx(np.sum(np.sqrt(lam)), rel=1e-12)
    np.testing.assert_allclose(prob.exact_spectral_grad(theta), (U / np.sqrt(lam)) @ U.T @ theta, rtol=1e-9, atol=1e-12)
    a, b = prob.interval(theta)
    assert a == prob.eps and b >= lam[-1] and b <= 1.5 * lam[-1]
    g = prob.g_grad(theta)
    D = np.random.default_rng(1).standard_normal(theta.shape)
    fd = (prob.g(theta + 1e-6 * D) - prob.g(theta - 1e-6 * D)) / 2e-6
    assert np.sum(g * D) == pytest.approx(fd, rel=1e-6)
    assert prob.metric(theta) == pytest.approx(np.sqrt(np.mean((theta[prob.test[0], prob.test[1]] - prob.test[2]) ** 2)))
    assert np.all(prob.project(theta * 3 - 5) >= 0) and np.all(prob.project(theta * 3 - 5) <= 5)


@pytest.mark.parametrize("method", ["sgd", "svrg", "gd", "sgd_det"])
def test_optimisers_reduce_the_objective_and_recover_the_low_rank_matrix(method):
    prob, theta0, L = completion_problem(1)
    runs = {
        "sgd": lambda: sgd(prob, theta0, max_iter=150, step=0.1, M=5, N=15, rng=0, eval_every=50),
        "svrg": lambda: svrg(prob, theta0, n_outer=3, n_inner=50, step=0.1, M=5, N=15, rng=0, eval_every=50),
        "gd": lambda: gd(prob, theta0, max_iter=150, step=0.1, eval_every=50),
        "sgd_det": lambda: sgd_det(prob, theta0, degree=10, max_iter=150, step=0.1, M=5, rng=0, eval_every=50),
    }
    res = runs[method]()
    assert res.objective[-1] < 0.2 * res.objective[0]
    assert np.all(np.diff(res.objective) < 0)
    assert res.metric[-1] < 0.5 * res.metric[0]  # held-out entries: better than the start
    assert np.all((res.x >= 0) & (res.x <= 5))  # iterates stay in C = [0, 5]^{d x r}
    assert list(res.iterations) == [0, 50, 100, 150] and res.times.size == 4
    # the recovered matrix is closer to the truth than the start on all entries, too
    assert rmse(res.x, *np.nonzero(np.ones_like(L, dtype=bool)), L.ravel()) < 0.5 * np.sqrt(np.mean((theta0 - L) ** 2))


def test_sgd_records_random_degrees_with_mean_N():
    prob, theta0, _ = completion_problem(2, d=15, r=10)
    res = sgd(prob, theta0, max_iter=300, step=0.05, M=2, N=8, distribution="poisson", rng=1, eval_every=300)
    degrees = res.info["degrees"]
    assert abs(degrees.mean() - 8) < 4 * degrees.std() / np.sqrt(degrees.size)
    det = sgd_det(prob, theta0, degree=6, max_iter=5, step=0.05, M=2, rng=1)
    assert np.all(det.info["degrees"] == 6)


@pytest.mark.parametrize("f", ["sqrt", "log"])
def test_svrg_control_variate_has_zero_mean(f):
    prob, snap, _ = completion_problem(3, d=10, r=6)
    prob.f = f  # the same machinery for tr log(θθᵀ + εI)
    theta = prob.project(snap + 0.05 * np.random.default_rng(0).standard_normal(snap.shape))
    a = prob.eps
    b = max(prob.interval(theta)[1], prob.interval(snap)[1])
    fprime = {"sqrt": lambda x: 0.5 / np.sqrt(x), "log": lambda x: 1.0 / x}[f]

    def exact(t):
        lam, U = np.linalg.eigh(t @ t.T + prob.eps * np.eye(t.shape[0]))
        return 2.0 * (U * fprime(lam)) @ U.T @ t

    mu_snap = exact(snap)
    rule = make_degree_rule(ChebyshevSeries(f, a, b), N=10)
    rng = np.random.default_rng(2)
    R = 1500
    cv = np.empty((R,) + snap.shape)
    plain = np.empty((R,) + snap.shape)
    for k in range(R):
        V, w = rademacher(rng, 10, 2), rule.draw(rng)
        psi_snap = prob.spectral_grad(snap, V, w, a, b)
        plain[k] = prob.spectral_grad(theta, V, w, a, b)
        cv[k] = psi_snap - mu_snap
    z_cv = cv.mean(axis=0) / (cv.std(axis=0, ddof=1) / np.sqrt(R))
    assert np.max(np.abs(z_cv)) < 4.5  # 60 entries, each within its standard errors
    combined = plain - cv  # ψ(θ) - ψ(θ̃) + μ̃
    z = (combined.mean(axis=0) - exact(theta)) / (combined.std(axis=0, ddof=1) / np.sqrt(R))
    assert np.max(np.abs(z)) < 4.5
    # shared randomness: the control variate removes most of the variance near the snapshot
    assert combined.var(axis=0).sum() < 0.1 * plain.var(axis=0).sum()


def test_projection_and_schedules():
    x = np.array([-1.0, 0.5, 7.0])
    np.testing.assert_array_equal(project_box(x, 0.0, 5.0), [0.0, 0.5, 5.0])
    np.testing.assert_array_equal(box_projection([0, 1, 2], [1, 2, 3])(x), [0.0, 1.0, 3.0])
    assert constant_step(0.3)(100) == 0.3
    s = inverse_time_step(1.0, 0.5)
    assert [s(0), s(2), s(6)] == [1.0, 0.5, 0.25]


def test_progress_bar_can_be_shown(capsys):
    prob, theta0, _ = completion_problem(4, d=8, r=5)
    sgd(prob, theta0, max_iter=3, step=0.1, M=2, N=5, rng=0, progress=True)
    assert "SGD" in capsys.readouterr().err


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda p, t: sgd(p, t, max_iter=5, step=0.1, M=0), "M"),
        (lambda p, t: sgd(p, t, max_iter=-1, step=0.1), "max_iter"),
        (lambda p, t: sgd(p, t, max_iter=5, step=0.1, N=-2), "N"),
        (lambda p, t: sgd(p, t, max_iter=5, step=-0.1), "eta"),
        (lambda p, t: sgd_det(p, t, degree=-1, max_iter=5, step=0.1), "degree"),
        (lambda p, t: svrg(p, t, n_outer=2, n_inner=0, step=0.1), "n_inner"),
        (lambda p, t: svrg(p, t, n_outer=2, n_inner=2, step=0.1, snapshot="best"), "snapshot"),
        (lambda p, t: box_projection(1.0, 0.0), "low <= high"),
        (lambda p, t: MatrixCompletion([0], [0], [1.0], (3, 3), eps=0.0), "eps"),
        (lambda p, t: MatrixCompletion([0], [5], [1.0], (3, 3)), "out of range"),
        (lambda p, t: MatrixCompletion([0, 0], [1, 1], [1.0, 2.0], (3, 3)), "repeat"),
        (lambda p, t: MatrixCompletion([0.5], [1], [1.0], (3, 3)), "integer"),
    ],
)
def test_bad_inputs_raise(call, match):
    prob, theta0, _ = completion_problem(5, d=6, r=4)
    with pytest.raises(ValueError, match=match):
        call(prob, theta0)
