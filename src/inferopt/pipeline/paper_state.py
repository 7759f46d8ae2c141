"""The paper-scale verdicts the front page shows beside the default scale's, and whether each
is still current.

``make paper`` commits ``reports/paper/metrics/<id>.json`` with the commit it ran under
(``run.commit``), whether the work tree was modified then (``run.dirty``) and the parameters
the notebook ran with (``params``). A paper-scale verdict is *stale* (:func:`stale_reasons`) when

- the run was made from a modified work tree (``run.dirty``): its code is not that of any commit;
- its parameters differ from ``params_paper.yaml`` overlaid on ``params.yaml`` as they are now;
- a file its experiment depends on differs between that commit and the work tree: the notebook's code
  (its code cells and which one takes the parameters; outputs, prose and test tags aside),
  a module of ``src/`` the experiment stage lists in ``dvc.yaml`` (the pipeline's own and the parameter
  checks aside: they never change a result), or
  the experiment's section of ``params.yaml`` or ``params_paper.yaml``

(``n_jobs`` and ``progress`` aside everywhere: they change how a run is spread or shown). A module changed
only by edits declared output-preserving in ``reports/paper/output_preserving.yaml`` (:data:`PRESERVING`:
the file's git blob before and after, why no finished run's result can move, and the test that shows it)
counts as unchanged: a fix where the old code raised, say, leaves every run that finished as it would be now.
Outside git, or when the commit is not in this clone, whether files changed is unknown (``None``).
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from ..experiment.claims import format_value, to_jsonable
from .._config import load_yaml, overlay
from .git import git
from .metrics_file import read_metrics
from .layout import PAPER_DIR

#: the parameter files whose section of an experiment decides its paper-scale results
PARAMETER_FILES = ("params.yaml", "params_paper.yaml")
#: the pipeline's runner and renderer: they run notebooks and draw pages, the results do not depend on them
RUNNER = "src/inferopt/pipeline/"
#: modules (a path, or a folder ending in ``/``) that refuse or pass parameters and never change one
#: (``check_parameters`` returns its input as given, ``tests/test_experiment_parameters.py``): a run that
#: passed them has the results it would have now
CHECKS = ("src/inferopt/experiment/parameters.py", "src/inferopt/experiment/specs/")
#: parameters that change how a run is spread or shown, not its results
NEUTRAL = ("n_jobs", "progress")
#: parameters the runner sets (where the outputs go), not the experiment
RUNNER_SET = ("output_dir",)
#: the value a parameter the run did not have yet stands for: an empty list or mapping (no extra
#: methods, no overrides) or a null (unset) is what every run without it did; anything else is a change
EMPTY = {list: [], dict: {}, type(None): None}
#: declared output-preserving edits of modules: a list of ``{path, before, after, why, test}`` (git blobs)
PRESERVING = PAPER_DIR / "output_preserving.yaml"
#: how many reasons a stale run's note names before "and N more" (:func:`short_reasons`)
SHOWN_REASONS = 3


def stage_sources(root: Path, experiment_id: str, notebook: str) -> list[str]:
    """The tracked files experiment ``experiment_id``'s results depend on: its notebook and the
    ``src/`` modules of its ``dvc.yaml`` stage, but the pipeline's (:data:`RUNNER`) and the parameter checks
    (:data:`CHECKS`)."""
    stages = yaml.safe_load((root / "dvc.yaml").read_text()).get("stages", {})
    deps = stages.get(experiment_id, {}).get("deps", [])
    return [f"notebooks/{notebook}.ipynb", *(d for d in deps if d.startswith("src/") and not d.startswith(RUNNER)
                                                    and not d.startswith(CHECKS))]


def _section(text: str | None, experiment_id: str) -> dict:
    section = (yaml.safe_load(text or "") or {}).get(experiment_id) or {}
    return {k: v for k, v in section.items() if k not in NEUTRAL} if isinstance(section, dict) else section


def _read(path: Path) -> str | None:
    return path.read_text() if path.exists() else None


def _code(notebook: str | None):
    """What of a notebook decides its results: its code cells' sources and which one takes the parameters
    (outputs, markdown and test tags such as ``NBVAL_CHECK_OUTPUT`` aside); None when unreadable."""
    try:
        cells = json.loads(notebook)["cells"]
    except (TypeError, ValueError, KeyError):
        return None
    return [("".join(c.get("source", "")), "parameters" in c.get("metadata", {}).get("tags", []))
            for c in cells if c.get("cell_type") == "code"]


def preserved(root: Path) -> dict[str, dict[str, int]]:
    """Per path, its git blobs grouped into classes of declared output-preserving edits (:data:`PRESERVING`):
    blob -> class number; two blobs of one class give the same results for every finished run."""
    entries = yaml.safe_load((root / PRESERVING).read_text()) if (root / PRESERVING).exists() else []
    if not isinstance(entries or [], list) or any(not isinstance(e, dict) or not {"path", "before", "after"} <= set(e)
                                                  for e in entries or []):
        raise ValueError(f"{PRESERVING} must be a list of entries with path, before and after (git blobs)")
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(key):
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key
    for e in entries or []:
        parent[find((e["path"], e["after"]))] = find((e["path"], e["before"]))
    classes: dict[str, dict[str, int]] = {}
    roots: dict[tuple[str, str], int] = {}
    for path, blob in list(parent):
        classes.setdefault(path, {})[blob] = roots.setdefault(find((path, blob)), len(roots))
    return classes


def _same_results(root: Path, commit: str, path: str, classes: dict[str, dict[str, int]]) -> bool:
    """Whether ``path`` at ``commit`` and in the work tree are one class of declared output-preserving edits."""
    blobs = classes.get(path)
    if not blobs:
        return False
    then, now = git(root, "rev-parse", f"{commit}:{path}"), git(root, "hash-object", path)
    return then is not None and now is not None and blobs.get(then.strip(), -1) == blobs.get(now.strip(), -2)


def changed_since(root: Path, commit: str, experiment_id: str, paths: list[str]) -> list[str] | None:
    """What differs between ``commit`` and the work tree for ``experiment_id``: the ``paths``
    changed, plus ``params.yaml`` / ``params_paper.yaml`` when the experiment's section changed
    (:data:`NEUTRAL` keys aside). None when git cannot tell (no repository, commit not here)."""
    out = git(root, "diff", "--name-only", commit, "--", *paths)
    if out is None:
        return None
    classes = preserved(root)
    changed = [line for line in out.splitlines() if line
               and not (line.endswith(".ipynb") and _code(git(root, "show", f"{commit}:{line}")) == _code(_read(root / line)))
               and not _same_results(root, commit, line, classes)]
    for name in PARAMETER_FILES:
        then = git(root, "show", f"{commit}:{name}")
        now = (root / name).read_text() if (root / name).exists() else None
        if _section(then, experiment_id) != _section(now, experiment_id):
            changed.append(name)
    return changed


def _shown(value) -> str:
    """A parameter's value as the stale note shows it: ``unset`` for a null, a boolean as the parameter files write it
    (``true``/``false``), else :func:`format_value`'s text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "unset" if value is None else format_value(value)


