"""The bad-input sweep: which arguments of which public callables get which bad values, and how
an outcome is classified. Driven by introspection: the callables are those of each module's
``__all__`` (a module without one: the public names it defines itself), their parameters come
from their signatures, and the *kind* of each parameter
(array, index array, integer, real number, choice string, seed, flag, callable) is read from its
valid value in the baseline call of :mod:`cases` (or from its default). :data:`OVERRIDES` is the
small table of exceptions: parameters whose valid range includes a value the generic kind calls bad.

Issue 29 added the kinds a first sweep did not reach: flags (strings, numbers, ``None``),
repeated indices, callables returning NaN or (for positive quantities) negative values,
wrong-length optional arrays, infeasible targets (:data:`TARGETS`: refused with the distance in
the message), and :func:`equivalents`: values that mean the same as the valid one (``np.bool_``
for a flag, ``2.0`` for ``2``, an index set in another order, a matrix as sparse or as a
``LinearOperator``) and must give the same answer for the same seed.

Issue 47 added the kinds of the third round: a parameter whose default is ``None`` gets the kind
its annotation names (``float | None`` is a real number); callables returning complex values;
values off a parameter's domain (:data:`DOMAINS`); sizes no machine holds (:data:`HUGE`, with a
time guard: a call must refuse, announce its length or finish); settings an option does not use
(:func:`setting_cases`: every other choice of a choice parameter, the keywords a ``**kwargs``
callable forwards, and a made-up keyword); and scaling (:data:`SCALE_INVARIANT`: the same answer
for the problem times a constant, or a clear refusal).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import inspect
import math
import numbers
import re
import signal
import warnings
from collections import Counter
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from cases import EXEMPT, PACKAGES, baselines

#: outcome of one bad call
CLEAR, SILENT, RAW, HANG = "clear", "silent", "raw", "hang"
TALLY: Counter = Counter()          # outcome -> number of calls (printed by conftest at the end)
KINDS: Counter = Counter()          # (kind of the sweep, outcome) -> number of calls, for issue 47's kinds
CALLS: set = set()                  # distinct (case, bad value) pairs actually called
EQUIV: Counter = Counter()          # equivalent-value calls: "same", "different", "refused", "not deterministic"

SEED_NAMES = {"rng", "seed"}
#: (callable, parameter) of targets that must be feasible: a value far outside is refused with the
#: distance to the feasible set in the message (issue 29)
TARGETS = {
    ("herding.maxent_distribution", "mu"),
    ("herding.independent_maxent", "mean"),
    ("experiment.herding.state_curves", "mu"),
    ("experiment.herding.herding_record", "mu"),
}
#: (callable, parameter) -> (what the domain is, a valid value moved off it): values a parameter's
#: kind allows but its meaning does not (issue 47: states that are not +-1)
DOMAINS = {
    ("herding.independent_maxent", "states"): ("states in {-1, 1}", lambda v: _spoil_entry(v, 0.5)),
}
#: the kind of a parameter that defaults to ``None`` read from its annotation (``float | None``)
ANNOTATION_KINDS = {"float": "real", "int": "int", "bool": "flag"}
#: callables whose return value is ignored (NaN from them is harmless)
CALLBACK_NAMES = {"callback"}
#: matrix parameters that also accept a scipy.sparse matrix or a LinearOperator (same answer)
OPERATOR_PARAMS = {"A"}
#: (callable, parameter) -> what is *valid* beyond the kind's default (drops those bad values) or
#: ``None`` to leave the parameter out of the sweep, with the reason.
OVERRIDES = {
    ("spectral.operators.as_operator", "name"): None,   # a label for messages: any string is fine
    ("spectral.check_symmetric", "name"): None,
    ("fw.make_step_rule", "name"): None,
    ("spectral.operators.MatrixOperator", "name"): None,
    ("spectral.get_function", "argument"): None,
    ("spectral.spectral_sum_grad", "dA"): {"empty"},        # no parameters: an empty gradient
    ("spectral.grad_recursion", "dA"): {"empty"},
    ("spectral.derivative_moments", "dA"): {"empty"},
    ("spectral.cg_logdet_grad", "dA"): {"empty"},
    ("spectral.replicated_grad_estimates", "dA"): {"empty"},
    ("spectral.project_box", "high"): {"inf"},
    ("spectral.box_projection", "high"): {"inf"},
    ("experiment.coresets.trial_seeds", "dataset"): None,   # a label mixed into the seed: any string is fine
    ("herding.bernoulli_polynomial", "u"): {"any_ndim", "empty"},   # elementwise
    ("spectral.chebyshev_eval", "x"): {"any_ndim", "empty"},
    ("spectral.keys_cubic", "s"): {"any_ndim", "empty"},
    ("spectral.project_box", "x"): {"any_ndim", "empty"},
    ("herding.fourier_weight", "m"): {"any_ndim", "empty"},
    ("coresets.refit.nnls_on_support", "support"): {"empty"},  # the empty support: w = 0
    ("coresets.iht.exact_step", "idx"): {"empty"},
    ("coresets.projection.support_expansion", "z_support"): {"empty"},
    ("coresets.iht", "step"): {"number"},                      # a positive float step is allowed
    ("herding.sobolev_kernel", "x"): {"empty"},                # kernel matrices of no points are empty
    ("herding.sobolev_kernel", "y"): {"empty"},
    ("herding.sobolev_kernel_fourier", "x"): {"empty"},
    ("herding.sobolev_kernel_fourier", "y"): {"empty"},
    ("herding.pairwise_features", "x"): {"empty"},
    ("experiment.boosting.random_lmo_step", "dims"): {"large"},   # a 10**6-dimensional target is allowed (and slow)
    ("spectral.project_box", "low"): {"inf"},                 # an open side of the box
    ("spectral.box_projection", "low"): {"inf"},
    ("spectral.optim.make_step", "step"): {"number"},         # a positive float step is allowed
    ("experiment.herding.exp_rate", "t_max"): {"inf"},
    ("experiment.herding.log_slope", "t_max"): {"inf"},
    ("experiment.herding.power_fit", "t_max"): {"inf"},
    ("experiment.spectral.faster", "fast"): {"nan"},       # NaN: the target was never reached
    ("experiment.spectral.faster", "slow"): {"nan"},
    ("experiment.spectral.time_to", "missing"): {"nan", "inf"},   # the value returned when never reached
    ("experiment.spectral.time_to_stay", "missing"): {"nan", "inf"},
    ("experiment.spectral.time_to_stay", "until"): {"inf"},       # no budget: read to the run's end
    ("experiment.spectral.stays_below", "until"): {"inf"},
    ("experiment.spectral.stays_below", "metric"): {"nan", "inf"},   # a diverged run's trace
    ("experiment.spectral.censored_ratio", "slow"): {"inf"},      # inf: not reached within the budget
    ("experiment.spectral.censored_ratio", "fast"): {"inf"},
    # issue 29: index arrays that are not sets (paired coordinates, grids of sizes, shapes)
    ("spectral.MatrixCompletion", "rows"): {"repeated", "ordered"},     # paired with cols: repeats are data
    ("spectral.MatrixCompletion", "cols"): {"repeated", "ordered"},
    ("spectral.rmse", "rows"): {"repeated", "ordered"},
    ("spectral.rmse", "cols"): {"repeated", "ordered"},
    ("spectral.MatrixCompletion", "shape"): {"large", "ordered"},   # a 3 x 10**6 matrix is allowed
    ("coresets.coreset_path", "ks"): {"repeated"},          # a grid of sizes: returned sorted and unique (documented)
    ("experiment.coresets.run_methods", "ks"): {"repeated"},
    ("experiment.coresets.conjugate_trial", "ks"): {"repeated"},
    ("experiment.coresets.run_conjugate_trials", "ks"): {"repeated"},
    # callables whose value is not a number: a NaN-valued stand-in says nothing
    ("experiment.coresets.run_conjugate_trials", "make_model"): {"not_numeric"},   # returns a model
    ("experiment.spectral.select_regime", "make_problem"): {"not_numeric"},   # returns a problem (its type is checked)
    # the user's function is called lazily (by matmat / column_block, which check its values): the
    # constructor cannot see NaN; test_issue29_examples checks the values at use
    ("spectral.CallableOperator", "matmat"): {"lazy"},
    ("fw.QuadraticHull", "columns"): {"lazy"},
    ("herding.herd", "snapshots"): {"repeated"},            # a set of sizes
    ("experiment.herding.sobolev_curves", "proj_sizes"): {"repeated"},
    ("experiment.herding.state_curves", "checkpoints"): {"repeated"},
    ("experiment.herding.herding_record", "checkpoints"): {"repeated"},
    ("herding.projected_errors", "sizes"): {"repeated", "ordered"},    # one error per size, in the given order
    ("experiment.boosting.random_lmo_step", "dims"): {"large", "repeated", "ordered"},
    ("experiment.boosting.verdict_map", "name"): None,     # a free-form label: the open choice's name
    # callables whose value is positive by definition (a negative one is out of range)
    ("spectral.sgd", "step"): {"number", "positive"},
    ("spectral.svrg", "step"): {"number", "positive"},
    ("spectral.gd", "step"): {"number", "positive"},
}


@dataclass(frozen=True)
class Case:
    """One parameter of one public callable, with the kind of bad values it gets."""

    key: str            # "module.name" or "module.name#variant" (module relative to inferopt)
    param: str
    kind: str
    valid_repr: str
    optional: bool = False      # the parameter defaults to None (its value in the baseline is an extra)

    @property
    def id(self) -> str:
        return f"{self.key}:{self.param}"


def resolve(key: str):
    module, name = key.split("#")[0].rsplit(".", 1)
    return getattr(importlib.import_module(f"inferopt.{module}"), name)


def public_names(mod) -> list[str]:
    """A module's ``__all__``; without one, the public names it defines itself (not its imports)."""
    if hasattr(mod, "__all__"):
        return list(mod.__all__)
    return [name for name, obj in vars(mod).items()
            if not name.startswith("_") and getattr(obj, "__module__", None) == mod.__name__]


