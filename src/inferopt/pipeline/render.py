"""Executed notebooks as self-contained HTML that reads offline.

nbconvert's ``lab`` template embeds output figures as base64 but loads MathJax and
require.js from a CDN. MathJax 2.7 is copied from the ``jupyter-server-mathjax``
package next to the reports and referenced relatively; require.js and mermaid (unused by these
notebooks) are replaced by empty sources, so nothing is fetched.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import jupyter_server_mathjax
import nbformat
from nbconvert import HTMLExporter

#: MathJax configuration shipped by jupyter-server-mathjax (TeX input, HTML-CSS output).
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full,Safe"
EMPTY_SCRIPT = "data:text/javascript,"


def copy_mathjax(dest: Path) -> Path:
    """Copy the local MathJax 2.7 tree to ``dest`` (replacing what was there)."""
    source = Path(jupyter_server_mathjax.__file__).parent / "static"
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest)
    return dest


def notebook_to_html(notebook: Path, html: Path, *, mathjax_rel: str) -> Path:
    """Render ``notebook`` to ``html`` (lab template, images embedded, MathJax at ``mathjax_rel``)."""
    exporter = HTMLExporter(template_name="lab", embed_images=True)
    exporter.mathjax_url = f"{mathjax_rel}/MathJax.js?config={MATHJAX_CONFIG}"
    exporter.require_js_url = EMPTY_SCRIPT
    exporter.mermaid_js_url = exporter.mermaid_layout_elk_js_url = ""  # no diagrams: nothing to load
    body, _ = exporter.from_notebook_node(nbformat.read(notebook, as_version=4))
    html.parent.mkdir(parents=True, exist_ok=True)
    html.write_text(body, encoding="utf-8")
    return html
