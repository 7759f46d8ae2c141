"""Claims: a paper's qualitative statement, checked against numbers just measured.

A :class:`Claim` carries the numbers its verdict was computed from; the verdict is
``holds`` or ``fails`` from a boolean the notebook computes, or ``not measured``.
The claims of every experiment end up in ``reports/metrics/<id>.json`` and in the
scorecard of ``reports/index.html``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

VERDICTS = ("holds", "fails", "not measured")


@dataclass
class Claim:
    id: str
    target: str
    text: str
    verdict: str
    measured: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}; got {self.verdict!r}")

    def to_dict(self) -> dict:
        return to_jsonable(asdict(self))


def verdict(holds) -> str:
    """``holds`` / ``fails`` from a measured boolean (numpy booleans accepted)."""
    if holds is None:
        return "not measured"
    if not isinstance(holds, bool | np.bool_):
        raise ValueError(f"a claim's outcome must be a boolean computed from measurements; got {holds!r}")
    return "holds" if bool(holds) else "fails"


def to_jsonable(value):
    """Recursively turn numpy scalars/arrays and tuples into JSON-friendly values,
    rounding floats to 6 significant digits (reports compare numbers, not bits)."""
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        value = float(value)
        if not np.isfinite(value):
            return str(value)
        return float(f"{value:.6g}")
    return value