def public_callables() -> dict[str, object]:
    """``{"module.name": obj}`` for every public callable of the modules of :data:`PACKAGES`
    (constants excluded)."""
    out = {}
    for pkg in PACKAGES:
        mod = importlib.import_module(f"inferopt.{pkg}")
        for name in public_names(mod):
            obj = getattr(mod, name)
            if callable(obj) and not isinstance(obj, dict):
                out[f"{pkg}.{name}"] = obj
    return out


def parameters(obj) -> list[inspect.Parameter]:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [p for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def kind_of(name: str, value) -> str | None:
    """The kind of bad values a parameter gets, from its valid value."""
    if name in SEED_NAMES:
        return "seed" if value is None or isinstance(value, int) else None
    if isinstance(value, bool | np.bool_):
        return "flag"
    if isinstance(value, int | np.integer):
        return "int"
    if isinstance(value, float | np.floating):
        return "real"
    if isinstance(value, str):
        return "choice"
    if isinstance(value, np.ndarray | list | tuple) and len(value):
        if all(isinstance(v, str) for v in value):
            return "choices"
        try:
            arr = np.asarray(value)
        except ValueError:
            return None
        if arr.dtype.kind == "i":
            return "index"
        if arr.dtype.kind == "f":
            return "array"
    if value is None or isinstance(value, dict):
        return None
    if inspect.isfunction(value) or inspect.isbuiltin(value) or isinstance(value, np.ufunc | functools.partial):
        return "callable"
    return "object"     # a model, target, operator, table, callable ...: a wrong type must be named


def cases() -> list[Case]:
    out = []
    for key, factory in baselines().items():
        if factory is None:
            continue
        try:
            obj = resolve(key)
        except (AttributeError, ImportError):    # renamed or moved away: the coverage tests report it
            continue
        kwargs = factory()
        for p in parameters(obj):
            if (key.split("#")[0], p.name) in OVERRIDES and OVERRIDES[(key.split("#")[0], p.name)] is None:
                continue
            value = kwargs.get(p.name, p.default)
            if value is inspect.Parameter.empty:
                continue
            kind = kind_of(p.name, value)
            if kind == "int" and str(p.annotation).startswith("float"):
                kind = "real"       # an int default of a float parameter (e.g. t_min: float = 1)
            if value is None and p.default is None:
                kind = annotation_kind(p)       # issue 47: an optional number is swept as a number
            if kind is not None:
                out.append(Case(key, p.name, kind, repr(value)[:60], optional=p.default is None))
            if (key.split("#")[0], p.name) in TARGETS:
                out.append(Case(key, p.name, "target", repr(value)[:60]))
            if (key.split("#")[0], p.name) in DOMAINS:
                out.append(Case(key, p.name, "domain", repr(value)[:60]))
    return out


def annotation_kind(p: inspect.Parameter) -> str | None:
    """The kind of an optional parameter (default ``None``) named by its annotation ``T | None``."""
    parts = [part.strip() for part in str(p.annotation).split("|")]
    if len(parts) != 2 or "None" not in parts:
        return None
    return ANNOTATION_KINDS.get(next(part for part in parts if part != "None"))


def valid_value(case: Case):
    """The parameter's value in the baseline call (or its default)."""
    kwargs = baselines()[case.key]()
    if case.param in kwargs:
        return kwargs[case.param]
    return next(p.default for p in parameters(resolve(case.key)) if p.name == case.param)


def allowed(case: Case) -> set:
    return OVERRIDES.get((case.key.split("#")[0], case.param)) or set()


# --- bad values by kind (hypothesis strategies) ---------------------------------------------------
def bad_values(case: Case, valid) -> st.SearchStrategy:
    """A strategy of bad values for ``case`` given the valid value."""
    ok = allowed(case)
    if case.kind == "int":
        return st.sampled_from([True, 2.5, math.nan, math.inf, -7, "3", 1 + 1j])
    if case.kind == "seed":
        return st.sampled_from([-3, 2.5, "abc", 1j])
    if case.kind == "real":
        base = [1j, "0.5", True] + ([] if "nan" in ok else [math.nan])
        if "inf" not in ok:
            base += [math.inf, -math.inf]
        return st.sampled_from(base)
    if case.kind == "choice":
        return st.sampled_from(["no-such-option"] + ([] if "number" in ok else [3]))
    if case.kind == "object":
        return st.sampled_from(["abc", 3])
    if case.kind == "flag":
        return st.sampled_from(["yes", "no", 1, 0, None])
    if case.kind == "callable":
        bad = ["abc"] + ([] if "number" in ok else [3])
        if not ok & {"not_numeric", "lazy"} and case.param not in CALLBACK_NAMES:
            bad += [_returning_nan(valid), _returning_complex(valid)]
        if "positive" in ok:
            bad.append(_negated(valid))
        return st.sampled_from(bad)
    if case.kind == "target":
        return st.just(np.asarray(valid, dtype=float) + 10.0)
    if case.kind == "domain":
        return st.just(DOMAINS[(case.key.split("#")[0], case.param)][1](valid))
    if case.kind == "choices":
        return st.sampled_from([["no-such-option"], [3]])
    if case.kind == "index":
        arr = np.atleast_1d(np.asarray(valid))
        bad = [np.r_[arr[:-1], -1], arr + 0.5, arr.astype(bool), "abc"] + ([] if "large" in ok else [np.r_[arr[:-1], 10**6]])
        if "repeated" not in ok:
            bad.append(np.r_[arr, arr[:1]])
        if "empty" not in ok:
            bad.append(arr[:0])
        return st.sampled_from(bad)
    if case.kind == "array":
        arr = np.asarray(valid, dtype=float)
        return st.one_of(
            st.tuples(st.sampled_from([k for k in ("nan", "inf", "-inf", "complex") if k not in ok]),
                      st.integers(0, max(arr.size - 1, 0))).map(lambda t: _spoil(arr, *t)),
            st.sampled_from(_shape_spoilers(arr, ok) + (_length_spoilers(arr) if case.optional else [])),
        )
    raise AssertionError(case.kind)


def _nan_like(value):
    if isinstance(value, tuple | list):
        return type(value)(_nan_like(v) for v in value)
    return np.full(np.shape(value), np.nan)


def _returning_nan(fn):
    """A callable of ``fn``'s signature whose values have ``fn``'s shapes, all NaN."""
    def nan_fn(*args, **kwargs):
        return _nan_like(fn(*args, **kwargs))
    return nan_fn


def _returning_complex(fn):
    """A callable of ``fn``'s signature whose values are ``fn``'s plus an imaginary part (issue 47:
    ``chebyshev_coefficients`` of a complex-valued ``f`` returned numbers)."""
    def complex_fn(*args, **kwargs):
        out = fn(*args, **kwargs)
        if isinstance(out, tuple | list):
            return type(out)(np.asarray(o) + 1j for o in out)
        return np.asarray(out) + 1j
    return complex_fn


def _spoil_entry(value, entry):
    """``value`` as a float array with its first entry replaced by ``entry``."""
    out = np.array(value, dtype=float)
    out.reshape(-1)[0] = entry
    return out


def _negated(fn):
    def negated(*args, **kwargs):
        return -np.asarray(fn(*args, **kwargs), dtype=float)
    return negated


def _length_spoilers(arr: np.ndarray) -> list:
    """Wrong lengths for an optional array whose shape its companions fix (x0, theta, weights...)."""
    if arr.ndim == 0:
        return []
    return [np.concatenate([arr, arr[:1]]), arr[:-1] if len(arr) > 1 else np.concatenate([arr, arr])]


def _spoil(arr: np.ndarray, how: str, pos: int):
    out = arr.astype(complex if how == "complex" else float).copy()
    flat = out.reshape(-1)
    flat[pos] = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf}.get(how, flat[pos] + 1j)
    return out


