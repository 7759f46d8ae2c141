"""Reading ``params.yaml``: the experiment list and each experiment's parameters at a scale.

``params.yaml`` holds the default scale; ``scale: paper`` overlays the matching
sections of ``params_paper.yaml`` (the papers' settings) key by key.

A file that is not YAML, a registry entry without its notebook and a missing section are refused
here, in one line naming the file, line or key (issue 47); the whole files are checked against the
notebooks and the experiments' specs by :func:`inferopt.pipeline.params_check.check_params_files`.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ._paths import repo_root

SCALES = ("default", "paper")
#: libyaml's safe loader when PyYAML has it (the same documents, about 8x faster), else PyYAML's own
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(path: Path) -> dict:
    """A YAML mapping from ``path`` (an empty file is an empty mapping)."""
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist")
    try:
        data = yaml.load(path.read_text(), Loader=_LOADER) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = " ".join(str(getattr(exc, "problem", None) or exc).split())
        raise ValueError(f"{path.name} is not valid YAML{where}: {problem}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path.name} must hold a mapping at the top level (key: value lines); got a "
                         f"{type(data).__name__}")
    return data


def load_params(root: Path | None = None) -> dict:
    """``params.yaml`` as a dict."""
    return load_yaml((root or repo_root()) / "params.yaml")


def experiments(params: dict | None = None) -> dict:
    """The experiment registry: ``{id: {"notebook": ..., ...}}`` in report order."""
    params = load_params() if params is None else params
    registry = params.get("experiments")
    if not isinstance(registry, dict) or not registry:
        raise ValueError("params.yaml must define a non-empty mapping 'experiments: {ID: {notebook: NAME}}'")
    for eid, entry in registry.items():
        if not isinstance(entry, dict):
            raise ValueError(f"params.yaml: experiments.{eid} must be a mapping {{notebook: NAME, title: ...}}; "
                             f"got {entry!r}")
        notebook = entry.get("notebook")
        if not isinstance(notebook, str) or not notebook:
            raise ValueError(f"params.yaml: experiments.{eid} needs a notebook (the name of its notebook in "
                             f"notebooks/, without .ipynb); got {notebook!r}")
    return registry


def check_experiments(ids, registry: dict) -> list:
    """``ids`` as a list, every one an experiment of ``registry`` (else ``ValueError`` naming them)."""
    ids = list(ids)
    unknown = [i for i in ids if i not in registry]
    if unknown:
        raise ValueError(f"unknown experiment(s) {unknown}; params.yaml lists {list(registry)}")
    return ids


def experiment_parameters(experiment_id: str, root: Path | None = None, *, scale: str | None = None) -> dict:
    """The parameters the pipeline passes to ``experiment_id``'s notebook.

    Its section of ``params.yaml`` (plus the global ``seed`` unless the section sets
    one), overlaid by ``params_paper.yaml`` when ``scale`` (default: ``params.yaml``'s
    ``scale``) is ``paper``.
    """
    root = root or repo_root()
    params = load_params(root)
    check_experiments([experiment_id], experiments(params))
    scale = params.get("scale", "default") if scale is None else scale
    if scale not in SCALES:
        raise ValueError(f"params.yaml 'scale' must be one of {SCALES}; got {scale!r}")
    return overlay(params, load_yaml(root / "params_paper.yaml") if scale == "paper" else {}, experiment_id)


def overlay(params: dict, paper: dict, experiment_id: str) -> dict:
    """``experiment_id``'s section of ``params`` overlaid key by key by its section of ``paper``
    (empty for the default scale), with ``params``'s global ``seed`` unless the section sets one.
    A missing section is refused: the notebook would run at its tiny defaults into ``reports/``."""
    if experiment_id not in params:
        raise ValueError(f"params.yaml has no section {experiment_id}: (its notebook would run at its tiny defaults "
                         f"into reports/); add the section with every parameter of the notebook")
    for name, data in (("params.yaml", params), ("params_paper.yaml", paper)):
        if data.get(experiment_id) is not None and not isinstance(data[experiment_id], dict):
            raise ValueError(f"{name}: section {experiment_id} must be a mapping of parameters; "
                             f"got {data[experiment_id]!r}")
    section = dict(params.get(experiment_id) or {})
    section.update(paper.get(experiment_id) or {})
    section.setdefault("seed", params.get("seed", 0))
    return section
