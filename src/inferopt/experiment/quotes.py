"""The paper's own words behind every claim: a catalogue keyed by claim id.

``quotes.yaml`` beside this module maps each claim id (``A1.1``, ``C2.3``, ...) to
``{"text": the paper's words, "where": section / figure / table}``. :meth:`Experiment.claim
<inferopt.experiment.record.Experiment.claim>` attaches the entry to its claim, and the review
page (``reports/paper/REVIEW.md``) shows it beside our test, so a claim's quote is written once
and is there for runs committed before it was.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

CATALOGUE = Path(__file__).with_name("quotes.yaml")


@lru_cache(maxsize=1)
def catalogue() -> dict:
    """Every quote, ``{claim id: {"text", "where"}}`` (read once)."""
    data = yaml.safe_load(CATALOGUE.read_text()) if CATALOGUE.exists() else {}
    return dict(data or {})


def quote_of(claim_id: str) -> dict | None:
    """The catalogue's quote of ``claim_id``; for a variant id (``A3.1-authors``,
    ``C2.5-intercept``) the base claim's; ``None`` if it has none."""
    entries = catalogue()
    if claim_id in entries:
        return dict(entries[claim_id])
    base = claim_id.split("-", 1)[0]
    return dict(entries[base]) if base in entries else None