def _shape_spoilers(arr: np.ndarray, ok: set) -> list:
    out = ["abc", np.full(arr.shape, "x")]
    if "empty" not in ok:
        out.append(np.zeros((0,) + arr.shape[1:]))
    if "any_ndim" not in ok:
        out.append(arr[..., None])
    return out


# --- one call, classified -------------------------------------------------------------------------
def names_argument(message: str, param: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(param)}(?![A-Za-z0-9_])", message) is not None


def call(case: Case, bad) -> tuple[str, str]:
    """Run ``case``'s callable with ``bad`` for its parameter; returns ``(outcome, detail)``."""
    obj = resolve(case.key)
    kwargs = baselines()[case.key]()
    kwargs[case.param] = bad
    CALLS.add((case.id, _key(bad)))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")         # a ComplexWarning or RuntimeWarning is numpy speaking
            obj(**kwargs)
    except (ValueError, TypeError) as exc:
        if names_argument(str(exc), case.param) and (case.kind != "target" or "distance" in str(exc)):
            outcome, detail = CLEAR, ""
        else:
            outcome, detail = RAW, f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # noqa: BLE001 - anything else is a raw failure
        outcome, detail = RAW, f"{type(exc).__name__}: {exc}"
    else:
        outcome, detail = SILENT, "returned without an error"
    TALLY[outcome] += 1
    return outcome, detail[:300]


