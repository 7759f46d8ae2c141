"""The papers' scale, one experiment (or all) at a time, into ``reports/paper/``.

    python -m inferopt.pipeline paper A3            # = make paper ID=A3
    python -m inferopt.pipeline paper --dry-run     # the plan only, every experiment
    python -m inferopt.pipeline paper A4 --workers 2

Each experiment runs with its ``params.yaml`` section overlaid by ``params_paper.yaml``'s
(as ``scale: paper`` does), through the pipeline's runner (:func:`.run.run_experiment`),
into the output root ``reports/paper/``: the default scale's ``reports/`` is never touched
and ``dvc repro`` never touches this one. Notebooks with an ``n_jobs`` parameter get
``--workers``; with ``$INFEROPT_DASK_SCHEDULER`` set, their trials go to that Dask cluster
(:mod:`inferopt.experiment.parallel`).

Before starting, a plan: per experiment its estimated wall time on this machine and its
workers. The estimate is the last paper run's ``run.wall_seconds`` when there is one
(``measured``), else the last default-scale run's duration times the largest ratio between
a paper and a default size parameter (``~default x F``, rough), else ``unknown``; for a
notebook with ``n_jobs``, scaled by the workers that run had over the workers planned (each
counted up to this machine's cores: the trials divide, nothing else does). After each run,
``reports/paper/metrics/<id>.json`` records under ``run``: wall seconds, workers, backend,
commit (and whether the work tree was dirty), date and the machine's cores, and a small copy of
each figure goes to ``reports/paper/figures-small/<id>/`` (committed, :mod:`.small_figures`), so
that the front page and the review page show it on a fresh clone. The front page
shows it after ``make reports`` (``make paper`` runs it; the command prints that it is needed).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

import nbformat

from .._validation import check_int
from ..experiment.parallel import describe_backend
from .._paths import repo_root
from .._config import check_experiments, experiment_parameters, experiments
from .git import git
from .layout import PAPER_DIR
from .metrics_file import read_metrics
from .params_check import check_params_files
from .run import run_experiment
from .small_figures import keep_small_figures
from .strip import strip_notebook

#: the parameter a notebook reads its worker count from
WORKERS_PARAMETER = "n_jobs"


def size_ratio(default: dict, paper: dict) -> tuple[float, str | None]:
    """The largest ``paper / default`` ratio over the numeric parameters (a list counts by its
    length) that the paper scale changes, and that parameter's name; ``(1.0, None)`` if none grows."""
    best, name = 1.0, None
    for key, value in paper.items():
        old = default.get(key)
        if isinstance(value, list) and isinstance(old, list) and old:
            value, old = len(value), len(old)
        if isinstance(value, bool) or isinstance(old, bool):
            continue
        if isinstance(value, int | float) and isinstance(old, int | float) and old > 0 and value / old > best:
            best, name = value / old, key
    return best, name


def default_duration(root: Path, experiment_id: str) -> float | None:
    """Seconds the last default-scale run of ``experiment_id`` took (papermill's record in
    ``reports/notebooks/<id>.ipynb``), or None."""
    notebook = root / "reports" / "notebooks" / f"{experiment_id}.ipynb"
    if not notebook.exists():
        return None
    duration = nbformat.read(notebook, as_version=4).metadata.get("papermill", {}).get("duration")
    return float(duration) if duration is not None else None


def effective_workers(workers: int, cores: int | None = None) -> int:
    """The workers that divide a trial-bound run: ``workers``, at most this machine's cores."""
    return max(1, min(int(workers), cores or os.cpu_count() or 1))


def estimate(root: Path, experiment_id: str, output_dir: Path, workers: int | None = None) -> tuple[float | None, str]:
    """``(seconds or None, how it was obtained)`` for one paper-scale run of ``experiment_id``
    with ``workers`` (None: as the run it is estimated from, unadjusted)."""
    parallel = workers is not None and WORKERS_PARAMETER in experiment_parameters(experiment_id, root, scale="paper")
    metrics = output_dir / "metrics" / f"{experiment_id}.json"
    if metrics.exists():
        run = read_metrics(metrics).get("run") or {}
        if "wall_seconds" in run:
            seconds, how = float(run["wall_seconds"]), f"measured ({run.get('date', '?')}, {run.get('workers', '?')} workers)"
            return _per_workers(seconds, how, run.get("workers") if parallel else None, workers)
    seconds = default_duration(root, experiment_id)
    if seconds is None:
        return None, "unknown (no paper run, no default-scale run)"
    factor, key = size_ratio(
        experiment_parameters(experiment_id, root, scale="default"), experiment_parameters(experiment_id, root, scale="paper")
    )
    reason = f"paper/default {key}" if key else "no size parameter grows"
    ran = experiment_parameters(experiment_id, root, scale="default").get(WORKERS_PARAMETER) if parallel else None
    return _per_workers(seconds * factor, f"~default run {seconds:.0f} s x {factor:.3g} ({reason}; rough)", ran, workers)


def _per_workers(seconds: float, how: str, ran: int | None, workers: int | None) -> tuple[float, str]:
    """``seconds`` of a run with ``ran`` workers, rescaled to ``workers`` (unchanged when either is unknown)."""
    if not isinstance(ran, int) or workers is None or effective_workers(ran) == effective_workers(workers):
        return seconds, how
    return seconds * effective_workers(ran) / effective_workers(workers), f"{how} x {effective_workers(ran)}/{effective_workers(workers)} workers"


