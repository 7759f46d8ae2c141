"""Execute one experiment notebook with papermill, its parameters from ``params.yaml``.

Parameters travel as a dict through papermill's Python API, so YAML booleans, lists
and strings keep their types (``papermill -p`` would turn ``false`` into a string).
The notebook executes into ``build/failed/<id>.ipynb`` and is moved to
``reports/notebooks/<id>.ipynb`` only when it succeeds. When it fails, it stays there
for inspection, ``build/failed/<id>.json`` records the error, and ``reports/index.html``
is refreshed to mark the experiment as failed (DVC has already deleted its previous
outputs, so the old run must not keep showing). After a successful run the compact,
git-tracked scorecard ``reports/scorecard/<id>.json`` is written for ``dvc metrics``.

The parameters are checked before the kernel starts (the whole files,
:func:`.params_check.check_params_files`, then the stage's own, :func:`check_stage_parameters`): a bad
key or value stops the stage with one line naming it, not a papermill traceback. A value that passes
and still fails in the notebook ends the same way: :func:`failure_line` names the stage, the cell,
the error and the parameters the failing line reads (issue 47).

The notebook's own output (prints, text progress bars) streams to this terminal while it
runs: the kernel's ``tqdm.auto`` is the text bar, which updates one line in place, and the
executed notebook keeps only each bar's final state (streams coalesced). The kernel's own
start-up warnings are off (``log_level`` ERROR: the unencrypted local TCP socket it warns
about is how every local Jupyter kernel talks), and the claims table a notebook prints last
reaches the terminal as wrapped blocks, one per claim (:class:`ReadableClaims`), instead of
DataFrame rows of several hundred characters.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import textwrap
import time
from pathlib import Path

import papermill

from ..experiment.blas import use_neutral_environment
from ..experiment.claims import VERDICTS, claims_text
from ..experiment.parameters import check_parameters
from .._paths import repo_root
from .._config import check_experiments, experiment_parameters, experiments
from .layout import CLAIMS_HEADER, claims_again, failure_marker, table_row
from .params_check import check_params_files
from .report import refresh_index
from .scorecard import write_scorecard

KERNEL = "python3"
#: run at kernel start: ``tqdm.auto`` (the library's and notebooks' bars) writes text to stderr,
#: which reaches the terminal, instead of a widget, which does not
TEXT_PROGRESS = "import tqdm.auto, tqdm.std; tqdm.auto.tqdm, tqdm.auto.trange = tqdm.std.tqdm, tqdm.std.trange"
#: one BLAS thread per kernel (and per worker, which inherits it) unless set otherwise: the
#: library times on CPU seconds (:mod:`inferopt._clock`), which equal unloaded wall seconds
#: only for one thread; parallelism comes from the trial workers (``n_jobs``)
ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
#: the kernel's start-up: the text bars, and its own log at ERROR (no "running over TCP without
#: encryption" warning on every run: the kernel listens on localhost, as every local kernel does)
KERNEL_ARGUMENTS = [f"--IPKernelApp.exec_lines={TEXT_PROGRESS}", "--IPKernelApp.log_level=ERROR"]
#: parameters the runner itself sets, not the experiment's section
RUNNER_PARAMETERS = ("output_dir",)
#: parameters every stage passes whether or not a notebook reads them (the global seed)
ALWAYS_PASSED = ("output_dir", "seed")


def declares_progress(notebook: Path) -> bool:
    """Does ``notebook``'s parameters cell declare ``progress`` (its bars' switch), whether or not
    ``params.yaml`` sets it?"""
    return "progress" in papermill.inspect_notebook(str(notebook))


def check_stage_parameters(experiment_id: str, params: dict, notebook: Path) -> None:
    """Check ``params`` before any kernel starts: every key must be a parameter of ``notebook``'s
    parameters cell, and every value allowed by the experiment's spec
    (:func:`~inferopt.experiment.parameters.check_parameters`). Raises ``ValueError`` with one
    line naming the key (``D1.n_samples``)."""
    declared = papermill.inspect_notebook(str(notebook))
    unknown = [k for k in params if k not in declared and k not in ALWAYS_PASSED]
    if unknown:
        raise ValueError(f"parameter {experiment_id}.{unknown[0]} is not a parameter of {notebook.name} "
                         f"(its parameters cell declares: {', '.join(declared)})")
    try:
        check_parameters(experiment_id, {k: v for k, v in params.items() if k not in RUNNER_PARAMETERS})
    except (ValueError, TypeError) as exc:
        raise ValueError(f"parameter {experiment_id}.{str(exc).removeprefix('parameter ')}") from None


class ReadableClaims:
    """The notebook's stdout on its way to the terminal, with the claims table that
    ``Experiment.finish`` prints (a DataFrame, one row of several hundred characters per claim)
    replaced by :func:`~inferopt.experiment.claims.claims_text` of the claims just written to
    ``metrics``, wrapped to the terminal's width, once: a copy printed again (the rows a notebook
    prints for nbval, less its timing claims) becomes one line (:func:`.layout.claims_again`).
    Everything else passes through unchanged."""

    def __init__(self, stream, metrics: Path):
        self.stream, self.metrics = stream, metrics
        self.ids: list[str] = []        # every claim's id, once the table has been shown
        self.rows: list[str] | None = None   # the rows of the table being printed (None: not in one)
        self.again = False              # that table is a copy, to be announced by one line
        self.announced = False

    def write(self, text: str) -> int:
        out = []
        for line in text.splitlines(keepends=True):
            if self.rows is None and CLAIMS_HEADER.match(line) and self.metrics.exists():
                self.rows, self.again, self.announced = [], bool(self.ids), False
                if not self.again:
                    claims = json.loads(self.metrics.read_text()).get("claims", [])
                    self.ids = [c["id"] for c in claims]
                    out.append(wrapped_claims(claims))
            elif self.rows is not None and table_row(line, self.ids):  # shown above as blocks
                self.rows += [line.split(maxsplit=1)[0]] if line.split(maxsplit=1)[0] in self.ids else []
            else:
                out += self._copy_note(end=True) + [line]
        out += self._copy_note(end=False)  # a table arrives whole in one message of the kernel
        self.stream.write("".join(out))
        return len(text)

    def _copy_note(self, *, end: bool) -> list[str]:
        """The line for a copy of the table (once, when its rows are known); ``end``: the table ended."""
        note = ([claims_again(self.rows, self.ids)] if self.again and self.rows and not self.announced else [])
        self.announced = self.announced or bool(note)
        if end:
            self.rows, self.again, self.announced = None, False, False
        return note

    def flush(self):
        self.stream.flush()

    def __getattr__(self, name):
        return getattr(self.stream, name)


def wrapped_claims(claims: list[dict], width: int | None = None) -> str:
    """:func:`~inferopt.experiment.claims.claims_text` with every line wrapped to ``width``
    (default: the terminal's, at most 110), continuation lines indented."""
    width = width or min(shutil.get_terminal_size((100, 20)).columns, 110)
    lines = []
    for line in claims_text(claims).splitlines():
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        lines += textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [""]
    return "\n".join(lines) + "\n"


def run_experiment(
    experiment_id: str,
    *,
    output_dir: str = "reports",
    progress: bool = True,
    scale: str | None = None,
    overrides: dict | None = None,
    source: Path | None = None,
) -> Path:
    """Run ``experiment_id``'s stripped notebook; return the executed notebook's path.

    ``output_dir``: the output root (``reports``; the paper scale uses ``reports/paper``).
    ``progress``: stream the notebook's output to this process's stdout / stderr, and turn
    on the notebook's ``progress`` parameter (its bars) if its parameters cell declares one.
    ``scale``: ``"default"`` or ``"paper"`` (default: ``params.yaml``'s ``scale``);
    ``overrides``: parameters set over the section's (e.g. ``n_jobs``);
    ``source``: the stripped notebook (default ``build/stripped/<id>.ipynb``, DVC's strip stage).
    """
    root = repo_root()
    check_experiments([experiment_id], experiments())
    for name, value in ONE_THREAD.items():
        os.environ.setdefault(name, value)
    use_neutral_environment()   # the kernel computes the same bits on any x86-64 processor with AVX2 (experiment.blas)
    source = source or root / "build" / "stripped" / f"{experiment_id}.ipynb"
    if not source.exists():
        raise FileNotFoundError(f"{source} is missing: run the strip stage first (dvc repro strip@{experiment_id})")
    check_params_files(root, scale=scale, sources={experiment_id: source})
    params = experiment_parameters(experiment_id, root, scale=scale)
    if progress and declares_progress(source):  # a notebook's progress bars follow the runner's terminal
        params["progress"] = True
    params.update(overrides or {})
    params["output_dir"] = str(output_dir)
    out_dir = root / output_dir
    (out_dir / "notebooks").mkdir(parents=True, exist_ok=True)
    for kind in ("figures", "results"):  # declared DVC outputs: they exist even if a notebook writes none
        (out_dir / kind / experiment_id).mkdir(parents=True, exist_ok=True)
    target = out_dir / "notebooks" / f"{experiment_id}.ipynb"
    marker = failure_marker(root, experiment_id, output_dir)
    partial = marker.with_suffix(".ipynb")
    partial.parent.mkdir(parents=True, exist_ok=True)
    marker.unlink(missing_ok=True)
    metrics = out_dir / "metrics" / f"{experiment_id}.json"
    try:
        check_stage_parameters(experiment_id, params, source)
        streams = {"stdout_file": ReadableClaims(sys.stdout, metrics), "stderr_file": sys.stderr} if progress else {}
        papermill.execute_notebook(
            str(source), str(partial), parameters=params, kernel_name=KERNEL, cwd=str(root), progress_bar=False,
            extra_arguments=KERNEL_ARGUMENTS, coalesce_streams=True, **streams,
        )
        data = check_metrics(metrics, experiment_id)
    except Exception as exc:
        record_failure(root, experiment_id, exc, output_dir)
        if isinstance(exc, papermill.PapermillExecutionError):
            raise StageFailed(failure_line(experiment_id, exc, params, output_dir)) from exc
        raise
    os.replace(partial, target)
    write_scorecard(data, out_dir / "scorecard" / f"{experiment_id}.json")
    return target


class StageFailed(RuntimeError):
    """A stage's notebook failed; the message is one line (:func:`failure_line`)."""


#: ANSI colour codes of IPython's tracebacks (papermill keeps them)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def failure_line(experiment_id: str, exc: BaseException, params: dict | None = None,
                 output_dir: str | Path = "reports") -> str:
    """One line for a stage whose notebook failed (a papermill ``PapermillExecutionError``): the
    stage, the cell, the error's last line and, when the failing line of the notebook reads
    parameters of the stage, their names and values (``A4.claim_k_min = 1``), then where the
    executed notebook is kept. Any other exception: the stage and the error."""
    ename, evalue = getattr(exc, "ename", type(exc).__name__), getattr(exc, "evalue", str(exc))
    error = (str(evalue).strip().splitlines() or [""])[-1]
    if not hasattr(exc, "traceback"):
        return f"stage {experiment_id} failed: {ename}: {error}"
    lines = [_ANSI.sub("", line) for frame in exc.traceback for line in str(frame).splitlines()]
    # the notebook's own frame: IPython marks the failing line of a cell with an arrow
    cell_lines = []
    in_cell = False
    for line in lines:
        if line.lstrip().startswith("Cell In["):
            in_cell = True
            continue
        if in_cell and line.lstrip().startswith("---->"):
            cell_lines.append(line.split("---->", 1)[1])
            in_cell = False
    read = [k for k in (params or {}) if k != "output_dir" and any(
        re.search(rf"(?<![\w.]){re.escape(k)}(?!\w)", text) for text in cell_lines[:1])]
    shown_read = ", ".join(f"{experiment_id}.{k} = {params[k]!r}" for k in read)
    reads = f"; its failing line reads {shown_read}" if read else ""
    cell = getattr(exc, "exec_count", None)
    where = failure_marker(repo_root(), experiment_id, output_dir).with_suffix(".ipynb")
    shown = where.relative_to(repo_root()) if where.is_relative_to(repo_root()) else where
    return (f"stage {experiment_id} failed in its notebook{f' (cell {cell})' if cell is not None else ''}: "
            f"{ename}: {error}{reads}; the executed notebook is {shown}")


