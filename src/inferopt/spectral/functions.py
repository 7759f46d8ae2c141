"""Named analytic functions of the paper's experiments, with their nearest real singularity.

The singularity fixes the Bernstein-ellipse parameter ``rho`` (``chebyshev.bernstein_rho``);
entire functions (``exp``) have none, and their ``rho`` is fitted from the coefficients.
"""

from __future__ import annotations

import numpy as np

#: name -> (vectorised function, real singularity or None for an entire function)
FUNCTIONS = {
    "log": (np.log, 0.0),
    "sqrt": (np.sqrt, 0.0),
    "exp": (np.exp, None),
}


def get_function(name: str):
    """``(f, singularity)`` for a named function; a clear error lists the names."""
    try:
        return FUNCTIONS[name]
    except KeyError:
        raise ValueError(f"unknown function {name!r}; known: {sorted(FUNCTIONS)}") from None
