"""Every claim of papers B and D quotes the paper (the catalogue's section B and D), and every threshold of ours
of their committed paper-scale runs carries readings."""
import json
from pathlib import Path

import pytest

from inferopt.experiment.claims import check_quote, check_threshold
from inferopt.experiment.quotes import catalogue, quote_of

METRICS = sorted((Path(__file__).resolve().parents[2] / "reports" / "paper" / "metrics").glob("[BD][0-9].json"))
CLAIMS = [c for p in METRICS for c in json.loads(p.read_text())["claims"]]


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c["id"])
def test_claim_has_a_quote(claim):
    quote = quote_of(claim["id"])
    assert quote is not None, f"{claim['id']} has no quote in quotes.yaml"
    check_quote(quote)


@pytest.mark.parametrize("claim", [c for c in CLAIMS if "threshold" in c], ids=lambda c: c["id"])
def test_threshold_of_ours_has_readings(claim):
    check_threshold(claim["threshold"])


def test_sections_b_and_d_hold_only_their_paper():
    ids = [k for k in catalogue() if k[0] in "BD"]
    assert {k.split(".")[0] for k in ids} == {f"B{i}" for i in range(1, 7)} | {f"D{i}" for i in range(1, 6)}
