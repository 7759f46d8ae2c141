"""Reading a metrics JSON (``reports/metrics/<id>.json``, ``reports/paper/metrics/<id>.json``)
or a scorecard for the command line: a file that cannot be one is refused in one line naming
the file and what is wrong, never with a traceback from deep inside ``json`` or a ``KeyError``."""

from __future__ import annotations

import json
from pathlib import Path

from ..experiment.claims import VERDICTS


def json_mapping(text: str, where: str) -> dict:
    """The JSON object in ``text`` (the contents of ``where``); else ``ValueError`` naming ``where``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where} is not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{where} is a JSON {type(data).__name__}, not a mapping: neither a metrics JSON nor a scorecard")
    return data


def check_metrics(data: dict, where: str) -> dict:
    """``data`` as a metrics mapping: its optional ``claims`` a list of mappings, each with a
    string ``id`` and a ``verdict`` of :data:`~inferopt.experiment.claims.VERDICTS`. Else
    ``ValueError`` naming ``where``."""
    claims = data.get("claims", [])
    if not isinstance(claims, list):
        raise ValueError(f"{where}: 'claims' must be a list of claims; got a {type(claims).__name__}")
    for i, c in enumerate(claims):
        if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not c["id"]:
            raise ValueError(f"{where}: claims[{i}] has no 'id' (each claim needs an id and a verdict)")
        if c.get("verdict") not in VERDICTS:
            raise ValueError(f"{where}: claim {c['id']} has verdict {c.get('verdict')!r}, not one of {VERDICTS}")
    return data


def parse_metrics(text: str, where: str) -> dict:
    """The metrics mapping in ``text`` (:func:`json_mapping`, then :func:`check_metrics`)."""
    return check_metrics(json_mapping(text, where), where)


def read_text(path: Path) -> str:
    """The text of the file ``path``; a folder or an unreadable file is refused by name."""
    if path.is_dir():
        raise ValueError(f"{path} is a folder, not a metrics JSON or scorecard: move it out of {path.parent}")
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} cannot be read ({exc.__class__.__name__}: {exc})") from None


def read_metrics(path: Path) -> dict:
    """:func:`parse_metrics` of the file ``path``."""
    return parse_metrics(read_text(path), str(path))


def metrics_files(folder: Path) -> list[Path]:
    """The ``*.json`` entries of ``folder``, sorted (a folder among them is refused when read)."""
    return sorted(folder.glob("*.json"))