def workers_for(experiment_id: str, root: Path, workers: int) -> int:
    """The workers ``experiment_id`` will use: ``workers`` if its notebook has ``n_jobs``, else 1."""
    return workers if WORKERS_PARAMETER in experiment_parameters(experiment_id, root, scale="paper") else 1


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "unknown"
    minutes, sec = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{sec:02d}s" if minutes else f"{sec}s"


def plan(ids, workers: int, root: Path | None = None, output_dir: Path | None = None) -> str:
    """The plan printed before a paper-scale run: one line per experiment and a total."""
    root = root or repo_root()
    output_dir = output_dir or root / PAPER_DIR
    backend = describe_backend()
    where = f"dask at {backend['scheduler']}" if backend["backend"] == "dask" else "loky on this machine"
    lines = [f"paper scale -> {_rel(output_dir, root)}/   ({os.cpu_count()} cores; trials on {where})"]
    total, unknown = 0.0, 0
    for exp_id in ids:
        seconds, how = estimate(root, exp_id, output_dir, workers_for(exp_id, root, workers))
        total += seconds or 0.0
        unknown += seconds is None
        lines.append(f"  {exp_id:<4} {_duration(seconds):>8}  workers {workers_for(exp_id, root, workers)}  {how}")
    lines.append(f"  total {_duration(total)}" + (f" + {unknown} unknown" if unknown else ""))
    return "\n".join(lines)


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def git_state(root: Path, output_dir: Path) -> tuple[str | None, bool | None]:
    """``(HEAD's commit, whether tracked files other than ``output_dir``'s differ from it)``
    (the paper runs' own committed metrics do not make the tree dirty); ``(None, None)`` outside git."""
    exclude = [f":(exclude){_rel(output_dir, root)}"] if output_dir.is_relative_to(root) else []
    commit = git(root, "rev-parse", "HEAD")
    status = git(root, "status", "--porcelain", "--untracked-files=no", "--", ".", *exclude)
    if commit is None or status is None:
        return None, None
    return commit.strip(), bool(status.strip())


def record_run(metrics: Path, *, wall_seconds: float, workers: int, start_state: tuple) -> dict:
    """Add how the run went under ``run`` of the metrics JSON ``metrics``; return that record.
    ``start_state``: :func:`git_state` when the run started."""
    commit, dirty = start_state
    backend = describe_backend()
    run = {
        "wall_seconds": round(wall_seconds, 1),
        "workers": workers,
        "backend": backend["backend"],
        **({"scheduler": backend["scheduler"]} if backend["scheduler"] else {}),
        "commit": commit,
        "dirty": dirty,
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform()},
    }
    data = read_metrics(metrics)
    run = (data.get("run") or {}) | run   # after what the notebook recorded (its BLAS)
    data["run"] = run
    metrics.write_text(json.dumps(data, indent=2) + "\n")
    return run


def run_paper(
    ids=None, *, workers: int | None = None, dry_run: bool = False, output_dir: str | Path = PAPER_DIR,
    overrides: dict | None = None, progress: bool = True,
) -> list[dict]:
    """Print the plan, then run each experiment of ``ids`` (default: all) at the paper scale
    into ``output_dir``; return the ``run`` records (none when ``dry_run``).

    ``workers``: ``n_jobs`` of the notebooks that have it (default: this machine's cores).
    ``overrides``: parameters set over every experiment's (tests run tiny ones this way).
    """
    root = repo_root()
    registry = experiments()
    ids = check_experiments(ids or registry, registry)
    workers = check_int("workers", (os.cpu_count() or 1) if workers is None else workers, low=1)
    check_params_files(root, scale="paper", ids=ids)      # every experiment's parameters before the first kernel
    out = Path(output_dir) if Path(output_dir).is_absolute() else root / output_dir
    print(plan(ids, workers, root, out), flush=True)
    records = []
    for exp_id in [] if dry_run else ids:
        n = workers_for(exp_id, root, workers)
        source = root / "build" / "paper" / "stripped" / f"{exp_id}.ipynb"
        strip_notebook(root / "notebooks" / f"{registry[exp_id]['notebook']}.ipynb", source)
        extra = {WORKERS_PARAMETER: n} if WORKERS_PARAMETER in experiment_parameters(exp_id, root, scale="paper") else {}
        print(f"--- {exp_id} (paper scale, {n} workers) ---", file=sys.stderr, flush=True)
        start_state, start = git_state(root, out), time.perf_counter()
        run_experiment(
            exp_id, output_dir=_rel(out, root), progress=progress, scale="paper",
            overrides={**extra, **(overrides or {})}, source=source,
        )
        metrics = out / "metrics" / f"{exp_id}.json"
        run = record_run(metrics, wall_seconds=time.perf_counter() - start, workers=n, start_state=start_state)
        keep_small_figures(out, exp_id, read_metrics(metrics).get("figures") or [])
        print(f"--- {exp_id} done in {_duration(run['wall_seconds'])} ---", file=sys.stderr, flush=True)
        records.append(run)
    if records:
        print(f"{_rel(out / 'metrics', root)}/ updated; the front page (reports/index.html) shows it after "
              "`make reports` (make paper runs it)", file=sys.stderr, flush=True)
    return records