def _key(bad) -> str:
    if isinstance(bad, np.ndarray):
        return f"{bad.dtype}{bad.shape}{np.array2string(bad.reshape(-1)[:50], threshold=60)}"
    return repr(bad)


def uncovered() -> list[str]:
    """Public callables neither in the baselines (under this or another of their public names,
    e.g. a package's re-export of its submodule's function) nor exempt nor without parameters."""
    table = {k.split("#")[0] for k in baselines()}
    swept = {id(resolve(key)) for key in table}    # a stale entry (renamed, moved) fails here, by name
    missing = []
    for key, obj in public_callables().items():
        if key in table or id(obj) in swept or key.rsplit(".", 1)[1] in EXEMPT or not parameters(obj):
            continue
        missing.append(key)
    return missing


# --- values that mean the same as the valid one (issue 29) ---------------------------------------
def equivalents(case: Case, valid) -> list[tuple[str, object]]:
    """``(label, value)`` pairs that must give the baseline's answer: ``np.bool_`` for a flag, an
    integral float and a numpy integer for an integer, the index set reversed, the matrix as a
    sparse matrix and as a ``LinearOperator`` (the same random stream whatever the type)."""
    ok = allowed(case)
    if case.kind == "flag" and valid is not None:
        return [("np.bool_", np.bool_(valid))]
    if case.kind == "int" and valid is not None:
        return [("float", float(valid)), ("np.int64", np.int64(valid))]
    if case.kind == "index" and "ordered" not in ok and np.size(valid) > 1:
        return [("reversed", np.asarray(valid)[::-1].copy())]
    if case.kind == "array" and case.param in OPERATOR_PARAMS and case.key.startswith("spectral"):
        arr = np.asarray(valid)
        if arr.ndim == 2 and arr.shape[0] == arr.shape[1]:
            import scipy.sparse as sp
            from scipy.sparse.linalg import aslinearoperator
            return [("sparse", sp.csr_matrix(arr)), ("LinearOperator", aslinearoperator(arr))]
    return []


