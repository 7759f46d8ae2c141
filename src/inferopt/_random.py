"""The one way a seed becomes a random generator, shared by every package.

Every function that draws random numbers takes ``rng`` and passes it through
:func:`as_generator`: a ``numpy.random.Generator`` is used as it is (the caller's
stream continues), a non-negative integer seed or a ``numpy.random.SeedSequence``
starts a fresh stream, and ``None`` draws fresh entropy from the operating system
(only for interactive use: experiments pass a seed from their parameters).
"""

from __future__ import annotations

import numbers
import zlib

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


def named_stream(rng: np.random.Generator, name: str) -> np.random.Generator:
    """A generator for the draws of the method ``name``, independent of ``rng``'s stream and
    of every other name's: seeded by ``rng``'s seed sequence and the CRC-32 of ``name``, without
    drawing from ``rng`` or spawning from it. A method added to a run (a researcher's own,
    :func:`inferopt.experiment.register_method`) thus leaves the draws of the others unchanged."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string; got {name!r}")
    ss = as_generator(rng).bit_generator.seed_seq
    key = (*ss.spawn_key, 0x5EED, zlib.crc32(name.encode()))
    return np.random.default_rng(np.random.SeedSequence(ss.entropy, spawn_key=key))