def record_failure(root: Path, experiment_id: str, exc: BaseException, output_dir: str | Path = "reports") -> Path:
    """Write the failure marker and refresh the index so the failed experiment is marked, not
    shown with the previous run's numbers."""
    error = str(exc).strip().splitlines()
    message = f"{type(exc).__name__}: {error[-1] if error else ''}"
    marker = failure_marker(root, experiment_id, output_dir)
    marker.write_text(json.dumps({
        "experiment": experiment_id,
        "error": message.replace(str(root) + os.sep, ""),
        "notebook": marker.with_suffix(".ipynb").relative_to(root).as_posix(),
        "time": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }, indent=2) + "\n")
    try:
        refresh_index(output_dir, failed=experiment_id)
    except Exception as refresh_error:  # the run's own error matters more; say why the index is stale
        print(f"warning: could not mark {experiment_id} as failed in the index: {refresh_error}")
    return marker


def check_metrics(path: Path, experiment_id: str) -> dict:
    """Validate an experiment's metrics JSON against the project's contract."""
    if not path.exists():
        raise FileNotFoundError(f"experiment {experiment_id} wrote no metrics file {path}")
    data = json.loads(path.read_text())
    for key in ("experiment", "title", "params", "metrics", "claims"):
        if key not in data:
            raise ValueError(f"{path}: missing key {key!r}")
    if not data["claims"]:
        raise ValueError(f"{path}: experiment {experiment_id} recorded no claims")
    for claim in data["claims"]:
        missing = {"id", "target", "text", "verdict", "measured"} - set(claim)
        if missing:
            raise ValueError(f"{path}: claim {claim.get('id')} lacks {sorted(missing)}")
        if claim["verdict"] not in VERDICTS:
            raise ValueError(f"{path}: claim {claim['id']} has verdict {claim['verdict']!r}, not one of {VERDICTS}")
    return data
