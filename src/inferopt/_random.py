"""The one way a seed becomes a random generator, shared by every package.

Every function that draws random numbers takes ``rng`` and passes it through
:func:`as_generator`: a ``numpy.random.Generator`` is used as it is (the caller's
stream continues), a non-negative integer seed or a ``numpy.random.SeedSequence``
starts a fresh stream, and ``None`` draws fresh entropy from the operating system
(only for interactive use: experiments pass a seed from their parameters).
"""

from __future__ import annotations

import numbers

import numpy as np


def as_generator(rng=None, name: str = "rng") -> np.random.Generator:
    """``rng`` as a ``numpy.random.Generator``: a Generator is used as it is, a non-negative
    integer seed (or a sequence of them) or a ``SeedSequence`` starts a fresh stream, ``None``
    draws fresh entropy. Anything else (a float, a string, a negative or boolean seed) raises
    ``ValueError`` naming the argument ``name``."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    if isinstance(rng, list | tuple | np.ndarray) and len(rng) and all(
            isinstance(r, numbers.Integral | np.integer) and not isinstance(r, bool | np.bool_) and r >= 0 for r in rng):
        return np.random.default_rng(rng)     # entropy given as a sequence of integers
    if isinstance(rng, bool | np.bool_) or not isinstance(rng, numbers.Integral | np.integer) or rng < 0:
        raise ValueError(f"{name} must be a numpy.random.Generator, a non-negative integer seed (or a sequence "
                         f"of them), a SeedSequence or None; got {rng!r}")
    return np.random.default_rng(int(rng))
