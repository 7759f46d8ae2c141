"""A researcher's own method in the experiments of its family (issue 30).

* :func:`register_method` -- one call: checks the family's protocol, enters the method in the
  registry of labels and colours (:mod:`.methods`) and, for coresets, herding and boosting, in
  the algorithm package's own list (:data:`LIBRARY_HOOKS`), so the experiment runners accept
  its name;
* :func:`load_extra_methods` -- the notebook parameter ``extra_methods`` (``"module:function"``
  strings) imported and registered (:func:`~inferopt.experiment.open_experiment` calls it);
* :func:`spectral_calls` -- registered spectral optimisers as calls on an experiment's problem,
  each with its own seeded stream, to run beside the paper's optimisers;
* :func:`methods_beyond` -- the researcher's methods in a table an earlier experiment wrote (A8 reads
  A4's and A5's trials);
* :func:`versus_paper` -- the table "your method against the paper's methods" on the same
  trials and seeds: win fractions and medians of the experiment's main error metric;
  :func:`report_versus` writes it to the results and prints it.

Families and their protocols (checked at registration):

==========  ===================================================================================
coresets    ``solver(Phi, y, k, **options) -> result with .x`` (``per_k=True``, run once per size)
            or a path solver ``solver(Phi, y, ks, **options) -> CoresetResult``; a parameter
            ``rng`` gets the method's own seeded stream (:func:`inferopt._random.named_stream`)
herding     a step rule ``rule(line) -> StepOutcome or step size`` (:mod:`inferopt.fw.steps`) of
            :func:`inferopt.herding.herd`
boosting    the same, on the Frank-Wolfe core of :func:`inferopt.boosting.boost`
spectral    an optimiser with the signature of :func:`inferopt.spectral.optim.sgd`:
            ``opt(problem, theta0, *, max_iter, step, M, rng, eval_every, ...) -> SpectralSolveResult``
==========  ===================================================================================
"""

from __future__ import annotations

import importlib
import inspect
from functools import partial

import numpy as np
import pandas as pd

from .._random import as_generator, named_stream
from .._validation import check_choice, check_flag, check_table
from .methods import FAMILIES, PAPER_METHODS, add_method, check_new_method, shown_name
from .methods import label as method_label

__all__ = ["FAMILIES", "load_extra_methods", "method_of", "methods_beyond", "register_method", "report_versus",
           "spectral_calls", "versus_paper"]

#: family -> (positional parameters, keyword parameters) its callable must accept
PROTOCOLS = {
    "coresets": (("Phi", "y", "k"), ()),
    "herding": (("line",), ()),
    "boosting": (("line",), ()),
    "spectral": (("problem", "theta0"), ("max_iter", "step", "M", "rng", "eval_every")),
}
#: family -> ``"module:function"`` of the algorithm package's own registration hook and of its check
#: (what the hook requires, without registering). Imported by name when a method of that family
#: registers: a stage imports (and depends on, in ``dvc.yaml``) only its own family's package, which
#: its experiment imports anyway.
LIBRARY_HOOKS = {"coresets": "inferopt.coresets.path:register_solver",
                 "herding": "inferopt.herding.herding:register_step",
                 "boosting": "inferopt.boosting.boost:register_step"}
LIBRARY_CHECKS = {"coresets": "inferopt.coresets.path:check_solver",
                  "herding": "inferopt.herding.herding:check_step",
                  "boosting": "inferopt.boosting.boost:check_step"}
#: the experiment ids' letter -> the family of its methods
FAMILY_OF_PAPER = {"A": "coresets", "B": "herding", "C": "boosting", "D": "spectral"}
_METHODS: dict[str, tuple[str, object]] = {}


def _check_protocol(family: str, solver) -> None:
    """``solver`` is callable with the family's positional and keyword parameters (by name, or
    through ``*args``/``**kwargs``); a ``TypeError`` names what is missing."""
    if not callable(solver):
        raise TypeError(f"solver (a {family} method) must be callable; got {type(solver).__name__}")
    positional, keywords = PROTOCOLS[family]
    try:
        params = inspect.signature(solver).parameters.values()
    except (TypeError, ValueError):
        raise TypeError(f"solver {getattr(solver, '__name__', solver)!r} has no signature to check against the "
                        f"{family} protocol {family}({', '.join(positional + keywords)}) (a builtin such as max): "
                        "wrap it in a function of that signature") from None
    kinds = {p.kind for p in params}
    by_position = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    named = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    missing = []
    if len(by_position) < len(positional) and inspect.Parameter.VAR_POSITIONAL not in kinds:
        missing.append(f"{len(positional)} positional parameters ({', '.join(positional)})")
    if inspect.Parameter.VAR_KEYWORD not in kinds:
        missing += [f"the keyword parameter {k!r}" for k in keywords if k not in named]
    required = [p.name for p in by_position[len(positional):] if p.default is p.empty]
    required += [p.name for p in params if p.kind == p.KEYWORD_ONLY and p.default is p.empty and p.name not in keywords]
    if required:
        missing.append(f"defaults for the parameters {required} (the experiments do not set them)")
    if missing:
        raise TypeError(f"solver {getattr(solver, '__name__', solver)!r} does not follow the {family} protocol "
                        f"{family}({', '.join(positional + keywords)}): it lacks {'; '.join(missing)}")