def parameters_differ(root: Path, experiment_id: str, recorded: dict | None) -> list[str]:
    """``key = ran (now value)``, or ``key unset (now value)``, for every parameter of ``params_paper.yaml`` overlaid on
    ``params.yaml`` that the run's recorded ``params`` do not match (:data:`NEUTRAL` aside; a
    parameter added after the run matches when it is empty, :data:`EMPTY`); empty when the run
    recorded none."""
    if not recorded or not (root / "params.yaml").exists():
        return []
    paper = load_yaml(root / "params_paper.yaml") if (root / "params_paper.yaml").exists() else {}
    expected = to_jsonable(overlay(load_yaml(root / "params.yaml"), paper, experiment_id))
    return [(f"{k} = {_shown(recorded[k])}" if k in recorded else f"{k} unset") + f" (now {_shown(v)})"
            for k, v in expected.items()
            if k not in NEUTRAL + RUNNER_SET and recorded.get(k, EMPTY.get(type(v), "unset")) != v]


def shown_path(path: str) -> str:
    """A changed file as the STALE note names it: a notebook by its name, a module of ``inferopt``
    by its path (``inferopt/experiment/__init__.py``, not a bare ``__init__.py``)."""
    return path.removeprefix("notebooks/").removeprefix("src/")


def stale_reasons(run: dict, changed: list[str] | None, params: list[str]) -> list[str]:
    """Why a paper-scale run is stale, in words (empty: current): a dirty run, parameters that
    differ (:func:`parameters_differ`), files changed since its commit (:func:`changed_since`)."""
    reasons = ["run from a modified work tree (dirty)"] if run.get("dirty") else []
    reasons += [f"ran with {p}" for p in params]
    reasons += [f"{shown_path(p)} changed since" for p in changed or []]
    return reasons


def paper_results(root: Path, registry: dict) -> dict:
    """Per experiment with a committed paper-scale run: ``{"claims": {id: claim}, "run": ...,
    "changed": [paths changed since the run] or None, "stale": [reasons] (empty: current)}``."""
    out = {}
    for exp_id, entry in registry.items():
        path = root / PAPER_DIR / "metrics" / f"{exp_id}.json"
        if not path.exists():
            continue
        data = read_metrics(path)
        run = data.get("run") or {}
        changed = (changed_since(root, run["commit"], exp_id, stage_sources(root, exp_id, entry["notebook"]))
                   if run.get("commit") else None)
        stale = stale_reasons(run, changed, parameters_differ(root, exp_id, data.get("params")))
        out[exp_id] = {"claims": {c["id"]: c for c in data.get("claims", [])}, "run": run, "changed": changed,
                       "stale": stale}
    return out


def short_reasons(reasons: list[str], shown: int = SHOWN_REASONS) -> str:
    """The first ``shown`` reasons a run is stale, joined, and how many more there are."""
    more = f" and {len(reasons) - shown} more" if len(reasons) > shown else ""
    return "; ".join(reasons[:shown]) + more


def is_current(paper: dict | None) -> bool:
    """A paper-scale run known not to be stale (files checked against git, nothing else off)."""
    return paper is not None and paper["changed"] is not None and not paper["stale"]


def run_note(paper: dict, *, reasons: bool = True) -> str:
    """``paper scale, 54d6f16, 2026-11-24`` plus ``STALE: <reasons>`` when stale (``reasons``: False
    leaves them to the STALE badge beside it, as each row of the front page does)."""
    run = paper["run"]
    note = f"paper scale, {str(run.get('commit', '?'))[:7]}, {str(run.get('date', '?'))[:10]}"
    stale = paper["stale"] if reasons else []
    if stale:
        note += f"; STALE: {short_reasons(stale)}"
    elif paper["changed"] is None:
        note += "; currency unknown (no git history)"
    return note
