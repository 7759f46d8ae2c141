"""Synthetic data of the shape of the paper's radial-basis regression (Sec. 5.2): a second data
set beside the stand-in, so that a verdict blamed on the stand-in data can be tested.

The paper regresses the log-price of UK house sales on their postcode coordinates (data we do
not have; A3 uses California housing). :func:`uk_shaped_prices` draws records of the same form:
coordinates over the UK's extent and a log10 price that is a smooth surface of the same kind
as the model's bases (Gaussian bumps at the paper's scales, 0.2 to 2 degrees) plus noise.
"""

from __future__ import annotations

import numpy as np

from ..._random import as_generator
from ..._validation import check_int

#: longitude and latitude ranges (degrees) of the records: the extent of Great Britain
UK_EXTENT = ((-6.0, 2.0), (50.0, 58.0))
#: the paper's basis scales (degrees), which the surface's bumps take
SCALES = (0.2, 0.4, 0.8, 1.2, 1.6, 2.0)


def uk_shaped_prices(n_records: int, rng=None, *, n_bumps: int = 30, level: float = 5.3, spread: float = 0.25,
                     noise: float = 0.15) -> tuple[np.ndarray, np.ndarray]:
    """``(coords (n_records, 2), log10 prices (n_records,))``: coordinates uniform over
    :data:`UK_EXTENT`; prices ``level + spread · s(x) / std(s) + noise · ε`` with ``s`` a sum of
    ``n_bumps`` Gaussian bumps ``±exp(-|x - c|² / 2σ²)`` (centres uniform over the extent, ``σ``
    drawn from :data:`SCALES`) and ``ε`` standard normal."""
    rng = as_generator(rng)
    n_records = check_int("n_records", n_records, low=2)
    n_bumps = check_int("n_bumps", n_bumps, low=1)
    lo, hi = np.array(UK_EXTENT).T
    coords = lo + (hi - lo) * rng.random((n_records, 2))
    centres = lo + (hi - lo) * rng.random((n_bumps, 2))
    sigma = rng.choice(SCALES, size=n_bumps)
    signs = rng.choice([-1.0, 1.0], size=n_bumps)
    d2 = ((coords[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    s = (signs * np.exp(-d2 / (2 * sigma**2))).sum(axis=1)
    s = (s - s.mean()) / s.std()
    return coords, level + spread * s + noise * rng.standard_normal(n_records)
