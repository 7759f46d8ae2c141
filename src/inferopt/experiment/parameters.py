"""Validation of an experiment notebook's parameters, before any computation.

A bad value given to a stage (``dvc exp run -S D1.n_samples=-5``) should fail at once with a
message naming the key and what is allowed, not deep inside numpy. This module holds the rules (the
shared vocabulary); each paper's module of :mod:`inferopt.experiment.specs` gives, per experiment id
(its ``SPECS``), the kind and allowed range of every key of its section of ``params.yaml`` (and
``params_paper.yaml``); :func:`check_parameters` applies it (the
:class:`~inferopt.experiment.Experiment` constructor calls it). The rules reuse
:mod:`inferopt._validation`, so each rule is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .._validation import check_choice, check_int, check_real
from .specs import paper_specs, spec_for


class ParameterError(ValueError):
    """A notebook parameter outside its allowed values (the message names the key)."""


@dataclass(frozen=True)
class Rule:
    """What a key allows: ``check(name, value)`` raises ``ValueError``/``TypeError`` naming
    ``name``; ``allowed`` says it in words; ``optional``: ``None`` (YAML ``null``) is allowed too."""

    check: Callable[[str, object], object]
    allowed: str
    optional: bool = False

    def or_null(self) -> Rule:
        return Rule(self.check, f"{self.allowed}, or null", optional=True)


def Int(low: int | None = None, high: int | None = None) -> Rule:  # noqa: N802 - rule constructors read as types
    return Rule(lambda n, v: check_int(n, v, low=low, high=high), _range("an integer", low, high))


def Real(low: float | None = None, high: float | None = None, *, low_open: bool = False,  # noqa: N802
         high_open: bool = False) -> Rule:
    return Rule(lambda n, v: check_real(n, v, low=low, high=high, low_open=low_open, high_open=high_open),
                _range("a real number", low, high, low_open, high_open))


def Choice(*options: str) -> Rule:  # noqa: N802
    return Rule(lambda n, v: check_choice(n, v, options), f"one of {list(options)}")


def Flag() -> Rule:  # noqa: N802
    def check(name, value):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be true or false; got {value!r}")
    return Rule(check, "true or false")


def ListOf(item: Rule, *, length: int | None = None, min_length: int = 1) -> Rule:  # noqa: N802
    def check(name, value):
        if isinstance(value, str | bytes | Mapping) or not hasattr(value, "__len__"):
            raise TypeError(f"{name} must be a list; got {value!r}")
        if length is not None and len(value) != length:
            raise ValueError(f"{name} must have {length} entries; got {len(value)}")
        if len(value) < min_length:
            raise ValueError(f"{name} must have at least {min_length} entries; got {len(value)}")
        for i, v in enumerate(value):
            if not (v is None and item.optional):
                item.check(f"{name}[{i}]", v)
    size = f"{length} entries" if length is not None else f"at least {min_length} entries"
    return Rule(check, f"a list ({size}) of {item.allowed}")


def Record(**fields: Rule) -> Rule:  # noqa: N802
    """A mapping with exactly these keys (e.g. a panel ``{s: 1, density: random}``)."""
    def check(name, value):
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be a mapping with keys {sorted(fields)}; got {value!r}")
        unknown = sorted(set(value) - set(fields))
        if unknown:
            raise ValueError(f"{name} has unknown keys {unknown}; allowed: {sorted(fields)}")
        for key, rule in fields.items():
            if key in value:
                _apply(f"{name}.{key}", rule, value[key])
    return Rule(check, "a mapping {" + ", ".join(f"{k}: {r.allowed}" for k, r in fields.items()) + "}")


def _range(kind: str, low, high, low_open: bool = False, high_open: bool = False) -> str:
    parts = [kind]
    if low is not None:
        parts.append(f"{'>' if low_open else '>='} {low}")
    if high is not None:
        parts.append(f"{'<' if high_open else '<='} {high}")
    return " ".join(parts[:1]) + (" " + " and ".join(parts[1:]) if len(parts) > 1 else "")


def _apply(name: str, rule: Rule, value) -> None:
    if value is None and rule.optional:
        return
    try:
        rule.check(name, value)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"parameter {name}: {exc} (allowed: {rule.allowed})") from None


# --- the shared vocabulary --------------------------------------------------------------------
COUNT = Int(low=1)
SEED = Int(low=0)
FRACTION = Real(0.0, 1.0, low_open=True, high_open=True)         # a share strictly inside (0, 1)
POSITIVE = Real(0.0, low_open=True)
NONNEG = Real(0.0)
NAMES = ListOf(Rule(lambda n, v: _nonempty_string(n, v), "a name"))


def _nonempty_string(name, value):
    if not isinstance(value, str) or not value:
        raise TypeError(f"{name} must be a non-empty string; got {value!r}")


def _module_function(name, value):
    if not isinstance(value, str) or value.count(":") != 1 or not all(value.split(":")):
        raise ValueError(f"{name} must be a 'module:function' string; got {value!r}")
    if value.startswith("."):
        raise ValueError(f"{name} names a relative module {value.split(':')[0]!r}, which has no package to be "
                         f"relative to: give its full dotted name; got {value!r}")


def check_extra_modules(specs) -> None:
    """Each ``"module:function"`` of ``specs`` (already of that form) names a module that can be found
    on the import path, without importing it (issue 47: a missing module failed inside the kernel
    with importlib's own error). Raises :class:`ParameterError` naming ``extra_methods[i]``."""
    import importlib.util

    for i, spec in enumerate(specs or []):
        module = spec.split(":")[0]
        try:
            found = importlib.util.find_spec(module)
        except (ImportError, ValueError) as exc:
            found, why = None, f"{type(exc).__name__}: {exc}"
        else:
            why = "no such module on the import path (the project folder and PYTHONPATH)"
        if found is None:
            raise ParameterError(f"parameter extra_methods[{i}]: module {module!r} of {spec!r} cannot be imported: "
                                 f"{why} (allowed: 'module:function' of an importable module)")


#: a researcher's own methods (:mod:`inferopt.experiment.extra`), ``[]`` for none
EXTRA_METHODS = ListOf(Rule(_module_function, "a 'module:function' string"), min_length=0)


def check_parameters(experiment_id: str, params: Mapping) -> dict:
    """Check ``params`` (a notebook's parameters, ``output_dir`` excluded) against the spec of
    ``experiment_id``: every key must be known and its value allowed. Raises
    :class:`ParameterError` (a ``ValueError``) naming the first bad key and what it allows;
    returns ``params`` as a dict. Experiments without a spec are not checked. The spec is that of
    the experiment's paper (:mod:`inferopt.experiment.specs`), with its constraints between keys."""
    spec = spec_for(experiment_id)
    if spec is None:
        return dict(params)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ParameterError(f"unknown parameter(s) {unknown} for experiment {experiment_id}; "
                             f"known: {sorted(spec)}")
    for key, value in params.items():
        _apply(key, spec[key], value)
    check_pairs = getattr(paper_specs(experiment_id), "check_pairs", None)
    if check_pairs is not None:
        check_pairs(experiment_id, params)
    return dict(params)
