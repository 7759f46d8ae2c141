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


PROBE = ("import json, threadpoolctl, scipy.linalg; from numpy._core._multiarray_umath import __cpu_features__ as f; "
         "print(json.dumps({'kernels': sorted({l['architecture'] for l in threadpoolctl.threadpool_info() if l['user_api'] == 'blas'}), "
         "'avx512': bool(f.get('X86_V4')), 'avx2': bool(f.get('AVX2'))}))")


def _child(env):
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_process_started_under_the_neutral_environment_computes_with_haswell_and_avx2_loops():
    """Issue 40: D5/B4/C4/B1's nbval outputs moved between an AMD AVX2 and an Intel AVX-512 machine, through the BLAS kernel
    and numpy's own AVX-512 loops; a child started under neutral_environment runs OpenBLAS's Haswell kernel and numpy's
    loops without AVX-512, whatever this processor has (checked against the child's own report)."""
    import os
    import platform

    import pytest

    from inferopt.experiment.blas import NEUTRAL_KERNEL, neutral_environment, use_neutral_environment

    bare = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")}
    native = _child(bare)
    if platform.machine().lower() not in ("x86_64", "amd64") or not native["avx2"]:
        assert neutral_environment() == {}
        pytest.skip("not an x86-64 processor with AVX2: it computes with its own kernel and loops")
    neutral = neutral_environment()
    assert neutral["OPENBLAS_CORETYPE"] == NEUTRAL_KERNEL
    assert ("NPY_DISABLE_CPU_FEATURES" in neutral) == native["avx512"]    # set only where there is something wider to turn off
    child = _child(bare | neutral)
    assert child["kernels"] == [NEUTRAL_KERNEL] and not child["avx512"] and child["avx2"]
    # a variable already set is kept (a run forced to another kernel stays forced)
    env = {"OPENBLAS_CORETYPE": "Sandybridge"}
    assert use_neutral_environment(env)["OPENBLAS_CORETYPE"] == "Sandybridge"
    assert use_neutral_environment({}) == neutral
