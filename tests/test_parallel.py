"""One parallel helper: the same results, in task order, on loky and on a Dask cluster."""

import os
from functools import partial

import numpy as np
import pandas as pd
import pytest

from inferopt.coresets import make_gaussian_mean
from inferopt.experiment.boosting import compare_methods
from inferopt.experiment.coresets import run_conjugate_trials, run_glm_trials
from inferopt.experiment.parallel import DASK_SCHEDULER_ENV, describe_backend, resolve_backend, run_calls, run_tasks
from inferopt.spectral import MatrixCompletion, gd, inverse_time_step, sgd


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


def _glm_trials(n_jobs):
    """A real trial runner (2 trials x 2 datasets, SparseVI's Monte Carlo and Uniform's draws included)."""
    opts = dict(n_projections=30, max_iter=15, sparsevi_steps=2, sparsevi_samples=8)
    args = (["synth_poiss", "synth_lr"], ["uniform", "giga", "sparsevi", "a_iht", "a_iht_batch"], [2, 5])
    return run_glm_trials(*args, n_trials=2, seed=11, n_jobs=n_jobs, **opts).drop(columns=["seconds", "phi_floor_seconds"])


def _conjugate_trials(n_jobs):
    """A1's runner: Uniform's draws, SparseVI, the IHT family and a re-fit on fresh problems."""
    trials = run_conjugate_trials(partial(make_gaussian_mean, 6, 20), ["uniform", "sparsevi", "a_iht_ii", "giga_refit"], [2, 4],
                                  seed=5, n_trials=3, n_jobs=n_jobs, max_iter=20, sparsevi_steps=5)
    return pd.concat([t.assign(trial=i) for i, (_, t, _) in enumerate(trials)], ignore_index=True).drop(columns="seconds")


def _boosting_replicates(n_jobs):
    """C2/C3's runner: every step rule, 2 replicates, stochastic greedy steps and evaluations."""
    rng = np.random.default_rng(3)
    Z = np.c_[rng.normal(size=(60, 3)), np.ones(60)]
    y = np.where(Z[:, 0] + 0.5 * rng.normal(size=60) > 0, 1.0, -1.0)
    data = dict(Z=Z[:40], y=y[:40], Zt=Z[40:], yt=y[40:])
    records = compare_methods(data, max_iter=3, n_replicates=2, rng=np.random.default_rng(8), n_eval=10, n_jobs=n_jobs,
                              n_samples=20, greedy={"max_iter": 15, "n_samples": 5})
    return records.drop(columns=[c for c in records.columns if c.startswith("time")])


def _spectral_runs(n_jobs):
    """D3/D5's runner: SGD (random degrees and probes) and GD fits named by (problem, method)."""
    rng = np.random.default_rng(2)
    fits = {}
    for name, (d, r) in {"small": (12, 9), "wide": (10, 16)}.items():
        L = 5 * np.abs(rng.normal(size=(d, 2)) @ rng.normal(size=(2, r)))
        rows, cols = np.nonzero(rng.random((d, r)) < 0.5)
        prob = MatrixCompletion(rows, cols, np.minimum(L[rows, cols], 5.0), (d, r), lam=1.0, eps=1.0, rng=7)
        start = rng.uniform(0, 5, (d, r))
        fits[name, "SGD"] = partial(sgd, prob, start, max_iter=5, step=inverse_time_step(0.05), M=3, N=6, rng=int(rng.integers(99)))
        fits[name, "GD"] = partial(gd, prob, start, max_iter=3, step=0.05)
    done = run_calls(fits, n_jobs=n_jobs)
    assert list(done) == list(fits)
    return pd.DataFrame([{"run": f"{k[0]}/{k[1]}", "x": res.x.tobytes().hex(), "objective": res.objective[-1]}
                         for k, res in done.items()])


RUNNERS = {"glm_trials": _glm_trials, "conjugate_trials": _conjugate_trials, "boosting_replicates": _boosting_replicates,
           "spectral_runs": _spectral_runs}


