"""A claim's verdict map: its test re-run over the settings a paper leaves open, and the
diagnosis it supports (:func:`~.claims.check_diagnosis`).

A claim that fails at our chosen setting is diagnosed from its map (:func:`map_diagnosis`):

* ``setting`` when the claim holds, decisively (:func:`decisive`), at some cell (that setting is named);
* ``paper`` only when the map earns it (:func:`~.claims.paper_rules`): at least
  :data:`~.claims.MIN_SWEEP` distinct settings, every one of them failing decisively (its own
  bootstrap support >= 90 %, or a deterministic outcome), the authors' construction among them (or a
  sentence saying why the experiment has none);
* otherwise nothing is earned: :class:`~.claims.Unearned`, which turns the claim
  ``inconclusive`` with the reason (what the map lacks).

A claim decided over a whole map (paper B's THE RULE) is settled against its other readings, its construction cells
and a setting the paper gave but extraction lost by :func:`map_reading_verdict`, :func:`lost_setting_verdict` and
:func:`inconclusive_reasons` (every reason an undecided verdict has).

A cell records whose construction it runs (``construction``: ``ours`` / ``authors``) and on what
data (``data``: ``paper``, ``paper-shape``, ``stand-in``), so that the engine can tell a failure
of the paper from a failure of our construction or of a stand-in (:meth:`Experiment.claim
<inferopt.experiment.record.Experiment.claim>`).
"""

from __future__ import annotations

from .claims import (CELL_DATA, CONSTRUCTIONS, MIN_SWEEP, Unearned, UnearnedDiagnosis, VERDICTS, paper_rules,
                     setting_text, verdict)
from .support import check_support, supported_verdict


def cell(setting: dict, holds, *, support: dict | None = None, construction: str | None = None,
         data: str | None = None, readings=None) -> dict:
    """One cell of a verdict map: ``{"setting", "verdict"[, "support"][, "construction"][, "data"]}``.

    ``holds``: the measured boolean at this setting (None: not measured). ``support``: the
    bootstrap support of that outcome (:func:`~.support.bootstrap_support`); the cell's verdict
    is then ``inconclusive`` unless at least 90 % of the resamples agree, and the cell keeps the
    fraction holding; or :func:`~.support.deterministic` for an outcome with nothing random to
    resample (the cell keeps its note). A cell with neither is measured but not *decisive*
    (:func:`decisive`): it cannot name a ``setting`` nor count towards ``paper``. ``construction``: whose construction the cell runs (:data:`~.claims.CONSTRUCTIONS`).
    ``data``: the cell's data (:data:`~.claims.CELL_DATA`). ``readings``: the claim's verdicts at this cell under the
    readings of its cut-offs (:func:`~.claims.readings`' list, or its verdicts); where the decisive ones disagree (one
    holds, one fails) the cell's verdict turns within them: it is ``inconclusive`` whatever its support (not decisive),
    and keeps them. A reading that is ``inconclusive`` or ``not measured`` decides nothing, so it turns nothing (the
    claim-level rule of :meth:`~inferopt.experiment.record.Experiment.claim`)."""
    if not isinstance(setting, dict) or not setting:
        raise TypeError(f"setting must be a non-empty mapping of the open choices; got {setting!r}")
    outcome = verdict(holds)
    out = {"setting": dict(setting), "verdict": outcome}
    if support is not None:
        support = check_support(support)
        if outcome != "not measured":
            out["verdict"] = supported_verdict(outcome == "holds", support)
        if support.get("method") == "bootstrap":
            out["support"] = support["fraction_holding"]
        elif support.get("method") == "deterministic":
            out["deterministic"] = support["note"]
    if readings is not None:
        said = [r["verdict"] if isinstance(r, dict) else r for r in readings]
        bad = [v for v in said if v not in VERDICTS]
        if bad or not said:
            raise ValueError(f"readings must be the verdicts at the readings of the cut-offs (one of {VERDICTS}); got {readings!r}")
        decided = {v for v in said if v in ("holds", "fails")}
        if outcome != "not measured" and len(decided) > 1:
            out["verdict"] = "inconclusive"
            out["readings turn"] = [dict(r) if isinstance(r, dict) else r for r in readings]
    if construction is not None:
        if construction not in CONSTRUCTIONS:
            raise ValueError(f"construction must be one of {CONSTRUCTIONS}; got {construction!r}")
        out["construction"] = construction
    if data is not None:
        if data not in CELL_DATA:
            raise ValueError(f"data must be one of {CELL_DATA}; got {data!r}")
        out["data"] = data
    return out


def map_diagnosis(cells, text: str, *, no_authors_construction: str | None = None):
    """The diagnosis of a claim that does not hold at its chosen setting, from its verdict map
    ``cells`` (:func:`cell`; the chosen setting among them).

    ``setting`` naming the cells where the claim holds decisively; else ``paper`` when the map
    earns it (:func:`~.claims.paper_rules`; ``no_authors_construction``: the sentence saying why
    no cell can run the authors' construction, when none does); else :class:`~.claims.Unearned`
    naming what the map lacks. ``text`` states what the measurements show; the map is the
    evidence."""
    cells = list(cells)
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a sentence of evidence")
    for i, c in enumerate(cells):
        if not isinstance(c, dict) or not isinstance(c.get("setting"), dict) or c.get("verdict") not in VERDICTS:
            raise ValueError(f"cells[{i}] must be {{'setting': {{...}}, 'verdict': one of {VERDICTS}}}; got {c!r}")
    if len(cells) < MIN_SWEEP:
        raise ValueError(f"a verdict map needs at least {MIN_SWEEP} settings; got {len(cells)}")
    evidence = {"sweep": cells}
    if no_authors_construction is not None:
        evidence["no_authors_construction"] = no_authors_construction
    holding = [c for c in cells if c["verdict"] == "holds" and decisive(c)]
    if holding:
        return {"kind": "setting", "text": f"{text} It holds at {len(holding)} of {len(cells)} settings of the verdict map "
                f"({'; '.join(_cell_text(c) for c in holding)}).", "evidence": evidence}
    try:
        paper_rules(evidence)
    except UnearnedDiagnosis as exc:
        return Unearned(str(exc), evidence)
    return {"kind": "paper", "text": f"{text} It fails, decisively, at every one of the {len(cells)} settings of the "
            f"verdict map ({'; '.join(_cell_text(c) for c in cells)}).", "evidence": evidence}


