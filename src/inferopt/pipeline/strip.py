"""An outputs-stripped copy of a notebook: what the pipeline stage depends on.

Saving a notebook in JupyterLab changes its outputs, execution counts and metadata,
not its code; the stripped copy is byte-identical in that case, so DVC does not re-run
the experiment.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

#: Notebook-level metadata kept in the stripped copy (the rest is editor state).
KEEP_METADATA = ("kernelspec", "language_info")


def strip_notebook(src: Path, dst: Path) -> Path:
    """Write ``src`` without outputs, execution counts and editor metadata to ``dst``."""
    nb = nbformat.read(src, as_version=4)
    nb.metadata = {k: v for k, v in nb.metadata.items() if k in KEEP_METADATA}
    nb.metadata.get("language_info", {}).pop("version", None)
    for cell in nb.cells:
        cell.metadata = {k: v for k, v in cell.metadata.items() if k == "tags"}
        cell.pop("id", None)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    nb.nbformat_minor = 4  # no cell ids in 4.4: stable bytes across editors
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_suffix(".tmp")
    nbformat.write(nb, tmp)
    tmp.replace(dst)
    return dst
