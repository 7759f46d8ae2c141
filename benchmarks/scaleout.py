"""Scale-out of a trial-bound stage (not a test): one fixed set of independent tasks on 1 and 2
loky workers and on a Dask cluster started by its command line, wall seconds, speed-up against
1 worker, and whether every backend returns the same numbers.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/scaleout.py [n_replicates] [n_iter]

The tasks are C2's (replicate, step rule) runs (:func:`inferopt.experiment.boosting.compare_methods`)
at the paper's construction (params_paper.yaml: the authors' greedy step, 1000 Adam steps) with
``n_replicates`` replicates (default 4: 20 tasks) of ``n_iter`` iterations (default 5). The Dask
cluster is started here as a user would start one (``dask scheduler``; ``dask worker <address>
--nworkers 2 --nthreads 1``) and reached through ``$INFEROPT_DASK_SCHEDULER``, the variable every
stage reads. A stage's wall time on ``W`` workers is about ``ceil(tasks / W)`` task times when its
tasks take alike; the last column of the README's table gives each paper-scale stage's task count.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from boosting import paper_settings
from inferopt.datasets.classification import logistic_data
from inferopt.experiment.boosting import compare_methods
from inferopt.experiment.parallel import DASK_SCHEDULER_ENV

ROOT = Path(__file__).resolve().parents[1]


def run(data, n_replicates: int, n_iter: int, n_jobs: int) -> tuple[float, pd.DataFrame]:
    t0 = time.perf_counter()
    rec = compare_methods(data, max_iter=n_iter, n_replicates=n_replicates, rng=np.random.default_rng(0), n_jobs=n_jobs,
                          **paper_settings("C2")[1])
    return time.perf_counter() - t0, rec


def start_dask(n_workers: int = 2) -> tuple[str, list]:
    """``dask scheduler`` and ``dask worker --nworkers n --nthreads 1``: ``(address, processes)``."""
    bin_dir = Path(sys.executable).parent
    log = open(ROOT / "build" / "dask_scheduler.log", "w")
    sched = subprocess.Popen([str(bin_dir / "dask"), "scheduler", "--port", "8786", "--dashboard-address", ":0"],
                             stdout=log, stderr=subprocess.STDOUT)
    address = "tcp://127.0.0.1:8786"
    time.sleep(4)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    worker = subprocess.Popen([str(bin_dir / "dask"), "worker", address, "--nworkers", str(n_workers), "--nthreads", "1",
                               "--no-dashboard"], stdout=log, stderr=subprocess.STDOUT, env=env)
    time.sleep(8)
    return address, [worker, sched]


def main(n_replicates: int = 4, n_iter: int = 5) -> None:
    (ROOT / "build").mkdir(exist_ok=True)
    data = logistic_data("chemreact100", test_fraction=0.25, rng=np.random.default_rng(0), intercept=False)
    n_tasks = n_replicates * 5
    print(f"C2 tasks: {n_replicates} replicates x 5 step rules = {n_tasks} runs of {n_iter} iterations; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    rows, reference = [], None
    for label, n_jobs in (("loky, 1 worker", 1), ("loky, 2 workers", 2)):
        wall, rec = run(data, n_replicates, n_iter, n_jobs)
        reference = rec if reference is None else reference
        rows.append((label, wall, rec))
    address, procs = start_dask()
    try:
        os.environ[DASK_SCHEDULER_ENV] = address
        wall, rec = run(data, n_replicates, n_iter, 1)
        rows.append(("Dask, 1 machine: 2 worker processes x 1 thread", wall, rec))
    finally:
        os.environ.pop(DASK_SCHEDULER_ENV, None)
        for p in procs:
            p.terminate()
            p.wait(timeout=30)
    base = rows[0][1]
    print(f"\n| backend | wall [s] | speed-up vs 1 worker | same numbers as 1 worker |\n|---|---|---|---|")
    for label, wall, rec in rows:
        same = all(np.array_equal(rec[c].to_numpy(), reference[c].to_numpy(), equal_nan=True)
                   for c in ("elbo", "gamma", "n_components", "train_ll", "test_auroc", "elbo_eval"))
        print(f"| {label} | {wall:.1f} | {base / wall:.2f}x | {'yes' if same else 'NO'} |")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
