"""One parallel helper: the same results, in task order, on loky and on a Dask cluster."""

import os

import pandas as pd
import pytest

from inferopt.experiment.coresets import run_glm_trials
from inferopt.experiment.parallel import DASK_SCHEDULER_ENV, describe_backend, resolve_backend, run_tasks


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded worker processes on the loopback interface."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as local:
        yield local


def _power(base, exponent):
    return base**exponent


def _pid(_):
    return os.getpid()


def test_tasks_return_in_order_and_bad_input_is_named(monkeypatch):
    monkeypatch.delenv(DASK_SCHEDULER_ENV, raising=False)
    tasks = [(3, e) for e in range(7)]
    assert run_tasks(_power, tasks, n_jobs=2) == [3**e for e in range(7)] == run_tasks(_power, tasks)
    assert run_tasks(_power, []) == []
    with pytest.raises(ValueError, match="n_jobs"):
        run_tasks(_power, tasks, n_jobs=0)
    with pytest.raises(ValueError, match="backend"):
        run_tasks(_power, tasks, backend="spark")
    with pytest.raises(TypeError, match="fn"):
        run_tasks(None, tasks)
    with pytest.raises(ValueError, match=DASK_SCHEDULER_ENV):  # no address, no client: no silent local cluster
        run_tasks(_power, tasks, backend="dask")


def test_backend_follows_the_environment(monkeypatch):
    monkeypatch.delenv(DASK_SCHEDULER_ENV, raising=False)
    assert resolve_backend() == ("loky", None)
    assert describe_backend(2) == {"backend": "loky", "scheduler": None, "n_jobs": 2}
    monkeypatch.setenv(DASK_SCHEDULER_ENV, "tcp://10.0.0.1:8786")
    assert resolve_backend() == ("dask", "tcp://10.0.0.1:8786")
    assert resolve_backend("loky") == ("loky", None)


def test_glm_trials_are_bit_identical_on_one_process_loky_and_dask(cluster, monkeypatch):
    """A real trial runner (2 trials x 2 datasets, SparseVI's Monte Carlo and Uniform's draws
    included): every column but the timings equal bit for bit across backends and workers."""
    monkeypatch.delenv(DASK_SCHEDULER_ENV, raising=False)
    opts = dict(n_projections=30, max_iter=15, sparsevi_steps=2, sparsevi_samples=8)
    args = (["synth_poiss", "synth_lr"], ["uniform", "giga", "sparsevi", "a_iht", "a_iht_batch"], [2, 5])

    def run(n_jobs):
        return run_glm_trials(*args, n_trials=2, seed=11, n_jobs=n_jobs, **opts).drop(columns="seconds")

    serial = run(1)
    pd.testing.assert_frame_equal(run(2), serial, check_exact=True)
    monkeypatch.setenv(DASK_SCHEDULER_ENV, cluster.scheduler_address)  # the documented way to reach a cluster
    assert resolve_backend() == ("dask", cluster.scheduler_address)
    pd.testing.assert_frame_equal(run(1), serial, check_exact=True)
    pids = run_tasks(_pid, [(i,) for i in range(8)])
    from distributed import Client

    with Client(cluster.scheduler_address) as client:
        worker_pids = set(client.run(os.getpid).values())
    assert len(worker_pids) == 2 and set(pids) <= worker_pids  # the tasks ran on the cluster's workers


def test_explicit_dask_backend_uses_this_process_client(cluster, monkeypatch):
    from distributed import Client

    monkeypatch.delenv(DASK_SCHEDULER_ENV, raising=False)
    with Client(cluster):
        assert run_tasks(_power, [(2, e) for e in range(5)], backend="dask") == [1, 2, 4, 8, 16]
