"""The BLAS an experiment computes with: one thread, pinned, and its configuration recorded with
the run's metrics (issue 40).

Results depend on the BLAS in their last bits, through two things:

* the kernel OpenBLAS chooses for the processor model (``OPENBLAS_CORETYPE`` forces one:
  SkylakeX on an AVX-512 machine, Haswell on AVX2, Sandybridge, ...): measured here, a
  ``Φᵀr`` product, ``dot``, ``gemm``, ``solve`` and ``eigh`` change their last bits between
  SkylakeX and Haswell. The kernel is the processor's and cannot be pinned: it is *recorded*
  (:func:`blas_config`), and the selections that would turn its last bits into another
  coreset or another herding point are robust to them (:mod:`inferopt._selection`);
* the number of BLAS threads, which splits the sums of ``A @ x``, ``dot``, ``gemm`` and
  ``solve`` differently (measured here: their last bits change between 1 and 2 threads). By
  default OpenBLAS takes one thread per core, and joblib gives each loky worker
  ``cores // n_jobs``: a 2-core and an 8-core machine would compute different bits. So every
  experiment computes with :data:`THREADS` (one) BLAS thread, *pinned*: in the notebook's
  kernel (:func:`pin_threads`, called by :func:`~.notebook.open_experiment`) and in every task
  of :func:`~.parallel.run_tasks` (:func:`one_thread`), whatever the environment says.
  Parallelism comes from the trial workers (``n_jobs``).
"""

from __future__ import annotations

import os
from pathlib import Path

from threadpoolctl import threadpool_info, threadpool_limits

__all__ = ["THREADS", "THREAD_VARIABLES", "blas_config", "one_thread", "pin_threads"]

#: BLAS threads of every experiment (module docstring)
THREADS = 1
#: the variables that set the thread count of a BLAS loaded later (a process this one starts)
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


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
    ``OPENBLAS_CORETYPE`` is set."""
    forced = os.environ.get("OPENBLAS_CORETYPE")
    out = []
    for lib in threadpool_info():
        if lib.get("user_api") != "blas":
            continue
        entry = {"library": lib.get("internal_api"), "version": lib.get("version"),
                 "architecture": lib.get("architecture"), "threads": lib.get("num_threads"),
                 "threading_layer": lib.get("threading_layer"), "file": Path(lib.get("filepath", "")).name}
        out.append(entry | ({"forced_coretype": forced} if forced else {}))
    return out
