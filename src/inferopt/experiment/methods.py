"""The one registry of method names, their display labels and their colours.

Every figure and table of every experiment takes a method's label and colour from here,
so a method looks the same in every panel.  A name ending in ``_refit`` (a coreset
solver's weights re-fitted by NNLS on their support) is labelled ``<label> + re-fit`` and
drawn in its solver's colour (figures dash it).  :func:`add_method` enters a researcher's own
method (:func:`inferopt.experiment.register_method`): it gets a colour of its own, outside the
paper methods' palette (black first), and one no other added method of its family has.
"""

from __future__ import annotations

import seaborn as sns

from .plotting import method_colors

REFIT_SUFFIX = "_refit"

#: family -> {name: (label, index into the colour-blind palette)}: the papers' methods
PAPER_METHODS = {
    # A. coresets (solvers of inferopt.coresets.coreset_path)
    "coresets": {
        "a_iht": ("A-IHT", 0),
        "giga": ("GIGA", 1),
        "frank_wolfe": ("FW", 2),
        "a_iht_ii": ("A-IHT II", 3),
        "sparsevi": ("SparseVI", 4),
        "iht": ("IHT", 5),
        "uniform": ("Uniform", 7),
        "a_iht_batch": ("A-IHT batch grad.", 9),
        "sparsevi_authors": ("SparseVI (authors' settings)", 6),
        "a_iht_batch_long": ("A-IHT batch grad., longer budget", 8),
    },
    # B. herding (the paper's legends)
    "herding": {
        "cg-1/(t+1)": ("cg-1/(t+1)", 0),
        "cg-l.search": ("cg-l.search", 1),
        "min-norm-point": ("min-norm-point", 2),
        "random": ("random", 7),
        "sobol": ("sobol", 4),
    },
    # C. boosting step rules (inferopt.boosting.STEPS)
    "boosting": {
        "predefined": ("Predefined", 0),
        "line_search": ("Line-search", 1),
        "adafw": ("AdaFW", 2),
        "adaafw": ("AdaAFW", 3),
        "adapfw": ("AdaPFW", 4),
    },
    # D. spectral optimisers
    "spectral": {
        "GD": ("GD", 0),
        "SGD": ("SGD", 1),
        "SVRG": ("SVRG", 2),
        "SGD-DET": ("SGD-DET", 3),
        "LANCZOS": ("LANCZOS", 4),
    },
}
FAMILIES = tuple(PAPER_METHODS)
#: the paper methods' ten colours (figures that colour their runs by position use them too), then
#: those of added methods: black, then nine dark ones, so an added method never shares a paper colour
_PALETTE = list(method_colors(range(10)).values()) + [(0.0, 0.0, 0.0)] + list(sns.color_palette("dark", 9))
_FIRST_ADDED = 10
_REGISTRY = {name: entry for family in PAPER_METHODS.values() for name, entry in family.items()}
#: family -> names added by :func:`add_method`, in order
_ADDED: dict[str, list[str]] = {family: [] for family in FAMILIES}


def _base(name: str) -> str:
    base = name.removesuffix(REFIT_SUFFIX)
    if base not in _REGISTRY:
        raise ValueError(f"unknown method {name!r}; the registry knows {sorted(_REGISTRY)}")
    return base


def label(name: str) -> str:
    """Display label of ``name`` (``giga_refit`` -> ``GIGA + re-fit``)."""
    text = _REGISTRY[_base(name)][0]
    return text + " + re-fit" if name.endswith(REFIT_SUFFIX) else text


def shown_name(name: str) -> str:
    """:func:`label` of a method of the registry, else ``name`` itself (e.g. a run's own label)."""
    return label(name) if isinstance(name, str) and name.removesuffix(REFIT_SUFFIX) in _REGISTRY else str(name)


def color(name: str):
    """The fixed colour of ``name`` (a re-fit variant shares its solver's colour)."""
    return _PALETTE[_REGISTRY[_base(name)][1]]


def labels_of(names) -> dict:
    """``{name: label}`` for ``names``."""
    return {name: label(name) for name in names}


def colors_of(names) -> dict:
    """``{name: colour}`` for ``names``."""
    return {name: color(name) for name in names}


def add_method(name: str, family: str, text: str | None = None) -> None:
    """Enter ``name`` (a method of ``family``, one of :data:`FAMILIES`) with the label ``text``
    (default: ``name``) and the next colour of the added methods' palette its family has not
    given. Entering a name of the same family again keeps its colour (and takes the new label); a paper method's name, or a
    name of another family, is a ``ValueError``."""
    text = check_new_method(name, family, text)
    if name in _ADDED[family]:
        _REGISTRY[name] = (text, _REGISTRY[name][1])
        return
    _REGISTRY[name] = (text, _free_colours(family)[0])
    _ADDED[family].append(name)


def check_new_method(name: str, family: str, text: str | None = None) -> str:
    """Everything :func:`add_method` requires of ``name``, ``family`` and the label ``text``, checked
    without entering anything (so a registration can check before it changes any registry);
    returns the label."""
    if family not in PAPER_METHODS:
        raise ValueError(f"family must be one of {list(FAMILIES)}; got {family!r}")
    if not isinstance(name, str) or not name or name.endswith(REFIT_SUFFIX):
        raise ValueError(f"name must be a non-empty string not ending in {REFIT_SUFFIX!r} (the suffix of the "
                         f"re-fitted variants); got {name!r}")
    text = name if text is None else text
    if not isinstance(text, str) or not text:
        raise TypeError(f"label must be a non-empty string; got {text!r}")
    if any(name in paper for paper in PAPER_METHODS.values()) or any(
            name in added for fam, added in _ADDED.items() if fam != family):
        raise ValueError(f"a method named {name!r} exists already; choose another name")
    if name not in _ADDED[family] and not _free_colours(family):
        raise ValueError(f"family {family!r} has no colour left for another method")
    return text


def _free_colours(family: str) -> list[int]:
    taken = {_REGISTRY[m][1] for m in _ADDED[family]}
    return [i for i in range(_FIRST_ADDED, len(_PALETTE)) if i not in taken]


def added_methods(family: str) -> list[str]:
    """The names :func:`add_method` entered in ``family``, in order."""
    if family not in _ADDED:
        raise ValueError(f"family must be one of {list(FAMILIES)}; got {family!r}")
    return list(_ADDED[family])
