"""Reading ``params.yaml``: the experiment list and each experiment's parameters at a scale.

``params.yaml`` holds the default scale; ``scale: paper`` overlays the matching
sections of ``params_paper.yaml`` (the papers' settings) key by key.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ._paths import repo_root

SCALES = ("default", "paper")


def load_yaml(path: Path) -> dict:
    """A YAML mapping from ``path`` (an empty file is an empty mapping)."""
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist")
    data = yaml.safe_load(path.read_text()) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path} must hold a mapping at the top level")
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
    (empty for the default scale), with ``params``'s global ``seed`` unless the section sets one."""
    section = dict(params.get(experiment_id) or {})
    section.update(paper.get(experiment_id) or {})
    section.setdefault("seed", params.get("seed", 0))
    return section
