"""The opening call of every experiment notebook.

A notebook reads as: imports, ``_before = set(globals())``, the ``parameters`` cell, then ::

    exp, rng = open_experiment("D1", globals(), _before)
    ...
    exp.finish()   # writes the metrics JSON, prints the claims

The experiment's title, paper and figure come from its entry in ``params.yaml``.
"""

from __future__ import annotations

from .._random import as_generator
from .plotting import set_style
from .record import Experiment, parameters_since


def open_experiment(experiment_id: str, namespace: dict, before: set):
    """``(Experiment, Generator)`` for the notebook whose globals are ``namespace``: its
    parameters are the names defined since ``before`` (the parameters cell and papermill's
    injected cell), the generator comes from their ``seed``; sets the plotting style."""
    exp = Experiment(experiment_id, params=parameters_since(namespace, before))
    seed = exp.params.get("seed")
    if seed is None:
        raise ValueError(f"experiment {experiment_id}: the parameters cell must define `seed`")
    rng = as_generator(seed)
    set_style()
    return exp, rng
