"""Independent units of work (trials × datasets, replicates × step rules, repetitions) on
joblib: loky processes on this machine by default, an existing Dask cluster when asked.

    run_tasks(fn, [(a1, b1), (a2, b2), ...], n_jobs=2)      # [fn(a1, b1), fn(a2, b2), ...]
    INFEROPT_DASK_SCHEDULER=tcp://host:8786 ...               # the same call, on the cluster

The Dask path connects a :class:`distributed.Client` to the scheduler's address and runs
joblib under ``parallel_config(backend="dask")``; every worker of the cluster takes tasks
(``n_jobs`` is then the cluster's size) and must be able to import ``inferopt``. Each task and
its result travel as in-band pickle bytes (:func:`_run_in_band`): Dask would otherwise hand a
task its arrays on the network buffers, at any address, and numpy's ``matmul`` does not call
BLAS on a misaligned array (a boosting run's matrix-vector products took 25x longer; C2's runs
4.3x longer on a 2-worker cluster than on 2 loky workers).

Results come back in task order, and are identical whatever the backend and the number of
workers as long as every task carries its own seed, fixed before any task runs (e.g.
:func:`inferopt.experiment.coresets.glm_trials.trial_seeds`, one
:class:`numpy.random.SeedSequence` spawned per trial): no task may draw from a generator
shared with another. Every task computes with one BLAS thread (:func:`.blas.one_thread`), on
every backend: the BLAS's summation order, hence the last bits, would otherwise follow each
worker's thread count (joblib gives a loky worker ``cores // n_jobs``). A task's
:class:`~inferopt.LongCallWarning` is silenced: :func:`run_tasks` shows its own progress over the tasks
(``progress=``), and a worker's projection of wall time, which depends on the machine's load, would
otherwise reach a notebook's output through the worker's standard error.
"""

from __future__ import annotations

import os
import pickle
import warnings
from contextlib import nullcontext
from functools import partial

from .._progress import LongCallWarning
from .._validation import check_callable, check_choice, check_size
from .blas import one_thread

#: the memory of one loky worker (a Python process with numpy and the library loaded), at least
WORKER_BYTES = 50 * 2**20

__all__ = ["BACKENDS", "DASK_SCHEDULER_ENV", "describe_backend", "resolve_backend", "run_calls", "run_tasks"]

#: the joblib backends :func:`run_tasks` accepts
BACKENDS = ("loky", "dask")
#: the environment variable holding a Dask scheduler's address (``tcp://host:8786``)
DASK_SCHEDULER_ENV = "INFEROPT_DASK_SCHEDULER"


def resolve_backend(backend: str | None = None, scheduler: str | None = None) -> tuple[str, str | None]:
    """``(backend, scheduler address)``: an explicit ``backend`` wins; else ``"dask"`` when
    ``scheduler`` or ``$INFEROPT_DASK_SCHEDULER`` names a scheduler, else ``"loky"``.
    ``"dask"`` with no address uses the Dask client already made in this process."""
    scheduler = scheduler or os.environ.get(DASK_SCHEDULER_ENV) or None
    if backend is None:
        backend = "dask" if scheduler else "loky"
    backend = check_choice("backend", backend, BACKENDS)
    return backend, (scheduler if backend == "dask" else None)


def describe_backend(n_jobs: int | None = None) -> dict:
    """What :func:`run_tasks` would use here without arguments: ``{"backend", "scheduler"}``,
    plus ``"n_jobs"`` when given (recorded with a run's metrics)."""
    backend, scheduler = resolve_backend()
    info = {"backend": backend, "scheduler": scheduler}
    return info if n_jobs is None else {**info, "n_jobs": n_jobs}


def _collect(results, n_tasks: int, progress) -> list:
    """The results of joblib's ordered generator as a list, counting them on a tqdm bar when
    ``progress`` (a string: the bar's label)."""
    if not progress:
        return list(results)
    from tqdm.auto import tqdm

    return list(tqdm(results, total=n_tasks, desc=progress if isinstance(progress, str) else "tasks"))


