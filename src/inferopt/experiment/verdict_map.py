"""A claim's verdict map: its test re-run over the settings a paper leaves open, and the
diagnosis it supports (:func:`~.claims.check_diagnosis`).

A claim that fails at our chosen setting earns the diagnosis ``paper`` only when it fails at
every setting of the map (at least :data:`~.claims.MIN_SWEEP`); a setting at which it holds is
named instead (kind ``setting``). A cell may carry its bootstrap ``support`` (its verdict is then
``inconclusive`` below 90 % agreement), whose ``construction`` it runs (``ours`` / ``authors``) and on
which ``data`` (``paper``, ``paper-shape``, ``stand-in``) -- the fields the verdict engine (issue 40) reads.
"""

from __future__ import annotations

from .claims import MIN_SWEEP, verdict
from .support import supported_verdict

#: whose construction a cell runs, and on which data
CONSTRUCTIONS = ("ours", "authors")
DATA = ("paper", "paper-shape", "stand-in")


def cell(setting: dict, holds, *, support=None, construction=None, data=None) -> dict:
    """One cell of a verdict map: ``{"setting", "verdict"[, "support", "construction", "data"]}`` (``holds``: a
    measured boolean or None; with a bootstrap ``support`` the verdict is ``inconclusive`` below 90 % agreement)."""
    if not isinstance(setting, dict) or not setting:
        raise TypeError(f"setting must be a non-empty mapping of the open choices; got {setting!r}")
    out = {"setting": dict(setting), "verdict": verdict(holds)}
    if support is not None:
        if not isinstance(support, dict):
            raise TypeError(f"support must be a support mapping (inferopt.experiment.support); got {support!r}")
        out["support"] = dict(support)
        if holds is not None:
            out["verdict"] = supported_verdict(bool(holds), support)
    if construction is not None:
        if construction not in CONSTRUCTIONS:
            raise ValueError(f"construction must be one of {CONSTRUCTIONS}; got {construction!r}")
        out["construction"] = construction
    if data is not None:
        if data not in DATA:
            raise ValueError(f"data must be one of {DATA}; got {data!r}")
        out["data"] = data
    return out


def map_diagnosis(cells, text: str, *, no_authors_construction: str | None = None) -> dict:
    """The diagnosis of a claim that does not hold at its chosen setting, from its verdict map
    ``cells`` (:func:`cell`; the chosen setting among them): ``setting`` naming where it holds,
    else ``paper``; ``text`` states what the measurements show. The map is the evidence
    (``no_authors_construction``: why the experiment has no authors' construction, when it has none)."""
    cells = list(cells)
    if len(cells) < MIN_SWEEP:
        raise ValueError(f"a verdict map needs at least {MIN_SWEEP} settings; got {len(cells)}")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a sentence of evidence")
    evidence = {"sweep": cells}
    if no_authors_construction is not None:
        evidence["no_authors_construction"] = str(no_authors_construction)
    holding = [c["setting"] for c in cells if c["verdict"] == "holds"]
    shown = lambda s: ", ".join(f"{k} = {v}" for k, v in s.items())
    if holding:
        return {"kind": "setting", "text": f"{text} It holds at {len(holding)} of {len(cells)} settings of the verdict map "
                f"({'; '.join(shown(s) for s in holding)}).", "evidence": evidence}
    return {"kind": "paper", "text": f"{text} It holds at none of the {len(cells)} settings of the verdict map "
            f"({'; '.join(shown(c['setting']) for c in cells)}).", "evidence": evidence}
