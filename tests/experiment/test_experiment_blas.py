"""The BLAS of a run (inferopt.experiment.blas, issue 40): one thread, pinned in the notebook's
process and in every worker, and recorded with the run's metrics."""

import json

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from inferopt.experiment import Experiment
from inferopt.experiment.blas import THREADS, blas_config, one_thread
from inferopt.experiment.parallel import run_tasks


def _blas_threads(_):
    return sorted({lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"})


def test_blas_config_names_library_version_kernel_and_threads():
    config = blas_config()
    assert config, "numpy computes with a BLAS: it must be recorded"
    for lib in config:
        assert {"library", "version", "architecture", "threads", "threading_layer", "file"} <= set(lib)
        assert isinstance(lib["threads"], int) and lib["threads"] >= 1
    json.dumps(config)


def test_one_thread_limits_and_restores():
    with threadpool_limits(limits=2, user_api="blas"):
        with one_thread():
            assert _blas_threads(None) == [THREADS]
        assert _blas_threads(None) == [2]


def test_every_task_runs_on_one_blas_thread_whatever_the_workers_inherit(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")      # what a worker would otherwise start with
    with threadpool_limits(limits=2, user_api="blas"):   # and this process, for n_jobs = 1
        assert run_tasks(_blas_threads, [(i,) for i in range(2)], n_jobs=1) == [[THREADS]] * 2
        assert run_tasks(_blas_threads, [(i,) for i in range(4)], n_jobs=2) == [[THREADS]] * 4


def test_the_metrics_record_the_blas_of_the_run(tmp_path):
    exp = Experiment("Z9", title="t", paper="p", figure="Fig 0", params={"output_dir": str(tmp_path), "seed": 0})
    exp.claim("Z9.1", "x", holds=True, measured={"x": 1})
    data = json.loads(exp.write().read_text())
    assert data["run"]["blas"] == blas_config()
    assert np.all([lib["architecture"] for lib in data["run"]["blas"]])
