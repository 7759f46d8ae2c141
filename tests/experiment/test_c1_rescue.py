"""C1's diagnoses at both scales (committed paper-scale metrics; the default scale's when `dvc repro` has run):
a `setting` diagnosis names a rescue other than the claim's own cell of its verdict map, and a verdict map whose
own cell holds carries no rescue (its inconclusive verdict is its support's or its cut-off's)."""
import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PATHS = [p for p in (ROOT / "reports" / "paper" / "metrics" / "C1.json", ROOT / "reports" / "metrics" / "C1.json")
         if p.exists()]
CLAIMS = [(p.parts[-3], c) for p in PATHS for c in json.loads(p.read_text())["claims"]]
C0_MAIN = str(yaml.safe_load((ROOT / "params.yaml").read_text())["C1"]["C0"])  # params_paper.yaml keeps it


def own_setting(claim_id: str) -> dict:
    """The claim's own cell: its draw count (C1.x at 10 draws, C1.x-draws<n> at n) and, for C1.2, the main C_-1."""
    m = re.fullmatch(r"C1\.(\d)(?:-draws(\d+))?", claim_id)
    draws = int(m.group(2) or 10)
    return {"draws": draws} if m.group(1) == "1" else {"draws": draws, "C0": C0_MAIN}


@pytest.mark.parametrize("scale,claim", CLAIMS, ids=[f"{s}-{c['id']}" for s, c in CLAIMS])
def test_a_rescue_is_never_the_claims_own_cell(scale, claim):
    diagnosis = claim.get("diagnosis") or {}
    sweep = (diagnosis.get("evidence") or {}).get("sweep") or []
    own = own_setting(claim["id"])
    own_cells = [c for c in sweep if c["setting"] == own]
    if own_cells and own_cells[0]["verdict"] == "holds":
        assert diagnosis.get("kind") in (None, "reading"), f"{claim['id']} holds at its own cell yet is diagnosed {diagnosis}"
    if diagnosis.get("kind") == "setting":
        named = re.search(r"holds (?:with (\d+) draws|at (\{.*?\}))", diagnosis["text"])
        assert named, diagnosis["text"]
        if named.group(1):
            assert int(named.group(1)) != own["draws"], diagnosis["text"]
        else:
            assert named.group(2) != str(own), diagnosis["text"]
