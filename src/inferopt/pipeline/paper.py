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
counted up to this machine's cores: the trials divide, nothing else does).

Some experiments read another's result tables (C4 reads C2's ``results/C2/records.csv`` and more, A7 and A8 read
A4's and A5's ``trials.csv`` and ``arms.csv``): :func:`schedule` runs the other first, at the paper scale, when its
tables under ``reports/paper/results/`` are missing or older than its recorded run, and the plan says so with its
time (:func:`schedule` says why it runs rather than refuses). Before each run, the experiment's tables of an earlier
run are removed (as DVC removes a stage's outputs), so that none the run no longer writes passes for its own. After each run,
``reports/paper/metrics/<id>.json`` records under ``run``: wall seconds, workers, backend,
commit (and whether the work tree was dirty), date and the machine's cores, and a small copy of
each figure goes to ``reports/paper/figures-small/<id>/`` (committed, :mod:`.small_figures`), so
that the front page and the review page show it on a fresh clone. The front page
shows it after ``make reports`` (``make paper`` runs it; the command prints that it is needed).
"""

from __future__ import annotations

import calendar
import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path

import nbformat

from .._validation import check_int
from ..experiment.parallel import describe_backend
from .._paths import repo_root
from .._config import check_experiments, experiment_parameters, experiments, load_yaml
from .git import git
from .layout import PAPER_DIR
from .metrics_file import read_metrics
from .params_check import check_params_files
from .run import run_experiment
from .small_figures import keep_small_figures
from .strip import strip_notebook

#: the parameter a notebook reads its worker count from
WORKERS_PARAMETER = "n_jobs"
#: where a stage of ``dvc.yaml`` finds another experiment's result tables (the default scale's output root and its
#: ``results/`` folder): :mod:`.dvcgen` declares there every table a notebook reads with ``load_results``
RESULTS_DEPENDENCY = ("reports", "results")
#: how ``run.date`` of a metrics JSON is written (:func:`record_run`): UTC
DATE_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


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


def result_inputs(root: Path) -> dict[str, dict[str, list[Path]]]:
    """``{experiment: {other experiment: [its result tables read, relative to an output root]}}``, from the one place
    they are declared: the ``reports/results/<other>[/<table>]`` dependencies of the experiment stages of
    ``root``'s ``dvc.yaml`` (``C4: {C2: [results/C2]}``); an experiment that reads none is absent."""
    stages = load_yaml(root / "dvc.yaml").get("stages") or {}
    inputs: dict[str, dict[str, list[Path]]] = {}
    for exp_id, stage in stages.items():
        for dep in (stage or {}).get("deps") or []:
            parts = Path(dep).parts
            if parts[:2] == RESULTS_DEPENDENCY and len(parts) > 2 and parts[2] != exp_id:
                inputs.setdefault(exp_id, {}).setdefault(parts[2], []).append(Path(*parts[1:]))
    return inputs


def recorded_run(output_dir: Path, exp_id: str) -> dict:
    """The ``run`` record of ``exp_id``'s metrics under ``output_dir`` (empty: no metrics, or no run recorded)."""
    metrics = output_dir / "metrics" / f"{exp_id}.json"
    return (read_metrics(metrics).get("run") or {}) if metrics.exists() else {}


def run_start(run: dict) -> float | None:
    """When the ``run`` record (:func:`record_run`) began, in seconds since the epoch: its ``date``, written at its
    end, less its ``wall_seconds``; None when it has not both."""
    if "date" not in run or "wall_seconds" not in run:
        return None
    return calendar.timegm(time.strptime(run["date"], DATE_FORMAT)) - float(run["wall_seconds"])


def unusable_input(root: Path, output_dir: Path, other: str, tables: list[Path]) -> str | None:
    """Why ``other``'s paper-scale result ``tables`` (files or folders under ``output_dir``) cannot be read by
    another experiment: one missing (a folder: holding no file), or one written before ``other``'s run recorded
    in its metrics began (an earlier run's, e.g. after a newer run's metrics came with git: the tables never are
    committed); None when every one is there and from that run (or no run of ``other`` is recorded to date them)."""
    files = []
    for table in tables:
        path = output_dir / table
        found = [f for f in sorted(path.rglob("*")) if f.is_file()] if path.is_dir() else [path] if path.is_file() else []
        if not found:
            return f"{_rel(path, root)} {'holds no table' if path.is_dir() else 'missing'}"
        files += found
    run = recorded_run(output_dir, other)
    start = run_start(run)
    older = [f for f in files if f.stat().st_mtime < start] if start is not None else []
    return f"{_rel(older[0], root)} is older than {other}'s paper run of {run['date']}" if older else None


def schedule(ids, root: Path, output_dir: Path) -> list[tuple[str, str | None]]:
    """The experiments a paper-scale run of ``ids`` runs, in order, each with why it was added (None: asked for).

    An experiment that reads another's result tables (:func:`result_inputs`) whose paper-scale copies are
    unusable (:func:`unusable_input`: missing, or older than that experiment's recorded run) gets that experiment
    run first, and the plan shows it, with its time and the reason, before anything starts. It runs rather than
    refuses, because that is what a researcher asking for C4 expects of the project's other commands (``make`` and
    ``dvc repro C4`` build what a target needs first) and because the tables are never committed: on every fresh
    clone a refusal would stop ``paper C4`` until its user typed the command the planner already knows, while a
    run of C4 without C2's tables can only fail. The cost is shown, not hidden: the plan line of the added run
    carries its estimate (C2: about 1 h 50 min on 2 workers), so ``--dry-run`` shows it and a user who did not
    want it stops there. Asked-for experiments keep their order, except that one another reads runs first.
    """
    asked, inputs = list(ids), result_inputs(root)
    order: list[str] = []
    why: dict[str, str] = {}

    def visit(exp_id: str) -> None:
        for other, tables in inputs.get(exp_id, {}).items():
            reason = None if other in asked else unusable_input(root, output_dir, other, tables)
            if other not in order and (other in asked or reason):
                if reason:
                    why[other] = f"needed by {exp_id}: {reason}"
                visit(other)
        if exp_id not in order:
            order.append(exp_id)

    for exp_id in asked:
        visit(exp_id)
    return [(exp_id, why.get(exp_id)) for exp_id in order]


def inputs_note(exp_id: str, steps: list[tuple[str, str | None]], root: Path, output_dir: Path) -> str:
    """What the plan line of ``exp_id`` says of the result tables it reads: ``reads C2 (runs above)`` for an
    experiment this run makes first, ``reads C2 (its run of <date>)`` for one whose paper-scale tables it reads."""
    planned = [s for s, _ in steps]
    notes = []
    for other in result_inputs(root).get(exp_id, {}):
        if other in planned:
            notes.append(f"{other} (runs above)")
        else:
            notes.append(f"{other} (its paper run of {recorded_run(output_dir, other).get('date', '?')})")
    return f"; reads {', '.join(notes)}" if notes else ""


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "unknown"
    minutes, sec = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{sec:02d}s" if minutes else f"{sec}s"


def plan(steps: list[tuple[str, str | None]], workers: int, root: Path | None = None, output_dir: Path | None = None) -> str:
    """The plan printed before a paper-scale run: one line per experiment of ``steps`` (:func:`schedule`), with
    why it runs when it was not asked for and the other experiments whose tables it reads, and a total."""
    root = root or repo_root()
    output_dir = output_dir or root / PAPER_DIR
    backend = describe_backend()
    where = f"dask at {backend['scheduler']}" if backend["backend"] == "dask" else "loky on this machine"
    lines = [f"paper scale -> {_rel(output_dir, root)}/   ({os.cpu_count()} cores; trials on {where})"]
    total, unknown = 0.0, 0
    for exp_id, why in steps:
        seconds, how = estimate(root, exp_id, output_dir, workers_for(exp_id, root, workers))
        total += seconds or 0.0
        unknown += seconds is None
        added = f"; added, {why}" if why else ""
        lines.append(f"  {exp_id:<4} {_duration(seconds):>8}  workers {workers_for(exp_id, root, workers)}  {how}"
                     f"{added}{inputs_note(exp_id, steps, root, output_dir)}")
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
        "date": time.strftime(DATE_FORMAT, time.gmtime()),
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
    into ``output_dir``, each preceded by those whose result tables it reads when theirs are missing or
    stale (:func:`schedule`); return the ``run`` records (none when ``dry_run``).

    ``workers``: ``n_jobs`` of the notebooks that have it (default: this machine's cores).
    ``overrides``: parameters set over every experiment's (tests run tiny ones this way).
    """
    root = repo_root()
    registry = experiments()
    ids = check_experiments(ids or registry, registry)
    workers = check_int("workers", (os.cpu_count() or 1) if workers is None else workers, low=1)
    out = Path(output_dir) if Path(output_dir).is_absolute() else root / output_dir
    steps = schedule(ids, root, out)
    check_params_files(root, scale="paper", ids=[s for s, _ in steps])   # every one's parameters before the first kernel
    print(plan(steps, workers, root, out), flush=True)
    records = []
    for exp_id, _ in [] if dry_run else steps:
        n = workers_for(exp_id, root, workers)
        source = root / "build" / "paper" / "stripped" / f"{exp_id}.ipynb"
        strip_notebook(root / "notebooks" / f"{registry[exp_id]['notebook']}.ipynb", source)
        extra = {WORKERS_PARAMETER: n} if WORKERS_PARAMETER in experiment_parameters(exp_id, root, scale="paper") else {}
        shutil.rmtree(out / "results" / exp_id, ignore_errors=True)   # no table of an earlier run passes for this one's
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
