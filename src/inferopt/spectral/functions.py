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


def get_function(name: str, *, argument: str = "name"):
    """``(f, singularity)`` for a named function; a clear error (naming ``argument``) lists the names."""
    if not isinstance(name, str) or name not in FUNCTIONS:
        raise ValueError(f"{argument} must be a known function name; unknown function {name!r}; known: {sorted(FUNCTIONS)}")
    return FUNCTIONS[name]
