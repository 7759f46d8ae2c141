"""A map-decided verdict against its claim-level readings and its construction cells (paper B, THE RULE's clauses 3-4).

A claim decided over a verdict map (``herding_claims.map_holds`` over the map's cells, THE RULE's clause 3) is read at
the claim's chosen cut-offs; the same map read at each other reading of a cut-off of ours (a tolerance, a slope cut, a
share: clause 4) and, where the experiment runs them, over construction cells (B5: random orders of the states, a
random pick among tied states) can say otherwise. :func:`map_reading_verdict` settles it once:

* the map undecided at the chosen reading: inconclusive (the map's own);
* the map's verdict turning at another claim-level reading (including a reading at which it is undecided):
  inconclusive, kind ``reading`` (clause 4);
* the construction cells undecided (some cell split over the random orders, or no verdict over them) where they were
  run and decide something: inconclusive, kind ``construction`` -- the claim cannot hold or fail on the chosen
  construction's cells alone;
* the construction cells failing where the chosen construction's map fails too agree; where the chosen map holds and
  the construction cells fail, the disagreement is inconclusive, kind ``construction`` (the rubric's ``construction``
  kind explains a failure of ours by our construction; it never turns a holding chosen cell into a failure); where
  the chosen map fails and the construction cells hold: fails, kind ``construction`` (both reported);
* otherwise the chosen reading's verdict.

B-only for now (paper B's stage B5 uses it); it is meant to move into :mod:`~.verdict_map`, the shared engine, with
the next change that re-runs every paper stage (editing the engine stales all of them).
"""

from __future__ import annotations

#: the construction cells were not run (or nothing in them is decisive): they do not enter the verdict
NOT_RUN = "not run"


def _three(v) -> bool | None:
    if v is None or isinstance(v, bool):
        return v
    if v in ("holds", "fails", "inconclusive"):
        return {"holds": True, "fails": False, "inconclusive": None}[v]
    raise ValueError(f"a map verdict is True, False, None or 'holds' / 'fails' / 'inconclusive'; got {v!r}")


def map_reading_verdict(chosen, at_readings=(), construction=NOT_RUN) -> dict:
    """The verdict of a map-decided claim (THE RULE's clause 3) against its claim-level readings (clause 4) and its
    construction cells.

    ``chosen``: the map's verdict at the claim's chosen cut-offs (``True`` holds, ``False`` fails, ``None`` undecided;
    or the strings ``"holds"`` / ``"fails"`` / ``"inconclusive"``). ``at_readings``: the map's verdicts at each other
    reading of the claim's cut-offs (one varied at a time). ``construction``: the map's verdict over the construction
    cells at the chosen cut-offs (``True`` / ``False``; ``None`` where undecided), or :data:`NOT_RUN` (also
    ``"not measured"``) where no construction cell was run or none decides.

    Returns ``{"verdict": "holds" | "fails" | "inconclusive", "kind": None | "reading" | "construction",
    "turns": [indices of the readings whose verdict differs]}``: ``kind`` names what makes a verdict inconclusive (or
    a failure a `construction` one); ``None`` where the chosen reading's verdict stands (or the map itself is
    undecided)."""
    v = _three(chosen)
    at = [_three(x) for x in at_readings]
    if v is None:
        return {"verdict": "inconclusive", "kind": None, "turns": []}
    turns = [i for i, x in enumerate(at) if x is not v]
    if turns:
        return {"verdict": "inconclusive", "kind": "reading", "turns": turns}
    if isinstance(construction, str) and construction in (NOT_RUN, "not measured"):
        return {"verdict": "holds" if v else "fails", "kind": None, "turns": []}
    c = _three(construction)
    if c is None:
        return {"verdict": "inconclusive", "kind": "construction", "turns": []}
    if c is not v:   # the chosen map holds and the construction fails: a disagreement, not a failure of ours
        return {"verdict": "inconclusive" if v else "fails", "kind": "construction", "turns": []}
    return {"verdict": "holds" if v else "fails", "kind": None, "turns": []}
