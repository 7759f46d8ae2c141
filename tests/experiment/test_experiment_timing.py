"""Repeated timings (experiment/timing.py): repeats make the same iterates, only the clock differs."""

import pickle
from functools import partial

import numpy as np
import pytest

from inferopt.datasets.movielens import synthetic_low_rank_ratings
from inferopt.experiment.parallel import run_calls
from inferopt.experiment.timing import TimingOnly, retimed, without_evaluations
from inferopt.spectral import MatrixCompletion, gd, inverse_time_step, sgd, svrg


@pytest.fixture(scope="module")
def problem():
    D = synthetic_low_rank_ratings(40, 50, 3, 700, rng=0, test_fraction=0.1, noise=0.5)
    return MatrixCompletion(D["rows"], D["cols"], D["values"], D["shape"], lam=0.05, eps=25 * 40 * 50 / 1e4,
                            test=D["test"], rng=0)


def calls(problem, seed=0):
    ss = np.random.SeedSequence([seed]).spawn(2)
    theta0 = np.zeros(problem.shape)
    return {
        "GD": partial(gd, problem, theta0, max_iter=6, step=4.0, eval_every=2),
        "SGD": partial(sgd, problem, theta0, max_iter=12, step=inverse_time_step(4.0, 0.1), M=3, N=5, rng=ss[0],
                       eval_every=4),
        "SVRG": partial(svrg, problem, theta0, n_outer=2, n_inner=5, step=4.0, M=3, N=5, rng=ss[1], eval_every=5),
    }


def test_timing_only_switches_off_the_evaluations_and_keeps_the_rest(problem):
    wrapped = TimingOnly(problem)
    theta = np.full(problem.shape, 3.0)
    assert np.isnan(wrapped.objective(theta)) and np.isnan(wrapped.metric(theta))
    assert np.isfinite(problem.objective(theta)) and np.isfinite(problem.metric(theta))
    np.testing.assert_array_equal(wrapped.g_grad(theta), problem.g_grad(theta))
    assert wrapped.eps == problem.eps and wrapped.shape == problem.shape
    back = pickle.loads(pickle.dumps(wrapped))       # loky and Dask workers receive it pickled
    assert np.isnan(back.metric(theta)) and back.eps == problem.eps


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_repeats_without_evaluations_make_the_same_iterates(problem, n_jobs):
    first = run_calls(calls(problem), n_jobs=1)
    again = run_calls({m: without_evaluations(c) for m, c in calls(problem).items()}, n_jobs=n_jobs)
    for m, res in first.items():
        rep = again[m]
        assert np.isnan(rep.metric).all() and np.isfinite(res.metric).all()
        out = retimed(res, rep)
        np.testing.assert_array_equal(out.times, rep.times)       # the repeat's clock ...
        np.testing.assert_array_equal(out.metric, res.metric)     # ... on the evaluated run's trace
        np.testing.assert_array_equal(out.x, res.x)
        assert (np.diff(out.times) >= 0).all()


def test_retimed_refuses_a_repeat_of_another_run(problem):
    first = run_calls(calls(problem, seed=0), n_jobs=1)
    other = run_calls({"SGD": without_evaluations(calls(problem, seed=1)["SGD"])}, n_jobs=1)
    with pytest.raises(ValueError, match="same seeded iterates"):
        retimed(first["SGD"], other["SGD"])
    with pytest.raises(ValueError, match="iterations"):
        retimed(first["SGD"], first["GD"])


def test_bad_arguments_are_named(problem):
    with pytest.raises(TypeError, match="call must be a functools.partial"):
        without_evaluations(gd)
    with pytest.raises(TypeError, match="problem must be an object with objective, metric"):
        TimingOnly(object())
    with pytest.raises(TypeError, match="repeat must be an object"):
        retimed(run_calls(calls(problem), n_jobs=1)["GD"], 3.0)
