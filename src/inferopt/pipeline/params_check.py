"""The parameter files checked whole, before any kernel starts (issue 47).

:func:`check_params_files` reads ``params.yaml`` (and, at the paper scale, ``params_paper.yaml``)
as the pipeline will use them and refuses, in one line naming the file, the key (``A4.n_trials``),
its value and what is allowed:

* the top level: a YAML syntax error (file, line and column), ``scale``, ``seed``, a section that
  is no experiment of the registry (a typo such as ``A44:``), ``datasets``;
* the registry: every ``experiments`` entry a mapping with a ``notebook`` that exists;
* each experiment's section: present and a mapping; every key a parameter of its notebook; every
  parameter of its notebook set (else the notebook's tiny default would run into ``reports/``,
  the runner's own ``output_dir``, ``progress`` and ``seed`` aside); every value allowed by the
  experiment's spec with the rules between keys (:func:`~inferopt.experiment.parameters.check_parameters`);
  its ``extra_methods`` importable (:func:`~inferopt.experiment.parameters.check_extra_modules`);
* rules between sections: the claims of A7 and A8 read A4's and A5's sizes (:func:`_check_sources`).

The runner (:func:`.run.run_experiment`) and the paper scale (:func:`.paper.run_paper`) call it
before their first kernel; a value that passes here and still fails in the notebook ends in one
line naming the stage and the parameters its failing line reads (:func:`.run.failure_line`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import numpy as np
import papermill

from .._config import SCALES, experiments, load_yaml, overlay
from .._paths import repo_root
from ..experiment.claims import MIN_SWEEP
from ..experiment.parameters import ParameterError, check_extra_modules, check_parameters

#: the top-level keys of ``params.yaml`` besides the experiments' sections
TOP_LEVEL = ("scale", "seed", "experiments", "datasets")
#: the keys of an ``experiments`` entry
ENTRY_KEYS = ("notebook", "title", "paper", "figure")
#: parameters the runner sets (or defaults) itself: a section may leave them out
RUNNER_SET = ("output_dir", "progress", "seed")
#: experiments whose claims read the trial tables of others (their ``sources``) at sizes ``k >= claim_k_min``
READS_SOURCES = ("A7", "A8")


@lru_cache(maxsize=64)
def _declared(path: str, mtime: float) -> dict:
    return papermill.inspect_notebook(path)


def declared_parameters(notebook: Path) -> dict:
    """``{name: {"default": text, ...}}`` of the parameters cell of ``notebook`` (cached by file and time)."""
    return _declared(str(notebook), notebook.stat().st_mtime)


def check_params_files(root: Path | None = None, *, scale: str | None = None, ids=None,
                       sources: Mapping | None = None) -> dict:
    """Check the parameter files of the project at ``root`` (default: this one) for ``scale``
    (default: ``params.yaml``'s) and the experiments ``ids`` (default: all), before any kernel
    starts; ``sources``: ``{id: notebook}`` read instead of ``notebooks/<name>.ipynb`` (the runner's
    stripped copy). Raises ``ValueError`` with one line (module docstring); returns
    ``{id: parameters}`` as the notebooks will get them."""
    root = Path(root) if root is not None else repo_root()
    params = load_yaml(root / "params.yaml")
    registry = experiments(params)
    _check_top_level(params, registry)
    if params.get("scale", "default") not in SCALES:
        raise ValueError(f"params.yaml: scale must be one of {list(SCALES)}; got {params['scale']!r}")
    scale = params.get("scale", "default") if scale is None else scale
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {list(SCALES)}; got {scale!r}")
    paper = load_yaml(root / "params_paper.yaml") if scale == "paper" else {}
    unknown = [k for k in paper if k not in registry]
    if unknown:
        raise ValueError(f"params_paper.yaml: section {unknown[0]} is not an experiment of params.yaml's "
                         f"experiments ({', '.join(registry)})")
    notebooks = {}
    for eid, entry in registry.items():
        extra = sorted(set(entry) - set(ENTRY_KEYS))
        if extra:
            raise ValueError(f"params.yaml: experiments.{eid} has unknown key {extra[0]!r}; "
                             f"allowed: {list(ENTRY_KEYS)}")
        for key in ENTRY_KEYS[1:]:
            if key in entry and not isinstance(entry[key], str):
                raise ValueError(f"params.yaml: experiments.{eid}.{key} must be text; got {entry[key]!r}")
        notebook = Path((sources or {}).get(eid) or root / "notebooks" / f"{entry['notebook']}.ipynb")
        if not notebook.exists():
            shown = notebook.relative_to(root) if notebook.is_relative_to(root) else notebook
            raise ValueError(f"params.yaml: experiments.{eid}.notebook = {entry['notebook']!r} names no notebook: "
                             f"{shown} does not exist")
        notebooks[eid] = notebook
    chosen = list(registry) if ids is None else list(ids)
    sections = {eid: overlay(params, paper, eid) for eid in registry}
    for eid in chosen:
        _check_section(eid, sections[eid], notebooks[eid], paper.get(eid) or {})
    _check_sources(sections, chosen, paper)
    return {eid: sections[eid] for eid in chosen}


def _check_top_level(params: dict, registry: dict) -> None:
    stray = [k for k in params if k not in TOP_LEVEL and k not in registry]
    if stray:
        raise ValueError(f"params.yaml: section {stray[0]} is not an experiment of experiments ({', '.join(registry)}) "
                         f"nor one of {list(TOP_LEVEL)}")
    seed = params.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"params.yaml: seed must be an integer >= 0; got {seed!r}")
    datasets = params.get("datasets", [])
    if not isinstance(datasets, list) or not all(isinstance(d, str) and d for d in datasets):
        raise ValueError(f"params.yaml: datasets must be a list of data set names; got {datasets!r}")


def _origin(key: str, paper_section: Mapping) -> str:
    return "params_paper.yaml" if key in paper_section else "params.yaml"


def _check_section(eid: str, section: dict, notebook: Path, paper_section: Mapping) -> None:
    declared = declared_parameters(notebook)
    for key in section:
        if key not in declared and key not in RUNNER_SET:
            raise ValueError(f"{_origin(key, paper_section)}: {eid}.{key} is not a parameter of {notebook.name} "
                             f"(its parameters cell declares: {', '.join(k for k in declared if k != 'output_dir')})")
    for key, info in declared.items():
        if key not in section and key not in RUNNER_SET:
            raise ValueError(f"params.yaml: {eid}.{key} is missing: section {eid} must set every parameter of "
                             f"{notebook.name}, or the notebook's tiny default {key} = {info.get('default')} runs "
                             f"into reports/")
    try:
        check_parameters(eid, {k: v for k, v in section.items() if k != "output_dir"})
        check_extra_modules(section.get("extra_methods"))
    except ParameterError as exc:
        text = str(exc).removeprefix("parameter ")
        key = text.split(":", 1)[0].split(".", 1)[0].split("[", 1)[0]
        raise ValueError(f"{_origin(key, paper_section)}: parameter {eid}.{text}") from None


def _check_sources(sections: dict, chosen, paper: Mapping) -> None:
    """A7 and A8 compare methods at the sizes ``k >= claim_k_min`` of their sources' tables; their
    verdict maps read ``k >= 1``, ``>= claim_k_min`` and ``>=`` the median size (A8 also ``>=`` the
    largest): at least :data:`~inferopt.experiment.claims.MIN_SWEEP` distinct settings, and a size
    ``k >= claim_k_min`` in the tables."""
    for eid in (e for e in READS_SOURCES if e in chosen):
        section = sections[eid]
        ks = sorted({int(k) for src in section.get("sources", []) if src in sections
                     for k in sections[src].get("ks", [])})
        k_min = section.get("claim_k_min")
        if not ks or k_min is None:
            continue
        settings = {1, k_min, int(np.median(ks))} | ({max(ks)} if eid == "A8" else set())
        where = _origin("claim_k_min", paper.get(eid) or {})
        if k_min > max(ks):
            raise ValueError(f"{where}: parameter {eid}.claim_k_min = {k_min}: no size k >= {k_min} in its sources' "
                             f"ks (largest {max(ks)}) (allowed: an integer from 2 to {max(ks)})")
        if len(settings) < MIN_SWEEP:
            raise ValueError(f"{where}: parameter {eid}.claim_k_min = {k_min} leaves the claims' verdict map "
                             f"{len(settings)} distinct sizes ({sorted(settings)}), fewer than {MIN_SWEEP} (allowed: an "
                             f"integer above 1 other than {', '.join(map(str, sorted(settings - {1, k_min})))}, "
                             f"at most {max(ks)})")
