"""C1's diagnoses at both scales (committed paper-scale metrics; the default scale's when `dvc repro` has run):
a verdict map whose own cell holds carries no rescue (its inconclusive verdict is its support's or its
cut-off's), and a `setting` diagnosis rests on a holding cell other than the claim's own."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = [json.loads(p.read_text()) for p in (ROOT / "reports" / "paper" / "metrics" / "C1.json",
                                            ROOT / "reports" / "metrics" / "C1.json") if p.exists()]
CASES = [(max(run["params"]["draws"]), claim) for run in RUNS for claim in run["claims"]]


def own_setting(claim_id: str, largest: int) -> dict:
    """The claim's own cell: its draw count (C1.x at the largest count, the authors' default that the plain ids carry;
    C1.x-draws<n> at n; ``-extremes``, ``-floor``,
    ``-authors``: another claim or construction in the same cell)."""
    m = re.fullmatch(r"C1\.(\d)(?:-draws(\d+))?(?:-extremes|-floor|-authors)?", claim_id)
    assert m, f"unexpected C1 claim id {claim_id}"
    return {"draws": int(m.group(2) or largest)}


@pytest.mark.parametrize("largest,claim", CASES, ids=[f"{i}-{c['id']}" for i, (_, c) in enumerate(CASES)])
def test_a_rescue_is_never_the_claims_own_cell(largest, claim):
    diagnosis = claim.get("diagnosis") or {}
    sweep = (diagnosis.get("evidence") or {}).get("sweep") or []
    own = own_setting(claim["id"], largest)
    assert not any(c["setting"] == own and c["verdict"] == "holds" for c in sweep), \
        f"{claim['id']} holds at its own cell yet is diagnosed {diagnosis}"
    if diagnosis.get("kind") == "setting":   # a rescue rests on a cell whose claim holds, decided (not inconclusive)
        assert any(c["verdict"] == "holds" and c["setting"] != own for c in sweep), diagnosis["text"]