def register_method(name: str, solver, *, family: str, label: str | None = None, per_k: bool = True) -> str:
    """Put ``solver`` into the experiments of ``family`` (one of :data:`FAMILIES`) as ``name``.

    The protocol of the family (module docstring) is checked now, with a ``TypeError`` naming
    what is missing. ``label`` (default ``name``) is the method's name in figures and tables; its
    colour lies outside the paper methods' palette (:func:`~.methods.add_method`). ``per_k`` (coresets): run once per size
    (``True``) or a path solver over the size grid (``False``). Registering the same solver
    under its name again is allowed (a notebook run twice); a taken name is a ``ValueError``.
    Everything is checked before any registry changes: a refused method leaves nothing registered
    (issue 47). Returns ``name``.
    """
    check_registration(name, solver, family=family, label=label, per_k=per_k)
    if family in LIBRARY_HOOKS:
        hook = _resolve(LIBRARY_HOOKS[family], "the registration hook")
        hook(name, solver, **({"per_k": per_k} if family == "coresets" else {}))
    add_method(name, family, label)
    _METHODS[name] = (family, solver)
    return name


def check_registration(name: str, solver, *, family: str, label: str | None = None, per_k: bool = True) -> None:
    """Everything :func:`register_method` requires (its arguments, the family's protocol, a free
    name in the method registry and in the algorithm package's), checked without registering."""
    check_choice("family", family, FAMILIES)
    per_k = check_flag("per_k", per_k)
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string; got {name!r}")
    if label is not None and (not isinstance(label, str) or not label):
        raise TypeError(f"label must be a non-empty string or None; got {label!r}")
    _check_protocol(family, solver)
    if name in _METHODS and _METHODS[name] != (family, solver):
        raise ValueError(f"a method named {name!r} is registered already (family {_METHODS[name][0]!r}, "
                         f"{_METHODS[name][1]!r}); choose another name")
    if any(name in paper for paper in PAPER_METHODS.values()):
        raise ValueError(f"{name!r} is the name of a paper's method; choose another name")
    check_new_method(name, family, label)
    if family in LIBRARY_CHECKS:
        check = _resolve(LIBRARY_CHECKS[family], "the registration check")
        check(name, solver, **({"per_k": per_k} if family == "coresets" else {}))


def method_of(name: str):
    """The solver registered as ``name``."""
    check_choice("name", name, set(_METHODS))
    return _METHODS[name][1]


def spectral_calls(names, problem, theta0, *, rng, **options) -> dict:
    """``{name: call}``: each registered spectral optimiser of ``names`` run on ``problem`` from ``theta0``
    with ``options`` (keywords of the family's protocol: ``max_iter``, ``step``, ``M``, ``eval_every``), as a
    call without arguments (:func:`~inferopt.experiment.parallel.run_calls`). Each draws from its own
    stream, :func:`~inferopt._random.named_stream` of ``rng`` (a seed or generator) and its name, so the
    paper's runs draw the same with and without it."""
    if isinstance(names, str) or not hasattr(names, "__iter__"):
        raise TypeError(f"names must be a list of registered spectral methods; got {names!r}")
    spectral = sorted(n for n, (family, _) in _METHODS.items() if family == "spectral")
    for name in names:
        check_choice("names (an entry of)", name, spectral)
    allowed = set(PROTOCOLS["spectral"][1]) - {"rng"}
    if set(options) - allowed:
        raise ValueError(f"options {sorted(set(options) - allowed)} are not keywords of the spectral protocol; "
                         f"allowed: {sorted(allowed)}")
    rng = as_generator(rng)
    return {name: partial(method_of(name), problem, theta0, rng=named_stream(rng, name), **options) for name in names}


def _resolve(spec: str, what: str):
    """The attribute named by ``"module:attribute"``; a module that is relative, missing or fails
    on import, or an attribute it lacks, is a ``ValueError`` naming ``what`` (issue 47: importlib's
    own errors never said which entry)."""
    module, attribute = spec.split(":")
    if module.startswith("."):
        raise ValueError(f"{what} = {spec!r} names a relative module {module!r}, which has no package to be relative "
                         f"to: give its full dotted name")
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise ValueError(f"{what} = {spec!r}: no module named {exc.name!r} on the import path (the project folder "
                         "and PYTHONPATH)") from None
    except Exception as exc:  # noqa: BLE001 - the module's own code failed: say so, with its error
        raise ValueError(f"{what} = {spec!r}: module {module!r} fails on import: {type(exc).__name__}: {exc}") from exc
    obj = getattr(loaded, attribute, None)
    if obj is None:
        raise ValueError(f"{what} = {spec!r}: module {module!r} has no attribute {attribute!r}")
    return obj


