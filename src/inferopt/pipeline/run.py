"""Execute one experiment notebook with papermill, its parameters from ``params.yaml``.

Parameters travel as a dict through papermill's Python API, so YAML booleans, lists
and strings keep their types (``papermill -p`` would turn ``false`` into a string).
The executed notebook is written next to a temporary name and moved into place only
when it succeeds; on failure it is kept as ``<id>.failed.ipynb`` for inspection.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import papermill

from ..experiment.claims import VERDICTS
from ..experiment.paths import repo_root
from .config import experiment_parameters, experiments

KERNEL = "python3"


def run_experiment(experiment_id: str, *, output_dir: str = "reports", progress: bool = True) -> Path:
    """Run ``experiment_id``'s stripped notebook; return the executed notebook's path."""
    root = repo_root()
    registry = experiments()
    if experiment_id not in registry:
        raise ValueError(f"unknown experiment {experiment_id!r}; params.yaml lists {list(registry)}")
    source = root / "build" / "stripped" / f"{experiment_id}.ipynb"
    if not source.exists():
        raise FileNotFoundError(f"{source} is missing: run the strip stage first (dvc repro strip@{experiment_id})")
    params = experiment_parameters(experiment_id, root)
    params["output_dir"] = output_dir
    out_dir = root / output_dir
    (out_dir / "notebooks").mkdir(parents=True, exist_ok=True)
    for kind in ("figures", "results"):  # declared DVC outputs: they exist even if a notebook writes none
        (out_dir / kind / experiment_id).mkdir(parents=True, exist_ok=True)
    target = out_dir / "notebooks" / f"{experiment_id}.ipynb"
    partial = target.with_name(f"{experiment_id}.failed.ipynb")
    papermill.execute_notebook(
        str(source), str(partial), parameters=params, kernel_name=KERNEL, cwd=str(root), progress_bar=progress
    )
    os.replace(partial, target)
    check_metrics(out_dir / "metrics" / f"{experiment_id}.json", experiment_id)
    return target


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
