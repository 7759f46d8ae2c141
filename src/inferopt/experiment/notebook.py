"""The opening call of every experiment notebook.

A notebook reads as: imports, ``_before = set(globals())``, the ``parameters`` cell, then ::

    exp, rng = open_experiment("D1", globals(), _before)
    ...
    exp.finish()   # writes the metrics JSON, prints the claims

The experiment's title, paper and figure come from its entry in ``params.yaml``. A parameter
``extra_methods`` (``"module:function"`` strings) imports and registers a researcher's own
methods (:func:`~inferopt.experiment.extra.load_extra_methods`); their names are
``exp.extra_methods``.
"""

from __future__ import annotations

import warnings

from .._paths import check_checkout
from .._progress import LongCallWarning
from .._random import as_generator
from .blas import pin_threads
from .extra import FAMILY_OF_PAPER, load_extra_methods
from .plotting import set_style
from .record import Experiment, parameters_since


def open_experiment(experiment_id: str, namespace: dict, before: set):
    """``(Experiment, Generator)`` for the notebook whose globals are ``namespace``: its
    parameters are the names defined since ``before`` (the parameters cell and papermill's
    injected cell), the generator comes from their ``seed``; registers the ``extra_methods``
    (as methods of the family of the experiment's paper); sets the plotting style; pins the BLAS to
    one thread (:func:`~.blas.pin_threads`: results must not depend on the machine's core count); refuses to run
    another checkout's library than the one the notebook sits in (:func:`~inferopt._paths.check_checkout`); silences
    :class:`~inferopt.LongCallWarning` (a notebook shows its runs' progress bars, and a projection of wall time that
    depends on the machine's load must not enter a rendered report)."""
    check_checkout()
    pin_threads()
    warnings.filterwarnings("ignore", category=LongCallWarning)
    exp = Experiment(experiment_id, params=parameters_since(namespace, before))
    seed = exp.params.get("seed")
    if seed is None:
        raise ValueError(f"experiment {experiment_id}: the parameters cell must define `seed`")
    rng = as_generator(seed)
    extra = exp.params.get("extra_methods") or []
    if extra:
        if experiment_id[:1] not in FAMILY_OF_PAPER:
            raise ValueError(f"experiment {experiment_id}: extra_methods needs an experiment of a paper "
                             f"({', '.join(FAMILY_OF_PAPER)}), whose family of methods it joins")
        exp.extra_methods = load_extra_methods(extra, FAMILY_OF_PAPER[experiment_id[0]])
    set_style()
    return exp, rng
