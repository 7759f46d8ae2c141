"""Executed notebooks as self-contained HTML that reads offline.

nbconvert's ``lab`` template embeds output figures as base64 but loads MathJax and
require.js from a CDN. MathJax 2.7 is copied from the ``jupyter-server-mathjax``
package next to the reports and referenced relatively, configured to the STIX-Web fonts
that package ships (its default, the TeX web fonts, is not shipped: formulas would fall
back to system fonts with misplaced hats and root bars); require.js and mermaid (unused by
these notebooks) are replaced by empty sources, so nothing is fetched.

Before rendering, outputs are cleaned for reading: the claims table a notebook prints is
replaced by the same table as HTML (:func:`~inferopt.experiment.claims.claims_html`), once (a
copy printed again, less the claims nbval leaves out, becomes one line: :func:`claims_once`), the
progress bars the notebook wrote to stderr (their final states) are shown as plain output, not
in the pink box of an error stream (:func:`progress_apart`), and absolute paths of the build
machine are made relative (the executed notebook keeps its raw outputs).
"""

from __future__ import annotations

import html
import importlib.util
import os
import re
import shutil
import sys
import sysconfig
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter

from ..experiment.claims import CLAIMS_CSS, claims_html, claims_text
from .layout import claims_again, split_claims_table

#: MathJax configuration shipped by jupyter-server-mathjax (TeX input, HTML-CSS output).
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full,Safe"
#: Set before MathJax loads: use the STIX-Web fonts jupyter-server-mathjax ships.
MATHJAX_FONTS = (
    '<script>window.MathJax = {"HTML-CSS": {availableFonts: ["STIX-Web"], preferredFont: "STIX-Web", '
    'webFont: "STIX-Web", imageFont: null}};</script>'
)
EMPTY_SCRIPT = "data:text/javascript,"
#: Any installed-packages folder (another venv, a conda env), shown as ``<site-packages>``.
SITE_PACKAGES = re.compile(r"/[^\s\"'<>]*?/(?:site|dist)-packages(?=/)")
#: A tqdm bar's final state: ``label: 100%|█████| 12/12 [00:03<00:00, 3.9it/s]``.
PROGRESS_LINE = re.compile(r"^[^\n]*\d+%\|[^|\n]*\|\s*[\d.]+[kMG]?/[\d.]+[kMG]?\s*\[[^\]\n]*\]\s*$")


def progress_apart(output):
    """A stderr stream output split into runs of lines, the progress-bar lines
    (:data:`PROGRESS_LINE`) as ``stdout`` streams, the rest (warnings, errors) kept on
    ``stderr``; a bar that cleared itself (``leave=False``: blanks and a carriage return) is left
    out, so no empty error box is left behind; any other output as it is."""
    if output.get("output_type") != "stream" or output.get("name") != "stderr":
        return [output]
    parts: list = []
    for line in output.get("text", "").splitlines(keepends=True):
        if line.endswith("\r") and not line.strip():
            continue
        name = "stdout" if PROGRESS_LINE.match(line.rstrip("\n").split("\r")[-1]) else "stderr"
        if parts and parts[-1][0] == name:
            parts[-1][1].append(line)
        else:
            parts.append((name, [line]))
    return [nbformat.v4.new_output("stream", name=name, text="".join(lines)) for name, lines in parts]


def mathjax_source() -> Path:
    """The MathJax 2.7 tree that ``jupyter-server-mathjax`` ships, found without importing that
    package (its import loads the whole Jupyter server: seconds at the start of every stage)."""
    spec = importlib.util.find_spec("jupyter_server_mathjax")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("the package jupyter-server-mathjax (the reports' local MathJax) is not installed: `make venv`")
    return Path(spec.origin).parent / "static"


def copy_mathjax(dest: Path) -> Path:
    """Copy the local MathJax 2.7 tree (:func:`mathjax_source`) to ``dest`` (replacing what was there)."""
    source = mathjax_source()
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest)
    return dest


def machine_paths(root: Path) -> list[tuple[str, str]]:
    """``(absolute prefix, shown as)`` pairs of this machine, longest first: the installed
    packages, the Python prefix, the repository and the home folder."""
    pairs = {
        sysconfig.get_paths()["purelib"]: "<site-packages>",
        sys.prefix: "<python>",
        str(root): ".",
        os.path.expanduser("~"): "~",
    }
    return sorted(((k.rstrip(os.sep), v) for k, v in pairs.items() if len(k) > 1), key=lambda kv: -len(kv[0]))


def without_machine_paths(text: str, pairs: list[tuple[str, str]]) -> str:
    """``text`` with every absolute machine prefix of ``pairs`` replaced by its short name."""
    for prefix, name in pairs:
        text = text.replace(prefix, name)
    return SITE_PACKAGES.sub("<site-packages>", text)


