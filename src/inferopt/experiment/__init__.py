"""Helpers every experiment notebook uses, written once: repository paths, the seeded
generator, the plotting style, figure saving, metrics and claims.

Typical notebook::

    from inferopt.experiment import Experiment, parameters_since, rng_from, set_style
    _before = set(globals())
    # --- cell tagged `parameters` ---
    seed = 0
    # --- next cell ---
    exp = Experiment("D1", title=..., paper=..., figure=..., params=parameters_since(globals(), _before))
    rng = rng_from(seed)
    ...
    exp.savefig(fig, "variance"); exp.claim("D1.1", "...", holds=..., measured={...})
    exp.write(); exp.claims_table()
"""

from .claims import VERDICTS, Claim, to_jsonable, verdict
from .paths import repo_root, resolve
from .plotting import PALETTE, close, method_colors, plot_band, set_style
from .record import Experiment, load_results, parameters_since, rng_from

__all__ = [
    "PALETTE",
    "VERDICTS",
    "Claim",
    "Experiment",
    "close",
    "method_colors",
    "load_results",
    "parameters_since",
    "plot_band",
    "repo_root",
    "resolve",
    "rng_from",
    "set_style",
    "to_jsonable",
    "verdict",
]
