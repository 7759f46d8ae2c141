"""The method registries a registration touches (:func:`inferopt.experiment.register_method`), saved
and restored around tests that register (other tests iterate ``STEPS``, ``SOLVERS``, ...)."""

from __future__ import annotations

import contextlib
import importlib


@contextlib.contextmanager
def restored_registries():
    """Save every registry, yield a function telling whether they are still as saved (nothing
    registered since), and restore them on exit."""
    from inferopt.coresets import path
    from inferopt.experiment import extra, methods

    boost_module = importlib.import_module("inferopt.boosting.boost")   # the package's `boost` is the function
    herding_module = importlib.import_module("inferopt.herding.herding")
    steps = [boost_module._REGISTERED, herding_module._REGISTERED]
    dicts = [path.SOLVERS, path.PER_K, path.GREEDY, methods._REGISTRY, extra._METHODS]
    dicts += [d for r in steps for d in (r.rules, r._given)]
    lists = [r.names for r in steps] + list(methods._ADDED.values())
    saved = [dict(d) for d in dicts], [list(v) for v in lists]

    def state():
        return [sorted(map(str, d)) for d in dicts], [list(v) for v in lists]

    before = state()
    try:
        yield lambda: state() == before
    finally:
        for d, value in zip(dicts, saved[0]):
            d.clear()
            d.update(value)
        for v, value in zip(lists, saved[1]):
            v[:] = value
