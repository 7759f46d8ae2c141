"""Repeated timings (experiment/timing.py): repeats make the same iterates, only the clock differs."""

import pickle

import numpy as np
import pytest

from inferopt.experiment.parallel import run_calls
from inferopt.experiment.timing import TimingOnly, retimed, without_evaluations
from inferopt.spectral import gd


def test_timing_only_switches_off_the_evaluations_and_keeps_the_rest(completion_problem, completion_calls):
    wrapped = TimingOnly(completion_problem)
    theta = np.full(completion_problem.shape, 3.0)
    assert np.isnan(wrapped.objective(theta)) and np.isnan(wrapped.metric(theta))
    assert np.isfinite(completion_problem.objective(theta)) and np.isfinite(completion_problem.metric(theta))
    np.testing.assert_array_equal(wrapped.g_grad(theta), completion_problem.g_grad(theta))
    assert wrapped.eps == completion_problem.eps and wrapped.shape == completion_problem.shape
    back = pickle.loads(pickle.dumps(wrapped))       # loky and Dask workers receive it pickled
    assert np.isnan(back.metric(theta)) and back.eps == completion_problem.eps


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_repeats_without_evaluations_make_the_same_iterates(completion_problem, completion_calls, n_jobs):
    first = run_calls(completion_calls(), n_jobs=1)
    again = run_calls({m: without_evaluations(c) for m, c in completion_calls().items()}, n_jobs=n_jobs)
    for m, res in first.items():
        rep = again[m]
        assert np.isnan(rep.metric).all() and np.isfinite(res.metric).all()
        out = retimed(res, rep)
        np.testing.assert_array_equal(out.times, rep.times)       # the repeat's clock ...
        np.testing.assert_array_equal(out.metric, res.metric)     # ... on the evaluated run's trace
        np.testing.assert_array_equal(out.x, res.x)
        assert (np.diff(out.times) >= 0).all()


def test_retimed_refuses_a_repeat_of_another_run(completion_problem, completion_calls):
    first = run_calls(completion_calls(seed=0), n_jobs=1)
    other = run_calls({"SGD": without_evaluations(completion_calls(seed=1)["SGD"])}, n_jobs=1)
    with pytest.raises(ValueError, match="same seeded iterates"):
        retimed(first["SGD"], other["SGD"])
    with pytest.raises(ValueError, match="iterations"):       # recorded at other iterations (0, 3, 6, 8)
        retimed(first["SGD"], completion_calls()["GD"](eval_every=3))


def test_bad_arguments_are_named(completion_problem, completion_calls):
    with pytest.raises(TypeError, match="call must be a functools.partial"):
        without_evaluations(gd)
    with pytest.raises(TypeError, match="problem must be an object with objective, metric"):
        TimingOnly(object())
    with pytest.raises(TypeError, match="repeat must be an object"):
        retimed(run_calls(completion_calls(), n_jobs=1)["GD"], 3.0)
