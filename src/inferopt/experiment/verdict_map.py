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
    readings of its cut-offs (:func:`~.claims.readings`' list, or its verdicts); where the measured ones disagree the
    cell's verdict turns within them: it is ``inconclusive`` whatever its support (not decisive), and keeps them."""
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
        measured = {v for v in said if v != "not measured"}
        if outcome != "not measured" and len(measured) > 1:
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


def decisive(c: dict) -> bool:
    """Does a verdict-map cell's outcome stand on its own support: a bootstrap ``support`` (its
    verdict already ``inconclusive`` below 90 %, :func:`cell`) or a ``deterministic`` note (nothing
    random to resample). A cell with neither could turn on another draw."""
    return "support" in c or bool(c.get("deterministic"))


def _cell_text(c: dict) -> str:
    """``C0 = 0.1 (authors')`` -- a cell's setting, its construction when it is the authors'."""
    who = " (authors' construction)" if c.get("construction") == "authors" else ""
    return setting_text(c["setting"]) + who

