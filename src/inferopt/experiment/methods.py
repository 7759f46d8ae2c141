"""The one registry of method names, their display labels and their colours.

Every figure and table of every experiment takes a method's label and colour from here,
so a method looks the same in every panel.  A name ending in ``_refit`` (a coreset
solver's weights re-fitted by NNLS on their support) is labelled ``<label> + re-fit`` and
drawn in its solver's colour (figures dash it).
"""

from __future__ import annotations

from .plotting import method_colors

REFIT_SUFFIX = "_refit"

#: name -> (label, index into the colour-blind palette); grouped by paper
_REGISTRY = {
    # A. coresets (solvers of inferopt.coresets.coreset_path)
    "a_iht": ("A-IHT", 0),
    "giga": ("GIGA", 1),
    "frank_wolfe": ("FW", 2),
    "a_iht_ii": ("A-IHT II", 3),
    "sparsevi": ("SparseVI", 4),
    "iht": ("IHT", 5),
    "uniform": ("Uniform", 7),
    "a_iht_batch": ("A-IHT batch grad.", 9),
    # B. herding (the paper's legends)
    "cg-1/(t+1)": ("cg-1/(t+1)", 0),
    "cg-l.search": ("cg-l.search", 1),
    "min-norm-point": ("min-norm-point", 2),
    "random": ("random", 7),
    "sobol": ("sobol", 4),
    # C. boosting step rules (inferopt.boosting.STEPS)
    "predefined": ("Predefined", 0),
    "line_search": ("Line-search", 1),
    "adafw": ("AdaFW", 2),
    "adaafw": ("AdaAFW", 3),
    "adapfw": ("AdaPFW", 4),
    # D. spectral optimisers
    "GD": ("GD", 0),
    "SGD": ("SGD", 1),
    "SVRG": ("SVRG", 2),
    "SGD-DET": ("SGD-DET", 3),
    "LANCZOS": ("LANCZOS", 4),
}
_PALETTE = method_colors(range(10))


def _base(name: str) -> str:
    base = name.removesuffix(REFIT_SUFFIX)
    if base not in _REGISTRY:
        raise ValueError(f"unknown method {name!r}; the registry knows {sorted(_REGISTRY)}")
    return base


def label(name: str) -> str:
    """Display label of ``name`` (``giga_refit`` -> ``GIGA + re-fit``)."""
    text = _REGISTRY[_base(name)][0]
    return text + " + re-fit" if name.endswith(REFIT_SUFFIX) else text


def color(name: str):
    """The fixed colour of ``name`` (a re-fit variant shares its solver's colour)."""
    return _PALETTE[_REGISTRY[_base(name)][1]]


def labels_of(names) -> dict:
    """``{name: label}`` for ``names``."""
    return {name: label(name) for name in names}


def colors_of(names) -> dict:
    """``{name: colour}`` for ``names``."""
    return {name: color(name) for name in names}