def map_holds(verdicts) -> bool | None:
    """A claim read over every cell of its verdict map (B5: "other unreported experiments have led to similar
    results"): ``verdicts`` the cells' verdicts (or the cells, :func:`~.verdict_map.cell`). ``False`` where a cell
    fails; else ``True`` where every measured cell holds (a ``not measured`` cell, where the claim's premise does not
    apply, decides nothing); else ``None`` (an undecided cell, or no cell measured)."""
    said = [v["verdict"] if isinstance(v, dict) else v for v in verdicts]
    known = ("holds", "fails", "inconclusive", "not measured")
    if not said or any(v not in known for v in said):
        raise ValueError(f"verdicts must be a non-empty list of {known} (or cells carrying them); got {verdicts!r}")
    if "fails" in said:
        return False
    measured = [v for v in said if v != "not measured"]
    return True if measured and all(v == "holds" for v in measured) else None


def decisive(c: dict) -> bool:
    """Does a verdict-map cell's outcome stand on its own support: a bootstrap ``support`` (its
    verdict already ``inconclusive`` below 90 %, :func:`cell`) or a ``deterministic`` note (nothing
    random to resample). A cell with neither could turn on another draw."""
    return "support" in c or bool(c.get("deterministic"))


def _cell_text(c: dict) -> str:
    """``C0 = 0.1 (authors')`` -- a cell's setting, its construction when it is the authors'."""
    who = " (authors' construction)" if c.get("construction") == "authors" else ""
    return setting_text(c["setting"]) + who


# ---------------------------------------------------------------------------------------------------------------------
# A claim decided over a whole verdict map (paper B's THE RULE, clauses 3-4): the map's verdict at the claim's chosen
# cut-offs against the same map read at each other reading, over construction cells, and over the plausible values of
# a setting the paper gave but extraction lost; every reason an undecided verdict has, listed.

#: the construction cells were not run (or nothing in them is decisive): they do not enter the verdict
NOT_RUN = "not run"


def _three(v) -> bool | None:
    """A map verdict as ``True`` / ``False`` / ``None`` (undecided) from a boolean, ``None`` or its verdict word."""
    if v is None or isinstance(v, bool):
        return v
    if v in ("holds", "fails", "inconclusive"):
        return {"holds": True, "fails": False, "inconclusive": None}[v]
    raise ValueError(f"a map verdict is True, False, None or 'holds' / 'fails' / 'inconclusive'; got {v!r}")


def map_reading_verdict(chosen, at_readings=(), construction=NOT_RUN) -> dict:
    """The verdict of a map-decided claim (THE RULE's clause 3) against its claim-level readings (clause 4) and its
    construction cells (B5: a random pick among tied states):

    * the map undecided at the chosen reading: inconclusive (the map's own);
    * the map's verdict turning at another claim-level reading where that reading decides: inconclusive, kind
      ``reading`` (clause 4); a reading at which the map is undecided turns nothing (as in :meth:`Experiment.claim
      <inferopt.experiment.record.Experiment.claim>`);
    * the construction cells undecided where they were run: inconclusive, kind ``construction`` (the claim cannot hold
      or fail on the chosen construction's cells alone); the chosen map holding where they fail: inconclusive, kind
      ``construction`` (the rubric's ``construction`` kind explains a failure of ours; it never turns a holding cell
      into a failure); the chosen map failing where they hold: fails, kind ``construction`` (both reported);
    * otherwise the chosen reading's verdict.

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
    turns = [i for i, x in enumerate(at) if x is not None and x is not v]   # an undecided reading turns nothing
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


def lost_setting_verdict(verdicts_by_value: dict):
    """THE RULE on a setting the paper gave but extraction lost (B5's d): the claim's verdict over the map at each
    plausible value of the lost setting (``{value: True / False / None}``, each a :func:`~.herding_claims.map_holds`
    over that value's cells). Where the decided values agree, their verdict; where they disagree, ``"lost setting"``
    (inconclusive: decided by a lost setting, not a ``setting`` failure); ``None`` where no value decides."""
    said = [v for v in verdicts_by_value.values() if v is not None]
    if not said:
        return None
    if all(v is said[0] for v in said):
        return said[0] if len(said) == len(verdicts_by_value) else None
    return "lost setting"


def inconclusive_reasons(turning: bool, construction, chosen, lost) -> list:
    """Every reason that makes a map-decided verdict inconclusive (review 210: the engine's diagnosis names only the
    first): ``"reading"`` where the map turns at a reading (``turning``), ``"construction"`` where the construction
    cells were run (``construction`` not ``None``-as-not-run: pass ``"not run"`` for none) and are undecided or say
    otherwise than ``chosen``, ``"lost setting"`` where the values of the lost setting disagree (``lost``)."""
    reasons = ["reading"] if turning else []
    if not (isinstance(construction, str) and construction in (NOT_RUN, "not measured")):
        if construction is None or chosen is None or bool(construction) != bool(chosen):
            reasons.append("construction")
    if lost == "lost setting":
        reasons.append("lost setting")
    return reasons