@pytest.mark.parametrize("runner", RUNNERS)
def test_runners_are_bit_identical_on_one_process_loky_and_dask(runner, cluster, monkeypatch):
    """Every column but the timings equal bit for bit across backends and workers."""
    monkeypatch.delenv(DASK_SCHEDULER_ENV, raising=False)
    run = RUNNERS[runner]
    serial = run(1)
    assert len(serial) > 0
    pd.testing.assert_frame_equal(run(2), serial, check_exact=True)
    monkeypatch.setenv(DASK_SCHEDULER_ENV, cluster.scheduler_address)  # the documented way to reach a cluster
    assert resolve_backend() == ("dask", cluster.scheduler_address)
    pd.testing.assert_frame_equal(run(1), serial, check_exact=True)


def test_tasks_run_on_the_cluster_workers(cluster, monkeypatch):
    monkeypatch.setenv(DASK_SCHEDULER_ENV, cluster.scheduler_address)
    pids = run_tasks(_pid, [(i,) for i in range(8)])
    from distributed import Client

    with Client(cluster.scheduler_address) as client:
        worker_pids = set(client.run(os.getpid).values())
    assert len(worker_pids) == 2 and set(pids) <= worker_pids  # the tasks ran on the cluster's workers


def _warns(_):
    import warnings

    from inferopt import LongCallWarning

    with warnings.catch_warnings(record=True) as seen:  # the filters the task runs under, shown to this list
        warnings.warn("projected wall time", LongCallWarning)
        warnings.warn("another warning", UserWarning)
    return [type(w.message).__name__ for w in seen]


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_tasks_run_with_long_call_warnings_silenced(n_jobs, monkeypatch):
    """A worker's projection of wall time (load-dependent) must not reach a notebook's output; other warnings pass."""
    monkeypatch.delenv(DASK_SCHEDULER_ENV, raising=False)
    assert run_tasks(_warns, [(0,), (1,)], n_jobs=n_jobs) == [["UserWarning"], ["UserWarning"]]
    assert _warns(0) == ["LongCallWarning", "UserWarning"]  # outside run_tasks it is shown


def test_progress_counts_the_tasks(capsys, monkeypatch):
    monkeypatch.delenv(DASK_SCHEDULER_ENV, raising=False)
    assert run_tasks(_power, [(2, e) for e in range(4)], n_jobs=2, progress="powers") == [1, 2, 4, 8]
    err = capsys.readouterr().err
    assert "powers" in err and "4/4" in err
    with pytest.raises(TypeError, match="progress"):
        run_tasks(_power, [(2, 1)], progress=1)
    with pytest.raises(TypeError, match=r"calls\[2\]"):
        run_calls({1: partial(_power, 2, 3), 2: "not callable"})
    with pytest.raises(TypeError, match="calls"):
        run_calls([partial(_power, 2, 3)])


def test_explicit_dask_backend_uses_this_process_client(cluster, monkeypatch):
    from distributed import Client

    monkeypatch.delenv(DASK_SCHEDULER_ENV, raising=False)
    with Client(cluster):
        assert run_tasks(_power, [(2, e) for e in range(5)], backend="dask") == [1, 2, 4, 8, 16]


def _alignment(arrays, holder):
    """Whether the task's arrays (in a dict, and as an object's attribute) are aligned, and a fresh array back."""
    return [a.flags.aligned for a in arrays.values()] + [holder.Z.flags.aligned], np.arange(1000.0)


def test_dask_tasks_get_and_return_aligned_arrays(cluster):
    """Dask hands pickle-5 buffers over as they arrive; numpy's matmul skips BLAS on a misaligned array
    (25x slower products), so tasks and results travel in band and every array arrives aligned."""
    from types import SimpleNamespace

    from distributed import Client

    buf = bytearray(8 * 4000 + 3)
    odd = np.frombuffer(memoryview(buf)[3:], dtype=float)     # a misaligned array on this side too
    assert not odd.flags.aligned
    tasks = [({"Z": np.arange(4000.0), "odd": odd}, SimpleNamespace(Z=np.ones((50, 80)))) for _ in range(4)]
    with Client(cluster.scheduler_address):
        out = run_tasks(_alignment, tasks, backend="dask")
    assert all(all(flags) for flags, _ in out)
    assert all(back.flags.aligned and np.array_equal(back, np.arange(1000.0)) for _, back in out)
