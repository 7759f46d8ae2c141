"""A claim's verdict map: its test re-run over the settings a paper leaves open, and the
diagnosis it supports (:func:`~.claims.check_diagnosis`).

A claim that fails at our chosen setting earns the diagnosis ``paper`` only when it fails at
every setting of the map (at least :data:`~.claims.MIN_SWEEP`); a setting at which it holds is
named instead (kind ``setting``).
"""

from __future__ import annotations

from .claims import MIN_SWEEP, verdict


def cell(setting: dict, holds) -> dict:
    """One cell of a verdict map: ``{"setting", "verdict"}`` (``holds``: a measured boolean or None)."""
    if not isinstance(setting, dict) or not setting:
        raise TypeError(f"setting must be a non-empty mapping of the open choices; got {setting!r}")
    return {"setting": dict(setting), "verdict": verdict(holds)}


def map_diagnosis(cells, text: str) -> dict:
    """The diagnosis of a claim that does not hold at its chosen setting, from its verdict map
    ``cells`` (:func:`cell`; the chosen setting among them): ``setting`` naming where it holds,
    else ``paper``; ``text`` states what the measurements show. The map is the evidence."""
    cells = list(cells)
    if len(cells) < MIN_SWEEP:
        raise ValueError(f"a verdict map needs at least {MIN_SWEEP} settings; got {len(cells)}")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a sentence of evidence")
    holding = [c["setting"] for c in cells if c["verdict"] == "holds"]
    shown = lambda s: ", ".join(f"{k} = {v}" for k, v in s.items())
    if holding:
        return {"kind": "setting", "text": f"{text} It holds at {len(holding)} of {len(cells)} settings of the verdict map "
                f"({'; '.join(shown(s) for s in holding)}).", "evidence": {"sweep": cells}}
    return {"kind": "paper", "text": f"{text} It holds at none of the {len(cells)} settings of the verdict map "
            f"({'; '.join(shown(c['setting']) for c in cells)}).", "evidence": {"sweep": cells}}
