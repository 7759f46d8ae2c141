"""Issue 41: every optimiser stops at a CPU-time budget with the same iterates as an unbudgeted run up to there;
a timing repeat of a budgeted call stops at an iteration, not at a time; the objective and gradient from one
eigen-decomposition equal the separate ones."""

from functools import partial

import numpy as np
import pytest

from inferopt.datasets.movielens import synthetic_low_rank_ratings
from inferopt.experiment.timing import MetricOnly, without_evaluations
from inferopt.spectral import MatrixCompletion, gd, inverse_time_step, sgd, sgd_det, svrg


@pytest.fixture(scope="module")
def problem():
    D = synthetic_low_rank_ratings(40, 30, 2, 400, rng=1, test_fraction=0.2, noise=0.3)
    return MatrixCompletion(D["rows"], D["cols"], D["values"], D["shape"], lam=0.5, eps=20.0, test=D["test"], rng=0)


SOLVERS = {
    "GD": lambda p, **kw: gd(p, np.zeros(p.shape), step=0.5, **kw),
    "SGD": lambda p, **kw: sgd(p, np.zeros(p.shape), step=inverse_time_step(0.5, 0.01), M=3, N=5, rng=1, **kw),
    "SGD-DET": lambda p, **kw: sgd_det(p, np.zeros(p.shape), degree=5, step=0.5, M=3, rng=1, **kw),
    "SVRG": lambda p, **kw: svrg(p, np.zeros(p.shape), n_outer=10 ** 6, n_inner=7, step=0.5, M=3, N=5, rng=1,
                                 **{("max_iter" if k == "max_iter" else k): v for k, v in kw.items()}),
}


@pytest.mark.parametrize("name", list(SOLVERS))
def test_a_time_budget_stops_the_run_on_the_unbudgeted_iterates(problem, name):
    timed = SOLVERS[name](problem, max_iter=10 ** 6, max_time=0.15, eval_every=1)
    assert timed.message == "time budget reached" and timed.times[-1] >= 0.15 and timed.times[-2] < 0.15
    n = int(timed.iterations[-1])
    again = SOLVERS[name](problem, max_iter=n, eval_every=1)
    assert np.array_equal(again.checksums[:n + 1], timed.checksums[:n + 1])
    if name != "SVRG":                               # SVRG ends inside an epoch: the last iterate, not a snapshot
        np.testing.assert_array_equal(again.x, timed.x)


def test_a_repeat_of_a_budgeted_call_stops_at_an_iteration(problem):
    call = partial(sgd, problem, np.zeros(problem.shape), max_iter=10 ** 6, max_time=0.1, step=0.5, M=3, N=5, rng=2, eval_every=1)
    with pytest.raises(ValueError, match="until"):
        without_evaluations(call)
    rep = without_evaluations(call, until=5)()
    assert rep.iterations[-1] == 5 and np.isnan(rep.metric).all()


def test_metric_only_keeps_the_test_rmse_and_drops_the_objective(problem):
    run = gd(MetricOnly(problem), np.zeros(problem.shape), max_iter=4, step=0.5, eval_every=2)
    ref = gd(problem, np.zeros(problem.shape), max_iter=4, step=0.5, eval_every=2)
    assert np.isnan(run.objective).all() and np.array_equal(run.metric, ref.metric) and np.array_equal(run.x, ref.x)


def test_value_and_grad_is_the_objective_and_the_exact_gradient(problem):
    theta = np.random.default_rng(3).uniform(0, 5, problem.shape)
    value, grad = problem.value_and_grad(theta)
    assert value == pytest.approx(problem.objective(theta), rel=1e-13)
    np.testing.assert_allclose(grad, problem.exact_spectral_grad(theta) + problem.g_grad(theta), rtol=1e-12, atol=1e-12)