def run(case: Case, value=None, *, replace: bool = True):
    """The baseline call, with ``value`` for ``case.param`` if ``replace``; an operator result is
    compared through its dense matrix (its type follows the input's)."""
    kwargs = baselines()[case.key]()
    if replace:
        kwargs[case.param] = value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = resolve(case.key)(**kwargs)
    if hasattr(out, "matmat") and hasattr(out, "shape"):
        out = np.asarray(out.matmat(np.eye(out.shape[0])))
    return out


#: result fields that measure time (never equal from one call to the next)
TIMING = re.compile(r"^(times?|seconds|time_.*|.*_time|elapsed)$")


def same(a, b, depth: int = 0) -> bool:
    """Equal results up to rounding (``rtol`` 1e-9), timings and unpicklable internals aside."""
    import dataclasses

    import pandas as pd
    import scipy.sparse as sp

    if depth > 6:
        return True
    if a is None or b is None or isinstance(a, str | bytes):
        return a == b if not (a is None) ^ (b is None) else False
    if sp.issparse(a) or sp.issparse(b):
        return sp.issparse(a) and sp.issparse(b) and same(a.toarray(), b.toarray(), depth + 1)
    if isinstance(a, pd.DataFrame | pd.Series):
        if type(a) is not type(b):
            return False
        if isinstance(a, pd.DataFrame):
            keep = [c for c in a.columns if not TIMING.match(str(c))]
            a, b = a[keep], b[[c for c in b.columns if not TIMING.match(str(c))]]
        try:
            pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=1e-9) if isinstance(a, pd.DataFrame) \
                else pd.testing.assert_series_equal(a, b, check_exact=False, rtol=1e-9)
        except AssertionError:
            return False
        return True
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            TIMING.match(str(k)) or same(a[k], b[k], depth + 1) for k in a)
    if isinstance(a, tuple | list):
        return isinstance(b, tuple | list) and len(a) == len(b) and all(same(x, y, depth + 1) for x, y in zip(a, b))
    if isinstance(a, numbers.Number | np.ndarray | np.generic):
        try:
            x, y = np.asarray(a), np.asarray(b)
        except Exception:  # noqa: BLE001
            return False
        if x.shape != y.shape:
            return False
        if x.dtype.kind in "biufc" and y.dtype.kind in "biufc":
            return bool(np.allclose(x, y, rtol=1e-9, atol=1e-12, equal_nan=True))
        return all(same(p, q, depth + 1) for p, q in zip(x.reshape(-1), y.reshape(-1)))
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(TIMING.match(f.name) or same(getattr(a, f.name), getattr(b, f.name), depth + 1)
                                          for f in dataclasses.fields(a))
    if callable(a) or isinstance(a, np.random.Generator):
        return True     # functions and generators: not comparable by value
    if hasattr(a, "__dict__"):
        return type(a) is type(b) and same(vars(a), vars(b), depth + 1)
    return a == b


