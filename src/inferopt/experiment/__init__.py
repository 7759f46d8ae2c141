"""The experiment layer: everything a notebook needs that is not an algorithm.

* :mod:`.notebook` -- :func:`open_experiment`, the notebook's one opening call;
* :mod:`.record`   -- :class:`Experiment`: figures, result tables, metrics, claims
  (:meth:`Experiment.finish` is the closing call);
* :mod:`.claims`, :mod:`.plotting` -- verdicts, one plotting style (repository paths: :mod:`inferopt._paths`);
* :mod:`.methods`  -- the one registry of method names, labels and colours;
* :mod:`.extra`    -- :func:`register_method`: a researcher's own method in its family's experiments;
* :mod:`.coresets`, :mod:`.herding`, :mod:`.boosting`, :mod:`.spectral` -- each paper's trial
  runners, tables, rate fits and panels (import them by name: they load their paper's package).

Typical notebook::

    from inferopt.experiment import open_experiment
    _before = set(globals())
    # --- cell tagged `parameters` ---
    seed = 0
    # --- next cell ---
    exp, rng = open_experiment("D1", globals(), _before)
    ...
    exp.savefig(fig, "variance"); exp.claim("D1.1", "...", holds=..., measured={...})
    exp.finish()
"""

from .._random import as_generator
from .extra import register_method
from .claims import VERDICTS, Claim, to_jsonable, verdict
from .methods import color, colors_of, label, labels_of
from .notebook import open_experiment
from .._paths import repo_root, resolve
from .plotting import PALETTE, close, method_colors, plot_band, set_style
from .record import Experiment, load_results, parameters_since

__all__ = [
    "PALETTE",
    "VERDICTS",
    "as_generator",
    "Claim",
    "Experiment",
    "close",
    "color",
    "colors_of",
    "label",
    "labels_of",
    "load_results",
    "method_colors",
    "open_experiment",
    "parameters_since",
    "plot_band",
    "register_method",
    "repo_root",
    "resolve",
    "set_style",
    "to_jsonable",
    "verdict",
]
