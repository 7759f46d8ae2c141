"""The one way a seed becomes a random generator, shared by every package.

Every function that draws random numbers takes ``rng`` and passes it through
:func:`as_generator`: a ``numpy.random.Generator`` is used as it is (the caller's
stream continues), a non-negative integer seed or a ``numpy.random.SeedSequence``
starts a fresh stream, and ``None`` draws fresh entropy from the operating system
(only for interactive use: experiments pass a seed from their parameters).
"""

from __future__ import annotations

import numpy as np


def as_generator(rng=None) -> np.random.Generator:
    """``rng`` as a ``numpy.random.Generator`` (a Generator, a seed ``>= 0``, a SeedSequence or None)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    if isinstance(rng, bool) or not isinstance(rng, int | np.integer):
        raise TypeError(f"rng must be a numpy.random.Generator, a non-negative int seed, a SeedSequence or None; "
                        f"got {type(rng).__name__}")
    if rng < 0:
        raise ValueError(f"rng must be a non-negative seed; got {rng}")
    return np.random.default_rng(int(rng))
