"""The BLAS an experiment computes with: one thread, pinned, and its configuration recorded with
the run's metrics (issue 40).

Results depend on the BLAS in their last bits, through two things:

* the kernel OpenBLAS chooses for the processor model (``OPENBLAS_CORETYPE`` forces one:
  SkylakeX on an AVX-512 machine, Haswell on AVX2, Sandybridge, ...): measured here, a
  ``Φᵀr`` product, ``dot``, ``gemm``, ``solve`` and ``eigh`` change their last bits between
  SkylakeX and Haswell. The kernel is *recorded* (:func:`blas_config`), set to one kernel for the
  processes an experiment or a test starts (:func:`neutral_environment`, below), and the
  selections that would turn its last bits into another coreset or another herding point are
  robust to them whatever the kernel (:mod:`inferopt._selection`);
* the number of BLAS threads, which splits the sums of ``A @ x``, ``dot``, ``gemm`` and
  ``solve`` differently (measured here: their last bits change between 1 and 2 threads). By
  default OpenBLAS takes one thread per core, and joblib gives each loky worker
  ``cores // n_jobs``: a 2-core and an 8-core machine would compute different bits. So every
  experiment computes with :data:`THREADS` (one) BLAS thread, *pinned*: in the notebook's
  kernel (:func:`pin_threads`, called by :func:`~.notebook.open_experiment`) and in every task
  of :func:`~.parallel.run_tasks` (:func:`one_thread`), whatever the environment says.
  Parallelism comes from the trial workers (``n_jobs``).

Beside the BLAS, numpy's own loops (``exp``, ``log``, reductions) take the widest SIMD extensions
the processor has. Measured: D5's and B4's notebook outputs at their defaults, computed on an AMD
AVX2 machine, moved on an Intel Sapphire Rapids one (a late gain 0.007597 -> 0.007598, a slope
-2.77460e-10 -> -2.77454e-10; C4's gain over plain VI -709.8 -> -709.4, B1's ratios), under its own
kernel or under Haswell alone, or with numpy's AVX-512 loops off alone; with both they came out
identical. So a process an experiment or a test starts computes under :func:`neutral_environment`:
OpenBLAS's Haswell kernel and numpy's loops no wider than AVX2, the arithmetic every x86-64
processor since 2015 runs (set by the pipeline for its kernels, :mod:`inferopt.pipeline.run`, and by
the test session for nbval's, ``conftest.py``); a variable already set is kept, so a run can still
be forced to another kernel (``tests/test_blas_kernels.py`` does).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

from threadpoolctl import threadpool_info, threadpool_limits

__all__ = ["NEUTRAL_KERNEL", "NEUTRAL_SIMD", "THREADS", "THREAD_VARIABLES", "blas_config", "neutral_environment", "one_thread",
           "pin_threads", "use_neutral_environment"]

#: BLAS threads of every experiment (module docstring)
THREADS = 1
#: the variables that set the thread count of a BLAS loaded later (a process this one starts)
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


#: OpenBLAS's kernel of the neutral arithmetic (module docstring): AVX2, which every x86-64 processor since 2015 runs
NEUTRAL_KERNEL = "Haswell"
#: numpy's SIMD targets of the neutral arithmetic: x86-64-v2 and -v3 (AVX2); wider ones (AVX-512) are turned off
NEUTRAL_SIMD = ("X86_V2", "X86_V3")


@functools.lru_cache(maxsize=1)
def _processor_simd() -> tuple[dict, list]:
    """numpy's SIMD features of this processor and its dispatch targets, read in a child process started without
    ``NPY_DISABLE_CPU_FEATURES`` (this process's own are masked where it runs the neutral arithmetic already)."""
    probe = ("import json; from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f; "
             "print(json.dumps([f, list(d)]))")
    env = {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"}
    features, dispatch = json.loads(subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                                                   check=True).stdout)
    return features, dispatch


def neutral_environment() -> dict:
    """The variables under which a process started from here computes the same bits on any x86-64 processor with
    AVX2: ``OPENBLAS_CORETYPE`` (:data:`NEUTRAL_KERNEL`) and ``NPY_DISABLE_CPU_FEATURES``, the SIMD targets numpy
    dispatches to above :data:`NEUTRAL_SIMD` that this processor has (none on an AVX2 processor: the variable is then
    not set; read off a child process, :func:`_processor_simd`). Empty on another architecture or an x86-64 processor
    without AVX2 (it computes with its own kernel and loops, recorded by :func:`blas_config`)."""
    import platform

    features, dispatch = _processor_simd()
    if platform.machine().lower() not in ("x86_64", "amd64") or not features.get("AVX2"):
        return {}
    wider = [t for t in dispatch if t not in NEUTRAL_SIMD and features.get(t)]
    return {"OPENBLAS_CORETYPE": NEUTRAL_KERNEL} | ({"NPY_DISABLE_CPU_FEATURES": " ".join(wider)} if wider else {})


def use_neutral_environment(env=None) -> dict:
    """Put :func:`neutral_environment` into ``env`` (default ``os.environ``: the processes started from now on), keeping
    a variable already set there; returns what ``env`` now holds of those variables."""
    env = os.environ if env is None else env
    for name, value in neutral_environment().items():
        env.setdefault(name, value)
    return {k: env[k] for k in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES") if k in env}


def pin_threads() -> None:
    """:data:`THREADS` BLAS threads in this process from now on (the libraries already loaded,
    through threadpoolctl) and in the processes it starts (the environment variables)."""
    for name in THREAD_VARIABLES:
        os.environ[name] = str(THREADS)
    threadpool_limits(limits=THREADS, user_api="blas")


def one_thread():
    """A context in which the BLAS libraries of this process use :data:`THREADS` thread(s);
    the previous limits come back on exit."""
    return threadpool_limits(limits=THREADS, user_api="blas")


def blas_config() -> list[dict]:
    """Each BLAS library loaded in this process, as a run records it: ``library`` (e.g. ``openblas``),
    ``version``, ``architecture`` (the kernel in use: OpenBLAS's core type), ``threads``,
    ``threading_layer`` and ``file`` (its name), plus ``forced_coretype`` when
    ``OPENBLAS_CORETYPE`` is set and ``numpy_disabled_simd`` when ``NPY_DISABLE_CPU_FEATURES`` is."""
    forced = os.environ.get("OPENBLAS_CORETYPE")
    disabled = os.environ.get("NPY_DISABLE_CPU_FEATURES")
    out = []
    for lib in threadpool_info():
        if lib.get("user_api") != "blas":
            continue
        entry = {"library": lib.get("internal_api"), "version": lib.get("version"),
                 "architecture": lib.get("architecture"), "threads": lib.get("num_threads"),
                 "threading_layer": lib.get("threading_layer"), "file": Path(lib.get("filepath", "")).name}
        out.append(entry | ({"forced_coretype": forced} if forced else {}) | ({"numpy_disabled_simd": disabled} if disabled else {}))
    return out