def run_tasks(fn, tasks, *, n_jobs: int = 1, backend: str | None = None, scheduler: str | None = None,
              progress: bool | str = False) -> list:
    """``[fn(*task) for task in tasks]``, computed by joblib workers, in task order.

    ``tasks``: tuples of positional arguments (bind shared keyword arguments with
    :func:`functools.partial`). ``n_jobs``: loky workers (``1`` runs in this process,
    ``-1`` one per core); ignored by Dask, whose cluster decides. ``backend``: ``"loky"``
    or ``"dask"``; default ``"dask"`` when ``scheduler`` or ``$INFEROPT_DASK_SCHEDULER``
    holds a scheduler address, else ``"loky"``. ``progress``: a bar counting finished tasks
    (a string labels it), shown in this process whatever the backend.
    """
    from joblib import Parallel, delayed, parallel_config

    check_callable("fn", fn)
    # each loky worker is a Python process with numpy loaded (~50 MiB): more than memory holds is refused
    n_jobs = check_size("n_jobs", n_jobs, low=-1, item_bytes=WORKER_BYTES, item="worker process")
    if n_jobs == 0:
        raise ValueError("n_jobs must be a positive number of workers or -1 (one per core); got 0")
    if not isinstance(progress, bool | str):
        raise TypeError(f"progress must be a bool or a label (str); got {type(progress).__name__}")
    tasks = [tuple(task) for task in tasks]
    fn = partial(_on_one_thread, fn)
    backend, scheduler = resolve_backend(backend, scheduler)
    if backend == "loky":
        results = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator")(delayed(fn)(*task) for task in tasks)
        return _collect(results, len(tasks), progress)
    from distributed import Client, default_client

    if not scheduler:
        try:
            default_client()
        except ValueError:
            raise ValueError(
                f"backend='dask' needs a scheduler address (scheduler= or ${DASK_SCHEDULER_ENV}) "
                "or a distributed.Client made in this process"
            ) from None
    import cloudpickle  # a dependency of distributed

    blobs = (cloudpickle.dumps((fn, task), protocol=4) for task in tasks)
    with Client(scheduler) if scheduler else nullcontext(), parallel_config(backend="dask"):
        results = Parallel(n_jobs=-1, return_as="generator")(delayed(_run_in_band)(blob) for blob in blobs)
        return [pickle.loads(r) for r in _collect(results, len(tasks), progress)]


def _run_in_band(blob: bytes) -> bytes:
    """``fn(*task)`` from ``blob`` (``(fn, task)`` pickled with protocol 4), its result pickled the same
    way: protocol 4 keeps every array's data inside the bytes, so unpickling copies it into a fresh,
    aligned buffer, wherever Dask placed the bytes (protocol 5's out-of-band buffers are used as
    they arrive, and may be misaligned)."""
    import cloudpickle

    fn, task = pickle.loads(blob)
    return cloudpickle.dumps(fn(*task), protocol=4)


def _on_one_thread(fn, *args):
    """``fn(*args)`` with one BLAS thread and its :class:`~inferopt.LongCallWarning` silenced (module docstring)."""
    with one_thread(), warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=LongCallWarning)
        return fn(*args)


def _call(fn):
    return fn()


def run_calls(calls: dict, *, n_jobs: int = 1, backend: str | None = None, scheduler: str | None = None,
              progress: bool | str = False) -> dict:
    """``{key: fn() for key, fn in calls.items()}`` through :func:`run_tasks`: independent runs
    named by their keys (e.g. ``(dataset, method)``), each a callable without arguments (a
    :func:`functools.partial` carrying its own seed)."""
    if not isinstance(calls, dict):
        raise TypeError(f"calls must be a dict of callables; got {type(calls).__name__}")
    for key, fn in calls.items():
        check_callable(f"calls[{key!r}]", fn)
    results = run_tasks(_call, [(fn,) for fn in calls.values()], n_jobs=n_jobs, backend=backend, scheduler=scheduler,
                        progress=progress)
    return dict(zip(calls, results))
