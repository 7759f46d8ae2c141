"""Independent random streams for the runs of the spectral experiments (D3-D5).

Every randomised run draws from its own :class:`numpy.random.SeedSequence`, keyed by the parameters' ``seed`` and
the labels that name it (experiment, dataset, method, seed index): ``SeedSequence(seed, spawn_key=(crc32(label),
...))``. Two runs share a stream only if all their labels agree, so D3's runs and D4's are independent evidence
(issue 41: D4's optimal-degree arm was D3's SGD stream, ``SeedSequence(0).spawn(16)[0] ==
SeedSequence([0, 0]).spawn(3)[0]``), and a run's draws do not depend on which other runs are made.
"""

from __future__ import annotations

import zlib

import numpy as np

from ..._validation import check_int


def run_stream(seed: int, *labels) -> np.random.SeedSequence:
    """The seed sequence of the run named by ``labels`` (strings or integers, at least one) under ``seed``."""
    seed = check_int("seed", seed, low=0)
    if not labels:
        raise ValueError("a run's stream needs at least one label (its experiment)")
    key = []
    for i, label in enumerate(labels):
        if isinstance(label, bool) or not isinstance(label, str | int | np.integer):
            raise TypeError(f"labels[{i}] must be a string or an integer; got {type(label).__name__} {label!r}")
        key.append(zlib.crc32(label.encode()) if isinstance(label, str) else check_int(f"labels[{i}]", label, low=0))
    return np.random.SeedSequence(seed, spawn_key=tuple(key))
