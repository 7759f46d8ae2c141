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


def failure_marker(root: Path, experiment_id: str, output_dir: str | Path = "reports") -> Path:
    """Where a failed run of ``experiment_id`` into ``output_dir`` leaves its error (beside its
    partial notebook): ``build/failed/`` for ``reports``, else ``build/failed/<its name>/``
    (a failed paper-scale run does not mark the default-scale report, nor the reverse)."""
    out = Path(output_dir) if Path(output_dir).is_absolute() else root / output_dir
    folder = root / FAILED_DIR if out == root / "reports" else root / FAILED_DIR / out.name
    return folder / f"{experiment_id}.json"