def load_extra_methods(specs, family: str) -> list[str]:
    """Import and register each ``"module:attribute"`` of ``specs`` as a method of ``family``;
    returns their names. An attribute already registered (e.g. by its module, with a label) keeps
    its registration; any other callable is registered under its attribute name, with the label
    and ``per_k`` of its attributes ``label`` and ``per_k`` if it has them. Every entry is imported
    and checked before any registers: an error names ``extra_methods[i]`` and leaves nothing
    registered."""
    check_choice("family", family, FAMILIES)
    if isinstance(specs, str) or not hasattr(specs, "__iter__"):
        raise TypeError(f"extra_methods must be a list of 'module:function' strings; got {specs!r}")
    specs = list(specs)
    plan = []
    for i, spec in enumerate(specs):
        if not isinstance(spec, str) or spec.count(":") != 1 or not all(spec.split(":")):
            raise ValueError(f"extra_methods[{i}] must be a 'module:function' string; got {spec!r}")
        obj = _resolve(spec, f"extra_methods[{i}]")
        attribute = spec.split(":")[1]
        known = [n for n, (fam, fn) in _METHODS.items() if fn is obj and fam == family]
        options = dict(label=getattr(obj, "label", None), per_k=getattr(obj, "per_k", True))
        if not known:
            try:
                check_registration(attribute, obj, family=family, **options)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"extra_methods[{i}] = {spec!r}: {exc}") from None
        plan.append((known[0] if known else attribute, obj, options, bool(known)))
    names = [name for name, *_ in plan]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"extra_methods names the method {twice!r} twice (entries "
                         f"{[i for i, n in enumerate(names) if n == twice]}): {specs}")
    for name, obj, options, known in plan:
        if not known:
            register_method(name, obj, family=family, **options)
    return names


def methods_beyond(table: pd.DataFrame, paper, family: str, *, method: str = "method") -> list[str]:
    """The methods of ``table`` (its column ``method``) outside ``paper``, in order of appearance: a
    researcher's own methods, run by the experiment that wrote the table. One not registered in this
    process enters the method registry of ``family`` under its name (:func:`~.methods.add_method`), so it
    has a label and a colour of its own."""
    check_table("table", table, [method])
    check_choice("family", family, FAMILIES)
    paper = set(paper)
    beyond = [m for m in dict.fromkeys(table[method]) if m not in paper]
    for name in beyond:
        try:
            method_label(name)
        except ValueError:          # not registered here: its name is its label
            add_method(name, family)
    return beyond


def versus_paper(table: pd.DataFrame, metric: str, extra, paper, *, by, method: str = "method",
                 time: str | None = None, lower_is_better: bool = True) -> pd.DataFrame:
    """The table "your method against the paper's methods": for each method of ``extra`` and each
    of ``paper``, on the cells (rows with equal ``by`` values, e.g. trial and size ``k``) both
    have, the fraction of cells where the extra method is strictly better on ``metric``
    (``lower_is_better``: smaller), the fraction of ties, both medians over those cells and, with
    a column ``time``, both median times. Every ``by`` cell must hold one row per method. Methods
    are shown by their labels (:func:`~inferopt.experiment.methods.shown_name`)."""
    check_table("table", table, [method, metric, *by, *([time] if time else [])])
    if table.duplicated([*by, method]).any():
        raise ValueError(f"table must have one row per ({', '.join(by)}, {method})")
    values = [metric, *([time] if time else [])]
    wide = table.pivot(index=list(by), columns=method, values=values)
    rows = []
    for e in extra:
        for p in paper:
            if e not in wide[metric] or p not in wide[metric]:
                raise ValueError(f"table has no rows of method {e if e not in wide[metric] else p!r}")
            both = wide[metric][[e, p]].dropna()
            if both.empty:
                raise ValueError(f"methods {e!r} and {p!r} share no cell of ({', '.join(by)})")
            diff = (both[e] - both[p]).to_numpy() * (1 if lower_is_better else -1)
            row = {"method": shown_name(e), "against": shown_name(p), "cells": len(both),
                   "win fraction": float(np.mean(diff < 0)), "tie fraction": float(np.mean(diff == 0)),
                   f"median {metric}": float(both[e].median()), f"median {metric}, against": float(both[p].median())}
            if time:
                t = wide[time].loc[both.index]
                row |= {f"median {time}": float(t[e].median()), f"median {time}, against": float(t[p].median())}
            rows.append(row)
    return pd.DataFrame(rows)


def report_versus(exp, table: pd.DataFrame, metric: str, paper, *, by, extra=None, **options) -> pd.DataFrame | None:
    """:func:`versus_paper` of ``extra`` (default ``exp.extra_methods``) against ``paper`` on ``table``,
    saved as the result table ``vs_paper`` of ``exp`` and printed; ``None`` (nothing written) without
    extra methods. ``options`` go to :func:`versus_paper`."""
    extra = exp.extra_methods if extra is None else list(extra)
    if not extra:
        return None
    vs = versus_paper(table, metric, extra, paper, by=by, **options)
    exp.save_results("vs_paper", vs)
    with pd.option_context("display.width", 250, "display.max_columns", 20):
        print(f"your method against the paper's methods: {metric} on the same {', '.join(by)} "
              f"({'lower' if options.get('lower_is_better', True) else 'higher'} is better)")
        print(vs.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    return vs
