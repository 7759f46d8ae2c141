"""Where the pipeline writes and how it recognises what a notebook printed: the constants the
runner (:mod:`.run`), the paper-scale driver (:mod:`.paper`), the report and the review share, so
that none of them imports another for them (imports in this package go one way).
"""

from __future__ import annotations

import re
from pathlib import Path

PAPER_DIR = Path("reports") / "paper"
FAILED_DIR = Path("build") / "failed"
#: First line of the claims DataFrame a notebook prints (``Experiment.finish``).
CLAIMS_HEADER = re.compile(r"^\s*verdict\s+claim\s+measured\s*$", re.M)
#: the line under that header: the name of the table's index
INDEX_NAME = "id"


def failure_marker(root: Path, experiment_id: str, output_dir: str | Path = "reports") -> Path:
    """Where a failed run of ``experiment_id`` into ``output_dir`` leaves its error (beside its
    partial notebook): ``build/failed/`` for ``reports``, else ``build/failed/<its name>/``
    (a failed paper-scale run does not mark the default-scale report, nor the reverse)."""
    out = Path(output_dir) if Path(output_dir).is_absolute() else root / output_dir
    folder = root / FAILED_DIR if out == root / "reports" else root / FAILED_DIR / out.name
    return folder / f"{experiment_id}.json"


def split_claims_table(text: str, ids) -> tuple[str, list[str], str] | None:
    """``(before, row ids, after)`` of the first claims table printed in ``text`` (:data:`CLAIMS_HEADER`,
    then one row per claim, each starting with its id, one of ``ids``): the text before the table,
    the ids of its rows in order (a notebook may print it less some claims) and the text after it.
    None when ``text`` prints no claims table."""
    header = CLAIMS_HEADER.search(text)
    if header is None:
        return None
    known, rows = set(ids), []
    lines = text[header.end():].lstrip("\n").splitlines(keepends=True)
    while lines and table_row(lines[0], known):
        first = lines.pop(0).split(maxsplit=1)[0]
        rows += [first] if first in known else []
    return text[:header.start()], rows, "".join(lines)


def table_row(line: str, ids) -> bool:
    """Is ``line`` a line of a printed claims table below its header: the index's name (``id``)
    or a row, which starts with a claim's id (one of ``ids``)?"""
    first = line.split(maxsplit=1)[:1]
    return bool(first) and (first[0] == INDEX_NAME or first[0] in ids)


def claims_again(rows: list[str], ids: list[str]) -> str:
    """The line that stands for a claims table printed once more (every claim's table is shown once)."""
    left_out = [i for i in ids if i not in rows]
    return "(the claims table above" + (f", less {', '.join(left_out)}" if left_out else "") + ")\n"
