"""The allowed parameters of each experiment, one module per paper.

Each module (:data:`PAPER_MODULES`) holds ``SPECS`` (experiment id -> {key:
:class:`~inferopt.experiment.parameters.Rule`}, every key of its section of ``params.yaml``) and, where
its keys constrain each other, ``check_pairs(experiment_id, params)``.
:func:`~inferopt.experiment.parameters.check_parameters` imports only the module of the experiment's
paper, and each dvc stage depends on that module alone (``pipeline.dvcgen``), so a new key of one
paper's experiment puts only that paper's stages out of step.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

#: an experiment id's letter -> the module of its paper's specs
PAPER_MODULES = {"A": "coresets", "B": "herding", "C": "boosting", "D": "spectral"}


def spec_module(experiment_id: str) -> str | None:
    """The dotted name of the module holding ``experiment_id``'s spec; ``None`` for an id of no paper."""
    name = PAPER_MODULES.get(str(experiment_id)[:1])
    return None if name is None else f"{__name__}.{name}"


def paper_specs(experiment_id: str) -> ModuleType | None:
    """The imported module of :func:`spec_module` (``None`` for an id of no paper)."""
    name = spec_module(experiment_id)
    return None if name is None else import_module(name)


def spec_for(experiment_id: str) -> dict | None:
    """``experiment_id``'s {key: Rule}; ``None`` for an experiment without a spec."""
    module = paper_specs(experiment_id)
    return None if module is None else module.SPECS.get(experiment_id)
