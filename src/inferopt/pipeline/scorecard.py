"""The compact scorecard of one experiment: what ``dvc metrics`` and ``dvc exp show`` compare.

``reports/metrics/<id>.json`` holds everything a notebook measured (hundreds of nested
numbers); DVC flattens it into unreadable columns. The scorecard
``reports/scorecard/<id>.json`` is flat and small, git-tracked (``cache: false``)::

    {"A1.1": 1, "A1.2": 0, "A1.4": "inconclusive", "A1.5": "not measured", "A1 reverse_kl": 0.01}

one key per claim — 1 holds, 0 fails, the verdict's name for ``inconclusive`` and
``not measured`` — then at most :data:`MAX_HEADLINE` headline numbers (keys with a space):
the mapping ``metrics["headline"]`` when a notebook records one, else the top-level numbers
of its ``metrics``, filled up with the first top-level number each claim was judged on.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

#: Scorecard value of each verdict (numbers where DVC can diff them).
VERDICT_VALUE = {"holds": 1, "fails": 0, "inconclusive": "inconclusive", "not measured": "not measured"}
#: The verdict a scorecard value stands for.
VALUE_VERDICT = {str(v): k for k, v in VERDICT_VALUE.items()}
MAX_HEADLINE = 3


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def headline(data: dict) -> dict:
    """At most :data:`MAX_HEADLINE` headline numbers of a metrics JSON, keyed ``"<id> <name>"``
    (``"<claim id> <name>"`` for a claim's number)."""
    metrics = data.get("metrics") or {}
    declared = isinstance(metrics.get("headline"), dict)
    source = metrics["headline"] if declared else metrics
    numbers = [(f"{data['experiment']} {k}", v) for k, v in source.items() if _is_number(v)]
    if not declared:
        for claim in data["claims"]:
            first = next(((k, v) for k, v in claim["measured"].items() if _is_number(v)), None)
            numbers += [(f"{claim['id']} {first[0]}", first[1])] if first else []
    return dict(numbers[:MAX_HEADLINE])


def scorecard(data: dict) -> dict:
    """The flat scorecard of a validated metrics JSON (see the module docstring)."""
    card = {c["id"]: VERDICT_VALUE[c["verdict"]] for c in data["claims"]}
    card.update(headline(data))
    return card


def write_scorecard(data: dict, path: Path) -> Path:
    """Write :func:`scorecard` of ``data`` to ``path`` atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(scorecard(data), indent=2) + "\n")
    os.replace(tmp, path)
    return path


def verdicts(card: dict) -> dict:
    """``{claim id: verdict}`` of a scorecard (its headline numbers left out)."""
    return {key: VALUE_VERDICT[str(value)] for key, value in card.items() if " " not in key and str(value) in VALUE_VERDICT}
