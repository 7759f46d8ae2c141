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
    integer seed or a ``SeedSequence`` starts a fresh stream, ``None``
    draws fresh entropy. Anything else raises, naming the argument ``name``: a float, a string
    or a boolean a ``TypeError``, a negative seed a ``ValueError``."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    if isinstance(rng, bool | np.bool_) or not isinstance(rng, numbers.Integral | np.integer):
        raise TypeError(f"{name} must be a numpy.random.Generator, a non-negative integer seed, a SeedSequence "
                        f"or None; got {type(rng).__name__} {rng!r}")
    if rng < 0:
        raise ValueError(f"{name} must be a non-negative seed; got {rng}")
    return np.random.default_rng(int(rng))


def side_stream(rng: np.random.Generator) -> np.random.Generator:
    """An independent child of ``rng`` for draws that only some inputs need (e.g. the randomised
    symmetry test of a matrix-free operator, which a dense matrix skips). Spawning does not
    advance ``rng``: the caller's draws, hence its results, are the same for the same seed
    whatever the matrix type (dense, sparse or ``LinearOperator``; issue 29)."""
    return rng.spawn(1)[0]
