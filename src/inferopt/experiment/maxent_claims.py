"""Deciding statistics of paper B's Fig. 6 (experiment B4, Bach, Lacoste-Julien & Obozinski 2012, Sec. 5.3) that
read a run as the figure's panels show it, beside :mod:`.herding_claims` (which holds B4's other statistics):

* :func:`capped_dips` -- B4.3, the moment-error panel: every dip of an error record read at most ``depth`` decades
  deep below its local envelope, one rule for an exact return to the means (error 0) and a near-return alike; the
  record then goes to :func:`~.herding_claims.excess_log_variation`;
* :func:`zero_share`, :func:`many_zeros`, :func:`state_curves_zeros` -- B4.4-zeros ("many states have probability
  zero"): the share of the 2^d states at (near) zero probability along a run.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import as_finite_array, check_int, check_real


def capped_dips(errors, depth: float, window: int = 2) -> np.ndarray:
    """B4.3's panel 2 on Fig. 6's log axis: each error read at no less than ``10**-depth`` times its local envelope (the
    largest error within ``window`` iterations either side), so that every dip counts at most ``depth`` decades down
    and back. An exact return (error 0, or at rounding) and a near-return just above the LMO's resolution are scored by
    the same rule; a dip shallower than ``depth`` keeps its depth; a monotone record is unchanged."""
    x = as_finite_array("errors", errors, ndim=1, nonempty=True)
    if (x < 0).any():
        raise ValueError("capped_dips reads errors: they must be non-negative")
    depth, window = check_real("depth", depth, low=0.0), check_int("window", window, low=1)
    padded = np.pad(x, window, mode="edge")
    envelope = np.max(np.lib.stride_tricks.sliding_window_view(padded, 2 * window + 1), axis=1)
    return np.maximum(x, envelope * 10.0 ** -depth)


def zero_share(p, zero: float) -> float:
    """B4.4-zeros ("many states have probability zero"): the share of the states (entries of the distribution ``p``)
    whose probability is at most ``zero``."""
    p = as_finite_array("p", p, ndim=1, nonempty=True)
    if (p < 0).any():
        raise ValueError("zero_share reads a distribution: its probabilities must be non-negative")
    return float((p <= check_real("zero", zero, low=0.0)).mean())


def many_zeros(share: float, cut: float) -> bool:
    """B4.4-zeros: at least a share ``cut`` of the states are at (near) zero probability (:func:`zero_share`)."""
    share = check_real("share", share, low=0.0, high=1.0)
    return bool(share >= check_real("cut", cut, low=0.0, high=1.0, low_open=True))


def state_curves_zeros(features, mu, p_star, n_points: int, step: str, checkpoints, zeros=(1e-12,)) -> pd.DataFrame:
    """B4.4-zeros: :func:`~.herding.state_curves`' table with, per checkpoint, the share of the states at (near) zero
    probability (:func:`zero_share`) at each level of ``zeros``, in columns ``zeros <= level`` (``{level:g}``), and at
    ``p_star``'s smallest probability, in the column ``zeros <= p* min``."""
    from .herding import _state_run
    table, res = _state_run(features, mu, p_star, n_points, step, checkpoints)
    snaps = [p for _, p in sorted(res.snapshots.items())]
    p_min = float(np.min(np.asarray(p_star, dtype=float)))
    for z in zeros:
        table[f"zeros <= {z:g}"] = [zero_share(p, z) for p in snaps]
    table["zeros <= p* min"] = [zero_share(p, p_min) for p in snaps]
    return table