def _clean(value, pairs):
    if isinstance(value, str):
        return without_machine_paths(value, pairs)
    if isinstance(value, list):
        return [_clean(v, pairs) for v in value]
    if isinstance(value, dict):
        return {k: (v if k.startswith("image/") else _clean(v, pairs)) for k, v in value.items()}
    return value


def _claims_table(claims: list[dict], rows: list[str]):
    """Every claim as the HTML table, said so when the notebook printed it less some claims."""
    ids = [c["id"] for c in claims]
    left_out = [i for i in ids if i not in rows]
    note = (f"<p class='claims-note'>Every claim of this run (this cell prints the table less "
            f"{html.escape(', '.join(left_out))}).</p>") if left_out else ""
    return nbformat.v4.new_output("display_data", data={
        "text/html": f"<style>{CLAIMS_CSS}</style>{note}{claims_html(claims)}", "text/plain": claims_text(claims)})


def claims_once(outputs: list, claims: list[dict], shown: bool = False) -> tuple[list, bool]:
    """``(outputs, shown)``: one cell's ``outputs`` with the claims table shown once per notebook
    (``shown``: already shown by an earlier cell). The first printed claims table
    (:data:`.layout.CLAIMS_HEADER`, as ``Experiment.finish`` prints it, or a copy less some claims) becomes
    the HTML table of every claim; a later printed copy (the rows a notebook prints for nbval to
    compare) or a later displayed one becomes one line saying so (:func:`claims_again`). Text
    printed before or after a table stays."""
    ids, out = [c["id"] for c in claims], []
    for output in outputs:
        split = (split_claims_table(output.get("text", ""), ids)
                 if output.get("output_type") == "stream" and output.get("name") == "stdout" else None)
        displayed = "<table class='claims'>" in str((output.get("data") or {}).get("text/html", ""))
        if split is None and not (displayed and shown):  # not a claims table, or the first one displayed
            out.append(output)
            shown = shown or displayed
            continue
        before, rows, after = split or ("", ids, "")
        table = (nbformat.v4.new_output("stream", name="stdout", text=claims_again(rows, ids)) if shown
                 else _claims_table(claims, rows))
        shown = True
        out += [*([nbformat.v4.new_output("stream", name="stdout", text=before)] if before.strip() else []), table,
                *([nbformat.v4.new_output("stream", name="stdout", text=after)] if after.strip() else [])]
    return out, shown


def prepare_for_reading(nb, *, root: Path, claims: list[dict] | None = None):
    """Clean ``nb``'s outputs in place for the HTML report (see the module docstring); with
    ``claims``, a notebook that shows no claims table gets one closing cell that shows it."""
    pairs = machine_paths(root)
    shown = False
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outputs = [part for output in cell.outputs for part in progress_apart(output)]
        if claims:
            outputs, shown = claims_once(outputs, claims, shown)
        cell.outputs = [nbformat.from_dict(_clean(dict(out), pairs)) for out in outputs]
    if claims and not shown:   # a notebook that writes its claims without printing them: they close the report
        closing = nbformat.v4.new_code_cell("exp.claims_table()  # every claim of this run (added by the report)")
        closing.outputs = [_claims_table(claims, [c["id"] for c in claims])]
        nb.cells.append(closing)
    return nb


def notebook_to_html(notebook: Path, html: Path, *, mathjax_rel: str, root: Path | None = None,
                     claims: list[dict] | None = None) -> Path:
    """Render ``notebook`` to ``html`` (lab template, images embedded, MathJax at ``mathjax_rel``
    with STIX-Web fonts); ``claims`` renders the printed claims table as HTML."""
    exporter = HTMLExporter(template_name="lab", embed_images=True)
    loader = f"{mathjax_rel}/MathJax.js?config={MATHJAX_CONFIG}"
    exporter.mathjax_url = loader
    exporter.require_js_url = EMPTY_SCRIPT
    exporter.mermaid_js_url = exporter.mermaid_layout_elk_js_url = ""  # no diagrams: nothing to load
    nb = prepare_for_reading(nbformat.read(notebook, as_version=4), root=root or notebook.parent, claims=claims)
    body, _ = exporter.from_notebook_node(nb)
    tag = f'<script src="{loader}">'
    if tag not in body:
        raise ValueError(f"nbconvert's template no longer loads MathJax as {tag!r}: cannot set its fonts")
    body = body.replace(tag, MATHJAX_FONTS + "\n" + tag, 1)
    html.parent.mkdir(parents=True, exist_ok=True)
    html.write_text(body, encoding="utf-8")
    return html