# --- issue 47: sizes no machine holds ------------------------------------------------------------
#: sizes of the third round: 2**40 reached numpy's allocator, 2**62 made herd run with no end in sight
HUGE = (2**40, 2**62)
#: seconds a call with a huge size may take: it must refuse it, announce its length or finish by then
HUGE_SECONDS = 5.0
ANNOUNCED = "announced"     # a LongCallWarning: the call said how long it will take


class Hang(Exception):
    """Raised by the time guard of :func:`guarded`."""


@contextlib.contextmanager
def time_guard(seconds: float):
    """Raise :class:`Hang` in the calling thread after ``seconds`` (SIGALRM; the sweep runs on Unix)."""
    def stop(signum, frame):
        raise Hang(f"still running after {seconds:g} s")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def size_cases() -> list[Case]:
    """Every integer parameter: each gets the :data:`HUGE` sizes."""
    return [c for c in cases() if c.kind == "int" and "huge" not in allowed(c)]


def guarded(kind: str, case: Case, value, *, names=None, seconds: float = HUGE_SECONDS,
            returned: str = SILENT, base: dict | None = None, extra: dict | None = None) -> tuple[str, str]:
    """Run ``case``'s callable with ``value`` for its parameter (over ``base``, default the baseline,
    plus ``extra`` keywords), warnings as errors, under a time guard; ``(outcome, detail)``:
    a ``ValueError``/``TypeError`` naming one of ``names`` (default the parameter) is clear, a
    :class:`~inferopt.LongCallWarning` is announced, a return is ``returned``, running past
    ``seconds`` a hang, anything else raw. Counted in :data:`KINDS` under ``kind``."""
    from inferopt import LongCallWarning

    names = names or [case.param]
    kwargs = dict(baselines()[case.key]() if base is None else base)
    if case.param:
        kwargs[case.param] = value
    kwargs.update(extra or {})
    try:
        with warnings.catch_warnings(), time_guard(seconds):
            warnings.simplefilter("error")
            resolve(case.key)(**kwargs)
    except LongCallWarning as exc:
        outcome, detail = ANNOUNCED, str(exc)
    except Hang as exc:
        outcome, detail = HANG, str(exc)
    except (ValueError, TypeError) as exc:
        clear = any(names_argument(str(exc), n) for n in names)
        outcome, detail = (CLEAR, "") if clear else (RAW, f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # noqa: BLE001 - anything else is a raw failure
        outcome, detail = RAW, f"{type(exc).__name__}: {exc}"
    else:
        outcome, detail = returned, "returned without an error"
    KINDS[(kind, outcome)] += 1
    return outcome, detail[:300]


# --- issue 47: settings an option does not use ---------------------------------------------------
#: callables that pass their ``**kwargs`` on: the callable whose keywords they accept (followed on)
FORWARDS = {
    "boosting.boost": "boosting.make_step",
    "experiment.boosting.random_lmo_step": "boosting.make_step",
    "experiment.boosting.run_replicate": "boosting.boost",
    "experiment.boosting.compare_methods": "boosting.boost",
}
#: the keywords a forwarding callable sets itself (never the caller's)
SET_BY_CALLER = {"target", "step", "rng", "lmo", "evaluate", "max_iter", "progress"}
#: one bad value per kind (never valid for it, whatever the parameter's range): a setting that is used
#: refuses it, one that is ignored lets it pass
ONE_BAD = {"int": "3", "real": "0.5", "choice": "no-such-option", "flag": "yes", "object": "abc", "callable": "abc",
           "seed": "abc", "choices": ["no-such-option"], "index": "abc", "array": "abc"}
#: a keyword no callable has
MADE_UP = "no_such_setting"


def options_of(case: Case) -> list[str]:
    """The options of a choice parameter, read from its refusal of an unknown one (``[]`` if none is said)."""
    try:
        with warnings.catch_warnings(), time_guard(HUGE_SECONDS):
            warnings.simplefilter("ignore")
            resolve(case.key)(**{**baselines()[case.key](), case.param: "no-such-option"})
    except (ValueError, TypeError) as exc:
        found = re.search(r"must be one of (\[[^\]]*\])", str(exc))
        if found:
            try:
                return [o for o in ast.literal_eval(found.group(1)) if isinstance(o, str)]
            except (ValueError, SyntaxError):
                return []
    except Exception:  # noqa: BLE001 - no options to read
        return []
    return []


def forwarded(key: str) -> dict[str, str]:
    """``{keyword: kind}`` of the keywords ``key`` passes on through ``**kwargs`` (:data:`FORWARDS`)."""
    out = {}
    target = FORWARDS.get(key.split("#")[0])
    own = {p.name for p in parameters(resolve(key))}
    while target:
        for p in parameters(resolve(target)):
            if p.name in own or p.name in SET_BY_CALLER or p.name in out:
                continue
            kind = kind_of(p.name, p.default) if p.default is not None else annotation_kind(p)
            if kind in ONE_BAD:
                out[p.name] = kind
        target = FORWARDS.get(target)
    return out


@dataclass(frozen=True)
class Setting:
    """One setting given where it may be ignored: ``param`` (of kind ``kind``) on the baseline of
    ``key`` with ``choice`` (``"param=option"`` or ``""`` for the baseline itself)."""

    key: str
    choice: str
    param: str
    kind: str

    @property
    def id(self) -> str:
        return f"{self.key}[{self.choice or 'baseline'}]:{self.param}"

    def base(self) -> dict:
        kwargs = baselines()[self.key]()
        if self.choice:
            name, option = self.choice.split("=", 1)
            kwargs[name] = option
        return kwargs


@functools.cache
def setting_cases() -> list[Setting]:
    """Every setting given a bad value where an option may ignore it: for each other option of a
    choice parameter (whose baseline call runs), every other parameter; for a callable with
    ``**kwargs``, the keywords it passes on (:data:`FORWARDS`) and a made-up one (:data:`MADE_UP`)."""
    by_key: dict[str, list[Case]] = {}
    for c in cases():
        by_key.setdefault(c.key, []).append(c)
    out = []
    for key, own in by_key.items():
        variants = [""]
        for c in own:
            if c.kind != "choice" or (key.split("#")[0], c.param) in NOT_SELECTORS:
                continue
            valid = valid_value(c)
            for option in options_of(c):
                if option != valid and _runs(key, {c.param: option}):
                    variants.append(f"{c.param}={option}")
        extra = forwarded(key)
        for choice in variants:
            chosen = choice.split("=", 1)[0]
            if choice:
                out += [Setting(key, choice, c.param, c.kind) for c in own
                        if c.param != chosen and c.kind in ONE_BAD]
            out += [Setting(key, choice, name, kind) for name, kind in extra.items()]
        if any(p.kind == p.VAR_KEYWORD for p in inspect.signature(resolve(key)).parameters.values()):
            out.append(Setting(key, "", MADE_UP, "int"))
    return out


#: choice parameters that do not select an option with settings of its own (a label, a metric name)
NOT_SELECTORS = {("experiment.coresets.best_method", "metric"), ("experiment.coresets.medians", "metric"),
                 ("experiment.coresets.trial_matrix", "metric"), ("experiment.coresets.win_fraction", "metric"),
                 ("experiment.coresets.trial_matrix", "dataset"), ("experiment.coresets.trial_matrix", "method"),
                 ("experiment.coresets.time_ratio", "numerator"), ("experiment.coresets.time_ratio", "denominator"),
                 ("experiment.boosting.summary_table", "reference")}


def _runs(key: str, change: dict) -> bool:
    """Does the baseline call of ``key`` with ``change`` run (quickly, without an error)?"""
    try:
        with warnings.catch_warnings(), time_guard(HUGE_SECONDS):
            warnings.simplefilter("ignore")
            resolve(key)(**{**baselines()[key](), **change})
    except Exception:  # noqa: BLE001 - an option that needs other arguments: not a variant
        return False
    return True


def call_setting(s: Setting) -> tuple[str, str]:
    """The baseline of ``s`` with the bad value of its kind for its setting: clear when refused by name."""
    case = Case(s.key, s.param, s.kind, "")
    value = 1 if s.param == MADE_UP else ONE_BAD[s.kind]
    return guarded("setting", case, value, base=s.base(), returned=SILENT)


# --- issue 47: scaling ---------------------------------------------------------------------------
def _weights(result):
    return np.asarray(result.x, dtype=float)


#: callables whose answer does not change when their problem is multiplied by a constant ``c``:
#: ``key -> (the parameters multiplied by c, the part of the result compared)``. A coreset problem
#: ``(c Phi, c y)`` has the weights of ``(Phi, y)``; a hull problem ``(c gram, c c, c b_sqnorm)`` the
#: simplex weights of ``(gram, c, b_sqnorm)``.
SCALE_INVARIANT = {
    **{f"coresets.{name}": (("Phi", "y"), _weights)
       for name in ("iht", "a_iht", "a_iht_ii", "a_iht_batch", "giga", "uniform", "hilbert_frank_wolfe")},
    "coresets.coreset_path": (("Phi", "y"), lambda r: r[1]),
    "coresets.refit": (("Phi", "y"), np.asarray),
    "coresets.refit.nnls_on_support": (("Phi", "y"), np.asarray),
}
#: callables whose answer depends on the problem's scale by definition (a step size or an absolute
#: tolerance in the problem's units: SparseVI's steps, the hull solvers' ``tol`` on the duality gap):
#: a scaled problem must give a finite answer without warnings, or a clear refusal
SCALE_DEPENDENT = {"coresets.sparsevi": ("Phi", "y"), "fw.hull_quadratic": ("V", "b"),
                   "fw.hull_quadratic#gram": ("gram", "c", "b_sqnorm"), "fw.simplex_reweight": ("gram", "c", "b_sqnorm")}
#: the constants of the third round: a_iht_ii returned w = 0 at 1e160 and 1e-310, giga changed at 1e-200
SCALES = (1e160, 1e-200, 1e-310)


def scale_cases() -> list[tuple[str, float]]:
    return [(key, c) for key in (*SCALE_INVARIANT, *SCALE_DEPENDENT) for c in SCALES]


def call_scaled(key: str, c: float) -> tuple[str, str]:
    """The baseline of ``key`` with its problem multiplied by ``c``: clear when the answer is the one
    for the same numbers brought back to scale 1 by the power of two nearest ``1/c`` (an exact
    multiplication: the reference is the solver at an ordinary scale, on exactly the data the scaled
    call got, so rounding in ``x * c`` and the problem's own conditioning cannot make a difference) --
    or, for a scale-dependent callable, finite -- or when refused naming a scaled parameter."""
    params, compare = SCALE_INVARIANT.get(key, (SCALE_DEPENDENT.get(key), None))
    kwargs = baselines()[key]()
    scaled = {p: (np.asarray(kwargs[p], dtype=float) * c if np.ndim(kwargs[p]) else float(kwargs[p]) * c)
              for p in params}
    back = -round(math.log2(c))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = resolve(key)(**{**kwargs, **{p: np.ldexp(v, back) for p, v in scaled.items()}})
    out = {}

    def check():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                out["result"] = resolve(key)(**{**kwargs, **scaled})
        except (ValueError, TypeError) as exc:
            if not any(names_argument(str(exc), p) for p in params):
                raise
            return
    try:
        check()
    except Exception as exc:  # noqa: BLE001
        KINDS[("scaling", RAW)] += 1
        return RAW, f"{type(exc).__name__}: {exc}"[:300]
    if "result" not in out:
        KINDS[("scaling", CLEAR)] += 1
        return CLEAR, ""
    if compare is None:
        ok = _finite(out["result"])
        detail = "" if ok else "a non-finite answer"
    else:
        a, b = np.asarray(compare(first), dtype=float), np.asarray(compare(out["result"]), dtype=float)
        ok = a.shape == b.shape and bool(np.allclose(b, a, rtol=1e-6, atol=1e-9 * max(1.0, float(np.abs(a).max()))))
        detail = "" if ok else f"weights {np.array2string(b, precision=4)} instead of {np.array2string(a, precision=4)}"
    outcome = CLEAR if ok else SILENT
    KINDS[("scaling", outcome)] += 1
    return outcome, detail


def _finite(result) -> bool:
    x = getattr(result, "x", result)
    return bool(np.all(np.isfinite(np.asarray(x, dtype=float))))
