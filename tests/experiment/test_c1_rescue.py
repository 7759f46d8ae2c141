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
CASES = [(run["params"]["C0"], claim) for run in RUNS for claim in run["claims"]]


def own_setting(claim_id: str, c0) -> dict:
    """The claim's own cell: its draw count (C1.x at 10 draws, C1.x-draws<n> at n; ``-authors``: the same cell under the
    authors' construction) and, for C1.2, the run's C_-1."""
    m = re.fullmatch(r"C1\.(\d)(?:-draws(\d+))?(?:-authors)?", claim_id)
    draws = int(m.group(2) or 10)
    return {"draws": draws} if m.group(1) == "1" else {"draws": draws, "C0": str(c0)}


@pytest.mark.parametrize("c0,claim", CASES, ids=[f"{i}-{c['id']}" for i, (_, c) in enumerate(CASES)])
def test_a_rescue_is_never_the_claims_own_cell(c0, claim):
    diagnosis = claim.get("diagnosis") or {}
    sweep = (diagnosis.get("evidence") or {}).get("sweep") or []
    own = own_setting(claim["id"], c0)
    assert not any(c["setting"] == own and c["verdict"] == "holds" for c in sweep), \
        f"{claim['id']} holds at its own cell yet is diagnosed {diagnosis}"
    if diagnosis.get("kind") == "setting":
        assert any(c["verdict"] == "holds" and c["setting"] != own for c in sweep), diagnosis["text"]
